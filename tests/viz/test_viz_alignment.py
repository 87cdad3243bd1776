"""The alignment figures: the AER grid of heads and layer averages, and gold links over a cross-attention map."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch

from viz.alignment import (
    GOLD_CORNER,
    GOLD_MARK,
    POSSIBLE_MARK,
    SURE_MARK,
    aer_grid_figure,
    aer_matrix,
    best_cell,
    gold_links_layer,
)
from viz.attention import attention_figure
from viz.common import CHOSEN_COLOR


def test_the_aer_grid_has_a_column_per_head_then_the_average_and_frames_the_best():
    z = aer_matrix({(0, 0): 0.46, (0, 1): 0.43, (0, None): 0.31, (1, 0): 0.34, (1, 1): None, (1, None): 0.28}, 2, 2)
    assert z.shape == (2, 3) and math.isnan(z[1, 1])
    assert best_cell(z) == (1, 2)  # layer 2's average
    fig = aer_grid_figure(z, layer_label="层", head_label="头", average_label="平均", best=best_cell(z))
    heat = fig.data[0]
    assert list(fig.layout.xaxis.ticktext) == ["头 1", "头 2", "平均"]
    assert list(fig.layout.yaxis.ticktext) == ["层 1", "层 2"]
    assert list(heat.text[1]) == ["0.34", "", "0.28"]  # a missing AER: blank
    assert (heat.zmin, heat.zmax) == (0, 1)
    framed = [sh for sh in fig.layout.shapes if sh.line.color == CHOSEN_COLOR]
    assert [(sh.y0 + 0.5, sh.x0 + 0.5) for sh in framed] == [(1, 2)]
    assert best_cell(np.full((2, 3), np.nan)) is None
    with pytest.raises(ValueError, match="n_heads \\+ 1"):
        aer_grid_figure(np.zeros(3))


def test_gold_links_sit_in_the_row_that_predicts_the_target_word_and_leave_its_number_whole():
    fig = attention_figure(torch.full((4, 3), 1 / 3), ["S → I", "I → love", "love → you", "you → E"], list("我爱你"),
                           clickable=True)  # fmt: skip
    gold_links_layer(fig, sure={(0, 0), (2, 2)}, possible={(1, 1), (0, 0)}, sure_label="sure", possible_label="maybe")
    marks = [sh for sh in fig.layout.shapes if sh.name == GOLD_MARK]
    corners = [tuple(float(v) for v in re.findall(r"-?[\d.]+", sh.path)) for sh in marks]
    # (source column i, decoder row j): a triangle in the cell's top-left corner; 0-0 is sure: marked once, as sure
    cells = [(round(c[0] + 0.5), round(c[1] + 0.5)) for c in corners]
    assert cells == [(0, 0), (2, 2), (1, 1)]
    assert [sh.fillcolor for sh in marks] == [SURE_MARK["fillcolor"]] * 2 + [POSSIBLE_MARK["fillcolor"]]
    for x0, y0, x1, _, _, y2 in corners:  # within the corner, never near the centre where the number is written
        assert x1 - x0 == y2 - y0 == GOLD_CORNER <= 0.25
    sure, possible = [tr for tr in fig.data if tr.name in ("sure", "maybe")]  # the legend's entries, no point drawn
    assert sure.meta["links"] == [[0, 0], [2, 2]] and possible.meta["links"] == [[1, 1]]
    assert list(sure.x) == [None] and sure.hoverinfo == possible.hoverinfo == "skip"
    assert len(gold_links_layer(attention_figure(torch.ones(1, 1), ["a"], ["b"]), ()).data) == 1  # no gold: nothing
