"""The app as a user meets it, timed through the Playwright harness of tests/e2e (Debian's chromium)."""

from __future__ import annotations

import statistics
import time

from playwright.sync_api import expect, sync_playwright

from tests.e2e.helpers import choose, go_to, heatmap_z, heatmap_z_change, settled
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, streamlit_server

VIEWPORT = {"width": 1280, "height": 900}
ATTENTION, DATA = "attention", "data"


def _open(browser, url: str):
    """(page, seconds) for a new session: page.goto until the first page is fully drawn, tables included."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    start = time.perf_counter()
    page.goto(url)
    expect(page.locator("h1")).to_be_visible(timeout=60_000)
    settled(page, timeout=60_000)
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible(timeout=60_000)
    return page, time.perf_counter() - start


def _to_attention(page) -> tuple[float, list]:
    """Seconds from the click on "Attention" until its heatmap is drawn, and the heatmap's values."""
    start = time.perf_counter()
    go_to(page, ATTENTION)
    z = heatmap_z(page.locator(".js-plotly-plot").first)
    return time.perf_counter() - start, z


def measure(repeats: int = 3) -> dict:
    """Median seconds for the first render, the switch to Attention and a head change; peak server memory."""
    runs: dict[str, list[float]] = {k: [] for k in ("first", "first_warm", "switch_cold", "switch_warm", "head")}
    peak = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        for _ in range(repeats):
            with streamlit_server() as server:  # a fresh server: its first session pays for the imports
                page, seconds = _open(browser, server.url)
                runs["first"].append(seconds)
                seconds, z = _to_attention(page)  # the session's first chart: plotly.js loads now
                runs["switch_cold"].append(seconds)
                start = time.perf_counter()
                choose(page, "head", "2")
                heatmap_z_change(page.locator(".js-plotly-plot").first, z)
                runs["head"].append(time.perf_counter() - start)
                go_to(page, DATA)
                runs["switch_warm"].append(_to_attention(page)[0])
                second, seconds = _open(browser, server.url)  # a second user of the same server
                runs["first_warm"].append(seconds)
                peak.append(server.peak_memory_mb())
                page.context.close()
                second.context.close()
        browser.close()
    median = {k: statistics.median(v) for k, v in runs.items()}
    return {
        "first_render_s": median["first"],
        "first_render_warm_server_s": median["first_warm"],
        "switch_to_attention_s": median["switch_cold"],
        "switch_to_attention_warm_s": median["switch_warm"],
        "head_change_s": median["head"],
        "server_peak_mb": max(peak),
        "repeats": repeats,
    }
