"""Plotly figures for the app's pages: tensors or arrays in, go.Figure out; every visible label is a keyword argument.

Token heatmaps use integer axes 0..n-1 with the tokens as tick text, so repeated tokens stay separate rows/columns,
and row 0 is at the top. This module never imports streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

NEG_INF = "−∞"  # U+2212, shown in blocked score cells
SMALL = 12  # matrices up to SMALL × SMALL get their values written in the cells
CELL_PX = 36  # preferred cell height in pixels
MIN_HEIGHT, MAX_HEIGHT = 220, 640  # figure height limits for one heatmap
ATTN_COLORS = "Blues"
BLOCKED_COLOR, ALLOWED_COLOR = "#2f2f2f", "#e9eef6"
PAD_FILL, PAD_LINE = "rgba(110,110,110,0.45)", "#555555"
CHOSEN_COLOR, OTHER_COLOR = "#d62728", "#9bb8d3"
_FONT = dict(size=13)


# ---------------------------------------------------------------- helpers


def _array(x, ndim: int, name: str) -> np.ndarray:
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


def _floats(x, ndim: int, name: str) -> np.ndarray:
    return _array(x, ndim, name).astype(float)


def _tokens(tokens: Iterable, n: int, what: str, axis: str) -> list[str]:
    """tokens as strings; ValueError unless there is exactly one per row/column."""
    out = [str(t) for t in tokens]
    if len(out) != n:
        raise ValueError(f"{what} has {len(out)} token(s) but the matrix has {n} {axis}.")
    return out


def _indexes(idx: Iterable[int], n: int, what: str) -> list[int]:
    out = sorted({int(i) for i in idx})
    if any(i < 0 or i >= n for i in out):
        raise ValueError(f"{what} must be indexes in 0..{n - 1}, got {out}.")
    return out


def _nullable(z: np.ndarray) -> list:
    """z as nested lists with None for NaN/±inf, which JSON and plotly cannot show."""
    return np.where(np.isfinite(z), z, None).tolist()


def _hover(row_label: str, col_label: str, value_line: str) -> str:
    """hovertemplate naming the row token, the column token and the value line."""
    # indexes come from customdata: %{x}/%{y} would show the tick text, not the number
    row = f"{row_label}: %{{customdata[0]}} (#%{{customdata[3]}})" if row_label else "%{customdata[0]}"
    return f"{row}<br>{col_label}: %{{customdata[1]}} (#%{{customdata[4]}})<br>{value_line}<extra></extra>"


def _matrix_trace(z: np.ndarray, rows: list[str], cols: list[str], extra=None, **kw) -> go.Heatmap:
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
    return go.Heatmap(z=_nullable(z), x=list(range(n_cols)), y=list(range(n_rows)), customdata=custom.tolist(), **kw)


def _axis_names(trace: go.Heatmap) -> tuple[str, str]:
    """('xaxis2', 'yaxis2') style layout keys for the axes a trace is drawn on."""
    return "xaxis" + (trace.xaxis or "x")[1:], "yaxis" + (trace.yaxis or "y")[1:]


def _token_axes(fig: go.Figure, trace, rows: list[str], cols: list[str], row_label="", col_label="", square=True):
    """Tick every row/column with its token, row 0 on top, optionally square cells."""
    xname, yname = _axis_names(trace)
    common = dict(tickmode="array", showgrid=False, zeroline=False, automargin=True, constrain="domain", ticks="")
    x = dict(common, tickvals=list(range(len(cols))), ticktext=cols)
    y = dict(common, tickvals=list(range(len(rows))), ticktext=rows, autorange="reversed")
    if col_label:
        x["title"] = dict(text=col_label)
    if row_label:
        y["title"] = dict(text=row_label)
    if square:
        y.update(scaleanchor=trace.xaxis or "x", scaleratio=1)
    fig.update_layout({xname: x, yname: y})


def _height(n_rows: int, cell: int = CELL_PX, extra: int = 110, lo: int = MIN_HEIGHT, hi: int = MAX_HEIGHT) -> int:
    return int(min(hi, max(lo, n_rows * cell + extra)))


def _layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    fig.update_layout(
        title=dict(text=title or None, x=0.0, xanchor="left"),
        height=height,
        margin=dict(l=10, r=10, t=60 if title else 30, b=10),
        plot_bgcolor="white",
        font=_FONT,
    )
    return fig


def _cell_text(z: np.ndarray, fmt: str = "{:.2f}", blank: str = "") -> list[list[str]] | None:
    """Formatted values for small matrices, else None (too many cells to read)."""
    if max(z.shape) > SMALL:
        return None
    return [[fmt.format(v) if math.isfinite(v) else blank for v in row] for row in z.tolist()]


def _mark_padding(fig: go.Figure, trace, pad_rows: list[int], pad_cols: list[int], n_rows: int, n_cols: int) -> None:
    """Grey dotted bands over padding rows and columns."""
    xref, yref = trace.xaxis or "x", trace.yaxis or "y"
    bands = [(i - 0.5, i + 0.5, -0.5, n_cols - 0.5) for i in pad_rows]  # (y0, y1, x0, x1)
    bands += [(-0.5, n_rows - 0.5, j - 0.5, j + 0.5) for j in pad_cols]
    for y0, y1, x0, x1 in bands:
        fig.add_shape(
            type="rect",
            xref=xref,
            yref=yref,
            x0=x0,
            x1=x1,
            y0=y0,
            y1=y1,
            layer="above",
            fillcolor=PAD_FILL,
            line=dict(color=PAD_LINE, width=1, dash="dot"),
        )


def _pad_extra(n_rows: int, n_cols: int, pad_rows: list[int], pad_cols: list[int], pad_label: str) -> np.ndarray:
    """'<br>padding' for hover in cells whose row or column is padding, '' elsewhere."""
    is_pad = np.zeros((n_rows, n_cols), dtype=bool)  # (Lq, Lk)
    is_pad[pad_rows, :] = True
    is_pad[:, pad_cols] = True
    return np.where(is_pad, f"<br>({pad_label})", "").astype(object)


def _note(fig: go.Figure, text: str) -> None:
    """A small grey subtitle under the title (used to explain padding bands)."""
    top = fig.layout.margin.t or 0
    fig.update_layout(
        title_subtitle=dict(text=text, font=dict(size=12, color="#666666")),
        margin=dict(t=max(top, 80)),
        height=(fig.layout.height or 0) + max(0, 80 - top),
    )


def _colorbar(title: str = "", **kw) -> dict:
    return dict(title=dict(text=title), thickness=12, outlinewidth=0, **kw)


# ---------------------------------------------------------------- training


def loss_accuracy_figure(
    history: Sequence, loss_label="loss", accuracy_label="token accuracy", epoch_label="epoch", title=""
) -> go.Figure:
    """Loss (left axis) and token accuracy (right axis, 0–100 %) per epoch; history items are dicts or EpochRecords."""

    def get(h, key):
        return h[key] if isinstance(h, Mapping) else getattr(h, key)

    epochs = [int(get(h, "epoch")) for h in history]
    loss = [float(get(h, "loss")) for h in history]
    acc = [float(get(h, "accuracy")) for h in history]
    mode = "lines+markers" if len(epochs) <= 60 else "lines"
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=epochs,
            y=loss,
            name=loss_label,
            mode=mode,
            line=dict(color="#1f77b4"),
            hovertemplate=f"{loss_label}: %{{y:.4f}}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=epochs,
            y=acc,
            name=accuracy_label,
            mode=mode,
            yaxis="y2",
            line=dict(color="#ff7f0e"),
            hovertemplate=f"{accuracy_label}: %{{y:.1%}}<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis=dict(title=dict(text=epoch_label), tickformat="d", dtick=1 if len(epochs) <= 10 else None),
        yaxis=dict(title=dict(text=loss_label), rangemode="tozero"),
        yaxis2=dict(
            title=dict(text=accuracy_label),
            overlaying="y",
            side="right",
            range=[0, 1.04],
            tickvals=[0, 0.25, 0.5, 0.75, 1],
            tickformat=".0%",
            showgrid=False,
        ),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="right", x=1),
        hovermode="x unified",
    )
    if not epochs:  # a tidy empty frame before the first epoch
        fig.update_layout(xaxis_range=[1, 10], yaxis_range=[0, 1])
    _layout(fig, title, 340)
    fig.update_layout(xaxis_gridcolor="#eeeeee", yaxis_gridcolor="#eeeeee")
    return fig


# ---------------------------------------------------------------- positional encoding


def pe_lines_figure(
    table, dims: Iterable[int], title="", position_label="position", value_label="value", dim_label="dim"
) -> go.Figure:
    """One line per chosen dimension of the positional-encoding table [positions, d_model] against position."""
    t = _floats(table, 2, "table")  # (L, D)
    positions = list(range(t.shape[0]))
    fig = go.Figure()
    for d in dims:
        d = int(d)
        if not 0 <= d < t.shape[1]:
            raise ValueError(f"dimension {d} is outside 0..{t.shape[1] - 1}.")
        name = f"{dim_label} {d} ({'sin' if d % 2 == 0 else 'cos'})"
        fig.add_trace(
            go.Scatter(
                x=positions,
                y=t[:, d].tolist(),
                name=name,
                mode="lines",
                hovertemplate=f"{name}<br>{position_label}: %{{x}}<br>{value_label}: %{{y:.4f}}<extra></extra>",
            )
        )
    fig.update_layout(
        xaxis=dict(title=dict(text=position_label), gridcolor="#eeeeee"),
        yaxis=dict(title=dict(text=value_label), range=[-1.1, 1.1], gridcolor="#eeeeee", zerolinecolor="#cccccc"),
        showlegend=True,
    )
    return _layout(fig, title, 340)


def pe_heatmap_figure(
    table, title="", position_label="position", dim_label="dimension", value_label="value"
) -> go.Figure:
    """The positional-encoding table as a positions × dimensions heatmap, diverging colours −1..1."""
    t = _floats(table, 2, "table")  # (L, D)
    fig = go.Figure(
        go.Heatmap(
            z=t.tolist(),
            x=list(range(t.shape[1])),
            y=list(range(t.shape[0])),
            zmin=-1,
            zmax=1,
            zmid=0,
            colorscale="RdBu_r",
            colorbar=_colorbar(value_label),
            hovertemplate=(
                f"{position_label}: %{{y}}<br>{dim_label}: %{{x}}<br>{value_label}: %{{z:.4f}}<extra></extra>"
            ),
        )
    )
    fig.update_layout(
        xaxis=dict(title=dict(text=dim_label), showgrid=False, zeroline=False),
        yaxis=dict(title=dict(text=position_label), autorange="reversed", showgrid=False, zeroline=False),
    )
    return _layout(fig, title, _height(t.shape[0], cell=6, extra=120, lo=260, hi=520))


def pe_similarity_figure(table, title="", position_label="position", value_label="dot product") -> go.Figure:
    """PE·PEᵀ: the dot product between the encodings of every two positions."""
    t = _floats(table, 2, "table")  # (L, D)
    sim = t @ t.T  # (L, L)
    n = sim.shape[0]
    fig = go.Figure(
        go.Heatmap(
            z=sim.tolist(),
            x=list(range(n)),
            y=list(range(n)),
            colorscale="Viridis",
            colorbar=_colorbar(value_label),
            hovertemplate=(
                f"{position_label} %{{y}} · {position_label} %{{x}}<br>{value_label}: %{{z:.4f}}<extra></extra>"
            ),
        )
    )
    fig.update_layout(
        xaxis=dict(title=dict(text=position_label), showgrid=False, zeroline=False, constrain="domain"),
        yaxis=dict(
            title=dict(text=position_label),
            autorange="reversed",
            showgrid=False,
            zeroline=False,
            scaleanchor="x",
            scaleratio=1,
            constrain="domain",
        ),
    )
    return _layout(fig, title, _height(n, cell=8, extra=120, lo=300, hi=520))


# ---------------------------------------------------------------- masks, scores, attention


def mask_figure(
    mask,
    row_tokens,
    col_tokens,
    title="",
    blocked_label="blocked",
    allowed_label="allowed",
    row_label="query",
    col_label="key",
) -> go.Figure:
    """A boolean mask [Lq, Lk] (True = blocked) in two colours, with a colourbar naming them."""
    m = _array(mask, 2, "mask").astype(bool)  # (Lq, Lk)
    rows = _tokens(row_tokens, m.shape[0], "row_tokens", "rows")
    cols = _tokens(col_tokens, m.shape[1], "col_tokens", "columns")
    scale = [[0, ALLOWED_COLOR], [0.5, ALLOWED_COLOR], [0.5, BLOCKED_COLOR], [1, BLOCKED_COLOR]]
    trace = _matrix_trace(
        m.astype(int),
        rows,
        cols,
        extra=np.where(m, blocked_label, allowed_label).astype(object),
        zmin=0,
        zmax=1,
        colorscale=scale,
        name=title or "mask",
        colorbar=_colorbar(
            tickmode="array",
            tickvals=[0.25, 0.75],
            ticktext=[allowed_label, blocked_label],
            len=0.5,
            yanchor="top",
            y=1,
        ),
        hovertemplate=_hover(row_label, col_label, "<b>%{customdata[2]}</b>"),
    )
    fig = go.Figure(trace)
    _token_axes(fig, fig.data[0], rows, cols, row_label, col_label)
    return _layout(fig, title, _height(len(rows)))


def score_figure(
    values,
    row_tokens,
    col_tokens,
    title="",
    value_label="score",
    mask=None,
    blocked_label="blocked",
    row_label="query",
    col_label="key",
    colorscale=None,
) -> go.Figure:
    """A real-valued [Lq, Lk] matrix; −∞ (or mask=True) cells are drawn dark with the text "−∞"."""
    v = _floats(values, 2, "values")  # (Lq, Lk)
    rows = _tokens(row_tokens, v.shape[0], "row_tokens", "rows")
    cols = _tokens(col_tokens, v.shape[1], "col_tokens", "columns")
    blocked = np.isneginf(v)
    if mask is not None:
        m = _array(mask, 2, "mask").astype(bool)
        if m.shape != v.shape:
            raise ValueError(f"mask has shape {tuple(m.shape)} but values have shape {tuple(v.shape)}.")
        blocked |= m
    shown = np.where(blocked, np.nan, v)  # blocked cells become gaps
    finite = shown[np.isfinite(shown)]
    if colorscale is None:
        colorscale = ATTN_COLORS if finite.size and finite.min() >= 0 else "RdBu_r"
    diverging = colorscale == "RdBu_r"
    text = _cell_text(shown)
    main = _matrix_trace(
        shown,
        rows,
        cols,
        name=value_label,
        colorscale=colorscale,
        zmid=0 if diverging else None,
        colorbar=_colorbar(value_label),
        hoverongaps=False,
        text=text,
        texttemplate="%{text}" if text else None,
        hovertemplate=_hover(row_label, col_label, f"{value_label}: %{{z:.4f}}"),
    )
    fig = go.Figure(main)
    if blocked.any():
        # second trace: only the blocked cells, one dark colour, "−∞" written in each
        fig.add_trace(
            _matrix_trace(
                np.where(blocked, 0.0, np.nan),
                rows,
                cols,
                name=blocked_label,
                colorscale=[[0, BLOCKED_COLOR], [1, BLOCKED_COLOR]],
                showscale=False,
                hoverongaps=False,
                text=np.where(blocked, NEG_INF, "").tolist(),
                texttemplate="%{text}",
                textfont=dict(color="white"),
                hovertemplate=_hover(row_label, col_label, f"{value_label}: {NEG_INF} ({blocked_label})"),
            )
        )
    _token_axes(fig, fig.data[0], rows, cols, row_label, col_label)
    return _layout(fig, title, _height(len(rows)))


def attention_figure(
    attn,
    row_tokens,
    col_tokens,
    title="",
    pad_rows=(),
    pad_cols=(),
    value_label="weight",
    row_label="query",
    col_label="key",
    pad_label="padding",
    pad_note="grey bands = padding",
) -> go.Figure:
    """Attention weights [Lq, Lk] on a fixed 0..1 colour scale; padding rows/columns shaded grey."""
    a = _floats(attn, 2, "attn")  # (Lq, Lk)
    rows = _tokens(row_tokens, a.shape[0], "row_tokens", "rows")
    cols = _tokens(col_tokens, a.shape[1], "col_tokens", "columns")
    pr = _indexes(pad_rows, a.shape[0], "pad_rows")
    pc = _indexes(pad_cols, a.shape[1], "pad_cols")
    text = _cell_text(a)
    fig = go.Figure(
        _matrix_trace(
            a,
            rows,
            cols,
            extra=_pad_extra(*a.shape, pr, pc, pad_label),
            name=value_label,
            zmin=0,
            zmax=1,
            colorscale=ATTN_COLORS,
            colorbar=_colorbar(value_label),
            text=text,
            texttemplate="%{text}" if text else None,
            hovertemplate=_hover(row_label, col_label, f"{value_label}: %{{z:.4f}}%{{customdata[2]}}"),
        )
    )
    _token_axes(fig, fig.data[0], rows, cols, row_label, col_label)
    _mark_padding(fig, fig.data[0], pr, pc, *a.shape)
    _layout(fig, title, _height(len(rows)))
    if pr or pc:
        _note(fig, pad_note)
    return fig


def attention_grid_figure(
    attn,
    row_tokens,
    col_tokens,
    head_label="head",
    title="",
    pad_rows=(),
    pad_cols=(),
    value_label="weight",
    row_label="query",
    col_label="key",
    pad_label="padding",
    pad_note="grey bands = padding",
) -> go.Figure:
    """One attention heatmap per head of attn [H, Lq, Lk], up to 4 per row, sharing one 0..1 colourbar."""
    a = _floats(attn, 3, "attn")  # (H, Lq, Lk)
    n_heads, n_rows, n_cols = a.shape
    rows = _tokens(row_tokens, n_rows, "row_tokens", "rows")
    cols = _tokens(col_tokens, n_cols, "col_tokens", "columns")
    pr = _indexes(pad_rows, n_rows, "pad_rows")
    pc = _indexes(pad_cols, n_cols, "pad_cols")
    grid_cols = min(4, n_heads)
    grid_rows = math.ceil(n_heads / grid_cols)
    per_plot = min(280, max(150, n_rows * 24 + 30))  # px of one subplot
    gap = min(130, 40 + 7 * max((len(c) for c in cols), default=1))  # px between grid rows: tick labels + title
    plot_px = grid_rows * per_plot + (grid_rows - 1) * gap
    fig = make_subplots(
        rows=grid_rows,
        cols=grid_cols,
        subplot_titles=[f"{head_label} {h + 1}" for h in range(n_heads)],
        horizontal_spacing=0.08,
        vertical_spacing=gap / plot_px if grid_rows > 1 else 0.0,
    )
    extra = _pad_extra(n_rows, n_cols, pr, pc, pad_label)
    value = "%{z:.4f}%{customdata[2]}"
    for h in range(n_heads):
        trace = _matrix_trace(
            a[h],
            rows,
            cols,
            extra=extra,
            name=f"{head_label} {h + 1}",
            zmin=0,
            zmax=1,
            colorscale=ATTN_COLORS,
            showscale=h == 0,
            colorbar=_colorbar(value_label),
            hovertemplate=_hover(row_label, col_label, f"{head_label} {h + 1} · {value_label}: {value}"),
        )
        fig.add_trace(trace, row=h // grid_cols + 1, col=h % grid_cols + 1)
        _token_axes(fig, fig.data[-1], rows, cols)
        _mark_padding(fig, fig.data[-1], pr, pc, n_rows, n_cols)
    _layout(fig, title, plot_px + (60 if title else 30) + gap)
    fig.update_annotations(font=dict(size=12))  # subplot titles
    if pr or pc:
        _note(fig, pad_note)
    return fig


def source_attention_figure(
    weights,
    src_tokens,
    head_label="head",
    average_label="average",
    title="",
    value_label="weight",
    source_label="source",
    pad_cols=(),
) -> go.Figure:
    """Cross-attention of the newest decoder position, weights [H, Ls]: one row per head plus their average."""
    w = _floats(weights, 2, "weights")  # (H, Ls)
    cols = _tokens(src_tokens, w.shape[1], "src_tokens", "columns")
    pc = _indexes(pad_cols, w.shape[1], "pad_cols")
    z = np.vstack([w, w.mean(axis=0, keepdims=True)])  # (H+1, Ls)
    rows = [f"{head_label} {h + 1}" for h in range(w.shape[0])] + [average_label]
    text = _cell_text(z)
    fig = go.Figure(
        _matrix_trace(
            z,
            rows,
            cols,
            name=value_label,
            zmin=0,
            zmax=1,
            colorscale=ATTN_COLORS,
            colorbar=_colorbar(value_label),
            text=text,
            texttemplate="%{text}" if text else None,
            hovertemplate=_hover("", source_label, f"{value_label}: %{{z:.4f}}"),
        )
    )
    _token_axes(fig, fig.data[0], rows, cols, "", source_label)
    _mark_padding(fig, fig.data[0], [], pc, *z.shape)
    fig.add_shape(
        type="line",
        x0=-0.5,
        x1=len(cols) - 0.5,
        y0=len(rows) - 1.5,
        y1=len(rows) - 1.5,
        line=dict(color="#333333", width=2),
        layer="above",
    )  # separates the average row
    return _layout(fig, title, _height(len(rows), extra=120, lo=180))


# ---------------------------------------------------------------- next-token probabilities


def topk_figure(
    probs,
    itos: Sequence[str],
    chosen_id: int,
    k=5,
    title="",
    prob_label="probability",
    token_label="token",
    chosen_label="chosen",
) -> go.Figure:
    """Horizontal bars of the k most probable tokens, most probable on top, the chosen token in red."""
    p = _floats(probs, 1, "probs")  # (V,)
    vocab = _tokens(itos, p.shape[0], "itos", "vocabulary entries")
    k = max(1, min(int(k), p.shape[0]))
    top = np.argsort(-p, kind="stable")[:k].tolist()
    is_chosen = [i == int(chosen_id) for i in top]
    tokens = [vocab[i] for i in top]
    fig = go.Figure(
        go.Bar(
            x=[float(p[i]) for i in top],
            y=list(range(k)),
            orientation="h",
            name=prob_label,
            marker=dict(color=[CHOSEN_COLOR if c else OTHER_COLOR for c in is_chosen]),
            text=[f"{p[i]:.3f}" for i in top],
            textposition="auto",
            customdata=[[t, f" ({chosen_label})" if c else ""] for t, c in zip(tokens, is_chosen, strict=True)],
            hovertemplate=(
                f"{token_label}: %{{customdata[0]}}%{{customdata[1]}}<br>{prob_label}: %{{x:.4f}}<extra></extra>"
            ),
        )
    )
    fig.update_layout(
        xaxis=dict(title=dict(text=prob_label), range=[0, 1], gridcolor="#eeeeee"),
        yaxis=dict(
            tickmode="array",
            tickvals=list(range(k)),
            ticktext=tokens,
            autorange="reversed",
            title=dict(text=token_label),
            automargin=True,
        ),
        showlegend=False,
    )
    return _layout(fig, title, _height(k, cell=30, extra=100, lo=180, hi=480))
