"""What the classroom's tests share: the nginx binary, a classroom of stand-in app processes (tests/deploy/fake_app.py)
behind the real nginx and supervisor, and a learner's request through it."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from deploy import classroom as deploy
from deploy import supervisor
from deploy.classroom import DeployError, find_nginx
from deploy.nginx import COOKIE
from tests.conftest import wake


@pytest.fixture
def nginx() -> str:
    """The nginx binary; the test is skipped (failed under CI) without it."""
    try:
        return find_nginx()
    except DeployError as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))


FAKE_APP = Path(__file__).with_name("fake_app.py")


def start_fake_app(port: int, log: Path, env: dict[str, str]) -> subprocess.Popen:
    """A stand-in app process on 127.0.0.1:port, started as deploy.processes.start_app starts the app."""
    with open(log, "ab") as out:
        command = [sys.executable, str(FAKE_APP), str(port)]
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


@pytest.fixture
def fake_classroom(nginx, tmp_path, monkeypatch):
    """fake_classroom(health) → a classroom of two stand-in app processes behind the real nginx and supervisor."""
    monkeypatch.setattr(deploy, "start_app", start_fake_app)
    monkeypatch.setattr(supervisor, "start_app", start_fake_app)
    monkeypatch.setattr(supervisor, "warm_up", lambda backend, stop: stop.wait(60) and None)  # a long warm-up
    monkeypatch.setattr(supervisor, "RESTART_DELAYS", (0.1,))

    @contextlib.contextmanager
    def make(health: supervisor.HealthChecks):
        port, *apps = free_ports(3)
        with deploy.classroom(apps, port, "127.0.0.1", tmp_path / "run", (), tmp_path / "s", False, health) as room:
            try:
                yield room
            finally:
                wake(room.apps)

    return make


def free_ports(n: int) -> list[int]:
    """n ports of 127.0.0.1 that nothing listens on now."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def get(url: str, backend: str | None = None) -> tuple[str, str]:
    """GET url through nginx as a learner whose cookie names `backend` (None: a new learner); the process that
    answered (the stand-in's body) and the process the new cookie names."""
    headers = {"Cookie": f"{COOKIE}={backend}"} if backend else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=4) as response:
        cookie = response.headers.get("Set-Cookie", "").partition(";")[0].partition("=")[2]
        return f"127.0.0.1:{response.read().decode()}", cookie


def wait_until(condition, seconds: float) -> None:
    """Poll condition() until it holds; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within time"
        time.sleep(0.02)


def children(pid: int) -> list[int]:
    """The process ids of pid's children."""
    return [int(c) for task in Path(f"/proc/{pid}/task").iterdir() for c in (task / "children").read_text().split()]


def gone(pid: int) -> bool:
    """Whether the process has ended (gone, or a zombie waiting for its parent)."""
    try:
        return "zombie" in Path(f"/proc/{pid}/status").read_text() or "(Z)" in Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
