"""Masks and the attention scores they act on: blocked cells drawn dark, −∞ written in them."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .common import (
    ALLOWED_COLOR,
    ATTN_COLORS,
    BLOCKED_COLOR,
    CELL_PX,
    SIGNED_COLORS,
    as_array,
    colorbar,
    finish,
    floats,
    height,
    hover,
    matrix_labels,
    matrix_trace,
    set_layout,
    token_axes,
)
from .layers import values_figure


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
    """A boolean mask [Lq, Lk] (True = blocked) in two colours, with a colourbar naming them; mask=None (a mask
    the model does not use) blocks nothing."""
    if mask is None:
        mask = np.zeros((len(list(row_tokens)), len(list(col_tokens))), dtype=bool)
    m = as_array(mask, 2, "mask").astype(bool)  # (Lq, Lk)
    rows, cols = matrix_labels(row_tokens, col_tokens, *m.shape)
    scale = [[0, ALLOWED_COLOR], [0.5, ALLOWED_COLOR], [0.5, BLOCKED_COLOR], [1, BLOCKED_COLOR]]
    trace = matrix_trace(
        m.astype(int),
        rows,
        cols,
        extra=np.where(m, blocked_label, allowed_label).astype(object),
        zmin=0,
        zmax=1,
        colorscale=scale,
        name=title or "mask",
        colorbar=colorbar(
            tickmode="array",
            tickvals=[0.25, 0.75],
            ticktext=[allowed_label, blocked_label],
            len=0.5,
            yanchor="top",
            y=1,
        ),
        hovertemplate=hover(row_label, col_label, "<b>%{customdata[2]}</b>"),
    )
    fig = go.Figure(trace)
    token_axes(fig, fig.data[0], rows, cols, row_label, col_label)
    return finish(fig, title, height(len(rows)))


EFFECT_TOP, EFFECT_BOTTOM = 10, 100  # px above the grid, and below it for the key tokens, their title and the colourbar


def mask_effect_figures(
    scores,
    mask,
    weights,
    row_tokens,
    col_tokens,
    score_label="score",
    weight_label="weight",
    blocked_label="blocked",
    row_label="query",
    col_label="key",
) -> tuple[go.Figure, go.Figure, go.Figure]:
    """What a mask does, as three figures drawn to line up in a row: the scaled scores [Lq, Lk], the same scores
    with the blocked cells (mask True; None blocks nothing) set to −∞, and the softmax weights.

    The three share one layout (height, margins, a horizontal colourbar under the grid in the same place), the
    two score figures share one colour range, and the values are written in the cells, as large as the cells allow
    (up to the figure's font size).
    """
    s = floats(scores, 2, "scores")  # (Lq, Lk)
    w = floats(weights, 2, "weights")  # (Lq, Lk)
    if w.shape != s.shape:
        raise ValueError(f"weights have shape {tuple(w.shape)} but scores have shape {tuple(s.shape)}.")
    finite = s[np.isfinite(s)]
    bound = float(np.abs(finite).max()) if finite.size else 1.0
    labels = (row_label, col_label)
    scaled = (*labels, SIGNED_COLORS, (-bound, bound), "{:.1f}")  # one decimal: the number fits a narrow cell at 12 px
    figures = (
        _matrix_figure(s, row_tokens, col_tokens, score_label, None, blocked_label, *scaled),
        _matrix_figure(s, row_tokens, col_tokens, score_label, mask, blocked_label, *scaled),
        _matrix_figure(
            w, row_tokens, col_tokens, weight_label, None, blocked_label, *labels, ATTN_COLORS, (0, 1), "{:.2f}"
        ),
    )
    grid = int(min(520, max(180, s.shape[0] * CELL_PX)))  # the grid's height in px, when the width allows it
    for fig, label in zip(figures, (score_label, score_label, weight_label)):
        fig.data[0].colorbar = dict(
            title=dict(text=label, side="right"),
            orientation="h",
            nticks=5,  # as many labels as fit under the narrowest grid
            thickness=10,
            outlinewidth=0,
            len=0.8,
            x=0.5,
            xanchor="center",
            yref="container",
            y=0,
            yanchor="bottom",
        )
        finish(fig, "", EFFECT_TOP + grid + EFFECT_BOTTOM)
        set_layout(fig, dict(margin=dict(t=EFFECT_TOP, b=EFFECT_BOTTOM)))
    return figures


def _matrix_figure(
    values,
    row_tokens,
    col_tokens,
    value_label,
    mask,
    blocked_label,
    row_label,
    col_label,
    colorscale=None,
    zrange: tuple[float, float] | None = None,
    fmt: str = "{:.2f}",
) -> go.Figure:
    """values [Lq, Lk] as a heatmap on token axes; −∞ or masked cells drawn dark with "−∞" written in them."""
    v = floats(values, 2, "values")  # (Lq, Lk)
    rows, cols = matrix_labels(row_tokens, col_tokens, *v.shape)
    blocked = np.isneginf(v)
    if mask is not None:
        m = as_array(mask, 2, "mask").astype(bool)
        if m.shape != v.shape:
            raise ValueError(f"mask has shape {tuple(m.shape)} but values have shape {tuple(v.shape)}.")
        blocked |= m
    labels = (value_label, blocked_label, row_label, col_label)
    fig = values_figure(v, blocked, rows, cols, labels, fmt, colorscale=colorscale, zrange=zrange)
    token_axes(fig, fig.data[0], rows, cols, row_label, col_label)
    return fig
