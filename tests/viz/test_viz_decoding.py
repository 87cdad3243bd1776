"""The decoding figures: the top-k bars with token ids, the beam-search tree, sampling's three distributions."""

from __future__ import annotations

import json
import re

import pytest
import torch

from transformer import Translator
from transformer.config import MAX_TOKEN_CHARS
from transformer.decoding import beam_search
from viz.common import CHOSEN_COLOR, TICK_COLUMNS, columns, label_px, text_px
from viz.decoding import (
    FINISHED_COLOR,
    KEPT_COLOR,
    PRUNED_COLOR,
    ROW_HIT,
    TOPK_PX,
    TREE_BOX_PX,
    TREE_EDGE_PX,
    TREE_PX,
    beam_tree_figure,
    sampling_figure,
    topk_figure,
)

TINY = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 1}


def test_topk_bars_carry_token_ids_and_keep_a_forced_token_outside_the_top():
    probs = torch.tensor([0.0, 0.0, 0.05, 0.5, 0.3, 0.15])
    itos = ["P", "S", "E", "cat", "dog", "<b>"]
    fig = topk_figure(probs, itos, chosen_id=2, k=2, chosen_color="#123456")
    bar, names, rows = fig.data
    assert [row[2] for row in rows.customdata] == [3, 4, 2]  # the chosen E gets a row below the top 2
    assert list(names.text) == ["cat", "dog", "<b>E</b>"]
    assert list(bar.marker.color) == [bar.marker.color[0]] * 2 + ["#123456"]
    fig = topk_figure(probs, itos, chosen_id=5, k=3)
    assert list(fig.data[1].text) == ["cat", "dog", "<b>&lt;b&gt;</b>"]  # shown literally


def test_every_row_of_the_topk_chart_is_one_click_target_from_its_label_to_the_end_of_the_axis():
    probs = torch.tensor([0.0, 0.0, 0.001, 0.003, 0.996])
    fig = topk_figure(probs, ["P", "S", "E", "a" * MAX_TOKEN_CHARS, "dog"], chosen_id=4, k=3)
    bar, names, rows = fig.data
    lo, hi = fig.layout.xaxis.range
    assert hi == 1 and lo < 0  # the labels are in the plot, left of 0
    assert list(names.x) == [lo] * 3 and names.textposition == "middle right" and names.hoverinfo == "skip"
    assert bar.hoverinfo == "skip" and fig.layout.barmode == "overlay"  # the hover and the click go to rows
    for base, length in zip(rows.base, rows.x):
        assert base == lo and base + length == pytest.approx(hi)  # label, bar and empty space
    assert rows.width == 1 and rows.marker.color == ROW_HIT  # the whole height of the row, invisible
    assert columns(names.text[1]) <= TICK_COLUMNS  # a long token is cut; its row's hover has it whole
    assert rows.customdata[1][0] == "a" * MAX_TOKEN_CHARS
    room = label_px(names.text) / TOPK_PX  # the labels' share of the figure's width
    assert fig.layout.width == TOPK_PX and -lo / (1 - lo) >= room


@pytest.fixture(scope="module")
def search():
    pairs = [("我吃饭", "I eat rice ."), ("你吃面", "You eat <b>noodles</b> .")]
    translator = Translator.create(pairs, seed=1, **TINY)
    enc = translator.encode_source("我吃饭")[0]
    return beam_search(translator.model, enc, translator.tgt_vocab, beam_size=3, max_len=5)


def _boxes(fig) -> list[dict]:
    """Each node's box (an annotation): its text's first line (the token), its colours, where it is."""
    return [
        dict(token=a.text.split("<br>")[0], border=a.bordercolor, x=a.x, y=a.y, text=a.text)
        for a in fig.layout.annotations
    ]


def test_the_beam_tree_has_a_box_per_kept_or_finished_candidate_and_one_per_step_for_the_pruned(search):
    best = search.best
    path = best.tokens + (["E"] if best.finished else [])
    fig = beam_tree_figure(search.steps, best_path=path, kept_label="kept", pruned_label="pruned")
    boxes = _boxes(fig)
    assert boxes[0]["token"] == "S" and boxes[0]["x"] == 0  # the root, a box of its own
    colors = {"kept": KEPT_COLOR, "finished": FINISHED_COLOR}
    for step in search.steps:
        column = [b for b in boxes if b["x"] == step.step]
        shown = [c for c in step.candidates if c.status != "pruned"]
        pruned = [c for c in step.candidates if c.status == "pruned"]
        assert sorted(b["border"] for b in column if b["border"] != PRUNED_COLOR) == sorted(
            colors[c.status] for c in shown
        )
        summary = [b for b in column if b["border"] == PRUNED_COLOR]
        assert len(summary) == (1 if pruned else 0)  # all of a step's pruned candidates in one box, at the bottom
        if pruned:
            assert summary[0]["token"] in (f"{len(pruned)} pruned", f"+{len(pruned)}")
            assert summary[0]["y"] == max(b["y"] for b in column)
        for c in shown:  # each box has its score under its token
            assert f"{c.log_prob:.2f}" in " ".join(b["text"] for b in column)
    hover = fig.data[-1]
    assert len(hover.x) == len(boxes)  # one hover target per box
    pruned_hover = [h for h, b in zip(hover.customdata, boxes) if b["border"] == PRUNED_COLOR]
    lost = [c for step in search.steps for c in step.candidates if c.status == "pruned"]
    assert sum(h.count("<br>") for h in pruned_hover) == len(lost)  # every pruned candidate listed (few here)
    best_line = next(trace for trace in fig.data if trace.name == "best")
    assert best_line.line.color == CHOSEN_COLOR and len(best_line.x) == len(path) + 1
    json.dumps(fig.to_plotly_json(), default=str)


def test_children_are_drawn_under_their_parent_so_no_edges_cross(search):
    fig = beam_tree_figure(search.steps)
    edges = [trace for trace in fig.data if trace.mode == "lines"]
    segments = []
    for trace in edges:
        xs, ys = list(trace.x), list(trace.y)
        segments += [(xs[i], ys[i], ys[i + 1]) for i in range(0, len(xs) - 1, 3)]
    for x in {s[0] for s in segments}:
        column = sorted((parent, child) for x0, parent, child in segments if x0 == x)
        children = [child for _, child in column]
        assert children == sorted(children)  # parents in order have their children in the same order


@pytest.mark.parametrize("beam_size", [5, 10])
def test_a_wide_beam_tree_keeps_its_boxes_apart_and_its_labels_short(beam_size):
    long = [c * MAX_TOKEN_CHARS for c in "abcd长"]  # every target word as long as a token may be
    pairs = [(f"我 {'长' * 3}", f"{long[0]} {long[1]} {long[2]} ."), ("你 好", f"{long[4]} {long[3]} {long[0]} .")]
    translator = Translator.create(pairs, tokenizer="whitespace", seed=0, **TINY)
    enc = translator.encode_source("我 长长长")[0]
    result = beam_search(translator.model, enc, translator.tgt_vocab, beam_size=beam_size, max_len=8)
    fig = beam_tree_figure(result.steps, best_path=result.best.tokens)
    boxes = _boxes(fig)
    spacing = TREE_PX / (1 + len(result.steps))  # px between two columns at the narrowest width drawn
    for b in boxes:  # every box (its text, padding and borders) fits between its neighbours, with room for an edge
        lines = [
            (re.sub(r"<[^>]+>", "", line), 11 if "font-size:11px" in line else 12) for line in b["text"].split("<br>")
        ]
        widest = max(text_px(line, size) for line, size in lines)
        assert widest + TREE_BOX_PX + TREE_EDGE_PX <= spacing, b
    assert sum("…" in b["token"] for b in boxes) >= 3  # the long tokens, cut to fit
    rows = {}
    for b in boxes:
        rows.setdefault(b["x"], []).append(b["y"])
    plot_px = fig.layout.height - 110  # about: the legend, the step axis and the margins take the rest
    per_row = plot_px / (fig.layout.yaxis.range[0] - fig.layout.yaxis.range[1])
    for ys in rows.values():  # boxes of a column a row apart; a row holds two lines of text
        assert all(b - a == 1 for a, b in zip(sorted(ys), sorted(ys)[1:]))
    assert per_row >= 2 * 12 + 2 * 3 + 4
    assert max(len(ys) for ys in rows.values()) <= 2 * beam_size + 1  # pruned candidates take one box per step


def test_sampling_figure_shows_three_distributions_and_the_drawn_token():
    probs = torch.tensor([0.0, 0.0, 0.1, 0.6, 0.3])
    tempered = torch.tensor([0.0, 0.0, 0.2, 0.45, 0.35])
    final = torch.tensor([0.0, 0.0, 0.0, 0.5625, 0.4375])
    fig = sampling_figure(probs, tempered, final, ["P", "S", "E", "cat", "dog"], chosen_id=4, k=2, final_label="cut")
    assert [trace.name for trace in fig.data] == ["model", "after temperature", "cut"]
    assert [list(trace.x) for trace in fig.data] == [
        pytest.approx(v) for v in ([0.6, 0.3], [0.45, 0.35], [0.5625, 0.4375])
    ]
    assert list(fig.data[2].marker.color) == [fig.data[2].marker.color[0], CHOSEN_COLOR]
    assert fig.layout.yaxis.ticktext[1].startswith("<b>dog</b>")
    fig = sampling_figure(probs, tempered, final, ["P", "S", "E", "cat", "dog"], chosen_id=2, k=1)
    assert len(fig.data[0].x) == 2  # a drawn token outside the top k still gets its bars
    with pytest.raises(ValueError, match="differ in size"):
        sampling_figure(probs, tempered[:3], final, ["P", "S", "E", "cat", "dog"], chosen_id=2)
