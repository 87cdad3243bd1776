"""transformer.embeddings: word classes from a lexicon and gold links, the PCA projection, cosine neighbours, and the
verdict on whether classes separate, each worked by hand on tiny tables."""

from __future__ import annotations

import pytest
import torch

from transformer.embeddings import Separation, neighbours, pca_2d, separation, source_classes, target_classes


def test_a_character_takes_its_words_class_or_several_and_a_word_its_own():
    found = source_classes({"学生": "noun", "学习": "verb", "我": "pronoun", "我们": "pronoun", "们": "function word"})
    assert found["学"] == "several" and found["生"] == "noun" and found["习"] == "verb"
    assert found["我们"] == "pronoun" and found["们"] == "function word"  # 们 is a word of its own


def test_a_target_word_takes_the_class_its_sure_links_give_it():
    chars = {"我": "pronoun", "喜": "verb", "欢": "verb", "猫": "noun", "他": "pronoun", "们": "function word"}
    chars |= {"的": "function word", "不": "function word"}
    pairs = [
        ("我喜欢猫", "I like cats .", "0-0 1-1 2-1 3-2"),
        ("他们的猫", "Their cat", "0-0 1-0 2-0 3-1"),  # 他 pronoun, 们 and 的 function words: a pronoun
        ("不", "not the", "0-0 0?1"),  # not: only a function word links it; the: only a possible link
    ]
    found = target_classes(pairs, chars)
    assert found == {
        "I": "pronoun",
        "like": "verb",
        "cats": "noun",
        ".": "punctuation",
        "Their": "pronoun",
        "cat": "noun",
        "not": "function word",
        "the": "function word",
    }


def test_pca_finds_the_direction_of_the_spread_and_its_share():
    along = torch.tensor([[1.0, 1.0, 0.0]]) / 2**0.5  # the one direction the points spread along
    weights = torch.tensor([[-2.0], [-1.0], [0.0], [1.0], [2.0]]) * along + torch.tensor([3.0, -1.0, 5.0])  # (5, 3)
    found = pca_2d(weights)
    assert found.explained[0] == pytest.approx(1.0) and found.explained[1] == pytest.approx(0.0, abs=1e-9)
    assert found.xy[:, 0].tolist() == pytest.approx([-2.0, -1.0, 0.0, 1.0, 2.0], abs=1e-5)  # its largest loading > 0
    assert pca_2d(-weights).xy[:, 0].tolist() == pytest.approx([2.0, 1.0, 0.0, -1.0, -2.0], abs=1e-5)
    assert found.keeps_most  # the whole spread lies in the picture
    spread = pca_2d(torch.randn(100, 64, generator=torch.Generator().manual_seed(0)))  # no direction stands out
    assert spread.kept < 0.5 and not spread.keeps_most


def test_neighbours_by_cosine_leave_the_token_out_and_ignore_length():
    weights = torch.tensor([[1.0, 0.0], [10.0, 1.0], [0.0, 1.0], [-1.0, 0.0]])
    found = neighbours(weights, 0, k=2)
    assert [j for j, _ in found] == [1, 2]  # 10 times longer, almost the same direction: the nearest
    assert found[0][1] == pytest.approx(10 / 101**0.5) and found[1][1] == pytest.approx(0.0)


def test_classes_in_tight_groups_separate_and_shuffled_ones_do_not():
    g = torch.Generator().manual_seed(0)
    centres = torch.eye(4) * 10  # (4, 4): four classes far apart
    weights = centres.repeat_interleave(5, 0) + torch.randn(20, 4, generator=g)  # (20, 4)
    classes = [c for c in "abcd" for _ in range(5)]
    grouped = separation(weights, classes)
    assert (grouped.agree, grouped.tokens, grouped.reached, grouped.verdict) == (20, 20, 0, "clear")
    assert grouped.chance == pytest.approx(4 * 5 * 4 / (20 * 19))  # Σ n_c (n_c − 1) / (n (n − 1))
    mixed = separation(torch.randn(20, 4, generator=g), classes)
    assert mixed.verdict == "no" and mixed.p_value >= 0.01
    assert separation(weights, ["a"] * 19 + ["b"]) is None  # one class of two tokens or more: nothing to tell apart
    assert separation(weights, ["other"] * 10 + classes[:10]).tokens == 10  # unclassed tokens left out


@pytest.mark.parametrize(
    ("agree", "reached", "verdict"),
    [(6, 0, "clear"), (5, 0, "clear"), (4, 0, "partly"), (6, 9, "clear"), (6, 10, "no")],
)
def test_the_verdict_follows_the_share_and_the_shuffles(agree, reached, verdict):
    # significant when fewer than 1 % of shuffles do as well ((1 + reached) / 1,001 < 0.01); clear from half the tokens
    found = Separation(tokens=10, classes=2, agree=agree, chance=0.2, reached=reached, best=None)
    assert found.verdict == verdict
