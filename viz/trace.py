"""Inside the model: the architecture diagram (the paper's Figure 1, drawn with shapes) and any recorded step as
a heatmap with tokens on its sequence axes.

The diagram has one invisible marker per block, so a click on a block selects that point (st.plotly_chart with
on_select); attention maps can get one invisible marker per cell for the same reason.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from transformer.data import PAD

from .common import (
    ATTN_COLORS,
    BLOCKED_COLOR,
    CHOSEN_COLOR,
    NEG_INF,
    SIGNED_COLORS,
    cell_text,
    colorbar,
    finish,
    height,
    hover,
    mark_padding,
    matrix_trace,
    note,
    token_labels,
)
from .masks import mask_figure

MAX_COLUMNS = 128  # wider matrices are cut to this many columns (the figure says so)
MAX_TICKS = 48  # more columns than this get a label on every few only (hover names every one)
MARKER_PX = 30  # size of a block's click target in the diagram

# block colours after the paper's Figure 1
BLOCK_COLORS = {
    "inputs": "#ffffff",
    "outputs": "#ffffff",
    "embedding": "#f6c9c9",
    "positional_encoding": "#ffffff",
    "masks": "#e4e4e4",
    "self_attention": "#fbd7a4",
    "masked_attention": "#fbd7a4",
    "cross_attention": "#fbd7a4",
    "add_norm": "#f1f2b6",
    "add": "#f1f2b6",
    "norm": "#f1f2b6",
    "final_norm": "#f1f2b6",
    "feed_forward": "#c5e6f4",
    "linear": "#d8d0f0",
    "softmax": "#cfe8c6",
    "loss": "#eeeeee",
}
SELECTED_FILL = "#ffb3b3"
BLOCK_W, BLOCK_H, GAP = 1.75, 0.62, 0.34  # data units
COLUMN_X = {"encoder": 0.0, "decoder": 2.55}


def _layout(blocks) -> dict[int, tuple[float, float]]:
    """(x, y) centre of every block: the encoder's column on the left, the decoder's on the right, bottom to top;
    the first layer block of both columns at the same height, as in the paper."""
    columns = {side: [b for b in blocks if b.side == side] for side in COLUMN_X}
    before = {side: next((i for i, b in enumerate(col) if b.in_layer), len(col)) for side, col in columns.items()}
    start = max(before.values())
    centres = {}
    for side, col in columns.items():
        for i, block in enumerate(col):
            row = i + start - before[side]
            centres[block.index] = (COLUMN_X[side], row * (BLOCK_H + GAP))
    return centres


def architecture_figure(
    blocks: Sequence,
    labels: Sequence[str],
    sizes: Sequence[str],
    selected: int,
    n_layers: int,
    layer: int | None = None,
    encoder_label: str = "Encoder",
    decoder_label: str = "Decoder",
    layers_label: str = "N× = {n}",
    layer_label: str = "layer {layer}",
    title: str = "",
) -> go.Figure:
    """The encoder–decoder as blocks (objects with .index, .kind, .side, .in_layer), bottom to top; labels and
    sizes are one text per block, the selected block is filled red, the N× layer boxes are dashed."""
    centres = _layout(blocks)
    shapes: list[dict] = []  # collected and set once: plotly's add_shape/add_annotation are slow one by one
    notes: list[dict] = []
    for side in COLUMN_X:  # the N× box around each column's layer blocks
        inside = [centres[b.index][1] for b in blocks if b.side == side and b.in_layer]
        if not inside:
            continue
        x = COLUMN_X[side]
        x0, x1 = x - BLOCK_W / 2 - 0.15, x + BLOCK_W / 2 + 0.15
        y0, y1 = min(inside) - BLOCK_H / 2 - 0.12, max(inside) + BLOCK_H / 2 + 0.12
        shapes.append(dict(type="rect", x0=x0, x1=x1, y0=y0, y1=y1, line=dict(color="#888888", width=1.5, dash="dash")))
        text = layers_label.format(n=n_layers)
        if layer is not None:
            text += "<br>" + layer_label.format(layer=layer + 1)
        notes.append(
            dict(
                x=x0 - 0.05 if side == "encoder" else x1 + 0.05,
                y=(y0 + y1) / 2,
                text=text,
                showarrow=False,
                xanchor="right" if side == "encoder" else "left",
                font=dict(size=12, color="#555555"),
            )
        )
    for side, label in (("encoder", encoder_label), ("decoder", decoder_label)):
        ys = [centres[b.index][1] for b in blocks if b.side == side]
        if ys:
            notes.append(
                dict(x=COLUMN_X[side], y=max(ys) + BLOCK_H / 2 + 0.35, text=f"<b>{label}</b>", showarrow=False)
            )
    for side in COLUMN_X:  # arrows between consecutive blocks of a column
        col = [b for b in blocks if b.side == side]
        for lower, upper in zip(col, col[1:]):
            (x, y0), (_, y1) = centres[lower.index], centres[upper.index]
            notes.append(_arrow(x, y0 + BLOCK_H / 2, x, y1 - BLOCK_H / 2))
    memory = [b for b in blocks if b.side == "encoder"]
    cross = [b for b in blocks if b.kind == "cross_attention"]
    if memory and cross:  # the encoder's output goes to every cross-attention (K and V)
        ex, ey = centres[memory[-1].index]
        cx, cy = centres[cross[0].index]
        notes.append(_arrow(ex + BLOCK_W / 2, ey, cx - BLOCK_W / 2, cy))
    for block, label, size in zip(blocks, labels, sizes):
        x, y = centres[block.index]
        chosen = block.index == selected
        shapes.append(
            dict(
                type="rect",
                x0=x - BLOCK_W / 2,
                x1=x + BLOCK_W / 2,
                y0=y - BLOCK_H / 2,
                y1=y + BLOCK_H / 2,
                fillcolor=SELECTED_FILL if chosen else BLOCK_COLORS.get(block.kind, "#ffffff"),
                line=dict(color=CHOSEN_COLOR if chosen else "#555555", width=3.5 if chosen else 1),
                layer="below",
            )
        )
        notes.append(
            dict(
                x=x,
                y=y,
                text=f"<b>{label}</b><br><span style='font-size:10px'>{size}</span>",
                showarrow=False,
                font=dict(size=11, color="#111111"),
            )
        )
    xs = [centres[b.index][0] for b in blocks]
    ys = [centres[b.index][1] for b in blocks]
    fig = go.Figure(
        go.Scatter(
            x=xs,
            y=ys,
            mode="markers",
            marker=dict(symbol="square", size=MARKER_PX, color="#000000", opacity=0.0),
            customdata=[[b.index] for b in blocks],
            text=[f"{label} · {size}" for label, size in zip(labels, sizes)],
            hovertemplate="%{text}<extra></extra>",
            showlegend=False,
            name="blocks",
        )
    )
    top = max(ys, default=0) + BLOCK_H / 2 + 0.6
    fig.update_layout(
        shapes=shapes,
        annotations=notes,
        xaxis=dict(visible=False, range=[COLUMN_X["encoder"] - 2.15, COLUMN_X["decoder"] + 2.15], fixedrange=True),
        yaxis=dict(visible=False, range=[-BLOCK_H, top], fixedrange=True),
        dragmode=False,
        hovermode="closest",
        clickmode="event+select",
    )
    rows = top / (BLOCK_H + GAP)
    return finish(fig, title, int(rows * 46 + 60))


def _arrow(x0: float, y0: float, x1: float, y1: float) -> dict:
    """An arrow annotation from (x0, y0) to (x1, y1) in data coordinates."""
    return dict(
        x=x1,
        y=y1,
        ax=x0,
        ay=y0,
        xref="x",
        yref="y",
        axref="x",
        ayref="y",
        showarrow=True,
        arrowhead=2,
        arrowsize=1,
        arrowwidth=1.2,
        arrowcolor="#777777",
        text="",
    )


# ------------------------------------------------------------------ one step as a heatmap


def shows_one_head(shape: Sequence[int], axes: Sequence[str]) -> bool:
    """Whether step_figure draws a [batch, heads, …] step one head at a time (so a head must be chosen)."""
    if tuple(axes[:2]) != ("batch", "heads") or shape[1] < 2:
        return False
    return axes[3] not in ("d_k", "d_v") or shape[1] * shape[3] > MAX_COLUMNS


def _matrix(values: np.ndarray, axes: Sequence[str], tokens: Sequence, head: int):
    """A 2-D view (rows, columns) of one step without its batch axis; returns (matrix, row axis, col axis,
    row tokens or None, col tokens or None, column group size or 0, the head shown or None)."""
    if axes and axes[0] == "batch":
        values, axes, tokens = values[0], axes[1:], tokens[1:]
    if values.ndim == 0:
        return values.reshape(1, 1), "", "", None, None, 0, None
    if values.ndim == 1:
        return values[None, :], "", axes[0], None, tokens[0], 0, None
    if values.ndim == 2:
        return values, axes[0], axes[1], tokens[0], tokens[1], 0, None
    # (heads, len, ·): one head, or every head side by side when they fit
    n_heads = values.shape[0]
    head = min(max(head, 0), n_heads - 1)
    if axes[2] in ("d_k", "d_v") and n_heads * values.shape[2] <= MAX_COLUMNS:
        side_by_side = values.transpose(1, 0, 2).reshape(values.shape[1], -1)  # (L, H*d)
        return side_by_side, axes[1], f"heads·{axes[2]}", tokens[1], None, values.shape[2], None
    return values[head], axes[1], axes[2], tokens[1], tokens[2], 0, head if n_heads > 1 else None


def step_figure(
    tensor,
    axes: Sequence[str],
    tokens: Sequence,
    head: int = 0,
    vocab: Sequence[str] | None = None,
    title: str = "",
    value_label: str = "value",
    head_label: str = "head",
    blocked_label: str = "blocked",
    allowed_label: str = "allowed",
    cap_note: str = "{shown} of {total} columns shown",
    clickable: bool = False,
    highlight: tuple[int, int] | None = None,
) -> go.Figure:
    """One recorded step as a heatmap: tokens on sequence axes (tokens[i] is the list for axis i, or None),
    dimensions, heads or vocabulary entries on the other; boolean masks in two colours, −∞ cells dark.

    A [batch, heads, len, ·] step shows one head (head), or every head side by side when that fits. Wide
    matrices are cut to MAX_COLUMNS columns (the dimensions in order, or the vocabulary entries with the largest
    values) and cap_note says so. clickable adds one invisible marker per cell; highlight outlines (row, col).
    """
    values = tensor.detach().cpu().numpy() if hasattr(tensor, "detach") else np.asarray(tensor)
    m, row_axis, col_axis, row_tokens, col_tokens, group, shown_head = _matrix(values, list(axes), list(tokens), head)
    if shown_head is not None:
        title = f"{title} · {head_label} {shown_head + 1}" if title else f"{head_label} {shown_head + 1}"
    n_rows, n_cols = m.shape
    rows = list(row_tokens) if row_tokens else [str(i) for i in range(n_rows)]
    if n_rows == 1 and not row_tokens:
        rows = [""]  # a single row (ids, targets, per-token cross-entropy) needs no label
    if col_tokens:
        cols = list(col_tokens)
    elif col_axis == "tgt_vocab" and vocab is not None:
        cols = list(vocab)
    elif group:
        cols = [f"{j // group + 1}·{j % group}" for j in range(n_cols)]
    else:
        cols = [str(j) for j in range(n_cols)]
    if m.dtype == bool:  # mask_figure escapes the tokens itself
        return mask_figure(
            m, rows, cols, title=title, blocked_label=blocked_label, allowed_label=allowed_label,
            row_label=row_axis, col_label=col_axis,
        )  # fmt: skip
    pads = [i for i, tok in enumerate(row_tokens or []) if tok == PAD]
    pad_cols = [j for j, tok in enumerate(col_tokens or []) if tok == PAD] if n_cols <= MAX_COLUMNS else []
    rows = token_labels(rows, n_rows, "row tokens", "rows")
    cols = token_labels(cols, n_cols, "column tokens", "columns")
    integers = m.dtype.kind in "iu"
    m = m.astype(float)
    total = n_cols
    if n_cols > MAX_COLUMNS:
        if col_axis == "tgt_vocab":  # the entries with the largest values somewhere, kept in vocabulary order
            keep = np.sort(np.argsort(-np.nan_to_num(m, neginf=-1e30).max(axis=0), kind="stable")[:MAX_COLUMNS])
        else:
            keep = np.arange(MAX_COLUMNS)
        m, cols = m[:, keep], [cols[j] for j in keep]
    fig = _real_heatmap(
        m, rows, cols, row_axis, col_axis, value_label, blocked_label, square=col_axis == "len_k", integers=integers
    )
    if group:  # a line between heads
        lines = [
            dict(type="line", x0=j - 0.5, x1=j - 0.5, y0=-0.5, y1=n_rows - 0.5, line=dict(color="#222222", width=2))
            for j in range(group, len(cols), group)
        ]
        fig.update_layout(shapes=lines)
    if pads or pad_cols:
        mark_padding(fig, fig.data[0], pads, pad_cols, *m.shape)
    if clickable:  # one invisible marker per cell takes the hover and the click (a heatmap cannot be selected)
        ii, jj = np.meshgrid(range(m.shape[0]), range(m.shape[1]), indexing="ij")
        shown = [NEG_INF if math.isinf(v) else f"{v:.4f}" for v in m.ravel().tolist()]
        fig.update_traces(hoverinfo="skip", hovertemplate=None, selector=dict(type="heatmap"))
        fig.add_trace(
            go.Scatter(
                x=jj.ravel().tolist(),
                y=ii.ravel().tolist(),
                mode="markers",
                marker=dict(symbol="square", size=14, color="#000000", opacity=0.0),
                customdata=[[rows[i], cols[j], v, i, j] for i, j, v in zip(ii.ravel(), jj.ravel(), shown)],
                hovertemplate=hover(row_axis, col_axis, f"{value_label}: %{{customdata[2]}}"),
                showlegend=False,
                name="cells",
            )
        )
        fig.update_layout(clickmode="event+select", hovermode="closest", dragmode=False)
    if highlight is not None:
        r, c = highlight
        fig.add_shape(
            type="rect", x0=c - 0.5, x1=c + 0.5, y0=r - 0.5, y1=r + 0.5, layer="above",
            line=dict(color=CHOSEN_COLOR, width=3),
        )  # fmt: skip
    finish(fig, title, height(n_rows, extra=130))
    if total > MAX_COLUMNS:
        note(fig, cap_note.format(shown=MAX_COLUMNS, total=total))
    return fig


def _real_heatmap(m, rows, cols, row_axis, col_axis, value_label, blocked_label, square, integers) -> go.Figure:
    """A real matrix: blue 0..1 for weights, blue for values ≥ 0, red–blue around 0 otherwise; −∞ dark."""
    blocked = np.isneginf(m)
    shown = np.where(blocked, np.nan, m)
    finite = shown[np.isfinite(shown)]
    weights = finite.size and finite.min() >= 0 and finite.max() <= 1
    if finite.size and finite.min() >= 0:
        scale = dict(colorscale=ATTN_COLORS, zmin=0, zmax=1 if weights else None)
    else:
        scale = dict(colorscale=SIGNED_COLORS, zmid=0)
    text = cell_text(shown, "{:.0f}" if integers else "{:.4f}" if max(shown.shape) <= 6 else "{:.2f}")
    fig = go.Figure(
        matrix_trace(
            shown,
            rows,
            cols,
            name=value_label,
            colorbar=colorbar(value_label),
            hoverongaps=False,
            text=text,
            texttemplate="%{text}" if text else None,
            hovertemplate=hover(row_axis, col_axis, f"{value_label}: %{{z:{'.0f' if integers else '.4f'}}}"),
            **scale,
        )
    )
    if blocked.any():
        fig.add_trace(
            matrix_trace(
                np.where(blocked, 0.0, np.nan),
                rows,
                cols,
                name=blocked_label,
                colorscale=[[0, BLOCKED_COLOR], [1, BLOCKED_COLOR]],
                showscale=False,
                meta="overlay",  # drawn over the matrix, not a matrix of its own (exports skip it)
                hoverongaps=False,
                text=np.where(blocked, NEG_INF, "").tolist(),
                texttemplate="%{text}",
                textfont=dict(color="white"),
                hovertemplate=hover(row_axis, col_axis, f"{value_label}: {NEG_INF} ({blocked_label})"),
            )
        )
    common = dict(tickmode="array", showgrid=False, zeroline=False, automargin=True, ticks="")
    every = math.ceil(len(cols) / MAX_TICKS)  # a label on every column, or on every few when there are many
    fig.update_layout(
        {
            "xaxis": dict(
                common,
                tickvals=list(range(0, len(cols), every)),
                ticktext=cols[::every],
                title=dict(text=col_axis),
            ),
            "yaxis": dict(
                common,
                tickvals=list(range(len(rows))),
                ticktext=rows,
                autorange="reversed",
                title=dict(text=row_axis),
                **(dict(scaleanchor="x", scaleratio=1, constrain="domain") if square else {}),
            ),
        }
    )
    if square:
        fig.update_layout(xaxis=dict(constrain="domain"))
    return fig


def softmax_row_figure(
    weights: Sequence[float],
    key_tokens: Sequence[str],
    chosen: int,
    blocked: Sequence[bool],
    title: str = "",
    weight_label: str = "weight",
    key_label: str = "key",
    blocked_label: str = "blocked",
) -> go.Figure:
    """The whole softmax row of one query: one bar per key, the chosen key in red, blocked keys marked."""
    cols = token_labels(key_tokens, len(weights), "key tokens", "bars")
    colors = [CHOSEN_COLOR if j == chosen else ("#bbbbbb" if blocked[j] else "#9bb8d3") for j in range(len(cols))]
    fig = go.Figure(
        go.Bar(
            x=list(range(len(cols))),
            y=list(weights),
            marker=dict(color=colors),
            text=[f"{w:.4f}" if not b else NEG_INF for w, b in zip(weights, blocked)],
            textposition="outside",
            customdata=[[c, f" ({blocked_label})" if b else ""] for c, b in zip(cols, blocked)],
            hovertemplate=f"{key_label}: %{{customdata[0]}}%{{customdata[1]}}<br>{weight_label}: %{{y:.4f}}"
            "<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis=dict(tickmode="array", tickvals=list(range(len(cols))), ticktext=cols, title=dict(text=key_label)),
        yaxis=dict(range=[0, 1.15], title=dict(text=weight_label), gridcolor="#eeeeee"),
        showlegend=False,
    )
    return finish(fig, title, 280)
