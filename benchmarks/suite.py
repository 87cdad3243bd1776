"""How long the fast suite (`pytest --ignore=tests/e2e`, xdist as pyproject.toml sets it) takes, run after run, with the
machine's load beside each figure: the machine is shared, so a figure means something only next to the load it was
measured under (measure on a quiet one). The CPU seconds beside it are those of every process of the run, the
training processes that the test processes' fork servers start included (on Linux: this script adopts them as they
are orphaned, as their subreaper, so that their time is counted): a figure that the load changes less than the wall
time. Prints one line per run and the slowest tests of the last run:

    .venv/bin/python benchmarks/suite.py                       # this checkout, twice (about 2 × 1–2 minutes)
    .venv/bin/python benchmarks/suite.py --runs 3 /work/main   # another checkout, e.g. before a change
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
ORPHANS_SECONDS = 30.0  # how long to wait for the processes a run left behind (fork servers end with their parent)


def adopt_orphans() -> bool:
    """Make this process the subreaper of its descendants (Linux): a process whose parent ends is handed to this one,
    which can then wait for it and count its CPU time. False where that cannot be done."""
    with contextlib.suppress(OSError, AttributeError):
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return False


def reap_orphans(timeout: float = ORPHANS_SECONDS) -> None:
    """Wait for every process handed to this one (adopt_orphans), at most timeout seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:  # none left
            return
        if pid == 0:  # some still running
            time.sleep(0.05)


def run_suite(checkout: Path, slowest: int) -> tuple[float, float, str, str]:
    """(wall seconds, CPU seconds of the run's processes, pytest's summary line and failures, its slowest tests) of one
    run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    command = ["-m", "pytest", "--ignore=tests/e2e", "-q", "-p", "no:cacheprovider", f"--durations={slowest}"]
    done = subprocess.run(
        [sys.executable, *command],
        cwd=checkout,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    reap_orphans()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.splitlines()
    summary = next((line for line in reversed(lines) if re.search(r"\d+ (passed|failed)", line)), "no summary")
    durations = "\n".join(line for line in lines if re.match(r"\s*\d+\.\d+s (call|setup|teardown)", line))
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]  # a figure with failures means less
    return wall, cpu, "; ".join([summary.strip("= "), *failed]), durations


def load() -> str:
    """The 1-minute load average and the cores, as `load 0.4 on 2 cores`."""
    return f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description="Time the fast suite run after run, the load beside each figure.")
    parser.add_argument("checkout", nargs="?", type=Path, default=ROOT, help="the checkout to test (default: this one)")
    parser.add_argument("--runs", type=int, default=2, help="how many runs (default 2)")
    parser.add_argument("--slowest", type=int, default=15, help="how many of the slowest tests to list (default 15)")
    args = parser.parse_args()
    counted = "every process" if adopt_orphans() else "the processes waited for (not the training processes)"
    print(f"{args.checkout}: the fast suite, {args.runs} runs; CPU of {counted}")
    durations = ""
    for i in range(1, args.runs + 1):
        start_load = load()
        wall, cpu, summary, durations = run_suite(args.checkout, args.slowest)
        print(f"run {i}: {wall:6.1f} s wall, {cpu:6.1f} s CPU ({start_load} before, {load()} after): {summary}")
    print(f"slowest tests of the last run:\n{durations}")


if __name__ == "__main__":
    main()
