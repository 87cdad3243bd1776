"""Every ready-made Lab experiment, run fresh in the browser as a learner does, on the corpus (the Lab's default:
each experiment's slice of transformer.corpus with the corpus's recipe, transformer.lab.Experiment): seconds from the
click on "Run the experiment" to the verdict on the page (target: at most 60 s on an idle machine), and what the page
measured. One Streamlit process, Debian's chromium through the e2e harness; each experiment in a new tab (its own
session), one after another. The load average is printed first: figures taken on a busy machine are not the target's.

    .venv/bin/python benchmarks/lab.py          # idle
    .venv/bin/python benchmarks/lab.py --busy   # with one other process keeping one core busy
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

from _root import ROOT

from benchmarks.load import VIEWPORT, busy_core
from tests.e2e.helpers import TRAIN_TIMEOUT, choose, go_to, settled
from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, streamlit_server
from transformer.lab import EXPERIMENTS as LAB_EXPERIMENTS
from ui.i18n import t

EXPERIMENTS = ("no_look_ahead", "no_pe", "no_scale", "no_residual_norm", "pre_norm", "learned_pe")
TARGET_S = 60.0
VERDICT = re.compile(r"^[✓✗] The claim (held|did not hold) in this run")


def run_one(browser, url: str, name: str) -> dict:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(url)
    page.locator("h1").first.wait_for(timeout=60_000)
    settled(page, timeout=60_000)
    go_to(page, "lab")
    choose(page, "Experiment", t(f"lab.exp.{name}", "en"))
    corpus_choice = t("lab.data.corpus", "en", size=f"{LAB_EXPERIMENTS[name].corpus_size:,}")
    page.get_by_test_id("stRadio").get_by_text(corpus_choice, exact=True).click()  # the default, said explicitly
    settled(page)
    start = time.perf_counter()
    page.get_by_role("button", name="Run the experiment").click()
    verdict = page.locator('[data-testid^="stAlertContent"]').filter(has_text=VERDICT)
    verdict.wait_for(timeout=10 * TRAIN_TIMEOUT)  # a busy machine is reported, not failed
    seconds = time.perf_counter() - start
    measured = page.get_by_text(re.compile(r"^Measured")).first.inner_text()
    held = "did not hold" not in verdict.inner_text()
    page.context.close()
    experiment = LAB_EXPERIMENTS[name]
    return {
        "seconds": round(seconds, 1),
        "held": held,
        "measured": measured,
        "corpus_pairs": experiment.corpus_size,
        "epochs": experiment.epochs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--busy", action="store_true", help="keep one core busy with another process meanwhile")
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "lab.json")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: install Debian's chromium")
    from playwright.sync_api import sync_playwright

    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    results = {}
    with streamlit_server() as server, sync_playwright() as pw, busy_core(args.busy):
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name in EXPERIMENTS:
            results[name] = run_one(browser, server.url, name)
            r = results[name]
            mark = "held" if r["held"] else "did NOT hold"
            print(
                f"{name:18s} {r['seconds']:5.1f} s click to verdict (target ≤ {TARGET_S:.0f} s idle; "
                f"{r['corpus_pairs']} corpus pairs, {r['epochs']} epochs), claim {mark}: {r['measured']}"
            )
        browser.close()
    report = {
        "date": time.strftime("%Y-%m-%d"),
        "one_core_busy": args.busy,
        "load_average": [round(x, 2) for x in load],
        "experiments": results,
    }
    args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
