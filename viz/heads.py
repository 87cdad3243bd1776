"""All heads of one attention kind at a glance: small multiples of their mean maps, and one statistic per head.

Plotly heatmaps cannot be clicked into a Streamlit selection, so every clickable figure here lays invisible
markers over its cells (one per cell); a click selects one, and its customdata starts with [layer, head]
(0-based). clicked_head reads that back from `st.plotly_chart(..., on_select="rerun", selection_mode="points")`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .common import (
    ATTN_COLORS,
    ENTROPY_COLORS,
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
    ticks = n_heads <= TICKS_UP_TO[0] and max(n_rows, n_cols) <= TICKS_UP_TO[1]
    row_ticks = rows or [str(i) for i in range(n_rows)]
    col_ticks = cols or [str(j) for j in range(n_cols)]
    # positions (no tokens) beyond 8 side by side under a subplot of a few hundred px: every other one, or they touch
    col_every = 2 if cols is None and n_cols > POSITION_TICKS_EACH else 1
    # sizes in px: subplots shrink with more heads; between grid rows go the x ticks and the next titles
    two_lines = n_heads > 8  # "layer 6 · head 16" does not fit over a narrow subplot
    per_plot = int(min(220, max(60, 880 / n_heads)))
    title_px = 34 if two_lines else 22
    gap = title_px + (8 + label_px(col_ticks) if ticks else 6)  # the labels as finish() cuts them
    plot_px = n_layers * per_plot + (n_layers - 1) * gap
    h_space = 0.06 if ticks else min(0.04, 0.3 / n_heads)  # fraction of the width between columns
    width = (1 - (n_heads - 1) * h_space) / n_heads

    per_cell = n_layers * n_heads * n_rows * n_cols <= MAX_HOVER_CELLS
    cell_lines = [
        f"{row_label}: %{{customdata[2]}}",
        f"{col_label}: %{{customdata[3]}}",
        f"{value_label}: %{{customdata[4]:.4f}}",
    ]
    common = dict(tickmode="array", showgrid=False, zeroline=False, ticks="")
    ii, jj = np.meshgrid(range(n_rows), range(n_cols), indexing="ij")  # (Lq, Lk) each
    data, layout, titles = [], {}, []
    for l in range(n_layers):
        top = 1 - l * (per_plot + gap) / plot_px
        y_domain = [max(0.0, top - per_plot / plot_px), top]
        for h in range(n_heads):
            x_domain = [h * (width + h_space), h * (width + h_space) + width]
            k = l * n_heads + h + 1
            x, y = f"x{k}" if k > 1 else "x", f"y{k}" if k > 1 else "y"  # this subplot's axes
            name = head_title(l, h, layer_label, head_label)
            z = p[l, h]  # (Lq, Lk)
            data.append(
                dict(
                    type="heatmap",
                    z=nullable(np.round(z, 4)),
                    x=np.arange(n_cols),
                    y=np.arange(n_rows),
                    xaxis=x,
                    yaxis=y,
                    zmin=0,
                    zmax=1,
                    colorscale=ATTN_COLORS,
                    showscale=k == 1,
                    colorbar=colorbar(value_label),
                    hoverinfo="skip",
                    name=name,
                    meta=[l, h],
                )
            )
            if per_cell:
                real = np.isfinite(z)  # rows no sentence reaches are left out
                i, j = ii[real], jj[real]
                custom = np.empty((len(i), 5), dtype=object)  # (cells, 5): layer, head, row, column, weight
                custom[:, 0], custom[:, 1] = l, h
                custom[:, 2] = [_where(rows, a) for a in i.tolist()]
                custom[:, 3] = [_where(cols, b) for b in j.tolist()]
                custom[:, 4] = np.round(z[real], 4)
                clicks = click_markers(j, i, custom, "<br>".join([name, *cell_lines]) + "<extra></extra>")
            else:  # one marker in the middle; the nearest marker to any point of the subplot
                clicks = click_markers([(n_cols - 1) / 2], [(n_rows - 1) / 2], [[l, h]], name + "<extra></extra>")
            clicks.update(xaxis=x, yaxis=y, meta=[l, h])
            data.append(clicks)
            layout["xaxis" + x[1:]] = dict(
                common,
                domain=x_domain,
                anchor=y,
                tickvals=list(range(0, n_cols, col_every)),
                ticktext=col_ticks[::col_every],
                range=[-0.5, n_cols - 0.5],
                showticklabels=ticks and l == n_layers - 1,
            )
            layout["yaxis" + y[1:]] = dict(
                common,
                domain=y_domain,
                anchor=x,
                tickvals=list(range(n_rows)),
                ticktext=row_ticks,
                range=[n_rows - 0.5, -0.5],  # row 0 on top
                showticklabels=ticks and h == 0,
            )
            titles.append(
                dict(
                    text=head_title(l, h, layer_label, head_label, "<br>" if two_lines else " · "),
                    x=sum(x_domain) / 2,
                    y=top,
                    xref="paper",
                    yref="paper",
                    xanchor="center",
                    yanchor="bottom",
                    showarrow=False,
                    font=dict(size=11 if n_heads > 4 else 12),
                )
            )
    fig = go.Figure(data=data, layout=dict(layout, annotations=titles))
    if chosen is not None and 0 <= chosen[0] < n_layers and 0 <= chosen[1] < n_heads:
        trace = fig.data[2 * (chosen[0] * n_heads + chosen[1])]
        frame(fig, f"{trace.xaxis} domain", f"{trace.yaxis} domain", 0, 1, 0, 1)
    finish(fig, title, plot_px + (60 if title else 30) + gap + 10)
    fig.update_layout(margin=dict(t=(60 if title else 30) + title_px - 22))  # room for the top row's titles
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
        f"%{{customdata[3]}}<br>{label}: %{{customdata[2]}}<extra></extra>",
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
