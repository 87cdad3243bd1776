"""The bundled dataset and checkpoint in assets/: the model the app opens with."""

from pathlib import Path

from transformer.checkpoint import load_checkpoint
from transformer.data import check_pairs, parse_pairs, tokenize

ASSETS = Path(__file__).resolve().parents[1] / "assets"


def test_bundled_dataset_is_large_varied_and_clean():
    pairs = parse_pairs((ASSETS / "pairs.tsv").read_bytes())
    assert len(pairs) >= 40
    assert check_pairs(pairs) == []
    assert ("我 喜 欢 你", "I love you .") in pairs
    lengths = {len(tokenize(t)) for _, t in pairs}
    assert min(lengths) <= 3 and max(lengths) >= 7
    repeated = [t for _, t in pairs if len(set(tokenize(t))) < len(tokenize(t))]
    assert repeated, "some targets repeat a word, so attention maps have repeated tokens"


def test_bundled_checkpoint_translates_every_bundled_pair_exactly():
    translator = load_checkpoint(ASSETS / "model.safetensors")
    pairs = parse_pairs((ASSETS / "pairs.tsv").read_bytes())
    for source, target in pairs:
        result = translator.translate(source, return_attn=False)
        assert result.tokens == tokenize(target), source
        assert result.stop_reason == "eos"
    assert translator.summary["epochs"] > 0 and "train_config" in translator.summary
