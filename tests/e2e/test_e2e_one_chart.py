"""One chart per screen (issue 42) in a real browser at a projector's 1280 × 720: in the presenter view, the second
switch shows one chart of the page at a time under its title and its sentence, ← and → (the keys, and the buttons)
step through them and wrap from the last to the first, the chart is as wide as the main area, every number it draws
is 14 px or more, the step is kept per page across page switches, and axe-core finds nothing."""

from __future__ import annotations

import re

import pytest

from tests.e2e.accessibility import violations
from tests.e2e.helpers import expect, go_to, no_exception, open_app, settled, sidebar
from ui.one_chart import sentence_key
from ui.strings import STRINGS
from viz.presenter import MIN_CELL_FONT_PX

pytestmark = pytest.mark.e2e
PROJECTOR = {"width": 1280, "height": 720}

# once the chart on show has drawn: its container's key, its sentence, its width and the main area's, and every SVG
# text of it that holds a digit with its computed px
_SHOWN = """() => {
  const shown = [...document.querySelectorAll('[data-testid="stMain"] [class*="st-key-one_chart_c_"]')]
    .filter(slide => slide.getBoundingClientRect().height > 0);
  if (shown.length !== 1) return null;
  const chart = shown[0].querySelector('[data-testid="stPlotlyChart"]');
  if (chart && !chart.querySelector('.main-svg')) return null;
  const main = document.querySelector('[data-testid="stMain"] [data-testid="stMainBlockContainer"]');
  const style = getComputedStyle(main);
  const key = [...shown[0].classList].find(name => name.startsWith('st-key-one_chart_c_'));
  const numbers = chart ? [...chart.querySelectorAll('.main-svg text')]
    .filter(text => /\\d/.test(text.textContent) && text.getBoundingClientRect().width > 0)
    .map(text => [text.textContent.trim(), parseFloat(getComputedStyle(text).fontSize)]) : [];
  const px = chart && (chart.querySelector('.js-plotly-plot')._fullLayout.xaxis || {}).visible !== false;
  return {
    key: key.slice('st-key-one_chart_c_'.length),
    sentence: shown[0].querySelector('[data-testid="stCaptionContainer"]').innerText.trim(),
    title: shown[0].querySelector('strong').innerText.trim(),
    main: main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
    width: px ? chart.getBoundingClientRect().width : null,
    numbers,
  };
}"""


def _position(page):
    return page.locator(".st-key-one_chart_nav").get_by_text(re.compile(r"^\d+ / \d+$"))


def _shown(page, at: int, of: int) -> dict:
    """Wait until "at / of" is shown with one chart; that chart checked: its sentence, its width, its numbers."""
    expect(_position(page)).to_have_text(f"{at} / {of}")
    settled(page)
    found = page.wait_for_function(_SHOWN).json_value()
    assert found["title"], found["key"]
    assert found["sentence"] == STRINGS[sentence_key(found["key"])]["en"], found["key"]
    if found["width"] is not None:  # a drawing in px (the architecture diagram) keeps its own proportions
        assert found["width"] >= 0.9 * found["main"], (found["key"], found["width"], found["main"])
    small = sorted({(text, px) for text, px in found["numbers"] if px < MIN_CELL_FONT_PX})
    assert small == [], f"{found['key']}: numbers under {MIN_CELL_FONT_PX} px: {small[:10]}"
    return found


def _count(page) -> int:
    expect(_position(page)).to_be_visible()
    return int(_position(page).inner_text().split("/")[1])


def _open_sidebar(page) -> None:
    if sidebar(page).get_attribute("data-collapsed") == "true":
        page.get_by_test_id("stExpandSidebarButton").click()
    expect(sidebar(page)).to_have_attribute("data-collapsed", "false")


def _close_sidebar(page) -> None:
    sidebar(page).hover()
    sidebar(page).get_by_role("button", name="Collapse sidebar").click()
    expect(sidebar(page)).to_have_attribute("data-collapsed", "true")


def _press(page, key: str) -> None:
    """A key pressed with focus on the page itself (not in a field: the arrows step the charts)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(key)


def test_one_chart_per_screen_steps_through_attention_and_inside_with_the_arrow_keys(browser, app_url):
    context = browser.new_context(viewport=PROJECTOR)
    try:
        page = context.new_page()
        open_app(page, f"{app_url}/attention?present=1")
        _open_sidebar(page)
        switch = sidebar(page).get_by_role("switch", name="One chart per screen")
        sidebar(page).locator("label").filter(has=page.get_by_role("switch", name="One chart per screen")).click()
        expect(switch).to_be_checked()
        _close_sidebar(page)
        no_exception(page)
        n = _count(page)
        assert n >= 3  # the map, its line view, the head statistics …
        seen = [_shown(page, 1, n)["key"]]
        assert seen[0] == "click_attn_chart"
        _press(page, "ArrowRight")
        seen.append(_shown(page, 2, n)["key"])
        _press(page, "ArrowLeft")
        assert _shown(page, 1, n)["key"] == seen[0]
        _press(page, "ArrowLeft")  # before the first: the last (the ends wrap)
        last = _shown(page, n, n)["key"]
        _press(page, "ArrowRight")  # after the last: the first
        assert _shown(page, 1, n)["key"] == seen[0]
        next_button = page.get_by_role("button", name="Next chart →")
        next_button.click()  # the visible button does the same
        assert _shown(page, 2, n)["key"] == seen[1]
        assert len({seen[0], seen[1], last}) == 3
        next_button.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")  # focus reached by the keyboard is drawn
        outline = next_button.evaluate("b => getComputedStyle(b).outlineStyle")
        assert outline != "none"
        found = violations(page)
        assert [(v["id"], v["impact"]) for v in found] == []

        _open_sidebar(page)
        go_to(page, "inside")
        _close_sidebar(page)
        m = _count(page)
        assert m >= 3  # the diagram, the step, the attention cell's map and its softmax row
        keys = [_shown(page, 1, m)["key"]]
        for at in range(2, m + 1):
            _press(page, "ArrowRight")
            keys.append(_shown(page, at, m)["key"])
        assert len(set(keys)) == m  # each step another chart
        _open_sidebar(page)
        go_to(page, "attention")  # the step of each page is kept
        _shown(page, 2, n)
    finally:
        context.close()
