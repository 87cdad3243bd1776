"""The layers a heatmap of token positions can carry, each written once: real values on the one colour-scale rule
with the blocked (−∞) cells drawn over them, a red frame around chosen cells, and click targets over the cells.

A module of its own beside common.py (which every figure uses) because common.py would pass 600 lines with them;
it uses common.py and common.py never uses it.
"""

from __future__ import annotations

import math
import re

import numpy as np
import plotly.graph_objects as go

from .common import (
    ATTN_COLORS,
    BLOCKED_COLOR,
    CHOSEN_COLOR,
    NEG_INF,
    SIGNED_COLORS,
    cell_text,
    colon,
    colorbar,
    hover,
    matrix_trace,
    set_layout,
)

# ------------------------------------------------------------------ the colours of real values, and −∞ over them

OVERLAY = "overlay"  # meta of the heatmap that draws the blocked cells over a matrix (exports skip it)


def value_scale(z: np.ndarray, colorscale=None, zrange: tuple[float, float] | None = None) -> dict:
    """The colour scale of a heatmap of real values, one rule for every chart: values ≥ 0 on ATTN_COLORS, on a fixed
    0..1 when they all lie in it (a weight has the same colour in every chart), else over their range; values of
    either sign on SIGNED_COLORS, centred on 0. colorscale and zrange, when given, replace the choice."""
    finite = z[np.isfinite(z)]
    positive = finite.size > 0 and finite.min() >= 0
    if colorscale is None:
        colorscale = ATTN_COLORS if positive else SIGNED_COLORS
    if zrange is None and colorscale == ATTN_COLORS and positive and finite.max() <= 1:
        zrange = (0, 1)
    if zrange is not None:
        return dict(colorscale=colorscale, zmin=zrange[0], zmax=zrange[1])
    return dict(colorscale=colorscale, zmid=0 if colorscale == SIGNED_COLORS else None)


def blocked_overlay(blocked: np.ndarray, rows, cols, blocked_label, row_label, col_label, value_label) -> go.Heatmap:
    """The blocked cells [Lq, Lk] (True) of a matrix, to draw over it: one dark colour, "−∞" written in each, and a
    hover that says the value is −∞ because the cell is blocked."""
    return matrix_trace(
        np.where(blocked, 0.0, np.nan),
        rows,
        cols,
        name=blocked_label,
        colorscale=[[0, BLOCKED_COLOR], [1, BLOCKED_COLOR]],
        showscale=False,
        meta=OVERLAY,  # drawn over the matrix, not a matrix of its own
        hoverongaps=False,
        text=np.where(blocked, NEG_INF, "").tolist(),
        texttemplate="%{text}",
        textfont=dict(color="white"),
        hovertemplate=hover(row_label, col_label, f"{colon(value_label)}{NEG_INF} ({blocked_label})"),
    )


def values_figure(
    v: np.ndarray,
    blocked: np.ndarray,
    rows: list[str],
    cols: list[str],
    labels: tuple[str, str, str, str],
    fmt: str = "{:.2f}",
    hover_fmt: str = ".4f",
    colorscale=None,
    zrange: tuple[float, float] | None = None,
) -> go.Figure:
    """Real values v [Lq, Lk] as a heatmap on value_scale's colours, their numbers written in small matrices; the
    blocked cells (True) are gaps in it, drawn by blocked_overlay over them. labels: (value, blocked, row, column)."""
    value_label, blocked_label, row_label, col_label = labels
    shown = np.where(blocked, np.nan, v)  # (Lq, Lk); blocked cells become gaps
    text = cell_text(shown, fmt)
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
            hovertemplate=hover(row_label, col_label, f"{colon(value_label)}%{{z:{hover_fmt}}}"),
            **value_scale(shown, colorscale, zrange),
        )
    )
    if blocked.any():
        fig.add_trace(blocked_overlay(blocked, rows, cols, blocked_label, row_label, col_label, value_label))
    return fig


# ------------------------------------------------------------------ a chosen cell, head or subplot, framed in red


def frame(fig: go.Figure, xref: str, yref: str, x0, x1, y0, y1, layer: str | None = None) -> None:
    """A red frame (CHOSEN_COLOR) around x0..x1 × y0..y1 of the axes xref, yref: a chosen cell, head or subplot."""
    line = dict(color=CHOSEN_COLOR, width=3)
    fig.add_shape(type="rect", xref=xref, yref=yref, x0=x0, x1=x1, y0=y0, y1=y1, layer=layer, line=line)


def outline_cells(fig: go.Figure, trace, cells, n_rows: int, n_cols: int) -> None:
    """A red outline around each (row, column) cell of trace's heatmap, over the padding bands."""
    xref, yref = trace.xaxis or "x", trace.yaxis or "y"
    for i, j in indexes_2d(cells, n_rows, n_cols):
        frame(fig, xref, yref, j - 0.5, j + 0.5, i - 0.5, i + 0.5, layer="above")


def indexes_2d(cells, n_rows: int, n_cols: int) -> list[tuple[int, int]]:
    """cells as sorted unique (row, column) pairs; ValueError for one outside the n_rows × n_cols matrix."""
    out = sorted({(int(i), int(j)) for i, j in cells})
    bad = [c for c in out if not (0 <= c[0] < n_rows and 0 <= c[1] < n_cols)]
    if bad:
        raise ValueError(f"marks must be cells of the {n_rows} × {n_cols} matrix, got {bad}.")
    return out


# ------------------------------------------------------------------ cells a click selects

CLICK_MARKER_PX = (8, 30, 400)  # a click marker's size: at least 8 px, at most 30, about 400 px over the longer side


def click_markers(x, y, customdata, hovertemplate: str, size: int = 8, **kw) -> dict:
    """Invisible square markers at (x, y) that carry customdata and the hover, so that a click selects a point in
    Streamlit: the click layer of every chart that selects cells or heads (a heatmap itself cannot be selected)."""
    marker = dict(symbol="square", opacity=0, size=size)
    return dict(type="scatter", x=x, y=y, customdata=customdata, mode="markers", marker=marker,
                hovertemplate=hovertemplate, showlegend=False, **kw)  # fmt: skip


def cell_clicks(fig: go.Figure, heatmap: go.Heatmap, values: np.ndarray) -> None:
    """Make every cell of heatmap (a matrix_trace of fig, values [Lq, Lk] its numbers) a click target: an invisible
    marker at the cell's centre carries its customdata, its value as text ("−∞" where blocked) and its hover, and
    every heatmap of fig stops hovering, so the cell under the pointer is the one a click selects in Streamlit (a
    heatmap cannot be selected); clicked_cell reads the click back."""
    custom = np.array(heatmap.customdata, dtype=object)  # (Lq, Lk, 5)
    n_rows, n_cols = custom.shape[:2]
    shown = [[NEG_INF if math.isinf(v) else f"{v:.4f}" for v in row] for row in values.tolist()]  # (Lq, Lk)
    custom = np.concatenate([custom, np.array(shown, dtype=object)[..., None]], axis=-1)  # (Lq, Lk, 6)
    rows, cols = np.meshgrid(range(n_rows), range(n_cols), indexing="ij")  # (Lq, Lk) each
    low, high, span = CLICK_MARKER_PX
    fig.update_traces(hoverinfo="skip", selector=dict(type="heatmap"))
    fig.add_trace(
        click_markers(
            cols.ravel().tolist(),
            rows.ravel().tolist(),
            custom.reshape(n_rows * n_cols, 6).tolist(),  # (Lq·Lk, 6), row by row
            re.sub(r"%\{z(:[^}]*)?\}", "%{customdata[5]}", heatmap.hovertemplate),
            size=max(low, min(high, span // max(n_rows, n_cols))),
            xaxis=heatmap.xaxis,
            yaxis=heatmap.yaxis,
        )
    )
    set_layout(fig, dict(hovermode="closest", hoverdistance=-1, clickmode="event+select"))  # the nearest cell


def clicked_cell(selection) -> tuple[int, int] | None:
    """(row, column) of the first clicked cell in a Streamlit plotly selection of a figure with cell_clicks."""
    points = (selection or {}).get("points") or []
    for point in points:
        custom = point.get("customdata")
        if isinstance(custom, (list, tuple)) and len(custom) == 6:
            return int(custom[3]), int(custom[4])
    return None
