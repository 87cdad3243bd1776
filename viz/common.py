"""What every figure shares: colours and sizes, token axes on integer positions, padding bands, layout.

Token heatmaps use integer axes 0..n-1 with the tokens as tick text, so repeated tokens stay separate rows/columns,
and row 0 is at the top. Nothing in viz/ imports streamlit.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Iterable

import numpy as np
import plotly.colors
import plotly.graph_objects as go
from plotly.basedatatypes import BasePlotlyType

from transformer.text import plotly as plotly_text

NEG_INF = "−∞"  # U+2212, shown in blocked score cells
SMALL = 12  # matrices up to SMALL × SMALL get their values written in the cells
CELL_PX = 36  # preferred cell height in pixels
MIN_HEIGHT, MAX_HEIGHT = 220, 640  # figure height limits for one heatmap
# The colour scales of every heatmap, chosen here only. Each is perceptually uniform and its lightness rises steadily
# from one end to the other, so a map reads the same printed in grayscale, on a projector and to colour-blind
# learners (lightness carries the value; hue only helps). The numbers written in small matrices are black or white,
# whichever reads on that cell (readable_cell_text).
ATTN_COLORS = "deep"  # values 0..1 and others ≥ 0 (attention weights): 0 pale, large dark (cmocean "deep")
SIGNED_COLORS = "Cividis"  # values of either sign, with zmid=0: below 0 dark blue, 0 grey, above 0 light yellow
ENTROPY_COLORS = "matter"  # head entropy beside the attention statistics: another hue, 0 pale (cmocean "matter")
BLOCKED_COLOR, ALLOWED_COLOR = "#2f2f2f", "#e9eef6"
PAD_FILL, PAD_LINE = "rgba(110,110,110,0.45)", "#555555"
CHOSEN_COLOR, OTHER_COLOR = "#d62728", "#9bb8d3"
FONT = dict(size=13)
TICK_COLUMNS = 16  # longer tick labels (a CJK character is two columns) are cut in the middle; the hover has them whole
COLUMN_PX = 7.5  # about how wide one column of FONT is, in px
TITLE_COLUMNS, TITLE_LINE_PX = 30, 26  # a longer title breaks into lines at its " · ", each line this much taller
ROTATES_PX = 30  # x tick labels wider than this may be drawn turned on a token axis: the figure grows by their length


def as_array(x, ndim: int, name: str) -> np.ndarray:
    """x (torch tensor, numpy array or nested list) as a numpy array with ndim dims; leading size-1 dims dropped."""
    if hasattr(x, "detach"):  # torch tensor, without importing torch here
        x = x.detach().cpu()
        x = x.double().numpy() if x.is_floating_point() else x.numpy()
    a = np.asarray(x)
    while a.ndim > ndim and a.shape[0] == 1:
        a = a[0]  # (1, ...) -> (...)
    if a.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {tuple(a.shape)}.")
    return a


def floats(x, ndim: int, name: str) -> np.ndarray:
    return as_array(x, ndim, name).astype(float)


def token_labels(tokens: Iterable, n: int, what: str, axis: str) -> list[str]:
    """tokens as plotly-safe labels (shown literally, see transformer.text.plotly); ValueError unless there is
    exactly one per row/column."""
    out = [plotly_text(str(t)) for t in tokens]
    if len(out) != n:
        raise ValueError(f"{what} has {len(out)} token(s) but the matrix has {n} {axis}.")
    return out


def matrix_labels(row_tokens: Iterable, col_tokens: Iterable, n_rows: int, n_cols: int) -> tuple[list[str], list[str]]:
    """The row and the column labels of an n_rows × n_cols matrix (token_labels of row_tokens and col_tokens)."""
    return (
        token_labels(row_tokens, n_rows, "row_tokens", "rows"),
        token_labels(col_tokens, n_cols, "col_tokens", "columns"),
    )


def indexes(idx: Iterable[int], n: int, what: str) -> list[int]:
    out = sorted({int(i) for i in idx})
    if any(i < 0 or i >= n for i in out):
        raise ValueError(f"{what} must be indexes in 0..{n - 1}, got {out}.")
    return out


def nullable(z: np.ndarray) -> list:
    """z as nested lists with None for NaN/±inf, which JSON and plotly cannot show."""
    return np.where(np.isfinite(z), z, None).tolist()


def colon(label: str) -> str:
    """A label with its colon: full-width after Chinese ("熵（比特）：") and ": " after anything else ("entropy: ")."""
    last = label.rstrip()[-1:]
    wide = bool(last) and unicodedata.east_asian_width(last) in "WF"
    return f"{label.rstrip()}：" if wide else f"{label}: "


def hover(row_label: str, col_label: str, value_line: str) -> str:
    """hovertemplate naming the row token, the column token and the value line."""
    # indexes come from customdata: %{x}/%{y} would show the tick text, not the number
    row = f"{colon(row_label)}%{{customdata[0]}} (#%{{customdata[3]}})" if row_label else "%{customdata[0]}"
    return f"{row}<br>{colon(col_label)}%{{customdata[1]}} (#%{{customdata[4]}})<br>{value_line}<extra></extra>"


def matrix_trace(z: np.ndarray, rows: list[str], cols: list[str], extra=None, **kw) -> go.Heatmap:
    """Heatmap on integer axes with customdata [row token, column token, extra, row index, column index] per cell."""
    n_rows, n_cols = z.shape
    custom = np.empty((n_rows, n_cols, 5), dtype=object)  # (Lq, Lk, 5)
    custom[..., 0] = np.array(rows, dtype=object)[:, None]
    custom[..., 1] = np.array(cols, dtype=object)[None, :]
    custom[..., 2] = "" if extra is None else extra
    custom[..., 3] = np.array(range(n_rows), dtype=object)[:, None]
    custom[..., 4] = np.array(range(n_cols), dtype=object)[None, :]
    kw.setdefault("xgap", 1)
    kw.setdefault("ygap", 1)
    return go.Heatmap(z=nullable(z), x=list(range(n_cols)), y=list(range(n_rows)), customdata=custom.tolist(), **kw)


def set_layout(fig: go.Figure, props: dict) -> None:
    """fig.update_layout(props) for nested dicts of plain values: a dict merges into the property it names (an axis,
    the title, the margin), any other value replaces it. Plotly's update_layout goes through its batch machinery and
    takes 2–4 times as long, which every figure of every page run pays."""
    _merge(fig.layout, props)


def epoch_axes(fig: go.Figure, epoch_label: str, value_label: str, top: float, **layout) -> None:
    """Epochs along x (whole numbers), a value from 0 to top along y, light grid lines and one hover box per epoch;
    layout: anything else the figure sets (its legend)."""
    grid = dict(gridcolor="#eeeeee")
    x = dict(title=dict(text=epoch_label), tickformat="d", **grid)
    y = dict(title=dict(text=value_label), range=[0, top], **grid)
    set_layout(fig, dict(xaxis=x, yaxis=y, hovermode="x unified", **layout))


def _merge(obj: BasePlotlyType, props: dict) -> None:
    for key, value in props.items():
        if isinstance(value, dict) and key in obj and isinstance(obj[key], BasePlotlyType):
            _merge(obj[key], value)
        else:
            obj[key] = value


def axis_names(trace: go.Heatmap) -> tuple[str, str]:
    """('xaxis2', 'yaxis2') style layout keys for the axes a trace is drawn on."""
    return "xaxis" + (trace.xaxis or "x")[1:], "yaxis" + (trace.yaxis or "y")[1:]


def token_axes(fig: go.Figure, trace, rows: list[str], cols: list[str], row_label="", col_label="", square=True):
    """Tick every row/column with its token, row 0 on top, optionally square cells."""
    xname, yname = axis_names(trace)
    common = dict(tickmode="array", showgrid=False, zeroline=False, automargin=True, constrain="domain", ticks="")
    x = dict(common, tickvals=list(range(len(cols))), ticktext=cols)
    y = dict(common, tickvals=list(range(len(rows))), ticktext=rows, autorange="reversed")
    if col_label:
        x["title"] = dict(text=col_label)
    if row_label:
        y["title"] = dict(text=row_label)
    if square:
        y.update(scaleanchor=trace.xaxis or "x", scaleratio=1)
    set_layout(fig, {xname: x, yname: y})


_UNITS = re.compile(r"<[^<>]*>|&#?\w+;|.", re.S)  # a tag, an HTML entity or one character of a plotly label


def _columns(unit: str) -> int:
    if unit.startswith("<") and len(unit) > 1:
        return 0  # a tag (<b>, <br>) takes no room of its own
    return 2 if len(unit) == 1 and unicodedata.east_asian_width(unit) in "WF" else 1


def columns(label: str) -> int:
    """How many columns a plotly label takes: two for a wide (CJK) character, one for any other or an entity."""
    return sum(_columns(u) for u in _UNITS.findall(str(label)))


def tick_text(label: str, limit: int = TICK_COLUMNS) -> str:
    """label cut in the middle to at most limit columns ("Pneumono…silicovo"), entities and tags kept whole;
    shorter labels unchanged."""
    label = str(label)
    if columns(label) <= limit:
        return label
    units = _UNITS.findall(label)
    room, head, tail = limit - 1, 0, len(units)  # one column for the ellipsis; keep units[:head] and units[tail:]
    while head < tail:  # take from both ends in turn, the head first, while they fit
        i = head if head <= len(units) - tail else tail - 1
        if _columns(units[i]) > room:
            break
        room -= _columns(units[i])
        head, tail = (head + 1, tail) if i == head else (head, tail - 1)
    tags = [u for u in units[head:tail] if _columns(u) == 0]  # tags of the cut part stay, so they still pair up
    return "".join(units[:head]) + "…" + "".join(tags) + "".join(units[tail:])


_WIDE, _NARROW = set("mwMW@%—…"), set("iljftr.,:;'|!()[]/\\-` \"*?_")


def text_px(text: str, size: float) -> float:
    """An upper bound of how many px text takes in bold at size px, in any common sans-serif font (the widths are
    DejaVu Sans Bold's, one of the widest, rounded up); tags take none and entities count as one character."""
    return _text_em(str(text)) * size


@functools.lru_cache(maxsize=1 << 16)  # a page measures the same cells on every run (its table's column widths)
def _text_em(text: str) -> float:
    return sum(_unit_em(unit) for unit in _UNITS.findall(text))


@functools.lru_cache(maxsize=1 << 14)
def _unit_em(unit: str) -> float:
    if _columns(unit) == 0:
        return 0.0
    if unit.isdigit():
        return 0.72
    if len(unit) > 1 or unit.isupper() or not unit.isalpha() and unit not in _NARROW:
        return 1.1 if unit in _WIDE else (1.0 if _columns(unit) == 2 else 0.87)
    if unit in _WIDE:
        return 1.1
    if _columns(unit) == 2:
        return 1.0
    return 0.5 if unit in _NARROW else 0.72


def label_px(labels: Iterable[str]) -> int:
    """About how many px the longest of labels takes in FONT, once cut by tick_text."""
    return int(max((columns(tick_text(str(label))) for label in labels), default=0) * COLUMN_PX)


def height(n_rows: int, cell: int = CELL_PX, extra: int = 110, lo: int = MIN_HEIGHT, hi: int = MAX_HEIGHT) -> int:
    return int(min(hi, max(lo, n_rows * cell + extra)))


def finish(fig: go.Figure, title: str, height: int) -> go.Figure:
    """The layout every figure shares, and what keeps its text inside it at any width: margins that grow to fit
    the tick labels and titles (automargin), tick labels cut to TICK_COLUMNS, a figure taller by the length of x
    tick labels that may be turned, and colour bars with as many ticks as their height has room for. Every
    heatmap's cell numbers are written in the colour that reads on their cell (readable_cell_text)."""
    readable_cell_text(fig)
    longest_x = 0
    for axis in [*fig.select_xaxes(), *fig.select_yaxes()]:
        axis.automargin = True
        if axis.ticktext is not None:
            axis.ticktext = [tick_text(label) for label in axis.ticktext]
            if axis.plotly_name.startswith("x") and axis.showticklabels is not False:
                longest_x = max(longest_x, label_px(axis.ticktext))
                axis.autotickangles = [0, 90]  # level, or upright when they do not fit: turned 30°, long ones meet
    height += max(0, longest_x - ROTATES_PX)
    title = title_lines(title)
    top = 60 + TITLE_LINE_PX * title.count("<br>") if title else 30
    height += top - (60 if title else 30)
    height = max(height, top + _upright_title_px(fig) + BELOW_PLOT_PX)
    set_layout(
        fig,
        dict(
            title=dict(text=title or None, x=0.0, xanchor="left"),
            height=height,
            margin=dict(l=10, r=10, t=top, b=10),
            plot_bgcolor="white",
            font=FONT,
        ),
    )
    for trace in fig.data:
        bar = getattr(trace, "colorbar", None)
        if bar is not None and bar.tickvals is None and bar.nticks is None:
            room = height - top - 60 if bar.orientation != "h" else 160  # the bar's length, about, in px
            bar.nticks = max(2, int(room // 40))
    return fig


BELOW_PLOT_PX = 70  # what a figure draws below its plot: the x tick labels, the x axis title and the margin


def _upright_title_px(fig: go.Figure) -> int:
    """How tall the plot must be for its longest y axis title, drawn upright beside it, to stay beside it (a longer
    one reaches over the figure's title and legend above the plot): of the y axes that span the whole height."""
    spans = [axis for axis in fig.select_yaxes() if axis.domain is None or tuple(axis.domain) == (0, 1)]
    titles = [axis.title.text for axis in spans if axis.title is not None and axis.title.text]
    return math.ceil(max((text_px(title, FONT["size"]) for title in titles), default=0))


def title_lines(title: str, limit: int = TITLE_COLUMNS) -> str:
    """title broken into lines of at most limit columns at its " · " separators, packed from the end so that the
    qualifiers stay together ("encoder–decoder attention<br>layer 2 · head 1"); a part longer than that keeps its own
    line. A title that fits is unchanged."""
    if not title or columns(title) <= limit:
        return title
    lines: list[str] = []
    for part in reversed(title.split(" · ")):
        if lines and columns(part + " · " + lines[0]) <= limit:
            lines[0] = part + " · " + lines[0]
        else:
            lines.insert(0, part)
    return "<br>".join(lines)


def cell_text(z: np.ndarray, fmt: str = "{:.2f}", blank: str = "") -> list[list[str]] | None:
    """Formatted values for small matrices, else None (too many cells to read)."""
    if max(z.shape) > SMALL:
        return None
    return [[fmt.format(v) if math.isfinite(v) else blank for v in row] for row in z.tolist()]


def mark_padding(fig: go.Figure, trace, pad_rows: list[int], pad_cols: list[int], n_rows: int, n_cols: int) -> None:
    """Grey dotted bands over padding rows and columns."""
    xref, yref = trace.xaxis or "x", trace.yaxis or "y"
    bands = [(i - 0.5, i + 0.5, -0.5, n_cols - 0.5) for i in pad_rows]  # (y0, y1, x0, x1)
    bands += [(-0.5, n_rows - 0.5, j - 0.5, j + 0.5) for j in pad_cols]
    band = dict(layer="above", fillcolor=PAD_FILL, line=dict(color=PAD_LINE, width=1, dash="dot"))
    for y0, y1, x0, x1 in bands:
        fig.add_shape(type="rect", xref=xref, yref=yref, x0=x0, x1=x1, y0=y0, y1=y1, **band)


def pad_extra(n_rows: int, n_cols: int, pad_rows: list[int], pad_cols: list[int], pad_label: str) -> np.ndarray:
    """'<br>padding' for hover in cells whose row or column is padding, '' elsewhere."""
    is_pad = np.zeros((n_rows, n_cols), dtype=bool)  # (Lq, Lk)
    is_pad[pad_rows, :] = True
    is_pad[:, pad_cols] = True
    return np.where(is_pad, f"<br>({pad_label})", "").astype(object)


def note(fig: go.Figure, text: str) -> None:
    """A small grey subtitle under the title (used to explain padding bands)."""
    top = fig.layout.margin.t or 0
    set_layout(
        fig,
        dict(
            title=dict(subtitle=dict(text=text, font=dict(size=12, color="#666666"))),
            margin=dict(t=max(top, 80)),
            height=(fig.layout.height or 0) + max(0, 80 - top),
        ),
    )


def colorbar(title: str = "", **kw) -> dict:
    """A slim colour bar, its title along its right side (above it, the title would meet the top tick label)."""
    return dict(title=dict(text=title, side="right"), thickness=12, outlinewidth=0, **kw)


# ------------------------------------------------------------------ numbers in cells that read on every cell colour

TEXT_DARK, TEXT_LIGHT = "#000000", "#ffffff"  # the two colours a cell's number may take
CELL_TEXT = "cell text"  # meta of the transparent copy of a heatmap that writes its white numbers
LOWER_IS_BETTER = "lower is better"  # meta of a map whose smallest value is the best: ui.exercises asks for it
LOWER_IS_BETTER_AVERAGED = "lower is better, the last column an average"  # the AER grid: heads, then their average
NO_BREAK = "\u00a0"  # what a heatmap holds where the other writes a number (readable_cell_text)


def _rgb(color: str) -> np.ndarray:
    """'#rrggbb', 'rgb(r, g, b)' or 'rgba(r, g, b, a)' as three 0..255 floats (alpha dropped)."""
    if color.startswith("#"):
        return np.array(plotly.colors.hex_to_rgb(color), dtype=float)
    return np.array([float(v) for v in re.findall(r"[\d.]+", color)[:3]])


def luminance(rgb) -> float:
    """WCAG relative luminance of an sRGB colour given as 0..255 values."""
    c = np.asarray(rgb, dtype=float) / 255
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def contrast(a, b) -> float:
    """WCAG contrast ratio of two sRGB colours (1 to 21; text needs 4.5)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def scale_colors(colorscale, t: np.ndarray) -> np.ndarray:
    """The colours [..., 3] of a plotly colour scale (a name or [[position, colour], …]) at positions t in 0..1,
    interpolated in sRGB as plotly.js does."""
    if isinstance(colorscale, str):
        colorscale = plotly.colors.get_colorscale(colorscale)
    stops = np.array([float(p) for p, _ in colorscale])
    colors = np.array([_rgb(c) for _, c in colorscale])  # (stops, 3)
    t = np.clip(np.asarray(t, dtype=float), 0, 1)
    return np.stack([np.interp(t, stops, colors[:, k]) for k in range(3)], axis=-1)


def color_range(z: np.ndarray, zmin, zmax, zmid) -> tuple[float, float]:
    """The values at the two ends of a heatmap's colour scale, as plotly.js resolves them: zmin and zmax when both
    are given, else the data's range, widened to be symmetric around zmid when that is given."""
    if zmin is not None and zmax is not None and zmin < zmax:
        return float(zmin), float(zmax)
    finite = z[np.isfinite(z)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if zmid is not None:
        half = max(hi - zmid, zmid - lo)
        lo, hi = zmid - half, zmid + half
    return (lo - 0.5, hi + 0.5) if lo == hi else (lo, hi)


def _bands(fig: go.Figure, trace) -> list[tuple[float, float, float, float, np.ndarray, float]]:
    """The padding bands (mark_padding) over a trace: (x0, x1, y0, y1, colour, opacity) each."""
    xref, yref = trace.xaxis or "x", trace.yaxis or "y"
    alpha = float(re.findall(r"[\d.]+", PAD_FILL)[3])
    return [
        (s.x0, s.x1, s.y0, s.y1, _rgb(PAD_FILL), alpha)
        for s in fig.layout.shapes
        if s.fillcolor == PAD_FILL and (s.xref or "x") == xref and (s.yref or "y") == yref
    ]


def readable_cell_text(fig: go.Figure) -> None:
    """Write every heatmap's cell numbers in black or white, whichever contrasts more with that cell's colour (and
    with the padding band over it, which dims number and cell alike). Plotly's own choice gives white on mid-dark
    cells and grey #444 on mid-light ones, both under 4.5:1 on parts of any scale.

    A heatmap takes one text colour for all its cells, and markup in a cell's text (a colour <span>) would count
    towards the text's length when plotly sizes the numbers to fit the cells: they came out 1 px high, or not at all.
    So the heatmap writes its black numbers itself, and when some cells need white, a transparent copy of it drawn
    just above (meta CELL_TEXT, no hover, no colour bar) writes those. Each of the two holds, in the cells the other
    writes, as many no-break spaces as that number has characters: both see the same longest text and the same cell
    spacing, so plotly gives both the size it gives the plain numbers. Heatmaps whose text has a colour of its own
    (the "−∞" overlays) are left as they are."""
    overlays = []  # (index of the heatmap, the copy that writes its white numbers)
    for index, trace in enumerate(fig.data):
        if trace.type != "heatmap" or trace.text is None or not trace.texttemplate:
            continue
        if trace.textfont is not None and trace.textfont.color is not None:
            continue
        z = np.array(trace.z, dtype=float)  # (rows, cols); None → nan
        lo, hi = color_range(z, trace.zmin, trace.zmax, trace.zmid)
        t = (np.nan_to_num(z, nan=lo) - lo) / (hi - lo)
        cells = scale_colors(trace.colorscale, 1 - t if trace.reversescale else t)  # (rows, cols, 3)
        bands = _bands(fig, trace)
        xs = list(trace.x) if trace.x is not None else list(range(z.shape[1]))
        ys = list(trace.y) if trace.y is not None else list(range(z.shape[0]))
        text = [["" if v is None else str(v) for v in row] for row in trace.text]
        inks: list[list[str | None]] = [[None] * len(row) for row in text]
        for i, row in enumerate(text):
            for j, value in enumerate(row):
                if not value:
                    continue
                options = []
                for ink in (TEXT_DARK, TEXT_LIGHT):
                    fg, bg = _rgb(ink), cells[i, j]
                    for x0, x1, y0, y1, band, alpha in bands:
                        if min(x0, x1) <= xs[j] <= max(x0, x1) and min(y0, y1) <= ys[i] <= max(y0, y1):
                            fg, bg = (1 - alpha) * fg + alpha * band, (1 - alpha) * bg + alpha * band
                    options.append((contrast(fg, bg), ink))
                inks[i][j] = max(options)[1]
        used = {ink for row in inks for ink in row if ink}

        def only(ink: str, text=text, inks=inks) -> list[list[str]]:
            return [[v if k in (None, ink) else _blank(v) for v, k in zip(row, ks)] for row, ks in zip(text, inks)]

        if used == {TEXT_LIGHT}:
            trace.textfont = dict(color=TEXT_LIGHT)
            continue
        trace.textfont = dict(color=TEXT_DARK)
        if TEXT_LIGHT in used:
            trace.text = only(TEXT_DARK)
            overlay = go.Heatmap(trace)
            overlay.update(
                text=only(TEXT_LIGHT),
                textfont=dict(color=TEXT_LIGHT),
                colorscale=[[0, "rgba(0,0,0,0)"], [1, "rgba(0,0,0,0)"]],
                showscale=False,
                hoverinfo="skip",
                hovertemplate=None,
                customdata=None,
                meta=CELL_TEXT,
                showlegend=False,
                coloraxis=None,
            )
            overlays.append((index, overlay))
    if overlays:
        order = list(fig.data)
        for index, overlay in reversed(overlays):
            fig.add_trace(overlay)
            order.insert(index + 1, fig.data[-1])
        fig.data = order


def _blank(value: str) -> str:
    """As many no-break spaces as value has characters (UTF-16 units, as plotly.js counts them), line by line."""
    return "<br>".join(NO_BREAK * (len(line.encode("utf-16-le")) // 2) for line in value.split("<br>"))


def written(fig, index: int = 0) -> list[list[str]]:
    """The cell text of heatmap fig.data[index] as the reader sees it: its black numbers and the white ones its
    CELL_TEXT copy writes over it (readable_cell_text). fig is a figure or its JSON (a dict with "data")."""
    data = list(fig.data) if isinstance(fig, go.Figure) else fig["data"]

    def get(trace, key):
        return trace.get(key) if isinstance(trace, dict) else getattr(trace, key)

    def shown(text):
        return [["" if v is None or not str(v).strip() else str(v) for v in row] for row in text]

    cells = shown(get(data[index], "text"))
    if index + 1 < len(data) and get(data[index + 1], "meta") == CELL_TEXT:
        for row, over in zip(cells, shown(get(data[index + 1], "text")), strict=True):
            row[:] = [o or v for v, o in zip(row, over, strict=True)]
    return cells
