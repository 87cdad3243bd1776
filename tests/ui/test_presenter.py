"""The presenter view (issue 32 §2): a sidebar switch and `present=1` in a link enlarge every chart's fonts where
ui.export.chart draws it, cell numbers keep at most two decimals in cells big enough for them, and axis titles say
words, not code names. The browser test tests/e2e/test_e2e_presenter.py measures the cell numbers' px."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from tests.apptest_helpers import open_link
from transformer import Translator
from transformer.trace import trace_sentence
from ui.presenter import PRESENTER_CSS
from viz.common import CELL_TEXT, written
from viz.presenter import (
    CELL_FONT_PX,
    CHAR_EM,
    LINE_SPACING,
    MIN_CELL_FONT_PX,
    PRESENTER_SCALE,
    fewer_decimals,
    presenter_figure,
)
from viz.trace import architecture_figure, step_figure

MASKS = "pages/masks.py"
ATTN_AXES = ("batch", "heads", "len_q", "len_k")


def _attn_figure(n: int = 6, **kw):
    rng = np.random.default_rng(0)
    tokens = [None, None, [f"q{i}" for i in range(n)], [f"k{i}" for i in range(n)]]
    return step_figure(rng.random((1, 2, n, n)), ATTN_AXES, tokens, title="attn", **kw)


@pytest.mark.parametrize(
    "text, shown",
    [("0.1234", "0.12"), ("-1.2345", "-1.23"), ("−0.5678", "−0.57"), ("9.999", "10.00"), ("-0.0001", "0.00")]
    + [("0.50", "0.50"), ("7", "7"), ("−∞", "−∞"), ("", "")],
)
def test_cell_numbers_keep_two_decimals(text, shown):
    assert fewer_decimals(text) == shown


def _plotly_cell_font(fig, index: int = 0) -> float:
    """The px plotly.js writes a square heatmap's cell numbers at, when the figure's height limits its cells (as it
    fits cell text: the cell's width over the text's characters, its height over a line, capped by the layout font)."""
    trace = fig.data[index]
    n_rows = len(trace.text)
    chars = max(len(v) for row in written(fig, index) for v in row)
    margin = fig.layout.margin
    cell = (fig.layout.height - margin.t - margin.b - 60) / n_rows  # 60: the x tick labels and title, about
    return min((cell - 1) / chars / CHAR_EM, (cell - 1) / LINE_SPACING, fig.layout.font.size)


def test_a_heatmap_gets_larger_fonts_and_readable_cell_numbers_and_the_original_is_unchanged():
    fig = _attn_figure()
    before = fig.to_plotly_json()
    shown = presenter_figure(fig)
    assert fig.to_plotly_json() == before  # the lesson sheet keeps the figure as it was
    assert shown.layout.font.size >= CELL_FONT_PX > fig.layout.font.size
    # Streamlit's chart theme sizes titles, tick labels and colour bars itself: each is given its larger size
    fonts = [shown.layout.xaxis.tickfont, shown.layout.yaxis.title.font, shown.data[0].colorbar.tickfont]
    assert all(font.size == shown.layout.font.size for font in fonts)
    assert shown.layout.title.font.size > shown.layout.font.size
    cells = written(shown)
    assert all(len(v.split(".")[-1]) == 2 for row in cells for v in row)  # "0.1234" → "0.12"
    assert written(fig)[0][0].startswith(cells[0][0][:3])
    assert shown.data[1].meta == CELL_TEXT  # the copy that writes the white numbers: blanks of the new length
    assert {len(v) for row in shown.data[1].text for v in row} == {4}
    assert _plotly_cell_font(fig) < MIN_CELL_FONT_PX <= _plotly_cell_font(shown)


def test_a_diagram_drawn_in_px_grows_as_a_whole_so_its_text_still_fits_its_boxes():
    pairs = [("我 喜 欢 你", "I love you ."), ("他 有 一 只 猫", "He has a cat .")]
    translator = Translator.create(pairs, seed=0, d_model=8, d_ff=16, n_heads=2, n_layers=1)
    trace = trace_sentence(translator, "我 喜 欢 你", "I love you .", 1, 1)
    labels = [b.kind for b in trace.blocks]
    fig = architecture_figure(trace.blocks, labels, [b.sizes for b in trace.blocks], selected=3, n_layers=1)
    shown = presenter_figure(fig)
    grow = shown.layout.width / fig.layout.width
    assert grow == pytest.approx(PRESENTER_SCALE, abs=0.01)
    assert shown.layout.height / fig.layout.height == pytest.approx(grow, abs=0.01)
    assert shown.layout.xaxis.range == fig.layout.xaxis.range  # one data unit: PRESENTER_SCALE px, text alike
    sizes = [(a.font.size, b.font.size) for a, b in zip(fig.layout.annotations, shown.layout.annotations) if a.text]
    assert sizes and all(new == pytest.approx(old * grow, abs=0.2) for old, new in sizes)


def test_axis_titles_say_words_and_the_hover_keeps_the_code_name():
    words = {"len_q": "query position", "len_k": "key position"}
    fig = _attn_figure(axis_words=words)
    assert (fig.layout.yaxis.title.text, fig.layout.xaxis.title.text) == ("query position", "key position")
    assert "query position (len_q)" in fig.data[0].hovertemplate
    plain = _attn_figure()
    assert (plain.layout.yaxis.title.text, plain.layout.xaxis.title.text) == ("len_q", "len_k")


def _html(at) -> list[str]:
    return [el.proto.body for el in at.get("html")]


def _font_sizes(at) -> list[float]:
    return [json.loads(el.proto.spec)["layout"]["font"]["size"] for el in at.get("plotly_chart")]


def test_a_link_with_present_1_turns_the_view_on_and_the_switch_turns_it_off():
    # two runs of the Masks page (1–3 s); the switch's value survives page switches as every widget's does
    # (persist_state, tests/ui/test_state.py), and the browser test clicks the switch on
    at = open_link(MASKS, {"present": "1"})
    assert at.sidebar.toggle(key="presenter").value is True
    assert _html(at).count(PRESENTER_CSS) == 1  # the page's text grows too, by the app's one constant rule
    assert at.query_params["present"] in ("1", ["1"])  # and a link made now carries it on
    larger = _font_sizes(at)
    at.sidebar.toggle(key="presenter").set_value(False).run()
    plain = _font_sizes(at)
    assert len(larger) == len(plain) > 0 and all(a > b for a, b in zip(larger, plain))
    assert PRESENTER_CSS not in _html(at) and "present" not in at.query_params


def test_no_text_of_a_figure_is_drawn_under_14_px_in_the_presenter_view():
    """Issue 42: a figure's small print (here 8 and 9 px, which 1.4 times would leave at 11–13 px) is raised to
    MIN_CELL_FONT_PX: tick labels, colour bar ticks, annotations, bar labels."""
    fig = go.Figure(
        [go.Heatmap(z=[[0.1, 0.9]], colorbar=dict(tickfont=dict(size=8))), go.Bar(y=[1, 2], text=["1", "2"])]
    )
    fig.update_layout(height=300, xaxis=dict(tickfont=dict(size=9)), yaxis=dict(tickfont=dict(size=8)))
    fig.add_annotation(text="0.25", font=dict(size=9), x=0, y=0)
    fig.update_traces(textfont=dict(size=8), selector=dict(type="bar"))
    shown = presenter_figure(fig)
    fonts = [
        shown.layout.xaxis.tickfont,
        shown.layout.yaxis.tickfont,
        shown.data[0].colorbar.tickfont,
        shown.layout.annotations[0].font,
        shown.data[1].textfont,
    ]
    assert [font.size for font in fonts] == [MIN_CELL_FONT_PX] * 5
    assert fig.layout.xaxis.tickfont.size == 9  # the sheet's figure keeps its own
