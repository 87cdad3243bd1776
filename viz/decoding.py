"""Decoding: the next-token probabilities of one step, the beam-search tree, sampling's distributions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
from .common import plotly_text as plotly_text


def topk_figure(
    probs,
    itos: Sequence[str],
    chosen_id: int,
    k=5,
    title="",
    prob_label="probability",
    token_label="token",
    chosen_label="chosen",
    chosen_color=CHOSEN_COLOR,
) -> go.Figure:
    """Horizontal bars of the k most probable tokens, most probable on top, the chosen token in chosen_color (red);
    a chosen token outside the k gets one more bar at the bottom.

    Each bar's customdata is [token label, chosen note, token id], so a click on a bar tells which token it is.
    """
    p = floats(probs, 1, "probs")  # (V,)
    vocab = token_labels(itos, p.shape[0], "itos", "vocabulary entries")
    k = max(1, min(int(k), p.shape[0]))
    top = np.argsort(-p, kind="stable")[:k].tolist()
    if 0 <= int(chosen_id) < p.shape[0] and int(chosen_id) not in top:
        top.append(int(chosen_id))  # a forced token the model found unlikely still gets its bar, at the bottom
    k = len(top)
    is_chosen = [i == int(chosen_id) for i in top]
    tokens = [vocab[i] for i in top]
    fig = go.Figure(
        go.Bar(
            x=[float(p[i]) for i in top],
            y=list(range(k)),
            orientation="h",
            name=prob_label,
            marker=dict(color=[chosen_color if c else OTHER_COLOR for c in is_chosen]),
            text=[f"{p[i]:.3f}" for i in top],
            textposition="auto",
            customdata=[
                [t, f" ({chosen_label})" if c else "", i] for t, c, i in zip(tokens, is_chosen, top, strict=True)
            ],
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


KEPT_COLOR, FINISHED_COLOR, PRUNED_COLOR = "#1f77b4", "#2ca02c", "#c7c7c7"
FORCED_COLOR = "#9467bd"  # a token the learner forced
MODEL_COLOR, TEMPERED_COLOR, FINAL_COLOR = "#c6dbef", "#6baed6", "#08519c"
_LABELLED_COLUMN = 24  # columns of the beam tree with more nodes than this show pruned tokens on hover only


@dataclass
class _Node:
    x: int  # the step that made it (0: the root S)
    rank: int  # its row within the column, top first
    token: str
    path: tuple[str, ...]  # every token from the first one after S to this one
    log_prob: float
    status: str  # kept, finished, pruned (the root counts as kept)
    parent: _Node | None = None
    y: float = 0.0


def _tree(steps, start: str) -> list[list[_Node]]:
    """The nodes of the beam-search tree by column; children sit under their parent, best first, so no edges cross."""
    root = _Node(0, 0, start, (), 0.0, "kept")
    columns, beams = [[root]], [root]
    for x, step in enumerate(steps, start=1):
        order = sorted(step.candidates, key=lambda c: (beams[c.parent].rank, -c.log_prob))
        column, kept = [], {}
        for rank, c in enumerate(order):
            parent = beams[c.parent]
            node = _Node(x, rank, c.token, (*parent.path, c.token), c.log_prob, c.status, parent)
            column.append(node)
            if c.status == "kept":
                kept[c.beam] = node
        columns.append(column)
        beams = [kept[i] for i in sorted(kept)]
    for column in columns:
        for node in column:
            node.y = node.rank - (len(column) - 1) / 2
    return columns


def beam_tree_figure(
    steps,
    best_path: Sequence[str] | None = None,
    title="",
    start="S",
    step_label="step",
    log_prob_label="log-probability",
    kept_label="kept",
    finished_label="finished",
    pruned_label="pruned",
    best_label="best",
) -> go.Figure:
    """The beam-search tree: one column per step, an edge from each beam to each of its best candidates, labelled
    with the cumulative log-probability; kept beams in blue, finished hypotheses (E) in green, pruned ones in grey.

    steps are BeamStep records (transformer.strategies); best_path (the best hypothesis's tokens, with its E when it
    has one) is drawn in red over its edges.
    """
    columns = _tree(steps, start)
    nodes = [n for column in columns for n in column]
    busy = {n.x for n in nodes if len(columns[n.x]) > _LABELLED_COLUMN}
    names = {"kept": kept_label, "finished": finished_label, "pruned": pruned_label}
    colors = {"kept": KEPT_COLOR, "finished": FINISHED_COLOR, "pruned": PRUNED_COLOR}
    fig = go.Figure()
    for status in ("pruned", "kept", "finished"):
        edges = [n for n in nodes if n.parent is not None and n.status == status]
        xs, ys = [], []
        for n in edges:
            xs += [n.parent.x, n.x, None]
            ys += [n.parent.y, n.y, None]
        dash = "dot" if status == "pruned" else "solid"
        fig.add_trace(
            go.Scatter(
                x=xs, y=ys, mode="lines", name=names[status], hoverinfo="skip",
                line=dict(color=colors[status], width=1 if status == "pruned" else 2, dash=dash),
            )
        )  # fmt: skip
        labelled = [n for n in edges if status != "pruned" or n.x not in busy]
        fig.add_trace(  # each edge's label sits just above its end, where no other edge ends
            go.Scatter(
                x=[n.x - 0.04 for n in labelled],
                y=[n.y for n in labelled],
                mode="text",
                text=[f"{n.log_prob:.2f}" for n in labelled],
                textposition="top left",
                textfont=dict(size=10, color="#aaaaaa" if status == "pruned" else colors[status]),
                hoverinfo="skip",
                showlegend=False,
            )
        )
    best = _best_node(nodes, best_path)
    if best is not None:
        xs, ys, node = [], [], best
        while node is not None:
            xs.append(node.x)
            ys.append(node.y)
            node = node.parent
        fig.add_trace(
            go.Scatter(x=xs, y=ys, mode="lines", name=best_label, line=dict(color=CHOSEN_COLOR, width=4), opacity=0.5)
        )
    fig.add_trace(
        go.Scatter(
            x=[n.x for n in nodes],
            y=[n.y for n in nodes],
            mode="markers+text",
            text=[plotly_text(n.token) if n.status != "pruned" or n.x not in busy else "" for n in nodes],
            textposition="middle right",
            textfont=dict(
                color=["#999999" if n.status == "pruned" else "#111111" for n in nodes],
                size=[11 if n.status == "pruned" else 13 for n in nodes],
            ),
            marker=dict(
                size=[6 if n.status == "pruned" else 10 for n in nodes],
                color=[colors[n.status] for n in nodes],
                line=dict(color="white", width=1),
            ),
            customdata=[
                [plotly_text(" ".join((start, *n.path))), names[n.status] if n.parent else "", f"{n.log_prob:.3f}"]
                for n in nodes
            ],
            hovertemplate=f"%{{customdata[0]}}<br>{log_prob_label}: %{{customdata[2]}}<br>%{{customdata[1]}}"
            "<extra></extra>",
            showlegend=False,
        )
    )
    n_steps = len(columns)
    fig.update_layout(
        xaxis=dict(
            tickmode="array",
            tickvals=list(range(n_steps)),
            ticktext=[f"{step_label} {x}" if x else "" for x in range(n_steps)],
            range=[-0.4, n_steps - 0.3],
            showgrid=False,
            zeroline=False,
        ),
        yaxis=dict(visible=False, autorange="reversed"),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
    )
    tallest = max(len(column) for column in columns)
    return finish(fig, title, height(tallest, cell=24, extra=120, lo=260, hi=900))


def _best_node(nodes: list[_Node], best_path: Sequence[str] | None) -> _Node | None:
    if not best_path:
        return None
    wanted = tuple(best_path)
    found = [n for n in nodes if n.path == wanted and n.status != "pruned"]
    return max(found, key=lambda n: n.x) if found else None


def sampling_figure(
    probs,
    tempered,
    final,
    itos: Sequence[str],
    chosen_id: int,
    k=8,
    title="",
    model_label="model",
    tempered_label="after temperature",
    final_label="after top-k / top-p",
    prob_label="probability",
    token_label="token",
    chosen_label="drawn",
) -> go.Figure:
    """Grouped horizontal bars for the model's k most probable tokens (and the drawn one): the model's probability,
    after temperature, and after top-k / top-p, the distribution the token was drawn from; the drawn token in red."""
    p = floats(probs, 1, "probs")  # (V,)
    p_t, p_f = floats(tempered, 1, "tempered"), floats(final, 1, "final")  # (V,), (V,)
    if not p.shape == p_t.shape == p_f.shape:
        raise ValueError(f"the three distributions differ in size: {p.shape[0]}, {p_t.shape[0]}, {p_f.shape[0]}.")
    vocab = token_labels(itos, p.shape[0], "itos", "vocabulary entries")
    top = np.argsort(-p, kind="stable")[: max(1, min(int(k), p.shape[0]))].tolist()
    if int(chosen_id) not in top:
        top.append(int(chosen_id))
    rows = list(range(len(top)))
    ticks = [f"<b>{vocab[i]}</b> ◀" if i == int(chosen_id) else vocab[i] for i in top]
    fig = go.Figure()
    for label, dist, color in ((model_label, p, MODEL_COLOR), (tempered_label, p_t, TEMPERED_COLOR)):
        fig.add_trace(_bars(label, dist, top, rows, vocab, color, prob_label, token_label))
    final_colors = [CHOSEN_COLOR if i == int(chosen_id) else FINAL_COLOR for i in top]
    fig.add_trace(
        _bars(final_label, p_f, top, rows, vocab, final_colors, prob_label, token_label, chosen_label, int(chosen_id))
    )
    fig.update_layout(
        barmode="group",
        bargap=0.25,
        xaxis=dict(title=dict(text=prob_label), range=[0, 1.05], gridcolor="#eeeeee"),
        yaxis=dict(tickmode="array", tickvals=rows, ticktext=ticks, autorange="reversed", title=dict(text=token_label)),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
    )
    return finish(fig, title, height(len(top), cell=54, extra=130, lo=240, hi=900))


def _bars(name, dist, top, rows, vocab, color, prob_label, token_label, chosen_label="", chosen_id=None) -> go.Bar:
    notes = [f" ({chosen_label})" if chosen_label and i == chosen_id else "" for i in top]
    return go.Bar(
        x=[float(dist[i]) for i in top],
        y=rows,
        orientation="h",
        name=name,
        marker=dict(color=color),
        customdata=[[vocab[i], note] for i, note in zip(top, notes)],
        hovertemplate=f"{name}<br>{token_label}: %{{customdata[0]}}%{{customdata[1]}}<br>{prob_label}: %{{x:.4f}}"
        "<extra></extra>",
    )
