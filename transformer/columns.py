"""Pairs files of up to MAX_COLUMNS columns: each column's role, from a header row or inferred from its cells (the
Tatoeba/Anki format of any two languages, `cmn-eng.txt`, `fra-eng.txt`, … among them), and the rows that do not fit.

A file is read once into a PairsFile (every cell of every row, with its line). Roles then say which column is the
source, which the target, and what each other column is; take_pairs turns the two into pairs and a report of the rows
it left out. The Data page and the command line only choose the roles: every rule lives here.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass

from .config import MAX_COLUMNS, MAX_CREDIT_CHARS, MAX_DATA_BYTES, MAX_PAIRS
from .corpus import PHENOMENA
from .errors import DataError
from .languages import ENGLISH, tatoeba_languages
from .text import from_spreadsheet, visible

ROLES = ("source", "target", "phenomena", "alignment", "attribution", "ignored")
SINGLE_ROLES = ROLES[:5]  # at most one column of each (source and target exactly one)
SKIP_REASONS = ("empty", "swapped")  # why take_pairs leaves a row out (Skipped.reason)
SCRIPTS = ("zh", "en")  # the scripts script_of tells apart: Han characters, Latin letters ('' for neither)
KINDS = ("tatoeba", "tsv", "csv")  # what read_file recognised: the Tatoeba/Anki download, or any other TSV or CSV

# the words of a header row, lower-cased → the role they name; a language names no role: the first such column is the
# source and the second the target, as the columns of a file without a header are
_ROLE_WORDS = {
    "source": "source",
    "src": "source",
    "input": "source",
    "源": "source",
    "源句": "source",
    "源语言": "source",
    "target": "target",
    "tgt": "target",
    "output": "target",
    "目标": "target",
    "目标句": "target",
    "目标语言": "target",
    "phenomena": "phenomena",
    "phenomenon": "phenomena",
    "tags": "phenomena",
    "现象": "phenomena",
    "alignment": "alignment",
    "alignments": "alignment",
    "links": "alignment",
    "对齐": "alignment",
    "attribution": "attribution",
    "credit": "attribution",
    "licence": "attribution",
    "license": "attribution",
    "署名": "attribution",
    "来源": "attribution",
    "ignored": "ignored",
    "ignore": "ignored",
    "忽略": "ignored",
}
_LANGUAGE_WORDS = {"english", "chinese", "中文", "英文", "en", "zh"}

_TAGS = re.compile(r"[\s,;]+")  # between the tags of a phenomena cell
_LINKS = re.compile(r"[0-9]+[-?][0-9]+(?:\s+[0-9]+[-?][0-9]+)*")  # gold alignment links, i-j (sure) and i?j (possible)
_ATTRIBUTION = re.compile(r"CC[- ]BY|CC0|Attribution:|#\d{2,}", re.IGNORECASE)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")  # simplified and traditional
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL_IN_FILE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # Cc but tab and line ends
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_SAMPLE = 2_000  # rows looked at to infer a column's role or language: enough, and fast for 50,000 rows


@dataclass(frozen=True)
class PairsFile:
    """A pairs file as read: every row's cells (padded with "" to `columns`), the line each row starts on, the
    roles its header row names (None without one) and the format recognised (one of KINDS)."""

    name: str
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[int, ...]
    columns: int
    header: tuple[str | None, ...] | None = None  # a role per column, None where the header names a language
    kind: str = "tsv"
    header_line: int = 0  # the line of the header row (0: none)
    languages: tuple[str, ...] = ()  # an ISO 639-3 code per column where the format says it (a Tatoeba file), or ''


@dataclass(frozen=True)
class Skipped:
    """A row take_pairs left out: 'empty' (its source or target cell is empty) or 'swapped' (Chinese in the English
    column, or the other way round, in Chinese–English data)."""

    line: int
    reason: str


@dataclass(frozen=True)
class TakenPairs:
    """The pairs of a file under some roles, the text of its other columns row by row, and what was left out."""

    pairs: list[tuple[str, str]]
    lines: list[int]  # the file's line of each pair
    extra: dict[str, list[str]]  # phenomena / alignment / attribution → the cell of each pair ("" when none)
    skipped: list[Skipped]
    duplicates: int  # pairs that repeat an earlier pair of the file exactly (kept: the table warns about them)
    languages: tuple[str, str]  # the scripts of the source and target columns: 'zh', 'en' (Latin letters) or ''
    codes: tuple[str, str] = ("", "")  # their ISO 639-3 codes (transformer.languages) when the file says, else ''
    columns: tuple[int, int] = (0, 1)  # the source and the target columns, from 0

    @property
    def tags(self) -> list[tuple[str, ...]]:
        """The phenomena of each pair, split at spaces, commas or semicolons (empty without a phenomena column)."""
        cells = self.extra.get("phenomena") or [""] * len(self.pairs)
        return [tuple(t for t in _TAGS.split(cell) if t) for cell in cells]

    def lines_of(self, reason: str) -> list[int]:
        """The lines left out for reason ('empty' or 'swapped')."""
        return [s.line for s in self.skipped if s.reason == reason]


def _line_of(text: str, position: int) -> int:
    return len(_LINE_BREAK.findall(text, 0, position)) + 1


def _decode(data: bytes | str, name: str) -> str:
    """The text of a file, refused when too large, not UTF-8, or holding a control character (naming its line)."""
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
    return data


def _header_roles(cells: list[str]) -> tuple[str | None, ...] | None:
    """The roles a first row names, when it is a header: its first two cells are header words (role or language
    names); None when it is a row of sentences."""
    words = [c.lower() for c in cells]
    known = [w in _ROLE_WORDS or w in _LANGUAGE_WORDS for w in words]
    if len(words) < 2 or not all(known[:2]):
        return None
    return tuple(_ROLE_WORDS.get(w) if k else "unknown" for w, k in zip(words, known))


def read_file(data: bytes | str, name: str = "pairs") -> PairsFile:
    """Every row of a UTF-8 TSV or CSV file of 2 to MAX_COLUMNS columns, with an optional header row; blank lines are
    skipped. Too large a file, one that is not UTF-8, a control character, a row of more than MAX_COLUMNS cells, a
    file of one column or more than MAX_PAIRS rows, or what the csv module cannot read is a DataError naming the
    line."""
    text = _decode(data, name)
    first = next((line for line in _LINE_BREAK.split(text) if line.strip()), None)
    if first is None:
        raise DataError(f"{name} is empty: it needs one sentence pair per line, source and target.")
    delimiter = "\t" if "\t" in first else ","
    kind = "TSV (tab)" if delimiter == "\t" else "CSV (comma)"
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    inside_cells = '"' in text or delimiter == ","  # else no cell can hold a tab or a line break: no check per row
    rows: list[tuple[str, ...]] = []
    lines: list[int] = []
    header = None
    header_line = 0
    widest = 0
    try:
        line = 1
        for row in reader:
            cells = [from_spreadsheet(c.strip()) for c in row]  # a cell written as '=… by format_pairs is =…
            start, line = line, reader.line_num + 1
            while cells and not cells[-1]:
                cells.pop()
            if not cells:
                continue  # blank line
            if not rows and header is None and (header := _header_roles(cells)) is not None:
                header_line = start
                continue
            if len(cells) > MAX_COLUMNS:
                raise DataError(
                    f"{name}, line {start}: {len(cells)} columns, more than the {MAX_COLUMNS} a pairs file may have "
                    f"({kind} format): check the separators."
                )
            control = _CONTROL.search("".join(cells)) if inside_cells else None
            if control is not None:  # a tab in a CSV cell, a line break inside quotes
                raise DataError(
                    f"{name}, line {reader.line_num}: a sentence holds the control character "
                    f"{visible(control.group())} (a tab or a line break inside one cell): keep each sentence on one "
                    "line, without tabs."
                )
            if len(rows) == MAX_PAIRS:
                raise DataError(
                    f"{name}, line {start}: more than {MAX_PAIRS:,} sentence pairs, the most one dataset "
                    "may have: split the file or delete some rows."
                )
            rows.append(tuple(cells))
            lines.append(start)
            widest = max(widest, len(cells))
    except csv.Error as exc:
        raise DataError(
            f"{name}, line {reader.line_num}: cannot be read as {kind} ({exc}): check its quotes and cells."
        ) from None
    if not rows:
        raise DataError(f"{name} has a header but no sentence pairs.")
    columns = max(widest, 2, len(header or ()))
    if widest < 2 and header is None:
        raise DataError(
            f"{name}, line {lines[0]}: expected at least 2 columns (source, target) in {kind} format, found 1."
        )
    padded = tuple(r + ("",) * (columns - len(r)) for r in rows)
    if header is not None:
        header = tuple(header) + ("unknown",) * (columns - len(header))
    found = PairsFile(name, padded, tuple(lines), columns, header, "csv" if delimiter == "," else "tsv", header_line)
    if header is None and _looks_like_tatoeba(found):
        english, other = tatoeba_languages(name)
        # a Tatoeba download has English first; a file of the same form with the English (Latin letters) second
        turned = column_language(found, 0) != "en" and column_language(found, 1) == "en"
        codes = (other, english, "") if turned else (english, other, "")
        return PairsFile(name, padded, tuple(lines), columns, None, "tatoeba", 0, codes)
    return found


def _sample(f: PairsFile, column: int) -> list[str]:
    """The non-empty cells of a column among the first _SAMPLE rows."""
    return [c for r in f.rows[:_SAMPLE] if (c := r[column])]


def script_of(text: str) -> str:
    """'zh' when most of text's letters are Han characters (simplified or traditional), 'en' when most are Latin
    letters, else ''."""
    han, latin = len(_HAN.findall(text)), len(_LATIN.findall(text))
    if han > latin:
        return "zh"
    return "en" if latin > han else ""


def column_language(f: PairsFile, column: int) -> str:
    """'zh' or 'en' when more than half of a column's (sampled) cells are of that script, else ''."""
    cells = _sample(f, column)
    if not cells:
        return ""
    counts = Counter(script_of(c) for c in cells)
    script, n = counts.most_common(1)[0]
    return script if script and n > 0.5 * len(cells) else ""


def _share(cells: list[str], test) -> float:
    return sum(bool(test(c)) for c in cells) / len(cells) if cells else 0.0


def _looks_like_tatoeba(f: PairsFile) -> bool:
    """Two columns of sentences, then an attribution text (a licence, a site, sentence numbers) with nothing after it:
    a Tatoeba download of any language, recognised by its attribution column alone (never by the scripts)."""
    if f.columns != 3:
        return False
    sentences = [_sample(f, 0), _sample(f, 1)]
    return _share(_sample(f, 2), _ATTRIBUTION.search) >= 0.9 and all(
        cells and _share(cells, _ATTRIBUTION.search) < 0.5 for cells in sentences
    )


def _role_of_cells(cells: list[str]) -> str:
    """The role a column's cells suggest: alignment links, an attribution, known phenomena tags, else ignored."""
    if not cells:
        return "ignored"
    if _share(cells, _LINKS.fullmatch) >= 0.9:
        return "alignment"
    if _share(cells, _ATTRIBUTION.search) >= 0.9:
        return "attribution"
    tags = [t for c in cells for t in _TAGS.split(c) if t]
    if tags and sum(t in PHENOMENA for t in tags) >= 0.5 * len(tags):
        return "phenomena"
    return "ignored"


def infer_roles(f: PairsFile) -> tuple[str, ...]:
    """A role for every column: those the header names; without a header, the Tatoeba format's (its second column, the
    other language → its first, English: every Tatoeba file the same way round), else the first two columns are the
    source and the target; any other column by its cells (alignment links, an attribution, phenomena tags, else
    ignored). A role named twice keeps its first."""
    if f.kind == "tatoeba":  # the English column is the target
        return ("source", "target", "attribution") if f.languages[1] == ENGLISH else ("target", "source", "attribution")
    roles: list[str | None] = list(f.header) if f.header is not None else ["unknown"] * f.columns
    if f.header is None:
        roles[0], roles[1] = "source", "target"
    taken: set[str] = set()
    for i, role in enumerate(roles):
        if role in SINGLE_ROLES and role in taken:
            roles[i] = "unknown"
        elif role in SINGLE_ROLES:
            taken.add(role)
    for i, role in enumerate(roles):  # columns headed by a language: the first free one of source, target
        if role is None:
            free = next((r for r in ("source", "target") if r not in taken), "ignored")
            roles[i] = free
            taken.add(free)
    for i, role in enumerate(roles):
        if role == "unknown":
            guess = _role_of_cells(_sample(f, i))
            roles[i] = guess if guess not in taken else "ignored"
            taken.add(roles[i])
    return _complete(tuple(roles), f)


def _complete(roles: tuple[str, ...], f: PairsFile) -> tuple[str, ...]:
    """roles with a source and a target: a missing one goes to the first ignored column."""
    roles = list(roles)
    for role in ("source", "target"):
        if role not in roles:
            free = next((i for i, r in enumerate(roles) if r == "ignored"), None)
            if free is None:
                raise DataError(
                    f"{f.name}, line {f.header_line or f.lines[0]}: a pairs file needs a source column and a target "
                    f"column, and its header names no {role} column: name one of its columns {role}."
                )
            roles[free] = role
    return tuple(roles)


def assign(roles: tuple[str, ...], column: int, role: str) -> tuple[str, ...]:
    """roles with column (0-based) given role. The column that had it before takes column's old role when role is
    the source or the target (so choosing the target column as the source swaps them), else becomes ignored; a source
    or target column cannot simply be dropped, so giving it another role swaps with that role's column, if any."""
    if role not in ROLES:
        raise DataError(f"unknown column role {role!r}: use one of {', '.join(ROLES)}.")
    roles = list(roles)
    old = roles[column]
    if old == role:
        return tuple(roles)
    holder = next((i for i, r in enumerate(roles) if r == role), None) if role in SINGLE_ROLES else None
    if old in ("source", "target") and holder is None:
        return tuple(roles)  # the source or target cannot be left without a column
    roles[column] = role
    if holder is not None:
        roles[holder] = old if role in ("source", "target") or old in ("source", "target") else "ignored"
    return tuple(roles)


def swap(roles: tuple[str, ...]) -> tuple[str, ...]:
    """roles with the source and the target columns exchanged: the other direction."""
    return assign(roles, roles.index("target"), "source")


def with_columns(roles: tuple[str, ...], source: int, target: int, name: str = "the file") -> tuple[str, ...]:
    """roles with the 1-based columns source and target as the source and the target (the command line's
    --columns S,T); out of range or the same column twice is a DataError."""
    columns = len(roles)
    if source == target:
        raise DataError(f"--columns {source},{target}: the source and the target must be two different columns.")
    for n in (source, target):
        if not 1 <= n <= columns:
            raise DataError(
                f"--columns {source},{target}: {name} has {columns} columns, so choose two different columns from 1 "
                f"to {columns}."
            )
    roles = assign(roles, source - 1, "source")
    return assign(roles, target - 1, "target")


def check_roles(roles: tuple[str, ...], columns: int) -> None:
    """A DataError unless roles gives every column one known role, with exactly one source and one target and at most
    one column of each other role but ignored."""
    if len(roles) != columns or any(r not in ROLES for r in roles):
        raise DataError(f"give each of the {columns} columns one of the roles {', '.join(ROLES)}.")
    for role in SINGLE_ROLES:
        n = roles.count(role)
        if n > 1 or (n == 0 and role in ("source", "target")):
            raise DataError(
                f"a pairs file needs exactly one {role} column."
                if role in ("source", "target")
                else f"only one column can be the {role}."
            )


def take_pairs(f: PairsFile, roles: tuple[str, ...], check_swapped: bool = True) -> TakenPairs:
    """The pairs of f under roles, in file order. A row whose source or target cell is empty is left out ('empty'),
    and so is, when one column is Chinese and the other English, a row whose cells look swapped: Chinese in the
    English column, no Chinese in the Chinese column ('swapped'). Exact repeats are counted, and kept."""
    check_roles(roles, f.columns)
    s, t = roles.index("source"), roles.index("target")
    extra_columns = {r: roles.index(r) for r in ("phenomena", "alignment", "attribution") if r in roles}
    languages = (column_language(f, s), column_language(f, t))
    zh_en = check_swapped and sorted(languages) == ["en", "zh"]
    zh_side = s if languages[0] == "zh" else t
    pairs, lines, skipped = [], [], []
    extra: dict[str, list[str]] = {r: [] for r in extra_columns}
    seen: set[tuple[str, str]] = set()
    duplicates = 0
    for row, line in zip(f.rows, f.lines):
        source, target = row[s], row[t]
        if not source or not target:
            skipped.append(Skipped(line, "empty"))
            continue
        if zh_en:
            chinese, english = (source, target) if zh_side == s else (target, source)
            if _HAN.search(english) and script_of(english) == "zh" and not _HAN.search(chinese):
                skipped.append(Skipped(line, "swapped"))
                continue
        if (source, target) in seen:
            duplicates += 1
        else:
            seen.add((source, target))
        pairs.append((source, target))
        lines.append(line)
        for role, column in extra_columns.items():
            extra[role].append(row[column])
    codes = (f.languages[s], f.languages[t]) if f.languages else ("", "")
    return TakenPairs(pairs, lines, extra, skipped, duplicates, languages, codes, (s, t))


def credit(attributions: list[str]) -> str:
    """One line crediting the data: each distinct attribution text up to its first sentence number (the licence and
    the site, as the Tatoeba download writes them), with how many pairs it covers, most first; '' when none."""
    heads = Counter(c.split("#", 1)[0].strip().rstrip("&").strip() or c for c in attributions if c)
    if not heads:
        return ""
    parts = [f"{visible(head)} ({n:,} pairs)" for head, n in heads.most_common(3)]
    if len(heads) > 3:
        parts.append(f"{len(heads) - 3:,} more attribution texts")
    line = "; ".join(parts)
    return line if len(line) <= MAX_CREDIT_CHARS else line[: MAX_CREDIT_CHARS - 1] + "…"
