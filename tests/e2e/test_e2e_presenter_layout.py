"""The presenter view's layout at a projector's 1280 × 720 (issue 42): opened by a link with `present=1`, the
sidebar starts collapsed and every chart of the page is as wide as the main area (the Decoding page's two charts,
side by side before, one under the other), and every number drawn in a chart's SVG (cell numbers, axis ticks,
colour bars, bar labels) is 14 px or more."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import expect, no_exception, open_app, settled, sidebar
from viz.presenter import MIN_CELL_FONT_PX

pytestmark = pytest.mark.e2e
PROJECTOR = {"width": 1280, "height": 720}
PAGES = ("masks", "inside", "attention", "decoding", "positional_encoding")  # the pages whose charts write numbers

# once every chart of the main area is drawn: each chart's width and the main area's, and every SVG text that holds
# a digit with its computed px (hidden parts and the mode bar left out)
_CHARTS = """() => {
  const main = document.querySelector('[data-testid="stMain"] [data-testid="stMainBlockContainer"]');
  const charts = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stPlotlyChart"]')]
    .filter(chart => !chart.closest('.st-key-lazy_parts'));
  if (!main || !charts.length || charts.some(chart => !chart.querySelector('.main-svg'))) return null;
  const style = getComputedStyle(main);
  const inner = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const numbers = charts.flatMap(chart => [...chart.querySelectorAll('.main-svg text')]
    .filter(text => /\\d/.test(text.textContent) && text.getBoundingClientRect().width > 0)
    .map(text => [text.textContent.trim(), parseFloat(getComputedStyle(text).fontSize)]));
  // a drawing in px (the architecture diagram, no axes) keeps its own proportions: not measured against the width
  const axes = chart => chart.querySelector('.js-plotly-plot')._fullLayout.xaxis || {};  // none: the line view
  const plots = charts.filter(chart => axes(chart).visible !== false);
  return {main: inner, widths: plots.map(chart => chart.getBoundingClientRect().width), numbers};
}"""


def _measure(page) -> dict:
    settled(page)
    return page.wait_for_function(_CHARTS).json_value()


@pytest.mark.parametrize("slug", PAGES)
def test_a_presenter_link_collapses_the_sidebar_and_gives_every_chart_the_width_and_readable_numbers(
    browser, app_url, slug
):
    context = browser.new_context(viewport=PROJECTOR)
    try:
        page = context.new_page()
        open_app(page, f"{app_url}/{slug}?present=1")
        no_exception(page)
        expect(sidebar(page)).to_have_attribute("data-collapsed", "true")  # collapsed: the screen is the charts'
        found = _measure(page)
        smallest = min((px for _, px in found["numbers"]), default=None)
        print(
            f"{slug}: main {found['main']:.0f} px, charts {[round(w) for w in found['widths']]} px, smallest {smallest}"
        )
        for width in found["widths"]:
            assert width >= 0.9 * found["main"], (slug, width, found["main"])
        small = sorted({(text, px) for text, px in found["numbers"] if px < MIN_CELL_FONT_PX})
        assert small == [], f"{slug}: numbers under {MIN_CELL_FONT_PX} px: {small[:10]}"
    finally:
        context.close()
