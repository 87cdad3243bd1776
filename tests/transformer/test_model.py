"""Positional encoding, configs, LayerNorms, attention maps, fused vs eager attention, and nn.MultiheadAttention."""

from __future__ import annotations

import dataclasses
import math

import pytest
import torch
from torch import nn

from transformer import (
    TrainConfig,
    Transformer,
    TransformerConfig,
    Translator,
    get_attn_pad_mask,
    positional_encoding_table,
    train,
)
from transformer.config import MAX_LEN_LIMIT
from transformer.errors import ConfigError
from transformer.model import AddNorm, MultiHeadAttention

SEED_TABLE = [
    [0.0, 1.0, 0.0, 1.0],
    [0.8415, 0.5403, 0.0100, 0.9999],
    [0.9093, -0.4161, 0.0200, 0.9998],
    [0.1411, -0.9900, 0.0300, 0.9996],
    [-0.7568, -0.6536, 0.0400, 0.9992],
]

# two source rows (the second padded) and two target rows (the second padded)
ENC = torch.tensor([[1, 2, 3, 4, 5], [3, 4, 0, 0, 0]])
DEC = torch.tensor([[1, 4, 5, 6, 7, 8], [1, 6, 7, 0, 0, 0]])


def _model(seed: int = 0, **sizes) -> Transformer:
    torch.manual_seed(seed)
    sizes = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 2, **sizes}
    return Transformer(TransformerConfig(src_vocab_size=8, tgt_vocab_size=10, **sizes))


# ---------------------------------------------------------------- positional encoding


def test_positional_table_matches_the_seed():
    table = positional_encoding_table(5, 4)
    assert table.shape == (5, 4)
    assert torch.allclose(table, torch.tensor(SEED_TABLE), atol=5e-5)


@pytest.mark.parametrize("d_model", [1, 5, 7])
def test_positional_table_with_odd_d_model(d_model):
    table = positional_encoding_table(6, d_model)
    assert table.shape == (6, d_model)
    for pos in range(6):
        for i in range(d_model):
            angle = pos / 10000 ** (2 * (i // 2) / d_model)
            expected = math.sin(angle) if i % 2 == 0 else math.cos(angle)
            assert table[pos, i].item() == pytest.approx(expected, abs=1e-5)


def test_model_with_odd_d_model_runs():
    model = _model(d_model=5, n_heads=1, d_ff=8).eval()
    logits, _ = model(ENC, DEC)
    assert logits.shape == (2, 6, 10)
    assert torch.isfinite(logits).all()


# ---------------------------------------------------------------- configs


def test_d_model_not_divisible_by_n_heads_names_n_heads():
    with pytest.raises(ValueError, match="n_heads"):
        TransformerConfig(10, 10, d_model=16, n_heads=3)
    with pytest.raises(ValueError, match="n_heads"):
        TransformerConfig(10, 10, d_model=16, n_heads=3, d_k=4)  # d_v still missing


def test_explicit_d_k_and_d_v_allow_any_head_count():
    cfg = TransformerConfig(10, 10, d_model=16, n_heads=3, d_k=4, d_v=5)
    assert (cfg.d_k, cfg.d_v) == (4, 5)
    model = Transformer(cfg).eval()
    logits, _ = model(ENC, DEC)
    assert logits.shape == (2, 6, 10)


def test_d_k_and_d_v_default_to_d_model_over_n_heads():
    cfg = TransformerConfig(10, 10, d_model=16, n_heads=4)
    assert (cfg.d_k, cfg.d_v) == (4, 4)


@pytest.mark.parametrize(
    "field", ["src_vocab_size", "tgt_vocab_size", "d_model", "d_ff", "n_heads", "n_layers", "d_k", "d_v", "max_len"]
)
@pytest.mark.parametrize("value", [0, -2, 2.5, True])
def test_non_positive_or_non_integer_size_names_the_field(field, value):
    sizes = {"src_vocab_size": 10, "tgt_vocab_size": 10, field: value}
    with pytest.raises(ConfigError, match=field):
        TransformerConfig(**sizes)


def test_max_len_has_an_upper_limit():
    assert TransformerConfig(10, 10, max_len=MAX_LEN_LIMIT).max_len == MAX_LEN_LIMIT
    with pytest.raises(ConfigError, match="max_len"):
        TransformerConfig(10, 10, max_len=MAX_LEN_LIMIT + 1)


@pytest.mark.parametrize("dropout", [-0.1, 1.0, 1.5, "0.1", None])
def test_dropout_out_of_range_is_refused(dropout):
    with pytest.raises(ValueError, match="dropout"):
        TransformerConfig(10, 10, dropout=dropout)


def test_dropout_in_range_is_accepted():
    assert TransformerConfig(10, 10, dropout=0.0).dropout == 0.0
    assert TransformerConfig(10, 10, dropout=0.99).dropout == 0.99


def test_configs_are_frozen():
    cfg = TransformerConfig(10, 10)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.d_model = 32
    with pytest.raises(dataclasses.FrozenInstanceError):
        TrainConfig().epochs = 5


def test_config_dict_round_trip_and_refusals():
    cfg = TransformerConfig(10, 12, d_model=12, n_heads=3, dropout=0.1)
    assert TransformerConfig.from_dict(cfg.to_dict()) == cfg
    with pytest.raises(ConfigError, match="colour"):
        TransformerConfig.from_dict({**cfg.to_dict(), "colour": "red"})
    with pytest.raises(ConfigError, match="incomplete"):
        TransformerConfig.from_dict({"d_model": 16})
    with pytest.raises(ConfigError):
        TransformerConfig.from_dict([1, 2])


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"epochs": 0}, "epochs"),
        ({"batch_size": -1}, "batch_size"),
        ({"lr": 0}, "lr"),
        ({"lr": -1}, "lr"),
        ({"lr": 2.0}, "lr"),
        ({"seed": -1}, "seed"),
        ({"epochs": 1.5}, "epochs"),
    ],
)
def test_train_config_refuses_bad_values_naming_the_field(kwargs, field):
    with pytest.raises(ConfigError, match=field):
        TrainConfig(**kwargs)


# ---------------------------------------------------------------- LayerNorm


def test_every_layer_norm_is_registered_and_learns():
    """The seed built LayerNorm inside forward: untrained, unsaved and invisible to the optimiser."""
    pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "hello")]
    translator = Translator.create(pairs, d_model=16, n_heads=2, d_ff=32, n_layers=2)
    model = translator.model
    norms = {name: m for name, m in model.named_modules() if isinstance(m, AddNorm)}
    assert len(norms) == 2 * 2 + 3 * 2  # two per encoder layer, three per decoder layer
    params = {id(p) for p in model.parameters()}
    state = model.state_dict()
    before = {}
    for name, norm in norms.items():
        assert norm.weight.requires_grad and norm.bias.requires_grad
        assert id(norm.weight) in params and id(norm.bias) in params
        assert f"{name}.weight" in state and f"{name}.bias" in state
        before[name] = (norm.weight.detach().clone(), norm.bias.detach().clone())
    modules_before = [name for name, _ in model.named_modules()]

    for _ in train(translator, pairs, TrainConfig(epochs=1)):
        pass

    assert [name for name, _ in model.named_modules()] == modules_before  # forward created nothing
    for name, norm in norms.items():
        weight, bias = before[name]
        assert not torch.equal(norm.weight, weight), f"{name}.weight did not change in a training step"
        assert not torch.equal(norm.bias, bias), f"{name}.bias did not change in a training step"


# ---------------------------------------------------------------- attention maps


def test_attention_maps_shapes_rows_and_blocked_positions():
    model = _model(n_heads=2, n_layers=3).eval()
    with torch.no_grad():
        _, maps = model(ENC, DEC, return_attn=True)
    B, H, Ls, Lt = 2, 2, 5, 6
    assert len(maps.enc_self_attns) == len(maps.dec_self_attns) == len(maps.dec_enc_attns) == 3
    enc_blocked = get_attn_pad_mask(ENC, ENC).unsqueeze(1).expand(B, H, Ls, Ls)
    dec_blocked = (get_attn_pad_mask(DEC, DEC) | torch.ones(Lt, Lt, dtype=torch.bool).triu(1)).unsqueeze(1)
    dec_blocked = dec_blocked.expand(B, H, Lt, Lt)
    cross_blocked = get_attn_pad_mask(DEC, ENC).unsqueeze(1).expand(B, H, Lt, Ls)
    for attn, shape, blocked in [
        *[(a, (B, H, Ls, Ls), enc_blocked) for a in maps.enc_self_attns],
        *[(a, (B, H, Lt, Lt), dec_blocked) for a in maps.dec_self_attns],
        *[(a, (B, H, Lt, Ls), cross_blocked) for a in maps.dec_enc_attns],
    ]:
        assert attn.shape == shape
        assert torch.allclose(attn.sum(-1), torch.ones(shape[:-1]), atol=1e-6)
        assert (attn[blocked] == 0).all()
        assert (attn[~blocked] > 0).all()
    assert maps.enc_self_scores[0].shape == (B, H, Ls, Ls)


def test_no_maps_unless_asked():
    _, maps = _model().eval()(ENC, DEC)
    assert maps is None


@pytest.mark.parametrize(
    "sizes",
    [
        {"d_model": 16, "n_heads": 2},
        {"d_model": 12, "n_heads": 3, "n_layers": 1},
        {"d_model": 8, "n_heads": 1, "n_layers": 3},
        {"d_model": 10, "n_heads": 4, "d_k": 3, "d_v": 5},
    ],
    ids=["16x2", "12x3", "8x1", "dk3-dv5"],
)
def test_fused_and_eager_attention_agree_in_eval_mode(sizes):
    model = _model(dropout=0.3, **sizes).eval()
    with torch.no_grad():
        fused, _ = model(ENC, DEC, return_attn=False)
        eager, maps = model(ENC, DEC, return_attn=True)
    assert maps is not None
    assert torch.allclose(fused, eager, atol=1e-5), (fused - eager).abs().max()


@pytest.mark.parametrize("return_attn", [False, True], ids=["fused", "eager"])
def test_changing_a_later_target_token_leaves_earlier_logits_unchanged(return_attn):
    model = _model().eval()
    changed = DEC.clone()
    changed[:, 3] = 9
    with torch.no_grad():
        before, _ = model(ENC, DEC, return_attn)
        after, _ = model(ENC, changed, return_attn)
    assert torch.allclose(before[:, :3], after[:, :3], atol=1e-6)
    assert not torch.allclose(before[0, 3:], after[0, 3:], atol=1e-3)  # the change is visible from position 3 on


def test_extra_source_padding_does_not_change_the_logits():
    model = _model().eval()
    padded = torch.cat([ENC, torch.zeros(2, 3, dtype=torch.long)], dim=1)
    with torch.no_grad():
        logits, _ = model(ENC, DEC)
        logits_padded, _ = model(padded, DEC)
    assert torch.allclose(logits, logits_padded, atol=1e-5)


# ---------------------------------------------------------------- nn.MultiheadAttention


def test_multi_head_attention_matches_torch():
    torch.manual_seed(0)
    d_model, heads = 8, 2
    ours = MultiHeadAttention(TransformerConfig(1, 1, d_model=d_model, n_heads=heads)).eval()
    ref = nn.MultiheadAttention(d_model, heads, bias=True, batch_first=True).eval()
    with torch.no_grad():
        ref.in_proj_weight.copy_(torch.cat([ours.W_Q.weight, ours.W_K.weight, ours.W_V.weight]))
        ref.in_proj_bias.copy_(torch.cat([ours.W_Q.bias, ours.W_K.bias, ours.W_V.bias]))
        ref.out_proj.weight.copy_(ours.fc.weight)
        ref.out_proj.bias.copy_(ours.fc.bias)

    query = torch.randn(2, 4, d_model)
    memory = torch.randn(2, 5, d_model)
    key_ids = torch.tensor([[1, 2, 3, 0, 0], [1, 2, 3, 4, 5]])
    key_padding_mask = key_ids.eq(0)  # nn.MultiheadAttention: True = not allowed, like ours
    attn_mask = get_attn_pad_mask(torch.ones(2, 4), key_ids)  # (B, Lq, Lk)

    with torch.no_grad():
        expected, expected_weights = ref(
            query, memory, memory, key_padding_mask=key_padding_mask, need_weights=True, average_attn_weights=True
        )
        _, per_head = ref(query, memory, memory, key_padding_mask=key_padding_mask, average_attn_weights=False)
        eager, weights, _ = ours(query, memory, memory, attn_mask, return_attn=True)
        fused, none, _ = ours(query, memory, memory, attn_mask, return_attn=False)

    assert none is None
    assert weights.shape == (2, heads, 4, 5)
    assert torch.allclose(eager, expected, atol=1e-5)
    assert torch.allclose(fused, expected, atol=1e-5)
    assert torch.allclose(weights.mean(dim=1), expected_weights, atol=1e-5)
    assert torch.allclose(weights, per_head, atol=1e-5)
    assert (weights[0, :, :, 3:] == 0).all()


@pytest.mark.parametrize(
    "sizes",
    [dict(), dict(d_model=16, n_heads=2, d_ff=32, n_layers=1), dict(d_model=12, n_heads=3, d_k=5, d_v=7, n_layers=3)],
)
def test_parameter_count_from_the_sizes_equals_the_built_model(sizes):
    from transformer.model import parameter_count

    cfg = TransformerConfig(11, 13, **sizes)
    assert parameter_count(cfg) == Transformer(cfg).num_parameters()
