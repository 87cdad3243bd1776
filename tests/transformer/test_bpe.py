"""Subword tokens (transformer.bpe): learned deterministically, split and joined back exactly, never a special
token, a bad vocabulary size refused, and learned from the training side of a plan."""

from __future__ import annotations

import pickle

import pytest

from tests.conftest import PAIRS20
from transformer.bpe import MARK, Bpe, join_pieces, learn_bpe, tokenizer_for
from transformer.config import MAX_BPE_VOCAB_SIZE
from transformer.data import SPECIALS, detokenize, summarize_pairs, tokenize
from transformer.errors import DataError
from transformer.plan import TrainingPlan
from transformer.scores import table_of
from transformer.translator import Translator

PAIRS = [
    ("他爱她", "he loves her"),
    ("他们爱我们", "they love us"),
    ("她走了", "she goes"),
    ("他喜欢", "he likes"),
    ("我爱", "I loved"),
    ("她喜欢", "she likes"),
]


def test_loves_splits_into_lov_and_es():
    # pinned: the same pairs and size give these pieces in every process (the library's trainer is deterministic)
    bpe = learn_bpe(PAIRS, 35)
    assert bpe.split("loves") == [f"{MARK}lov", "es"]
    assert bpe.split("he loves her") == [f"{MARK}he", f"{MARK}lov", "es", f"{MARK}he", "r"]
    assert len(bpe.pieces) == 35
    assert bpe.merges[:4] == (("h", "e"), (MARK, "l"), ("e", "s"), ("o", "v"))  # the most frequent pairs first


def test_learning_is_deterministic_and_depends_on_the_size():
    first, again = learn_bpe(PAIRS20, 200), learn_bpe(list(PAIRS20), 200)
    assert first == again and first.to_dict() == again.to_dict()
    smaller = learn_bpe(PAIRS20, 120)
    assert len(smaller.pieces) < len(first.pieces)
    assert smaller.pieces == first.pieces[: len(smaller.pieces)]  # the same merges, stopped earlier


@pytest.mark.parametrize(
    "text",
    [
        "he loves her",
        "I love you .",
        "They go to the park.",
        "他们爱我们。",
        "Zebras eat quietly!",  # characters never seen while learning
        "USA, S, E and P",  # letters that are special tokens when they stand alone
        "a<unk>b",
        "",
    ],
)
def test_text_to_pieces_and_back_is_exact(text):
    bpe = learn_bpe(PAIRS + PAIRS20, 120)
    pieces = tokenize(text, bpe)
    assert detokenize(pieces, bpe) == text
    assert not set(pieces) & set(SPECIALS)


def test_whitespace_is_read_as_single_spaces():
    bpe = learn_bpe(PAIRS, 35)
    assert join_pieces(bpe.split("  he\tloves   her ")) == "he loves her"


def test_a_word_that_is_a_special_token_is_a_piece_with_its_mark():
    bpe = learn_bpe([("S", "E"), ("P", "P S E")], 50)
    assert bpe.split("P S E") == [f"{MARK}P", f"{MARK}S", f"{MARK}E"]
    summary = summarize_pairs([("S E", "P")], bpe)
    assert not summary.problems  # a typed S is a word, not the start token, so it is not "reserved"


@pytest.mark.parametrize("size", [0, -1, MAX_BPE_VOCAB_SIZE + 1, True, 2.5, "100", None])
def test_a_bad_vocabulary_size_is_refused_with_one_sentence(size):
    with pytest.raises(DataError) as info:
        learn_bpe(PAIRS, size)
    message = str(info.value)
    assert f"from 1 to {MAX_BPE_VOCAB_SIZE:,}" in message and "\n" not in message


def test_the_largest_size_is_accepted():
    assert learn_bpe(PAIRS, MAX_BPE_VOCAB_SIZE).vocab_size == MAX_BPE_VOCAB_SIZE


def test_bpe_must_be_learned_before_it_splits():
    with pytest.raises(DataError, match="learned from the data"):
        tokenize("he loves her", "bpe")
    assert tokenizer_for("auto", PAIRS) == "auto"
    assert tokenizer_for("bpe", PAIRS, 35) == learn_bpe(PAIRS, 35)


def test_rows_that_cannot_be_trained_are_not_learned_from():
    clean = learn_bpe(PAIRS, 60)
    assert learn_bpe([*PAIRS, ("", "zzzz zzzz"), ("qq\x1bqq", "qq qq")], 60) == clean


def test_a_bpe_survives_json_and_pickle():
    bpe = learn_bpe(PAIRS20, 150)
    assert Bpe.from_dict(bpe.to_dict()) == bpe
    copy = pickle.loads(pickle.dumps(bpe))
    assert copy == bpe and copy.split("I eat noodles .") == bpe.split("I eat noodles .")


def test_a_plan_learns_its_pieces_from_the_training_pairs_alone():
    pairs = PAIRS + [("猫", "zebrazebra zebrazebra")]  # a held-out word that would be merged if it were learned
    everything = learn_bpe(pairs, 100)
    plan = TrainingPlan.from_rows(pairs, [len(pairs) - 1], everything)
    assert plan.tokenizer == learn_bpe(PAIRS, 100) != everything
    assert f"{MARK}zebrazebra" in everything.pieces and f"{MARK}zebrazebra" not in plan.tokenizer.pieces
    assert TrainingPlan.from_rows(pairs, [], "bpe").tokenizer == learn_bpe(pairs, 1_000)


def test_translations_are_joined_text_and_bleu_scores_its_words():
    bpe = learn_bpe(PAIRS20, 60)
    translator = Translator.create(PAIRS20, bpe, d_model=8, n_heads=2, d_ff=8, n_layers=1)
    assert translator.detokenize([f"{MARK}he", f"{MARK}lov", "es", f"{MARK}her"]) == "he loves her"
    evaluation = translator.evaluate(PAIRS20[4:6])
    for (_, _, output, _), scored in zip(evaluation.results, evaluation.scored):
        assert output == join_pieces(scored.output)
        hypothesis, reference = scored.scored_texts
        assert reference in ("We go to school .", "They go to the park .")  # words of the joined text, not pieces
        assert MARK not in hypothesis
    # a perfect output scores 100 as words, whatever its pieces
    perfect = [
        type(s)(s.source, s.reference, s.reference, s.tokens, s.tokens, s.reference_words, s.reference_words)
        for s in evaluation.scored
    ]
    assert table_of(perfect, [()] * 2).get("all", "all").bleu == 100.0
