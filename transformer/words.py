"""Words of a subword model: the pieces a tokenizer makes of a sentence, and the words (the tokens gold links index)
each piece belongs to.

Gold links index a file's own tokens, the 'auto' tokens of transformer.data.tokenize: a character for Chinese, a word
or a punctuation mark for English. A model's tokens may be other: pieces of a learned BPE or SentencePiece (a piece
that starts a word begins with ▁), characters, or whitespace-separated words. Each piece belongs to the words its
characters are part of: one word mostly, several when a piece covers several (a BPE piece of two Chinese characters,
"you." under the whitespace tokenizer), and a bare ▁ to the word that follows it.

Alignment is read at the word level from piece-level weights as Garg et al. (2019) do: a source word and a target word
are linked when any of their pieces are. For a word-level map, the rows of a target word's pieces are averaged (each
row is a distribution over the source) and the columns of a source word's pieces summed (the attention a word gets).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .data import _AUTO, tokenize
from .errors import DataError

if TYPE_CHECKING:
    import torch

MARK = "\u2581"  # ▁, sentencepiece's mark of a piece that starts a word (transformer.bpe uses the same)
GOLD_TOKENIZER = "auto"  # the tokens gold links index


@dataclass(frozen=True)
class Words:
    """A sentence as the model sees it (pieces) and as gold links count it (words), with the words of each piece."""

    pieces: tuple[str, ...]
    words: tuple[str, ...]
    of_piece: tuple[tuple[int, ...], ...]  # for each piece, the indexes of the words it belongs to, in order

    @property
    def same(self) -> bool:
        """Whether the pieces are the words, one for one: the word level is the piece level."""
        return self.pieces == self.words and all(w == (i,) for i, w in enumerate(self.of_piece))

    def pieces_of(self, word: int) -> list[int]:
        """The pieces that belong to one word, in order."""
        return [i for i, words in enumerate(self.of_piece) if word in words]

    def grouped(self) -> list[tuple[str, list[str]]]:
        """The word view: each word with its pieces as the model sees them ("tonight", ["▁to", "night"])."""
        return [(word, [self.pieces[i] for i in self.pieces_of(k)]) for k, word in enumerate(self.words)]


def _spans(tokens: Sequence[str], text: str) -> list[tuple[int, int]] | None:
    """Each token's (start, end) in text without its whitespace, the ▁ marks left out; None when the tokens do not
    spell the text, even after NFKC (SentencePiece normalizes full-width forms)."""
    compact = "".join(text.split())
    cores = [token.replace(MARK, "") for token in tokens]
    spelled = "".join(cores)
    if spelled == compact:
        starts = list(range(len(compact) + 1))  # position in the spelled text → position in compact
    else:
        starts, normal = [], []
        for k, char in enumerate(compact):
            form = unicodedata.normalize("NFKC", char)
            starts += [k] * len(form)
            normal.append(form)
        if "".join(normal) != spelled:
            return None
        starts.append(len(compact))
    spans, at = [], 0
    for core in cores:
        spans.append((starts[at], starts[at + len(core)] if core else starts[at]))
        at += len(core)
    return spans


def word_map(tokenizer, text: str, side: str = "source") -> Words:
    """The pieces tokenizer makes of text (on side: a Marian model splits each side with its own model), the
    gold-level words of text (tokenize 'auto') and, for each piece, the words it covers; a piece of no character (a
    bare ▁) belongs to the next piece's words (the last, to the one before); the end token a Marian source ends with
    (</s>) belongs to none. DataError when the pieces do not spell the text."""
    pieces = tokenize(text, tokenizer, side)
    words = tokenize(text, GOLD_TOKENIZER)
    if tokenizer == GOLD_TOKENIZER:
        return Words(tuple(pieces), tuple(words), tuple((i,) for i in range(len(pieces))))
    end = getattr(tokenizer, "end", None)
    ended = end is not None and side == "source" and pieces[-1:] == [end]
    spans = _spans(pieces[:-1] if ended else pieces, text)
    if spans is None:
        raise DataError(
            "the model's pieces of a sentence do not spell it, so its words cannot be found: "
            f"{' '.join(pieces)[:80]!r}.",
            "pieces_not_text",
        )
    gaps = _whitespace_before(text)
    word_spans = [(m.start() - gaps[m.start()], m.end() - gaps[m.start()]) for m in _AUTO.finditer(text)]
    of_piece: list[tuple[int, ...]] = []
    for start, end in spans:
        of_piece.append(tuple(k for k, (ws, we) in enumerate(word_spans) if ws < end and start < we))
    for i in reversed(range(len(of_piece))):  # a bare ▁: the word it starts
        if not of_piece[i] and i + 1 < len(of_piece):
            of_piece[i] = of_piece[i + 1]
    for i in range(len(of_piece)):
        if not of_piece[i] and i > 0:
            of_piece[i] = of_piece[i - 1]
    if ended:
        of_piece.append(())  # the end of the sentence, no word's
    return Words(tuple(pieces), tuple(words), tuple(of_piece))


def pair_words(tokenizer, pair: tuple[str, str]) -> tuple[Words, Words]:
    """The source's and the target's pieces and words (word_map)."""
    return word_map(tokenizer, pair[0], "source"), word_map(tokenizer, pair[1], "target")


def spells(tokenizer, pair: tuple[str, str]) -> bool:
    """Whether the tokenizer's pieces of both sentences spell them, so that their words are found (word_map)."""
    try:
        pair_words(tokenizer, pair)
    except DataError:
        return False
    return True


def same_words(tokenizer, pairs: Iterable[tuple[str, str]]) -> bool:
    """Whether the tokenizer's pieces of every sentence of pairs are its words (the word level is the piece level)."""
    return tokenizer == GOLD_TOKENIZER or all(
        tokenize(text, tokenizer, side) == tokenize(text, GOLD_TOKENIZER)
        for pair in pairs
        for text, side in zip(pair, ("source", "target"))
    )


def _whitespace_before(text: str) -> list[int]:
    """For each position of text, how many whitespace characters come before it."""
    counts, n = [], 0
    for char in text:
        counts.append(n)
        n += char.isspace()
    counts.append(n)
    return counts


def word_links(links: Iterable[tuple[int, int]], source: Words, target: Words) -> frozenset[tuple[int, int]]:
    """Piece links (source piece, target piece) as word links: every word of the source piece with every word of the
    target piece (Garg et al. 2019: a word pair is linked when any of their pieces are)."""
    return frozenset((i, j) for p, q in links for i in source.of_piece[p] for j in target.of_piece[q])


def membership(words: Words, pieces: int | None = None, n_words: int | None = None) -> torch.Tensor:
    """(pieces, words) 1.0 where a piece belongs to a word, padded with zeros to pieces × n_words when given."""
    import torch

    out = torch.zeros(pieces or len(words.pieces), n_words or len(words.words))
    for i, ks in enumerate(words.of_piece):
        out[i, list(ks)] = 1.0
    return out


def word_weights(weights: torch.Tensor, source: Words, target: Words) -> torch.Tensor:
    """Piece weights (..., target pieces, source pieces) as word weights (..., target words, source words): a target
    word's rows averaged, a source word's columns summed."""
    src, tgt = membership(source), membership(target)  # (Ls, Ws), (Lt, Wt)
    tgt = tgt / tgt.sum(0, keepdim=True).clamp(min=1)  # each word's rows weigh 1/(its pieces)
    return tgt.T @ weights.float() @ src  # (Wt, Lt) @ (..., Lt, Ls) @ (Ls, Ws) → (..., Wt, Ws)
