"""The Attention and Inside the model pages, and the server's memory, with a random model of opus-mt-zh-en's exact
shape opened (issue 40, "Speed and memory": the Attention page at most 1.5 s after the first visit, Inside the model
at most 5 s, server memory with the model loaded at most 1.5 GB).

What is timed is the server's script run of a page (Streamlit's AppTest runs app.py and the page in this process, as
the server does; no browser): a tab opened on the Data page with the model opened (ui.model_cache.opened_model, the
process's one read-only copy), then for each page its first visit (the switch to it), a later visit (back from the
Data page) and a rerun on the page (what a widget change costs at least). Then TABS - 1 more tabs open the same
model and visit both pages. Memory is the process's resident memory (RSS): after the model is opened, after the
first tab drew its pages, after each more tab; and its peak. Each measure is a fresh process (a new server, its caches
warmed as serve.py warms them), idle and with another core kept busy.

    .venv/bin/python benchmarks/marian_pages.py [--tabs 3] [--quick]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from _marian import busy_core, load, marian_folder
from _root import ROOT

PAGES = {"Attention": "pages/attention.py", "Inside the model": "pages/inside.py"}
DATA = "pages/data.py"


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def one_server(tabs: int) -> dict:
    """In this process: the timings and memory of one server (see the docstring)."""
    sys.path.insert(0, str(ROOT))
    import warnings

    warnings.filterwarnings("ignore")  # st.cache_resource outside a running server says so
    import torch

    from tests.apptest_helpers import open_app
    from tests.conftest import _reuse_what_every_apptest_redoes
    from ui.model_cache import opened_model
    from ui.warmup import warm_caches

    _reuse_what_every_apptest_redoes()  # as a server: the components scanned and the scripts compiled once
    warm_caches()  # as serve.py does before the first request
    out = {"threads": torch.get_num_threads(), "rss_before_mb": rss_mb(), "tabs": []}
    started = time.perf_counter()
    opened_model(str(marian_folder()))
    out["open_s"], out["rss_opened_mb"] = time.perf_counter() - started, rss_mb()
    for _ in range(tabs):
        at = open_app("en", DATA, model=opened_model(str(marian_folder())))
        at.default_timeout = 1800  # a loaded machine: the figures say how long, not whether
        assert not at.exception, at.exception
        tab = {}
        for name, page in PAGES.items():
            seconds = []
            for go in (page, DATA, page, None):  # first visit, away, a later visit, a rerun on the page
                started = time.perf_counter()
                (at.switch_page(go) if go else at).run()
                assert not at.exception, at.exception
                if go != DATA:
                    seconds.append(time.perf_counter() - started)
            tab[name] = dict(zip(("first_s", "later_s", "rerun_s"), seconds))
        tab["rss_mb"] = rss_mb()
        out["tabs"].append(tab)
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def measure(tabs: int, busy: bool) -> dict:
    """One fresh server's figures, another core busy or not."""
    marian_folder()  # built before anything is timed
    with busy_core(busy):
        seen = load()
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--one", "--tabs", str(tabs)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return {**result, "busy": busy, "load": seen}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=3, help="tabs opening the model (default 3)")
    parser.add_argument("--quick", action="store_true", help="idle only")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child: one server's figures
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_server(args.tabs)))
        return
    print(f"a random model of opus-mt-zh-en's shape opened in the app; {time.strftime('%Y-%m-%d %H:%M')}")
    results = [measure(args.tabs, busy) for busy in ((False,) if args.quick else (False, True))]
    for r in results:
        print(f"\nanother core {'busy' if r['busy'] else 'idle'} ({r['load']}, torch threads {r['threads']})")
        print(
            f"  model opened in {r['open_s']:.1f} s; RSS {r['rss_before_mb']:.0f} MB before, "
            f"{r['rss_opened_mb']:.0f} MB after"
        )
        print(f"  {'tab':<5}{'page':<18}{'first visit s':>14}{'later visit s':>15}{'rerun s':>9}{'RSS after MB':>14}")
        for i, tab in enumerate(r["tabs"], start=1):
            for name in PAGES:
                t = tab[name]
                rss = f"{tab['rss_mb']:>14.0f}" if name == "Inside the model" else ""
                print(f"  {i:<5}{name:<18}{t['first_s']:>14.2f}{t['later_s']:>15.2f}{t['rerun_s']:>9.2f}{rss}")
        print(f"  peak RSS {r['peak_rss_mb']:.0f} MB")
    print("\ntargets: Attention after the first visit <= 1.5 s; Inside the model <= 5 s; server memory <= 1.5 GB")


if __name__ == "__main__":
    main()
