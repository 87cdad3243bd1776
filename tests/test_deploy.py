"""deploy/classroom.py without starting the app: its nginx config passes `nginx -t`, and a teacher's mistakes
are one `error: …` line with status 2 (the browser test in tests/e2e/test_e2e_classroom.py runs it for real)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from deploy import classroom as deploy
from deploy.classroom import DeployError, find_nginx, nginx_config, upload_cap_mb

REPO = Path(__file__).parents[1]
SCRIPT = REPO / "deploy" / "classroom.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=REPO, capture_output=True, text=True, timeout=60)


@pytest.fixture
def nginx() -> str:
    """The nginx binary; the test is skipped (failed under CI) without it."""
    try:
        return find_nginx()
    except DeployError as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))


@pytest.mark.parametrize("backends", [["127.0.0.1:8601"], ["127.0.0.1:8601", "127.0.0.1:8602", "10.0.0.11:8501"]])
def test_the_generated_config_passes_nginx_t(nginx, tmp_path, backends):
    (tmp_path / "tmp").mkdir()
    config = tmp_path / "nginx.conf"
    config.write_text(nginx_config(backends, "127.0.0.1", 8501, tmp_path, upload_cap_mb()), encoding="utf-8")
    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(config), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_a_busy_port_is_one_error_line_and_status_2():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = _run("--port", str(port), "--address", "127.0.0.1")
    assert run.returncode == 2
    assert run.stderr == (
        f"error: cannot listen on 127.0.0.1:{port} (Address already in use); "
        "choose another --port, or an --address of this machine.\n"
    )
    assert run.stdout == ""


def test_a_busy_app_port_names_the_option_to_change():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            public = free.getsockname()[1]
        run = _run("--port", str(public), "--address", "127.0.0.1", "-n", "1", "--first-app-port", str(port))
    assert run.returncode == 2
    assert run.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port} (Address already in use); ")
    assert run.stderr.endswith("choose other app ports with --first-app-port.\n")


@pytest.mark.parametrize("backend", ["app1:8501", "10.0.0.11", "10.0.0.11:0", "10.0.0.11:http"])
def test_a_backend_that_is_not_ipv4_and_port_is_refused(backend):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        public = free.getsockname()[1]
    run = _run("--port", str(public), "--address", "127.0.0.1", "--backends", backend)
    assert run.returncode == 2
    assert run.stderr == f"error: a backend must be IPv4:PORT, like 10.0.0.11:8501; got {backend!r}.\n"


def test_missing_nginx_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda *args, **kwargs: None)  # a machine without nginx
    with pytest.raises(DeployError, match=r"^nginx is not installed; .*apt-get install -y nginx$"):
        deploy.find_nginx()
