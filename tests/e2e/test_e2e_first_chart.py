"""The first chart page of a tab draws at once: Streamlit's plotly module is loaded while the first page is read
(ui/browser.py), and a new server has imported, read and compiled what the app needs before its first session
(serve.py, ui/warmup.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.helpers import expect, go_to, heatmap_z, sidebar
from tests.e2e.server import REPO, streamlit_server

pytestmark = pytest.mark.e2e

CHART_MODULE_FETCHES = (
    "() => performance.getEntriesByType('resource').filter(e => /PlotlyChart\\.[^/]*\\.js$/.test(e.name)).length"
)


def test_the_chart_library_loads_while_the_first_page_is_read_and_the_chart_page_uses_it(page):
    # the first page (Data, on the corpus) draws its summary's charts with Vega-Lite, so it waits for no plotly.js;
    # ui/browser.py loads plotly.js once that page is drawn
    expect(page.get_by_test_id("stVegaLiteChart").locator("svg.marks")).to_have_count(3)
    expect(page.get_by_test_id("stPlotlyChart")).to_have_count(0)
    expect(page.locator("html[data-chart-library=loaded]")).to_have_count(1)
    assert page.evaluate(CHART_MODULE_FETCHES) == 1
    go_to(page, "attention")
    heatmap_z(page.locator(".js-plotly-plot").first)
    assert page.evaluate(CHART_MODULE_FETCHES) == 1  # drawn with the module loaded already, not fetched again


def test_the_preloading_script_takes_no_room_in_the_sidebar(page):
    script = sidebar(page).get_by_test_id("stHtml")
    expect(script).to_have_count(1)
    assert script.bounding_box() is None or script.bounding_box()["height"] == 0


def test_a_new_server_has_imported_torch_before_its_first_session():
    with streamlit_server(REPO / "test-artifacts" / "warm-server.log") as server:  # no browser has asked yet
        maps = Path(f"/proc/{server.process.pid}/maps").read_text()
        assert "libtorch_cpu" in maps and "libarrow" in maps
        warmed = next(line for line in server.log.read_text().splitlines() if "warmed up:" in line)
        assert all(part in warmed for part in ("imports", "data and model", "scripts", "queue"))
