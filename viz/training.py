"""Training progress: loss and token accuracy per epoch."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from transformer.text import plotly as plotly_text

from .common import colon, epoch_axes, finish, set_layout

# a loss that falls this many times over is drawn on a log axis: on a linear one from 0, its first epoch (about ln V,
# 4.9 on the corpus) would squeeze every later epoch (0.01-0.3) into the bottom twentieth of the chart
LOG_SPAN = 10
AER_COLORS = ("#9467bd", "#d62728")  # one model purple; two (a Lab comparison): the baseline's, the variant's


@dataclass(frozen=True)
class CurveLabels:
    """The words of a chart of loss and token accuracy per epoch (this one, and the Lab's two models side by side):
    its two measures, its x axis, and what a held-out curve adds to its name."""

    loss: str = "loss"
    accuracy: str = "token accuracy"
    epoch: str = "epoch"
    holdout_suffix: str = " (held out)"


def loss_axis(history: Sequence, title: str) -> dict:
    """The loss axis of a history's chart: from 0 on a linear scale, or on a log scale fitted to the losses when they
    span LOG_SPAN times or more, so that the late epochs, where training and held-out losses part, can be read."""
    losses = [float(v) for h in history for v in (h.loss, h.holdout_loss) if v is not None]
    losses = [v for v in losses if math.isfinite(v) and v > 0]
    if len(losses) < 2 or max(losses) < LOG_SPAN * min(losses):
        return dict(title=dict(text=title), rangemode="tozero")
    low, high = math.log10(min(losses)), math.log10(max(losses))
    pad = 0.05 * (high - low)
    # ticks at each power of ten, and at 2 and 5 between them when there are fewer than two decades: plotly's own
    # minor labels (2 … 9 in every decade) overlap on a short chart
    dtick = 1 if high - low >= 2 else "D2"
    return dict(title=dict(text=title), type="log", range=[low - pad, high + pad], dtick=dtick)


def loss_accuracy_figure(history: Sequence, labels: CurveLabels = CurveLabels(), title="") -> go.Figure:
    """Loss (left axis, log when it falls tenfold: loss_axis) and token accuracy (right axis, 0–100 %) per epoch, on the
    training pairs (solid) and, when the history has them, on the held-out pairs (dashed); history items are
    EpochRecords."""
    epochs = [int(h.epoch) for h in history]
    mode = "lines+markers" if len(epochs) <= 60 else "lines"
    fig = go.Figure()
    curves = [("loss", labels.loss, "y", "#1f77b4", ".4f"), ("accuracy", labels.accuracy, "y2", "#ff7f0e", ".1%")]
    held = any(h.holdout_loss is not None for h in history)
    for prefix, suffix, dash in (("", "", "solid"), ("holdout_", labels.holdout_suffix, "dash")):
        if prefix and not held:
            continue
        for key, label, axis, color, fmt in curves:
            name = label + suffix
            fig.add_trace(
                go.Scatter(
                    x=epochs,
                    y=[None if (v := getattr(h, prefix + key)) is None else float(v) for h in history],
                    name=name,
                    mode=mode,
                    yaxis=axis,
                    line=dict(color=color, dash=dash),
                    hovertemplate=f"{colon(name)}%{{y:{fmt}}}<extra></extra>",
                )
            )
    set_layout(
        fig,
        dict(
            xaxis=dict(title=dict(text=labels.epoch), tickformat="d", dtick=1 if len(epochs) <= 10 else None),
            yaxis=loss_axis(history, labels.loss),
            yaxis2=dict(
                title=dict(text=labels.accuracy),
                overlaying="y",
                side="right",
                range=[0, 1.04],
                tickvals=[0, 0.25, 0.5, 0.75, 1],
                tickformat=".0%",
                showgrid=False,
            ),
            # in rows at the foot of the figure, in a margin of its own (a legend over the plot, in the title's margin,
            # met a title of two lines once the held-out curves made it wrap)
            legend=dict(
                orientation="h", yref="container", y=0, yanchor="bottom", xref="container", xanchor="left", x=0
            ),
            hovermode="x unified",
        ),
    )
    if not epochs:  # a tidy empty frame before the first epoch, its first ticks clear of the corners
        set_layout(fig, dict(xaxis=dict(range=[0.5, 10.5]), yaxis=dict(range=[0, 1])))
    finish(fig, title, 340)
    set_layout(fig, dict(xaxis=dict(gridcolor="#eeeeee"), yaxis=dict(gridcolor="#eeeeee")))
    return fig


def learning_rate_figure(history: Sequence, rate, lr_label="learning rate", step_label="step", title="") -> go.Figure:
    """The learning rate of every optimiser step (rate(step), drawn at up to 2,000 steps) up to the history's last
    step, and a marker at each epoch's end as the history recorded it."""
    ends = [(int(s), float(h.lr)) for h in history if (s := h.step) is not None]
    fig = go.Figure()
    if ends:
        last = ends[-1][0]
        stride = max(1, last // 2000)
        steps = list(range(1, last + 1, stride)) + ([last] if (last - 1) % stride else [])
        fig.add_trace(
            go.Scatter(
                x=steps,
                y=[rate(s) for s in steps],
                name=lr_label,
                mode="lines",
                line=dict(color="#2ca02c"),
                hovertemplate=f"{step_label} %{{x}}: %{{y:.3g}}<extra></extra>",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[s for s, _ in ends],
                y=[v for _, v in ends],
                mode="markers",
                marker=dict(color="#2ca02c", size=5),
                showlegend=False,
                hoverinfo="skip",
            )
        )
    set_layout(
        fig,
        dict(
            xaxis=dict(title=dict(text=step_label), tickformat="d", gridcolor="#eeeeee"),
            yaxis=dict(title=dict(text=lr_label), rangemode="tozero", exponentformat="e", gridcolor="#eeeeee"),
            showlegend=False,
        ),
    )
    finish(fig, title, 260)
    return fig


def alignment_figure(
    sides: Sequence[tuple[str, Sequence]],
    *,
    epoch_label="epoch",
    aer_label="best head's AER",
    head_text="layer {layer} head {head}",
    title="",
) -> go.Figure:
    """The best cross-attention head's alignment error rate (0–1, lower aligns better) per epoch of each (label,
    history), the head that was best named on hover (head_text with layer and head from 1); epochs that recorded no
    AER are left out. history items are EpochRecords."""
    fig = go.Figure()
    for (label, history), color in zip(sides, AER_COLORS):
        points = [h for h in history if h.aer is not None]
        heads = [head_text.format(layer=int(h.aer_layer) + 1, head=int(h.aer_head) + 1) for h in points]
        fig.add_trace(
            go.Scatter(
                x=[int(h.epoch) for h in points],
                y=[float(h.aer) for h in points],
                name=plotly_text(label),
                mode="lines+markers" if len(points) <= 60 else "lines",
                line=dict(color=color),
                customdata=heads,
                hovertemplate=f"{colon(plotly_text(label))}%{{y:.2f}} (%{{customdata}})<extra></extra>",
            )
        )
    legend = dict(orientation="h", yref="container", y=0, yanchor="bottom", xref="container", x=0)
    epoch_axes(fig, epoch_label, aer_label, 1.02, showlegend=len(sides) > 1, legend=legend)
    finish(fig, title, 280)
    return fig
