"""Training and page switches on a shared CPU: idle against one busy core, one training against four at once, and
other learners' page switches while four learners train the largest model. One Streamlit process; the browser is
Debian's chromium through the e2e harness.

    .venv/bin/python benchmarks/load.py              # everything (about 6 minutes)
    .venv/bin/python benchmarks/load.py --skip-app   # the command line only
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.helpers import TRAIN_TIMEOUT, expect, go_to, press_slider, settled, sidebar  # noqa: E402
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, streamlit_server  # noqa: E402

VIEWPORT = {"width": 1280, "height": 900}
DONE = re.compile(r"Trained (\d+) epochs in ([\d.]+) s\.")


@contextlib.contextmanager
def busy_core(on: bool = True) -> Iterator[None]:
    """One other process keeping one core busy (as `yes > /dev/null` does), for the duration."""
    if not on:
        yield
        return
    hog = subprocess.Popen(["yes"], stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        yield
    finally:
        hog.kill()
        hog.wait()


def cli_fit(repeats: int) -> dict:
    """Seconds the command line reports for training on the bundled pairs (default settings), idle and busy."""
    out = {}
    for label, busy in (("idle", False), ("one_core_busy", True)):
        seconds = []
        with busy_core(busy), tempfile.TemporaryDirectory() as tmp:
            for _ in range(repeats):
                lines = (
                    subprocess.run(
                        [
                            sys.executable,
                            "-m",
                            "transformer",
                            "train",
                            "--pairs",
                            "assets/pairs.tsv",
                            "--out",
                            f"{tmp}/m",
                        ],
                        cwd=ROOT,
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    .stdout.strip()
                    .splitlines()
                )
                done = next(line for line in lines if line.startswith("done: "))  # then "saved …"
                seconds.append(float(re.search(r", ([\d.]+) s$", done).group(1)))
        out[label] = statistics.median(seconds)
    out["ratio"] = out["one_core_busy"] / out["idle"]
    return out


def _learner(browser, url: str):
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(url)
    page.locator("h1").first.wait_for(timeout=60_000)
    settled(page, timeout=60_000)
    return page


def _train_and_wait(pages) -> tuple[float, list[float]]:
    """Click Train in every page at once; (wall seconds until the last one is done, reported training seconds)."""
    messages = [page.get_by_test_id("stAlertContentSuccess").filter(has_text=DONE) for page in pages]
    start = time.perf_counter()
    for page, done in zip(pages, messages):
        page.get_by_role("button", name="Train", exact=True).click()
        # the previous training's message stays until the run after the click has drawn the live progress
        expect(done).to_have_count(0, timeout=TRAIN_TIMEOUT)
    reported = []
    for done in messages:
        done.wait_for(timeout=TRAIN_TIMEOUT * 3)
        reported.append(float(DONE.search(done.inner_text()).group(2)))
    return time.perf_counter() - start, reported


def _switch_times(page, until, pages=("data", "attention")) -> list[float]:
    """Page switches (Data ↔ Attention) until until() is true; seconds from the click until the page is drawn."""
    times, i = [], 0
    while not until():
        start = time.perf_counter()
        go_to(page, pages[i % len(pages)])
        times.append(time.perf_counter() - start)
        i += 1
    return times


def app_under_load(repeats: int) -> dict:
    """App fit idle/busy, one training against four at once, and idle learners' page switches meanwhile."""
    from playwright.sync_api import sync_playwright

    results: dict = {}
    with sync_playwright() as playwright, streamlit_server() as server:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        learners = [_learner(browser, server.url) for _ in range(6)]
        for page in learners[:4]:
            go_to(page, "train")

        for label, busy in (("idle", False), ("one_core_busy", True)):
            walls, reported = [], []
            with busy_core(busy):
                for _ in range(repeats):
                    wall, seconds = _train_and_wait(learners[:1])
                    walls.append(wall)
                    reported += seconds
            results[f"fit_{label}"] = {"wall_s": statistics.median(walls), "training_s": statistics.median(reported)}
        results["fit_ratio"] = results["fit_one_core_busy"]["training_s"] / results["fit_idle"]["training_s"]

        one, _ = _train_and_wait(learners[:1])
        four, _ = _train_and_wait(learners[:4])
        results["one_alone_s"], results["four_at_once_s"], results["four_ratio"] = one, four, four / one

        for page in learners[:4]:  # the largest configuration the Train page offers
            press_slider(page, "d_model", "End")
            press_slider(page, "d_ff", "End")
            press_slider(page, "n_layers", "End")
            press_slider(page, "epochs", "Home", *["ArrowRight"] * 3)  # 20 epochs
        for page in learners[:4]:
            page.get_by_role("button", name="Train", exact=True).click()
        busy_text = sidebar(learners[4]).get_by_text(re.compile(r"^On this server: [1-9]"))
        go_to(learners[4], "positional_encoding")
        busy_text.wait_for(timeout=30_000)
        switches = _switch_times(learners[4], lambda: busy_text.count() == 0)
        switches = [t for t in switches if t == t]
        results["switches_during_four_largest"] = {
            "median_s": statistics.median(switches),
            "p90_s": statistics.quantiles(switches, n=10)[-1] if len(switches) >= 10 else max(switches),
            "max_s": max(switches),
            "count": len(switches),
        }
        browser.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-app", action="store_true")
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "load.json")
    args = parser.parse_args()
    if not CHROMIUM.exists() and not args.skip_app:
        sys.exit(f"{CHROMIUM} is missing: install Debian's chromium, or use --skip-app")
    report = {"date": time.strftime("%Y-%m-%d"), "cli_fit": cli_fit(args.repeats)}
    cli = report["cli_fit"]
    print(
        f"command line, bundled data: {cli['idle']:.2f} s idle, {cli['one_core_busy']:.2f} s with one core busy "
        f"= {cli['ratio']:.2f}×   target <= 1.3×"
    )
    if not args.skip_app:
        app = report["app"] = app_under_load(args.repeats)
        print(
            f"app, bundled data: {app['fit_idle']['training_s']:.2f} s idle, "
            f"{app['fit_one_core_busy']['training_s']:.2f} s with one core busy = {app['fit_ratio']:.2f}×   "
            f"target <= 1.3× (wall from the click: {app['fit_idle']['wall_s']:.2f} / "
            f"{app['fit_one_core_busy']['wall_s']:.2f} s)\n"
            f"four trainings at once: {app['four_at_once_s']:.2f} s, one alone {app['one_alone_s']:.2f} s "
            f"= {app['four_ratio']:.2f}×   target <= 2.3×"
        )
        sw = app["switches_during_four_largest"]
        print(
            f"page switches while four learners train the largest model: median {sw['median_s']:.2f} s, "
            f"p90 {sw['p90_s']:.2f} s, max {sw['max_s']:.2f} s ({sw['count']} switches)   "
            f"target median < 1 s, p90 < 2 s"
        )
    args.json.write_text(json.dumps(report, indent=2))
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
