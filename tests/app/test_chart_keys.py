"""The keyboard twins of the Attention page's charts through AppTest: choosing a head in the list beside a chart of
every head opens it as a click on it does, and choosing a cell in the list beside the map marks it, then unmarks it."""

import pytest

from tests.app.test_page_attention import ATTN, CHART, PAIRS, outlined
from tests.apptest_helpers import chart_spec, open_app
from ui.chart_keys import toggled


def test_toggled_adds_a_cell_and_takes_a_marked_one_away():
    assert toggled([], (1, 2)) == [(1, 2)]
    assert toggled([[0, 0], (1, 2)], (1, 2)) == [(0, 0)]  # marks read back from a link are lists
    assert toggled([(0, 0)], (3, 1)) == [(0, 0), (3, 1)]


@pytest.mark.parametrize("key", ["attn_open_head_stat", "attn_open_head_maps"])
def test_a_head_chosen_in_a_twin_opens_it(key):
    at = open_app("en", ATTN, pairs=PAIRS)
    assert at.selectbox(key=key).value == 4  # layer 2 · head 1 of a 2-layer, 4-head model is open
    at.selectbox(key=key).set_value(2).run()  # layer 1 · head 3
    assert not at.exception
    assert (at.selectbox(key="attn_layer").value, at.selectbox(key="attn_head").value) == (0, 2)
    assert at.selectbox(key="attn_open_head_stat").value == at.selectbox(key="attn_open_head_maps").value == 2


def test_a_cell_chosen_in_the_twin_is_marked_then_unmarked():
    at = open_app("zh", ATTN, pairs=PAIRS)
    at.selectbox(key="attn_mark_cell").set_value((1, 1)).run()  # I → love on 喜
    assert not at.exception
    assert at.session_state.attn_marks == [(1, 1)] and outlined(chart_spec(at, CHART)) == [(1, 1)]
    assert at.selectbox(key="attn_mark_cell").value is None  # ready for the next cell
    at.selectbox(key="attn_mark_cell").set_value((1, 1)).run()
    assert at.session_state.attn_marks == [] and outlined(chart_spec(at, CHART)) == []
