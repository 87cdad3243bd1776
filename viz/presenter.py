"""The presenter view of a figure: the same chart with its text enlarged for a projector.

ui.export.chart applies presenter_figure to every plotly figure when the presenter view is on, so no figure builder
needs to know about it. The copy's fonts (layout, titles, axes, colour bars, annotations, trace text) are
PRESENTER_SCALE times larger; the numbers written in heatmap cells (and on bars) keep at most CELL_DECIMALS decimals
(the hover still gives them to four) and their cells are made tall enough for CELL_FONT_PX text, so that plotly,
which fits cell text to its cell, writes them at least that large; the figure grows to keep its labels inside it.
"""

from __future__ import annotations

import math
import re

import plotly.graph_objects as go

from .common import CELL_TEXT, FONT, NO_BREAK

PRESENTER_SCALE = 1.4  # every font of a figure, times this
CELL_FONT_PX = 18  # the size cell numbers are written at when their cell has room (plotly's cap: the layout font)
MIN_CELL_FONT_PX = 14  # the smallest a cell number may be drawn at in the presenter view
CELL_DECIMALS = 2  # cell numbers with more decimals are rounded to this many
LINE_SPACING = 1.3  # plotly.js's line height of cell text, in font sizes
CHAR_EM = 0.65  # how wide plotly.js takes one character of cell text to be, in font sizes
TITLE_SCALE = 1.25  # a figure's title, this much larger than its other text
HEIGHT_SCALE = 1.2  # a figure's height, times this: larger titles and tick labels take more of it
_LONG_DECIMAL = re.compile(rf"^([-−]?)(\d+)\.(\d{{{CELL_DECIMALS + 1},}})$")


def fewer_decimals(text: str) -> str:
    """A cell's number with more than CELL_DECIMALS decimals rounded to that many ("0.1234" → "0.12", "−1.2345" →
    "−1.23"); any other text ("−∞", "7", "0.50") unchanged."""
    found = _LONG_DECIMAL.match(str(text))
    if not found:
        return text
    sign, whole, decimals = found.groups()
    rounded = f"{float(f'{whole}.{decimals}'):.{CELL_DECIMALS}f}"
    return (sign + rounded) if float(rounded) != 0 or not sign else rounded  # "-0.0001" → "0.00", not "-0.00"


def _scaled(size, base: float) -> float:
    """A font size PRESENTER_SCALE times larger (base when the figure leaves it unset, i.e. inherited), and never
    under MIN_CELL_FONT_PX: a figure's small print (a beam node's score, a subplot's note) is read by the room too."""
    return max(round((size or base) * PRESENTER_SCALE, 1), MIN_CELL_FONT_PX)


def _scale_font(obj, key: str = "font", unset: float | None = None) -> None:
    """obj[key].size PRESENTER_SCALE times larger; an unset size becomes `unset` (Streamlit's chart theme gives titles,
    tick labels and colour bars sizes of its own, which the layout's font does not change), or stays unset if None."""
    font = getattr(obj, key, None)
    if font is None:
        return
    if isinstance(font.size, (int, float)):
        font.size = _scaled(font.size, FONT["size"])
    elif unset is not None:
        font.size = unset


def _cells_text(fig: go.Figure) -> list[tuple[int, int]]:
    """(index of a heatmap with cell text, rows of its matrix) for every heatmap that writes numbers in its cells."""
    return [
        (i, len(trace.text))
        for i, trace in enumerate(fig.data)
        if trace.type == "heatmap" and trace.text is not None and trace.texttemplate
    ]


def _shorten_cells(fig: go.Figure) -> int:
    """Round every cell number to CELL_DECIMALS (fewer_decimals), in a heatmap and in the CELL_TEXT copy that writes
    its white numbers alike (each holds no-break spaces where the other writes, as many as the number has
    characters); returns the most characters a cell's text now has."""
    longest = 0
    for index, _ in _cells_text(fig):
        trace = fig.data[index]
        if trace.meta == CELL_TEXT:
            continue
        copy = fig.data[index + 1] if index + 1 < len(fig.data) and fig.data[index + 1].meta == CELL_TEXT else None
        own = [["" if v is None else str(v) for v in row] for row in trace.text]
        over = [["" if v is None else str(v) for v in row] for row in copy.text] if copy is not None else None
        mine, theirs = [], []
        for i, row in enumerate(own):
            mine.append([])
            theirs.append([])
            for j, value in enumerate(row):
                other = over[i][j] if over is not None else ""
                here = bool(value.strip(NO_BREAK + " "))  # this trace writes the number, else the copy (or neither)
                short = fewer_decimals(value if here else other)
                longest = max(longest, len(short))
                blank = NO_BREAK * len(short)
                mine[-1].append(short if here else (blank if value else ""))
                theirs[-1].append(blank if here else (short if other else ""))
        trace.text = mine
        if copy is not None:
            copy.text = theirs
    return longest


def _cell_room(fig: go.Figure, longest: int) -> None:
    """Make the figure tall enough that each heatmap's rows (and, for square cells, its columns) have room for
    CELL_FONT_PX numbers of `longest` characters."""
    height = fig.layout.height
    if not height:
        return
    margin = fig.layout.margin
    # the margins, and the x tick labels and axis title under the plot: about four lines of the enlarged text
    chrome = (margin.t or 0) + (margin.b or 0) + 4 * (fig.layout.font.size or CELL_FONT_PX)
    need = height
    for index, n_rows in _cells_text(fig):
        trace = fig.data[index]
        axis = fig.layout["yaxis" + (trace.yaxis or "y")[1:]]
        share = (axis.domain[1] - axis.domain[0]) if axis.domain else 1.0
        square = axis.scaleanchor is not None
        row_px = CELL_FONT_PX * LINE_SPACING + 4
        if square:  # a square cell is as wide as it is tall: wide enough for the number
            row_px = max(row_px, longest * CHAR_EM * CELL_FONT_PX + 4)
        need = max(need, math.ceil(n_rows * row_px / max(share, 0.05) + chrome))
    fig.layout.height = need


def presenter_figure(fig: go.Figure) -> go.Figure:
    """A copy of fig for a projector: every font PRESENTER_SCALE times larger, heatmap cell numbers rounded to
    CELL_DECIMALS and given cells that fit them at CELL_FONT_PX, margins and height grown to match. fig is unchanged."""
    out = go.Figure(fig)
    layout = out.layout
    layout.font.size = text = _scaled(layout.font.size, FONT["size"])
    if layout.title.text:
        _scale_font(layout.title, unset=round(text * TITLE_SCALE, 1))
        _scale_font(layout.title.subtitle, unset=text)
    _scale_font(layout.legend, unset=text)
    _scale_font(layout.hoverlabel, unset=text)
    for axis in [*out.select_xaxes(), *out.select_yaxes()]:
        _scale_font(axis, "tickfont", unset=text)
        _scale_font(axis.title, unset=text)
    for note in layout.annotations:
        _scale_font(note, unset=text)
    for trace in out.data:
        if trace.type == "bar" and trace.text is not None and not isinstance(trace.text, str):
            trace.text = [fewer_decimals(str(v)) for v in trace.text]  # a bar's number, as a cell's: two decimals
        for key in ("textfont", "insidetextfont", "outsidetextfont"):
            if key in trace:  # a heatmap's unset size: plotly fits its cell numbers to the cells (see _cell_room)
                _scale_font(trace, key, unset=None if trace.type == "heatmap" else text)
        bar = trace.colorbar if "colorbar" in trace else None
        if bar is not None:
            _scale_font(bar, "tickfont", unset=text)
            _scale_font(bar.title, unset=text)
    axes = [*out.select_xaxes(), *out.select_yaxes()]
    if layout.width and axes and not all(axis.visible is False for axis in axes):
        layout.width = None  # a chart with axes (the next-token bars): as wide as the room's screen, as every chart
    if layout.width:  # a figure drawn in px (the architecture diagram): all of it larger, so its text fits its boxes
        layout.width = math.ceil(layout.width * PRESENTER_SCALE)
        if layout.height:
            layout.height = math.ceil(layout.height * PRESENTER_SCALE)
        for side in ("l", "r", "t", "b"):
            if layout.margin[side]:
                layout.margin[side] = math.ceil(layout.margin[side] * PRESENTER_SCALE)
        return out
    if layout.height:
        layout.height = math.ceil(layout.height * HEIGHT_SCALE)
    if layout.margin.t:
        layout.margin.t = math.ceil(layout.margin.t * PRESENTER_SCALE)
    longest = _shorten_cells(out)
    if longest:
        layout.font.size = max(layout.font.size, CELL_FONT_PX)  # plotly writes cell numbers at most this large
        _cell_room(out, longest)
    return out
