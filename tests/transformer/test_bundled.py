"""The bundled dataset and checkpoint in assets/: the model the app opens with."""

from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import LOSS_RTOL
from transformer import TrainConfig, Translator, corpus, train
from transformer.checkpoint import load_checkpoint
from transformer.data import check_pairs, parse_pairs, tokenize
from transformer.scores import ALL, score_pairs, table_of
from transformer.splits import pairs_sha256, split_pairs
from transformer.summary import SplitRecord

ASSETS = Path(__file__).resolve().parents[2] / "assets"


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
    assert translator.summary.epochs > 0 and translator.summary.train_config is not None


def test_the_bundled_checkpoint_records_a_random_tenth_of_the_default_corpus_held_out():
    summary = load_checkpoint(ASSETS / "model.safetensors").summary
    pairs = [(p.source, p.target) for p in corpus.generate()]
    tutorial = parse_pairs((ASSETS / "pairs.tsv").read_bytes())
    assert summary.data.data_sha256 == pairs_sha256(pairs)  # trained on the default corpus …
    assert summary.data.always_trained == len(tutorial)  # … and every tutorial pair
    assert summary.data.split == SplitRecord("random", 0.1, 0, ())
    split = split_pairs(pairs, "random", 0.1, seed=0, always_train=tutorial)
    assert summary.data.holdout_rows == tuple(split.held) and len(split.held) == 200
    config = corpus.TRAIN_CONFIG
    assert load_checkpoint(ASSETS / "model.safetensors").config.dropout == corpus.TRAIN_SIZES["dropout"]
    assert summary.train_config == TrainConfig(config.epochs, config.lr, config.batch_size, seed=0)


def test_the_bundled_model_translates_held_out_corpus_sentences():
    """Sentences it never saw: the rows of the default corpus its checkpoint records as held out."""
    translator = load_checkpoint(ASSETS / "model.safetensors")
    pairs = [(p.source, p.target) for p in corpus.generate()]
    held_rows = set(translator.summary.data.holdout_rows)
    held = [pairs[i] for i in sorted(held_rows)]
    trained = {tuple(tokenize(s)) for i, (s, _) in enumerate(pairs) if i not in held_rows}
    assert not {tuple(tokenize(s)) for s, _ in held} & trained
    table = table_of(score_pairs(translator, held))
    scores = table.get(ALL, ALL)
    assert scores.exact_match >= 0.95 and scores.bleu >= 95 and scores.chrf >= 95, scores
    recorded = translator.summary.scores.get(ALL, "holdout")
    assert (recorded.exact, recorded.pairs) == (scores.exact, scores.pairs)  # the table the app shows at once
    assert translator.summary.holdout_exact_match == scores.exact_match


def test_the_bundled_model_knows_every_word_of_the_corpus_it_trained_on_and_stays_small():
    translator = load_checkpoint(ASSETS / "model.safetensors")
    config = translator.config
    assert (config.d_model, config.n_layers, config.variant) == (64, 2, {})
    assert (ASSETS / "model.safetensors").stat().st_size < 1_500_000
    assert translator.translate("我喜欢你", return_attn=False).text == "I love you ."  # the tutorials' free one
    assert translator.translate("我喜欢猫", return_attn=False).text == "I like cats ."
    assert translator.translate("他看见我的狗", return_attn=False).text == "He saw my dog ."
    assert translator.translate("我爱你 , 你爱我", return_attn=False).text == "I love you , you love me ."


def test_its_recorded_data_settings_and_seed_reproduce_its_training():
    """What the Attention page's replay relies on: the default corpus without the recorded held-out rows, then the
    bundled pairs, with the recorded settings, retrain the bundled model (its first epoch here), within the rounding
    of another CPU (tests/transformer/test_switches.py justifies the tolerance)."""
    bundled = load_checkpoint(ASSETS / "model.safetensors")
    pairs = [(p.source, p.target) for p in corpus.generate()]
    held = set(bundled.summary.data.holdout_rows)
    trained = [p for i, p in enumerate(pairs) if i not in held] + parse_pairs((ASSETS / "pairs.tsv").read_bytes())
    cfg = replace(bundled.summary.train_config, epochs=1)
    sizes = {k: v for k, v in bundled.config.to_dict().items() if not k.endswith("vocab_size")}
    fresh = Translator.create(trained, bundled.tokenizer, cfg.seed, **sizes)
    assert fresh.src_vocab == bundled.src_vocab and fresh.tgt_vocab == bundled.tgt_vocab
    (record,) = train(fresh, trained, cfg)
    first = bundled.summary.history[0]
    assert record.loss == pytest.approx(first.loss, rel=LOSS_RTOL)
    assert record.accuracy == pytest.approx(first.accuracy, abs=1e-3)  # at most a token in a thousand flips
