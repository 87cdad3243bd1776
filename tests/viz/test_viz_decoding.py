"""The decoding figures: the top-k bars with token ids, the beam-search tree, sampling's three distributions."""

from __future__ import annotations

import html
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
    TREE_MARGIN_PX,
    TREE_PX,
    TREE_TOKEN_CHARS,
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
    steps_x = list(fig.layout.xaxis.tickvals)  # each step's x, in px from the plot's left
    assert boxes[0]["token"] == "S" and boxes[0]["x"] == steps_x[0]  # the root, a box of its own
    colors = {"kept": KEPT_COLOR, "finished": FINISHED_COLOR}
    for step in search.steps:
        column = [b for b in boxes if b["x"] == steps_x[step.step]]
        shown = [c for c in step.candidates if c.status != "pruned"]
        pruned = [c for c in step.candidates if c.status == "pruned"]
        assert sorted(b["border"] for b in column if b["border"] != PRUNED_COLOR) == sorted(
            colors[c.status] for c in shown
        )
        summary = [b for b in column if b["border"] == PRUNED_COLOR]
        assert len(summary) == (1 if pruned else 0)  # all of a step's pruned candidates in one box, at the bottom
        if pruned:
            assert summary[0]["text"].startswith(f"+{len(pruned)}<br>") and summary[0]["text"].endswith("pruned</span>")
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


def _lines(box: dict) -> list[tuple[str, int]]:
    """A box's lines as plotly takes them: their text without tags (entities kept), and their font size."""
    return [
        (re.sub(r"<[^>]+>", "", line), 11 if "font-size:11px" in line else 12) for line in box["text"].split("<br>")
    ]


@pytest.mark.parametrize("beam_size", [5, 10])
def test_a_wide_beam_tree_shows_whole_tokens_up_to_12_characters_and_keeps_its_boxes_apart(beam_size):
    words = ["abcdefghijkl", "长" * 12, "x" * MAX_TOKEN_CHARS, "<b>&amp;</b>", "mmmmmmmmmmmm"]  # 12, 12, 32, 12, 12
    pairs = [
        (f"我 {'长' * 3}", f"{words[0]} {words[1]} {words[2]} ."),
        ("你 好", f"{words[4]} {words[3]} {words[0]} ."),
    ]
    translator = Translator.create(pairs, tokenizer="whitespace", seed=0, **TINY)
    enc = translator.encode_source("我 长长长")[0]
    result = beam_search(translator.model, enc, translator.tgt_vocab, beam_size=beam_size, max_len=8)
    fig = beam_tree_figure(result.steps, best_path=result.best.tokens)
    boxes = _boxes(fig)
    tokens = {c.token for step in result.steps for c in step.candidates if c.status != "pruned"}
    shown = {html.unescape(_lines(b)[0][0]) for b in boxes}
    for token in tokens:  # up to 12 characters: whole; longer: cut in the middle, to 12 columns
        assert (token in shown) == (len(token) <= TREE_TOKEN_CHARS), token
    assert {"abcdefghijkl", "<b>&amp;</b>", "mmmmmmmmmmmm"} & tokens <= shown  # the widest ones, whole
    cut = [b["token"] for b in boxes if re.fullmatch("x+…x+", b["token"])]  # the 32 x's, cut to 12 columns
    assert [columns(c) for c in cut] == [TREE_TOKEN_CHARS] * len(cut) and bool(cut) == ("x" * MAX_TOKEN_CHARS in tokens)
    steps_x = list(fig.layout.xaxis.tickvals)
    lo, hi = fig.layout.xaxis.range
    assert lo == 0 and hi >= steps_x[-1]
    half = {}  # per column, half its widest box (text, padding and borders)
    for b in boxes:
        box = max(max(text_px(line, size) for line, size in _lines(b)), 20) + TREE_BOX_PX
        half[b["x"]] = max(half.get(b["x"], 0), box / 2)
    assert sorted(half) == steps_x
    for left, right in zip(steps_x, steps_x[1:]):  # neighbouring columns' boxes have an edge's room between them
        assert right - left >= half[left] + half[right] + TREE_EDGE_PX - 1e-9, (left, right)
    assert hi - steps_x[-1] >= half[steps_x[-1]] - 1e-9 and steps_x[0] >= half[steps_x[0]]  # and the plot holds them
    assert fig.layout.width is None or fig.layout.width >= hi  # x is in px: the plot is at least as wide as its range
    assert (fig.layout.width is not None) == (hi + TREE_MARGIN_PX > TREE_PX)  # wider than the page: a width of its own
    rows = {}
    for b in boxes:
        rows.setdefault(b["x"], []).append(b["y"])
    plot_px = fig.layout.height - 110  # about: the legend, the step axis and the margins take the rest
    per_row = plot_px / (fig.layout.yaxis.range[0] - fig.layout.yaxis.range[1])
    for ys in rows.values():  # boxes of a column a row apart; a row holds two lines of text
        assert all(b - a == 1 for a, b in zip(sorted(ys), sorted(ys)[1:]))
    assert per_row >= 2 * 12 + 2 * 3 + 4
    assert max(len(ys) for ys in rows.values()) <= 2 * beam_size + 1  # pruned candidates take one box per step


def test_a_short_beam_tree_stretches_to_the_page(search):
    fig = beam_tree_figure(search.steps)
    assert fig.layout.width is None and fig.layout.xaxis.range[1] + TREE_MARGIN_PX <= TREE_PX


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
