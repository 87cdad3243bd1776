"""A learned tokenizer leaves no letter unknown and cuts punctuation off (issue 41): a model's vocabularies hold every
piece the tokenizer can make of their side's training characters, no Chinese piece glues a punctuation mark to a word,
no lone ▁ starts a Chinese sentence, and a checkpoint's tokenizer from before (version 1) still splits as it did."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from transformer.bpe import INSIDE, MARK, Bpe, learn_bpe
from transformer.data import build_vocabs, summarize_pairs, tokenize

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "everyday_cmn_eng.txt"
# the everyday Tatoeba-format pairs, read by their columns (English, Chinese, attribution): Chinese → English
EVERYDAY = [tuple(line.split("\t")[1::-1]) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line]
TRAIN, HELD = EVERYDAY[:150], EVERYDAY[150:]
BPE = learn_bpe(TRAIN, 1_000)
VOCABS = build_vocabs(TRAIN, BPE)
ALPHABETS = [sorted(set("".join(side[i] for side in TRAIN)) - {" "}) for i in (0, 1)]


def _punctuation(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


def glued(piece: str) -> bool:
    """Whether a piece holds a punctuation mark and a character that is not one (▁ aside)."""
    chars = piece.replace(MARK, "").removeprefix(INSIDE)
    return any(map(_punctuation, chars)) and not all(map(_punctuation, chars))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_text_of_the_training_characters_is_written_with_no_unknown_piece(data):
    side = data.draw(st.sampled_from([0, 1]))
    words = st.text(st.sampled_from(ALPHABETS[side]), min_size=1, max_size=8)
    text = " ".join(data.draw(st.lists(words, min_size=1, max_size=4)))
    pieces = tokenize(text, BPE)
    assert VOCABS[side].encode(pieces)[1] == [], pieces
    assert BPE.join(pieces) == text


def test_every_training_character_is_written_alone():
    for side, vocab in zip((0, 1), VOCABS):
        assert [c for c in ALPHABETS[side] if vocab.encode(tokenize(c, BPE))[1]] == []  # 21 Chinese ones were not


def test_tonight_is_written_though_no_training_word_splits_into_its_pieces():
    pairs = [("鬼", "ghost"), ("夜", "night"), ("晚", "nights")] * 2  # every letter of "tonight", "sigh" and "gh"
    bpe = learn_bpe(pairs, 60)
    tgt_vocab = build_vocabs(pairs, bpe)[1]
    for word in ("tonight", "sigh", "gh", "hi"):
        assert tgt_vocab.encode(tokenize(word, bpe))[1] == [], tokenize(word, bpe)


def test_no_chinese_piece_glues_punctuation_to_a_word_and_no_lone_mark_starts_a_sentence():
    bpe = learn_bpe(EVERYDAY, 1_000)
    pieces = [tokenize(chinese, bpe) for chinese, _ in EVERYDAY]
    assert [p for sentence in pieces for p in sentence if glued(p)] == []
    assert [s for s in pieces if s[0] == MARK] == []
    assert tokenize("你好。", bpe)[-1] == "。" and tokenize("在哪里？", bpe)[-1] == "？"
    # English too: a mark is cut off the word before it, and keeps the ▁ of a space before it
    assert (
        tokenize("Hi.", bpe)[-1] == "."
        and tokenize("I love you .", learn_bpe([("我", "I love you .")] * 2, 60))[-1] == f"{MARK}."
    )


def test_a_bare_p_s_or_e_is_written_inside_a_word_and_joins_back():
    bpe = learn_bpe([("美国", "USA EPS"), ("中", "mP")], 20)
    pieces = tokenize("USA EPS mP", bpe)
    assert {f"{INSIDE}S", f"{INSIDE}P"} <= set(pieces) and not {"P", "S", "E"} & set(pieces)
    assert bpe.join(pieces) == "USA EPS mP" and bpe.join(tokenize("##S", bpe)) == "##S"
    vocab = build_vocabs([("美国", "USA EPS"), ("中", "mP")], bpe)[1]
    assert vocab.encode(tokenize("SSP EEE", bpe))[1] == []
    assert not [p for p in summarize_pairs([("美国", "USA EPS")], bpe).problems if p.kind == "reserved"]


def test_a_version_1_tokenizer_from_an_older_checkpoint_splits_as_its_model_was_trained():
    pieces = ("。", "你", "好", MARK, f"{MARK}你", "好。", "S", "U", f"{MARK}U")
    old = Bpe.from_dict({"vocab_size": 10, "pieces": list(pieces), "merges": [f"{MARK} 你", "好 。", f"{MARK} U"]})
    assert old.version == 1 and old.to_dict().keys() == {"vocab_size", "pieces", "merges"}
    assert old.split("你好。") == [f"{MARK}你", "好。"] and old.split("US") == [f"{MARK}US"]
    new = Bpe(10, pieces, old.merges, 2)
    assert new.split("你好。") == ["你", "好", "。"] and new.split("US") == [f"{MARK}U", f"{INSIDE}S"]


def test_the_data_pages_vocabularies_are_the_ones_a_model_of_the_same_pairs_gets():
    assert summarize_pairs(TRAIN, BPE).vocabs(BPE) == VOCABS
    assert summarize_pairs(TRAIN).vocabs() == build_vocabs(TRAIN)
