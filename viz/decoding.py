"""Decoding: the next-token probabilities of one step."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .common import (
    CHOSEN_COLOR,
    OTHER_COLOR,
    finish,
    floats,
    height,
    token_labels,
)


def topk_figure(
    probs,
    itos: Sequence[str],
    chosen_id: int,
    k=5,
    title="",
    prob_label="probability",
    token_label="token",
    chosen_label="chosen",
) -> go.Figure:
    """Horizontal bars of the k most probable tokens, most probable on top, the chosen token in red."""
    p = floats(probs, 1, "probs")  # (V,)
    vocab = token_labels(itos, p.shape[0], "itos", "vocabulary entries")
    k = max(1, min(int(k), p.shape[0]))
    top = np.argsort(-p, kind="stable")[:k].tolist()
    is_chosen = [i == int(chosen_id) for i in top]
    tokens = [vocab[i] for i in top]
    fig = go.Figure(
        go.Bar(
            x=[float(p[i]) for i in top],
            y=list(range(k)),
            orientation="h",
            name=prob_label,
            marker=dict(color=[CHOSEN_COLOR if c else OTHER_COLOR for c in is_chosen]),
            text=[f"{p[i]:.3f}" for i in top],
            textposition="auto",
            customdata=[[t, f" ({chosen_label})" if c else ""] for t, c in zip(tokens, is_chosen, strict=True)],
            hovertemplate=(
                f"{token_label}: %{{customdata[0]}}%{{customdata[1]}}<br>{prob_label}: %{{x:.4f}}<extra></extra>"
            ),
        )
    )
    fig.update_layout(
        xaxis=dict(title=dict(text=prob_label), range=[0, 1], gridcolor="#eeeeee"),
        yaxis=dict(
            tickmode="array",
            tickvals=list(range(k)),
            ticktext=tokens,
            autorange="reversed",
            title=dict(text=token_label),
            automargin=True,
        ),
        showlegend=False,
    )
    return finish(fig, title, height(k, cell=30, extra=100, lo=180, hi=480))
