"""The lesson sheet's exercises: questions read off the sheet's own numbered figures, and their answers, each computed
from the numbers the figure draws (no Streamlit here).

A question is asked only when the figure gives it one answer at the precision the sheet states it (two decimals):
a row whose two largest values round alike, or a line whose lowest point is reached twice, asks nothing. Rows and
columns are named by the figure's own tick labels; a label that is only a special token (P, S, E) is never the row
a question is about, though it may be an answer (the figure shows it).
"""

from __future__ import annotations

import html
import math
import numbers
import re
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from transformer.data import BOS, EOS, PAD

from .i18n import t

MIN_QUESTIONS, MAX_QUESTIONS = 3, 5
_SPECIAL = frozenset((PAD, BOS, EOS))
_SKIPPED_META = ("overlay", "cell text")  # viz.layers.OVERLAY, viz.common.CELL_TEXT: copies drawn over a matrix


@dataclass(frozen=True)
class Exercise:
    """One question about figure `figure` (0: about a table) and its answer, both plain text."""

    figure: int
    question: str
    answer: str


def number(value: float, whole: bool = False) -> str:
    """A value as the exercises state it: to two decimals, or as an integer when its series is whole numbers."""
    return str(int(value)) if whole else f"{float(value):.2f}"


def _whole(values) -> bool:
    """Whether every finite value of a series is a whole number (counts): they are stated without decimals."""
    finite = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    return bool(finite) and all(v == int(v) and abs(v) < 1e15 for v in finite)


def _axis(fig: go.Figure, ref: str | None, letter: str):
    ref = ref or letter
    return fig.layout[f"{letter}axis{ref[1:]}"]


def _labels(fig: go.Figure, trace, letter: str, n: int) -> list[str]:
    """The labels of a trace's n positions along one axis: the axis's tick texts (tokens), else the coordinates."""
    axis = _axis(fig, getattr(trace, f"{letter}axis"), letter)
    coords = getattr(trace, letter)
    coords = list(coords) if coords is not None else list(range(n))
    if axis.ticktext is not None and axis.tickvals is not None:
        ticks = {float(v): html.unescape(str(s)) for v, s in zip(axis.tickvals, axis.ticktext)}
        return [ticks.get(float(c), str(c)) if isinstance(c, numbers.Real) else str(c) for c in coords]
    for other in fig.data:  # labels drawn as text at the same places (the next-token bars' tokens)
        places = getattr(other, letter) if isinstance(other, go.Scatter) and "text" in str(other.mode) else None
        if places is not None and list(places) == coords and other.text is not None and len(other.text) == n:
            return [html.unescape(re.sub(r"<[^>]*>", "", str(s))).strip() for s in other.text]
    return [format(float(c), ".6g") if isinstance(c, numbers.Real) else str(c) for c in coords]  # 49, not 49.00


def _axis_title(fig: go.Figure, trace, letter: str) -> str:
    title = _axis(fig, getattr(trace, f"{letter}axis"), letter).title.text
    return html.unescape(str(title)).replace("<br>", " ") if title else ""


def _plain(label: str) -> bool:
    """Whether a label is more than special tokens (a row worth asking about)."""
    words = [w for w in label.replace("→", " ").split() if w]
    return bool(words) and not all(w in _SPECIAL for w in words)


def _unique_best(values: list[float], largest: bool) -> int | None:
    """The index of the largest (or smallest) finite value when no other rounds to the same, else None."""
    finite = [(v, i) for i, v in enumerate(values) if v is not None and math.isfinite(v)]
    if len(finite) < 2:
        return None
    finite.sort(reverse=largest)
    whole = _whole(values)
    return finite[0][1] if number(finite[0][0], whole) != number(finite[1][0], whole) else None


def _categories(trace) -> tuple[str, str] | None:
    """The two names of a two-category heatmap (its colour bar's tick texts, e.g. allowed / blocked), else None."""
    bar = trace.colorbar
    if bar is not None and bar.ticktext is not None and len(bar.ticktext) == 2 and trace.zmin == 0 and trace.zmax == 1:
        return str(bar.ticktext[0]), str(bar.ticktext[1])
    return None


def _heatmap_questions(n: int, fig: go.Figure, trace, L: str) -> list[Exercise]:
    z = np.array(trace.z, dtype=float)  # (rows, cols), None → nan
    if z.ndim != 2 or z.size < 2:
        return []
    rows, cols = _labels(fig, trace, "y", z.shape[0]), _labels(fig, trace, "x", z.shape[1])
    where = t("sheet.q_fig", L, n=n)
    if _panels(fig) > 1 and trace.name:  # one of several maps in the figure: named by its panel title
        where = t("sheet.q_panel", L, n=n, panel=trace.name)
    categories = _categories(trace)
    if trace.meta == "overlay" or categories:  # which cells of a row are blocked (or of the second category)
        name = trace.name if trace.meta == "overlay" else categories[1]
        marked = np.isfinite(z) if trace.meta == "overlay" else z == 1
        asked = [r for r in range(z.shape[0]) if _plain(rows[r]) and 0 < marked[r].sum() < z.shape[1]]
        if not asked:
            return []
        r = max(asked, key=lambda r: marked[r].sum())  # the row that blocks the most (the first of them)
        answer = ("、" if L == "zh" else ", ").join(f"“{cols[c]}”" for c in np.flatnonzero(marked[r]))
        return [Exercise(n, t("sheet.q_marked", L, where=where, row=rows[r], name=name), answer)]
    found, scored = [], []
    for r in range(z.shape[0]):
        best = _unique_best(z[r].tolist(), largest=True)
        if best is not None and _plain(rows[r]):
            scored.append((z[r, best], r, best))
    scored.sort(key=lambda s: -s[0])  # the most peaked rows first
    for value, r, c in scored[:2]:
        question = t("sheet.q_row_max", L, where=where, row=rows[r])
        answer = t("sheet.a_label_value", L, label=cols[c], value=number(value, _whole(z[np.isfinite(z)])))
        found.append(Exercise(n, question, answer))
    return found


def _panels(fig: go.Figure) -> int:
    return sum(isinstance(tr, go.Heatmap) and tr.meta not in _SKIPPED_META for tr in fig.data)


def _readable(fig: go.Figure, trace, letter: str) -> bool:
    """Whether a reader can read values off the trace's axis (it is drawn, with its tick labels)."""
    axis = _axis(fig, getattr(trace, f"{letter}axis"), letter)
    return axis.visible is not False and axis.showticklabels is not False


def _bar_questions(n: int, fig: go.Figure, trace, L: str) -> list[Exercise]:
    horizontal = trace.orientation == "h"
    values = trace.x if horizontal else trace.y
    if values is None or len(values) < 2 or not _readable(fig, trace, "x" if horizontal else "y"):
        return []
    values = [float(v) for v in values]
    labels = _labels(fig, trace, "y" if horizontal else "x", len(values))
    where = t("sheet.q_fig", L, n=n)
    if trace.name and sum(isinstance(tr, go.Bar) for tr in fig.data) > 1:
        where = t("sheet.q_series", L, where=where, name=trace.name)
    found = []
    for largest, key in ((True, "sheet.q_bar_max"), (False, "sheet.q_bar_min")):
        best = _unique_best(values, largest)
        if best is not None:
            answer = t("sheet.a_label_value", L, label=labels[best], value=number(values[best], _whole(values)))
            found.append(Exercise(n, t(key, L, where=where), answer))
    return found


def _stated(fig: go.Figure, trace, values: list[float], i: int) -> str:
    """Value i of a line as its axis reads it: a percentage with one decimal (as the score tables give it), else
    number()."""
    if str(_axis(fig, trace.yaxis, "y").tickformat or "").endswith("%"):
        return f"{values[i]:.1f}%"
    return number(values[i], _whole(values))


def _line_questions(n: int, fig: go.Figure, trace, L: str) -> list[Exercise]:
    """The line's lowest or highest point: the one it reaches later (where a loss ends, where it turns back up)."""
    if trace.y is None or len(trace.y) < 3 or not trace.name or "lines" not in str(trace.mode or "lines"):
        return []
    if not (_readable(fig, trace, "x") and _readable(fig, trace, "y")):  # a drawing's coordinates (the beam tree)
        return []
    values = [float(v) if v is not None else math.nan for v in trace.y]
    if str(_axis(fig, trace.yaxis, "y").tickformat or "").endswith("%"):  # the axis reads 0.985 as 98.5%
        values = [100 * v for v in values]
    lowest, highest = _unique_best(values, largest=False), _unique_best(values, largest=True)
    xs, axis = _labels(fig, trace, "x", len(values)), _axis_title(fig, trace, "x") or "x"
    where = t("sheet.q_fig", L, n=n)
    if lowest is None or highest is None:  # its extreme is reached twice: its last point instead
        last = max((i for i, v in enumerate(values) if math.isfinite(v)), default=None)
        if last is None:
            return []
        question = t("sheet.q_line_last", L, where=where, name=trace.name, axis=axis, x=xs[last])
        return [Exercise(n, question, _stated(fig, trace, values, last))]
    largest = highest > lowest
    best = highest if largest else lowest
    x = xs[best]
    key = "sheet.q_line_max" if largest else "sheet.q_line_min"
    question = t(key, L, where=where, name=trace.name, axis=axis)
    value = _stated(fig, trace, values, best)
    return [Exercise(n, question, t("sheet.a_line", L, axis=axis, x=x, value=value))]


def figure_exercises(n: int, fig: go.Figure, L: str) -> list[Exercise]:
    """Every question figure n can answer, in the order the figure draws its parts."""
    found: list[Exercise] = []
    for trace in fig.data:
        if isinstance(trace, go.Heatmap) and trace.meta != "cell text" and trace.z is not None:
            found += _heatmap_questions(n, fig, trace, L)
        elif isinstance(trace, go.Bar):
            found += _bar_questions(n, fig, trace, L)
        elif isinstance(trace, go.Scatter) and trace.name:
            found += _line_questions(n, fig, trace, L)
    return found


def _cell_number(text: str) -> float | None:
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def table_exercises(heading: str, columns: list[str], rows: list[list[str]], L: str) -> list[Exercise]:
    """A question on a table under a heading: which row has the largest value of its first number column, the rows
    named by its first text column, answered by the row's name and the cell as the table prints it."""
    if len(rows) < 2 or len(columns) < 2:
        return []
    numeric = [all(_cell_number(row[c]) is not None for row in rows) for c in range(len(columns))]
    name = next((c for c in range(len(columns)) if not numeric[c]), 0)  # the rows' names: the first text column

    def counts(c: int) -> bool:  # whole numbers: asked after the measured values, and never a rank or an index
        return numeric[c] and all(float(_cell_number(row[c])).is_integer() for row in rows)

    for c in sorted(range(len(columns)), key=counts):
        values = [_cell_number(row[c]) for row in rows]
        if c == name or not numeric[c] or len(set(values)) < 2:
            continue
        if counts(c) and sorted(values) == [min(values) + i for i in range(len(values))]:
            continue  # 1, 2, 3, …: it numbers the rows
        best = max(range(len(rows)), key=lambda r: values[r])
        if sum(v == values[best] for v in values) > 1:
            continue
        question = t("sheet.q_table", L, heading=heading, column=columns[c], first=columns[name])
        return [Exercise(0, question, t("sheet.a_label_value", L, label=rows[best][name], value=rows[best][c]))]
    return []


def exercises(
    figures: list[tuple[int, go.Figure]], L: str, tables: list[tuple[str, list[str], list[list[str]]]] = ()
) -> list[Exercise]:
    """Up to MAX_QUESTIONS questions on the numbered figures: each figure's first question in figure order, then
    their second ones, and so on; a question whose answer is already asked for is left out. When the figures give
    fewer than MIN_QUESTIONS, the tables (heading, columns, rows) add one each, after them."""
    per_figure = [figure_exercises(n, fig, L) for n, fig in figures]
    chosen: list[Exercise] = []
    for round_ in range(max((len(q) for q in per_figure), default=0)):
        for questions in per_figure:
            new = questions[round_] if round_ < len(questions) and len(chosen) < MAX_QUESTIONS else None
            if new and all(q.answer != new.answer or q.figure == new.figure for q in chosen):
                chosen.append(new)
    chosen.sort(key=lambda e: e.figure)  # in the order of the figures (a stable sort)
    for heading, columns, rows in tables if figures else ():
        if len(chosen) < MIN_QUESTIONS:
            chosen += table_exercises(heading, columns, rows, L)
    return chosen
