"""A dataset at a glance: how long its sentences are and which tokens it uses most.

Each chart comes twice: as a Vega-Lite spec (a dict) that the Data page draws with Streamlit's own chart library, and
as a plotly figure for the lesson sheet. The Data page is the app's first page: a plotly chart there would make the
learner wait for plotly.js (a 4.7 MB module Streamlit loads when a tab first shows a plotly chart, about 1.3 s on a
2-core machine) before the page is drawn, where Vega-Lite's module loads in about 0.2 s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import plotly.graph_objects as go

from transformer.text import visible

from .common import COLUMN_PX, TICK_COLUMNS, colon, finish, set_layout, token_labels

SOURCE_COLOR, TARGET_COLOR = "#1f77b4", "#ff7f0e"
# Streamlit's chart theme leaves wide gaps around a Vega-Lite chart's title and legend, which come out of the plot's
# height: closer ones
SPEC_CONFIG = {"title": {"offset": 4}, "legend": {"padding": 0, "offset": 4}, "axis": {"titlePadding": 6}}


def _length_counts(src_lengths: Sequence[int], tgt_lengths: Sequence[int]) -> tuple[list[int], Counter, Counter]:
    """Every length from 1 to the longest sentence (1 at least), and how many sources and targets have each."""
    longest = max([*src_lengths, *tgt_lengths, 1])
    return list(range(1, longest + 1)), Counter(src_lengths), Counter(tgt_lengths)


def length_histogram_spec(
    src_lengths: Sequence[int],
    tgt_lengths: Sequence[int],
    source_label: str = "source",
    target_label: str = "target",
    length_label: str = "tokens in the sentence",
    count_label: str = "sentences",
    title: str = "",
) -> dict:
    """How many sentences have each length in tokens, as a Vega-Lite spec: one bar per length and side, the sources
    beside the targets (length_histogram_figure draws it with plotly)."""
    lengths, src_counts, tgt_counts = _length_counts(src_lengths, tgt_lengths)
    values = [
        {"length": n, "side": side, "sentences": counts.get(n, 0)}
        for side, counts in ((source_label, src_counts), (target_label, tgt_counts))
        for n in lengths
    ]
    sides = [source_label, target_label]
    ticks = lengths if len(lengths) <= 20 else [n for n in lengths if n == 1 or n % 5 == 0]
    return {
        **({"title": {"text": title, "anchor": "start"}} if title else {}),
        "height": 280,
        "config": SPEC_CONFIG,
        "data": {"values": values},
        "mark": {"type": "bar"},
        "encoding": {
            "x": {
                "field": "length",
                "type": "ordinal",
                "title": length_label,
                "axis": {"labelAngle": 0, "values": ticks},
            },
            "xOffset": {"field": "side", "type": "nominal", "sort": sides},
            "y": {"field": "sentences", "type": "quantitative", "title": count_label},
            "color": {
                "field": "side",
                "type": "nominal",
                "scale": {"domain": sides, "range": [SOURCE_COLOR, TARGET_COLOR]},
                "legend": {"title": None, "orient": "top"},
            },
            "tooltip": [
                {"field": "side", "type": "nominal", "title": " "},
                {"field": "length", "type": "ordinal", "title": length_label},
                {"field": "sentences", "type": "quantitative", "title": count_label, "format": ","},
            ],
        },
    }


def top_tokens_spec(
    counts: Sequence[tuple[str, int]],
    count_label: str = "occurrences",
    token_label: str = "token",
    title: str = "",
    color: str = SOURCE_COLOR,
) -> dict:
    """top_tokens_figure as a Vega-Lite spec: horizontal bars in the order given (the most frequent on top), each
    token a label shown as text (escape codes made visible), cut at the end when long (the tooltip has it whole)."""
    values = [{"token": visible(token), "count": int(n)} for token, n in counts]
    return {
        **({"title": {"text": title, "anchor": "start"}} if title else {}),
        "height": {"step": 22},
        "config": SPEC_CONFIG,
        "data": {"values": values},
        "mark": {"type": "bar", "color": color},
        "encoding": {
            "y": {
                "field": "token",
                "type": "nominal",
                "sort": None,  # the order given
                "title": None,
                "axis": {"labelLimit": round(TICK_COLUMNS * COLUMN_PX), "labelFontSize": 13, "labelOverlap": False},
            },
            "x": {"field": "count", "type": "quantitative", "title": count_label},
            "tooltip": [
                {"field": "token", "type": "nominal", "title": token_label},
                {"field": "count", "type": "quantitative", "title": count_label, "format": ","},
            ],
        },
    }


def length_histogram_figure(spec: dict) -> go.Figure:
    """length_histogram_spec drawn as a plotly figure for the lesson sheet: the same bars, labels and title."""
    encoding = spec["encoding"]
    length_label, count_label = encoding["x"]["title"], encoding["y"]["title"]
    lengths = sorted({v["length"] for v in spec["data"]["values"]})
    fig = go.Figure()
    for name, color in zip(encoding["color"]["scale"]["domain"], encoding["color"]["scale"]["range"]):
        counts = {v["length"]: v["sentences"] for v in spec["data"]["values"] if v["side"] == name}
        fig.add_trace(
            go.Bar(
                x=lengths,
                y=[counts[n] for n in lengths],
                name=name,
                marker_color=color,
                hovertemplate=f"{colon(name)}%{{y}} {count_label} · %{{x}} {length_label}<extra></extra>",
            )
        )
    set_layout(
        fig,
        dict(
            barmode="group",
            bargap=0.15,
            xaxis=dict(title=dict(text=length_label), tickformat="d", dtick=1 if lengths[-1] <= 20 else 5),
            yaxis=dict(title=dict(text=count_label), rangemode="tozero"),
            legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="right", x=1.0),
        ),
    )
    return finish(fig, spec.get("title", {}).get("text", ""), 340)


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
    set_layout(
        fig,
        dict(
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
        ),
    )
    return finish(fig, title, max(220, 22 * len(values) + 90))
