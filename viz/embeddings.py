"""The learned token embeddings on a plane: each token a dot at its 2-D projection, coloured by word class, its text on
hover; the chosen token ringed in red and its nearest tokens in grey. The texts written beside the dots are those that
can be read without overlap (a hundred texts would print over one another): the chosen token's, its neighbours', then
the most frequent tokens', each where it meets no other (readable_labels; transformer.embeddings computes the
projection and the classes)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import plotly.colors
import plotly.graph_objects as go

from transformer.text import plotly as plotly_text

from .common import CHOSEN_COLOR, FONT, finish, set_layout, text_px, tick_text
from .presenter import PRESENTER_SCALE

CLASS_COLORS = plotly.colors.qualitative.Safe  # told apart with colour-blindness; the unclassed ones grey
GREY = "#b0b0b0"
LABELS = "token text"  # the meta key of the traces that write tokens beside their dots, the name of such annotations
UNCLASSED = ("several", "other")  # transformer.embeddings.UNCLASSED: drawn grey
HEIGHT_PX = 560
# the plot area the labels are placed for: the smallest the page draws it (a 1024 px window; the legend under the
# plot). Drawn larger, the dots move apart and the labels keep their size, so labels apart here stay apart.
PLOT_PX = (380, 300)
LABEL_PX = FONT["size"] * PRESENTER_SCALE  # a label's font, as large as the presenter view draws it
# a label's height in its font size; its gap to its dot: plotly.js sets a text GAP_PX off a marker of MARKER_PX (its
# radius / 0.8 + 1), so each label trace carries invisible markers of that size; the axes' padding
LINE_EM, MARKER_PX, EDGE = 1.3, 8, 0.06
GAP_PX = MARKER_PX / 2 / 0.8 + 1
ROOM_PX = 4  # px kept between two labels
APART = [(r * math.cos(a), r * math.sin(a)) for r in (40, 65, 95, 130) for a in [k * math.pi / 4 for k in range(8)]]
PLACES = ("top center", "bottom center", "middle right", "middle left", "top right", "top left", "bottom right",
          "bottom left")  # fmt: skip  # where a label may sit around its dot, tried in this order


@dataclass(frozen=True)
class Label:
    """A token's text beside its dot: its index, where it sits (a plotly textposition) and its box in px of PLOT_PX,
    (left, top, right, bottom) from the plot's top left corner."""

    index: int
    place: str | tuple[float, float]  # a plotly textposition, or px from the dot to a label drawn apart
    box: tuple[float, ...]


def axis_ranges(points: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
    """The x and y ranges of the plot: every point, EDGE of the span beyond each side."""
    out = []
    for values in zip(*points):
        low, high = min(values), max(values)
        pad = EDGE * ((high - low) or 1.0)
        out.append([low - pad, high + pad])
    return out[0], out[1]


def label_box(x_px: float, y_px: float, text: str, place: str | tuple[float, float]) -> tuple[float, ...]:
    """The box (left, top, right, bottom) of text at place around a dot at (x_px, y_px), in LABEL_PX (text_px: an
    upper bound of its width): a plotly textposition, or (dx, dy), the px from the dot to the centre of a label drawn
    apart with a line to its dot."""
    width, height = text_px(text, LABEL_PX), LABEL_PX * LINE_EM
    if not isinstance(place, str):
        left, top = x_px + place[0] - width / 2, y_px + place[1] - height / 2
        return left, top, left + width, top + height
    vertical, horizontal = place.split()
    left = {"center": x_px - width / 2, "right": x_px + GAP_PX, "left": x_px - GAP_PX - width}[horizontal]
    top = {"middle": y_px - height / 2, "top": y_px - GAP_PX - height, "bottom": y_px + GAP_PX}[vertical]
    return left, top, left + width, top + height


def _meets(a, b, room: float = ROOM_PX) -> bool:
    """Whether two boxes come closer than room px (where plotly draws a text may differ from label_box by a few)."""
    return a[0] < b[2] + room and b[0] < a[2] + room and a[1] < b[3] + room and b[1] < a[3] + room


def readable_labels(points, texts: Sequence[str], order: Sequence[int], first: int = 0) -> list[Label]:
    """The labels that can be read without overlap, for points (x, y) with texts: tokens in `order` (the chosen,
    its neighbours, then by frequency) each take the first place of PLACES whose box meets no label placed before
    and stays inside the plot of PLOT_PX; the first `first` of them (the chosen token and its neighbours), when
    none is free, a place further out (APART), drawn with a line to the dot; any other token with no free place has
    no label (its text on hover)."""
    (x0, x1), (y0, y1) = axis_ranges(points)
    width, height = PLOT_PX
    placed: list[Label] = []
    for i in order:
        x_px = (points[i][0] - x0) / (x1 - x0) * width
        y_px = (y1 - points[i][1]) / (y1 - y0) * height  # y runs upwards, px downwards
        for place in [*PLACES, *(APART if len(placed) < first else ())]:
            box = label_box(x_px, y_px, texts[i], place)
            inside = box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height
            if inside and not any(_meets(box, other.box) for other in placed):
                placed.append(Label(i, place, box))
                break
    return placed


def _draw_labels(fig: go.Figure, points: list, texts: list[str], labels: list, chosen: int | None) -> None:
    """The texts readable_labels placed: beside their dots (one trace each colour), or apart with a line to the dot;
    the chosen token's in red, drawn last, over the ring drawn for it."""
    for mine in (False, True):  # the chosen token's label in red, over the ring drawn for it
        shown = [label for label in labels if (label.index == chosen) == mine and isinstance(label.place, str)]
        font = dict(size=FONT["size"], color=CHOSEN_COLOR if mine else "#333333")
        if shown:
            fig.add_trace(
                go.Scatter(
                    x=[points[label.index][0] for label in shown],
                    y=[points[label.index][1] for label in shown],
                    mode="markers+text",
                    marker=dict(size=MARKER_PX, opacity=0),  # sets the text's gap to the dot (GAP_PX)
                    text=[texts[label.index] for label in shown],
                    textposition=[label.place for label in shown],
                    textfont=font,
                    meta={LABELS: [label.index for label in shown]},
                    hoverinfo="skip",
                    showlegend=False,
                    cliponaxis=False,
                )
            )
        for label in labels:  # a label drawn apart, with a line to its dot
            if (label.index == chosen) == mine and not isinstance(label.place, str):
                x, y = points[label.index]
                dx, dy = label.place
                fig.add_annotation(x=x, y=y, ax=dx, ay=dy, text=texts[label.index], font=font, showarrow=True,
                                   arrowhead=0, arrowwidth=1, arrowcolor="#777777",
                                   name=f"{LABELS} {label.index}")  # fmt: skip


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
    counts: Sequence[int] | None = None,
) -> go.Figure:
    """Tokens at their projection xy (n, 2): one trace per class, in the order of class_names (class → its name in
    the legend; a class not in it is named as it is), each dot's token on hover; the token at index chosen ringed in
    the chosen colour with its text beside it, and the tokens at indices near ringed in grey (near_name in the
    legend). The texts written beside the dots (readable_labels): the chosen token's, its neighbours', then the most
    frequent tokens' (counts, one per token: how often each occurs in the data) that fit without overlap; every
    token's text on hover. Token texts are shown literally."""
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
    order = [i for i in (chosen, *near) if i is not None and 0 <= i < len(points)]
    ranked = sorted(range(len(points)), key=lambda i: -counts[i] if counts is not None else 0)
    order += [i for i in ranked if i not in order] if counts is not None else []
    texts = [tick_text(plotly_text(token)) for token in tokens]
    labels = readable_labels(points, texts, order, first=len({i for i in (chosen, *near) if i is not None}))
    _draw_labels(fig, points, texts, labels, chosen)
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
    x_range, y_range = axis_ranges(points) if points else (None, None)
    set_layout(fig, dict(xaxis=dict(grid, title=x_label, range=x_range), yaxis=dict(grid, title=y_label, range=y_range),
                         legend=dict(orientation="h", yanchor="top", y=-0.22, x=0)))  # fmt: skip
    return finish(fig, title, HEIGHT_PX)
