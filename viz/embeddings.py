"""The learned token embeddings on a plane: each token a dot at its 2-D projection, coloured by word class, its text on
hover; the chosen token's text beside its dot and its nearest tokens ringed (a hundred texts beside their dots would
print over one another; transformer.embeddings computes the projection and the classes)."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.colors
import plotly.graph_objects as go

from transformer.text import plotly as plotly_text

from .common import CHOSEN_COLOR, finish, set_layout

CLASS_COLORS = plotly.colors.qualitative.Safe  # told apart with colour-blindness; the unclassed ones grey
GREY = "#b0b0b0"
UNCLASSED = ("several", "other")  # transformer.embeddings.UNCLASSED: drawn grey
HEIGHT_PX = 560


def embedding_figure(
    xy,
    tokens: Sequence[str],
    classes: Sequence[str],
    class_names: dict[str, str],
    *,
    title: str = "",
    x_label: str = "",
    y_label: str = "",
    chosen: int | None = None,
    near: Sequence[int] = (),
    near_name: str = "",
) -> go.Figure:
    """Tokens at their projection xy (n, 2): one trace per class, in the order of class_names (class → its name in
    the legend; a class not in it is named as it is), each dot's token on hover; the token at index chosen ringed in
    the chosen colour with its text beside it, and the tokens at indices near ringed in grey (near_name in the
    legend). Token texts are shown literally."""
    points = [(float(x), float(y)) for x, y in xy]
    if not len(points) == len(tokens) == len(classes):
        raise ValueError(f"{len(points)} points, {len(tokens)} tokens and {len(classes)} classes must agree.")
    order = [c for c in class_names if c in classes] + sorted(set(classes) - set(class_names))
    fig = go.Figure()
    colours = iter(CLASS_COLORS)
    for kind in order:
        members = [i for i, c in enumerate(classes) if c == kind]
        name = plotly_text(class_names.get(kind, kind))
        labels = [plotly_text(tokens[i]) for i in members]
        fig.add_trace(
            go.Scatter(
                x=[points[i][0] for i in members],
                y=[points[i][1] for i in members],
                mode="markers",
                marker=dict(size=8, color=GREY if kind in UNCLASSED else next(colours, GREY)),
                name=f"{name} ({len(members)})",
                customdata=[[label, name] for label in labels],
                hovertemplate="%{customdata[0]} · %{customdata[1]}<br>(%{x:.2f}, %{y:.2f})<extra></extra>",
            )
        )
    near = [i for i in near if 0 <= i < len(points) and i != chosen]
    if near:
        fig.add_trace(
            go.Scatter(
                x=[points[i][0] for i in near],
                y=[points[i][1] for i in near],
                mode="markers",
                marker=dict(size=14, color="rgba(0,0,0,0)", line=dict(color="#555555", width=1.5)),
                name=plotly_text(near_name),
                hoverinfo="skip",
                showlegend=bool(near_name),
            )
        )
    if chosen is not None and 0 <= chosen < len(points):
        fig.add_trace(
            go.Scatter(
                x=[points[chosen][0]],
                y=[points[chosen][1]],
                mode="markers+text",
                text=[plotly_text(tokens[chosen])],
                textposition="top center",
                textfont=dict(size=13, color=CHOSEN_COLOR),
                marker=dict(size=18, color="rgba(0,0,0,0)", line=dict(color=CHOSEN_COLOR, width=2)),
                hoverinfo="skip",
                showlegend=False,
            )
        )
    grid = dict(showgrid=True, gridcolor="#eeeeee", zeroline=True, zerolinecolor="#cccccc")
    set_layout(fig, dict(xaxis=dict(grid, title=x_label), yaxis=dict(grid, title=y_label)))
    return finish(fig, title, HEIGHT_PX)
