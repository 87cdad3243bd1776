"""The first chart page of a tab draws at once: the parts of Streamlit's frontend that chart pages load on first use
(plotly.js, KaTeX, the toggle) are drawn out of sight while the first page is read (ui/browser.py), and a new server
has imported, read and compiled what the app needs, and its training processes' fork server has imported torch,
before its first session (serve.py, ui/warmup.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.helpers import LAZY_PARTS, expect, go_to, heatmap_z, page_charts, sidebar
from tests.e2e.server import REPO, streamlit_server

pytestmark = pytest.mark.e2e

CHART_MODULE_FETCHES = (
    "() => performance.getEntriesByType('resource').filter(e => /PlotlyChart\\.[^/]*\\.js$/.test(e.name)).length"
)


def test_the_chart_library_loads_while_the_first_page_is_read_and_the_chart_page_uses_it(page):
    # the first page (Data, on the corpus) draws its summary's charts with Vega-Lite, so it waits for no plotly.js;
    # ui/browser.py then draws a plotly chart, a formula and a toggle out of sight, in a run of their fragment alone
    expect(page.get_by_test_id("stVegaLiteChart").locator("svg.marks")).to_have_count(3)
    expect(page.locator("html[data-chart-library=loaded]")).to_have_count(1)
    parts = page.locator(LAZY_PARTS)
    expect(parts.locator(".js-plotly-plot .main-svg").first).to_be_attached()
    expect(parts.locator(".katex")).to_have_count(1)
    expect(page_charts(page)).to_have_count(0)  # the page itself has none
    box = parts.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 0  # out of sight
    expect(parts).to_be_hidden()  # and out of reach: no focus, no screen reader
    expect(page.get_by_role("button", name="Chart parts loaded early")).to_have_count(0)
    assert page.evaluate(CHART_MODULE_FETCHES) == 1
    go_to(page, "attention")
    heatmap_z(page_charts(page).first.locator(".js-plotly-plot"))
    assert page.evaluate(CHART_MODULE_FETCHES) == 1  # drawn with the module loaded already, not fetched again
    expect(parts.locator(".js-plotly-plot")).to_have_count(0)  # the page's next run took the parts away again


def test_the_preloading_script_takes_no_room_in_the_sidebar(page):
    script = sidebar(page).get_by_test_id("stHtml")
    expect(script).to_have_count(1)
    assert script.bounding_box() is None or script.bounding_box()["height"] == 0


def test_a_new_server_has_imported_torch_before_its_first_session():
    with streamlit_server(REPO / "test-artifacts" / "warm-server.log") as server:  # no browser has asked yet
        maps = Path(f"/proc/{server.process.pid}/maps").read_text()
        assert "libtorch_cpu" in maps and "libarrow" in maps
        warmed = next(line for line in server.log.read_text().splitlines() if "warmed up:" in line)
        assert all(part in warmed for part in ("imports", "data and model", "scripts", "queue", "fork server"))
