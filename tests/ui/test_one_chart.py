"""One chart per screen (issue 42) through AppTest: the presenter view's second switch puts each chart in a container
of its own under its title and its sentence, draws ← "1 / N" → after the page with the rule that shows only the chart
on show, and the buttons step, wrap at the ends and keep each page's step. The browser test
tests/e2e/test_e2e_one_chart.py checks what the room sees (one chart at a time, the arrow keys, 14 px numbers)."""

from __future__ import annotations

import re

from tests.apptest_helpers import open_link
from ui.one_chart import SENTENCES, sentence_key
from ui.strings import STRINGS

MASKS, INSIDE = "pages/masks.py", "pages/inside.py"


def _position(at) -> str:
    return next(el.value for el in at.markdown if re.fullmatch(r"\d+ / \d+", el.value))


def _hidden_all_but(at) -> str:
    """The chart's container key that the mode's rule leaves shown."""
    rule = next(
        el.proto.body for el in at.get("html") if "one_chart_c_" in el.proto.body and "display: none" in el.proto.body
    )
    return re.search(r":not\(\.st-key-(one_chart_c_\w+)\)", rule).group(1)


def test_the_switch_shows_one_chart_at_a_time_and_the_buttons_step_and_wrap_per_page():
    at = open_link(MASKS, {"present": "1"})
    assert not any(el.key == "one_chart_prev" for el in at.button)  # off: the page as before
    at.sidebar.toggle(key="one_chart").set_value(True).run()
    n = int(_position(at).split("/")[1])
    assert n == len(at.get("plotly_chart")) >= 3  # every chart of the page is still drawn, each a step
    assert _position(at) == f"1 / {n}"
    first = _hidden_all_but(at)
    sentences = [el.value for el in at.caption if el.value in {v["en"] for v in STRINGS.values()}]
    assert STRINGS["one.mask"]["en"] in sentences
    at.button(key="one_chart_prev").click().run()  # before the first: the last
    assert _position(at) == f"{n} / {n}"
    at.button(key="one_chart_next").click().run()
    assert _position(at) == f"1 / {n}" and _hidden_all_but(at) == first
    at.button(key="one_chart_next").click().run()
    assert _position(at) == f"2 / {n}" and _hidden_all_but(at) != first
    at.switch_page(INSIDE).run()
    assert _position(at).startswith("1 / ")  # another page starts at its first chart
    at.switch_page(MASKS).run()
    assert _position(at) == f"2 / {n}"  # and each page keeps its own step


def test_every_sentence_a_chart_can_name_is_written_in_both_languages():
    keys = {words for _, words in SENTENCES} | {sentence_key("a_chart_not_listed")}
    assert all(STRINGS[key]["en"] and STRINGS[key]["zh"] for key in keys)
    assert sentence_key("click_attn_chart_lines") == "one.lines" and sentence_key("click_attn_chart") == "one.attention"


def test_a_link_made_in_the_mode_opens_the_same_chart():
    at = open_link(MASKS, {"present": "1"})
    at.sidebar.toggle(key="one_chart").set_value(True).run()
    at.button(key="one_chart_next").click().run()
    assert dict(at.query_params)["chart"] == "2"
    fresh = open_link(MASKS, dict(at.query_params))
    assert fresh.sidebar.toggle(key="one_chart").value is True
    assert _position(fresh) == _position(at) and _hidden_all_but(fresh) == _hidden_all_but(at)
    at.sidebar.toggle(key="one_chart").set_value(False).run()
    assert "chart" not in at.query_params  # the mode off: the link shows every chart


def test_a_link_to_a_chart_the_page_does_not_have_opens_its_first():
    at = open_link(MASKS, {"present": "1", "chart": "99"})
    assert _position(at).startswith("1 / ")
    for hostile in ("٢", "-1", "1e3", "2" * 50):
        assert not open_link(MASKS, {"present": "1", "chart": hostile}).exception
