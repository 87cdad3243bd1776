"""Word alignment: the alignment error rate of every cross-attention head as a layers × heads grid, and gold links
drawn over a cross-attention map."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import plotly.graph_objects as go

from .common import (
    ATTN_COLORS,
    LOWER_IS_BETTER_AVERAGED,
    cell_text,
    colon,
    colorbar,
    finish,
    height,
    nullable,
    set_layout,
)
from .layers import frame

# a gold link marks its cell with a triangle in the cell's top-left corner, its legs GOLD_CORNER of the cell: the
# number written at the cell's centre stays whole (a dot over the centre hid it). Sure: dark with a white edge,
# possible: white with a dark edge, each seen on pale and on dark cells.
GOLD_CORNER = 0.24
SURE_MARK = dict(fillcolor="#000000", line=dict(color="#ffffff", width=1.5))
POSSIBLE_MARK = dict(fillcolor="#ffffff", line=dict(color="#000000", width=1.5))
GOLD_MARK = "gold link"  # the name of every gold mark's shape


def aer_grid_figure(
    aer,
    layer_label="layer",
    head_label="head",
    average_label="average",
    value_label="AER",
    title="",
    best: tuple[int, int] | None = None,
) -> go.Figure:
    """aer [n_layers, n_heads + 1]: each head's AER and, in the last column, the AER of the layer's head average, on
    a fixed 0..1 scale (0 = every link right) with the values written in; best = (layer, column) is framed in red.
    A missing value (NaN) stays blank."""
    z = np.asarray(aer, dtype=float)  # (layers, heads + 1)
    if z.ndim != 2 or z.shape[1] < 2:
        raise ValueError(f"aer must be [n_layers, n_heads + 1], got shape {z.shape}.")
    n_layers, n_cols = z.shape
    cols = [f"{head_label} {h + 1}" for h in range(n_cols - 1)] + [average_label]
    rows = [f"{layer_label} {layer + 1}" for layer in range(n_layers)]
    text = cell_text(z, "{:.2f}", blank="")
    custom = [[[rows[i], cols[j], "–" if math.isnan(z[i, j]) else f"{z[i, j]:.3f}"] for j in range(n_cols)]
              for i in range(n_layers)]  # fmt: skip
    fig = go.Figure(
        go.Heatmap(
            z=nullable(z),
            x=list(range(n_cols)),
            y=list(range(n_layers)),
            zmin=0,
            zmax=1,
            colorscale=ATTN_COLORS,
            colorbar=colorbar(value_label),
            text=text,
            texttemplate="%{text}" if text else None,
            customdata=custom,
            hovertemplate=f"%{{customdata[0]}} · %{{customdata[1]}}<br>{colon(value_label)}%{{customdata[2]}}"
            "<extra></extra>",
            xgap=2,
            ygap=2,
            name=value_label,
            meta=LOWER_IS_BETTER_AVERAGED,  # the best head is the lowest (ui.exercises asks for it)
        )
    )
    common = dict(tickmode="array", showgrid=False, zeroline=False, ticks="")
    set_layout(
        fig,
        dict(
            xaxis=dict(common, tickvals=list(range(n_cols)), ticktext=cols, range=[-0.5, n_cols - 0.5]),
            yaxis=dict(common, tickvals=list(range(n_layers)), ticktext=rows, autorange="reversed"),
        ),
    )
    fig.add_shape(  # the average column apart from the heads
        type="line", x0=n_cols - 1.5, x1=n_cols - 1.5, y0=-0.5, y1=n_layers - 0.5, line=dict(color="#333333", width=2)
    )
    if best is not None:
        row, col = best
        frame(fig, "x", "y", col - 0.5, col + 0.5, row - 0.5, row + 0.5, layer="above")
    return finish(fig, title, height(n_layers, extra=140, lo=200))


def gold_links_layer(
    fig: go.Figure,
    sure: Iterable[tuple[int, int]],
    possible: Iterable[tuple[int, int]] = (),
    sure_label="gold link (sure)",
    possible_label="gold link (possible)",
) -> go.Figure:
    """Mark gold links on a cross-attention map (an attention_figure: rows are decoder rows, columns source tokens),
    in place: a link (i, j) joins source token i and target token j, marked in row j, the row that predicts target
    token j, by a corner triangle (corner_mark) that leaves the cell's number whole. Sure links are dark triangles,
    possible links (not also sure) white ones; a legend entry names each kind, and neither takes hover or clicks."""
    sure = sorted(set(sure))
    only_possible = sorted(set(possible) - set(sure))
    for links, style, label in ((sure, SURE_MARK, sure_label), (only_possible, POSSIBLE_MARK, possible_label)):
        for i, j in links:
            corner_mark(fig, i, j, style)
        if links:  # the legend's entry: a triangle like the marks, no point of its own on the map
            marker = dict(symbol="triangle-nw", size=12, color=style["fillcolor"], line=style["line"])
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", marker=marker, name=label,
                                     meta={"links": [list(link) for link in links]}, hoverinfo="skip",
                                     showlegend=True))  # fmt: skip
    if sure or only_possible:
        set_layout(fig, dict(legend=dict(orientation="h", yanchor="top", y=-0.15, x=0)))
    return fig


def corner_mark(fig: go.Figure, col: int, row: int, style: dict, xref: str = "x", yref: str = "y") -> None:
    """A triangle in the top-left corner of the cell (row, col) of a token heatmap (row 0 on top), its legs
    GOLD_CORNER of the cell, so it grows and shrinks with the cell and never reaches the number at its centre."""
    x0, y0 = col - 0.5, row - 0.5  # the cell's top-left corner (the y axis runs downwards)
    path = f"M {x0},{y0} L {x0 + GOLD_CORNER},{y0} L {x0},{y0 + GOLD_CORNER} Z"
    fig.add_shape(type="path", path=path, xref=xref, yref=yref, layer="above", name=GOLD_MARK, **style)


def aer_matrix(values: dict, n_layers: int, n_heads: int) -> np.ndarray:
    """[n_layers, n_heads + 1] from {(layer, head or None): AER or None}: head None is the layer's average."""
    z = np.full((n_layers, n_heads + 1), np.nan)
    for (layer, head), value in values.items():
        z[layer, n_heads if head is None else head] = math.nan if value is None else value
    return z


def best_cell(z: np.ndarray) -> tuple[int, int] | None:
    """(layer, column) of the lowest AER of an aer_matrix, the first on a tie; None when there is none."""
    if not np.isfinite(z).any():
        return None
    flat = int(np.nanargmin(z))
    return divmod(flat, z.shape[1])
