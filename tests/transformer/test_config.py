"""The facts about a model's sizes that the Train page, the Lab and the command line share (transformer.config)."""

import pytest

from transformer import Translator
from transformer.config import MODEL_SIZES, SIZE_LIMITS, TransformerConfig, heads_dividing, model_sizes
from transformer.errors import ConfigError


def test_the_head_counts_offered_are_exactly_those_a_config_accepts():
    for d_model in (8, 12, 64, 96):
        offered = heads_dividing(d_model)
        for n_heads in range(1, SIZE_LIMITS["n_heads"] + 1):
            if n_heads in offered:
                assert TransformerConfig(1, 1, d_model=d_model, n_heads=n_heads).d_k * n_heads == d_model
            else:
                with pytest.raises(ConfigError, match="divisible"):
                    TransformerConfig(1, 1, d_model=d_model, n_heads=n_heads)
    assert heads_dividing(64, (1, 2, 4, 8, 16)) == [1, 2, 4, 8, 16]
    assert heads_dividing(8, (1, 2, 4, 8, 16)) == [1, 2, 4, 8]  # the Train page's choices for d_model 8


def test_a_models_sizes_are_read_from_its_config_in_the_train_pages_order():
    cfg = TransformerConfig(5, 6, d_model=32, n_heads=2, d_ff=48, n_layers=3, dropout=0.1)
    assert model_sizes(cfg) == {"d_model": 32, "n_heads": 2, "d_ff": 48, "n_layers": 3}
    assert list(model_sizes(cfg, dropout=True)) == [*MODEL_SIZES, "dropout"]
    assert model_sizes(cfg, dropout=True)["dropout"] == 0.1


def test_a_pair_fits_when_its_source_and_S_plus_its_target_fit_the_positions():
    translator = Translator.create([("a b c", "x y")], d_model=8, n_heads=1, d_ff=8, n_layers=1, max_len=3)
    assert translator.fits(("a b c", "x y"))  # 3 source positions; S x y: 3 decoder positions
    assert not translator.fits(("a b c a", "x"))  # 4 source tokens
    assert not translator.fits(("a", "x y x"))  # S + 3 target tokens
