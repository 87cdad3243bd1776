"""A classroom under load: while four learners train the largest model, two idle learners switch pages.

Times every page switch of the idle learners (Data → Attention until its heatmap is drawn, Attention → Data
until its tables are drawn) with 3 app processes behind nginx (deploy/classroom.py), then with 1 for comparison.
The learners are driven through the e2e harness and the helpers of tests/e2e/test_e2e_classroom.py.

    .venv/bin/python benchmarks/classroom.py [--rounds 10]     # or: benchmarks/bench.py --classroom
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from deploy.classroom import classroom  # noqa: E402
from tests.e2e.helpers import TRAIN_TIMEOUT, alert, expect, go_to, open_app, press_slider  # noqa: E402
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.test_e2e_classroom import (  # noqa: E402
    TRAIN,
    VIEWPORT,
    free_ports,
    start_training,
    switch_pages,
    to_attention,
    to_data,
)

LAYOUTS = (3, 1)  # app processes behind nginx
TRAINERS, IDLE = 4, 2
# the Train page's largest configuration; 400 epochs, so that every training outlasts the measurement
LARGEST = {"d_model": "256", "d_ff": "1024", "n_layers": "6", "epochs": "400"}


def _train_largest(page) -> None:
    """Set the Train page's sliders to the largest model, press Train and wait until the job trains or waits in line
    (each app process trains at most its share of the cores at once)."""
    go_to(page, TRAIN)
    for label, value in LARGEST.items():
        assert press_slider(page, label, "End") == value
    start_training(page)
    training = page.get_by_test_id("stMain").get_by_test_id("stProgress")
    expect(training.or_(alert(page, "Info", "Waiting for a free place")).first).to_be_visible(timeout=TRAIN_TIMEOUT)


def _seconds(switch, page) -> float:
    """Seconds for one page switch, until the new page is drawn."""
    start = time.perf_counter()
    switch(page)
    return time.perf_counter() - start


def measure_layout(browser, processes: int, rounds: int) -> dict:
    """Page-switch times of the idle learners while the others train, with `processes` app processes."""
    load_before = os.getloadavg()[0]  # other work on the machine; the figures depend on it
    port, *app_ports = free_ports(1 + processes)
    with (
        tempfile.TemporaryDirectory(prefix="classroom-bench-") as run_dir,
        classroom(app_ports, port, "127.0.0.1", Path(run_dir)) as room,
    ):
        contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(TRAINERS + IDLE)]
        try:
            pages = [context.new_page() for context in contexts]
            for page in pages:  # one after another: round-robin spreads them over the processes
                open_app(page, room.url)
            trainers, idle = pages[:TRAINERS], pages[TRAINERS:]
            for page in idle:
                switch_pages(page)  # the tab's first chart loads plotly.js: not counted
            for page in trainers:
                _train_largest(page)
            seconds = []
            for _ in range(rounds):
                for page in idle:
                    seconds += [_seconds(to_attention, page), _seconds(to_data, page)]
            finished = sum(alert(page, "Success", "Trained").count() for page in trainers)
            load_during = os.getloadavg()[0]
        finally:
            for context in contexts:
                context.close()
    return {
        "median_s": statistics.median(seconds),
        "p90_s": statistics.quantiles(seconds, n=10)[-1],
        "switches": len(seconds),
        "trainings_running_throughout": finished == 0,
        "load_before": load_before,  # 1-minute load average before the classroom started
        "load_during": load_during,  # and at the end of the measurement
    }


def measure(rounds: int = 10) -> dict:
    """Both layouts: {"3": {...}, "1": {...}} keyed by the number of app processes."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            return {str(n): measure_layout(browser, n, rounds) for n in LAYOUTS}
        finally:
            browser.close()


def report_lines(results: dict) -> str:
    """The printed block: median and p90 page-switch time per layout."""
    lines = [f"classroom: {IDLE} idle learners switch pages while {TRAINERS} train d_model 256, d_ff 1024, 6 layers"]
    for processes, r in results.items():
        note = "" if r["trainings_running_throughout"] else "   (a training ended before the last switch)"
        lines.append(
            f"  {processes} app process(es) behind nginx: median {r['median_s']:5.2f} s, p90 {r['p90_s']:5.2f} s "
            f"over {r['switches']} switches (load average {r['load_before']:.1f} before, "
            f"{r['load_during']:.1f} during){note}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10, help="Data → Attention → Data rounds per idle learner")
    args = parser.parse_args()
    print(report_lines(measure(args.rounds)))


if __name__ == "__main__":
    main()
