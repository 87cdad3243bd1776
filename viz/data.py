"""A dataset at a glance: how long its sentences are and which tokens it uses most."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import plotly.graph_objects as go

from .common import finish, token_labels

SOURCE_COLOR, TARGET_COLOR = "#1f77b4", "#ff7f0e"


def length_histogram_figure(
    src_lengths: Sequence[int],
    tgt_lengths: Sequence[int],
    source_label: str = "source",
    target_label: str = "target",
    length_label: str = "tokens in the sentence",
    count_label: str = "sentences",
    title: str = "",
) -> go.Figure:
    """How many sentences have each length in tokens: one bar per length, the sources beside the targets."""
    longest = max([*src_lengths, *tgt_lengths, 1])
    lengths = list(range(1, longest + 1))
    fig = go.Figure()
    for values, name, color in ((src_lengths, source_label, SOURCE_COLOR), (tgt_lengths, target_label, TARGET_COLOR)):
        counts = Counter(values)
        fig.add_trace(
            go.Bar(
                x=lengths,
                y=[counts.get(n, 0) for n in lengths],
                name=name,
                marker_color=color,
                hovertemplate=f"{name}: %{{y}} {count_label} · %{{x}} {length_label}<extra></extra>",
            )
        )
    fig.update_layout(
        barmode="group",
        bargap=0.15,
        xaxis=dict(title=dict(text=length_label), tickformat="d", dtick=1 if longest <= 20 else 5),
        yaxis=dict(title=dict(text=count_label), rangemode="tozero"),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="right", x=1.0),
    )
    return finish(fig, title, 340)


def top_tokens_figure(
    counts: Sequence[tuple[str, int]], count_label: str = "occurrences", title: str = "", color: str = SOURCE_COLOR
) -> go.Figure:
    """The most frequent tokens as horizontal bars, the most frequent on top; tokens shown literally (a token such as
    "1" stays a label, never a number on the axis)."""
    tokens = token_labels([token for token, _ in counts], len(counts), "counts", "bars")
    values = [int(n) for _, n in counts]
    fig = go.Figure(
        go.Bar(
            x=values,
            y=list(range(len(values))),
            orientation="h",
            marker_color=color,
            customdata=tokens,
            hovertemplate=f"%{{customdata}}: %{{x}} {count_label}<extra></extra>",
        )
    )
    fig.update_layout(
        xaxis=dict(title=dict(text=count_label), rangemode="tozero"),
        yaxis=dict(
            tickmode="array",
            tickvals=list(range(len(values))),
            ticktext=tokens,
            autorange="reversed",
            automargin=True,
            showgrid=False,
        ),
        bargap=0.25,
    )
    return finish(fig, title, max(220, 22 * len(values) + 90))
