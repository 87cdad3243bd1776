"""The gold word alignments of the tab's pairs: a loaded file's alignment column when it has one (issue 30 §4: a
teacher's hand-aligned data gets the same views as the corpus), else the teaching corpus's own links. The rules of the
links are transformer.alignment's; this module keeps a file's links read once per file and tokenizer, and words its
bad cells by the file's line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from transformer import alignment
from transformer.alignment import Gold, read_gold
from transformer.errors import DataError
from transformer.text import markdown
from transformer.words import GOLD_TOKENIZER, spells

from .data_columns import LoadedFile, current_file
from .i18n import t
from .messages import SIDES
from .session import session_memo

PROBLEMS_SHOWN = 5  # bad alignment cells named one by one; the rest are counted


@dataclass(frozen=True)
class FileGold:
    """A loaded file's gold links by pair (the first row of a repeated pair), and its bad cells by file line."""

    name: str
    golds: dict[tuple[str, str], Gold]
    pairs: int  # the file's pairs
    problems: list[tuple[int, DataError]]  # (file line, what is wrong), in file order


def file_gold(tokenizer) -> FileGold | None:
    """The gold of the tab's loaded file, read with the model's tokenizer (its token counts bound the links), when
    the table holds that file's pairs and one of its columns is the alignment; else None."""
    loaded = current_file()
    if loaded is None or "alignment" not in loaded.taken.extra:
        return None
    return session_memo("file_gold", (loaded, tokenizer), lambda: _read_gold(loaded, tokenizer))


def _read_gold(loaded: LoadedFile, tokenizer) -> FileGold:
    taken = loaded.taken
    golds, problems = read_gold(taken.pairs, taken.extra["alignment"], tokenizer)
    by_pair: dict[tuple[str, str], Gold] = {}
    for pair, gold in zip(taken.pairs, golds):
        if gold is not None:
            by_pair.setdefault(pair, gold)
    lines = [(taken.lines[exc.values["row"] - 1], exc) for exc in problems]  # read_gold counts pairs from 1
    return FileGold(loaded.file.name, by_pair, len(taken.pairs), lines)


def golds_of(pairs: Sequence[tuple[str, str]], tokenizer) -> list[Gold | None]:
    """The gold links of each pair (None: none): the loaded file's alignment column, else the corpus's own."""
    found = file_gold(tokenizer)
    if found is None:
        return alignment.corpus_gold(pairs, tokenizer)
    return [found.golds.get(pair) for pair in pairs]


def gold_pairs(translator, pairs: Sequence[tuple[str, str]]) -> tuple[int, tuple]:
    """(how many pairs have gold links of words, those of them the model reads and whose pieces spell them, with their
    links)."""
    with_gold = [(p, g) for p, g in zip(pairs, golds_of(pairs, GOLD_TOKENIZER)) if g is not None]
    return len(with_gold), tuple((p, g) for p, g in with_gold if translator.fits(p) and spells(translator.tokenizer, p))


def problem_line(name: str, line: int, exc: DataError, L: str) -> str:
    """One bad alignment cell in the UI language, naming the file and its line (markdown: the file's text escaped)."""
    values = dict(name=markdown(name), line=f"{line:,}", link=markdown(exc.values["link"]))
    if exc.code == "link_outside":
        n = exc.values["n"]
        side = t(SIDES[exc.values["side"]], L)
        return t("gold.link_outside", L, **values, side=side, index=exc.values["index"], n=n, last=n - 1)
    return t("gold.link_notation", L, **values)


def problem_lines(found: FileGold, L: str) -> list[str]:
    """The file's bad alignment cells: the first PROBLEMS_SHOWN named, then how many more."""
    lines = [problem_line(found.name, line, exc, L) for line, exc in found.problems[:PROBLEMS_SHOWN]]
    more = len(found.problems) - PROBLEMS_SHOWN
    if more > 0:
        lines.append(t("gold.more_problems", L, n=f"{more:,}"))
    return lines
