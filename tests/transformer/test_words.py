"""Words of a subword model (issue 40 §4): the pieces a tokenizer makes, the words gold links index (characters for
Chinese, words and punctuation for English) and each piece's words; alignment read at the word level (Garg et al.
2019: two words are linked when any of their pieces are), in AER and in the `align` command."""

from __future__ import annotations

import unicodedata

import pytest
import torch

from tests.transformer.test_cli_align import _run
from transformer import Translator
from transformer.alignment import Method, aer_table, align, alignment_weights, links_of, parse_links, score_links
from transformer.bpe import MARK, learn_bpe
from transformer.checkpoint import save_checkpoint
from transformer.config import TrainConfig
from transformer.errors import DataError
from transformer.train import train
from transformer.words import Words, same_words, word_links, word_map, word_weights

PAIRS = [
    ("我爱你", "I love you ."),
    ("我爱猫", "I love cats ."),
    ("他爱你", "he loves you ."),
    ("她爱猫", "she loves cats ."),
    ("我们爱你", "we love you ."),
    ("他们爱猫", "they love cats ."),
] * 2


class Pieces:
    """A SentencePiece-like tokenizer built by hand: fixed pieces per word, ▁ starting each word, text in NFKC."""

    def __init__(self, table: dict[str, list[str]]):
        self.table = table

    def split(self, text: str) -> list[str]:
        text = unicodedata.normalize("NFKC", text)
        return [piece for word in text.split() for piece in self.table.get(word, [MARK + word])]


@pytest.fixture(scope="module")
def bpe():
    return learn_bpe(PAIRS, 40)


@pytest.fixture(scope="module")
def bpe_translator(bpe):
    translator = Translator.create(PAIRS, bpe, seed=1, d_model=16, n_heads=2, d_ff=32, n_layers=1)
    list(train(translator, PAIRS, TrainConfig(epochs=30, lr=0.01)))
    return translator


def test_auto_tokens_are_their_own_words():
    words = word_map("auto", "我爱你, I love you.")
    assert words.pieces == words.words and words.same
    assert words.of_piece == tuple((i,) for i in range(len(words.words)))


def test_a_bpe_models_pieces_map_to_the_words_the_gold_counts(bpe):
    for text in ("I love cats .", "he loves you .", "they love you .", "我们爱猫"):
        words = word_map(bpe, text)
        assert list(words.pieces) == bpe.split(text)
        assert list(words.words) == (text.split() if " " in text else list(text))
        # each piece's words hold its characters, in order; every word has a piece
        for piece, ks in zip(words.pieces, words.of_piece):
            assert ks and piece.replace(MARK, "") in "".join(words.words[k] for k in ks)
        assert all(words.pieces_of(k) for k in range(len(words.words)))
    loves = word_map(bpe, "he loves you .")
    assert not loves.same and loves.grouped()[1] == ("loves", [p for p in loves.pieces if p in bpe.split("loves")])


def test_a_piece_of_two_chinese_characters_belongs_to_both_words_and_a_bare_mark_to_the_next():
    tokenizer = Pieces({"我们爱你": [MARK, "我们", "爱", "你"], "loves": [MARK + "lov", "es"], "you.": [MARK + "you."]})
    zh = word_map(tokenizer, "我们爱你")
    assert zh.words == ("我", "们", "爱", "你")
    assert zh.of_piece == ((0, 1), (0, 1), (2,), (3,))  # ▁ starts 我们, which covers two words
    assert zh.pieces_of(1) == [0, 1] and zh.grouped()[3] == ("你", ["你"])
    en = word_map(tokenizer, "he loves you.")
    assert en.words == ("he", "loves", "you", ".")
    assert en.of_piece == ((0,), (1,), (1,), (2, 3))  # "▁you." covers you and .
    assert word_map("whitespace", "I love you.").of_piece == ((0,), (1,), (2, 3))
    assert word_map("char", "I love").of_piece == ((0,), (1,), (1,), (1,), (1,))


def test_full_width_text_normalized_by_the_tokenizer_still_finds_its_words():
    words = word_map(Pieces({}), "ＡＢ，好")  # NFKC: AB,好
    assert words.words == ("ＡＢ", "，", "好") and words.pieces == (MARK + "AB,好",)
    assert words.of_piece == ((0, 1, 2),)


def test_pieces_that_do_not_spell_the_text_are_refused_with_a_sentence():
    with pytest.raises(DataError, match="do not spell"):
        word_map(Pieces({"cat": [MARK + "<unk>"]}), "cat")


def test_word_links_and_weights_by_hand():
    src = Words(("▁我们", "爱"), ("我", "们", "爱"), ((0, 1), (2,)))
    tgt = Words(("▁we", "▁lo", "ve"), ("we", "love"), ((0,), (1,), (1,)))
    assert word_links({(0, 0), (1, 1), (1, 2)}, src, tgt) == {(0, 0), (1, 0), (2, 1)}
    weights = torch.tensor([[0.9, 0.1], [0.2, 0.8], [0.4, 0.6]])  # (target pieces, source pieces)
    got = word_weights(weights, src, tgt)  # rows of love averaged, the column of 我们 counted for 我 and for 们
    assert torch.allclose(got, torch.tensor([[0.9, 0.9, 0.1], [0.3, 0.3, 0.7]]))


def test_word_level_aer_equals_the_hand_count_where_piece_level_differs():
    # source 我们爱你 as pieces ▁我们 爱 你 (3 pieces, 4 words); target "we love you" as ▁we ▁lo ve ▁you
    src = Words(("▁我们", "爱", "你"), ("我", "们", "爱", "你"), ((0, 1), (2,), (3,)))
    tgt = Words(("▁we", "▁lo", "ve", "▁you"), ("we", "love", "you"), ((0,), (1,), (1,), (2,)))
    gold = parse_links("0-0 1-0 2-1 3-2", 4, 3)
    weights = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8]])
    piece_links = links_of(weights)  # {(0,0), (1,1), (0,2), (2,3)}
    word = score_links([word_links(piece_links, src, tgt)], [gold])
    # words: A = {(0,0),(1,0), (2,1), (0,1),(1,1), (3,2)}: |A| = 6, |S| = 4, |A∩S| = |A∩P| = 4
    assert (word.predicted, word.sure, word.hits_sure, word.hits_possible) == (6, 4, 4, 4)
    assert word.aer == pytest.approx(1 - 8 / 10)
    piece = score_links([piece_links], [gold])  # the gold read as if it indexed pieces: another figure
    assert piece.aer != pytest.approx(word.aer)


def test_the_aer_table_of_a_bpe_model_scores_word_links(bpe_translator, bpe):
    pairs = [p for p in PAIRS[:6]]
    golds = [parse_links(" ".join(f"{k}-{k}" for k in range(len(s))), len(s), len(t.split())) for s, t in pairs]
    assert not same_words(bpe, pairs)
    method = Method("attention", 0, 1)
    scores = {s.method: s.score for s in aer_table(bpe_translator, pairs, golds)}
    weights = alignment_weights(bpe_translator, pairs, [method])[method]
    by_hand = []
    for (source, target), w in zip(pairs, weights):
        src, tgt = word_map(bpe, source), word_map(bpe, target)
        by_hand.append({(i, j) for p, q in links_of(w) for i in src.of_piece[p] for j in tgt.of_piece[q]})
    assert scores[method] == score_links(by_hand, golds)
    links = align(bpe_translator, pairs, method)
    for (source, target), found in zip(pairs, links):
        assert all(i < len(source) and j < len(target.split()) for i, j in found)  # words, not pieces


def test_the_align_command_on_a_bpe_model_writes_word_links(bpe_translator, bpe, tmp_path, capsys):
    model = tmp_path / "bpe.safetensors"
    save_checkpoint(bpe_translator, model)
    rows = "".join(f"{s}\t{t}\t\t{' '.join(f'{k}-{k}' for k in range(len(s)))}\n" for s, t in PAIRS[:6])
    pairs_file = tmp_path / "gold.tsv"
    pairs_file.write_text(rows, encoding="utf-8")
    code, printed, err = _run(capsys, "align", "--model", str(model), "--pairs", str(pairs_file))
    assert code == 0, err
    lines = printed.splitlines()
    assert len(lines) == 6
    for (source, target), line in zip(PAIRS[:6], lines):
        found = parse_links(line, len(source), len(target.split()))  # in range of the words: parse_links checks it
        pieces = len(bpe.split(target))
        assert len({j for _, j in found.sure}) == len(target.split()) <= pieces  # every target word linked
    assert "links of words: two words are linked when any of their pieces are" in err
    assert "AER on 6 pairs" in err


def test_a_real_sentencepiece_models_pieces_find_their_words():
    spm = pytest.importorskip("sentencepiece")
    import io

    text = ["我爱你", "我们爱猫", "I love you.", "he loves cats tonight.", "他们爱你", "she loves you tonight."] * 20
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(text), model_writer=model, vocab_size=40, character_coverage=1.0,
        hard_vocab_limit=False, minloglevel=2, num_threads=1,
    )  # fmt: skip
    processor = spm.SentencePieceProcessor(model_proto=model.getvalue())

    class SentencePiece:
        def split(self, text: str) -> list[str]:
            return processor.encode(text, out_type=str)

    for sentence in ("我们爱你", "he loves cats tonight.", "ＡＢ，好 tonight", "猫😀 zebra"):
        words = word_map(SentencePiece(), sentence)
        assert list(words.pieces) == processor.encode(sentence, out_type=str)
        assert all(words.pieces_of(k) for k in range(len(words.words)))  # every word has its pieces
        for piece, ks in zip(words.pieces, words.of_piece):
            core = unicodedata.normalize("NFKC", "".join(words.words[k] for k in ks))
            assert ks == tuple(sorted(ks)) and piece.replace(MARK, "") in core
    spanning = [p for p in processor.encode("我们爱你", out_type=str) if len(p.replace(MARK, "")) > 1]
    assert spanning  # this model has a piece of two Chinese characters: it belongs to both
    zh = word_map(SentencePiece(), "我们爱你")
    assert any(len(ks) == 2 for ks in zh.of_piece)
