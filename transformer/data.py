"""Tokenization, vocabularies with the tutorials' special tokens, make_data, and pair checks."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

import torch

from .config import MAX_DATA_BYTES, MAX_PAIRS, MAX_TOKEN_CHARS, MAX_TOKENS
from .errors import DataError
from .text import from_spreadsheet, spreadsheet, visible

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


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # Unicode category Cc: NUL, ESC, tab, line breaks, DEL, C1


def find_control(text: str) -> str | None:
    """The first control character in text (Unicode category Cc: NUL, ESC, tab, line breaks, …), or None."""
    match = _CONTROL.search(text)
    return match.group() if match else None


@dataclass(frozen=True)
class Problem:
    """Something wrong with the pairs; severity 'error' blocks training, 'warning' does not."""

    # no_pairs, too_many_rows, empty_source, empty_target, too_long, token_too_long, control, duplicate, reserved
    kind: str
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
            "token_too_long": f"the {self.detail} has a token longer than {MAX_TOKEN_CHARS} characters: "
            "shorten it or split it with spaces.",
            "control": f"contains the invisible control character {self.detail}, which cannot be part of a "
            "sentence: delete it.",
            "too_many_rows": f"there are {self.detail} pairs, more than the {MAX_PAIRS} allowed: delete some rows.",
            "duplicate": f"this pair appears {self.detail} times in the table (the same tokens); every copy is "
            "trained.",
            "reserved": f"the token {self.detail} is reserved for the model and will be read as an unknown word.",
        }[self.kind]
        return where + text


def _row_problems(row: int, src: str, tgt: str, src_tokens: list[str], tgt_tokens: list[str]) -> list[Problem]:
    """The problems of one row, errors before warnings."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    control = find_control(src.strip()) or find_control(tgt.strip())  # spaces around a cell are dropped anyway
    if control is not None:
        errors.append(Problem("control", row, visible(control)))
    for side, tokens, empty in (("source", src_tokens, "empty_source"), ("target", tgt_tokens, "empty_target")):
        if not tokens:
            errors.append(Problem(empty, row))
        elif len(tokens) > MAX_TOKENS:
            errors.append(Problem("too_long", row, side))
        if any(len(t) > MAX_TOKEN_CHARS for t in tokens):
            errors.append(Problem("token_too_long", row, side))
        for t in dict.fromkeys(t for t in tokens if t in SPECIALS):
            warnings.append(Problem("reserved", row, t, "warning"))
    return errors + warnings


def check_pairs(pairs: list[tuple[str, str]], tokenizer: str = "auto") -> list[Problem]:
    """Every problem with a list of (source, target) pairs, errors before warnings.

    A row typed exactly like an earlier row has that row's problems, so they are listed once, at the first copy;
    pairs that read the same after tokenization are one warning with the number of copies.
    """
    if not pairs:
        return [Problem("no_pairs")]
    problems: list[Problem] = []
    if len(pairs) > MAX_PAIRS:
        problems.append(Problem("too_many_rows", detail=str(len(pairs))))
    tokens_of: dict[tuple[str, str], tuple] = {}  # each distinct row as typed → its tokens
    copies: dict[tuple, list[int]] = {}  # each distinct pair of token lists → [first row, number of rows]
    for row, (src, tgt) in enumerate(pairs, start=1):
        src, tgt = src or "", tgt or ""
        key = tokens_of.get((src, tgt))
        if key is None:
            src_tokens, tgt_tokens = tokenize(src, tokenizer), tokenize(tgt, tokenizer)
            key = tokens_of[(src, tgt)] = (tuple(src_tokens), tuple(tgt_tokens))
            problems += _row_problems(row, src, tgt, src_tokens, tgt_tokens)
        copies.setdefault(key, [row, 0])[1] += 1
    problems += [Problem("duplicate", first, str(n), "warning") for first, n in copies.values() if n > 1]
    return sorted(problems, key=lambda p: (p.severity, p.row or 0))


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


_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the line ends csv knows (str.splitlines knows more)
_CONTROL_IN_FILE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # Cc but tab and line ends


def _line_of(text: str, position: int) -> int:
    """The 1-based line of text that holds position."""
    return len(_LINE_BREAK.findall(text, 0, position)) + 1


def parse_pairs(data: bytes | str, name: str = "pairs") -> list[tuple[str, str]]:
    """(source, target) pairs from UTF-8 TSV or CSV text with two columns and an optional header.

    Line ends may be \\n, \\r\\n or \\r; a control character (NUL, ESC, …) or a row past MAX_PAIRS is refused
    with a DataError naming the line, and so is anything the csv module cannot read.
    """
    if isinstance(data, bytes):
        if len(data) > MAX_DATA_BYTES:
            raise DataError(f"{name} is {len(data):,} bytes; the limit is {MAX_DATA_BYTES:,}. Use a smaller file.")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DataError(f"{name} is not UTF-8 text: save it as UTF-8 (CSV or TSV) and try again.") from None
    control = _CONTROL_IN_FILE.search(data)
    if control is not None:
        line = _line_of(data, control.start())
        if control.group() == "\x00":
            raise DataError(
                f"{name}, line {line}: holds a NUL byte, so it is not a text file: use a UTF-8 CSV or TSV file "
                "with two columns."
            )
        raise DataError(
            f"{name}, line {line}: the invisible control character {visible(control.group())} cannot be part of a "
            "sentence pair: delete it."
        )
    first = next((line for line in _LINE_BREAK.split(data) if line.strip()), None)
    if first is None:
        raise DataError(f"{name} is empty: it needs one sentence pair per line, source and target.")
    delimiter = "\t" if "\t" in first else ","
    kind = "TSV (tab)" if delimiter == "\t" else "CSV (comma)"
    reader = csv.reader(io.StringIO(data, newline=""), delimiter=delimiter)
    pairs, seen_row = [], False
    try:
        for row in reader:
            cells = [from_spreadsheet(c.strip()) for c in row]  # a cell written as '=… by format_pairs is =…
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
            control = find_control(cells[0] + cells[1])
            if control is not None:  # a tab in a CSV cell, a line break inside quotes
                raise DataError(
                    f"{name}, line {reader.line_num}: a sentence holds the control character {visible(control)} "
                    "(a tab or a line break inside one cell): keep each sentence on one line, without tabs."
                )
            if len(pairs) == MAX_PAIRS:
                raise DataError(
                    f"{name}, line {reader.line_num}: more than {MAX_PAIRS} sentence pairs, the most one dataset may "
                    "have: split the file or delete some rows."
                )
            pairs.append((cells[0], cells[1]))
    except csv.Error as exc:
        raise DataError(
            f"{name}, line {reader.line_num}: cannot be read as {kind} ({exc}): check its quotes and cells."
        ) from None
    if not pairs:
        raise DataError(f"{name} has a header but no sentence pairs.")
    return pairs


def format_pairs(pairs: list[tuple[str, str]]) -> str:
    """The pairs as TSV with a header, the format parse_pairs reads back; a cell that a spreadsheet would run as a
    formula (=1+1, -1, @x) is written as text ('=1+1), as the app's other CSV files are (transformer.text)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(["source", "target"])
    writer.writerows((spreadsheet(source), spreadsheet(target)) for source, target in pairs)
    return out.getvalue()
