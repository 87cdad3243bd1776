"""Attention weights: one head, all heads in a grid, and one decoder position's look at the source."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .common import (
    ATTN_COLORS,
    axis_names,
    cell_text,
    colon,
    colorbar,
    finish,
    floats,
    height,
    hover,
    indexes,
    label_px,
    mark_padding,
    matrix_labels,
    matrix_trace,
    note,
    pad_extra,
    token_axes,
    token_labels,
)
from .layers import cell_clicks, frame, outline_cells, value_scale

GRID_CELL_PX, GRID_MIN_PX, GRID_MAX_PX = 30, 170, 360  # one head of the grid: px per row, and its height limits


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
    marks=(),
    clickable=False,
) -> go.Figure:
    """Attention weights [Lq, Lk] on a fixed 0..1 colour scale; padding rows/columns shaded grey.

    marks are (row, column) cells outlined in red. clickable=True lays an invisible marker over every cell that
    carries the hover, so a click selects the cell in Streamlit (read it back with viz.layers.clicked_cell).
    """
    a = floats(attn, 2, "attn")  # (Lq, Lk)
    rows, cols = matrix_labels(row_tokens, col_tokens, *a.shape)
    pr = indexes(pad_rows, a.shape[0], "pad_rows")
    pc = indexes(pad_cols, a.shape[1], "pad_cols")
    line = f"{colon(value_label)}%{{z:.4f}}%{{customdata[2]}}"
    extra = pad_extra(*a.shape, pr, pc, pad_label)
    fig = go.Figure(weights_trace(a, rows, cols, value_label, hover(row_label, col_label, line), extra=extra))
    token_axes(fig, fig.data[0], rows, cols, row_label, col_label)
    mark_padding(fig, fig.data[0], pr, pc, *a.shape)
    outline_cells(fig, fig.data[0], marks, *a.shape)
    if clickable:
        cell_clicks(fig, fig.data[0], a)
    finish(fig, title, height(len(rows)))
    if pr or pc:
        note(fig, pad_note)
    return fig


def weights_trace(z, rows, cols, value_label, hovertemplate: str, written: bool = True, **kw) -> go.Heatmap:
    """Attention weights z [Lq, Lk] as a matrix_trace on the fixed 0..1 scale, their numbers written in the cells of a
    small matrix (unless written=False); kw (extra, name, showscale) go to matrix_trace."""
    text = cell_text(z) if written else None
    kw.setdefault("name", value_label)
    return matrix_trace(
        z,
        rows,
        cols,
        colorbar=colorbar(value_label),
        text=text,
        texttemplate="%{text}" if text else None,
        hovertemplate=hovertemplate,
        **value_scale(z, ATTN_COLORS, (0, 1)),
        **kw,
    )


def decoder_row_labels(inputs, predicts, arrow: str = "→") -> list[str]:
    """'input → predicts' for every decoder position, e.g. ['S → I', 'I → love', …]: what the row reads and the
    token it predicts next."""
    inputs, predicts = list(inputs), list(predicts)
    if len(inputs) != len(predicts):
        raise ValueError(f"{len(inputs)} decoder inputs but {len(predicts)} predicted tokens.")
    return [f"{a} {arrow} {b}" for a, b in zip(inputs, predicts)]


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
    marks=(),
) -> go.Figure:
    """One attention heatmap per head of attn [H, Lq, Lk], up to 4 per row, sharing one 0..1 colourbar; meant for
    the full page width. Row tokens are ticked on the first column only (every head has the same rows); marks are
    (row, column) cells outlined in red in every head."""
    a = floats(attn, 3, "attn")  # (H, Lq, Lk)
    n_heads, n_rows, n_cols = a.shape
    rows, cols = matrix_labels(row_tokens, col_tokens, n_rows, n_cols)
    pr = indexes(pad_rows, n_rows, "pad_rows")
    pc = indexes(pad_cols, n_cols, "pad_cols")
    grid_cols = min(4, n_heads)
    grid_rows = math.ceil(n_heads / grid_cols)
    per_plot = min(GRID_MAX_PX, max(GRID_MIN_PX, n_rows * GRID_CELL_PX + 20))  # px of one subplot
    gap = min(170, 40 + label_px(cols))  # px between grid rows: the tick labels as finish() cuts them, and a title
    plot_px = grid_rows * per_plot + (grid_rows - 1) * gap
    fig = make_subplots(
        rows=grid_rows,
        cols=grid_cols,
        subplot_titles=[f"{head_label} {h + 1}" for h in range(n_heads)],
        horizontal_spacing=0.03,
        vertical_spacing=gap / plot_px if grid_rows > 1 else 0.0,
    )
    extra = pad_extra(n_rows, n_cols, pr, pc, pad_label)
    value = "%{z:.4f}%{customdata[2]}"
    for h in range(n_heads):
        line = f"{head_label} {h + 1} · {colon(value_label)}{value}"
        trace = weights_trace(
            a[h], rows, cols, value_label, hover(row_label, col_label, line), written=False, extra=extra,
            name=f"{head_label} {h + 1}", showscale=h == 0,
        )  # fmt: skip
        fig.add_trace(trace, row=h // grid_cols + 1, col=h % grid_cols + 1)
        token_axes(fig, fig.data[-1], rows, cols)
        if h % grid_cols:  # the first column's ticks name the rows of the whole grid row
            fig.update_layout({axis_names(fig.data[-1])[1]: dict(showticklabels=False)})
        mark_padding(fig, fig.data[-1], pr, pc, n_rows, n_cols)
        outline_cells(fig, fig.data[-1], marks, n_rows, n_cols)
    finish(fig, title, plot_px + (60 if title else 30) + gap)
    fig.update_annotations(font=dict(size=14))  # subplot titles
    if title:  # the heads' titles sit over the first row, in the top margin: room for them under the title
        fig.update_layout(margin=dict(t=fig.layout.margin.t + 20), height=fig.layout.height + 20)
    if pr or pc:
        note(fig, pad_note)
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
    w = floats(weights, 2, "weights")  # (H, Ls)
    cols = token_labels(src_tokens, w.shape[1], "src_tokens", "columns")
    pc = indexes(pad_cols, w.shape[1], "pad_cols")
    z = np.vstack([w, w.mean(axis=0, keepdims=True)])  # (H+1, Ls)
    rows = [f"{head_label} {h + 1}" for h in range(w.shape[0])] + [average_label]
    fig = go.Figure(
        weights_trace(z, rows, cols, value_label, hover("", source_label, f"{colon(value_label)}%{{z:.4f}}"))
    )
    token_axes(fig, fig.data[0], rows, cols, "", source_label)
    mark_padding(fig, fig.data[0], [], pc, *z.shape)
    fig.add_shape(
        type="line",
        x0=-0.5,
        x1=len(cols) - 0.5,
        y0=len(rows) - 1.5,
        y1=len(rows) - 1.5,
        line=dict(color="#333333", width=2),
        layer="above",
    )  # separates the average row
    return finish(fig, title, height(len(rows), extra=120, lo=180))


def frame_head(fig: go.Figure, chosen: tuple[int, int] | None) -> go.Figure:
    """Move the red frame of a viz.heads.head_patterns_figure to the chosen (layer, head), in place (rebuilding a
    figure of many heads only to frame another one is slow); no frame when chosen is None or not in the figure."""
    fig.layout.shapes = ()
    for trace in fig.data:
        if trace.type == "heatmap" and chosen is not None and list(trace.meta or []) == list(chosen):
            frame(fig, f"{trace.xaxis} domain", f"{trace.yaxis} domain", 0, 1, 0, 1)
    return fig
