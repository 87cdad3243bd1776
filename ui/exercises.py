"""The lesson sheet's exercises: questions read off the sheet's own numbered figures, and their answers, each computed
from the numbers the figure draws (no Streamlit here).

A question is asked only when the figure gives it one answer at the precision the sheet states it (two decimals, or
two significant digits for a smaller number, so no value that is not 0 is stated as 0): a row whose two largest values
round alike, or a line whose lowest point is reached twice, asks nothing. A value is asked for only where the sheet
prints it (the numbers in a map's cells); elsewhere a question asks which row, bar, head or point, and the answer key
adds the value. Rows and columns are named by the figure's own tick labels; a label that is only a special token
(P, S, E) is never the row a question is about, though it may be an answer (the figure shows it).

Questions are of several kinds (KINDS): reading a printed value, finding a row, bar, head or point, the cells a mask
blocks, a question on a table, and "why" questions whose answer is what the sheet shows (a softmax row that adds up to
1, a padding or look-ahead mask, a held-out loss above the training loss, the special tokens' ids, the wavelengths).
A sheet asks 3 to 5, of at least three kinds where its figures give them, one "why" among them.
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
from viz.common import CELL_TEXT, LOWER_IS_BETTER, LOWER_IS_BETTER_AVERAGED

from .i18n import t

MIN_QUESTIONS, MAX_QUESTIONS = 3, 5
SHEET_QUESTIONS = 4  # asked when the figures and tables give as many (a sheet is at most 4 A4 pages)
KINDS = (
    "read",
    "find",
    "best",
    "mask",
    "why",
    "table",
)  # a printed value, which one, the best head, a mask, why, a table
MIN_KINDS = 3  # a sheet asks questions of at least this many kinds when its figures and tables give them
SUM_TOLERANCE = 0.02  # a row of printed weights that adds up to 1 within this is a softmax row
_SPECIAL = frozenset((PAD, BOS, EOS))
_SKIPPED_META = ("overlay", "cell text")  # viz.layers.OVERLAY, viz.common.CELL_TEXT: copies drawn over a matrix


@dataclass(frozen=True)
class Exercise:
    """One question about figure `figure` (0: about a table) and its answer, both plain text."""

    figure: int
    question: str
    answer: str
    kind: str = "read"  # one of KINDS


def number(value: float, whole: bool = False) -> str:
    """A value as the exercises state it: as an integer when its series is whole numbers, else to two decimals, or to
    two significant digits when two decimals would show less (0.0044, not 0.00; a value that is not 0 never reads 0)."""
    if whole:
        return str(int(value))
    value = float(value)
    if value == 0 or not math.isfinite(value) or abs(value) >= 0.1:
        return f"{value:.2f}"
    decimals = min(12, 1 - math.floor(math.log10(abs(value))))  # two significant digits
    return f"{value:.{decimals}f}"


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


def _printed(fig: go.Figure, index: int) -> bool:
    """Whether heatmap `index` writes its numbers in its cells (itself, or the CELL_TEXT copy drawn over it)."""
    trace = fig.data[index]
    after = fig.data[index + 1] if index + 1 < len(fig.data) else None
    return bool(trace.texttemplate and trace.text is not None) or (after is not None and after.meta == CELL_TEXT)


def _mask_why(n: int, where: str, row: str, blocked: list[str], rows: list[str], cols: list[str], L: str):
    """Why the row's cells are blocked: padding (a blocked column is P), or the look-ahead rule (the blocked columns
    are the positions after the row's own, on a map of the decoder's tokens against themselves); else None."""
    if PAD in blocked:
        return Exercise(n, t("sheet.q_why_pad", L, where=where, row=row, col=PAD), t("sheet.a_why_pad", L), "why")
    r = rows.index(row)
    if rows == cols and blocked == cols[r + 1 : r + 1 + len(blocked)] and len(blocked) == len(cols) - r - 1:
        words = ("、" if L == "zh" else ", ").join(f"“{c}”" for c in blocked)
        return Exercise(
            n, t("sheet.q_why_ahead", L, where=where, row=row), t("sheet.a_why_ahead", L, cols=words), "why"
        )
    return None


def _softmax_why(n: int, where: str, z: np.ndarray, rows: list[str], r: int, L: str) -> Exercise | None:
    """Why row r's printed weights add up to 1: asked when every row with numbers does (a softmax over the keys)."""
    finite = [row[np.isfinite(row)] for row in z]
    if not all(len(f) == 0 or (abs(f.sum() - 1) <= SUM_TOLERANCE and f.min() >= 0) for f in finite):
        return None
    values = [f"{v:.2f}" for v in finite[r]]  # as the cells print them
    total = sum(float(v) for v in values)
    answer = t("sheet.a_why_softmax", L, values=" + ".join(values), total=f"{total:.2f}")
    return Exercise(n, t("sheet.q_why_softmax", L, where=where, row=rows[r]), answer, "why")


def _heatmap_questions(n: int, fig: go.Figure, index: int, L: str) -> list[Exercise]:
    trace = fig.data[index]
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
        blocked = [cols[c] for c in np.flatnonzero(marked[r])]
        answer = ("、" if L == "zh" else ", ").join(f"“{c}”" for c in blocked)
        found = [Exercise(n, t("sheet.q_marked", L, where=where, row=rows[r], name=name), answer, "mask")]
        why = _mask_why(n, where, rows[r], blocked, rows, cols, L)
        return found + ([why] if why is not None else [])
    printed = _printed(fig, index)
    whole = _whole(z[np.isfinite(z)])
    if trace.meta in (LOWER_IS_BETTER, LOWER_IS_BETTER_AVERAGED):  # the best cell is the lowest: the best head
        heads = z[:, :-1] if trace.meta == LOWER_IS_BETTER_AVERAGED else z  # (layers, heads): not the layer averages
        best = _unique_best(heads.ravel().tolist(), largest=False)
        if best is None:
            return []
        r, c = divmod(best, heads.shape[1])
        key = "sheet.q_best_value" if printed else "sheet.q_best"
        answer = t("sheet.a_cell", L, row=rows[r], col=cols[c], value=number(z[r, c], whole))
        return [Exercise(n, t(key, L, where=where, name=trace.name or ""), answer, "best")]
    scored = []
    for r in range(z.shape[0]):
        best = _unique_best(z[r].tolist(), largest=True)
        if best is not None and _plain(rows[r]):
            scored.append((z[r, best], r, best))
    scored.sort(key=lambda s: -s[0])  # the most peaked rows first
    found = []
    for i, (value, r, c) in enumerate(scored[:2]):
        answer = t("sheet.a_label_value", L, label=cols[c], value=number(value, whole))
        if printed and i == 0:  # the value it prints
            found.append(Exercise(n, t("sheet.q_row_max", L, where=where, row=rows[r]), answer, "read"))
        else:  # which column: read off the colours, or the printed numbers compared
            key = "sheet.q_row_which" if printed else "sheet.q_row_darkest"
            found.append(Exercise(n, t(key, L, where=where, row=rows[r]), answer, "find"))
    if printed and scored:
        why = _softmax_why(n, where, z, rows, scored[0][1], L)
        found += [why] if why is not None else []
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
    printed = trace.text is not None and not isinstance(trace.text, str) and len(trace.text) == len(values)
    found = []
    for largest, key in ((True, "sheet.q_bar_max"), (False, "sheet.q_bar_min")):
        if printed:  # the numbers written on the bars: one answer as they read
            texts = [str(v).strip() for v in trace.text]
            best = max if largest else min
            pick = best(range(len(values)), key=lambda i: values[i])
            if sum(text == texts[pick] for text in texts) == 1:
                answer = t("sheet.a_label_value", L, label=labels[pick], value=texts[pick])
                asked = t("sheet.q_bar_max_value" if largest else "sheet.q_bar_min_value", L, where=where)
                found.append(Exercise(n, asked, answer, "read"))
            continue
        pick = _unique_best(values, largest)
        if pick is not None:
            answer = t("sheet.a_label_value", L, label=labels[pick], value=number(values[pick], _whole(values)))
            found.append(Exercise(n, t(key, L, where=where), answer, "find"))
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
    if lowest is None or highest is None:  # its extreme is reached twice: no one point to find
        return []
    largest = highest > lowest
    best = highest if largest else lowest
    key = "sheet.q_line_max" if largest else "sheet.q_line_min"
    question = t(key, L, where=where, name=trace.name, axis=axis)
    value = _stated(fig, trace, values, best)
    return [Exercise(n, question, t("sheet.a_line", L, axis=axis, x=xs[best], value=value), "find")]


def _last(trace) -> tuple[int, float] | None:
    """A line's last point with a value: (its index, the value)."""
    values = [float(v) if v is not None else math.nan for v in (trace.y if trace.y is not None else [])]
    last = max((i for i, v in enumerate(values) if math.isfinite(v)), default=None)
    return None if last is None else (last, values[last])


def _loss_why(n: int, fig: go.Figure, L: str) -> list[Exercise]:
    """Why the held-out loss ends above the training loss (asked when it does), else why the loss falls (asked when
    its last point is below its first): the Train page's loss chart, by its lines' names."""
    loss, suffix = t("train.loss", L), t("train.holdout_suffix", L)
    lines = {trace.name: trace for trace in fig.data if isinstance(trace, go.Scatter) and trace.y is not None}
    where, epoch = t("sheet.q_fig", L, n=n), t("train.epoch", L)
    if loss in lines and loss + suffix in lines:
        trained, held = _last(lines[loss]), _last(lines[loss + suffix])
        if trained and held and number(held[1]) != number(trained[1]) and held[1] > trained[1]:
            x = _labels(fig, lines[loss], "x", len(lines[loss].y))[held[0]]
            question = t("sheet.q_why_holdout", L, where=where, axis=epoch, x=x)
            answer = t("sheet.a_why_holdout", L, held=number(held[1]), trained=number(trained[1]))
            return [Exercise(n, question, answer, "why")]
    if loss in lines:
        values = [float(v) if v is not None else math.nan for v in lines[loss].y]
        finite = [(i, v) for i, v in enumerate(values) if math.isfinite(v)]
        if len(finite) >= 2 and number(finite[-1][1]) != number(finite[0][1]) and finite[-1][1] < finite[0][1]:
            xs = _labels(fig, lines[loss], "x", len(values))
            question = t("sheet.q_why_falls", L, where=where, name=loss)
            first, last = finite[0], finite[-1]
            answer = t(
                "sheet.a_why_falls", L, axis=epoch, x0=xs[first[0]], v0=number(first[1]), x1=xs[last[0]],
                v1=number(last[1]),
            )  # fmt: skip
            return [Exercise(n, question, answer, "why")]
    return []


def figure_exercises(n: int, fig: go.Figure, L: str) -> list[Exercise]:
    """Every question figure n can answer, in the order the figure draws its parts."""
    found: list[Exercise] = []
    for index, trace in enumerate(fig.data):
        if isinstance(trace, go.Heatmap) and trace.meta != CELL_TEXT and trace.z is not None:
            found += _heatmap_questions(n, fig, index, L)
        elif isinstance(trace, go.Bar):
            found += _bar_questions(n, fig, trace, L)
        elif isinstance(trace, go.Scatter) and trace.name:
            found += _line_questions(n, fig, trace, L)
    return found + _loss_why(n, fig, L)


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
    name = next((c for c in range(len(columns)) if not numeric[c]), None)  # the rows' names: the first text column
    if name is None:  # rows named by numbers only (layer and head): no one row to name
        return []

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
        answer = t("sheet.a_label_value", L, label=rows[best][name], value=rows[best][c])
        return [Exercise(0, question, answer, "table")]
    return []


def _specials_why(heading: str, columns: list[str], rows: list[list[str]], L: str) -> list[Exercise]:
    """Why the first ids are P, S and E: a vocabulary table whose first rows are the special tokens, with their ids."""
    specials = [PAD, BOS, EOS]
    for c in range(len(columns)):
        if [row[c] for row in rows[:3]] == specials and c > 0 and all(_cell_number(r[0]) is not None for r in rows[:3]):
            comma, (left, right) = ("、", "（）") if L == "zh" else (", ", ("(", ")"))
            ids = comma.join(row[0] for row in rows[:3])
            roles = comma.join(
                f"“{row[c]}”{' ' if L != 'zh' else ''}{left}{row[-1]}{right}" if len(row) > c + 1 else f"“{row[c]}”"
                for row in rows[:3]
            )
            question = t("sheet.q_why_specials", L, heading=heading, ids=ids)
            return [Exercise(0, question, t("sheet.a_why_specials", L, roles=roles, ids=ids), "why")]
    return []


def _wavelength_why(heading: str, columns: list[str], rows: list[list[str]], L: str) -> list[Exercise]:
    """Why a higher dimension pair repeats more slowly: the positional encoding's wavelength table (its first and last
    printed rows)."""
    if t("pe.wavelength", L) not in columns or len(rows) < 2:
        return []
    c = columns.index(t("pe.wavelength", L))
    first, last = rows[0], rows[-1]
    question = t("sheet.q_why_wavelength", L, heading=heading, i0=first[0], i1=last[0])
    answer = t("sheet.a_why_wavelength", L, i0=first[0], w0=first[c], i1=last[0], w1=last[c])
    return [Exercise(0, question, answer, "why")]


def _round_robin(sources: list[list[Exercise]]) -> list[Exercise]:
    """Each source's first question in order, then their second ones, and so on."""
    return [qs[i] for i in range(max((len(qs) for qs in sources), default=0)) for qs in sources if i < len(qs)]


def exercises(
    figures: list[tuple[int, go.Figure]], L: str, tables: list[tuple[str, list[str], list[list[str]]]] = ()
) -> list[Exercise]:
    """Between MIN_QUESTIONS and MAX_QUESTIONS questions (SHEET_QUESTIONS when there are enough) on the numbered
    figures and the printed tables (heading, columns, printed rows): a "why" first, then a question of each kind not
    yet asked, then the rest, each source's first question before any source's second; a question whose answer is
    already asked for (on another figure) is left out. In figure order, the tables' after."""
    if not figures:
        return []
    per_figure = [figure_exercises(n, fig, L) for n, fig in figures]
    per_table = [_specials_why(*table, L) + _wavelength_why(*table, L) + table_exercises(*table, L) for table in tables]
    order = _round_robin(per_figure + per_table)
    chosen: list[Exercise] = []

    def take(question: Exercise, limit: int) -> None:
        same = any(q.answer == question.answer and q.figure != question.figure for q in chosen)
        if len(chosen) < limit and question not in chosen and not same:
            chosen.append(question)

    for question in [q for q in order if q.kind == "why"][:1]:
        take(question, MAX_QUESTIONS)
    for question in order:  # a kind not asked yet
        if question.kind not in {q.kind for q in chosen}:
            take(question, MAX_QUESTIONS)
    for question in order:
        take(question, SHEET_QUESTIONS)
    return sorted(chosen, key=lambda e: (e.figure == 0, e.figure))  # figure order, the tables last (a stable sort)
