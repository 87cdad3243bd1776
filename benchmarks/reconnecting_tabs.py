"""Which open tabs tell their learner that their session was lost when every app process of a classroom hangs and is
restarted (issue 43 §5). A real classroom (`deploy/classroom.py -n 2`, its default health checks), four tabs in
Chromium: three of one learner (one browser, one cookie, so one process) on three pages and one of another learner;
both app processes are stopped (SIGSTOP), the supervisor kills and restarts them, and each tab is watched for 60 s
after both are back for the "lost its connection" message.

    .venv/bin/python benchmarks/reconnecting_tabs.py --runs 3

prints, per run, each tab's reconnect (the websocket's handshake) and when its message showed, in seconds after both
processes were back, or "no message" with the first words of what the tab shows instead.
"""

from __future__ import annotations

import argparse
import os
import signal
import tempfile
import time
from pathlib import Path

from _root import ROOT  # noqa: F401  (the checkout on sys.path)
from playwright.sync_api import sync_playwright

from tests.deploy.test_faults import Room
from tests.deploy.test_watchdog import FakeManager
from tests.e2e.helpers import VIEWPORT, open_app

MESSAGE = "This tab lost its connection"
WATCH_SECONDS = 60
PAGES = ("/", "/Attention", "/Decoding", "/")  # the first three in one browser context (one learner), the last alone


def one_run(tmp: Path) -> list[str]:
    manager = FakeManager(f"@tabs-{os.getpid()}-{time.monotonic_ns()}")
    room = Room(tmp, manager.address)
    try:
        room.ready()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            learner, other = (browser.new_context(viewport=VIEWPORT, locale="en-US") for _ in range(2))
            tabs = [learner.new_page(), learner.new_page(), learner.new_page(), other.new_page()]
            handshakes: dict[int, float] = {}
            for i, tab in enumerate(tabs):
                cdp = tab.context.new_cdp_session(tab)
                cdp.send("Network.enable")
                cdp.on(
                    "Network.webSocketWillSendHandshakeRequest",
                    lambda _, i=i: handshakes.__setitem__(i, time.monotonic()),
                )
            for tab, path in zip(tabs, PAGES):
                open_app(tab, room.url + path)
            for pid in room.targets("both app processes"):
                os.kill(pid, signal.SIGSTOP)
            said = [f"the app process at {backend} is back" for backend in room.backends]
            while not all(any(s in line for line in room.lines) for s in said):
                tabs[0].wait_for_timeout(200)
            back = time.monotonic()
            shown: dict[int, float] = {}
            while time.monotonic() < back + WATCH_SECONDS and len(shown) < len(tabs):
                for i, tab in enumerate(tabs):
                    if i not in shown and tab.get_by_text(MESSAGE).count():
                        shown[i] = time.monotonic()
                tabs[0].wait_for_timeout(250)
            lines = []
            for i, tab in enumerate(tabs):
                reconnect = f"reconnected at {handshakes[i] - back:+.1f} s" if handshakes.get(i, 0) > back - 30 else "?"
                if i in shown:
                    lines.append(f"tab {i + 1} ({PAGES[i]}): {reconnect}, message at {shown[i] - back:.1f} s")
                else:
                    words = " ".join(tab.locator("body").inner_text().split()[:12])
                    lines.append(f"tab {i + 1} ({PAGES[i]}): {reconnect}, no message; it shows: {words}")
            browser.close()
            return lines
    finally:
        room.close([])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            print(f"run {run + 1}:", flush=True)
            for line in one_run(Path(tmp)):
                print("  " + line, flush=True)


if __name__ == "__main__":
    main()
