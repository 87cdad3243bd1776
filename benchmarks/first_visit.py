"""The server's time for a tab's first visit to the Attention page: the script run of the switch from the Data page, on
the bundled model, in real Streamlit script runs (AppTest, no browser), for the first tab of a fresh process (a new
server, its caches warmed as serve.py warms them) and for later tabs, which find what the first computed if the
server shares it (the bundled model's head statistics over its first 200 pairs, its views and figures:
ui/model_cache.py).

    .venv/bin/python benchmarks/first_visit.py [--tabs 6] [--repo PATH]

Each repeat is a fresh process. --repo times another checkout (e.g. a copy of an older commit) with the same script.
Measure on a quiet machine: the figures are wall seconds of one core.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ATTENTION = "pages/attention.py"


def visits(tabs: int) -> list[float]:
    """In this process (run with the checkout's root as its working directory): seconds of the switch to the
    Attention page of tabs tabs, one after the other, each opened on the Data page first."""
    sys.path.insert(0, str(Path.cwd()))
    import torch

    from tests.apptest_helpers import open_app
    from tests.conftest import _reuse_what_every_apptest_redoes
    from ui.warmup import warm_caches

    torch.set_num_threads(1)
    _reuse_what_every_apptest_redoes()  # as a server: the components scanned and the scripts compiled once
    warm_caches()  # as serve.py does before the first request
    seconds = []
    for _ in range(tabs):
        at = open_app("en", "pages/data.py")
        started = time.perf_counter()
        at.switch_page(ATTENTION).run()
        seconds.append(time.perf_counter() - started)
        assert not at.exception, at.exception
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description="Time a tab's first visit to the Attention page.")
    parser.add_argument("--tabs", type=int, default=6, help="tabs per process (default 6)")
    parser.add_argument("--repeats", type=int, default=3, help="fresh processes (default 3)")
    parser.add_argument("--repo", type=Path, default=ROOT, help="the checkout to time (default: this one)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child: print one process's figures
    args = parser.parse_args()
    if args.one:
        print(json.dumps(visits(args.tabs)))
        return
    first, later = [], []
    for _ in range(args.repeats):
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--one", "--tabs", str(args.tabs)],
            cwd=args.repo,
            capture_output=True,
            text=True,
            check=True,
        )
        seconds = json.loads(done.stdout.strip().splitlines()[-1])
        first.append(seconds[0])
        later += seconds[1:]
    print(f"{args.repo}: a tab's first visit to the Attention page (the switch from the Data page), server time")
    print(f"  first tab of a new server: median {statistics.median(first):.2f} s over {len(first)} servers")
    print(f"  later tabs:                median {statistics.median(later):.2f} s over {len(later)} tabs")


if __name__ == "__main__":
    main()
