"""One process of the classroom: start an app process, wait until it answers, warm it up, say why it ended, stop it;
and the teacher's terminal, where each of these is one line."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]  # the app processes run here
START_TIMEOUT = 120  # seconds: an app process's first start imports torch, plotly and pandas
WARM_UP_TIMEOUT = 120  # seconds for the warm-up run of the app's first page
POLL_SECONDS = 0.5  # how often the supervisor looks at each process


class DeployError(RuntimeError):
    """Something the teacher can fix: nginx missing, a port in use, an app process that does not start."""


APP_HEALTH = "/_stcore/health"  # an app process's answer to "are you there": ok
CHECK_SECONDS = 2.0  # how long a check waits for its answer, unless told


def healthy(url: str, timeout: float = CHECK_SECONDS, path: str = APP_HEALTH) -> bool:
    """Whether url + path (an app process's /_stcore/health by default) answers ok within `timeout` seconds (a stopped
    process accepts the connection, as the kernel does that, but never answers)."""
    try:
        with urllib.request.urlopen(f"{url}{path}", timeout=timeout) as response:
            return response.status == 200 and response.read().decode().strip() == "ok"
    except OSError:
        return False


def wait_healthy(url: str, what: str, process: subprocess.Popen | None, log: Path | None) -> None:
    """Wait until url answers; DeployError when the process (with its log) exits first, or after START_TIMEOUT s."""
    deadline = time.monotonic() + START_TIMEOUT
    while not healthy(url):
        if process is not None and log is not None and process.poll() is not None:
            raise DeployError(f"{died_message(what, process.returncode, log)}; see {log}.")
        if time.monotonic() > deadline:
            hint = f"see {log}" if log else "is the app running there?"
            raise DeployError(f"{what} did not answer at {url}/_stcore/health within {START_TIMEOUT} s; {hint}.")
        time.sleep(0.2)


def warm_up(backend: str, stop: threading.Event | None = None) -> float | None:
    """Open one session on the app process at backend and run the app's first page once, as a learner's browser
    does; return the seconds it took (None when `stop` was set meanwhile). The process's first run pays for the
    imports, so no learner does."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.sync.client import connect

    start = time.monotonic()
    rerun = BackMsg()
    rerun.rerun_script.query_string = ""
    url = f"ws://{backend}/_stcore/stream"
    with connect(url, subprotocols=["streamlit"], open_timeout=30, max_size=None, compression=None) as stream:
        stream.send(rerun.SerializeToString())
        while time.monotonic() - start < WARM_UP_TIMEOUT:
            if stop is not None and stop.is_set():
                return None
            try:
                data = stream.recv(timeout=POLL_SECONDS)
            except TimeoutError:
                continue
            message = ForwardMsg()
            message.ParseFromString(data)
            if message.WhichOneof("type") == "script_finished":
                return time.monotonic() - start
    raise TimeoutError(f"no finished run within {WARM_UP_TIMEOUT} s")


def _visible(line: str) -> str:
    """A line of a log shown as text: control characters (terminal escape codes) written as \\xNN."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in line)


START_MARK = "--- deploy/classroom.py starts this process at "  # the line before each start's output in its log


def mark_start(log: Path) -> None:
    """Append the START_MARK line to log, before the output of the process about to start."""
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"{START_MARK}{time.strftime('%Y-%m-%d %H:%M:%S')} ---\n")


def _cause(log: Path) -> str:
    """Why the process of the last start in log ended, in one line: the first error its output names (the first
    of a chain of exceptions is the cause), else its last line; shortened."""
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    lines = [line.strip() for line in text.rpartition(START_MARK)[2].splitlines()[1:] if line.strip()]
    errors = [line for line in lines if re.match(r"[A-Za-z_][\w.]*(Error|Exception|Exit)\b|\[emerg\]", line)]
    cause = (errors or lines or [""])[0 if errors else -1]
    cause = cause if "[emerg]" not in cause else cause.partition("[emerg] ")[2]
    cause = re.sub(r"^\d{4}-\d\d-\d\d [\d:.]+ ", "", cause)  # the time of a Streamlit log line
    return _visible(cause if len(cause) <= 200 else cause[:199] + "…")


def how_it_ended(returncode: int) -> str:
    """'status 1', or 'killed by SIGKILL' for a signal."""
    if returncode < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-returncode).name}"
    return f"status {returncode}"


def died_message(what: str, returncode: int, log: Path) -> str:
    """The line for a process that exited before it answered: how it ended, and the cause its log names."""
    cause = _cause(log)
    return f"{what} exited ({how_it_ended(returncode)}) before it answered" + (f": {cause}" if cause else "")


def start_app(port: int, log: Path, env: dict[str, str]) -> subprocess.Popen:
    """One headless `streamlit run app.py` on 127.0.0.1:port (only nginx talks to it), in a session of its own:
    the terminal's Ctrl-C reaches only this script, which stops everything in order."""
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "true",
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    mark_start(log)
    with open(log, "ab") as out:
        return subprocess.Popen(
            command, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )


def end_group(process: subprocess.Popen) -> None:
    """Kill what is left of an ended process's group: a dead app's training processes, a dead nginx's worker."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def stop_processes(processes: Sequence[subprocess.Popen]) -> None:
    """Ask each process to stop, in order; wait for all, killing any that is still there after 15 s."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
        end_group(process)


def say(message: str, log: Path | None = None) -> None:
    """One line on the teacher's terminal, with the time; also appended to the run's classroom.log."""
    line = f"{time.strftime('%H:%M:%S')} {message}"
    print(line, flush=True)
    if log is not None:
        with contextlib.suppress(OSError), open(log, "a", encoding="utf-8") as out:
            out.write(line + "\n")
