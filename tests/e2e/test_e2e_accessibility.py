"""The app for every learner, in a real browser: axe-core on every page in English and Chinese, the page's declared
language, navigation and the language switch named in words, the numbers in heatmap cells black or white."""

from __future__ import annotations

import pytest

from tests.e2e.accessibility import LOCALES, describe, walk
from tests.e2e.helpers import NAV, expect, go_to, sidebar, switch_language
from ui.strings import STRINGS

pytestmark = pytest.mark.e2e

# the fill of every number written in a cell (not of the no-break spaces a heatmap holds where its copy writes)
CELL_TEXT_FILLS = """els => els.filter(e => e.textContent.trim())
                         .map(e => getComputedStyle(e.querySelector('tspan') || e).fill)"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_page_has_any_axe_violation(new_page, lang):
    """Every impact counts, minor included: a minor violation is still something a screen reader says wrong (an empty
    table header, a drop zone that says it is not there)."""
    page = new_page(LOCALES[lang])
    failures = [f"{slug} page ({view}, {lang}):\n{describe(found)}" for slug, view, found in walk(page, lang) if found]
    assert not failures, "axe-core found:\n\n" + "\n\n".join(failures)


def test_the_page_declares_the_language_it_shows(new_page):
    page = new_page(LOCALES["zh"])
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")  # a screen reader picks its voice by it
    switch_language(page, "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    switch_language(page, "zh")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_navigation_and_the_language_switch_are_named_in_words(new_page, lang):
    page = new_page(LOCALES[lang])
    for title in NAV[lang]:  # the accessible name is the title alone: the icons are drawn from a font, aria-hidden
        expect(sidebar(page).get_by_role("link", name=title, exact=True)).to_have_count(1)
    switch = sidebar(page).get_by_role("radiogroup", name=STRINGS["sidebar.language"][lang], exact=True)
    expect(switch).to_be_visible()
    expect(switch.get_by_role("radio", name="English", exact=True)).to_have_count(1)
    expect(switch.get_by_role("radio", name="中文", exact=True)).to_have_count(1)


def test_the_numbers_in_heatmap_cells_are_black_or_white(page):
    go_to(page, "masks")
    seen = set()
    for key in ("mask_scores", "mask_masked", "mask_weights"):
        texts = page.locator(f".st-key-{key} .js-plotly-plot .heatmaplayer text")
        expect(texts.first).to_be_attached()
        fills = texts.evaluate_all(CELL_TEXT_FILLS)
        assert set(fills) <= {"rgb(0, 0, 0)", "rgb(255, 255, 255)"}, (key, sorted(set(fills)))
        seen |= set(fills)
    assert seen == {"rgb(0, 0, 0)", "rgb(255, 255, 255)"}  # both kinds of cell, dark and light, are there
