"""The Attention page's line view through AppTest: beside the matrix of every kind, the same weights as lines (one head,
the average, every head in its colour), a token chosen in the select box highlights its lines, in the presenter view
too, and the lesson sheet prints it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.apptest_helpers import chart_spec, open_app
from ui.sheet import Chart
from ui.strings import STRINGS
from viz.lines import DIMMED, line_alpha

ATTN = "pages/attention.py"
CHART, LINES = "click_attn_chart", "click_attn_chart_lines"


def matrix(spec: dict) -> np.ndarray:
    """The first heatmap's values (None, a blocked cell, as 0: its line is drawn clear)."""
    z = next(tr for tr in spec["data"] if tr["type"] == "heatmap")["z"]
    return np.array([[0.0 if v is None else v for v in row] for row in z], dtype=float)


def lines(spec: dict) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(query, key) of every line, its alpha and its hue, as the page drew them."""
    link = spec["data"][0]["link"]
    n_q = min(link["target"])
    ends = np.array([(s, t - n_q) for s, t in zip(link["source"], link["target"])])
    return ends, np.array([line_alpha(c) for c in link["color"]]), [c.rsplit(",", 1)[0] for c in link["color"]]


@pytest.mark.parametrize("kind", ["enc_self", "dec_self", "dec_enc"])
def test_beside_each_matrix_the_lines_are_drawn_from_the_same_numbers(kind):
    at = open_app("en", ATTN, attn_kind=kind, attn_layer=1, attn_head=1)
    assert not at.exception
    weights = matrix(chart_spec(at, CHART))
    spec = chart_spec(at, LINES)
    assert spec["data"][0]["type"] == "sankey"
    ends, alpha, _ = lines(spec)
    assert len(alpha) == weights.size
    np.testing.assert_allclose(alpha, weights[ends[:, 0], ends[:, 1]], atol=1e-4)  # the matrix's numbers
    written = [a["text"] for a in spec["layout"]["annotations"] if a.get("yanchor") == "middle"]
    rows = chart_spec(at, CHART)["layout"]["yaxis"]["ticktext"]
    cols = chart_spec(at, CHART)["layout"]["xaxis"]["ticktext"]
    assert written == [*rows, *cols]  # the query column, then the key column, as the matrix's axes name them


def test_the_average_and_every_head_in_its_colour():
    at = open_app("en", ATTN, attn_heads="average")
    ends, alpha, _ = lines(chart_spec(at, LINES))
    np.testing.assert_allclose(alpha, matrix(chart_spec(at, CHART))[ends[:, 0], ends[:, 1]], atol=1e-4)
    at.radio(key="attn_heads").set_value("grid").run()
    assert not at.exception
    n_heads = at.session_state.model.translator.config.n_heads
    ends, alpha, hues = lines(chart_spec(at, LINES))
    assert len(set(hues)) == n_heads and len(alpha) % n_heads == 0
    grid = chart_spec(at, CHART)  # every head's heatmap: head h's lines carry its numbers
    heads = [tr for tr in grid["data"] if tr["type"] == "heatmap"]
    per_head = len(alpha) // n_heads
    for h, trace in enumerate(heads):
        z = np.array(trace["z"], dtype=float)
        part = slice(h * per_head, (h + 1) * per_head)
        np.testing.assert_allclose(alpha[part], z[ends[part, 0], ends[part, 1]], atol=1e-4)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_token_chosen_in_the_select_box_keeps_its_lines_and_the_rest_fade(lang):
    at = open_app(lang, ATTN)
    box = at.selectbox(key=f"{LINES}_token")
    assert box.label == STRINGS["attn.lines_token"][lang]
    assert box.options[0] == STRINGS["attn.lines_none"][lang]
    _, plain, _ = lines(chart_spec(at, LINES))
    box.set_value("q1").run()  # the second decoder row, "I → love"
    assert not at.exception
    ends, alpha, _ = lines(chart_spec(at, LINES))
    mine = ends[:, 0] == 1
    np.testing.assert_allclose(alpha[mine], plain[mine], atol=1e-9)
    np.testing.assert_allclose(alpha[~mine], plain[~mine] * DIMMED, atol=1e-4)
    at.selectbox(key=f"{LINES}_token").set_value("k2").run()  # a key: the lines into 欢
    ends, alpha, _ = lines(chart_spec(at, LINES))
    np.testing.assert_allclose(alpha[ends[:, 1] == 2], plain[ends[:, 1] == 2], atol=1e-9)


def test_the_presenter_view_enlarges_the_lines_and_the_sheet_prints_them():
    at = open_app("en", ATTN, presenter=True)
    assert not at.exception
    spec = chart_spec(at, LINES)
    sizes = [a["font"]["size"] for a in spec["layout"]["annotations"] if a.get("font", {}).get("size")]
    assert sizes and min(sizes) >= 14  # every token written at 14 px or more
    ends, alpha, _ = lines(spec)
    np.testing.assert_allclose(alpha, matrix(chart_spec(at, CHART))[ends[:, 0], ends[:, 1]], atol=1e-4)
    charts = [b for s in at.session_state["_lesson_sheet"].sections for b in s.blocks if isinstance(b, Chart)]
    printed = [c for c in charts if c.caption.startswith(STRINGS["attn.lines_title"]["en"])]
    assert printed and printed[0].figure.data[0].type == "sankey"
