"""Tokenization, vocabularies with the tutorials' special tokens, make_data, and pair checks."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .columns import infer_roles, read_file, take_pairs
from .config import MAX_PAIRS, MAX_TOKEN_CHARS, MAX_TOKENS, MAX_VOCAB_SIZE
from .errors import DataError
from .text import spreadsheet, visible

if TYPE_CHECKING:  # torch is imported where tensors are made: tokenizing and the vocabularies need none of it
    import torch

PAD, BOS, EOS, UNK = "P", "S", "E", "<unk>"  # padding, start, end, unknown word
SPECIALS = (PAD, BOS, EOS, UNK)  # ids 0, 1, 2, 3 in every vocabulary built here
_SPECIALS = frozenset(SPECIALS)
PAD_ID = 0

TOKENIZERS = ("auto", "whitespace", "char", "bpe")  # "bpe" is learned from the data first (transformer.bpe)

# Han ideographs (with extensions and compatibility forms), kana and Hangul syllables
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af\U00020000-\U0002fa1f"
_AUTO = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+(?:['’][^\W{_CJK}]+)*|[^\w\s]", re.UNICODE)


def tokenize(text: str, mode="auto", side: str | None = None) -> list[str]:
    """Split a sentence into tokens by mode: 'auto', 'whitespace' or 'char', or a learned tokenizer (a
    transformer.bpe.Bpe, whose tokens are subword pieces) or a read one (a transformer.spm.SentencePiece, which
    splits each side with its own model: side is then "source" or "target", and a source ends with its end token).

    'auto' makes every CJK character a token, spaces or not, and splits other text on whitespace with
    punctuation split off, so "I love you." → I love you .
    """
    if not isinstance(mode, str):  # a learned or read tokenizer
        return mode.split(text, side) if getattr(mode, "sided", False) else mode.split(text)
    if mode == "bpe":
        raise DataError("the bpe tokenizer is learned from the data before it can split text (transformer.bpe).")
    if mode == "auto":
        return _AUTO.findall(text)
    if mode == "whitespace":
        return text.split()
    if mode == "char":
        return [c for c in text if not c.isspace()]
    raise DataError(f"unknown tokenizer {mode!r}: use one of {', '.join(TOKENIZERS)}.")


def detokenize(tokens: list[str], mode="auto") -> str:
    """Tokens as text for reading and scoring: a learned tokenizer's pieces joined back into words, other tokens
    separated by spaces."""
    return " ".join(tokens) if isinstance(mode, str) else mode.join(tokens)


@dataclass(frozen=True)
class Specials:
    """A vocabulary's special tokens by role, and the tokens that typed text may not produce (read as unknown words).
    The project's are P, S, E and <unk> at ids 0 to 3; a model read from elsewhere names its own (transformer.spm:
    Marian pads with <pad>, its last id, which is also the decoder's first input, and ends sentences with </s>)."""

    pad: str = PAD  # fills a batch's shorter rows; never attended to in the encoder
    bos: str = BOS  # the decoder's first input
    eos: str = EOS  # the end of a sentence: decoding stops when it is chosen
    unk: str = UNK  # a token the vocabulary lacks
    reserved: tuple[str, ...] = SPECIALS  # typed as a word, each is read as unknown

    @property
    def names(self) -> tuple[str, ...]:
        """The special tokens, each once."""
        return tuple(dict.fromkeys((self.pad, self.bos, self.eos, self.unk)))


OUR_SPECIALS = Specials()


@dataclass(frozen=True)
class Vocab:
    """Token ↔ id table with its special tokens (specials): the project's P is always id 0 and S, E and the unknown
    token are always present; a vocabulary read with a model has the specials that model was trained with."""

    itos: tuple[str, ...]
    specials: Specials = OUR_SPECIALS

    def __post_init__(self) -> None:
        if self.specials == OUR_SPECIALS and (not self.itos or self.itos[0] != PAD):
            raise DataError(f"a vocabulary must start with the padding token {PAD!r} at id 0.")
        if len(set(self.itos)) != len(self.itos):
            raise DataError("a vocabulary lists the same token twice.")
        missing = [t for t in self.specials.names if t not in self.itos]
        if missing:
            raise DataError(f"a vocabulary lacks the special token(s) {', '.join(missing)}.")
        object.__setattr__(self, "stoi", {t: i for i, t in enumerate(self.itos)})
        object.__setattr__(self, "_reserved", frozenset(self.specials.reserved))

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
    def pad_id(self) -> int:
        return self.stoi[self.specials.pad]

    @property
    def bos_id(self) -> int:
        return self.stoi[self.specials.bos]

    @property
    def eos_id(self) -> int:
        return self.stoi[self.specials.eos]

    @property
    def unk_id(self) -> int:
        return self.stoi[self.specials.unk]

    def encode(self, tokens: list[str]) -> tuple[list[int], list[str]]:
        """Ids for tokens, plus the tokens that were unknown (reserved special names count as unknown words)."""
        ids, unknown = [], []
        reserved = self._reserved
        for token in tokens:
            i = self.stoi.get(token) if token not in reserved else None
            if i is None:
                unknown.append(token)
                i = self.unk_id
            ids.append(i)
        return ids, unknown

    def decode(self, ids) -> list[str]:
        """Tokens for ids."""
        return [self.itos[int(i)] for i in ids]


def build_vocabs(pairs: list[tuple[str, str]], tokenizer: str = "auto") -> tuple[Vocab, Vocab]:
    """Source and target vocabularies for a list of (source, target) sentence pairs: the tokens of each side in order
    of first appearance, then, for a learned tokenizer, every other piece it can make of that side's characters, so
    that any text written in them has no unknown token ("tonight" → ▁t on i gh t needs gh even when no training word
    split into it)."""
    return (
        _side_vocab([tokenize(s, tokenizer, "source") for s, _ in pairs], tokenizer, "".join(s for s, _ in pairs)),
        _side_vocab([tokenize(t, tokenizer, "target") for _, t in pairs], tokenizer, "".join(t for _, t in pairs)),
    )


def _side_vocab(sentences: list[list[str]], tokenizer, characters: str) -> Vocab:
    """Vocab.build of one side's tokens, and a learned tokenizer's pieces of its characters after them."""
    if not isinstance(tokenizer, str):
        sentences = [*sentences, tokenizer.tokens_for(set(characters))]
    return Vocab.build(sentences)


@dataclass(frozen=True)
class UnseenWords:
    """The words of held-out pairs that no training pair has, so the vocabularies built from the training pairs lack
    them: a source word is read as <unk>, a reference word can never be written by the model."""

    source: Counter  # word → occurrences in the held-out sources
    target: Counter  # word → occurrences in the held-out references
    unreachable: int  # held-out pairs with such a reference word: they can never be translated exactly
    total: int  # held-out pairs


def unseen_words(
    held_out: list[tuple[str, str]], src_vocab: Vocab, tgt_vocab: Vocab, tokenizer: str = "auto"
) -> UnseenWords:
    """Which words of the held_out pairs are missing from src_vocab / tgt_vocab (the vocabularies of the training
    pairs), and how often they occur; special tokens typed as words are left out (they are unknown for another
    reason, see Problem 'reserved')."""
    source: Counter = Counter()
    target: Counter = Counter()
    unreachable = 0
    for src, tgt in held_out:
        source.update(t for t in tokenize(src, tokenizer, "source") if t not in src_vocab.stoi and t not in _SPECIALS)
        missing = [t for t in tokenize(tgt, tokenizer, "target") if t not in tgt_vocab.stoi and t not in _SPECIALS]
        target.update(missing)
        unreachable += bool(missing)
    return UnseenWords(source, target, unreachable, len(held_out))


class Batch(NamedTuple):
    """The three tensors of make_data, each [B, L] of token ids padded with the vocabulary's padding id (P, 0)."""

    enc_inputs: torch.Tensor  # [B, Ls] source
    dec_inputs: torch.Tensor  # [B, Lt] S + target
    dec_outputs: torch.Tensor  # [B, Lt] target + E


def _pad(rows: list[list[int]], length: int, pad_id: int = PAD_ID) -> torch.Tensor:
    import torch

    return torch.tensor([r + [pad_id] * (length - len(r)) for r in rows], dtype=torch.long)


def make_data(
    pairs: list[tuple[str, str]],
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    tokenizer: str = "auto",
    src_len: int | None = None,
    tgt_len: int | None = None,
) -> Batch:
    """enc_inputs, dec_inputs (S + target) and dec_outputs (target + E), padded with the vocabulary's padding (P, 0)
    to the longest sentence, or to src_len / tgt_len when those are longer (the seed pads to 5 and 6)."""
    src = [src_vocab.encode(tokenize(s, tokenizer, "source"))[0] for s, _ in pairs]
    tgt = [tgt_vocab.encode(tokenize(t, tokenizer, "target"))[0] for _, t in pairs]
    ls = max([len(r) for r in src] + [src_len or 0])
    lt = max([len(r) + 1 for r in tgt] + [tgt_len or 0])
    return Batch(
        enc_inputs=_pad(src, ls, src_vocab.pad_id),
        dec_inputs=_pad([[tgt_vocab.bos_id] + r for r in tgt], lt, tgt_vocab.pad_id),
        dec_outputs=_pad([r + [tgt_vocab.eos_id] for r in tgt], lt, tgt_vocab.pad_id),
    )


def lengths(batch: Batch, pad_id: int = PAD_ID) -> tuple[torch.Tensor, torch.Tensor]:
    """The real (unpadded) lengths of a batch's sources and of its decoder rows (S + target), each (B,); the decoder
    rows are counted on target + E, as long, so a start token that is the padding token (Marian's) counts too."""
    return batch.enc_inputs.ne(pad_id).sum(1), batch.dec_outputs.ne(pad_id).sum(1)


def cut(batch: Batch, rows: torch.Tensor, src_lengths: torch.Tensor, tgt_lengths: torch.Tensor) -> Batch:
    """The pairs of batch at rows (indexes), padded only to the longest of them."""
    ls, lt = max(1, int(src_lengths[rows].max())), max(1, int(tgt_lengths[rows].max()))
    return Batch(batch.enc_inputs[rows, :ls], batch.dec_inputs[rows, :lt], batch.dec_outputs[rows, :lt])


def by_length(src_lengths: torch.Tensor, tgt_lengths: torch.Tensor, order: torch.Tensor | None = None) -> torch.Tensor:
    """The indexes of order (default: every pair in turn) sorted by target length, then source length; ties keep
    their order in order."""
    import torch

    order = torch.arange(len(src_lengths)) if order is None else order
    if not len(order):
        return order
    key = tgt_lengths[order] * (int(src_lengths.max()) + 1) + src_lengths[order]  # (n,)
    return order[torch.argsort(key, stable=True)]


def chunks(batch: Batch, rows: int, pad_id: int = PAD_ID) -> list[Batch]:
    """batch in parts of at most rows pairs of similar lengths (sorted by length), each padded only to its own
    longest sentence: many pairs evaluated a part at a time, with little padding."""
    src_lengths, tgt_lengths = lengths(batch, pad_id)
    return [cut(batch, part, src_lengths, tgt_lengths) for part in by_length(src_lengths, tgt_lengths).split(rows)]


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # Unicode category Cc: NUL, ESC, tab, line breaks, DEL, C1


def find_control(text: str) -> str | None:
    """The first control character in text (Unicode category Cc: NUL, ESC, tab, line breaks, …), or None."""
    match = _CONTROL.search(text)
    return match.group() if match else None


@dataclass(frozen=True)
class Problem:
    """Something wrong with the pairs; severity 'error' blocks training, 'warning' does not."""

    # no_pairs, too_many_rows, too_many_tokens, empty_source, empty_target, too_long, token_too_long, control,
    # duplicate, reserved
    kind: str
    row: int | None = None  # 1-based row number, None for the whole table
    detail: str = ""
    severity: str = "error"
    count: int | None = None  # too_many_tokens: the distinct tokens of that side

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
            "too_many_rows": f"there are {self.detail} pairs, more than the {MAX_PAIRS:,} allowed: delete some rows.",
            "too_many_tokens": f"the {self.detail} sentences have {self.count or 0:,} distinct tokens, more than the "
            f"{MAX_VOCAB_SIZE - len(SPECIALS):,} a vocabulary holds besides its {len(SPECIALS)} special tokens: "
            "use fewer pairs, or choose a tokenization that makes fewer distinct tokens.",
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
            continue
        if len(tokens) > MAX_TOKENS:
            errors.append(Problem("too_long", row, side))
        if max(map(len, tokens)) > MAX_TOKEN_CHARS:
            errors.append(Problem("token_too_long", row, side))
        if not _SPECIALS.isdisjoint(tokens):
            warnings += [Problem("reserved", row, t, "warning") for t in dict.fromkeys(tokens) if t in _SPECIALS]
    return errors + warnings


def usable(source: str, target: str) -> bool:
    """Whether a pair has both sides typed: the pairs training uses."""
    return bool(source.strip() and target.strip())


@dataclass(frozen=True)
class PairsSummary:
    """A table of sentence pairs as check_pairs sees it, from one tokenization of each distinct row: its problems,
    and for its usable pairs (both sides typed) each sentence's length in tokens and each token's count."""

    rows: int
    problems: tuple[Problem, ...]  # errors before warnings, as check_pairs returns them
    src_lengths: tuple[int, ...]  # tokens of each usable source, in row order
    tgt_lengths: tuple[int, ...]
    src_counts: Counter  # token → occurrences in the usable sources, in order of first appearance
    tgt_counts: Counter

    @property
    def usable(self) -> int:
        """How many pairs have both sides typed."""
        return len(self.src_lengths)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    def vocabs(self, tokenizer="auto") -> tuple[Vocab, Vocab]:
        """The (source, target) vocabularies build_vocabs makes of the usable pairs with tokenizer (the one they were
        summarized with)."""
        if isinstance(tokenizer, str):
            return _vocab_of(self.src_counts), _vocab_of(self.tgt_counts)
        return tuple(  # the learned tokenizer's pieces of each side's characters (its tokens joined back) after them
            _side_vocab([list(counts)], tokenizer, tokenizer.join(list(counts)))
            for counts in (self.src_counts, self.tgt_counts)
        )

    def most_common(self, side: str, n: int) -> list[tuple[str, int]]:
        """The n most frequent tokens of 'source' or 'target' (special tokens typed as words left out), with counts;
        ties in order of first appearance."""
        counts = self.src_counts if side == "source" else self.tgt_counts
        return [(t, c) for t, c in counts.most_common(n + len(SPECIALS)) if t not in _SPECIALS][:n]


def _vocab_of(counts: Counter) -> Vocab:
    """The vocabulary Vocab.build makes of sentences whose tokens, in order of first appearance, are counts' keys."""
    return Vocab(SPECIALS + tuple(t for t in counts if t not in _SPECIALS))


def _distinct_tokens(counts: Counter) -> int:
    return len(counts) - sum(t in counts for t in SPECIALS)


def summarize_pairs(pairs: list[tuple[str, str]], tokenizer: str = "auto") -> PairsSummary:
    """Every problem with a list of (source, target) pairs, and the lengths and token counts of its usable pairs.

    A row typed exactly like an earlier row has that row's problems, so they are listed once, at the first copy, and
    it is not tokenized again; pairs that read the same after tokenization are one warning with the number of copies.
    A side whose distinct tokens would make a vocabulary longer than MAX_VOCAB_SIZE is an error of the whole table.
    """
    if not pairs:
        return PairsSummary(0, (Problem("no_pairs"),), (), (), Counter(), Counter())
    problems: list[Problem] = []
    if len(pairs) > MAX_PAIRS:
        problems.append(Problem("too_many_rows", detail=f"{len(pairs):,}"))
    # each distinct row as typed → its tokens, joined by spaces (no token holds whitespace), and whether it is usable
    seen: dict[tuple[str, str], tuple[str, str, bool]] = {}
    copies: dict[tuple[str, str], list[int]] = {}  # each distinct pair of token strings → [first row, number of rows]
    src_lengths: list[int] = []
    tgt_lengths: list[int] = []
    src_counts: Counter = Counter()
    tgt_counts: Counter = Counter()
    for row, (src, tgt) in enumerate(pairs, start=1):
        src, tgt = src or "", tgt or ""
        known = seen.get((src, tgt))
        if known is None:
            src_tokens, tgt_tokens = tokenize(src, tokenizer, "source"), tokenize(tgt, tokenizer, "target")
            problems += _row_problems(row, src, tgt, src_tokens, tgt_tokens)
            known = seen[(src, tgt)] = (" ".join(src_tokens), " ".join(tgt_tokens), usable(src, tgt))
        else:
            src_tokens, tgt_tokens = known[0].split(" ") if known[0] else [], known[1].split(" ") if known[1] else []
        copies.setdefault(known[:2], [row, 0])[1] += 1
        if known[2]:
            src_lengths.append(len(src_tokens))
            tgt_lengths.append(len(tgt_tokens))
            src_counts.update(src_tokens)
            tgt_counts.update(tgt_tokens)
    problems += [Problem("duplicate", first, str(n), "warning") for first, n in copies.values() if n > 1]
    for side, counts in (("source", src_counts), ("target", tgt_counts)):
        distinct = _distinct_tokens(counts)
        if distinct + len(SPECIALS) > MAX_VOCAB_SIZE:
            problems.append(Problem("too_many_tokens", detail=side, count=distinct))
    problems.sort(key=lambda p: (p.severity, p.row or 0))
    return PairsSummary(len(pairs), tuple(problems), tuple(src_lengths), tuple(tgt_lengths), src_counts, tgt_counts)


def check_pairs(pairs: list[tuple[str, str]], tokenizer: str = "auto") -> list[Problem]:
    """Every problem with a list of (source, target) pairs, errors before warnings (summarize_pairs says which)."""
    return list(summarize_pairs(pairs, tokenizer).problems)


def parse_pairs(data: bytes | str, name: str = "pairs") -> list[tuple[str, str]]:
    """(source, target) pairs from UTF-8 TSV or CSV text of 2 to MAX_COLUMNS columns and an optional header, each
    column in the role transformer.columns infers for it (a Tatoeba/Anki file: Chinese → English).

    Line ends may be \\n, \\r\\n or \\r; a control character (NUL, ESC, …), a row past MAX_PAIRS or a row without
    its source or target is refused with a DataError naming the line, and so is anything the csv module cannot read.
    The Data page and the command line read files with transformer.columns instead, which leaves such rows out and
    reports them.
    """
    return parse_tagged_pairs(data, name)[0]


def parse_tagged_pairs(data: bytes | str, name: str = "pairs") -> tuple[list[tuple[str, str]], list[tuple[str, ...]]]:
    """(pairs, phenomena): the pairs as parse_pairs reads them, and for each pair the tags of its phenomena column
    (separated by spaces, commas or semicolons; an empty tuple for a row without them, or a file without one)."""
    pairs, tags, _ = parse_aligned_pairs(data, name)
    return pairs, tags


def parse_aligned_pairs(
    data: bytes | str, name: str = "pairs"
) -> tuple[list[tuple[str, str]], list[tuple[str, ...]], list[str]]:
    """(pairs, phenomena, alignment cells): as parse_tagged_pairs, and each pair's cell of gold alignment links (the
    column of `i-j` / `i?j` links, or the one a header row names "alignment") as text, "" for a row without it
    (transformer.alignment reads it)."""
    found = read_file(data, name)
    taken = take_pairs(found, infer_roles(found), check_swapped=False)
    if taken.skipped:
        line = taken.skipped[0].line
        raise DataError(
            f"{name}, line {line}: its source or target is missing: expected 2 columns (source, target), or more with "
            "phenomena, alignment or attribution."
        )
    return taken.pairs, taken.tags, taken.extra.get("alignment", [""] * len(taken.pairs))


def format_pairs(pairs: list[tuple[str, str]]) -> str:
    """The pairs as TSV with a header, the format parse_pairs reads back; a cell that a spreadsheet would run as a
    formula (=1+1, -1, @x) is written as text ('=1+1), as the app's other CSV files are (transformer.text)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(["source", "target"])
    writer.writerows((spreadsheet(source), spreadsheet(target)) for source, target in pairs)
    return out.getvalue()
