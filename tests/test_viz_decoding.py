"""The decoding figures: the top-k bars with token ids, the beam-search tree, sampling's three distributions."""

from __future__ import annotations

import json

import pytest
import torch

from transformer import Translator
from transformer.strategies import beam_search
from viz.common import CHOSEN_COLOR
from viz.decoding import FINISHED_COLOR, KEPT_COLOR, PRUNED_COLOR, beam_tree_figure, sampling_figure, topk_figure

TINY = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 1}


def test_topk_bars_carry_token_ids_and_keep_a_forced_token_outside_the_top():
    probs = torch.tensor([0.0, 0.0, 0.05, 0.5, 0.3, 0.15])
    itos = ["P", "S", "E", "cat", "dog", "<b>"]
    fig = topk_figure(probs, itos, chosen_id=2, k=2, chosen_color="#123456")
    (bar,) = fig.data
    assert [row[2] for row in bar.customdata] == [3, 4, 2]  # the chosen E gets a bar below the top 2
    assert list(fig.layout.yaxis.ticktext) == ["cat", "dog", "E"]
    assert list(bar.marker.color) == [bar.marker.color[0]] * 2 + ["#123456"]
    fig = topk_figure(probs, itos, chosen_id=5, k=3)
    assert list(fig.layout.yaxis.ticktext) == ["cat", "dog", "&lt;b&gt;"]  # shown literally


@pytest.fixture(scope="module")
def search():
    pairs = [("我吃饭", "I eat rice ."), ("你吃面", "You eat <b>noodles</b> .")]
    translator = Translator.create(pairs, seed=1, **TINY)
    enc = translator.encode_source("我吃饭")[0]
    return beam_search(translator.model, enc, translator.tgt_vocab, beam_size=3, max_len=5)


def _nodes(fig):
    return fig.data[-1]


def test_the_beam_tree_has_a_node_per_candidate_coloured_by_what_became_of_it(search):
    best = search.best
    path = best.tokens + (["E"] if best.finished else [])
    fig = beam_tree_figure(search.steps, best_path=path, kept_label="kept", pruned_label="pruned")
    nodes = _nodes(fig)
    candidates = [c for step in search.steps for c in step.candidates]
    assert len(nodes.x) == 1 + len(candidates)  # the root S and every candidate
    assert nodes.text[0] == "S" and nodes.x[0] == 0
    colors = {"kept": KEPT_COLOR, "finished": FINISHED_COLOR, "pruned": PRUNED_COLOR}
    expected = sorted(colors[c.status] for c in candidates)
    assert sorted(nodes.marker.color[1:]) == expected
    for step in search.steps:  # every column holds its step's candidates
        assert sum(x == step.step for x in nodes.x) == len(step.candidates)
    labels = [t for trace in fig.data if trace.mode == "text" for t in trace.text]
    assert sorted(labels) == sorted(f"{c.log_prob:.2f}" for c in candidates)  # a label per edge
    best_line = next(trace for trace in fig.data if trace.name == "best")
    assert best_line.line.color == CHOSEN_COLOR and len(best_line.x) == len(path) + 1
    json.dumps(fig.to_plotly_json(), default=str)


def test_children_are_drawn_under_their_parent_so_no_edges_cross(search):
    fig = beam_tree_figure(search.steps)
    edges = [trace for trace in fig.data if trace.mode == "lines"]
    segments = []
    for trace in edges:
        xs, ys = list(trace.x), list(trace.y)
        segments += [(xs[i], ys[i], ys[i + 1]) for i in range(0, len(xs), 3)]
    for x in {s[0] for s in segments}:
        column = sorted((parent, child) for x0, parent, child in segments if x0 == x)
        children = [child for _, child in column]
        assert children == sorted(children)  # parents in order have their children in the same order


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
