"""Inside the model: the architecture diagram (the paper's Figure 1, drawn with shapes) and any recorded step as
a heatmap with tokens on its sequence axes.

The diagram has one invisible marker per block, so a click on a block selects that point (st.plotly_chart with
on_select); attention maps can get one invisible marker per cell for the same reason.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from transformer.data import PAD

from .common import (
    CHOSEN_COLOR,
    NEG_INF,
    colon,
    finish,
    height,
    mark_padding,
    note,
    set_layout,
    text_px,
    token_labels,
)
from .layers import cell_clicks, frame, values_figure
from .masks import mask_figure

MAX_COLUMNS = 128  # wider matrices are cut to this many columns (the figure says so)
MAX_TICKS = 48  # more columns than this get a label on every few only (hover names every one)

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
# the diagram is drawn in px (one data unit = one px), so its text is sized against its boxes exactly
DIAGRAM_TEXT_PX = 12  # every text of the diagram
LINE_PX = 16  # one line of that text
PAD_PX = 6  # between a box's border and its text
GAP_PX = 18  # between two boxes of a column: the arrow from one to the next
LANE_PX = 16  # the residual connections run this far outside a column
SIDE_PX = 14  # the arrow from a mask to its attention block
LABEL_PX = 150  # a longer block label wraps onto a second line
EDGE_PX = 10  # the figure's own margin, outside the N× boxes
LINE_COLOR, ARROW_COLOR = "#777777", "#555555"


def _wrap(label: str, room: float) -> list[str]:
    """label in at most two lines of at most room px (by words; by characters for text without spaces)."""
    if text_px(label, DIAGRAM_TEXT_PX) <= room:
        return [label]
    words = label.split(" ") if " " in label else list(label)
    glue = " " if " " in label else ""
    for cut in range(len(words) - 1, 0, -1):  # the longest first line that fits
        first = glue.join(words[:cut])
        if text_px(first, DIAGRAM_TEXT_PX) <= room:
            return [first, glue.join(words[cut:])]
    return [label]


@dataclass
class _Box:
    block: object
    lines: list[str]  # the label, wrapped
    size: str  # the sizes line under it ("" for none)
    x: float = 0.0  # centre, px
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0

    @property
    def top(self) -> float:
        return self.y + self.h / 2

    @property
    def bottom(self) -> float:
        return self.y - self.h / 2


def _diagram_layout(blocks, labels, sizes):
    """Boxes of every block placed in px, bottom to top: the encoder's column on the left, the decoder's on the
    right, the first layer block of both at the same height (as in the paper); each column's masks beside it, between
    the columns. Returns (boxes by block index, column x, box width, figure width, the layers' bottom y, each
    column's layer top y)."""
    boxes = {}
    for block, label, size in zip(blocks, labels, sizes):
        masks = block.kind == "masks"
        box = _Box(block, _wrap(label, LABEL_PX), "" if masks else size)
        texts = [*box.lines, box.size]
        box.w = max(text_px(t, DIAGRAM_TEXT_PX) for t in texts) + 2 * PAD_PX
        box.h = LINE_PX * sum(1 for t in texts if t) + 2 * PAD_PX
        boxes[block.index] = box
    flows = {side: [b for b in blocks if b.side == side and b.kind != "masks"] for side in ("encoder", "decoder")}
    width = max(box.w for box in boxes.values() if box.block.kind != "masks")
    mask_w = max([box.w for box in boxes.values() if box.block.kind == "masks"], default=0)
    between = max(2 * (mask_w + 2 * SIDE_PX), 2 * SIDE_PX + 20)  # both masks side by side, or the memory arrow
    x = {"encoder": EDGE_PX + LANE_PX + width / 2}
    x["decoder"] = x["encoder"] + width + between
    for box in boxes.values():
        box.w = width if box.block.kind != "masks" else mask_w

    # heights: the blocks before the layers, the layers (aligned), the rest; the N× labels above the layers
    def stack(column, y):
        for block in column:
            box = boxes[block.index]
            box.y = y + box.h / 2
            y = box.top + GAP_PX
        return y

    before = {side: [b for b in col if not b.in_layer and not _after(b, col)] for side, col in flows.items()}
    inside = {side: [b for b in col if b.in_layer] for side, col in flows.items()}
    after = {side: [b for b in col if _after(b, col)] for side, col in flows.items()}
    start = max(stack(before[side], EDGE_PX) for side in flows)
    first = start - GAP_PX / 2  # the layers' bottom, and each column's top of its layer
    last = {}
    for side in flows:
        end = stack(inside[side], start)
        last[side] = end - GAP_PX / 2
        stack(after[side], end + 2 * LINE_PX + GAP_PX)  # room for "N× = 2 / layer 1" over the layer
    for side, column in flows.items():
        for block in column:
            boxes[block.index].x = x[side]
    for box in boxes.values():  # masks beside the first attention they go into, between the columns
        if box.block.kind == "masks":
            attention = next(b for b in flows[box.block.side] if b.kind.endswith("attention"))
            box.y = boxes[attention.index].y
            sign = 1 if box.block.side == "encoder" else -1
            box.x = x[box.block.side] + sign * (width / 2 + SIDE_PX + mask_w / 2)
    total = math.ceil(x["decoder"] + width / 2 + LANE_PX + EDGE_PX)
    return boxes, x, width, total, first, last


def _after(block, column) -> bool:
    """Whether block comes after the column's layers (linear, softmax, loss, a final LayerNorm)."""
    layered = [i for i, b in enumerate(column) if b.in_layer]
    return bool(layered) and not block.in_layer and column.index(block) > layered[-1]


def _column_lines(column, boxes, x: float, width: float, outer: int) -> tuple[list[dict], list[dict]]:
    """(shapes, annotations) of one column: the data flowing up it, and a residual connection from below each
    sublayer (and its pre-norm) into its Add & Norm (or Add), on the column's outer side (outer: −1 left, 1 right)."""
    shapes, notes = [], []
    for lower, upper in zip(column, column[1:]):
        notes.append(_arrow(x, boxes[lower.index].top, x, boxes[upper.index].bottom))
    lane = x + outer * (width / 2 + LANE_PX - 4)
    for i, block in enumerate(column):
        if block.kind not in ("add_norm", "add") or i == 0:
            continue
        j = i - 2 if i >= 2 and column[i - 2].kind == "norm" and column[i - 1].kind != "norm" else i - 1
        branch = boxes[column[j].index].bottom - GAP_PX / 2
        into = boxes[block.index]
        shapes.append(
            dict(type="path", path=f"M {x},{branch} H {lane} V {into.y}", line=dict(color=LINE_COLOR, width=1.5))
        )
        notes.append(_arrow(lane, into.y, x + outer * width / 2, into.y))
    return shapes, notes


def _layer_box(side: str, x: float, width: float, bottom: float, top: float, text: str) -> tuple[dict, dict]:
    """(shape, annotation): the dashed N× box around a column's layer, from bottom to top, and its text above it."""
    x0 = x - width / 2 - (LANE_PX + 6 if side == "encoder" else 6)
    x1 = x + width / 2 + (LANE_PX + 6 if side == "decoder" else 6)
    shape = dict(
        type="rect", x0=x0, x1=x1, y0=bottom - 4, y1=top + 4, line=dict(color="#888888", width=1.5, dash="dash")
    )
    note = dict(x=x0 if side == "encoder" else x1, y=top + 6, text=text, showarrow=False, yanchor="bottom",
                xanchor="left" if side == "encoder" else "right", align="left" if side == "encoder" else "right",
                font=dict(size=DIAGRAM_TEXT_PX, color="#555555"))  # fmt: skip
    return shape, note


def _column_titles(flows, boxes, column_x, last, titles: dict[str, str]) -> tuple[list[dict], float]:
    """(annotations, the figure's top y): each column's name over it, above its N× label when it has layers."""
    notes, top = [], max(box.top for box in boxes.values())
    for side, label in titles.items():
        if flows[side]:
            head = max(boxes[b.index].top for b in flows[side])
            if any(b.in_layer for b in flows[side]):
                head = max(head, last[side] + 2 * LINE_PX + 8)  # over the N× label
            notes.append(dict(x=column_x[side], y=head + 4, text=f"<b>{label}</b>", showarrow=False, yanchor="bottom",
                              font=dict(size=DIAGRAM_TEXT_PX + 2)))  # fmt: skip
            top = max(top, head + 4 + LINE_PX + 6)
    return notes, top


def _side_inputs(flows, boxes, column_x, width: float, masked: set[int]) -> tuple[list[dict], list[dict]]:
    """(shapes, annotations) of the inputs that enter a block from the side: the encoder's output into the
    cross-attention (its K and V), and each mask into the attention blocks in masked."""
    shapes, notes = [], []
    encoder_out = flows["encoder"][-1] if flows["encoder"] else None
    cross = [b for b in flows["decoder"] if b.kind == "cross_attention"]
    middle = (column_x["encoder"] + column_x["decoder"]) / 2
    if encoder_out is not None and cross:
        src, dst = boxes[encoder_out.index], boxes[cross[0].index]
        y_in = dst.y + dst.h / 4
        shapes.append(
            dict(type="path", path=f"M {src.x + width / 2},{src.y} H {middle} V {y_in}",
                 line=dict(color=LINE_COLOR, width=1.5))
        )  # fmt: skip
        notes.append(_arrow(middle, y_in, dst.x - width / 2, y_in))
    for box in boxes.values():
        if box.block.kind != "masks":
            continue
        side = box.block.side
        sign = 1 if side == "encoder" else -1  # where the column is: left of an encoder mask, right of a decoder one
        for target in [boxes[b.index] for b in flows[side] if b.index in masked]:
            edge = target.x + sign * width / 2
            if abs(target.y - box.y) < 1:
                notes.append(_arrow(box.x - sign * box.w / 2, box.y, edge, box.y))
                continue
            y_in = target.y - target.h / 4
            shapes.append(
                dict(type="path", path=f"M {box.x},{box.top} V {y_in}", line=dict(color=LINE_COLOR, width=1.5))
            )
            notes.append(_arrow(box.x, y_in, edge, y_in))
    return shapes, notes


def _block_boxes(blocks, boxes, selected: int) -> tuple[list[dict], list[dict]]:
    """(shapes, annotations): each block's box in its colour (the selected one filled red) and its label and sizes."""
    shapes, notes = [], []
    for block in blocks:
        box = boxes[block.index]
        chosen = block.index == selected
        shapes.append(
            dict(
                type="rect",
                x0=box.x - box.w / 2,
                x1=box.x + box.w / 2,
                y0=box.bottom,
                y1=box.top,
                fillcolor=SELECTED_FILL if chosen else BLOCK_COLORS.get(block.kind, "#ffffff"),
                line=dict(color=CHOSEN_COLOR if chosen else "#555555", width=3 if chosen else 1),
                layer="below",
            )
        )
        text = "<br>".join(f"<b>{line}</b>" for line in box.lines)
        if box.size:
            text += f"<br><span style='color:#333333'>{box.size}</span>"
        notes.append(
            dict(x=box.x, y=box.y, text=text, showarrow=False, font=dict(size=DIAGRAM_TEXT_PX, color="#111111"),
                 name=f"block {block.index}")
        )  # fmt: skip
    return shapes, notes


def _block_targets(blocks, boxes, labels, sizes) -> go.Scatter:
    """One invisible marker per block, as large as its box: a click selects the block, a hover names it."""
    return go.Scatter(
        x=[boxes[b.index].x for b in blocks],
        y=[boxes[b.index].y for b in blocks],
        mode="markers",
        marker=dict(
            symbol="square",
            size=[min(boxes[b.index].h, boxes[b.index].w) for b in blocks],
            color="#000000",
            opacity=0.0,
        ),
        customdata=[[b.index] for b in blocks],
        text=[f"{label} · {size}" for label, size in zip(labels, sizes)],
        hovertemplate="%{text}<extra></extra>",
        showlegend=False,
        name="blocks",
    )


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
    masked: Sequence[int] | None = None,
) -> go.Figure:
    """The encoder–decoder as the paper's Figure 1: blocks (objects with .index, .kind, .side, .in_layer) in two
    columns, bottom to top, labels and sizes one text per block; a residual connection around every sublayer into
    its Add & Norm (or Add); each column's masks as a side input to the attention blocks in masked (indexes; None:
    every attention block); the N× layer boxes dashed; the selected block filled red.

    Drawn in px (layout width and height, one data unit per px) with every text at DIAGRAM_TEXT_PX, so each label
    fits its box at any window size: draw it at its own width (st.plotly_chart(..., width="content"))."""
    boxes, column_x, width, total, first, last = _diagram_layout(blocks, labels, sizes)
    masked = set(masked) if masked is not None else {b.index for b in blocks if b.kind.endswith("attention")}
    shapes: list[dict] = []  # collected and set once: plotly's add_shape/add_annotation are slow one by one
    notes: list[dict] = []
    flows = {side: [b for b in blocks if b.side == side and b.kind != "masks"] for side in column_x}
    outer = {"encoder": -1, "decoder": 1}  # the side of a column its residual connections run on
    for side, column in flows.items():
        lines, arrows = _column_lines(column, boxes, column_x[side], width, outer[side])
        shapes += lines
        notes += arrows
        if any(b.in_layer for b in column):
            text = layers_label.format(n=n_layers)
            if layer is not None:
                text += "<br>" + layer_label.format(layer=layer + 1)
            box, note = _layer_box(side, column_x[side], width, first, last[side], text)
            shapes.append(box)
            notes.append(note)
    titles, top = _column_titles(flows, boxes, column_x, last, {"encoder": encoder_label, "decoder": decoder_label})
    notes += titles
    inputs, input_arrows = _side_inputs(flows, boxes, column_x, width, masked)
    rects, texts = _block_boxes(blocks, boxes, selected)
    shapes += inputs + rects
    notes += input_arrows + texts
    fig = go.Figure(_block_targets(blocks, boxes, labels, sizes))
    fig.update_layout(
        shapes=shapes,
        annotations=notes,
        xaxis=dict(visible=False, range=[0, total], fixedrange=True),
        yaxis=dict(visible=False, range=[0, math.ceil(top)], fixedrange=True),
        dragmode=False,
        hovermode="closest",
        clickmode="event+select",
    )
    head = 40 if title else 0
    finish(fig, title, math.ceil(top) + head)
    set_layout(fig, dict(width=total, margin=dict(l=0, r=0, t=head, b=0)))  # one data unit per px
    return fig


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
        arrowcolor=ARROW_COLOR,
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
    axis_words: dict[str, str] | None = None,
) -> go.Figure:
    """One recorded step as a heatmap: tokens on sequence axes (tokens[i] is the list for axis i, or None),
    dimensions, heads or vocabulary entries on the other; boolean masks in two colours, −∞ cells dark. axis_words
    names the axes in words ("len_q" → "query position"): the axis titles say the words, the hover both.

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
    square = col_axis == "len_k"
    (row_title, row_axis), (col_title, col_axis) = (_axis_name(a, axis_words or {}) for a in (row_axis, col_axis))
    if m.dtype == bool:  # mask_figure escapes the tokens itself
        return mask_figure(
            m, rows, cols, title=title, blocked_label=blocked_label, allowed_label=allowed_label,
            row_label=row_title, col_label=col_title,
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
    fig = _real_heatmap(m, rows, cols, row_axis, col_axis, value_label, blocked_label, square=square, integers=integers)
    set_layout(fig, dict(xaxis=dict(title=dict(text=col_title)), yaxis=dict(title=dict(text=row_title))))
    if group:  # a line between heads
        lines = [
            dict(type="line", x0=j - 0.5, x1=j - 0.5, y0=-0.5, y1=n_rows - 0.5, line=dict(color="#222222", width=2))
            for j in range(group, len(cols), group)
        ]
        fig.update_layout(shapes=lines)
    if pads or pad_cols:
        mark_padding(fig, fig.data[0], pads, pad_cols, *m.shape)
    if clickable:
        cell_clicks(fig, fig.data[0], m)
        set_layout(fig, dict(dragmode=False))
    if highlight is not None:  # the chosen cell in red, drawn as given
        r, c = highlight
        frame(fig, "x", "y", c - 0.5, c + 0.5, r - 0.5, r + 0.5, layer="above")
    finish(fig, title, height(n_rows, extra=130))
    if total > MAX_COLUMNS:
        note(fig, cap_note.format(shown=MAX_COLUMNS, total=total))
    return fig


def _axis_name(axis: str, words: dict[str, str]) -> tuple[str, str]:
    """(axis title, hover name) of a code-named axis: ("query position", "query position (len_q)") when words names
    it, else the code name for both ("" stays "")."""
    word = words.get(axis)
    return (word, f"{word} ({axis})") if word else (axis, axis)


def _real_heatmap(m, rows, cols, row_axis, col_axis, value_label, blocked_label, square, integers) -> go.Figure:
    """A real matrix on the colour scale value_scale chooses; −∞ cells dark, "−∞" written in them."""
    fmt = "{:.0f}" if integers else "{:.4f}" if max(m.shape) <= 6 else "{:.2f}"
    labels = (value_label, blocked_label, row_axis, col_axis)
    fig = values_figure(m, np.isneginf(m), rows, cols, labels, fmt, ".0f" if integers else ".4f")
    common = dict(tickmode="array", showgrid=False, zeroline=False, automargin=True, ticks="")
    every = math.ceil(len(cols) / MAX_TICKS)  # a label on every column, or on every few when there are many
    set_layout(
        fig,
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
        },
    )
    if square:
        set_layout(fig, dict(xaxis=dict(constrain="domain")))
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
            hovertemplate=f"{colon(key_label)}%{{customdata[0]}}%{{customdata[1]}}<br>{colon(weight_label)}%{{y:.4f}}"
            "<extra></extra>",
        )
    )
    set_layout(
        fig,
        dict(
            xaxis=dict(tickmode="array", tickvals=list(range(len(cols))), ticktext=cols, title=dict(text=key_label)),
            yaxis=dict(range=[0, 1.15], title=dict(text=weight_label), gridcolor="#eeeeee"),
            showlegend=False,
        ),
    )
    return finish(fig, title, 280)
