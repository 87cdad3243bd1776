"""Masks and the attention scores they act on: blocked cells drawn dark, −∞ written in them."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .common import (
    ALLOWED_COLOR,
    ATTN_COLORS,
    BLOCKED_COLOR,
    NEG_INF,
    as_array,
    cell_text,
    colorbar,
    finish,
    floats,
    height,
    hover,
    matrix_trace,
    token_axes,
    token_labels,
)


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
    m = as_array(mask, 2, "mask").astype(bool)  # (Lq, Lk)
    rows = token_labels(row_tokens, m.shape[0], "row_tokens", "rows")
    cols = token_labels(col_tokens, m.shape[1], "col_tokens", "columns")
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
    v = floats(values, 2, "values")  # (Lq, Lk)
    rows = token_labels(row_tokens, v.shape[0], "row_tokens", "rows")
    cols = token_labels(col_tokens, v.shape[1], "col_tokens", "columns")
    blocked = np.isneginf(v)
    if mask is not None:
        m = as_array(mask, 2, "mask").astype(bool)
        if m.shape != v.shape:
            raise ValueError(f"mask has shape {tuple(m.shape)} but values have shape {tuple(v.shape)}.")
        blocked |= m
    shown = np.where(blocked, np.nan, v)  # blocked cells become gaps
    finite = shown[np.isfinite(shown)]
    if colorscale is None:
        colorscale = ATTN_COLORS if finite.size and finite.min() >= 0 else "RdBu_r"
    diverging = colorscale == "RdBu_r"
    text = cell_text(shown)
    main = matrix_trace(
        shown,
        rows,
        cols,
        name=value_label,
        colorscale=colorscale,
        zmid=0 if diverging else None,
        colorbar=colorbar(value_label),
        hoverongaps=False,
        text=text,
        texttemplate="%{text}" if text else None,
        hovertemplate=hover(row_label, col_label, f"{value_label}: %{{z:.4f}}"),
    )
    fig = go.Figure(main)
    if blocked.any():
        # second trace: only the blocked cells, one dark colour, "−∞" written in each
        fig.add_trace(
            matrix_trace(
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
                hovertemplate=hover(row_label, col_label, f"{value_label}: {NEG_INF} ({blocked_label})"),
            )
        )
    token_axes(fig, fig.data[0], rows, cols, row_label, col_label)
    return finish(fig, title, height(len(rows)))
