"""Subword tokens: a byte-pair-encoding (BPE) tokenizer learned from sentence pairs with Hugging Face `tokenizers`.

Learning starts from single characters and merges the most frequent adjacent pair of pieces, again and again, until
the vocabulary has the size asked for (or no pair occurs twice), as Sennrich et al. (2016) describe it and as the
paper uses it. One tokenizer is learned from both sides of the training pairs, as the paper shares its vocabulary;
each side's Vocab then holds the pieces that side uses.

Pieces follow sentencepiece's convention: a piece that starts a word begins with ▁ (the spaces of the text), so a
translation's pieces join back into text exactly ("▁he ▁lov es ▁you ." → "he loves you."). Before learning, the
library's pre-tokenizers cut the text into words at its spaces and cut every punctuation mark off as a word of its own
(with the ▁ of a space before it: "▁."), full-width Chinese marks included, so no piece crosses a punctuation mark:
"你好。" → 你好 · 。, never 好。. A sentence that begins in Chinese or Japanese script (written without spaces)
gets no ▁ before it: there is no space to mark, and a lone ▁ would start most Chinese sentences. No piece is ever
one of the special tokens P, S, E: a piece that would be, as "S" in "▁U S A", is written ##S (## marks a piece inside
a word, as BERT's WordPiece does) and joins back as S. A character never seen while learning is a piece of its own,
which a vocabulary then reads as unknown; `tokens_for` lists every piece the tokenizer can make of a set of
characters, so a model's vocabulary can hold them all and every character of its training pairs can be written.

A Bpe is what a checkpoint stores (to_dict / from_dict, as JSON): the size asked for, the pieces in the library's
order, the merges in the order they were learned and its version. Version 1 is what checkpoints made before
punctuation was cut off hold (words cut at spaces only, ▁ before every sentence, a bare P, S or E kept joined to the
piece before): it still splits text as those models were trained. Every field is checked when a Bpe is made, so a
crafted one in a checkpoint is refused with a DataError that says what is wrong.
"""

from __future__ import annotations

import json
import os
import re
import string
import unicodedata
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
VERSION = 2  # what learn_bpe makes: punctuation cut off, no ▁ before a Chinese sentence, a bare P, S or E as ##P
INSIDE = "##"  # written before a piece that would be a special token: "S" in "▁U S A" is ##S
_INSIDE = {INSIDE + s: s for s in _SPECIALS}  # ##P → P, ##S → S, ##E → E
# Han ideographs (with extensions and compatibility forms) and kana: scripts written without spaces between words
_UNSPACED = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\U00020000-\U0002fa1f]")
# a punctuation mark (any Unicode punctuation, full-width 。！？，、 included, and ASCII's $ + < = > ^ ` | ~), with the
# ▁ of a space before it: the pre-tokenizer cuts each off as a word of its own (the library's regex, Oniguruma)
_PUNCTUATION = f"{MARK}?[\\p{{P}}!-/:-@\\[-`{{-~]"
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
    version: int = 1  # 1: a checkpoint's from before punctuation was cut off (the module's docstring); VERSION
    name: ClassVar[str] = "bpe"  # the tokenizer choice that makes it (transformer.data.TOKENIZERS)

    def __post_init__(self) -> None:
        check_vocab_size(self.vocab_size)
        if self.version not in (1, VERSION) or isinstance(self.version, bool):
            raise DataError(f"a BPE tokenizer's version must be 1 or {VERSION}.")
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
        return (Bpe, (self.vocab_size, self.pieces, self.merges, self.version))

    def _tokenizer(self):
        """The library's tokenizer of these pieces and merges, built once."""
        if self._library is None:
            from tokenizers import Tokenizer, models

            vocab = {piece: i for i, piece in enumerate(self.pieces)}
            vocab[_UNKNOWN] = len(vocab)
            library = Tokenizer(models.BPE(vocab, list(self.merges), unk_token=_UNKNOWN))
            library.pre_tokenizer = _pre_tokenizer(self.version)
            object.__setattr__(self, "_library", library)
        return self._library

    def split(self, text: str, side: str | None = None) -> list[str]:
        """The pieces of text: "he loves you." → ▁he ▁lov es ▁you . (spaces become the ▁ of the next word); the
        same for either side (one tokenizer is learned from both).

        Words are split apart (the library does the same), and each distinct word once: a table's words repeat."""
        pieces: list[str] = []
        words = self._words
        for i, word in enumerate(text.split()):
            # what the library is given: the word with the ▁ of the space before it (version 1: the library adds it),
            # none before a sentence that begins in Chinese or Japanese script
            word = word if self.version == 1 or (i == 0 and _unspaced(word)) else MARK + word
            known = words.get(word)
            if known is None:
                if len(words) >= CACHED_WORDS:
                    words.clear()
                known = words[word] = self._split_word(word)
            pieces += known
        return pieces

    def _split_word(self, word: str) -> tuple[str, ...]:
        """The pieces of one word (no whitespace in it)."""
        encoding = self._tokenizer().encode(word, add_special_tokens=False)
        pieces: list[str] = []
        for piece, (start, end) in zip(encoding.tokens, encoding.offsets):
            if piece == _UNKNOWN:
                piece = word[start:end]  # a character never seen while learning is a piece of its own
            if piece not in _SPECIALS:
                pieces.append(piece)
            elif self.version > 1:
                pieces.append(INSIDE + piece)  # "S" in "USA" is ##S: no piece is a special token
            elif pieces:
                pieces[-1] += piece  # version 1: "S" in "USA" stays with the piece before
            else:
                pieces.append(piece)
        return tuple(pieces)

    def join(self, pieces: Sequence[str]) -> str:
        """The text of pieces (join_pieces; version 1 made no ##P, and a piece of its own may read ##P)."""
        return join_pieces(pieces) if self.version > 1 else _join(pieces)

    def tokens_for(self, characters: Iterable[str]) -> list[str]:
        """Every piece this tokenizer can make of text written in these characters, in its order, each as split()
        writes it (##S for S): the pieces made of them and ▁ alone. A vocabulary that holds these writes every such
        text with no unknown token."""
        known = set(characters) | {MARK}
        return [INSIDE + p if p in _SPECIALS else p for p in self.pieces if known.issuperset(p)]

    def to_dict(self) -> dict:
        """Plain dict for JSON (a checkpoint's metadata); each merge as "a b" (no piece holds a space), so the JSON
        has three lists and objects however many merges there are. Version 1 is written as before (no version)."""
        merges = [" ".join(m) for m in self.merges]
        version = {"version": self.version} if self.version > 1 else {}
        return {"vocab_size": self.vocab_size, "pieces": list(self.pieces), "merges": merges, **version}

    @classmethod
    def from_dict(cls, data: object) -> Bpe:
        """Rebuild from to_dict(); anything else is a DataError that says what is wrong. One without a version is
        version 1 (checkpoints made before versions)."""
        fields = {"vocab_size", "pieces", "merges"}
        if not isinstance(data, dict) or not fields <= set(data) <= fields | {"version"}:
            raise DataError("a BPE tokenizer must be an object of vocab_size, pieces, merges and perhaps version.")
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
        version = data.get("version", 1)
        if not isinstance(version, int) or isinstance(version, bool):
            raise DataError(f"a BPE tokenizer's version must be 1 or {VERSION}.")
        return cls(data["vocab_size"], tuple(pieces), tuple(tuple(m.split(" ")) for m in merges), version)


def join_pieces(pieces: Sequence[str]) -> str:
    """The text of pieces: each ▁ is a space, the space before the first word is dropped, and ##S is S."""
    return _join([_INSIDE.get(piece, piece) for piece in pieces])


def _join(pieces: Sequence[str]) -> str:
    text = "".join(pieces).replace(MARK, " ")
    return text[1:] if text.startswith(" ") else text


def _punctuation(ch: str) -> bool:
    """Whether the pre-tokenizer cuts ch off as punctuation (_PUNCTUATION)."""
    return unicodedata.category(ch).startswith("P") or ch in string.punctuation


def _unspaced(text: str) -> bool:
    """Whether text begins in a script written without spaces (Han, kana), punctuation before it aside: such a
    sentence gets no ▁ before it."""
    first = next((ch for ch in text if not ch.isspace() and not _punctuation(ch)), "")
    return bool(_UNSPACED.match(first))


def _marked(text: str) -> str:
    """text as a version-2 tokenizer learns it: one space between words, and ▁ before it unless it is unspaced."""
    text = _normal(text)
    return text if _unspaced(text) else MARK + text


def _pre_tokenizer(version: int = VERSION):
    """The library's pre-tokenizers: spaces become ▁ and words are learned apart (Metaspace); from version 2, each
    punctuation mark is cut off as a word of its own (Split), and ▁ is put before a sentence by _marked, not by
    Metaspace (version 1 puts it before every word)."""
    from tokenizers import Regex, pre_tokenizers

    if version == 1:
        return pre_tokenizers.Metaspace(replacement=MARK, prepend_scheme="always", split=True)
    return pre_tokenizers.Sequence(
        [
            pre_tokenizers.Metaspace(replacement=MARK, prepend_scheme="never", split=True),
            pre_tokenizers.Split(Regex(_PUNCTUATION), behavior="isolated"),
        ]
    )


def learn_bpe(pairs: Iterable[tuple[str, str]], vocab_size: int) -> Bpe:
    """A BPE of about vocab_size pieces (fewer when no pair of pieces occurs twice; more when the data has more
    distinct characters) learned from both sides of the pairs that can be trained: both sides typed, no control
    character. The same pairs and size always give the same pieces."""
    check_vocab_size(vocab_size)
    from tokenizers import Tokenizer, models, trainers

    texts = [
        _marked(side)
        for source, target in pairs
        if usable(source or "", target or "") and find_control(source + target) is None
        for side in (source, target)
    ]
    library = Tokenizer(models.BPE())
    library.pre_tokenizer = _pre_tokenizer()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=MIN_FREQUENCY,
        show_progress=False,
        max_token_length=MAX_TOKEN_CHARS,
        initial_alphabet=[MARK],  # ▁ alone, which a space before punctuation makes, even when no text has a space
    )
    library.train_from_iterator(texts, trainer)
    learned = json.loads(library.to_str())["model"]  # the library's own JSON: vocab {piece: id}, merges [[a, b]]
    vocab = learned["vocab"]
    pieces = tuple(sorted(vocab, key=vocab.__getitem__))
    return Bpe(vocab_size, pieces, tuple(tuple(m) for m in learned["merges"]), VERSION)


def tokenizer_for(choice: str, pairs: Sequence[tuple[str, str]], vocab_size: int | None = None) -> str | Bpe:
    """What tokenize() takes for a tokenizer choice: the choice itself, or for "bpe" a Bpe learned from pairs."""
    if choice != Bpe.name:
        return choice
    return learn_bpe(pairs, DEFAULT_BPE_VOCAB_SIZE if vocab_size is None else vocab_size)
