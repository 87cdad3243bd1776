"""Tokenization, vocabularies with the tutorials' special tokens, make_data, and pair checks."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import torch

from .config import MAX_DATA_BYTES, MAX_PAIRS, MAX_TOKENS
from .errors import DataError

PAD, BOS, EOS, UNK = "P", "S", "E", "<unk>"  # padding, start, end, unknown word
SPECIALS = (PAD, BOS, EOS, UNK)  # ids 0, 1, 2, 3 in every vocabulary built here
PAD_ID = 0

TOKENIZERS = ("auto", "whitespace", "char")

# Han ideographs (with extensions and compatibility forms), kana and Hangul syllables
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af\U00020000-\U0002fa1f"
_AUTO = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+(?:['’][^\W{_CJK}]+)*|[^\w\s]", re.UNICODE)


def tokenize(text: str, mode: str = "auto") -> list[str]:
    """Split a sentence into tokens by mode: 'auto', 'whitespace' or 'char'.

    'auto' makes every CJK character a token, spaces or not, and splits other text on whitespace with
    punctuation split off, so "I love you." → I love you .
    """
    if mode == "auto":
        return _AUTO.findall(text)
    if mode == "whitespace":
        return text.split()
    if mode == "char":
        return [c for c in text if not c.isspace()]
    raise DataError(f"unknown tokenizer {mode!r}: use one of {', '.join(TOKENIZERS)}.")


@dataclass(frozen=True)
class Vocab:
    """Token ↔ id table; P is always id 0 and S, E and the unknown token are always present."""

    itos: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.itos or self.itos[0] != PAD:
            raise DataError(f"a vocabulary must start with the padding token {PAD!r} at id 0.")
        if len(set(self.itos)) != len(self.itos):
            raise DataError("a vocabulary lists the same token twice.")
        missing = [t for t in SPECIALS if t not in self.itos]
        if missing:
            raise DataError(f"a vocabulary lacks the special token(s) {', '.join(missing)}.")
        object.__setattr__(self, "stoi", {t: i for i, t in enumerate(self.itos)})

    @classmethod
    def build(cls, sentences: list[list[str]]) -> Vocab:
        """Specials first, then every token in order of first appearance."""
        seen = dict.fromkeys(SPECIALS)
        for tokens in sentences:
            seen.update(dict.fromkeys(t for t in tokens if t not in SPECIALS))
        return cls(tuple(seen))

    @classmethod
    def from_dict(cls, mapping: dict[str, int]) -> Vocab:
        """A vocabulary from a tutorial-style {token: id} dict; missing specials are appended."""
        ids = sorted(mapping.values())
        if ids != list(range(len(ids))):
            raise DataError("vocabulary ids must be 0, 1, 2, … without gaps.")
        itos = sorted(mapping, key=mapping.__getitem__)
        return cls(tuple(itos) + tuple(t for t in SPECIALS if t not in mapping))

    def __len__(self) -> int:
        return len(self.itos)

    @property
    def bos_id(self) -> int:
        return self.stoi[BOS]

    @property
    def eos_id(self) -> int:
        return self.stoi[EOS]

    @property
    def unk_id(self) -> int:
        return self.stoi[UNK]

    def encode(self, tokens: list[str]) -> tuple[list[int], list[str]]:
        """Ids for tokens, plus the tokens that were unknown (special names count as unknown words)."""
        ids, unknown = [], []
        for token in tokens:
            i = self.stoi.get(token) if token not in SPECIALS else None
            if i is None:
                unknown.append(token)
                i = self.unk_id
            ids.append(i)
        return ids, unknown

    def decode(self, ids) -> list[str]:
        """Tokens for ids."""
        return [self.itos[int(i)] for i in ids]


def build_vocabs(pairs: list[tuple[str, str]], tokenizer: str = "auto") -> tuple[Vocab, Vocab]:
    """Source and target vocabularies for a list of (source, target) sentence pairs."""
    return (
        Vocab.build([tokenize(s, tokenizer) for s, _ in pairs]),
        Vocab.build([tokenize(t, tokenizer) for _, t in pairs]),
    )


def token_counts(sentences: list[str], tokenizer: str = "auto") -> Counter:
    """How often each token occurs in the given sentences."""
    return Counter(t for s in sentences for t in tokenize(s, tokenizer))


class Batch(NamedTuple):
    """The three tensors of make_data, each [B, L] of token ids padded with 0."""

    enc_inputs: torch.Tensor  # [B, Ls] source
    dec_inputs: torch.Tensor  # [B, Lt] S + target
    dec_outputs: torch.Tensor  # [B, Lt] target + E


def _pad(rows: list[list[int]], length: int) -> torch.Tensor:
    return torch.tensor([r + [PAD_ID] * (length - len(r)) for r in rows], dtype=torch.long)


def make_data(
    pairs: list[tuple[str, str]],
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    tokenizer: str = "auto",
    src_len: int | None = None,
    tgt_len: int | None = None,
) -> Batch:
    """enc_inputs, dec_inputs (S + target) and dec_outputs (target + E), padded with 0 to the longest
    sentence, or to src_len / tgt_len when those are longer (the seed pads to 5 and 6)."""
    src = [src_vocab.encode(tokenize(s, tokenizer))[0] for s, _ in pairs]
    tgt = [tgt_vocab.encode(tokenize(t, tokenizer))[0] for _, t in pairs]
    ls = max([len(r) for r in src] + [src_len or 0])
    lt = max([len(r) + 1 for r in tgt] + [tgt_len or 0])
    return Batch(
        enc_inputs=_pad(src, ls),
        dec_inputs=_pad([[tgt_vocab.bos_id] + r for r in tgt], lt),
        dec_outputs=_pad([r + [tgt_vocab.eos_id] for r in tgt], lt),
    )


@dataclass(frozen=True)
class Problem:
    """Something wrong with the pairs; severity 'error' blocks training, 'warning' does not."""

    kind: str  # empty_source, empty_target, too_long, too_many_rows, no_pairs, duplicate, reserved
    row: int | None = None  # 1-based row number, None for the whole table
    detail: str = ""
    severity: str = "error"

    def message(self) -> str:
        """The problem in plain English (the app translates by kind)."""
        where = f"row {self.row}: " if self.row is not None else ""
        text = {
            "no_pairs": "there are no sentence pairs: add at least one row with a source and a target.",
            "empty_source": "the source sentence is empty: type one or delete the row.",
            "empty_target": "the target sentence is empty: type one or delete the row.",
            "too_long": f"the {self.detail} is longer than {MAX_TOKENS} tokens: shorten it.",
            "too_many_rows": f"there are {self.detail} pairs, more than the {MAX_PAIRS} allowed: delete some rows.",
            "duplicate": f"the same pair as row {self.detail}; it is trained twice.",
            "reserved": f"the token {self.detail} is reserved for the model and will be read as an unknown word.",
        }[self.kind]
        return where + text


def check_pairs(pairs: list[tuple[str, str]], tokenizer: str = "auto") -> list[Problem]:
    """Every problem with a list of (source, target) pairs, errors before warnings."""
    problems: list[Problem] = []
    if not pairs:
        return [Problem("no_pairs")]
    if len(pairs) > MAX_PAIRS:
        problems.append(Problem("too_many_rows", detail=str(len(pairs))))
    first_seen: dict[tuple[str, str], int] = {}
    warnings: list[Problem] = []
    for row, (src, tgt) in enumerate(pairs, start=1):
        for side, text, empty in (("source", src, "empty_source"), ("target", tgt, "empty_target")):
            tokens = tokenize(text or "", tokenizer)
            if not tokens:
                problems.append(Problem(empty, row))
            elif len(tokens) > MAX_TOKENS:
                problems.append(Problem("too_long", row, side))
            for t in dict.fromkeys(t for t in tokens if t in SPECIALS):
                warnings.append(Problem("reserved", row, t, "warning"))
        key = (" ".join(tokenize(src or "", tokenizer)), " ".join(tokenize(tgt or "", tokenizer)))
        if key in first_seen:
            warnings.append(Problem("duplicate", row, str(first_seen[key]), "warning"))
        else:
            first_seen[key] = row
    return problems + warnings


_HEADER_WORDS = {
    "source",
    "target",
    "src",
    "tgt",
    "input",
    "output",
    "源",
    "目标",
    "源语言",
    "目标语言",
    "中文",
    "英文",
    "english",
    "chinese",
}


def parse_pairs(data: bytes | str, name: str = "pairs") -> list[tuple[str, str]]:
    """(source, target) pairs from UTF-8 TSV or CSV text with two columns and an optional header."""
    if isinstance(data, bytes):
        if len(data) > MAX_DATA_BYTES:
            raise DataError(f"{name} is {len(data):,} bytes; the limit is {MAX_DATA_BYTES:,}. Use a smaller file.")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DataError(f"{name} is not UTF-8 text: save it as UTF-8 (CSV or TSV) and try again.") from None
    if "\x00" in data:
        raise DataError(f"{name} is not a text file: use a UTF-8 CSV or TSV file with two columns.")
    first = next((line for line in data.splitlines() if line.strip()), None)
    if first is None:
        raise DataError(f"{name} is empty: it needs one sentence pair per line, source and target.")
    delimiter = "\t" if "\t" in first else ","
    kind = "TSV (tab)" if delimiter == "\t" else "CSV (comma)"
    reader = csv.reader(io.StringIO(data), delimiter=delimiter)
    pairs, seen_row = [], False
    for row in reader:
        cells = [c.strip() for c in row]
        if not any(cells):
            continue  # blank line
        if not seen_row:
            seen_row = True
            if all(c.lower() in _HEADER_WORDS for c in cells[:2]) and len(cells) >= 2:
                continue  # header
        while len(cells) > 2 and not cells[-1]:
            cells.pop()
        if len(cells) != 2:
            raise DataError(
                f"{name}, line {reader.line_num}: expected 2 columns (source, target) in {kind} format, "
                f"found {len(cells)}."
            )
        pairs.append((cells[0], cells[1]))
    if not pairs:
        raise DataError(f"{name} has a header but no sentence pairs.")
    return pairs


def format_pairs(pairs: list[tuple[str, str]]) -> str:
    """The pairs as TSV with a header, the format parse_pairs reads back."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(["source", "target"])
    writer.writerows(pairs)
    return out.getvalue()
