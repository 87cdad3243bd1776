"""A classroom under load, a classroom that loses a process, and the first learner on a new process.

Load: while four learners train the largest model, two idle learners switch pages. Times every page switch of the
idle learners (Data → Attention until its heatmap is drawn, Attention → Data until its tables are drawn) with 3 app
processes behind nginx (deploy/classroom.py), then with 1 for comparison.

Failover (--failover): 3 processes, six learners with a table of their own; `kill -9` the process of two of them,
and time until those two see the app again in a fresh session, until the script has the process back, and until
it has run its warm-up; several rounds.

First learner (--first-learner): a classroom of one fresh process, with and without the warm-up request the script
sends; the time for the first learner's first page to be drawn, and for the second learner's.

Hung process (--hung): 2 processes with the default health checks, no browser; `kill -STOP` the process of a learner,
and time until that learner (its cookie pinned to it) and three new learners, all asking at the moment of the stop,
have a page (GET / then GET /_stcore/host-config, as a browser's first requests, following nginx's new cookie), until
the script says it hangs, and until a new process answers in its place; several rounds.

The learners are driven through the e2e harness and the helpers of tests/e2e/test_e2e_classroom.py.

    .venv/bin/python benchmarks/classroom.py [--rounds 10]     # or: benchmarks/bench.py --classroom
    .venv/bin/python benchmarks/classroom.py --failover [--rounds 5]
    .venv/bin/python benchmarks/classroom.py --first-learner [--rounds 3]
    .venv/bin/python benchmarks/classroom.py --hung [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _root import ROOT
from playwright.sync_api import sync_playwright

from deploy.classroom import HealthChecks, classroom
from deploy.nginx import COOKIE
from tests.e2e.helpers import TRAIN_TIMEOUT, VIEWPORT, alert, expect, go_to, open_app, press_slider
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.test_e2e_classroom import (
    FRESH_PAIRS,
    TRAIN,
    free_ports,
    pairs_shown,
    process_of,
    served_by,
    start_training,
    switch_pages,
    to_attention,
    to_data,
    upload_pairs,
    wait_until,
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
        classroom(app_ports, port, "127.0.0.1", Path(run_dir), model_store=Path(run_dir) / "store") as room,
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
        browser = _browser(playwright)
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


def _browser(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)


def _stamps(log: Path, patterns: dict[str, str], since: int, start: float, stop: threading.Event) -> dict:
    """Seconds after `start` at which a line of `log` after its first `since` lines matched each pattern, polled
    every 0.1 s until `stop` is set or all have matched."""
    found: dict[str, float] = {}
    while len(found) < len(patterns) and not stop.wait(0.1):
        lines = log.read_text(encoding="utf-8").splitlines()[since:] if log.exists() else []
        for name, pattern in patterns.items():
            if name not in found and any(re.search(pattern, line) for line in lines):
                found[name] = time.perf_counter() - start
    return found


def _failover_round(browser, room, pairs: list[str], folder: Path) -> tuple[list[float], dict]:
    """One kill: the seconds until each of the dead process's learners has a working page; the log's stamps."""
    contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(6)]
    try:
        pages = [context.new_page() for context in contexts]
        for i, page in enumerate(pages):
            open_app(page, room.url)
            path = folder / f"learner-{i}.tsv"
            path.write_text("\n".join(pairs) + "\n", encoding="utf-8")
            upload_pairs(page, path)
        killed = process_of(pages[0])
        hit = [page for page in pages if process_of(page) == killed]
        since = len(room.log.read_text(encoding="utf-8").splitlines()) if room.log.exists() else 0
        patterns = {"back": rf"at {re.escape(killed)} is back", "warm": rf"at {re.escape(killed)} ran its first page"}
        stop, stamps = threading.Event(), {}
        os.kill(room.app(killed).pid, signal.SIGKILL)
        start = time.perf_counter()
        watcher = threading.Thread(target=lambda: stamps.update(_stamps(room.log, patterns, since, start, stop)))
        watcher.start()
        working = []
        for page in hit:
            expect(pairs_shown(page)).to_have_text(FRESH_PAIRS, timeout=120_000)
            working.append(time.perf_counter() - start)
        watcher.join(timeout=180)
        stop.set()
        wait_until(lambda: served_by(room, killed) == killed, "nginx to send learners to it again")
        return working, stamps
    finally:
        for context in contexts:
            context.close()


def measure_failover(rounds: int = 5) -> dict:
    """Seconds from `kill -9` of a process to: its learners' pages working again (each), the process back, warm."""
    pairs = (ROOT / "assets" / "pairs.tsv").read_text(encoding="utf-8").splitlines()[:4]
    working, back, warm = [], [], []
    with tempfile.TemporaryDirectory(prefix="classroom-failover-") as folder, sync_playwright() as playwright:
        browser = _browser(playwright)
        port, *app_ports = free_ports(4)
        with classroom(app_ports, port, "127.0.0.1", Path(folder) / "run", model_store=Path(folder) / "store") as room:
            for _ in range(rounds):
                seconds, stamps = _failover_round(browser, room, pairs, Path(folder))
                working += seconds
                back.append(stamps["back"])
                warm.append(stamps["warm"])
        browser.close()
    return {
        "working_median_s": statistics.median(working),
        "working_max_s": max(working),
        "learners": len(working),
        "back_median_s": statistics.median(back),
        "warm_median_s": statistics.median(warm),
        "rounds": rounds,
    }


def measure_first_learner(rounds: int = 3) -> dict:
    """Seconds for the first and the second learner's first page on a fresh one-process classroom, with and
    without the warm-up request; medians over rounds (a new process each)."""
    results = {}
    with sync_playwright() as playwright:
        browser = _browser(playwright)
        for warm in (False, True):
            first, second = [], []
            for _ in range(rounds):
                port, app_port = free_ports(2)
                with (
                    tempfile.TemporaryDirectory(prefix="classroom-first-") as run_dir,
                    classroom(
                        [app_port], port, "127.0.0.1", Path(run_dir), model_store=Path(run_dir) / "s", warm=warm
                    ) as room,
                ):
                    for times in (first, second):
                        context = browser.new_context(viewport=VIEWPORT)
                        try:
                            start = time.perf_counter()
                            open_app(context.new_page(), room.url)
                            times.append(time.perf_counter() - start)
                        finally:
                            context.close()
            results["warm" if warm else "cold"] = {
                "first_s": statistics.median(first),
                "second_s": statistics.median(second),
            }
        browser.close()
    return results


def _page(url: str, cookie: str | None, start: float) -> float:
    """A learner's first requests (GET / and GET /_stcore/host-config, with the cookie nginx sends back, as a browser
    does); the seconds after `start` when both have answered 200."""
    for path in ("/", "/_stcore/host-config"):
        headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
        with urllib.request.urlopen(urllib.request.Request(url + path, headers=headers), timeout=300) as response:
            assert response.status == 200
            response.read()
            ours = [c for c in response.headers.get_all("Set-Cookie") or [] if c.startswith(f"{COOKIE}=")]
            cookie = ours[0].partition(";")[0].partition("=")[2] if ours else cookie
    return time.perf_counter() - start


def _hung_round(room) -> tuple[float, list[float], dict]:
    """One stop: the seconds until the stopped process's learner has a page, until each new learner has one, and
    the log's stamps (hangs, back); the stopped process is killed by the script."""
    with urllib.request.urlopen(f"{room.url}/", timeout=60) as response:
        ours = [c for c in response.headers.get_all("Set-Cookie") if c.startswith(f"{COOKIE}=")]
    stopped = ours[0].partition(";")[0].partition("=")[2]
    since = len(room.log.read_text(encoding="utf-8").splitlines()) if room.log.exists() else 0
    at = re.escape(stopped)
    patterns = {"hangs": rf"at {at} \(process \d+\) hangs", "back": rf"at {at} is back", "warm": rf"at {at} ran its"}
    stop, stamps = threading.Event(), {}
    os.kill(room.app(stopped).pid, signal.SIGSTOP)
    start = time.perf_counter()
    watcher = threading.Thread(target=lambda: stamps.update(_stamps(room.log, patterns, since, start, stop)))
    watcher.start()
    with ThreadPoolExecutor(4) as pool:
        pinned = pool.submit(_page, room.url, stopped, start)
        new = [pool.submit(_page, room.url, None, start) for _ in range(3)]
        pinned_s, new_s = pinned.result(), [f.result() for f in new]
    watcher.join(timeout=300)  # until the new process is warm: the next round may stop it
    stop.set()
    wait_until(lambda: served_by(room, stopped) == stopped, "nginx to send learners to it again")
    return pinned_s, new_s, stamps


def measure_hung(rounds: int = 3) -> dict:
    """Seconds from `kill -STOP` of one of 2 processes to: its learner's page, new learners' pages, the script's
    "hangs" line, the new process answering; with the default health checks and request timeout."""
    pinned, new, hangs, back = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="classroom-hung-") as folder:
        port, *app_ports = free_ports(3)
        with classroom(app_ports, port, "127.0.0.1", Path(folder) / "run", model_store=Path(folder) / "store") as room:
            for _ in range(rounds):
                pinned_s, new_s, stamps = _hung_round(room)
                pinned.append(pinned_s)
                new += new_s
                hangs.append(stamps["hangs"])
                back.append(stamps["back"])
    return {"pinned_s": pinned, "new_s": new, "hangs_s": hangs, "back_s": back, "rounds": rounds}


def hung_lines(r: dict) -> str:
    health = HealthChecks()
    settings = (
        f"checks every {health.interval:g} s, {health.timeout:g} s to answer, {health.failures} in a row; "
        f"nginx request timeout {health.request_timeout:g} s"
    )
    return "\n".join(
        [
            f"hung process: kill -STOP of one of 2 processes, {r['rounds']} rounds ({settings}):",
            f"  its learner has a page after median {statistics.median(r['pinned_s']):.1f} s "
            f"(max {max(r['pinned_s']):.1f} s); {len(r['new_s'])} new learners after median "
            f"{statistics.median(r['new_s']):.1f} s (max {max(r['new_s']):.1f} s)",
            f"  the script says it hangs after median {statistics.median(r['hangs_s']):.1f} s "
            f"(max {max(r['hangs_s']):.1f} s); a new process answers after median "
            f"{statistics.median(r['back_s']):.1f} s (max {max(r['back_s']):.1f} s)",
        ]
    )


def failover_lines(r: dict) -> str:
    return (
        f"failover: kill -9 of one of 3 processes, {r['learners']} learners of it over {r['rounds']} rounds: a working "
        f"page again after median {r['working_median_s']:.2f} s (max {r['working_max_s']:.2f} s); the process back "
        f"after {r['back_median_s']:.1f} s, warm after {r['warm_median_s']:.1f} s (medians)"
    )


def first_learner_lines(r: dict) -> str:
    lines = ["first learners on a fresh process (open the app until its first page is drawn, medians):"]
    for kind, label in (("cold", "without the warm-up"), ("warm", "with the warm-up request")):
        lines.append(f"  {label}: first learner {r[kind]['first_s']:.2f} s, second {r[kind]['second_s']:.2f} s")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--rounds",
        type=int,
        help="rounds (default: 10 page-switch rounds per idle learner, 5 failovers, 3 starts, 3 stops)",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--failover", action="store_true", help="time a failover instead of page switches under load")
    what.add_argument("--first-learner", action="store_true", help="time the first learners on a fresh process")
    what.add_argument("--hung", action="store_true", help="time a stopped process: served elsewhere, replaced")
    args = parser.parse_args()
    if args.failover:
        print(failover_lines(measure_failover(args.rounds or 5)))
    elif args.hung:
        print(hung_lines(measure_hung(args.rounds or 3)))
    elif args.first_learner:
        print(first_learner_lines(measure_first_learner(args.rounds or 3)))
    else:
        print(report_lines(measure(args.rounds or 10)))


if __name__ == "__main__":
    main()
