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
    fig = embedding_figure(xy, tokens, classes, {"verb": "动词", "noun": "名词", "other": "不在词表中"}, chosen=2)
    verb, noun, other, ring = fig.data
    assert (verb.name, noun.name, other.name) == ("动词 (1)", "名词 (2)", "不在词表中 (1)")
    assert list(noun.x) == [0.0, 3.0] and list(noun.text) == ["猫", "&#36;y&#36;"]
    assert list(other.text) == ["&lt;b&gt;x&lt;/b&gt;"] and other.marker.color == GREY  # no class: grey
    assert verb.marker.color != noun.marker.color != GREY
    assert (list(ring.x), ring.marker.line.color) == ([2.0], CHOSEN_COLOR)  # 吃, ringed
    with pytest.raises(ValueError):
        embedding_figure(xy, tokens[:3], classes, {})
