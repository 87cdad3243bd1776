"""The comparisons the Lab and the Decoding page show (transformer.comparisons)."""

from pathlib import Path

import pytest

from tests.conftest import PAIRS20, SEED_PAIRS, TINY
from transformer import Translator
from transformer.checkpoint import load_checkpoint
from transformer.comparisons import beam_against_greedy, pairs_both_read, score_bars, translations_side_by_side
from transformer.decoding import beam_search, greedy_hypothesis
from transformer.errors import DataError
from transformer.plan import TRAIN_SAMPLE
from transformer.translator import Evaluation

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def test_pairs_one_model_cannot_read_are_left_out_of_both_and_counted(trained_seed):
    short = Translator.create(PAIRS20, **TINY, max_len=4)
    train = [("我吃饭", "I eat rice ."), ("他喝茶", "He drinks tea ."), ("我 喜 欢 你", "I love you .")]
    held = [("猫在睡觉", "The dog is sleeping ."), ("你好", "hi")]
    shared = pairs_both_read((trained_seed, short), train, held)
    # S + "I eat rice ." is 5 decoder positions, past max_len 4; "你好" → "hi" fits both
    assert shared.train == [] and shared.held == [("你好", "hi")]
    assert shared.left_out == 4 and shared.every == 0 and not shared.sampled
    both = pairs_both_read((trained_seed, trained_seed), train, held)
    assert both.train == train and both.held == held and both.left_out == 0


def test_many_training_pairs_are_the_sample_a_training_scores(trained_seed):
    many = [(f"我 {i}", "I .") for i in range(TRAIN_SAMPLE + 7)]
    shared = pairs_both_read((trained_seed,), many, [], seed=3)
    assert shared.sampled and len(shared.train) == TRAIN_SAMPLE and shared.every == len(many)
    assert shared.train == pairs_both_read((trained_seed,), many, [], seed=3).train  # the same rows for a seed
    assert shared.train != pairs_both_read((trained_seed,), many, [], seed=4).train


def _evaluation(results):
    exact = sum(ok for *_, ok in results)
    return Evaluation(loss=0.5, token_accuracy=0.75, exact=exact, total=len(results), results=results)


def test_score_bars_and_translations_side_by_side_say_each_part_in_order():
    a = {
        "train": _evaluation([("s1", "r1", "r1", True), ("s2", "r2", "x", False)]),
        "holdout": _evaluation([("h1", "q1", "y", False)]),
    }
    b = {
        "train": _evaluation([("s1", "r1", "z", False), ("s2", "r2", "r2", True)]),
        "holdout": _evaluation([("h1", "q1", "q1", True)]),
    }
    assert score_bars(a) == pytest.approx({"train_acc": 0.75, "train_exact": 0.5, "held_acc": 0.75, "held_exact": 0.0})
    assert set(score_bars({"train": a["train"]})) == {"train_acc", "train_exact"}
    assert translations_side_by_side(a, b, ["train", "holdout"]) == [
        ("train", "s1", "r1", "r1", True, "z", False),
        ("train", "s2", "r2", "x", False, "r2", True),
        ("holdout", "h1", "q1", "y", False, "q1", True),
    ]
    assert [row[0] for row in translations_side_by_side(a, b)] == ["train", "train"]


def test_beam_against_greedy_on_sources_is_each_sentence_searched_alone():
    bundled = load_checkpoint(ASSETS / "model.safetensors")
    sources = ["猫喜欢我", "我有一只猫和一只狗"]
    rows = beam_against_greedy(bundled, sources, 3, 0.6)
    for source, row in zip(sources, rows, strict=True):
        enc_input, _, _ = bundled.encode_source(source)
        assert row.beam.tokens == beam_search(bundled.model, enc_input, bundled.tgt_vocab, 3, 0.6).best.tokens
        assert row.greedy.tokens == greedy_hypothesis(bundled.translate(source, return_attn=False), 0.6).tokens
    with pytest.raises(DataError):
        beam_against_greedy(bundled, ["猫喜欢我", "猫" * 200], 3, 0.6)  # longer than the model reads


def test_the_seed_pair_fits_a_model_trained_on_it(trained_seed):
    assert pairs_both_read((trained_seed,), SEED_PAIRS).train == SEED_PAIRS
