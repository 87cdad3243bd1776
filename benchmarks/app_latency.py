"""The app as a user meets it, timed through the Playwright harness of tests/e2e (Debian's chromium).

    .venv/bin/python benchmarks/app_latency.py [--repeats 5] [--repo PATH]

prints medians over fresh servers (each its own `streamlit run`, each session a new browser context, nothing cached):

- first render: from page.goto until the first page is fully drawn (tables and charts included), for the first
  session of a new server and for a later session of the same server;
- chart library: how long after the first render ui/browser.py has loaded Streamlit's plotly module;
- first chart: from the click on Attention until its heatmap is drawn, for the tab's first chart page once the
  learner has read the first page that long (at most READ_S), and for a learner who clicks at once;
- later switches to Attention, and a head change.

--repo times another checkout (e.g. a throwaway worktree of an older commit) with the same harness.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.helpers import choose, go_to, heatmap_z, heatmap_z_change, settled  # noqa: E402
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, REPO, streamlit_server  # noqa: E402

VIEWPORT = {"width": 1280, "height": 900}
ATTENTION, DATA = "attention", "data"
READ_S = 10.0  # the longest the benchmark waits for the chart library before the first switch, as a reading learner
FIGURES = {  # key: what it is
    "first_render_s": "first render, first session of a new server",
    "first_render_warm_server_s": "first render, a later session",
    "chart_library_s": "chart library loaded, after the first render",
    "switch_to_attention_s": "switch to Attention, the tab's first chart",
    "switch_to_attention_at_once_s": "the same, clicked at once after the first render",
    "switch_to_attention_warm_s": "switch to Attention, later",
    "head_change_s": "head selector to new chart",
}


def _open(browser, url: str):
    """(page, seconds) for a new session: page.goto until the first page is fully drawn, tables and charts included
    (the tutorial pairs' data editor, or a large dataset's paged table with its summary charts)."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    start = time.perf_counter()
    page.goto(url)
    expect(page.locator("h1")).to_be_visible(timeout=60_000)
    settled(page, timeout=60_000)
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible(timeout=60_000)
    charts = page.get_by_test_id("stMain").get_by_test_id("stPlotlyChart")
    for i in range(charts.count()):  # every chart the run drew, drawn by plotly
        expect(charts.nth(i).locator(".main-svg").first).to_be_visible(timeout=60_000)
    return page, time.perf_counter() - start


def _chart_library(page) -> float | None:
    """Seconds until ui/browser.py has loaded the chart library (None when it does not within READ_S)."""
    start = time.perf_counter()
    loaded = page.locator("html[data-chart-library=loaded]")
    try:
        expect(loaded).to_have_count(1, timeout=READ_S * 1000)
    except AssertionError:
        return None
    return time.perf_counter() - start


def _to_attention(page) -> tuple[float, list]:
    """Seconds from the click on "Attention" until its heatmap is drawn, and the heatmap's values."""
    start = time.perf_counter()
    go_to(page, ATTENTION)
    z = heatmap_z(page.locator(".js-plotly-plot").first)
    return time.perf_counter() - start, z


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
                seconds, z = _to_attention(page)  # the tab's first chart page
                runs["switch_to_attention_s"].append(seconds)
                start = time.perf_counter()
                choose(page, "head", "2")
                heatmap_z_change(page.locator(".js-plotly-plot").first, z)
                runs["head_change_s"].append(time.perf_counter() - start)
                go_to(page, DATA)
                runs["switch_to_attention_warm_s"].append(_to_attention(page)[0])
                second, seconds = _open(browser, server.url)  # a second user of the same server
                runs["first_render_warm_server_s"].append(seconds)
                runs["switch_to_attention_at_once_s"].append(_to_attention(second)[0])
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
