"""Training and page switches on a shared CPU: idle against one busy core, one training against four at once, and
other learners' page switches while four learners train the largest model. One Streamlit process; the browser is
Debian's chromium through the e2e harness, its six tabs on the same cores as the server (a laptop with the app open).
Four trainings at once are also measured without a browser, through the server's job queue alone (a classroom,
where the learners' browsers run on their own machines), and the CPU seconds each kind of process used meanwhile.

    .venv/bin/python benchmarks/load.py              # everything (about 8 minutes)
    .venv/bin/python benchmarks/load.py --skip-app   # the command line and the job queue, no browser
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from _root import ROOT

from tests.e2e.helpers import TRAIN_TIMEOUT, expect, go_to, press_slider, settled, sidebar
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, streamlit_server

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


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by each kind of process on the machine (chromium, the app server, …), from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if "chromium" in command:
            kind = "browser tabs" if "--type=renderer" in command else "browser, other processes"
        elif "streamlit" in command:
            kind = "app server"
        elif "forkserver" in command:  # the fork server, with the training processes it forked and reaped
            kind = "trainings"
        else:
            kind = "everything else"
        used = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if kind == "trainings" else 0)
        out[kind] = out.get(kind, 0.0) + used / ticks
    return out


@contextlib.contextmanager
def cpu_used(into: dict) -> Iterator[None]:
    """Fill into with the CPU seconds each kind of process used meanwhile (of the processes that ended meanwhile, only
    the training processes are counted)."""
    before = cpu_seconds()
    yield
    after = cpu_seconds()
    into.update({kind: round(after[kind] - before.get(kind, 0.0), 2) for kind in after})


def queue_only(repeats: int) -> dict:
    """Wall seconds for one and for four default trainings on the bundled pairs through the app's job queue, without
    a browser or a page run: what the server itself takes."""
    from streamlit.logger import set_log_level

    set_log_level("error")  # its caches would warn that no server is running
    from jobs.queue import Job, JobQueue, Run, training_slots
    from jobs.worker import start_fork_server
    from transformer import TrainConfig, Translator
    from transformer.data import parse_pairs
    from ui.datasets import BUNDLED_PAIRS, SETTINGS

    start_fork_server()
    queue = JobQueue(training_slots(), alive=lambda _: True)
    pairs = parse_pairs(BUNDLED_PAIRS.read_bytes(), BUNDLED_PAIRS.name)
    cfg = TrainConfig(epochs=SETTINGS["epochs"], lr=SETTINGS["lr"], batch_size=SETTINGS["batch_size"], seed=0)
    sizes = {k: SETTINGS[k] for k in ("d_model", "n_heads", "d_ff", "n_layers", "dropout")}

    def wall(n: int) -> float:
        jobs = [
            Job("train", "bench", [Run("model", Translator.create(pairs, "auto", 0, **sizes), pairs, cfg)])
            for _ in range(n)
        ]
        start = time.perf_counter()
        for job in jobs:
            queue.submit(job)
        while not all(job.finished for job in jobs):
            time.sleep(0.01)
        assert all(job.state == "done" for job in jobs), [job.error for job in jobs]
        return time.perf_counter() - start

    wall(1)  # the first job pays for the fork server's warm-up
    one = statistics.median(wall(1) for _ in range(repeats))
    four = statistics.median(wall(4) for _ in range(repeats))
    return {"one_alone_s": one, "four_at_once_s": four, "four_ratio": four / one, "slots": training_slots()}


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

        ones, fours = [], []
        for _ in range(repeats):  # the figures of the last round are kept as its profile
            results["cpu_s_one_alone"], results["cpu_s_four_at_once"] = {}, {}
            with cpu_used(results["cpu_s_one_alone"]):
                ones.append(_train_and_wait(learners[:1])[0])
            with cpu_used(results["cpu_s_four_at_once"]):
                wall, results["training_s_reported_four"] = _train_and_wait(learners[:4])
                fours.append(wall)
        one, four = statistics.median(ones), statistics.median(fours)
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
    queue = report["queue_only"] = queue_only(args.repeats)
    print(
        f"four trainings at once through the job queue, no browser: {queue['four_at_once_s']:.2f} s, one alone "
        f"{queue['one_alone_s']:.2f} s = {queue['four_ratio']:.2f}×   target <= 2.3× ({queue['slots']} slots)"
    )
    if not args.skip_app:
        app = report["app"] = app_under_load(args.repeats)
        print(
            f"app, bundled data: {app['fit_idle']['training_s']:.2f} s idle, "
            f"{app['fit_one_core_busy']['training_s']:.2f} s with one core busy = {app['fit_ratio']:.2f}×   "
            f"target <= 1.3× (wall from the click: {app['fit_idle']['wall_s']:.2f} / "
            f"{app['fit_one_core_busy']['wall_s']:.2f} s)\n"
            f"four trainings at once (medians): {app['four_at_once_s']:.2f} s, one alone {app['one_alone_s']:.2f} s "
            f"= {app['four_ratio']:.2f}×   target <= 2.3×\n"
            f"  CPU seconds meanwhile (last round): "
            + ", ".join(
                f"{kind} {s:.1f}" for kind, s in sorted(app["cpu_s_four_at_once"].items(), key=lambda kv: -kv[1])
            )
            + f" (one alone: {', '.join(f'{k} {s:.1f}' for k, s in app['cpu_s_one_alone'].items() if s >= 0.05)}); "
            f"training seconds the four pages report: {', '.join(map(str, app['training_s_reported_four']))}"
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
