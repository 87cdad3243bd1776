"""Scores (transformer.scores): BLEU and chrF from sacrebleu on strings worked out by hand, and the score table."""

from __future__ import annotations

import math

import pytest

from transformer.scores import ALL, PairScore, Scores, ScoreTable, bleu, chrf, score_pairs, table_of


def _t(text: str) -> list[str]:
    return text.split()


def test_bleu_of_a_short_exact_prefix_is_the_brevity_penalty():
    # every n-gram of "a b c d" is in the reference: precisions 1; BP = exp(1 - 5/4)
    assert bleu([_t("a b c d")], [_t("a b c d e")]) == pytest.approx(100 * math.exp(-0.25))


def test_bleu_smooths_a_missing_4_gram_as_sacrebleu_documents():
    # precisions 3/4, 2/3, 1/2 and 0/1; sacrebleu's default "exp" smoothing makes the empty one 1/(2·1)
    expected = 100 * (3 / 4 * 2 / 3 * 1 / 2 * 1 / 2) ** (1 / 4)
    assert bleu([_t("a b c e")], [_t("a b c d")]) == pytest.approx(expected)
    assert bleu([_t("I love you .")], [_t("I love you .")]) == pytest.approx(100)


def test_bleu_counts_our_tokens_as_they_are():
    """tokenize="none": "teacher's" and "cats." stay one token each, as the model writes them."""
    assert bleu([_t("cats. x y z")], [_t("cats . x y z")]) < 50 < bleu([_t("cats . x y z")], [_t("cats . x y w")])


def test_chrf_averages_character_n_gram_precision_and_recall_over_the_orders():
    # "abcdef" against "abcdeg": n-gram matches 5/6, 4/5, 3/4, 2/3, 1/2, 0/1 both ways; F equals their mean
    assert chrf([["abcdef"]], [["abcdeg"]]) == pytest.approx(100 * (5 / 6 + 4 / 5 + 3 / 4 + 2 / 3 + 1 / 2 + 0) / 6)
    # "a b c" against "a b c d" (spaces ignored): precision 1 at orders 1-3, recall 3/4, 2/3, 1/2; β = 2
    recall = (3 / 4 + 2 / 3 + 1 / 2) / 3
    assert chrf([_t("a b c")], [_t("a b c d")]) == pytest.approx(100 * 5 * recall / (4 + recall))


PAIRS = [("我 喜 欢 你", "I love you ."), ("我 喜 欢 你", "I love cats .")]


def test_scores_of_a_model_that_translates_its_pair(trained_seed):
    scored = score_pairs(trained_seed, PAIRS)
    assert [p.exact for p in scored] == [True, False]
    assert scored[0].output == scored[1].output == ["I", "love", "you", "."]
    assert (scored[0].correct, scored[0].tokens) == (5, 5)  # I love you . E
    assert scored[1].tokens == 5 and 2 <= scored[1].correct < 5  # "I love" right, "cats" never
    table = table_of(scored)
    s = table.get(ALL, ALL)
    assert (s.pairs, s.exact, s.correct, s.tokens) == (2, 1, 5 + scored[1].correct, 10)
    assert s.token_accuracy == pytest.approx(trained_seed.evaluate([p[:2] for p in PAIRS]).token_accuracy)
    assert s.bleu == pytest.approx(bleu([p.output for p in scored], [p.reference for p in scored]))


def test_token_accuracy_is_the_evaluation_s_teacher_forced_accuracy(trained20):
    translator, _ = trained20
    pairs = [("我吃饭", "I eat rice ."), ("他喝茶", "He drinks tea ."), ("猫在睡觉", "The dog is sleeping .")]
    table = table_of(score_pairs(translator, pairs))
    evaluation = translator.evaluate(pairs)
    assert table.get(ALL, ALL).token_accuracy == pytest.approx(evaluation.token_accuracy)
    assert table.get(ALL, ALL).exact == evaluation.exact


def test_the_table_is_broken_down_by_phenomenon_and_part(trained_seed):
    pairs = [("我 喜 欢 你", "I love you .")] * 3 + [("我 喜 欢 你", "You love me .")]
    tags = [("question", "agreement"), ("agreement",), ("zebra",), ("agreement",)]
    parts = ["train", "holdout", "train", "holdout"]
    table = table_of(score_pairs(trained_seed, pairs), tags, parts)
    assert table.rows == (ALL, "agreement", "question", "zebra")  # the corpus's order, other tags after
    assert table.parts == ("train", "holdout")
    assert table.get(ALL, "train").pairs == 2 and table.get(ALL, "holdout").pairs == 2
    assert table.get("agreement", "holdout").exact == 1 and table.get("agreement", "holdout").pairs == 2
    assert table.get("question", "holdout") is None  # no question was held out
    assert table.get("zebra", "train").exact_match == 1.0
    lines = table.lines({"train": "trained on", "holdout": "held out"})
    assert lines[0].split() == ["phenomenon", "part", "pairs", "exact", "token", "acc.", "BLEU", "chrF"]
    assert lines[1].split()[:5] == ["all", "trained", "on", "2", "100.0%"]
    assert len(lines) == 1 + 2 + 2 + 1 + 1


def test_each_groups_bleu_and_chrf_are_sacrebleus_corpus_scores_of_that_group_alone():
    from sacrebleu.metrics import BLEU, CHRF

    outputs = ["I love you .", "you love me", "I love", ".", "cats love you ."]
    references = ["I love you .", "You love me .", "I love you .", "I love you .", "Cats love you ."]
    scored = [PairScore("src", ref.split(), out.split(), 1, 1) for out, ref in zip(outputs, references, strict=True)]
    tags = [("agreement",), ("agreement", "question"), (), ("question",), ("agreement",)]
    parts = ["train", "train", "holdout", "train", "holdout"]
    table = table_of(scored, tags, parts)
    for (row, part), scores in table.cells.items():
        group = [i for i in range(5) if part == parts[i] and (row == ALL or row in tags[i])]
        hyps, refs = [outputs[i] for i in group], [[references[i] for i in group]]
        assert scores.pairs == len(group) > 0
        assert scores.bleu == pytest.approx(BLEU(tokenize="none", force=True).corpus_score(hyps, refs).score, abs=1e-9)
        assert scores.chrf == pytest.approx(CHRF().corpus_score(hyps, refs).score, abs=1e-9)
    assert len(table.cells) == 5  # all, agreement and question in the training part; all and agreement held out
    assert 0 < table.get(ALL, "train").bleu < 100 and table.get("agreement", "holdout").chrf < 100


def test_a_table_survives_its_dict_and_refuses_a_wrong_one(trained_seed):
    table = table_of(score_pairs(trained_seed, [("我 喜 欢 你", "I love you .")]), [("agreement",)], ["train"])
    again = ScoreTable.from_dict(table.to_dict())
    assert again == table
    good = Scores(2, 1, 9, 10, 50.0, 60.0).to_dict()
    for bad in ({"train": {"all": {**good, "exact": 3}}}, {"train": {"all": {**good, "bleu": 101}}}, {"train": 3}, {}):
        with pytest.raises(ValueError):
            ScoreTable.from_dict(bad)
