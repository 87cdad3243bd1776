"""Decoding: the next-token probabilities of one step, the beam-search tree, sampling's distributions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go

from .common import (
    CHOSEN_COLOR,
    OTHER_COLOR,
    colon,
    finish,
    floats,
    height,
    label_px,
    set_layout,
    text_px,
    tick_text,
    token_labels,
)
from .common import plotly_text as plotly_text

TOPK_PX = 440  # the next-token chart's width: its token labels are drawn in the plot, sized against this
ROW_HIT = "rgba(0,0,0,0)"  # the invisible bar spanning each whole row, which takes the hover and the click


def _top_ids(p: np.ndarray, k: int, chosen_id: int) -> list[int]:
    """The ids of the k most probable tokens (1 at least, the vocabulary at most), most probable first, and then the
    chosen token when it is not among them: a token the model found unlikely still gets its bar, at the bottom."""
    top = np.argsort(-p, kind="stable")[: max(1, min(int(k), p.shape[0]))].tolist()
    if 0 <= int(chosen_id) < p.shape[0] and int(chosen_id) not in top:
        top.append(int(chosen_id))
    return top


def _topk_axes(room: float, prob_label: str, token_label: str) -> dict:
    """The top-k layout: probability across (room for the labels left of 0), the tokens down, most probable on top."""
    return dict(
        barmode="overlay",
        xaxis=dict(
            title=dict(text=prob_label),
            range=[-room, 1.0],
            tickvals=[0, 0.25, 0.5, 0.75, 1],
            gridcolor="#eeeeee",
            zeroline=True,
            zerolinecolor="#bbbbbb",
        ),
        yaxis=dict(
            showticklabels=False, autorange="reversed", title=dict(text=token_label), showgrid=False, zeroline=False
        ),
        showlegend=False,
        hovermode="closest",
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
    chosen_color=CHOSEN_COLOR,
) -> go.Figure:
    """Horizontal bars of the k most probable tokens, most probable on top, the chosen token in chosen_color (red);
    a chosen token outside the k gets one more bar at the bottom.

    Every row is one click target, label and empty space included: the token labels are written in the plot, left of
    the bars, and an invisible bar (the last trace) spans the whole row; its customdata is [token label, chosen note,
    token id], so a click anywhere on a row tells which token it is, however small its probability. The figure is
    TOPK_PX wide, the labels' room measured against that.
    """
    p = floats(probs, 1, "probs")  # (V,)
    vocab = token_labels(itos, p.shape[0], "itos", "vocabulary entries")
    top = _top_ids(p, k, chosen_id)
    k = len(top)
    rows = list(range(k))
    is_chosen = [i == int(chosen_id) for i in top]
    tokens = [vocab[i] for i in top]
    labels = [tick_text(t) for t in tokens]
    label_room = label_px(labels) + 16  # px left of the bars
    room = label_room / max(TOPK_PX - 60 - label_room, 100)  # the same, in probability units of the x axis
    bars = go.Bar(
        x=[float(p[i]) for i in top],
        y=rows,
        orientation="h",
        name=prob_label,
        width=0.7,
        marker=dict(color=[chosen_color if c else OTHER_COLOR for c in is_chosen]),
        text=[f"{p[i]:.3f}" for i in top],
        textposition="auto",  # in the bar when it fits, else after it
        constraintext="none",  # at the font size, not shrunk to the bar
        hoverinfo="skip",
    )
    names = go.Scatter(
        x=[-room] * k, y=rows, mode="text", text=[f"<b>{t}</b>" if c else t for t, c in zip(labels, is_chosen)],
        textposition="middle right", hoverinfo="skip", showlegend=False, name=token_label,
    )  # fmt: skip
    hit = go.Bar(
        x=[1 + room] * k,
        base=[-room] * k,
        y=rows,
        orientation="h",
        width=1.0,
        name=token_label,
        marker=dict(color=ROW_HIT, line=dict(width=0)),
        customdata=[[t, f" ({chosen_label})" if c else "", i] for t, c, i in zip(tokens, is_chosen, top, strict=True)],
        hovertemplate=f"{colon(token_label)}%{{customdata[0]}}%{{customdata[1]}}<br>{colon(prob_label)}%{{text}}<extra></extra>",
        text=[f"{p[i]:.4f}" for i in top],
        textposition="none",
    )
    fig = go.Figure([bars, names, hit])
    set_layout(fig, _topk_axes(room, prob_label, token_label))
    finish(fig, title, height(k, cell=30, extra=100, lo=180, hi=480))
    set_layout(fig, dict(width=TOPK_PX))
    return fig


KEPT_COLOR, FINISHED_COLOR, PRUNED_COLOR = "#1f77b4", "#2ca02c", "#8c8c8c"
NODE_FILLS = {"kept": "#e3eef9", "finished": "#e2f3df", "pruned": "#f4f4f4"}
FORCED_COLOR = "#9467bd"  # a token the learner forced
MODEL_COLOR, TEMPERED_COLOR, FINAL_COLOR = "#c6dbef", "#6baed6", "#08519c"
TREE_PX = 540  # the page's width in a 1024 px window: a beam tree that needs more is drawn wider (the page scrolls it)
TREE_TOKEN_CHARS = 12  # a node shows its token whole up to this many characters; a longer one is cut in the middle
TREE_ROW_PX = 38  # px per node row: two lines of text in a box, and a gap
TREE_TEXT_PX, TREE_SCORE_PX = 12, 11  # font sizes of a node's token and of its log-probability under it
TREE_BOX_PX, TREE_EDGE_PX = 10, 14  # a box's padding and borders around its text; the least edge between two boxes
TREE_MIN_TEXT_PX = 20  # a box's text is at least this wide ("S", "E", "." alone would make a box too small to see)
TREE_MARGIN_PX = 40  # the figure's width beyond its columns: its margins, and the last step's tick label
PRUNED_LISTED = 12  # a pruned node's hover lists this many of its candidates, the most probable first


@dataclass
class _Node:
    x: int  # the step that made it (0: the root S)
    token: str
    path: tuple[str, ...]  # every token from the first one after S to this one
    log_prob: float
    status: str  # kept, finished, or pruned (one node standing for all of a step's pruned candidates)
    parent: _Node | None = None
    pruned: list = field(default_factory=list)  # (path, log-prob) of each candidate a pruned node stands for
    y: float = 0.0


def _tree(steps, start: str) -> list[list[_Node]]:
    """The nodes of the beam-search tree by column: each step's kept and finished candidates under their parent, best
    first (so no edges cross), then one node for all of the step's pruned candidates; columns centred on y = 0."""
    root = _Node(0, start, (), 0.0, "kept")
    columns, beams = [[root]], [root]
    for x, step in enumerate(steps, start=1):
        order = sorted(step.candidates, key=lambda c: (beams[c.parent].y, -c.log_prob))  # y: the row, for now
        column, kept, pruned = [], {}, []
        for c in order:
            parent = beams[c.parent]
            path = (*parent.path, c.token)
            if c.status == "pruned":
                pruned.append((path, c.log_prob))
                continue
            node = _Node(x, c.token, path, c.log_prob, c.status, parent, y=len(column))
            column.append(node)
            if c.status == "kept":
                kept[c.beam] = node
        if pruned:
            pruned.sort(key=lambda item: -item[1])
            column.append(_Node(x, "", (), pruned[0][1], "pruned", pruned=pruned, y=len(column)))
        columns.append(column)
        beams = [kept[i] for i in sorted(kept)]
    for column in columns:
        for node in column:
            node.y -= (len(column) - 1) / 2
    return columns


def _node_lines(node: _Node, pruned: str) -> tuple[str, str]:
    """A node's two lines: its token (whole up to TREE_TOKEN_CHARS characters, else cut in the middle) and its
    log-probability; for a pruned node "+70" over the word pruned."""
    if node.status == "pruned":
        return f"+{len(node.pruned)}", pruned
    token = plotly_text(node.token)
    if len(node.token) > TREE_TOKEN_CHARS:
        token = tick_text(token, TREE_TOKEN_CHARS)
    return token, f"{node.log_prob:.2f}" if node.parent is not None else ""


def _box_px(lines: tuple[str, str]) -> float:
    """The px a node's box takes across: its wider line, its padding and borders."""
    token, under = lines
    return max(text_px(token, TREE_TEXT_PX), text_px(under, TREE_SCORE_PX), TREE_MIN_TEXT_PX) + TREE_BOX_PX


def _node_text(lines: tuple[str, str]) -> str:
    """A node's box text: its token, its log-probability under it in a smaller grey font."""
    token, under = lines
    if not under:
        return token
    return f"{token}<br><span style='font-size:{TREE_SCORE_PX}px;color:#555555'>{under}</span>"


def _columns_px(columns_: list[list[_Node]], pruned: str) -> list[float]:
    """The px each column of the tree needs: its widest box and an edge's room beside it."""
    return [max(_box_px(_node_lines(n, pruned)) for n in column) + TREE_EDGE_PX for column in columns_]


def _best_trace(best: _Node, centres: list[float], best_label: str) -> go.Scatter:
    """The best hypothesis's path, from its node back to the root: a wide red line under its edges."""
    xs, ys, node = [], [], best
    while node is not None:
        xs.append(centres[node.x])
        ys.append(node.y)
        node = node.parent
    return go.Scatter(x=xs, y=ys, mode="lines", name=best_label, line=dict(color=CHOSEN_COLOR, width=7), opacity=0.45,
                      hoverinfo="skip")  # fmt: skip


def _edge_traces(nodes: list[_Node], centres: list[float], names: dict, colors: dict) -> list[go.Scatter]:
    """One line trace per status (kept, finished): an edge from each such node's beam to it."""
    traces = []
    for status in ("kept", "finished"):
        xs, ys = [], []
        for n in nodes:
            if n.parent is not None and n.status == status:
                xs += [centres[n.parent.x], centres[n.x], None]
                ys += [n.parent.y, n.y, None]
        traces.append(
            go.Scatter(x=xs or [None], y=ys or [None], mode="lines", name=names[status], hoverinfo="skip",
                       line=dict(color=colors[status], width=2))
        )  # fmt: skip
    return traces


def _node_boxes(nodes: list[_Node], centres: list[float], colors: dict, pruned_label: str) -> list[dict]:
    """Each node's box (an annotation): its token and log-probability, filled and bordered by its status."""
    boxes = []
    for n in nodes:
        lines = _node_lines(n, pruned_label)
        box = dict(
            x=centres[n.x], y=n.y, text=_node_text(lines), showarrow=False,
            font=dict(size=TREE_TEXT_PX, color="#111111"),
            bgcolor=NODE_FILLS[n.status], bordercolor=colors[n.status], borderwidth=2 if n.status != "pruned" else 1,
            borderpad=(TREE_BOX_PX - 4) // 2, captureevents=False,
        )  # fmt: skip
        if text_px(lines[0], TREE_TEXT_PX) <= TREE_MIN_TEXT_PX and not lines[1]:  # "S" alone: as wide as a word
            box["width"] = TREE_MIN_TEXT_PX + 4
        boxes.append(box)
    return boxes


def _tree_axes(centres: list[float], widths: list[float], rows: int, step_label: str) -> dict:
    """The tree's layout: a column per step named under it (x in px), the rows from the top, the legend above."""
    return dict(
        xaxis=dict(
            tickmode="array",
            tickvals=centres,
            ticktext=[f"{step_label} {x}" if x else "" for x in range(len(centres))],
            range=[0, sum(widths)],
            showgrid=False,
            zeroline=False,
            fixedrange=True,
        ),
        yaxis=dict(visible=False, range=[(rows - 1) / 2 + 0.75, -(rows - 1) / 2 - 0.75], fixedrange=True),  # 0 on top
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        hovermode="closest",
    )


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
    more_label="… {n} more",
) -> go.Figure:
    """The beam-search tree: one column per step, each node a box with its token and its cumulative log-probability,
    an edge from each beam to its kept (blue) and finished (green, E) candidates, and one grey node per step for
    all its pruned candidates (how many, over the word pruned_label; the hover lists them).

    steps are BeamStep records (transformer.decoding); best_path (the best hypothesis's tokens, with its E when it
    has one) is drawn in red under its edges. Each column is as wide as its widest box (tokens whole up to
    TREE_TOKEN_CHARS characters) and an edge: x is in px. A tree that needs more than TREE_PX gets that width
    (layout.width), and the page lets it scroll; a narrower one stretches to the page.
    """
    columns_ = _tree(steps, start)
    nodes = [n for column in columns_ for n in column]
    n_columns = len(columns_)
    widths = _columns_px(columns_, pruned_label)
    centres = [sum(widths[:i]) + widths[i] / 2 for i in range(n_columns)]  # each step's x: px from the plot's left
    names = {"kept": kept_label, "finished": finished_label, "pruned": pruned_label}
    colors = {"kept": KEPT_COLOR, "finished": FINISHED_COLOR, "pruned": PRUNED_COLOR}
    fig = go.Figure()
    best = _best_node(nodes, best_path)
    if best is not None:
        fig.add_trace(_best_trace(best, centres, best_label))
    fig.add_traces(_edge_traces(nodes, centres, names, colors))
    if any(n.status == "pruned" for n in nodes):  # a legend entry for the grey boxes, which have no edges
        swatch = dict(symbol="square", size=12, color=NODE_FILLS["pruned"], line=dict(color=PRUNED_COLOR, width=1))
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=pruned_label, marker=swatch))
    fig.update_layout(annotations=_node_boxes(nodes, centres, colors, pruned_label))
    fig.add_trace(  # invisible markers under the boxes carry the hover
        go.Scatter(
            x=[centres[n.x] for n in nodes],
            y=[n.y for n in nodes],
            mode="markers",
            marker=dict(size=22, color="rgba(0,0,0,0)"),
            customdata=[_hover(n, start, names, log_prob_label, more_label) for n in nodes],
            hovertemplate="%{customdata}<extra></extra>",
            showlegend=False,
            name="nodes",
        )
    )
    rows = max(len(column) for column in columns_)
    set_layout(fig, _tree_axes(centres, widths, rows, step_label))
    finish(fig, title, rows * TREE_ROW_PX + 110)
    if sum(widths) + TREE_MARGIN_PX > TREE_PX:
        fig.update_layout(width=int(sum(widths) + TREE_MARGIN_PX))
    if n_columns > 8:  # "step 10" under every column would not fit: every other step
        fig.update_xaxes(ticktext=[f"{x}" if x else "" for x in range(n_columns)], title=dict(text=step_label))
    return fig


def _hover(node: _Node, start: str, names: dict, log_prob_label: str, more_label: str) -> str:
    """A node's hover: its whole path and log-probability, or for a pruned node every candidate it stands for."""
    if node.status != "pruned":
        line = f"{plotly_text(' '.join((start, *node.path)))}<br>{colon(log_prob_label)}{node.log_prob:.3f}"
        return line + (f"<br>{names[node.status]}" if node.parent is not None else "")
    shown = [f"{plotly_text(' '.join((start, *path)))}: {lp:.3f}" for path, lp in node.pruned[:PRUNED_LISTED]]
    if len(node.pruned) > PRUNED_LISTED:
        shown.append(more_label.format(n=len(node.pruned) - PRUNED_LISTED))
    return f"<b>{names['pruned']}</b> ({len(node.pruned)})<br>" + "<br>".join(shown)


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
    top = _top_ids(p, k, chosen_id)
    rows = list(range(len(top)))
    ticks = [f"<b>{vocab[i]}</b> ◀" if i == int(chosen_id) else vocab[i] for i in top]
    fig = go.Figure()
    for label, dist, color in ((model_label, p, MODEL_COLOR), (tempered_label, p_t, TEMPERED_COLOR)):
        fig.add_trace(_bars(label, dist, top, rows, vocab, color, prob_label, token_label))
    final_colors = [CHOSEN_COLOR if i == int(chosen_id) else FINAL_COLOR for i in top]
    fig.add_trace(
        _bars(final_label, p_f, top, rows, vocab, final_colors, prob_label, token_label, chosen_label, int(chosen_id))
    )
    set_layout(
        fig,
        dict(
            barmode="group",
            bargap=0.25,
            xaxis=dict(title=dict(text=prob_label), range=[0, 1.05], gridcolor="#eeeeee"),
            yaxis=dict(
                tickmode="array", tickvals=rows, ticktext=ticks, autorange="reversed", title=dict(text=token_label)
            ),
            legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        ),
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
        hovertemplate=f"{name}<br>{colon(token_label)}%{{customdata[0]}}%{{customdata[1]}}<br>{colon(prob_label)}%{{x:.4f}}"
        "<extra></extra>",
    )
