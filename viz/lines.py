"""The line view of attention (as BertViz's head view): the query tokens in a column on the left, the key tokens in a
column on the right, and a line from each query to each key whose opacity is its weight; one head, or every head of a
layer in its own colour. Drawn as a plotly Sankey whose every line carries the same flow, so all lines are equally
wide and only their opacity differs: pointing at a token (plotly's hover on a Sankey node) highlights its lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import plotly.colors
import plotly.graph_objects as go

from .common import CHOSEN_COLOR, FONT, floats, set_layout, text_px, tick_text, token_labels
from .presenter import PRESENTER_SCALE

HEAD_COLORS = plotly.colors.qualitative.Dark24  # the heads of a layer, each its own colour
ONE_HEAD_COLOR = "#08306b"  # one head alone: dark blue, its lines from clear to solid
GOLD_COLOR = "#e6a100"  # a gold link's outline
LINE_PX = 34  # px of the plot's height per token of the longer column
MIN_PX, MAX_PX = 260, 900
NODE_PX = 12  # a token's bar
DIMMED = 0.15  # the other tokens' lines, this much as opaque, while one token is chosen
QUERY, KEY = "query", "key"  # the two sides of a chosen token
TOKEN_TEXT = "token text"  # the name of the annotations that write the tokens (data, not words of the interface)


def rgba(color: str, alpha: float) -> str:
    """A colour ("#rrggbb" or "rgb(r, g, b)") with alpha 0..1 (four decimals: the line's weight as the matrix holds
    it, not rounded further)."""
    r, g, b = plotly.colors.convert_colors_to_same_type([color], "rgb")[0][0][4:-1].split(",")
    return f"rgba({int(float(r))},{int(float(g))},{int(float(b))},{alpha:.4f})"


def line_alpha(color: str) -> float:
    """The alpha of an rgba() colour of this module: a line's opacity."""
    return float(color.rsplit(",", 1)[1].rstrip(")"))


def token_annotations(fig: go.Figure, labels: list[str], ys: list[float], side: str, chosen: int | None) -> None:
    """Each token written beside its bar, outside the lines (side "right": the query column's text ends at its bar;
    "left": the key column's starts at its bar); the chosen one bold and red."""
    x, shift = (0, -NODE_PX) if side == "right" else (1, NODE_PX)
    for index, (label, y) in enumerate(zip(labels, ys)):
        mine = index == chosen
        fig.add_annotation(x=x, y=1 - y, xref="paper", yref="paper", xanchor=side, yanchor="middle", xshift=shift,
                           showarrow=False, text=f"<b>{label}</b>" if mine else label, name=TOKEN_TEXT,
                           font=dict(color=CHOSEN_COLOR) if mine else None)  # fmt: skip


def attention_lines_figure(
    attn,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    heads: Iterable[int] | None = None,
    *,
    title: str = "",
    head_label: str = "head",
    query_label: str = "query",
    key_label: str = "key",
    value_label: str = "weight",
    chosen: tuple[str, int] | None = None,
    gold: Iterable[tuple[int, int]] = (),
    gold_label: str = "gold link",
) -> go.Figure:
    """attn [H, Lq, Lk] (or [Lq, Lk], one head) as lines from each query token (left) to each key token (right), the
    alpha of each line its weight, exactly as the matrix holds it; heads: the heads drawn (default all), each in its
    HEAD_COLORS colour, or dark blue when one head is drawn. chosen = (QUERY or KEY, index): that token's lines as they
    are, every other line DIMMED. gold: (query, key) pairs drawn over the lines as gold dashes. Tokens are shown as
    text."""
    a = floats(attn, 3, "attn") if np.ndim(attn) == 3 else floats(attn, 2, "attn")[None]  # (H, Lq, Lk)
    n_heads, n_q, n_k = a.shape
    queries = token_labels(query_tokens, n_q, "query_tokens", "rows")
    keys = token_labels(key_tokens, n_k, "key_tokens", "columns")
    drawn = list(range(n_heads)) if heads is None else sorted({int(h) for h in heads})
    if not drawn or any(not 0 <= h < n_heads for h in drawn):
        raise ValueError(f"heads must be indexes in 0..{n_heads - 1}, got {drawn}.")
    gold = sorted({(int(i), int(j)) for i, j in gold})
    link = dict(source=[], target=[], value=[], color=[], hovercolor=[], customdata=[])
    for h in drawn:
        color = ONE_HEAD_COLOR if len(drawn) == 1 else HEAD_COLORS[h % len(HEAD_COLORS)]
        hover_color = CHOSEN_COLOR if len(drawn) == 1 else color
        for i in range(n_q):
            for j in range(n_k):
                w = float(a[h, i, j])
                dim = chosen is not None and chosen != (QUERY, i) and chosen != (KEY, j)
                link["source"].append(i)
                link["target"].append(n_q + j)
                link["value"].append(1)  # every line as wide as every other: only the opacity tells the weight
                link["color"].append(rgba(color, w * DIMMED if dim else w))
                link["hovercolor"].append(rgba(hover_color, w**0.5))  # stronger, still in the order of the weights
                link["customdata"].append([f"{head_label} {h + 1}", queries[i], keys[j], f"{w:.4f}"])
    query_y = [(i + 0.5) / n_q for i in range(n_q)]  # each token's centre, from the top
    key_y = [(j + 0.5) / n_k for j in range(n_k)]
    fig = go.Figure(
        go.Sankey(
            arrangement="fixed",
            node=dict(
                label=[""] * (n_q + n_k),  # the tokens are written outside the columns (token_annotations)
                x=[0.001] * n_q + [0.999] * n_k,  # plotly skips a position of 0
                y=[*query_y, *key_y],
                pad=2,
                thickness=NODE_PX,
                color=["#555555"] * (n_q + n_k),
                line=dict(width=0),
                customdata=[*([query_label, q] for q in queries), *([key_label, k] for k in keys)],
                hovertemplate="%{customdata[0]}: %{customdata[1]}<extra></extra>",
            ),
            link=dict(
                **link,
                line=dict(width=0),
                hovertemplate=f"%{{customdata[0]}}<br>{query_label}: %{{customdata[1]}}<br>{key_label}: "
                f"%{{customdata[2]}}<br>{value_label}: %{{customdata[3]}}<extra></extra>",
            ),
        )
    )
    shown_q, shown_k = [tick_text(q) for q in queries], [tick_text(k) for k in keys]
    token_annotations(fig, shown_q, query_y, "right", chosen[1] if chosen and chosen[0] == QUERY else None)
    token_annotations(fig, shown_k, key_y, "left", chosen[1] if chosen and chosen[0] == KEY else None)
    for x, anchor, label in ((0, "right", query_label), (1, "left", key_label)):  # the columns' names, over them
        fig.add_annotation(x=x, y=1, xref="paper", yref="paper", xanchor=anchor, yanchor="bottom", yshift=4,
                           xshift=(-1 if anchor == "right" else 1) * NODE_PX, text=f"<b>{label}</b>",
                           showarrow=False)  # fmt: skip
    if gold:  # straight gold lines from the query's centre to the key's, over the Sankey (same plot area)
        xs, ys = [], []
        for i, j in gold:
            if 0 <= i < n_q and 0 <= j < n_k:
                xs += [0, 1, None]
                ys += [query_y[i], key_y[j], None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=GOLD_COLOR, width=2.5, dash="dash"),
                                 name=gold_label, hoverinfo="skip", showlegend=True))  # fmt: skip
    hidden = dict(visible=False, fixedrange=True)
    side_px = NODE_PX + 8 + max(text_px(t, FONT["size"] * PRESENTER_SCALE) for t in [*shown_q, *shown_k])
    margin = dict(l=side_px, r=side_px, t=80 if title else 40, b=50 if gold else 20)
    height = min(MAX_PX, max(MIN_PX, LINE_PX * max(n_q, n_k) + margin["t"] + margin["b"]))
    set_layout(fig, dict(height=height, margin=margin, xaxis=dict(hidden, range=[0, 1]),
                         yaxis=dict(hidden, range=[1, 0]), plot_bgcolor="rgba(0,0,0,0)",
                         legend=dict(orientation="h", yanchor="top", y=-0.02, x=0)))  # fmt: skip
    if title:
        set_layout(fig, dict(title=dict(text=title)))
    return fig
