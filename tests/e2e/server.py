"""Start and stop the app's server (`streamlit run serve.py`) for the browser tests and the app benchmark."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from deploy.processes import healthy  # the health check the classroom's supervisor makes

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_TIMEOUT = 90  # seconds: the first start imports torch, plotly and pandas


class ServerError(RuntimeError):
    """The server exited or did not answer in time."""


@dataclass(frozen=True)
class Server:
    url: str
    process: subprocess.Popen
    log: Path

    def peak_memory_mb(self) -> float:
        """The server process's peak resident memory so far (VmHWM), in MB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
        return kb / 1024


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(
    log: Path = REPO / "test-artifacts" / "streamlit-server.log",
    env: dict[str, str] | None = None,
    repo: Path = REPO,
) -> Iterator[Server]:
    """A headless `streamlit run serve.py` of `repo` (app.py in a checkout without serve.py) on a free port (with env
    added to the environment), healthy when entered, stopped when left."""
    log.parent.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    script = "serve.py" if (repo / "serve.py").exists() else "app.py"
    command = [
        sys.executable, "-m", "streamlit", "run", script,
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        # tests write screenshots and logs under the repo; a watcher would offer "File change. Rerun"
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(
            command, cwd=repo, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
        )
        server = Server(f"http://127.0.0.1:{port}", process, log)
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while not healthy(server.url):
                if process.poll() is not None:
                    raise ServerError(
                        f"the Streamlit server exited with {process.returncode}:\n{log.read_text()[-3000:]}"
                    )
                if time.monotonic() > deadline:
                    raise ServerError(f"the Streamlit server did not answer within {START_TIMEOUT} s")
                time.sleep(0.05)
            yield server
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
