"""Choosing the next word yourself in a real browser: a click on a bar of the top-k chart forces that token, and
decoding continues from it."""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.helpers import expect, no_exception, plotly_data, press_slider, screenshot, settled, typed_sentence_box

pytestmark = pytest.mark.e2e

# the next-token chart the learner sees: after its height changes (more tokens shown) the browser can keep the old
# drawing, hidden, in the same element for a while (seen in full runs), so the chart is the visible one
CHART = ".st-key-choose_topk .js-plotly-plot:visible"


def _decoder_input(page, *words: str):
    """Wait until the "Decoder input so far" line shows these words (regexes), whatever the spacing; return them."""
    line = page.get_by_test_id("stMarkdownContainer").filter(
        has_text=re.compile(r"^Decoder input so far:\s*" + r"\s+".join(words) + r"\s*$")
    )
    expect(line).to_have_count(1)
    settled(page)
    return " ".join(line.inner_text().split(":", 1)[1].split())


# where the browser drew (x, row) of a chart's axes, relative to the chart's corner
_AT_PX = """(el, [x, row]) => {
    const layout = el._fullLayout;
    return [layout.xaxis._offset + layout.xaxis.l2p(x), layout.yaxis._offset + layout.yaxis.l2p(row)];
}"""


def _choose_view(page):
    """The "choose it yourself" view of a sentence whose first word has rivals; returns the next-token chart and how
    many rows it shows."""
    box = typed_sentence_box(page)
    box.fill("个师")  # the model hesitates here: its first word has rivals
    box.press("Enter")
    _decoder_input(page, "S", "→", r"\S+")
    page.get_by_role("radio", name="choose it yourself").check(force=True)
    expect(page.get_by_role("button", name="Force it")).to_be_visible()
    settled(page)
    # every row the chart can show: the last ones are the least likely
    shown = press_slider(page, "tokens shown", "End")
    return page.locator(CHART), int(shown)


def _rows(chart, count: int) -> list[tuple[str, float]]:
    """(token, probability) of every row of the next-token chart, top first (its last trace spans the rows), once it
    shows `count` rows: the slider's run starts a moment after the slider moves, and the old chart has fewer."""
    deadline = time.monotonic() + 30
    while True:
        hit = plotly_data(chart)[-1]
        rows = [(row[0], float(p)) for row, p in zip(hit["customdata"], hit["text"])]
        if len(rows) == count or time.monotonic() > deadline:
            return rows
        time.sleep(0.05)


def _forced(page, word: str) -> None:
    """Decoding went on from the forced word: the next step reads it, the output starts with it."""
    expect(page.get_by_text(re.compile(r"^Step 2 of \d+$"))).to_be_visible()
    words = _decoder_input(page, "S", re.escape(word), "→", r"\S+")
    no_exception(page)
    next_word = words.split("→")[1].strip()
    output = page.get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(rf"^{re.escape(word)} \S+$"))
    expect(output).to_have_count(1)
    assert output.inner_text().split() == [word, next_word]


def _back_to_greedy(page) -> None:
    page.get_by_role("button", name="Back to greedy").click()
    expect(page.get_by_text(re.compile(r"^Step 1 of \d+$"))).to_be_visible()
    _decoder_input(page, "S", "→", r"\S+")
    settled(page)
    no_exception(page)


def test_a_click_on_a_rows_label_or_its_empty_space_forces_that_token_however_unlikely(page):
    chart, shown = _choose_view(page)
    rows = _rows(chart, shown)
    assert len({token for token, _ in rows}) == len(rows) >= 10
    (other, q), (word, p) = rows[-2:]  # the least likely rows: bars a pixel or two wide
    assert p <= q < 0.02, rows

    # by its label, written left of the bars
    label = chart.locator("g.textpoint text").filter(has_text=re.compile(rf"^{re.escape(word)}$"))
    expect(label).to_have_count(1)
    label.scroll_into_view_if_needed()
    where = label.bounding_box()
    x, y = where["x"] + where["width"] / 2, where["y"] + where["height"] / 2
    page.mouse.move(x, y)  # as a user does: plotly finds the row under the pointer, then takes the click
    expect(chart.locator(".hoverlayer")).to_contain_text(word)
    page.mouse.click(x, y)
    _forced(page, word)
    screenshot(page, "decoding-forced-token")
    _back_to_greedy(page)

    # by the empty space at the far right of its row, nowhere near its bar
    chart = page.locator(CHART)
    chart.scroll_into_view_if_needed()
    expect(chart.locator("g.textpoint text").filter(has_text=re.compile(rf"^{re.escape(other)}$"))).to_have_count(1)
    x, y = chart.evaluate(_AT_PX, [0.9, len(rows) - 2])
    corner = chart.bounding_box()
    page.mouse.move(corner["x"] + x, corner["y"] + y)
    expect(chart.locator(".hoverlayer")).to_contain_text(other)
    page.mouse.click(corner["x"] + x, corner["y"] + y)
    _forced(page, other)
    _back_to_greedy(page)
