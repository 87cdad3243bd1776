"""The positional-encoding table: curves per dimension, the whole table, similarity between positions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import plotly.graph_objects as go
from plotly.colors import qualitative

from .common import (
    SIGNED_COLORS,
    colon,
    colorbar,
    finish,
    floats,
    height,
    indexes,
    set_layout,
)

LINE_COLORS = qualitative.Plotly  # one colour per dimension: its line and its dots


def pe_lines_figure(
    table,
    dims: Iterable[int],
    title="",
    position_label="position",
    value_label="value",
    dim_label="dim",
    curve=None,
    curve_positions: Sequence[float] | None = None,
) -> go.Figure:
    """Chosen dimensions of a positional-encoding table [positions, d_model] against position.

    With curve [len(curve_positions), d_model] (the formula at finely spaced real positions) each dimension is the
    continuous line of the curve with a dot at every whole position of the table, the values the model uses;
    without it the dots are joined by straight lines (a learned table has values at whole positions only).
    """
    t = floats(table, 2, "table")  # (L, D)
    positions = list(range(t.shape[0]))
    if curve is not None:
        c = floats(curve, 2, "curve")  # (S, D)
        if curve_positions is None or len(curve_positions) != c.shape[0] or c.shape[1] != t.shape[1]:
            raise ValueError("curve must have one row per curve position and as many dimensions as the table.")
    fig = go.Figure()
    for i, d in enumerate(dims):
        d = int(d)
        if not 0 <= d < t.shape[1]:
            raise ValueError(f"dimension {d} is outside 0..{t.shape[1] - 1}.")
        name = f"{dim_label} {d} ({'sin' if d % 2 == 0 else 'cos'})"
        color = LINE_COLORS[i % len(LINE_COLORS)]
        hover = f"{name}<br>{colon(position_label)}%{{x}}<br>{colon(value_label)}%{{y:.4f}}<extra></extra>"
        dots = go.Scatter(
            x=positions,
            y=t[:, d].tolist(),
            name=name,
            legendgroup=name,
            mode="markers" if curve is not None else "lines+markers",
            marker=dict(color=color, size=6),
            line=dict(color=color),
            hovertemplate=hover,
        )
        if curve is not None:
            fig.add_trace(
                go.Scatter(
                    x=list(curve_positions),
                    y=c[:, d].tolist(),
                    name=name,
                    legendgroup=name,
                    mode="lines",
                    line=dict(color=color, width=1.5),
                    hoverinfo="skip",
                )
            )
            dots.showlegend = False
        fig.add_trace(dots)
    bounded = t.size == 0 or float(abs(t).max()) <= 1.0  # a learned table is not bounded by ±1
    y_range = [-1.1, 1.1] if bounded else None
    set_layout(
        fig,
        dict(
            xaxis=dict(title=dict(text=position_label), gridcolor="#eeeeee"),
            yaxis=dict(title=dict(text=value_label), range=y_range, gridcolor="#eeeeee", zerolinecolor="#cccccc"),
            showlegend=True,
        ),
    )
    return finish(fig, title, 340)


def pe_heatmap_figure(
    table, title="", position_label="position", dim_label="dimension", value_label="value"
) -> go.Figure:
    """The positional-encoding table as a positions × dimensions heatmap, diverging colours −1..1 (wider, and
    the same on both sides of 0, when a learned table goes beyond ±1)."""
    t = floats(table, 2, "table")  # (L, D)
    bound = max(1.0, float(abs(t).max())) if t.size else 1.0
    fig = go.Figure(
        go.Heatmap(
            z=t.tolist(),
            x=list(range(t.shape[1])),
            y=list(range(t.shape[0])),
            zmin=-bound,
            zmax=bound,
            zmid=0,
            colorscale=SIGNED_COLORS,
            colorbar=colorbar(value_label),
            hovertemplate=(
                f"{colon(position_label)}%{{y}}<br>{colon(dim_label)}%{{x}}<br>{colon(value_label)}%{{z:.4f}}<extra></extra>"
            ),
        )
    )
    set_layout(
        fig,
        dict(
            xaxis=dict(title=dict(text=dim_label), showgrid=False, zeroline=False),
            yaxis=dict(title=dict(text=position_label), autorange="reversed", showgrid=False, zeroline=False),
        ),
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
            zmid=0,  # two positions' encodings can point apart: their dot product is then below 0
            colorscale=SIGNED_COLORS,
            colorbar=colorbar(value_label),
            hovertemplate=(
                f"{position_label} %{{y}} · {position_label} %{{x}}<br>{colon(value_label)}%{{z:.4f}}<extra></extra>"
            ),
        )
    )
    set_layout(
        fig,
        dict(
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
        ),
    )
    return finish(fig, title, height(n, cell=8, extra=120, lo=300, hi=520))


def pe_distance_figure(
    similarity, rises: Iterable[int] = (), title="", distance_label="distance", value_label="dot product", rise_label=""
) -> go.Figure:
    """The dot product PE_p · PE_q against the distance q − p, with the distances where it rises again marked."""
    values = floats(similarity, 1, "similarity")  # (n,)
    rises = indexes(rises, len(values), "rises")
    fig = go.Figure(
        go.Scatter(
            x=list(range(len(values))),
            y=values.tolist(),
            mode="lines+markers",
            name=value_label,
            line=dict(color=LINE_COLORS[0]),
            marker=dict(size=5),
            hovertemplate=f"{colon(distance_label)}%{{x}}<br>{colon(value_label)}%{{y:.3f}}<extra></extra>",
        )
    )
    if rises:
        fig.add_trace(
            go.Scatter(
                x=rises,
                y=[float(values[k]) for k in rises],
                mode="markers",
                name=rise_label or "rises",
                marker=dict(color=LINE_COLORS[1], size=9, symbol="triangle-up"),
                hovertemplate=f"{colon(distance_label)}%{{x}}<br>{colon(value_label)}%{{y:.3f}}<extra>{rise_label}</extra>",
            )
        )
    set_layout(
        fig,
        dict(
            xaxis=dict(title=dict(text=distance_label), gridcolor="#eeeeee"),
            yaxis=dict(title=dict(text=value_label), gridcolor="#eeeeee", zerolinecolor="#cccccc"),
            showlegend=bool(rises),
            legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0),
        ),
    )
    return finish(fig, title, 300)
