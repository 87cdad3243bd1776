"""The "Inside the model" page in a real browser: clicking a block of the architecture diagram selects it, and
clicking a cell of the attention map works out that cell's weight."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import expect, go_to, no_exception, screenshot, settled, switch_language

pytestmark = pytest.mark.e2e
INSIDE = "inside"

# where the browser drew point i of a chart's trace t (-1: the last trace), relative to the chart's corner
_POINT_PX = """(el, [i, t]) => {
    const layout = el._fullLayout, trace = el._fullData[t < 0 ? el._fullData.length + t : t];
    return [layout.xaxis._offset + layout.xaxis.l2p(trace.x[i]), layout.yaxis._offset + layout.yaxis.l2p(trace.y[i])];
}"""
# the index of the diagram block whose box is filled red (the selected one)
_SELECTED = """el => {
    const box = (el.layout.shapes || []).find(s => s.fillcolor === "#ffb3b3"), t = el.data[0];
    return box ? t.x.findIndex((x, i) => box.x0 < x && x < box.x1 && box.y0 < t.y[i] && t.y[i] < box.y1) : -1;
}"""


def _diagram(page):
    return page.locator('[class*="st-key-diagram_inside"] .js-plotly-plot')


def _click_point(page, chart, index: int, trace: int = 0) -> None:
    """Click point `index` of one trace of a plotly chart, where the browser drew it."""
    expect(chart).to_be_visible()
    chart.scroll_into_view_if_needed()
    x, y = chart.evaluate(_POINT_PX, [index, trace])
    box = chart.bounding_box()
    page.mouse.click(box["x"] + x, box["y"] + y)


def test_clicking_a_block_of_the_diagram_selects_its_first_step(page):
    go_to(page, INSIDE)
    no_exception(page)
    heading = page.locator("h3").filter(has_text=re.compile(r"^Step \d+ of \d+"))
    expect(heading).to_contain_text("Step 1 of 106")
    expect(heading).to_contain_text("enc_inputs")
    assert _diagram(page).evaluate(_SELECTED) == 0

    blocks = _diagram(page).evaluate("el => el.data[0].text")
    cross = next(i for i, text in enumerate(blocks) if text.startswith("Encoder–Decoder Attention"))
    _click_point(page, _diagram(page), cross)
    expect(heading).to_have_text(re.compile(r"^Step 58 of 106: Q in decoder\.layers\[0\]\.dec_enc_attn$"))
    settled(page)
    expect(page.get_by_role("combobox", name="Block", exact=True)).to_have_value("Decoder · Encoder–Decoder Attention")
    assert _diagram(page).evaluate(_SELECTED) == cross  # the clicked block is the highlighted one now
    no_exception(page)

    # another layer, then a block of the encoder: the walk follows the clicks
    choose_layer = page.get_by_role("combobox", name="layer", exact=True)
    choose_layer.scroll_into_view_if_needed()  # above the diagram: a scroll after the click would close its list
    choose_layer.click()
    page.get_by_role("option", name="2", exact=True).click()
    expect(heading).to_contain_text("decoder.layers[1].dec_enc_attn")
    settled(page)
    ffn = next(i for i, text in enumerate(blocks) if text.startswith("Feed Forward"))  # the encoder's comes first
    _click_point(page, _diagram(page), ffn)
    expect(heading).to_contain_text("hidden (ReLU)")
    expect(heading).to_contain_text("encoder.layers[1].pos_ffn")
    settled(page)
    assert _diagram(page).evaluate(_SELECTED) == ffn
    screenshot(page, "inside-the-model")


def test_clicking_a_cell_of_the_attention_map_works_out_its_weight(page):
    go_to(page, INSIDE)
    cellmap = page.locator('[class*="st-key-cellmap_inside"] .js-plotly-plot')
    expect(cellmap).to_be_visible()
    n_keys = len(cellmap.evaluate("el => el.data[0].z[0]"))
    _click_point(page, cellmap, 2 * n_keys + 1, trace=-1)  # the click targets, row by row: query 2, key 1
    expect(page.get_by_role("combobox", name="query", exact=True)).to_have_value(re.compile(r"^2: "))
    expect(page.get_by_role("combobox", name="key", exact=True)).to_have_value(re.compile(r"^1: "))
    settled(page)
    expect(page.get_by_text(re.compile(r"\(position 2\) looking at key .* \(position 1\)"))).to_be_visible()
    no_exception(page)


# every block's text and its box, where the browser drew them (px from the chart's corner), and the text's font size
_BLOCK_BOXES = """el => {
    const layout = el._fullLayout, x = layout.xaxis, y = layout.yaxis, svg = el.querySelector("svg.main-svg");
    const corner = svg.getBoundingClientRect();
    const named = layout.annotations.map((a, i) => [a, i]).filter(([a]) => (a.name || "").startsWith("block "));
    return named.map(([a, i]) => {
        const shape = layout.shapes.find(s => s.type === "rect" && s.x0 < a.x && a.x < s.x1 && s.y0 < a.y && a.y < s.y1
                                              && s.line.dash !== "dash");
        const text = el.querySelector(`g.annotation[data-index="${i}"] text`).getBoundingClientRect();
        const group = `g.annotation[data-index="${i}"]`;
        const fonts = [...el.querySelectorAll(`${group} text, ${group} tspan`)]
            .map(t => parseFloat(getComputedStyle(t).fontSize));
        return {
            name: a.text,
            box: [x._offset + x.l2p(shape.x0), y._offset + y.l2p(shape.y1), x._offset + x.l2p(shape.x1),
                  y._offset + y.l2p(shape.y0)],
            text: [text.left - corner.left, text.top - corner.top, text.right - corner.left, text.bottom - corner.top],
            font: Math.min(...fonts),
        };
    });
}"""


@pytest.mark.parametrize("width", [1400, 1024])
def test_every_block_of_the_diagram_holds_its_text_at_12_px_or_more(page, width):
    page.set_viewport_size({"width": width, "height": 900})
    for lang in ("en", "zh"):
        if lang == "zh":
            switch_language(page, "zh")
            go_to(page, INSIDE, "zh")
        else:
            go_to(page, INSIDE)
        diagram = _diagram(page)
        diagram.scroll_into_view_if_needed()
        expect(diagram.locator("g.annotation").first).to_be_visible()
        blocks = diagram.evaluate(_BLOCK_BOXES)
        assert len(blocks) >= 20  # every block of both columns and the two masks
        for block in blocks:
            (x0, y0, x1, y1), (a, b, c, d) = block["box"], block["text"]
            assert x0 <= a and c <= x1 and y0 <= b and d <= y1, block  # the text inside its box
            assert block["font"] >= 12, block
    screenshot(page, f"inside-diagram-{width}")
