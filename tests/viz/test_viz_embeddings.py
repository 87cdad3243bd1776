"""viz.embeddings: the learned embeddings on a plane, one trace per class in the legend's order, token texts shown
literally, the chosen token ringed."""

from __future__ import annotations

import pytest

from viz.common import CHOSEN_COLOR
from viz.embeddings import GREY, embedding_figure


def test_one_trace_per_class_in_the_legends_order_with_tokens_shown_literally():
    xy = [(0.0, 1.0), (1.0, 0.0), (2.0, 2.0), (3.0, 1.0)]
    tokens = ["猫", "<b>x</b>", "吃", "$y$"]
    classes = ["noun", "other", "verb", "noun"]
    names = {"verb": "动词", "noun": "名词", "other": "不在词表中"}
    fig = embedding_figure(xy, tokens, classes, names, chosen=2, near=[0, 2, 3], near_name="nearest")
    verb, noun, other, near, ring = fig.data
    assert (verb.name, noun.name, other.name) == ("动词 (1)", "名词 (2)", "不在词表中 (1)")
    assert list(noun.x) == [0.0, 3.0] and [c[0] for c in noun.customdata] == ["猫", "&#36;y&#36;"]  # on hover
    assert [c[0] for c in other.customdata] == ["&lt;b&gt;x&lt;/b&gt;"] and other.marker.color == GREY  # no class
    assert verb.marker.color != noun.marker.color != GREY
    # the chosen token's text beside its ring, and no other text drawn: a hundred would print over one another
    assert (list(ring.x), ring.marker.line.color, list(ring.text)) == ([2.0], CHOSEN_COLOR, ["吃"])
    assert [tr.text for tr in (verb, noun, other, near)] == [None] * 4
    assert (list(near.x), near.name) == ([0.0, 3.0], "nearest")  # the chosen one is not its own neighbour
    with pytest.raises(ValueError):
        embedding_figure(xy, tokens[:3], classes, {})
