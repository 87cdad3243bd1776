"""The Attention page in a real browser: a click on a head of the small multiples opens it in the big heatmap, and
clicks on cells of the encoder–decoder heatmap mark (and unmark) an alignment that every head is scored against."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import expect, go_to, heatmap_z, heatmap_z_change, no_exception, screenshot, settled

pytestmark = pytest.mark.e2e

_POINT = """(el, a) => {
    const xa = el._fullLayout[a.xaxis], ya = el._fullLayout[a.yaxis];
    const box = el.getBoundingClientRect();
    return [box.left + xa._offset + xa.l2p(a.x), box.top + ya._offset + ya.l2p(a.y)];
}"""
_RED_CELLS = """el => (el.layout.shapes || [])
    .filter(s => s.line && s.line.color === '#d62728' && s.xref === 'x')
    .map(s => [Math.round(s.y0 + 0.5), Math.round(s.x0 + 0.5)])"""


def chart(page, key: str):
    """The plotly chart drawn with key=key; while a rerun draws a changed chart anew, not the old (stale) one."""
    return page.locator(f".st-key-{key}:not([data-stale='true']) .js-plotly-plot")


def one(chart):
    """chart, once the browser shows exactly one of it (a chart whose figure changed is replaced by a new one)."""
    expect(chart).to_have_count(1)
    return chart


def click_point(chart, x: float, y: float, xaxis: str = "xaxis", yaxis: str = "yaxis") -> None:
    """Point at (x, y) in the data coordinates of one subplot of a plotly chart, as a user does, and click."""
    one(chart).evaluate("el => el.scrollIntoView({block: 'center'})")
    px, py = chart.evaluate(_POINT, {"xaxis": xaxis, "yaxis": yaxis, "x": x, "y": y})
    chart.page.mouse.move(px - 3, py - 3)
    chart.page.mouse.move(px, py)  # plotly finds the point under the pointer on hover, then takes the click
    chart.page.mouse.click(px, py)
    settled(chart.page)  # during the rerun the changed chart is drawn anew beside the old one, so wait for the end


def test_a_click_on_a_head_opens_it_and_clicks_on_cells_mark_alignments(page):
    go_to(page, "attention")
    big = chart(page, "click_attn_chart")
    expect(big).to_contain_text("layer 2 · head 1")
    before = heatmap_z(big)

    # the small multiples: layer 1 · head 3 is the third subplot (axes x3 / y3)
    heads = chart(page, "click_attn_patterns")
    expect(heads).to_contain_text("layer 1 · head 3")
    click_point(heads, 1, 1, "xaxis3", "yaxis3")
    expect(big).to_contain_text("layer 1 · head 3")
    settled(page)
    heatmap_z_change(one(big), before)
    expect(page.get_by_role("combobox", name="layer", exact=True)).to_have_value("1")
    expect(page.get_by_role("combobox", name="head", exact=True)).to_have_value("3")
    no_exception(page)

    # mark "I → love" on 喜 (row 1, column 1) by clicking its cell; the table gains an alignment column
    click_point(big, 1, 1)
    expect(page.get_by_test_id("stMultiSelect")).to_contain_text("I → love")
    assert one(big).evaluate(_RED_CELLS) == [[1, 1]]
    table = page.get_by_test_id("stDataFrame").filter(has=page.locator("th", has_text="alignment"))
    expect(table).to_have_count(1)
    screenshot(page, "attention-marked")

    # a second click on the same cell takes the mark away
    click_point(big, 1, 1)
    expect(page.get_by_test_id("stMultiSelect")).not_to_contain_text("I → love")
    assert one(big).evaluate(_RED_CELLS) == []
    expect(table).to_have_count(0)
    no_exception(page)
