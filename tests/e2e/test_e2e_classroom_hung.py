"""A classroom with a hung app process, without a browser: deploy/classroom.py's real app processes behind the real
nginx. One of two processes is stopped (`kill -STOP`): its learners and new ones are served by the other within
15 s, and the supervisor kills it and starts it again within 30 s, saying so; the websocket of a tab open on it
closes at the kill, and a new one (the browser's reconnection) reaches a live process. A process whose script runs
hang but whose server loop answers is not taken for hung (what the supervisor cannot see; docs/robustness.md).

Short health-check settings keep the test short; benchmarks/classroom.py --hung measures the defaults.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from deploy import classroom as deploy
from deploy import supervisor
from deploy.classroom import Classroom, DeployError, HealthChecks, classroom
from deploy.nginx import COOKIE
from deploy.processes import healthy, warm_up
from tests.conftest import wake
from tests.e2e.helpers import ARTIFACTS
from tests.e2e.test_e2e_classroom import free_ports, need_nginx, wait_until

pytestmark = pytest.mark.e2e

SERVED_SECONDS = 15  # every learner of a stopped process, and every new one, has a page within this long
REPLACED_SECONDS = 30  # the stopped process is killed and a new one answers within this long
# nginx passes over a silent process after 2 s; the supervisor, checking every second with 1 s to answer, kills it
# after 4 checks without an answer: 4 to 5 s after the stop, so nginx's own timeout is seen to act first
TEST_HEALTH = HealthChecks(interval=1, timeout=1, failures=4, request_timeout=2)


@contextlib.contextmanager
def a_classroom(name: str, store: Path, processes: int, health: HealthChecks) -> Iterator[Classroom]:
    """`processes` real app processes behind nginx on loopback (no warm-up: no learner runs the app here); its run
    folder stays in test-artifacts/NAME."""
    need_nginx()
    port, *app_ports = free_ports(1 + processes)
    run_dir = ARTIFACTS / name
    shutil.rmtree(run_dir, ignore_errors=True)
    try:
        with classroom(app_ports, port, "127.0.0.1", run_dir, model_store=store, warm=False, health=health) as room:
            try:
                yield room
            finally:
                wake(room.apps)
    except DeployError as exc:
        pytest.fail(str(exc), pytrace=False)


def get(room: Classroom, path: str, backend: str | None) -> tuple[int, str]:
    """GET path through nginx as a learner whose cookie names `backend` (None: a new learner): the status and the
    process the cookie nginx sends back names."""
    headers = {"Cookie": f"{COOKIE}={backend}"} if backend else {}
    request = urllib.request.Request(f"{room.url}{path}", headers=headers)
    with urllib.request.urlopen(request, timeout=SERVED_SECONDS) as response:
        response.read()
        ours = [c for c in response.headers.get_all("Set-Cookie") or [] if c.startswith(f"{COOKIE}=")]
        return response.status, ours[0].partition(";")[0].partition("=")[2] if ours else ""


def stream(room: Classroom, backend: str) -> ClientConnection:
    """A learner's websocket through nginx, its cookie naming `backend` (no pings of its own: only the other end
    closes it)."""
    url = f"ws://{room.url.removeprefix('http://')}/_stcore/stream"
    cookie = {"Cookie": f"{COOKIE}={backend}"}
    return connect(url, subprotocols=["streamlit"], additional_headers=cookie, ping_interval=None, proxy=None)


def pinned_to(ws: ClientConnection) -> str:
    """The process named by the cookie nginx sent with the websocket's handshake."""
    ours = [v for k, v in ws.response.headers.raw_items() if k.lower() == "set-cookie" and v.startswith(COOKIE)]
    return ours[0].partition(";")[0].partition("=")[2]


def closes(ws: ClientConnection, seconds: float) -> bool:
    """Whether the websocket is closed by the other end within `seconds` (what it sends meanwhile is read)."""
    deadline = time.monotonic() + seconds
    with contextlib.suppress(TimeoutError):
        while time.monotonic() < deadline:
            try:
                ws.recv(timeout=max(0.01, deadline - time.monotonic()))
            except ConnectionClosed:
                return True
    return False


def said(room: Classroom) -> str:
    """What the supervisor has told the teacher so far (classroom.log)."""
    return room.log.read_text(encoding="utf-8") if room.log.exists() else ""


def group_left(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group pgid."""
    left = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (entry / "stat").read_text().rpartition(")")[2].split()
            if entry.name.isdigit() and int(stat[2]) == pgid and stat[0] != "Z":
                left.append(int(entry.name))
    return left


def test_a_stopped_process_is_passed_over_within_15_s_and_replaced_within_30_s(tmp_path):
    with a_classroom("classroom-hung", tmp_path / "store", 2, TEST_HEALTH) as room, contextlib.ExitStack() as tabs:
        status, hung = get(room, "/", None)  # a learner, pinned to one process
        assert status == 200 and hung in room.backends
        (other,) = set(room.backends) - {hung}
        open_tab = tabs.enter_context(stream(room, hung))  # the websocket of a tab open on it
        assert pinned_to(open_tab) == hung
        stopped = room.app(hung)
        os.kill(stopped.pid, signal.SIGSTOP)  # the kernel still accepts connections for it: nothing answers
        stopped_at = time.monotonic()

        # its learner, and new learners, get the page (and what the page asks next) from the other process
        assert get(room, "/", hung) == (200, other)
        assert "hangs" not in said(room)  # nginx alone: the supervisor has not killed it yet
        for path in ("/_stcore/health", "/_stcore/host-config"):
            assert get(room, path, hung) == (200, other)
        for _ in range(3):
            assert get(room, "/", None) == (200, other)
        served = time.monotonic() - stopped_at
        assert served < SERVED_SECONDS
        entries = [json.loads(line) for line in room.access_log.read_text(encoding="utf-8").splitlines()]
        pinned = next(e for e in entries if e["uri"] == "/" and e["cookie"] == hung and e["status"] == 200)
        assert pinned["upstream"] == f"{hung}, {other}"  # nginx tried the stopped process, then went on

        # the supervisor kills it with its children and starts it again, and says so
        # the open tab's websocket stays open while the process is stopped, closes when it is killed, and the
        # browser's reconnection (with the old cookie) reaches a live process; the kill comes about 5 s after the stop
        # (4 health checks a second apart), which the requests above can outlast on a loaded machine: a websocket
        # that closes now must have closed with that kill
        if closes(open_tab, 0.5):
            wait_until(lambda: "hangs" in said(room), "the supervisor to say why the open tab's websocket closed", 5)
        wait_until(lambda: "hangs" in said(room), "the script to say it hangs", REPLACED_SECONDS)
        assert closes(open_tab, 5)
        with stream(room, hung) as reconnected:
            assert pinned_to(reconnected) in room.backends and not closes(reconnected, 0.5)
        wait_until(lambda: "is back" in said(room), "the new process", REPLACED_SECONDS)
        replaced = time.monotonic() - stopped_at
        assert replaced < REPLACED_SECONDS
        assert healthy(f"http://{hung}") and room.app(hung).pid != stopped.pid
        assert stopped.returncode == -signal.SIGKILL and group_left(stopped.pid) == []
        lines = [line.split(" ", 1)[1] for line in said(room).splitlines()]  # after the time
        assert lines[0].startswith(f"the app process at {hung} (process {stopped.pid}) hangs: no answer to 4 health ")
        assert lines[1].startswith(f"restarting the app process at {hung} in 1 s")
        assert lines[2] == f"the app process at {hung} is back (process {room.app(hung).pid})"
    print(f"served elsewhere {served:.1f} s after the stop, replaced after {replaced:.1f} s")


STUCK_SCRIPT = """\
import threading

import streamlit as st

st.write("this run never ends")
lock = threading.Lock()
lock.acquire()
lock.acquire()  # waits for itself, as two threads that take two locks in opposite orders wait for each other
"""


def test_a_process_whose_runs_hang_but_whose_server_answers_is_not_taken_for_hung(tmp_path, monkeypatch):
    """What the supervisor cannot see: a run stuck in a lock holds only its own script thread; Streamlit's server
    loop still answers /_stcore/health, pages and other sessions, so the process is left running."""
    (tmp_path / "stuck.py").write_text(STUCK_SCRIPT, encoding="utf-8")

    def start_stuck(port: int, log: Path, env: dict[str, str]) -> subprocess.Popen:
        command = [sys.executable, "-m", "streamlit", "run", str(tmp_path / "stuck.py"), "--server.port", str(port)]
        command += ["--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none"]
        command += ["--browser.gatherUsageStats", "false"]
        with open(log, "ab") as out:
            return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    monkeypatch.setattr(deploy, "start_app", start_stuck)
    monkeypatch.setattr(supervisor, "start_app", start_stuck)
    health = HealthChecks(interval=0.2, timeout=0.5, failures=2, request_timeout=2)
    with a_classroom("classroom-stuck", tmp_path / "store", 1, health) as room:
        (backend,) = room.backends
        process = room.app(backend)
        stop = threading.Event()
        threading.Timer(3, stop.set).start()  # 15 health checks
        assert warm_up(backend, stop) is None  # a learner's first run: it never finishes
        assert get(room, "/", None) == (200, backend)
        assert healthy(f"http://{backend}")
        assert room.app(backend) is process and process.poll() is None
        assert "hangs" not in said(room)
