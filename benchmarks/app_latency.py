"""The app as a user meets it, timed through the Playwright harness of tests/e2e (Debian's chromium).

    .venv/bin/python benchmarks/app_latency.py [--repeats 5] [--repo PATH]

prints medians over fresh servers (each its own `streamlit run`, each session a new browser context, nothing cached):

- first render: from page.goto until the first page is fully drawn (tables and charts included), for the first
  session of a new server and for a later session of the same server;
- chart parts: how long after the first render ui/browser.py has drawn the chart pages' parts out of sight;
- first chart: from the click on Attention until its heatmap is drawn, for the tab's first chart page once the
  learner has read the first page that long (at most READ_S), and for a learner who clicks at once;
- later switches to Attention, and a head change.

Each "until drawn" is checked in the page on every animation frame (the conditions below), not with Playwright's
expect(), whose polling every 100–1000 ms added up to half a second to figures of about one second.

--repo times another checkout (e.g. a throwaway worktree of an older commit) with the same harness.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from pathlib import Path

import _root  # noqa: F401  (the checkout on sys.path)
from playwright.sync_api import expect, sync_playwright

from tests.e2e.helpers import NAV, PAGE_SLUGS, TITLES, go_to, settled, sidebar
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, REPO, streamlit_server

VIEWPORT = {"width": 1280, "height": 900}
ATTENTION, DATA = "attention", "data"
READ_S = 10.0  # the longest the benchmark waits for the chart library before the first switch, as a reading learner
FIGURES = {  # key: what it is
    "first_render_s": "first render, first session of a new server",
    "first_render_warm_server_s": "first render, a later session",
    "chart_library_s": "chart parts drawn out of sight, after the first render",
    "switch_to_attention_s": "switch to Attention, the tab's first chart",
    "switch_to_attention_at_once_s": "the same, clicked at once after the first render",
    "switch_to_attention_warm_s": "switch to Attention, later",
    "head_change_s": "head selector to new chart",
}


# what the learner sees, checked in the page on every animation frame (Playwright's expect() polls at 100, 250, 500
# and 1000 ms, which added up to half a second to a figure of about one)
FIRST_PAGE_DRAWN = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const main = document.querySelector('[data-testid="stMain"]');
  const busy = '[data-testid="stSkeleton"], [data-testid="stStatusWidget"]';
  if (!app || !main || app.dataset.testConnectionState !== "CONNECTED" || app.dataset.testScriptState !== "notRunning"
      || !main.querySelector("h1") || document.querySelector(busy)
      || !main.querySelector('[data-testid="stDataFrame"] canvas')) return false;
  const drawn = (selector, inside) => [...main.querySelectorAll(selector)].every(chart => chart.querySelector(inside));
  return drawn('[data-testid="stPlotlyChart"]', ".main-svg") && drawn('[data-testid="stVegaLiteChart"]', "svg.marks");
}"""
HEATMAP_DRAWN = """([title, before]) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const h1 = main && main.querySelector("h1");
  const chart = main && main.querySelector(".js-plotly-plot");
  if (!h1 || !h1.textContent.includes(title) || !chart || !chart.querySelector("g.hm image")) return false;
  const heatmap = (Array.isArray(chart.data) ? chart.data : []).find(t => t.type === "heatmap");
  return Boolean(heatmap && heatmap.z && JSON.stringify(heatmap.z) !== before);
}"""
HEATMAP_Z = """() => JSON.stringify(document.querySelector('[data-testid="stMain"] .js-plotly-plot').data
  .find(t => t.type === "heatmap").z)"""
ATTENTION_TITLE = TITLES["en"][PAGE_SLUGS.index(ATTENTION)]


def _until(page, condition: str, arg=None) -> None:
    """Wait, checking on every animation frame, until condition (a JavaScript function of arg) holds in the page."""
    page.wait_for_function(condition, arg=arg, polling="raf", timeout=60_000)


def _open(browser, url: str):
    """(page, seconds) for a new session: page.goto until the first page is fully drawn, tables and charts included
    (the corpus's paged table and its summary's Vega-Lite charts, or the tutorial pairs' data editor)."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    start = time.perf_counter()
    page.goto(url)
    _until(page, FIRST_PAGE_DRAWN)
    seconds = time.perf_counter() - start
    settled(page)
    return page, seconds


def _chart_library(page) -> float | None:
    """Seconds until ui/browser.py has drawn the chart pages' parts (None when it has not within READ_S)."""
    start = time.perf_counter()
    loaded = page.locator("html[data-chart-library=loaded]")
    try:
        expect(loaded).to_have_count(1, timeout=READ_S * 1000)
    except AssertionError:
        return None
    return time.perf_counter() - start


def _to_attention(page) -> float:
    """Seconds from the click on "Attention" until its heatmap is drawn."""
    link = sidebar(page).get_by_role("link", name=re.compile(rf"^\W*{NAV['en'][PAGE_SLUGS.index(ATTENTION)]}$"))
    start = time.perf_counter()
    link.click()
    _until(page, HEATMAP_DRAWN, [ATTENTION_TITLE, ""])
    seconds = time.perf_counter() - start
    settled(page)
    return seconds


def _head_change(page) -> float:
    """Seconds from choosing head 2 until the heatmap shows it (other values than head 1's)."""
    before = page.evaluate(HEATMAP_Z)
    box = page.get_by_role("combobox", name="head", exact=True)
    box.click()
    option = page.get_by_role("option", name="2", exact=True)
    start = time.perf_counter()
    option.click()
    _until(page, HEATMAP_DRAWN, [ATTENTION_TITLE, before])
    seconds = time.perf_counter() - start
    settled(page)
    return seconds


def measure(repeats: int = 3, repo: Path = REPO) -> dict:
    """Medians of the FIGURES over `repeats` fresh servers of `repo`, and the server's peak memory."""
    runs: dict[str, list[float]] = {key: [] for key in FIGURES}
    peak = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        for _ in range(repeats):
            with streamlit_server(repo=repo) as server:  # a fresh server: its first session pays for what is cold
                page, seconds = _open(browser, server.url)
                runs["first_render_s"].append(seconds)
                ready = _chart_library(page)
                if ready is not None:
                    runs["chart_library_s"].append(ready)
                runs["switch_to_attention_s"].append(_to_attention(page))  # the tab's first chart page
                runs["head_change_s"].append(_head_change(page))
                go_to(page, DATA)
                runs["switch_to_attention_warm_s"].append(_to_attention(page))
                second, seconds = _open(browser, server.url)  # a second user of the same server
                runs["first_render_warm_server_s"].append(seconds)
                runs["switch_to_attention_at_once_s"].append(_to_attention(second))
                peak.append(server.peak_memory_mb())
                page.context.close()
                second.context.close()
        browser.close()
    median = {key: statistics.median(values) if values else float("nan") for key, values in runs.items()}
    return {**median, "server_peak_mb": max(peak), "repeats": repeats, "runs": runs}


def report_lines(result: dict) -> str:
    """The figures as a few printed lines."""
    lines = [f"app, median of {result['repeats']} fresh servers (each figure's runs in brackets):"]
    for key, what in FIGURES.items():
        runs = " ".join(f"{v:.2f}" for v in result["runs"][key])
        lines.append(f"  {what:<48} {result[key]:5.2f} s   [{runs}]")
    lines.append(f"  {'server peak memory':<48} {result['server_peak_mb']:5.0f} MB")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout to time (default: this one)")
    args = parser.parse_args()
    print(report_lines(measure(args.repeats, args.repo.resolve())))


if __name__ == "__main__":
    main()
