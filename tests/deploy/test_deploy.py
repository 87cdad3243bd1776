"""deploy/classroom.py without serving a class: its nginx config passes `nginx -t`, a teacher's mistakes are one
`error: …` line with status 2 before anything starts, and doubtful settings one `warning: …` line (the browser
tests in tests/e2e/test_e2e_classroom.py run it for real, with processes that die)."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from deploy import classroom as deploy
from deploy import processes, supervisor
from deploy.classroom import DeployError, nginx_config, upload_cap_mb
from jobs import queue, slots
from tests.conftest import wake
from tests.deploy.conftest import children, get, gone, wait_until
from transformer import store

REPO = Path(__file__).parents[2]
SCRIPT = REPO / "deploy" / "classroom.py"


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in (slots.ENV, store.STORE_ENV)} | (env or {})
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], cwd=REPO, capture_output=True, text=True, timeout=60, env=environ
    )


@pytest.fixture
def busy_port():
    """A port on 127.0.0.1 that something listens on: the script stops there, after checking its options."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield busy.getsockname()[1]


def _busy_error(port: int) -> str:
    return (
        f"error: cannot listen on 127.0.0.1:{port} (Address already in use); "
        "choose another --port, or an --address of this machine.\n"
    )


def _free_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return free.getsockname()[1]


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


# --- a teacher's mistakes in the options: one line, status 2, nothing started ----------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "70000"], "--port must be a port number from 1 to 65535; got 70000."),
        (["--port", "-1"], "--port must be a port number from 1 to 65535; got -1."),
        (["--port", "0"], "--port must be a port number from 1 to 65535; got 0."),
        (["--first-app-port", "70000"], "--first-app-port must be a port number from 1 to 65535; got 70000."),
        (
            ["--first-app-port", "65535", "--processes", "2"],
            "2 app processes from --first-app-port 65535 need ports up to 65536, past 65535; "
            "choose a --first-app-port of at most 65534.",
        ),
        (["--processes", "0"], "--processes must be at least 1; got 0."),
        (["--processes", "-3"], "--processes must be at least 1; got -3."),
        (
            ["--port", "8602", "--first-app-port", "8601", "--processes", "3"],
            "--port 8602 is one of the app processes' ports (8601 to 8603); choose another --port or --first-app-port.",
        ),
        (["--port", "abc"], "argument --port: invalid int value: 'abc' (see --help)"),
        (["--processes", "3.5"], "argument -n/--processes: invalid int value: '3.5' (see --help)"),
        (["--health-interval", "0"], "--health-interval must be more than 0 seconds; got 0."),
        (["--health-timeout", "-1"], "--health-timeout must be more than 0 seconds; got -1."),
        (["--health-timeout", "nan"], "--health-timeout must be more than 0 seconds; got nan."),
        (["--health-failures", "0"], "--health-failures must be at least 1; got 0."),
        (["--request-timeout", "0"], "--request-timeout must be from 0.001 to 86400 seconds; got 0."),
        (["--request-timeout", "inf"], "--request-timeout must be from 0.001 to 86400 seconds; got inf."),
    ],
)
def test_bad_options_are_one_line_and_status_2_before_anything_starts(args, message):
    run = _run(*args)
    assert (run.returncode, run.stderr, run.stdout) == (2, f"error: {message}\n", "")


def test_the_model_store_must_be_a_folder_it_can_write(nginx, tmp_path):
    not_a_folder = tmp_path / "a file"
    not_a_folder.write_text("", encoding="utf-8")
    store = not_a_folder / "models"
    run = _run("--port", str(_free_port()), "--address", "127.0.0.1", "-n", "1", "--model-store", str(store))
    assert run.returncode == 2
    assert (
        run.stderr == f"error: cannot use {store} as the model store (Not a directory); choose another --model-store.\n"
    )
    assert run.stdout == ""


def test_more_processes_than_the_machine_holds_are_capped_in_one_line(busy_port):
    run = _run("--processes", "10000", "--port", str(busy_port), "--address", "127.0.0.1")
    assert run.returncode == 2  # stopped at the busy port, after the options were checked
    warning, error = run.stderr.splitlines(keepends=True)
    found = re.fullmatch(
        r"warning: --processes 10000 is more than this machine can hold; starting (\d+) "
        r"\(2 per core on (\d+) core\(s\), about 400 MB each of (\d+) MB free\)\.\n",
        warning,
    )
    assert found, warning
    started, cores, memory = map(int, found.groups())
    assert cores == os.cpu_count()
    assert started == deploy.process_cap(cores, memory) <= 2 * cores
    assert error == _busy_error(busy_port)


@pytest.mark.parametrize(("cores", "memory_mb", "cap"), [(2, 24_000, 4), (8, 4_000, 10), (64, 2_000, 5), (1, 100, 1)])
def test_the_process_cap_is_two_per_core_and_400_mb_each(cores, memory_mb, cap):
    assert deploy.process_cap(cores, memory_mb) == cap


def test_remote_backends_are_reminded_to_share_one_model_store(busy_port):
    run = _run("--port", str(busy_port), "--address", "127.0.0.1", "--backends", "10.0.0.11:8501")
    warning, error = run.stderr.splitlines(keepends=True)
    assert warning == (
        "warning: every app process behind --backends must use the same model store folder (set "
        "PLAYGROUND_MODEL_STORE to one shared folder, e.g. an NFS mount, on each machine), or a published model "
        "opens only where it was made.\n"
    )
    assert error == _busy_error(busy_port)


def test_every_option_in_help_says_what_it_does_and_its_default():
    run = _run("--help")
    assert run.returncode == 0
    options = run.stdout.split("options:", 1)[1]
    entries = re.split(r"\n  (?=-)", options)[1:]  # one entry per option, its help text wrapped below it
    assert len(entries) == 12, entries
    for entry in entries:
        if not entry.startswith("-h"):
            assert "default" in entry, entry


# --- PLAYGROUND_TRAINING_SLOTS: checked by the classroom before it starts, and by each app server -------------------
CORES = os.cpu_count() or 1


@pytest.mark.parametrize("value", ["0", "-1", "abc", "3.5"])
def test_a_bad_training_slots_value_is_a_warning_before_the_classroom_starts(busy_port, value):
    run = _run("-n", "1", "--port", str(busy_port), "--address", "127.0.0.1", env={slots.ENV: value})
    warning, error = run.stderr.splitlines(keepends=True)
    assert warning == (
        f"warning: PLAYGROUND_TRAINING_SLOTS={value!r} is not a whole number of at least 1; each app process "
        f"trains at most {CORES} at once (its share of the cores).\n"
    )
    assert error == _busy_error(busy_port)


def test_too_many_training_slots_are_capped_before_the_classroom_starts(busy_port):
    run = _run("-n", "1", "--port", str(busy_port), "--address", "127.0.0.1", env={slots.ENV: "1000"})
    warning, error = run.stderr.splitlines(keepends=True)
    assert warning == (
        f"warning: PLAYGROUND_TRAINING_SLOTS=1000 is more than 2 trainings per core ({2 * CORES} on {CORES} "
        "core(s)); more at once only makes each one slower, while the others wait in line with their place shown; "
        f"each app process trains at most {2 * CORES} at once.\n"
    )
    assert error == _busy_error(busy_port)


@pytest.mark.parametrize(
    ("value", "expected", "warned"),
    [
        ("2", 2, False),
        ("", CORES, False),
        ("0", CORES, True),
        ("-1", CORES, True),
        ("abc", CORES, True),
        ("3.5", CORES, True),
        ("1000", 2 * CORES, True),
    ],
)
def test_each_server_warns_once_about_a_bad_or_too_large_training_slots_value(monkeypatch, value, expected, warned):
    monkeypatch.setenv(slots.ENV, value)
    monkeypatch.setattr(queue, "_slot_warnings", set())
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append  # pytest's log capture is off (pyproject.toml): this test keeps its own
    logger = logging.getLogger("jobs.queue")
    logger.addHandler(handler)
    try:
        assert queue.training_slots() == expected
        assert queue.training_slots() == expected
    finally:
        logger.removeHandler(handler)
    messages = [r.getMessage() for r in records]
    if warned:
        assert len(messages) == 1 and messages[0].startswith("PLAYGROUND_TRAINING_SLOTS=")
        assert messages[0].endswith(f"; training at most {expected} at once.")
    else:
        assert messages == []


def test_every_app_process_gets_the_same_store_and_its_share_of_the_cores(tmp_path):
    env = deploy.app_environment(3, tmp_path, {"PATH": "/usr/bin"})
    share = str(max(1, CORES // 3))
    assert env == {"PATH": "/usr/bin", "OMP_NUM_THREADS": share, slots.ENV: share, store.STORE_ENV: str(tmp_path)}
    # the teacher's own settings stay, a bad one is replaced, and the store is always the classroom's
    mine = {slots.ENV: "1", "OMP_NUM_THREADS": "1", store.STORE_ENV: "/elsewhere"}
    assert deploy.app_environment(3, tmp_path, mine) == {**mine, store.STORE_ENV: str(tmp_path)}
    assert deploy.app_environment(3, tmp_path, {slots.ENV: "abc"})[slots.ENV] == share


def test_the_default_model_store_is_the_apps_own(monkeypatch, tmp_path):
    monkeypatch.delenv(store.STORE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert deploy.default_model_store() == tmp_path / "transformer-playground" / "models" == store.default_folder()
    monkeypatch.setenv(store.STORE_ENV, str(tmp_path / "store"))
    assert deploy.default_model_store() == tmp_path / "store"


@pytest.mark.slow
def test_an_app_process_that_exits_at_start_is_one_line_naming_it_and_its_log(nginx, tmp_path):
    # a Streamlit setting in the teacher's environment that stops every app process at once
    broken = {"STREAMLIT_SERVER_SSL_CERT_FILE": "/nonexistent", "STREAMLIT_SERVER_SSL_KEY_FILE": "/nonexistent"}
    port, app_port = _free_port(), _free_port()
    run_dir = tmp_path / "run"
    run = _run(
        "-n", "1", "--port", str(port), "--address", "127.0.0.1", "--first-app-port", str(app_port),
        "--run-dir", str(run_dir), "--model-store", str(tmp_path / "store"), env=broken,
    )  # fmt: skip
    log = run_dir / f"app-{app_port}.log"
    assert run.returncode == 2
    assert run.stderr == (
        f"error: the app process at 127.0.0.1:{app_port} exited (status 1) before it answered: "
        f"FileNotFoundError: [Errno 2] No such file or directory; see {log}.\n"
    )
    assert "Traceback" in log.read_text(encoding="utf-8")  # the whole story is in its log


def test_an_app_process_that_does_not_answer_in_time_is_one_line_naming_its_log(nginx, tmp_path, monkeypatch):
    monkeypatch.setattr(processes, "START_TIMEOUT", 0.05)  # Streamlit alone takes longer than this to import and listen
    port, app_port = _free_port(), _free_port()
    run_dir = tmp_path / "run"
    with (
        pytest.raises(DeployError) as refused,
        deploy.classroom([app_port], port, "127.0.0.1", run_dir, model_store=tmp_path / "store"),
    ):
        pass
    log = run_dir / f"app-{app_port}.log"
    assert str(refused.value) == (
        f"the app process at 127.0.0.1:{app_port} did not answer at http://127.0.0.1:{app_port}/_stcore/health "
        f"within 0.05 s; see {log}."
    )
    children = [
        int(pid)
        for task in Path(f"/proc/{os.getpid()}/task").iterdir()
        for pid in (task / "children").read_text().split()
    ]
    assert not any(str(app_port) in Path(f"/proc/{pid}/cmdline").read_text() for pid in children)  # it was stopped


# --- a hung app process: nginx passes it over, the supervisor kills and restarts it (stand-in app processes) -------
@pytest.mark.slow
def test_nginx_sends_the_learners_of_a_stopped_process_to_the_other(fake_classroom):
    # the supervisor would check only after a minute: nginx alone passes over the stopped process
    with fake_classroom(supervisor.HealthChecks(interval=60, request_timeout=0.3)) as room:
        hung, other = room.backends
        assert get(room.url, hung) == (hung, hung)
        os.kill(room.app(hung).pid, signal.SIGSTOP)  # the kernel still accepts its connections
        started = time.monotonic()
        assert get(room.url, hung) == (other, other)  # its learner, re-pinned to the other process
        assert time.monotonic() - started < 0.3 + 1.0
        for _ in range(4):  # new learners, in turn: none is sent to the stopped process
            assert get(room.url) == (other, other)
        assert time.monotonic() - started < 2 * 0.3 + 1.5
        assert get(f"{room.url}/_stcore/health", other) == ("127.0.0.1:ok", other)


@pytest.mark.slow
def test_a_slow_upload_or_download_outlasts_the_request_timeout(fake_classroom):
    # nginx counts the timeout between two reads from the app process once the request is sent, not the transfer:
    # an 8 MB upload or download of a slow learner takes 3 times the timeout here, and both go through
    with fake_classroom(supervisor.HealthChecks(interval=60, request_timeout=0.2)) as room:
        with socket.create_connection(("127.0.0.1", int(room.url.rpartition(":")[2]))) as learner:
            learner.sendall(
                f"PUT /_stcore/upload_file/s/f HTTP/1.1\r\nHost: x\r\nContent-Length: {8 << 20}\r\n\r\n".encode()
            )
            for _ in range(4):
                learner.sendall(b"u" * (2 << 20))
                time.sleep(0.15)
            assert learner.recv(65536).split(b"\r\n")[0] == b"HTTP/1.1 200 OK"
        request = urllib.request.Request(f"{room.url}/media/big")
        with urllib.request.urlopen(request, timeout=10) as response:
            got = 0
            started = time.monotonic()
            while chunk := response.read(2 << 20):
                got += len(chunk)
                time.sleep(0.15)
            assert got == 8_000_000 and time.monotonic() - started > 3 * 0.2


@pytest.mark.slow
def test_a_process_that_stops_answering_is_killed_with_its_children_and_restarted(fake_classroom, capsys):
    health = supervisor.HealthChecks(interval=0.1, timeout=0.2, failures=2, request_timeout=0.5)
    with fake_classroom(health) as room:
        hung = room.backends[0]
        stopped = room.app(hung)
        (child,) = [int(pid) for pid in Path(f"/proc/{stopped.pid}/task/{stopped.pid}/children").read_text().split()]
        os.kill(stopped.pid, signal.SIGSTOP)
        wait_until(lambda: room.log.exists() and "is back" in room.log.read_text(encoding="utf-8"), 10)
        lines = room.log.read_text(encoding="utf-8").splitlines()
        new = room.app(hung)
        assert new.pid != stopped.pid and stopped.returncode == -signal.SIGKILL
        wait_until(
            lambda: not Path(f"/proc/{child}").exists() or "zombie" in Path(f"/proc/{child}/status").read_text(), 5
        )
        assert get(f"http://{hung}") == (hung, "")  # the new process answers
        os.kill(new.pid, signal.SIGSTOP)  # in its warm-up, which is still running: it is checked all the same
        wait_until(lambda: f"(process {new.pid}) hangs" in room.log.read_text(encoding="utf-8"), 10)
    said = [line.split(" ", 1)[1] for line in lines]
    assert re.fullmatch(
        rf"the app process at {re.escape(hung)} \(process {stopped.pid}\) hangs: no answer to 2 health checks in a "
        r"row, \d+ s since its last answer; killed it and its children; its learners go on in a fresh session on "
        r"the others",
        said[0],
    ), said[0]
    assert said[1:3] == [
        f"restarting the app process at {hung} in 0.1 s (its log: {room.run_dir / f'app-{hung[10:]}.log'})",
        f"the app process at {hung} is back (process {new.pid})",
    ]
    assert said[0] in capsys.readouterr().out  # on the teacher's terminal too


@pytest.mark.slow
def test_a_stopped_nginx_is_killed_with_its_worker_and_started_again(fake_classroom, capsys):
    # nginx's master and worker stopped: the kernel still accepts connections on the public port, nothing answers
    health = supervisor.HealthChecks(interval=0.2, timeout=0.3, failures=2, request_timeout=0.5)
    with fake_classroom(health) as room:
        stopped = room.nginx
        (worker,) = children(stopped.pid)
        for pid in (stopped.pid, worker):
            os.kill(pid, signal.SIGSTOP)
        started = time.monotonic()
        try:
            wait_until(lambda: room.log.exists() and "nginx is back" in room.log.read_text(encoding="utf-8"), 10)
            served = None
            while served is None:  # a new learner is served again
                with contextlib.suppress(OSError):
                    served = get(room.url)
                assert time.monotonic() - started < 10, "no new learner served within 10 s"
        finally:
            wake([stopped])
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker, signal.SIGCONT)
        assert served[0] in room.backends
        assert room.nginx.pid != stopped.pid and stopped.returncode == -signal.SIGKILL
        wait_until(lambda: gone(worker), 5)  # the stopped worker went with its master
        assert get(f"{room.url}/_classroom/health") == ("127.0.0.1:ok", "")  # what it is asked: nginx's own answer
        said = [line.split(" ", 1)[1] for line in room.log.read_text(encoding="utf-8").splitlines()]
    assert re.fullmatch(
        rf"nginx \(process {stopped.pid}\) hangs: no answer to 2 health checks in a row, \d+ s since its last "
        r"answer; killed it and its worker; learners' pages reconnect when it is back",
        said[0],
    ), said[0]
    assert said[1].startswith("restarting nginx in 0.1 s (its log: ")
    assert said[2] == f"nginx is back (process {room.nginx.pid})"
    assert said[0] in capsys.readouterr().out  # on the teacher's terminal too
