"""What watches the supervisor (issue 43 §6): the supervisor says READY=1 and then WATCHDOG=1 after each round of
checks over NOTIFY_SOCKET (a fake one here, as systemd's: a unix datagram socket, by path or abstract name), and
nothing while a round is stalled; deploy/classroom.service runs the classroom under systemd with Restart=on-failure
and a WatchdogSec= that a healthy supervisor never misses."""

from __future__ import annotations

import configparser
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from deploy import supervisor
from deploy.processes import POLL_SECONDS
from deploy.watchdog import notify, watchdog_seconds

REPO = Path(__file__).parents[2]
UNIT = REPO / "deploy" / "classroom.service"


class FakeManager:
    """systemd's end of NOTIFY_SOCKET: a unix datagram socket that keeps what it receives, with the time."""

    def __init__(self, address: str) -> None:
        self.address = address  # as NOTIFY_SOCKET writes it: a path, or @name for an abstract socket
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind("\0" + address[1:] if address.startswith("@") else address)
        self.socket.settimeout(0.05)

    def received(self, seconds: float) -> list[tuple[float, str]]:
        """What arrived within the next `seconds`, each with time.monotonic() of its arrival."""
        got, end = [], time.monotonic() + seconds
        while time.monotonic() < end:
            with contextlib.suppress(TimeoutError):
                got.append((time.monotonic(), self.socket.recv(4096).decode()))
        return got

    def close(self) -> None:
        self.socket.close()


@pytest.fixture
def manager(monkeypatch):
    fake = FakeManager(f"@classroom-test-{os.getpid()}-{time.monotonic_ns()}")
    monkeypatch.setenv("NOTIFY_SOCKET", fake.address)
    yield fake
    fake.close()


def test_notify_sends_one_datagram_to_a_path_or_an_abstract_name(tmp_path):
    for address in (str(tmp_path / "notify"), f"@classroom-test-{os.getpid()}"):
        fake = FakeManager(address)
        try:
            assert notify("WATCHDOG=1", {"NOTIFY_SOCKET": address})
            assert [text for _, text in fake.received(0.1)] == ["WATCHDOG=1"]
        finally:
            fake.close()
    assert not notify("READY=1", {})  # not under systemd: nothing to send to
    assert not notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "gone")})  # a socket gone is not an error
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000"}) == 30
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None  # another process's
    assert watchdog_seconds({}) is None


@pytest.mark.slow
def test_healthy_rounds_send_watchdog_and_a_stalled_round_sends_nothing(fake_classroom, manager, monkeypatch):
    health = supervisor.HealthChecks(interval=0.2, timeout=0.3, failures=3, request_timeout=0.5)
    stalled, release = threading.Event(), threading.Event()
    real_healthy = supervisor.healthy

    def healthy(url, timeout=2.0, path="/_stcore/health"):
        if stalled.is_set() and path == "/_stcore/health":  # one check that never returns: a stuck thread
            release.wait()
        return real_healthy(url, timeout, path)

    monkeypatch.setattr(supervisor, "healthy", healthy)
    with fake_classroom(health):
        running = manager.received(2)
        assert running[0][1] == "READY=1"
        beats = [at for at, text in running[1:]]
        assert {text for _, text in running[1:]} == {"WATCHDOG=1"}
        assert len(beats) >= 5 and max(b - a for a, b in zip(beats, beats[1:])) < 2 * health.interval
        stalled.set()
        late = POLL_SECONDS + health.timeout + supervisor.BEAT_SLACK + health.interval  # the last beat it may send
        stuck = manager.received(late + 2)
        stopped_at = time.monotonic() - (late + 2)
        assert all(at - stopped_at < late for at, _ in stuck), "WATCHDOG=1 sent while a round was stalled"
        assert [at for at, _ in stuck if at - stopped_at > late] == []
        release.set()
        stalled.clear()
        assert "WATCHDOG=1" in [text for _, text in manager.received(2)]  # its rounds are in time again
    assert "STOPPING=1" in [text for _, text in manager.received(0.5)]


def _unit() -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # systemd's keys are case-sensitive
    unit.read_string(UNIT.read_text(encoding="utf-8"))
    return unit


def test_the_systemd_unit_restarts_the_classroom_on_failure_and_watches_its_supervisor():
    service = _unit()["Service"]
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert service["Restart"] == "on-failure"
    assert service["ExecStart"].split()[1:3] == ["deploy/classroom.py", "--processes"]
    watchdog = int(service["WatchdogSec"])
    default = supervisor.HealthChecks()
    # a healthy supervisor sends WATCHDOG=1 every health interval (its threads' waits, a restart's pause of up to
    # 30 s too, are rounds in time): systemd misses none of three in a row, and a stopped one is restarted within a
    # minute
    assert 3 * default.interval <= watchdog <= 60


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_systemd_unit_passes_systemd_analyze_verify(tmp_path):
    text = UNIT.read_text(encoding="utf-8")
    service = _unit()["Service"]
    text = text.replace(service["ExecStart"].split()[0], sys.executable)  # this machine's paths
    text = text.replace(f"WorkingDirectory={service['WorkingDirectory']}", f"WorkingDirectory={REPO}")
    text = text.replace(f"User={service['User']}\n", "")
    (tmp_path / "classroom.service").write_text(text, encoding="utf-8")
    verified = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "classroom.service")], capture_output=True, text=True, timeout=60
    )
    assert verified.returncode == 0 and verified.stderr == "", verified.stderr
