"""Two models side by side: their training curves, their scores, and how peaked their attention was while training."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from transformer.text import plotly as plotly_text

from .common import colon, epoch_axes, finish, set_layout
from .training import CurveLabels

SIDE_COLORS = ("#1f77b4", "#d62728")  # the first model (the baseline) blue, the second (the variant) red


def comparison_curves_figure(
    sides: Sequence[tuple[str, Sequence]], labels: CurveLabels = CurveLabels(), title=""
) -> go.Figure:
    """Loss (left, log scale) and token accuracy (right) per epoch of each (label, history): training solid,
    held-out dashed, one colour per model; history items are EpochRecords."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=(labels.loss, labels.accuracy), horizontal_spacing=0.1)
    for (label, history), color in zip(sides, SIDE_COLORS):
        epochs = [int(h.epoch) for h in history]
        for prefix, suffix, dash in (("", "", "solid"), ("holdout_", labels.holdout_suffix, "dash")):
            if all(getattr(h, prefix + "loss") is None for h in history):
                continue
            name = plotly_text(label) + suffix
            for col, key, fmt in ((1, "loss", ".4f"), (2, "accuracy", ".1%")):
                values = [getattr(h, prefix + key) for h in history]
                fig.add_trace(
                    go.Scatter(
                        x=epochs,
                        y=[float(v) if v is not None and math.isfinite(v) else None for v in values],
                        name=name,
                        legendgroup=name,
                        showlegend=col == 1,
                        mode="lines",
                        line=dict(color=color, dash=dash),
                        hovertemplate=f"{colon(name)}%{{y:{fmt}}}<extra></extra>",
                    ),
                    row=1,
                    col=col,
                )
    fig.update_xaxes(title_text=labels.epoch, tickformat="d", gridcolor="#eeeeee")
    fig.update_yaxes(type="log", dtick=1, row=1, col=1, gridcolor="#eeeeee")  # a tick at every power of ten
    fig.update_yaxes(range=[0, 1.04], tickformat=".0%", row=1, col=2, gridcolor="#eeeeee")
    # the legend over the subplots' titles, where nothing else is (under the plots it would meet the axis titles)
    set_layout(fig, dict(legend=dict(orientation="h", yanchor="bottom", y=1.1, x=0), hovermode="x unified"))
    return finish(fig, title, 380)


def scores_figure(
    labels: Sequence[str],
    scores: Sequence[Mapping[str, float]],
    metric_labels: Mapping[str, str],
    title="",
) -> go.Figure:
    """Grouped bars, one group per metric (in metric_labels' order, those some model has), one bar per model:
    e.g. teacher-forced token accuracy next to greedy exact match, on the training and the held-out pairs."""
    metrics = [m for m in metric_labels if any(m in s for s in scores)]
    fig = go.Figure()
    for label, score, color in zip(labels, scores, SIDE_COLORS):
        values = [score.get(m) for m in metrics]
        fig.add_trace(
            go.Bar(
                x=[metric_labels[m] for m in metrics],
                y=values,
                name=plotly_text(label),
                marker_color=color,
                text=[f"{v:.0%}" if v is not None else "" for v in values],
                textposition="outside",
                hovertemplate=f"{colon(plotly_text(label))}%{{y:.1%}}<extra></extra>",
            )
        )
    set_layout(
        fig,
        dict(
            barmode="group",
            yaxis=dict(range=[0, 1.15], tickformat=".0%", gridcolor="#eeeeee"),
            legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="right", x=1),
        ),
    )
    return finish(fig, title, 340)


def peak_figure(
    sides: Sequence[tuple[str, Sequence[tuple[int, float]]]],
    epoch_label="epoch",
    value_label="largest weight per query (mean)",
    title="",
) -> go.Figure:
    """How peaked each model's attention was during training: (label, [(epoch, mean largest weight)]) per model, on
    0..1 (1 = every query looks at one key only)."""
    fig = go.Figure()
    for (label, points), color in zip(sides, SIDE_COLORS):
        fig.add_trace(
            go.Scatter(
                x=[e for e, _ in points],
                y=[v for _, v in points],
                name=plotly_text(label),
                mode="lines+markers",
                line=dict(color=color),
                hovertemplate=f"{colon(plotly_text(label))}%{{y:.3f}}<extra></extra>",
            )
        )
    epoch_axes(
        fig,
        epoch_label,
        value_label,
        1.04,
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="right", x=1),
    )
    return finish(fig, title, 320)
