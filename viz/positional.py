"""The positional-encoding table: curves per dimension, the whole table, similarity between positions."""

from __future__ import annotations

from collections.abc import Iterable

import plotly.graph_objects as go

from .common import (
    colorbar,
    finish,
    floats,
    height,
)


def pe_lines_figure(
    table, dims: Iterable[int], title="", position_label="position", value_label="value", dim_label="dim"
) -> go.Figure:
    """One line per chosen dimension of the positional-encoding table [positions, d_model] against position."""
    t = floats(table, 2, "table")  # (L, D)
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
    return finish(fig, title, 340)


def pe_heatmap_figure(
    table, title="", position_label="position", dim_label="dimension", value_label="value"
) -> go.Figure:
    """The positional-encoding table as a positions × dimensions heatmap, diverging colours −1..1."""
    t = floats(table, 2, "table")  # (L, D)
    fig = go.Figure(
        go.Heatmap(
            z=t.tolist(),
            x=list(range(t.shape[1])),
            y=list(range(t.shape[0])),
            zmin=-1,
            zmax=1,
            zmid=0,
            colorscale="RdBu_r",
            colorbar=colorbar(value_label),
            hovertemplate=(
                f"{position_label}: %{{y}}<br>{dim_label}: %{{x}}<br>{value_label}: %{{z:.4f}}<extra></extra>"
            ),
        )
    )
    fig.update_layout(
        xaxis=dict(title=dict(text=dim_label), showgrid=False, zeroline=False),
        yaxis=dict(title=dict(text=position_label), autorange="reversed", showgrid=False, zeroline=False),
    )
    return finish(fig, title, height(t.shape[0], cell=6, extra=120, lo=260, hi=520))


def pe_similarity_figure(table, title="", position_label="position", value_label="dot product") -> go.Figure:
    """PE·PEᵀ: the dot product between the encodings of every two positions."""
    t = floats(table, 2, "table")  # (L, D)
    sim = t @ t.T  # (L, L)
    n = sim.shape[0]
    fig = go.Figure(
        go.Heatmap(
            z=sim.tolist(),
            x=list(range(n)),
            y=list(range(n)),
            colorscale="Viridis",
            colorbar=colorbar(value_label),
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
    return finish(fig, title, height(n, cell=8, extra=120, lo=300, hi=520))
