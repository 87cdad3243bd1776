"""All heads of one attention kind at a glance: small multiples of their mean maps, and one statistic per head.

Plotly heatmaps cannot be clicked into a Streamlit selection, so every clickable figure here lays invisible
markers over its cells (one per cell); a click selects one, and its customdata starts with [layer, head]
(0-based). clicked_head reads that back from `st.plotly_chart(..., on_select="rerun", selection_mode="points")`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .common import (
    ATTN_COLORS,
    ENTROPY_COLORS,
    colon,
    colorbar,
    finish,
    floats,
    label_px,
    nullable,
    token_labels,
)
from .layers import click_markers, frame

MAX_HOVER_CELLS = 40_000  # above this many cells in all heads together, one marker per head instead of per cell
POSITION_TICKS_EACH = 8  # up to this many positions, each has its tick label; beyond, every other one
TICKS_UP_TO = (4, 12)  # token ticks only with at most 4 heads per row and 12 tokens per side; the hover has them


def head_title(layer: int, head: int, layer_label: str = "layer", head_label: str = "head", sep: str = " · ") -> str:
    """'layer 1 · head 2' for 0-based (layer, head)."""
    return f"{layer_label} {layer + 1}{sep}{head_label} {head + 1}"


def clicked_head(selection) -> tuple[int, int] | None:
    """(layer, head) of the first clicked point in a Streamlit plotly selection of a figure from here, or None."""
    points = (selection or {}).get("points") or []
    for point in points:
        custom = point.get("customdata")
        if isinstance(custom, (list, tuple)) and len(custom) >= 2:
            return int(custom[0]), int(custom[1])
    return None


def _where(tokens: list[str] | None, position: int) -> str:
    """'love (#2)' with tokens, '2' without."""
    return f"{tokens[position]} (#{position})" if tokens else str(position)


@dataclass(frozen=True)
class _Grid:
    """Where each head's subplot sits in a grid of layers × heads, in px and in fractions of the figure."""

    n_layers: int
    n_heads: int
    ticks: bool  # tick labels drawn (few heads and short sentences); else the hover has them
    col_every: int  # a column tick label every this many columns
    per_plot: int  # px of one subplot's height
    gap: int  # px between grid rows: the x ticks and the next row's titles
    title_px: int  # px of a subplot's title
    two_lines: bool  # "layer 6 · head 16" on two lines: it does not fit over a narrow subplot
    h_space: float  # fraction of the width between columns
    width: float  # fraction of the width of one subplot

    @property
    def plot_px(self) -> int:
        """The height of every row of subplots and the gaps between them."""
        return self.n_layers * self.per_plot + (self.n_layers - 1) * self.gap

    def top(self, layer: int) -> float:
        """The top of layer's row, as a fraction of the plot's height."""
        return 1 - layer * (self.per_plot + self.gap) / self.plot_px

    def y_domain(self, layer: int) -> list[float]:
        """[bottom, top] of layer's row, as fractions of the plot's height."""
        top = self.top(layer)
        return [max(0.0, top - self.per_plot / self.plot_px), top]

    def x_domain(self, head: int) -> list[float]:
        """[left, right] of head's column, as fractions of the plot's width."""
        left = head * (self.width + self.h_space)
        return [left, min(1.0, left + self.width)]  # the sum of the last column's parts can round just above 1


def _grid(n_layers: int, n_heads: int, n_rows: int, col_ticks: list[str], positions: bool) -> _Grid:
    """The grid's sizes in px: subplots shrink with more heads; between grid rows go the x ticks and the next titles.
    positions: the columns are positions 0, 1, … rather than one sentence's tokens."""
    n_cols = len(col_ticks)
    ticks = n_heads <= TICKS_UP_TO[0] and max(n_rows, n_cols) <= TICKS_UP_TO[1]
    two_lines = n_heads > 8
    title_px = 34 if two_lines else 22
    h_space = 0.06 if ticks else min(0.04, 0.3 / n_heads)
    return _Grid(
        n_layers=n_layers,
        n_heads=n_heads,
        ticks=ticks,
        # positions beyond 8 side by side under a subplot of a few hundred px: every other one, or they touch
        col_every=2 if positions and n_cols > POSITION_TICKS_EACH else 1,
        per_plot=int(min(220, max(60, 880 / n_heads))),
        gap=title_px + (8 + label_px(col_ticks) if ticks else 6),  # the labels as finish() cuts them
        title_px=title_px,
        two_lines=two_lines,
        h_space=h_space,
        width=(1 - (n_heads - 1) * h_space) / n_heads,
    )


def _head_heatmap(z, layer: int, head: int, x: str, y: str, name: str, value_label: str) -> dict:
    """One head's mean map (Lq, Lk) on the shared 0..1 scale; its colour bar drawn once, by the first head."""
    n_rows, n_cols = z.shape
    return dict(
        type="heatmap",
        z=nullable(np.round(z, 4)),
        x=np.arange(n_cols),
        y=np.arange(n_rows),
        xaxis=x,
        yaxis=y,
        zmin=0,
        zmax=1,
        colorscale=ATTN_COLORS,
        showscale=x == "x",  # the first head's subplot
        colorbar=colorbar(value_label),
        hoverinfo="skip",
        name=name,
        meta=[layer, head],
    )


def _head_clicks(z, layer: int, head: int, rows, cols, name: str, cell_lines: list[str], per_cell: bool) -> go.Scatter:
    """The invisible markers that make one head clickable: one per real cell with its hover, else one in the middle
    (the nearest marker to any point of the subplot)."""
    n_rows, n_cols = z.shape
    if not per_cell:
        return click_markers([(n_cols - 1) / 2], [(n_rows - 1) / 2], [[layer, head]], name + "<extra></extra>")
    ii, jj = np.meshgrid(range(n_rows), range(n_cols), indexing="ij")  # (Lq, Lk) each
    real = np.isfinite(z)  # rows no sentence reaches are left out
    i, j = ii[real], jj[real]
    custom = np.empty((len(i), 5), dtype=object)  # (cells, 5): layer, head, row, column, weight
    custom[:, 0], custom[:, 1] = layer, head
    custom[:, 2] = [_where(rows, a) for a in i.tolist()]
    custom[:, 3] = [_where(cols, b) for b in j.tolist()]
    custom[:, 4] = np.round(z[real], 4)
    return click_markers(j, i, custom, "<br>".join([name, *cell_lines]) + "<extra></extra>")


def _head_axes(grid: _Grid, layer: int, head: int, x: str, y: str, row_ticks: list[str], col_ticks: list[str]) -> dict:
    """The layout's x and y axes of one head's subplot: tick labels under the last row and left of the first column."""
    n_rows, n_cols, col_every, ticks = len(row_ticks), len(col_ticks), grid.col_every, grid.ticks
    common = dict(tickmode="array", showgrid=False, zeroline=False, ticks="")
    x_axis = dict(
        common,
        domain=grid.x_domain(head),
        anchor=y,
        tickvals=list(range(0, n_cols, col_every)),
        ticktext=col_ticks[::col_every],
        range=[-0.5, n_cols - 0.5],
        showticklabels=ticks and layer == grid.n_layers - 1,
    )
    y_axis = dict(
        common,
        domain=grid.y_domain(layer),
        anchor=x,
        tickvals=list(range(n_rows)),
        ticktext=row_ticks,
        range=[n_rows - 0.5, -0.5],  # row 0 on top
        showticklabels=ticks and head == 0,
    )
    return {"xaxis" + x[1:]: x_axis, "yaxis" + y[1:]: y_axis}


def _head_title(grid: _Grid, layer: int, head: int, layer_label: str, head_label: str) -> dict:
    """The annotation over one head's subplot: "layer l · head h", on two lines over narrow subplots."""
    return dict(
        text=head_title(layer, head, layer_label, head_label, "<br>" if grid.two_lines else " · "),
        x=sum(grid.x_domain(head)) / 2,
        y=grid.top(layer),
        xref="paper",
        yref="paper",
        xanchor="center",
        yanchor="bottom",
        showarrow=False,
        font=dict(size=11 if grid.n_heads > 4 else 12),
    )


def head_patterns_figure(
    patterns,
    row_tokens=None,
    col_tokens=None,
    layer_label="layer",
    head_label="head",
    title="",
    value_label="weight",
    row_label="query",
    col_label="key",
    chosen: tuple[int, int] | None = None,
) -> go.Figure:
    """Small multiples of patterns [layer, head, Lq, Lk] (rows = layers, columns = heads), each titled
    "layer l · head h", on one 0..1 colour scale; chosen (layer, head) is framed. Without tokens the ticks and
    the hover show positions 0, 1, … (the mean maps of a dataset have no one sentence's tokens)."""
    p = floats(patterns, 4, "patterns")  # (n_layers, H, Lq, Lk)
    n_layers, n_heads, n_rows, n_cols = p.shape
    rows = token_labels(row_tokens, n_rows, "row_tokens", "rows") if row_tokens is not None else None
    cols = token_labels(col_tokens, n_cols, "col_tokens", "columns") if col_tokens is not None else None
    row_ticks = rows or [str(i) for i in range(n_rows)]
    col_ticks = cols or [str(j) for j in range(n_cols)]
    grid = _grid(n_layers, n_heads, n_rows, col_ticks, positions=cols is None)
    per_cell = n_layers * n_heads * n_rows * n_cols <= MAX_HOVER_CELLS
    cell_lines = [
        f"{colon(row_label)}%{{customdata[2]}}",
        f"{colon(col_label)}%{{customdata[3]}}",
        f"{colon(value_label)}%{{customdata[4]:.4f}}",
    ]
    data, layout, titles = [], {}, []
    for l in range(n_layers):
        for h in range(n_heads):
            k = l * n_heads + h + 1
            x, y = f"x{k}" if k > 1 else "x", f"y{k}" if k > 1 else "y"  # this subplot's axes
            name = head_title(l, h, layer_label, head_label)
            data.append(_head_heatmap(p[l, h], l, h, x, y, name, value_label))
            clicks = _head_clicks(p[l, h], l, h, rows, cols, name, cell_lines, per_cell)
            clicks.update(xaxis=x, yaxis=y, meta=[l, h])
            data.append(clicks)
            layout.update(_head_axes(grid, l, h, x, y, row_ticks, col_ticks))
            titles.append(_head_title(grid, l, h, layer_label, head_label))
    fig = go.Figure(data=data, layout=dict(layout, annotations=titles))
    if chosen is not None and 0 <= chosen[0] < n_layers and 0 <= chosen[1] < n_heads:
        trace = fig.data[2 * (chosen[0] * n_heads + chosen[1])]
        frame(fig, f"{trace.xaxis} domain", f"{trace.yaxis} domain", 0, 1, 0, 1)
    finish(fig, title, grid.plot_px + (60 if title else 30) + grid.gap + 10)
    fig.update_layout(margin=dict(t=(60 if title else 30) + grid.title_px - 22))  # room for the top row's titles
    fig.update_layout(hovermode="closest", hoverdistance=-1)  # the nearest marker is the cell under the pointer
    return fig


def head_stat_figure(
    stats: Sequence,
    statistic: str,
    layer_label="layer",
    head_label="head",
    title="",
    value_label="",
    chosen: tuple[int, int] | None = None,
) -> go.Figure:
    """One statistic of every head (HeadStats records) as a layers × heads grid with the values written in;
    shares on a fixed 0..1 scale, entropy from 0 to its largest value. Missing values (None) stay blank."""
    if not stats:
        raise ValueError("stats is empty: compute the head statistics first.")
    if not hasattr(stats[0], statistic):
        raise ValueError(f"unknown statistic {statistic!r}.")
    n_layers = 1 + max(s.layer for s in stats)
    n_heads = 1 + max(s.head for s in stats)
    z = np.full((n_layers, n_heads), np.nan)  # (layers, heads)
    for s in stats:
        value = getattr(s, statistic)
        z[s.layer, s.head] = math.nan if value is None else float(value)
    entropy = statistic.startswith("entropy")
    top = float(np.nanmax(z)) if entropy and np.isfinite(z).any() else 1.0
    label = value_label or statistic
    text = [[f"{v:.2f}" if math.isfinite(v) else "" for v in row] for row in z.tolist()] if n_heads <= 16 else None
    heat = go.Heatmap(
        z=nullable(z),
        x=list(range(n_heads)),
        y=list(range(n_layers)),
        zmin=0,
        zmax=max(top, 1e-9),
        colorscale=ENTROPY_COLORS if entropy else ATTN_COLORS,
        colorbar=colorbar(label),
        text=text,
        texttemplate="%{text}" if text else None,
        hoverinfo="skip",
        xgap=2,
        ygap=2,
        name=label,
    )
    layers, heads = np.meshgrid(range(n_layers), range(n_heads), indexing="ij")  # (layers, heads) each
    custom = [
        [l, h, "–" if math.isnan(v) else f"{v:.4f}", head_title(l, h, layer_label, head_label)]
        for l, h, v in zip(layers.ravel().tolist(), heads.ravel().tolist(), z.ravel().tolist())
    ]
    clicks = click_markers(
        heads.ravel().tolist(),
        layers.ravel().tolist(),
        custom,
        f"%{{customdata[3]}}<br>{colon(label)}%{{customdata[2]}}<extra></extra>",
    )
    fig = go.Figure([heat, clicks])  # plain dicts: plotly checks every property once, here
    common = dict(tickmode="array", showgrid=False, zeroline=False, ticks="")
    fig.update_layout(
        xaxis=dict(
            common,
            tickvals=list(range(n_heads)),
            ticktext=[str(h + 1) for h in range(n_heads)],
            title=dict(text=head_label),
            range=[-0.5, n_heads - 0.5],
        ),
        yaxis=dict(
            common,
            tickvals=list(range(n_layers)),
            ticktext=[str(l + 1) for l in range(n_layers)],
            title=dict(text=layer_label),
            range=[n_layers - 0.5, -0.5],  # layer 1 on top
        ),
    )
    if chosen is not None and 0 <= chosen[0] < n_layers and 0 <= chosen[1] < n_heads:
        l, h = chosen
        frame(fig, "x", "y", h - 0.5, h + 0.5, l - 0.5, l + 0.5)
    finish(fig, title, int(min(420, max(160, 48 * n_layers + 110))))
    fig.update_layout(hovermode="closest", hoverdistance=-1)
    return fig
