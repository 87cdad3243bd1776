"""The learned token embeddings on a plane: each token a dot at its 2-D projection, coloured by word class, its text
beside it (transformer.embeddings computes the projection and the classes)."""

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
) -> go.Figure:
    """Tokens at their projection xy (n, 2): one trace per class, in the order of class_names (class → its name in
    the legend; a class not in it is named as it is), each dot with its token's text; the token at index chosen is
    ringed in the chosen colour. Token texts are shown literally."""
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
                mode="markers+text",
                text=labels,
                textposition="top center",
                textfont=dict(size=11),
                marker=dict(size=8, color=GREY if kind in UNCLASSED else next(colours, GREY)),
                name=f"{name} ({len(members)})",
                customdata=[[label, name] for label in labels],
                hovertemplate="%{customdata[0]} · %{customdata[1]}<br>(%{x:.2f}, %{y:.2f})<extra></extra>",
            )
        )
    if chosen is not None and 0 <= chosen < len(points):
        fig.add_trace(
            go.Scatter(
                x=[points[chosen][0]],
                y=[points[chosen][1]],
                mode="markers",
                marker=dict(size=18, color="rgba(0,0,0,0)", line=dict(color=CHOSEN_COLOR, width=2)),
                hoverinfo="skip",
                showlegend=False,
            )
        )
    grid = dict(showgrid=True, gridcolor="#eeeeee", zeroline=True, zerolinecolor="#cccccc")
    set_layout(fig, dict(xaxis=dict(grid, title=x_label), yaxis=dict(grid, title=y_label)))
    return finish(fig, title, HEIGHT_PX)
