"""Subword tokens: a byte-pair-encoding (BPE) tokenizer learned from sentence pairs with Hugging Face `tokenizers`.

Learning starts from single characters and merges the most frequent adjacent pair of pieces, again and again, until
the vocabulary has the size asked for (or no pair occurs twice), as Sennrich et al. (2016) describe it and as the
paper uses it. One tokenizer is learned from both sides of the training pairs, as the paper shares its vocabulary;
each side's Vocab then holds the pieces that side uses.

Pieces follow sentencepiece's convention: a piece that starts a word begins with ▁ (the spaces of the text), so a
translation's pieces join back into text exactly ("▁he ▁lov es ▁you ." → "he loves you."), and no piece is ever
one of the special tokens P, S, E (a piece that would be, as "S" in "▁U S A", is kept joined to the piece before).
A character never seen while learning is a piece of its own, which a vocabulary then reads as unknown.

A Bpe is what a checkpoint stores (to_dict / from_dict, as JSON): the size asked for, the pieces in the library's
order and the merges in the order they were learned. Every field is checked when a Bpe is made, so a crafted one in
a checkpoint is refused with a DataError that says what is wrong.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .config import MAX_BPE_VOCAB_SIZE, MAX_TOKEN_CHARS, MAX_VOCAB_SIZE
from .data import SPECIALS, find_control, usable
from .errors import DataError
from .text import echo, visible

MARK = "\u2581"  # ▁, sentencepiece's mark: the piece it starts begins a word
DEFAULT_BPE_VOCAB_SIZE = 1_000  # small data keeps common words whole and splits the rarer ones
MIN_FREQUENCY = 2  # a pair is merged only when it occurs at least twice: a word seen once stays in pieces
MAX_PIECES = MAX_VOCAB_SIZE - len(SPECIALS)  # the pieces of one tokenizer (the characters seen, and the merges)
CACHED_WORDS = 100_000  # distinct words whose pieces a Bpe remembers (then it starts again)
_UNKNOWN = "\x00unk"  # the library's piece for a character it never learned (no piece of ours holds a NUL)
_SPECIALS = frozenset(SPECIALS)
# the library learns on several threads; a job's process forked after that would print a warning and learn on one,
# so it learns on one from the start (learning even 50,000 pairs takes about a second)
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def check_vocab_size(vocab_size: object) -> int:
    """vocab_size when it is a whole number from 1 to MAX_BPE_VOCAB_SIZE, else a DataError that says so."""
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool) or not 1 <= vocab_size <= MAX_BPE_VOCAB_SIZE:
        shown = echo(repr(vocab_size), 40)  # a checkpoint's may be an int of 4,000 digits
        raise DataError(
            f"the BPE vocabulary size must be a whole number from 1 to {MAX_BPE_VOCAB_SIZE:,}, got "
            f"{shown}: choose a size in that range.",
            "bpe_vocab_size",
            value=shown,
            max=f"{MAX_BPE_VOCAB_SIZE:,}",
        )
    return vocab_size


def _normal(text: str) -> str:
    """text with its whitespace as single spaces and none around it: the text the pieces join back into."""
    return " ".join(text.split())


@dataclass(frozen=True)
class Bpe:
    """A learned byte-pair encoding: the size asked for, its pieces (library order) and its merges (learning order)."""

    vocab_size: int
    pieces: tuple[str, ...]
    merges: tuple[tuple[str, str], ...]
    name: ClassVar[str] = "bpe"  # the tokenizer choice that makes it (transformer.data.TOKENIZERS)

    def __post_init__(self) -> None:
        check_vocab_size(self.vocab_size)
        if not isinstance(self.pieces, tuple) or len(self.pieces) > MAX_PIECES:
            raise DataError(f"a BPE tokenizer has at most {MAX_PIECES:,} pieces.")
        for piece in self.pieces:
            if not isinstance(piece, str) or not piece or len(piece) > MAX_TOKEN_CHARS:
                raise DataError(f"every BPE piece must be text of 1 to {MAX_TOKEN_CHARS} characters.")
            control = find_control(piece)
            if control is not None or " " in piece:
                raise DataError(f"a BPE piece holds {visible(control or ' ')!r}, which no piece may hold.")
        known = frozenset(self.pieces)
        if len(known) != len(self.pieces):
            raise DataError("a BPE tokenizer lists the same piece twice.")
        if MARK not in known:  # without it, the library's ▁ before each word is unknown and repeats its first letter
            raise DataError(
                f"a BPE tokenizer lacks the piece {MARK} that starts every word, which learning always keeps."
            )
        if not isinstance(self.merges, tuple) or len(self.merges) > len(self.pieces):
            raise DataError("a BPE tokenizer has more merges than pieces.")
        for merge in self.merges:
            if not (isinstance(merge, tuple) and len(merge) == 2 and all(isinstance(p, str) for p in merge)):
                raise DataError("every BPE merge must be a pair of pieces.")
            if merge[0] not in known or merge[1] not in known or merge[0] + merge[1] not in known:
                raise DataError("a BPE merge joins pieces that are not in its vocabulary.")
        object.__setattr__(self, "_library", None)
        object.__setattr__(self, "_words", {})  # word → its pieces, as split() found them

    def __reduce__(self):  # pickled (to a job's process) without the library's object, which is rebuilt there
        return (Bpe, (self.vocab_size, self.pieces, self.merges))

    def _tokenizer(self):
        """The library's tokenizer of these pieces and merges, built once."""
        if self._library is None:
            from tokenizers import Tokenizer, models

            vocab = {piece: i for i, piece in enumerate(self.pieces)}
            vocab[_UNKNOWN] = len(vocab)
            library = Tokenizer(models.BPE(vocab, list(self.merges), unk_token=_UNKNOWN))
            library.pre_tokenizer = _pre_tokenizer()
            object.__setattr__(self, "_library", library)
        return self._library

    def split(self, text: str) -> list[str]:
        """The pieces of text: "he loves you." → ▁he ▁lov es ▁you . (spaces become the ▁ of the next word).

        Words are split apart (the library does the same), and each distinct word once: a table's words repeat."""
        pieces: list[str] = []
        words = self._words
        for word in text.split():
            known = words.get(word)
            if known is None:
                if len(words) >= CACHED_WORDS:
                    words.clear()
                known = words[word] = self._split_word(word)
            pieces += known
        return pieces

    def _split_word(self, word: str) -> tuple[str, ...]:
        """The pieces of one word (no whitespace in it), the first with its ▁."""
        encoding = self._tokenizer().encode(word, add_special_tokens=False)
        pieces: list[str] = []
        for piece, (start, end) in zip(encoding.tokens, encoding.offsets):
            if piece == _UNKNOWN:
                piece = word[start:end]  # a character never seen while learning is a piece of its own
            if pieces and piece in _SPECIALS:
                pieces[-1] += piece  # "S" in "USA" stays with the piece before: no piece is a special token
            else:
                pieces.append(piece)
        return tuple(pieces)

    def join(self, pieces: Sequence[str]) -> str:
        """The text of pieces (join_pieces)."""
        return join_pieces(pieces)

    def to_dict(self) -> dict:
        """Plain dict for JSON (a checkpoint's metadata); each merge as "a b" (no piece holds a space), so the JSON
        has three lists and objects however many merges there are."""
        merges = [" ".join(m) for m in self.merges]
        return {"vocab_size": self.vocab_size, "pieces": list(self.pieces), "merges": merges}

    @classmethod
    def from_dict(cls, data: object) -> Bpe:
        """Rebuild from to_dict(); anything else is a DataError that says what is wrong."""
        if not isinstance(data, dict) or set(data) != {"vocab_size", "pieces", "merges"}:
            raise DataError("a BPE tokenizer must be an object of vocab_size, pieces and merges.")
        pieces, merges = data["pieces"], data["merges"]
        if not isinstance(pieces, list) or not isinstance(merges, list):
            raise DataError("a BPE tokenizer's pieces and merges must be lists.")
        if len(pieces) > MAX_PIECES or len(merges) > len(pieces):  # counted before any one is read
            raise DataError(
                f"a BPE tokenizer has at most {MAX_PIECES:,} pieces."
                if len(pieces) > MAX_PIECES
                else "a BPE tokenizer has more merges than pieces."
            )
        if not all(isinstance(m, str) and m.count(" ") == 1 for m in merges):
            raise DataError('every BPE merge must be two pieces separated by one space ("a b").')
        return cls(data["vocab_size"], tuple(pieces), tuple(tuple(m.split(" ")) for m in merges))


def join_pieces(pieces: Sequence[str]) -> str:
    """The text of pieces: each ▁ is a space, and the space before the first word is dropped."""
    text = "".join(pieces).replace(MARK, " ")
    return text[1:] if text.startswith(" ") else text


def _pre_tokenizer():
    """The library's Metaspace: spaces become ▁, prepended to every word, and words are learned apart."""
    from tokenizers import pre_tokenizers

    return pre_tokenizers.Metaspace(replacement=MARK, prepend_scheme="always", split=True)


def learn_bpe(pairs: Iterable[tuple[str, str]], vocab_size: int) -> Bpe:
    """A BPE of about vocab_size pieces (fewer when no pair of pieces occurs twice; more when the data has more
    distinct characters) learned from both sides of the pairs that can be trained: both sides typed, no control
    character. The same pairs and size always give the same pieces."""
    check_vocab_size(vocab_size)
    from tokenizers import Tokenizer, models, trainers

    texts = [
        _normal(side)
        for source, target in pairs
        if usable(source or "", target or "") and find_control(source + target) is None
        for side in (source, target)
    ]
    library = Tokenizer(models.BPE())
    library.pre_tokenizer = _pre_tokenizer()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=MIN_FREQUENCY, show_progress=False, max_token_length=MAX_TOKEN_CHARS
    )
    library.train_from_iterator(texts, trainer)
    learned = json.loads(library.to_str())["model"]  # the library's own JSON: vocab {piece: id}, merges [[a, b]]
    vocab = learned["vocab"]
    pieces = tuple(sorted(vocab, key=vocab.__getitem__))
    return Bpe(vocab_size, pieces, tuple(tuple(m) for m in learned["merges"]))


def tokenizer_for(choice: str, pairs: Sequence[tuple[str, str]], vocab_size: int | None = None) -> str | Bpe:
    """What tokenize() takes for a tokenizer choice: the choice itself, or for "bpe" a Bpe learned from pairs."""
    if choice != Bpe.name:
        return choice
    return learn_bpe(pairs, DEFAULT_BPE_VOCAB_SIZE if vocab_size is None else vocab_size)
