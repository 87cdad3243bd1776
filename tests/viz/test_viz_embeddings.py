"""viz.embeddings: the learned embeddings on a plane, one trace per class in the legend's order, token texts shown
literally, the chosen token ringed, and as many texts written beside their dots as can be read without overlap: the
chosen token's, its neighbours', then the most frequent."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from viz.common import CHOSEN_COLOR, text_px
from viz.embeddings import GAP_PX, GREY, LABEL_PX, LABELS, LINE_EM, PLOT_PX, embedding_figure


def test_one_trace_per_class_in_the_legends_order_with_tokens_shown_literally():
    xy = [(0.0, 1.0), (1.0, 0.0), (2.0, 2.0), (3.0, 1.0)]
    tokens = ["猫", "<b>x</b>", "吃", "$y$"]
    classes = ["noun", "other", "verb", "noun"]
    names = {"verb": "动词", "noun": "名词", "other": "不在词表中"}
    fig = embedding_figure(xy, tokens, classes, names, chosen=2, near=[0, 2, 3], near_name="nearest")
    verb, noun, other, near, labels, chosen, ring = fig.data
    assert (verb.name, noun.name, other.name) == ("动词 (1)", "名词 (2)", "不在词表中 (1)")
    assert list(noun.x) == [0.0, 3.0] and [c[0] for c in noun.customdata] == ["猫", "&#36;y&#36;"]  # on hover
    assert [c[0] for c in other.customdata] == ["&lt;b&gt;x&lt;/b&gt;"] and other.marker.color == GREY  # no class
    assert verb.marker.color != noun.marker.color != GREY
    # the chosen token's text in red beside its ring; its neighbours' texts (four dots far apart: room for all)
    assert (list(ring.x), ring.marker.line.color) == ([2.0], CHOSEN_COLOR)
    assert (list(chosen.text), chosen.textfont.color, chosen.meta) == (["吃"], CHOSEN_COLOR, {LABELS: [2]})
    assert sorted(labels.text) == sorted(["猫", "$y$".replace("$", "&#36;")])  # the neighbours, shown literally
    assert (list(near.x), near.name) == ([0.0, 3.0], "nearest")  # the chosen one is not its own neighbour
    with pytest.raises(ValueError):
        embedding_figure(xy, tokens[:3], classes, {})


def boxes(fig) -> dict[int, tuple]:
    """Each written label's box in px of PLOT_PX, worked out afresh from the figure: its dot on the axes' ranges, its
    text's width (an upper bound) and height, on the side of the dot its textposition names."""
    (x0, x1), (y0, y1) = fig.layout.xaxis.range, fig.layout.yaxis.range
    out = {}
    for trace in (tr for tr in fig.data if isinstance(tr.meta, dict) and LABELS in tr.meta):
        for index, x, y, text, place in zip(trace.meta[LABELS], trace.x, trace.y, trace.text, trace.textposition):
            px, py = (x - x0) / (x1 - x0) * PLOT_PX[0], (y1 - y) / (y1 - y0) * PLOT_PX[1]
            w, h = text_px(text, LABEL_PX), LABEL_PX * LINE_EM
            vertical, horizontal = place.split()
            left = {"center": px - w / 2, "right": px + GAP_PX, "left": px - GAP_PX - w}[horizontal]
            top = {"middle": py - h / 2, "top": py - GAP_PX - h, "bottom": py + GAP_PX}[vertical]
            out[index] = (left, top, left + w, top + h)
    for note in fig.layout.annotations:  # a label drawn apart: its centre (ax, ay) px from its dot
        if note.name.startswith(LABELS):
            px, py = (note.x - x0) / (x1 - x0) * PLOT_PX[0], (y1 - note.y) / (y1 - y0) * PLOT_PX[1]
            w, h = text_px(note.text, LABEL_PX), LABEL_PX * LINE_EM
            index, cx, cy = int(note.name.rsplit(maxsplit=1)[1]), px + note.ax, py + note.ay
            out[index] = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    return out


def test_labels_that_fit_are_written_the_chosen_and_its_neighbours_first_then_the_most_frequent():
    rng = np.random.default_rng(0)
    n = 150
    xy = rng.normal(size=(n, 2))  # a crowd, as a real table's projection is
    tokens = [f"word{i}" for i in range(n)]
    counts = list(rng.integers(1, 100, size=n))
    chosen, near = 7, [3, 11, 42, 99, 120, 5, 60, 8]
    fig = embedding_figure(xy, tokens, ["noun"] * n, {}, chosen=chosen, near=near, counts=counts)
    written = boxes(fig)
    assert {chosen, *near} <= set(written)  # the chosen token and every neighbour named
    assert 12 < len(written) < n  # more than those, but not all: a hundred and fifty would overlap
    for (i, a), (j, b) in itertools.combinations(written.items(), 2):  # no two labels meet
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (tokens[i], tokens[j])
    assert all(a[0] >= 0 and a[2] <= PLOT_PX[0] and a[1] >= 0 and a[3] <= PLOT_PX[1] for a in written.values())
    others = [i for i in range(n) if i not in {chosen, *near}]
    named = [counts[i] for i in others if i in written]
    unnamed = [counts[i] for i in others if i not in written]
    assert np.mean(named) > np.mean(unnamed)  # the frequent tokens come first
