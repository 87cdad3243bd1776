"""Who wrote each sentence of a dataset: the sentence numbers and contributors of a Tatoeba-style attribution column
("CC-BY 2.0 (France) Attribution: tatoeba.org #N (user) & #M (user)"), kept whole, as CC-BY asks, and the
compressed, bounded form a checkpoint carries. Standard library only."""

from __future__ import annotations

import base64
import functools
import json
import re
import zlib
from collections import Counter
from dataclasses import dataclass

from .config import MAX_CREDIT_CHARS, MAX_PAIRS

MAX_CONTRIBUTOR_CHARS = 64  # longest contributor name kept (Tatoeba's user names are at most 20)
MAX_ROW_SENTENCES = 4  # sentence numbers kept per row (a Tatoeba row has 2)
MAX_SENTENCE_NUMBER = 10**12  # above Tatoeba's ~13 million
MAX_LINE = 10 * MAX_PAIRS  # a file line number (blank lines and a header between the rows)
# the most a checkpoint's compressed credits may take (base64 of zlib), and their JSON once inflated: MAX_PAIRS rows of
# MAX_ROW_SENTENCES sentences each of a distinct contributor fit both, with room to spare
MAX_PACKED_CHARS = 6_000_000
MAX_UNPACKED_BYTES = 2 * MAX_PAIRS * MAX_ROW_SENTENCES * (MAX_CONTRIBUTOR_CHARS + 40)
_SENTENCE = re.compile(r"#([0-9]{1,13})\s*\(([^()\x00-\x1f]{1,64})\)")  # #N (user), ASCII digits


@dataclass(frozen=True)
class RowCredit:
    """One row's credit: its file line and each sentence's number with its contributor (an index into
    Credits.contributors), in the order of the attribution (a Tatoeba row: column 1's sentence, then column 2's)."""

    line: int
    sentences: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Credits:
    """A dataset's credit whole: the licence line (the attribution text before the first number), every contributor
    once, and each row's sentence numbers with their contributors."""

    licence: str
    contributors: tuple[str, ...]
    rows: tuple[RowCredit, ...]

    def by_contributor(self) -> list[tuple[str, int]]:
        """(contributor, sentences) most first, then by name."""
        counts = Counter(c for row in self.rows for _, c in row.sentences)
        return sorted(((self.contributors[i], n) for i, n in counts.items()), key=lambda cn: (-cn[1], cn[0]))

    def table(self) -> list[tuple[int, str, str, str, str]]:
        """One row per pair: (line, column 1's sentence number, its contributor, column 2's, its contributor), '' where
        the attribution names fewer."""
        out = []
        for row in self.rows:
            cells: list[str] = []
            for number, who in row.sentences[:2]:
                cells += [f"#{number}", self.contributors[who]]
            out.append((row.line, *(cells + ["", "", "", ""])[:4]))
        return out

    def line(self) -> str:
        """The credit in one line: the licence, the rows and the contributors' count."""
        people = len({c for row in self.rows for _, c in row.sentences})
        return f"{self.licence} ({len(self.rows):,} pairs; sentences by {people:,} contributors)"


def licence_of(cell: str) -> str:
    """The attribution text before its first sentence number: the licence and the site."""
    return cell.split("#", 1)[0].strip().rstrip("&").strip()


def credits_of(cells: list[str], lines: list[int]) -> Credits | None:
    """The credits of an attribution column (one cell per pair, with its file line); None when no cell names a
    sentence number and a contributor."""
    contributors: dict[str, int] = {}
    rows: list[RowCredit] = []
    licences: Counter[str] = Counter()
    for cell, line in zip(cells, lines):
        found = _SENTENCE.findall(cell)[:MAX_ROW_SENTENCES]
        if not found:
            continue
        licences[licence_of(cell)] += 1
        sentences = []
        for number, who in found:
            who = who.strip()[:MAX_CONTRIBUTOR_CHARS]
            sentences.append((int(number), contributors.setdefault(who, len(contributors))))
        rows.append(RowCredit(line, tuple(sentences)))
    if not rows:
        return None
    licence = licences.most_common(1)[0][0][:MAX_CREDIT_CHARS] or "attribution"
    return Credits(licence, tuple(contributors), tuple(rows))


def pack(credits: Credits) -> str:
    """credits as the text a checkpoint keeps: compact JSON, zlib-compressed, base64."""
    rows = [[row.line, *(x for sentence in row.sentences for x in sentence)] for row in credits.rows]
    raw = json.dumps(
        {"licence": credits.licence, "contributors": list(credits.contributors), "rows": rows},
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode()
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii")


def unpack(text: object) -> Credits | None:
    """The Credits a checkpoint's packed text holds, or None (_unpack); the loader checks, then types, the same text:
    it is inflated once."""
    return _unpack(text) if isinstance(text, str) else None


@functools.lru_cache(maxsize=2)
def _unpack(text: str) -> Credits | None:
    """The Credits a checkpoint's packed text holds, every bound checked; None when it is anything else (too long,
    not base64, not zlib, inflating past MAX_UNPACKED_BYTES, or not credits)."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_PACKED_CHARS:
        return None
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, MAX_UNPACKED_BYTES + 1)
        if len(raw) > MAX_UNPACKED_BYTES or not inflate.eof:
            return None
        value = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeError, zlib.error, RecursionError):
        return None
    return _checked(value)


def _checked(value: object) -> Credits | None:
    """Credits from unpacked JSON, when every field has the right type and size."""
    if not isinstance(value, dict) or set(value) != {"licence", "contributors", "rows"}:
        return None
    licence, names, rows = value["licence"], value["contributors"], value["rows"]
    if not (isinstance(licence, str) and 0 < len(licence) <= MAX_CREDIT_CHARS and licence.isprintable()):
        return None
    if not isinstance(names, list) or len(names) > MAX_PAIRS * MAX_ROW_SENTENCES:
        return None
    if not all(isinstance(n, str) and 0 < len(n) <= MAX_CONTRIBUTOR_CHARS and n.isprintable() for n in names):
        return None
    if not isinstance(rows, list) or not 0 < len(rows) <= MAX_PAIRS:
        return None
    typed = []
    for row in rows:
        if not isinstance(row, list) or len(row) % 2 == 0 or not 3 <= len(row) <= 1 + 2 * MAX_ROW_SENTENCES:
            return None
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in row):
            return None
        line, rest = row[0], row[1:]
        pairs = tuple(zip(rest[::2], rest[1::2]))
        if not 1 <= line <= MAX_LINE or any(n > MAX_SENTENCE_NUMBER or c >= len(names) for n, c in pairs):
            return None
        typed.append(RowCredit(line, pairs))
    return Credits(licence, tuple(names), tuple(typed))
