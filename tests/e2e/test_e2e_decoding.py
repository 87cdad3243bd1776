"""Choosing the next word yourself in a real browser: a click on a bar of the top-k chart forces that token, and
decoding continues from it."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import expect, go_to, no_exception, plotly_data, screenshot, settled

pytestmark = pytest.mark.e2e


def _decoder_input(page, *words: str):
    """Wait until the "Decoder input so far" line shows these words (regexes), whatever the spacing; return them."""
    line = page.get_by_test_id("stMarkdownContainer").filter(
        has_text=re.compile(r"^Decoder input so far:\s*" + r"\s+".join(words) + r"\s*$")
    )
    expect(line).to_have_count(1)
    settled(page)
    return " ".join(line.inner_text().split(":", 1)[1].split())


def test_a_click_on_a_bar_forces_that_token_and_decoding_continues_from_it(page):
    go_to(page, "decoding")
    page.get_by_role("radio", name="type a source sentence").check(force=True)
    box = page.get_by_role("textbox", name="type a source sentence")
    expect(box).to_be_visible()
    box.fill("个师")  # the model hesitates here: its first word has rivals
    box.press("Enter")
    _decoder_input(page, "S", "→", "The")
    page.get_by_role("radio", name="choose it yourself").check(force=True)
    expect(page.get_by_role("button", name="Force it")).to_be_visible()
    settled(page)

    chart = page.locator(".js-plotly-plot").first  # the top-k chart, left of the attention map
    bars = plotly_data(chart)[0]
    top = [row[0] for row in bars["customdata"]][:3]
    assert top[0] == "The" and len(set(top)) == 3
    third = top[2]  # not the model's choice: the learner forces the third most likely word
    bar = chart.locator("g.trace.bars g.point path").nth(2)
    bar.scroll_into_view_if_needed()
    where = bar.bounding_box()
    x, y = where["x"] + where["width"] / 2, where["y"] + where["height"] / 2
    page.mouse.move(x, y)  # as a user does: plotly finds the bar under the pointer, then takes the click
    expect(chart.locator(".hoverlayer")).to_contain_text(third)
    page.mouse.click(x, y)

    # decoding went on from the forced token: the next step reads it, the output starts with it
    expect(page.get_by_text(re.compile(r"^Step 2 of \d+$"))).to_be_visible()
    words = _decoder_input(page, "S", re.escape(third), "→", r"\S+")
    no_exception(page)
    next_word = words.split("→")[1].strip()
    output = page.get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(rf"^{re.escape(third)} \S+$"))
    expect(output).to_have_count(1)
    assert output.inner_text().split() == [third, next_word]
    screenshot(page, "decoding-forced-token")

    page.get_by_role("button", name="Back to greedy").click()
    expect(page.get_by_text(re.compile(r"^Step 1 of \d+$"))).to_be_visible()
    _decoder_input(page, "S", "→", "The")
    no_exception(page)
