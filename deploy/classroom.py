"""Serve a classroom: N processes of the app behind Debian's nginx on one port, each learner kept on one process.

A learner's first request goes to the app processes in turn (round-robin); nginx answers it with a cookie
naming the process that served it, and every later request of that browser (the session's websocket, file
uploads, downloads, media) goes to that process. The client's IP address plays no part, so a whole class
behind one NAT still spreads over the processes.

    .venv/bin/python deploy/classroom.py                        # 3 processes, learners open http://HOST:8501
    .venv/bin/python deploy/classroom.py --processes 4 --port 8080 --address 192.168.1.20
    .venv/bin/python deploy/classroom.py --backends 10.0.0.11:8501 10.0.0.12:8501   # app processes elsewhere

When an app process dies (an out-of-memory kill, a crash), the others and nginx go on serving. Its learners reach
a live process on their next request (nginx re-pins their cookie) and see the app again in a fresh session; the
script starts the process again after a pause that grows while it keeps dying, and says so on its terminal. Each
process, when it has started, gets one warm-up request, so that its first learner does not wait for its first run.

nginx runs with a generated config in its own run directory (never /etc/nginx). Ctrl-C or SIGTERM stops
nginx and every app process the script started.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script: ui.slots lives in the repository
    sys.path.insert(0, str(REPO))

from ui import slots as training_slots  # noqa: E402  (standard library only)

COOKIE = "classroom_backend"  # names the app process ("IP:PORT") that holds the learner's session
START_TIMEOUT = 120  # seconds: an app process's first start imports torch, plotly and pandas
PROCESS_MB = 400  # an app process's memory once its learners use it (docs/performance.md)
# at most this many app processes per core: each trains at least one model at once (PLAYGROUND_TRAINING_SLOTS),
# and two trainings per core is what kept page switches under 1 s (ui.slots)
PROCESSES_PER_CORE = training_slots.PER_CORE
STORE_ENV = "PLAYGROUND_MODEL_STORE"  # transformer.store.STORE_ENV, without importing torch for it (a test compares)
FAIL_SECONDS = 10  # after a failed request nginx sends nobody to that process for this long, then tries it again
CONNECT_SECONDS = 3  # nginx gives up on connecting to an app process after this long and tries the next one
RESTART_DELAYS = (1, 2, 4, 8, 16, 30)  # seconds before restarting a dead process, one more each time in a row
STEADY_SECONDS = 60  # a process that ran this long before it died starts again from the first delay
QUICK_DEATHS = 3  # a process that dies this many times in a row before it answers is not started again
WARM_UP_TIMEOUT = 120  # seconds for the warm-up run of the app's first page
POLL_SECONDS = 0.5  # how often the supervisor looks at each process
REMOTE_POLL_SECONDS = 2.0  # and asks a remote backend whether it answers


class DeployError(RuntimeError):
    """Something the teacher can fix: nginx missing, a port in use, an app process that does not start."""


def upload_cap_mb() -> int:
    """The app's upload cap in MB: server.maxUploadSize of .streamlit/config.toml (Streamlit's default 200)."""
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    return int(config.get("server", {}).get("maxUploadSize", 200))


def _regex(backend: str) -> str:
    return backend.replace(".", r"\.")


def nginx_config(backends: Sequence[str], address: str, port: int, run_dir: Path, upload_mb: int) -> str:
    """The nginx.conf text: round-robin for a learner's first request, the cookie's process for all the rest, and
    the next live process (and a new cookie) when the cookie's process does not answer."""
    health = f"max_fails=1 fail_timeout={FAIL_SECONDS}s"
    servers = "".join(f"\n        server {b} {health};" for b in backends)
    pinned = "".join(
        f"\n    upstream pinned_{i} {{\n        server {b} {health};"
        + "".join(f"\n        server {other} {health} backup;" for other in backends if other != b)
        + "\n    }"
        for i, b in enumerate(backends)
    )
    by_cookie = "".join(f'\n        "{b}" pinned_{i};' for i, b in enumerate(backends))
    # $upstream_addr lists every process tried, "127.0.0.1:8601, 127.0.0.1:8602": the last one answered
    set_cookie = "".join(
        f'\n        "~(^| ){_regex(b)}$" "{COOKIE}={b}; Path=/; HttpOnly; SameSite=Lax";' for b in backends
    )
    return f"""\
# generated by deploy/classroom.py for this run; edit the script, not this file
daemon off;
# one worker holds one round-robin turn: learners who arrive one after another take the processes in order
worker_processes 1;
worker_rlimit_nofile 8192;
pid "{run_dir}/nginx.pid";
error_log "{run_dir}/nginx-error.log";
events {{
    worker_connections 4096;  # two per open learner tab (browser side, app side) and a few more
}}
http {{
    client_body_temp_path "{run_dir}/tmp/body";
    proxy_temp_path "{run_dir}/tmp/proxy";
    fastcgi_temp_path "{run_dir}/tmp/fastcgi";
    uwsgi_temp_path "{run_dir}/tmp/uwsgi";
    scgi_temp_path "{run_dir}/tmp/scgi";
    log_format classroom escape=json
        '{{"time":"$time_iso8601","status":$status,"method":"$request_method","uri":"$uri",'
        '"upstream":"$upstream_addr","cookie":"$cookie_{COOKIE}"}}';
    access_log "{run_dir}/access.log" classroom;

    # passive health checks: a process that refuses a connection is skipped for {FAIL_SECONDS} s by everyone
    upstream app_processes {{{servers}
    }}
    # the learners of one process: that process, or the others in turn while it does not answer{pinned}
    # a cookie naming a known process picks its group; no cookie or an unknown one means round-robin
    map $cookie_{COOKIE} $app_process {{
        default app_processes;{by_cookie}
    }}
    # the cookie to send back names the process that answered (nothing when no single known process did)
    map $upstream_addr $sticky_cookie {{
        default "";{set_cookie}
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        "" close;
    }}

    server {{
        listen {address}:{port};
        client_max_body_size {upload_mb + 1}m;  # the app's upload cap plus room for the form around the file

        location / {{
            proxy_pass http://$app_process;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;  # Streamlit accepts a websocket whose Origin matches its Host
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            # a process that is down refuses the connection: every request, the websocket's handshake too, goes
            # on to the next process, which answers with a new cookie; a learner never waits on a dead one
            proxy_next_upstream error timeout;
            proxy_next_upstream_tries {len(backends)};
            proxy_connect_timeout {CONNECT_SECONDS}s;
            proxy_read_timeout 1d;  # a learner's websocket stays open for the whole lesson
            proxy_send_timeout 1d;
            proxy_buffering off;  # uploads and downloads stream straight through, no temporary files
            proxy_request_buffering off;
            add_header Set-Cookie $sticky_cookie always;
        }}
    }}
}}
"""


def find_nginx() -> str:
    """The nginx binary (Debian puts it in /usr/sbin, often outside a teacher's PATH)."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if found is None:
        raise DeployError("nginx is not installed; install Debian's nginx with: sudo apt-get install -y nginx")
    return found


def check_port_number(port: int, option: str) -> None:
    """Raise DeployError unless port is a TCP port number (1 to 65535)."""
    if not 1 <= port <= 65535:
        raise DeployError(f"{option} must be a port number from 1 to 65535; got {port}.")


def check_port_free(address: str, port: int, hint: str) -> None:
    """Raise DeployError when address:port cannot be listened on (in use, or not an address of this machine)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((address, port))
        except OSError as exc:
            raise DeployError(f"cannot listen on {address}:{port} ({exc.strerror}); {hint}.") from None


def available_memory_mb() -> int:
    """Memory the machine can give new processes now, in MB (MemAvailable; all of it where that is unknown)."""
    with contextlib.suppress(OSError, ValueError, StopIteration):
        lines = Path("/proc/meminfo").read_text().splitlines()
        return int(next(line.split()[1] for line in lines if line.startswith("MemAvailable:"))) // 1024
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20


def process_cap(cores: int, memory_mb: int) -> int:
    """How many app processes a machine can hold: two per core, and about PROCESS_MB each of its free memory."""
    return max(1, min(PROCESSES_PER_CORE * max(1, cores), memory_mb // PROCESS_MB))


def default_model_store() -> Path:
    """The app's own store folder: PLAYGROUND_MODEL_STORE, else transformer-playground/models in the user's cache
    folder (transformer.store.default_folder, imported only when a classroom starts: it brings torch)."""
    from transformer.store import default_folder

    return default_folder()


def prepare_model_store(folder: Path) -> Path:
    """The model store folder as an absolute path, made if missing; DeployError when it cannot be written."""
    folder = Path(os.path.abspath(folder.expanduser()))  # the app processes run in the repository, not here
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        problem = f"cannot use {folder} as the model store ({exc.strerror})"
        raise DeployError(f"{problem}; choose another --model-store.") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DeployError(f"cannot write to the model store {folder}; choose another --model-store.")
    return folder


def healthy(url: str) -> bool:
    """Whether url/_stcore/health answers ok."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200 and response.read().decode().strip() == "ok"
    except OSError:
        return False


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


def _mark_start(log: Path) -> None:
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


def _how_it_ended(returncode: int) -> str:
    """'status 1', or 'killed by SIGKILL' for a signal."""
    if returncode < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-returncode).name}"
    return f"status {returncode}"


def _died_message(what: str, returncode: int, log: Path) -> str:
    cause = _cause(log)
    return f"{what} exited ({_how_it_ended(returncode)}) before it answered" + (f": {cause}" if cause else "")


def _start_app(port: int, log: Path, env: dict[str, str]) -> subprocess.Popen:
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
    _mark_start(log)
    with open(log, "ab") as out:
        return subprocess.Popen(
            command, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )


def _start_nginx(binary: str, run_dir: Path) -> subprocess.Popen:
    """nginx with the run's config, in a session of its own (its workers go with it: see _end_group)."""
    error_log = run_dir / "nginx-error.log"
    _mark_start(error_log)
    with open(error_log, "ab") as out:
        return subprocess.Popen(
            [binary, "-p", str(run_dir), "-c", str(run_dir / "nginx.conf"), "-e", str(error_log)],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _end_group(process: subprocess.Popen) -> None:
    """Kill what is left of an ended process's group: a dead app's training processes, a dead nginx's worker."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _stop(processes: Sequence[subprocess.Popen]) -> None:
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
        _end_group(process)


def parse_backend(text: str) -> str:
    """'IP:PORT' checked (nginx names the process that answered by its address, so no host names)."""
    host, _, port = text.rpartition(":")
    try:
        ipaddress.IPv4Address(host)
        if not 0 < int(port) < 65536:
            raise ValueError
    except ValueError:
        raise DeployError(f"a backend must be IPv4:PORT, like 10.0.0.11:8501; got {text!r}.") from None
    return text


def say(message: str, log: Path | None = None) -> None:
    """One line on the teacher's terminal, with the time; also appended to the run's classroom.log."""
    line = f"{time.strftime('%H:%M:%S')} {message}"
    print(line, flush=True)
    if log is not None:
        with contextlib.suppress(OSError), open(log, "a", encoding="utf-8") as out:
            out.write(line + "\n")


@dataclass
class _Kept:
    """One process the supervisor keeps running: how to start it, where it answers and logs, how to find it."""

    what: str  # "nginx" or "the app process at IP:PORT", as the teacher reads it
    start: Callable[[], subprocess.Popen]
    get: Callable[[], subprocess.Popen]
    put: Callable[[subprocess.Popen], None]
    url: str  # answers /_stcore/health when up
    log: Path
    meanwhile: str  # what learners see while it is down
    warm: str | None = None  # the backend to warm up when it is back


class _Supervisor:
    """Keeps the classroom serving: restarts a dead app process (after growing pauses) or nginx, tells the teacher,
    and warms every app process that has started again. One thread per process; the first problem it cannot fix is
    kept in `error` and sets `failed`."""

    def __init__(self, room: Classroom, nginx_binary: str, app_env: dict[str, str]) -> None:
        self.room = room
        self.nginx_binary = nginx_binary
        self.app_env = app_env
        self.stopping = threading.Event()
        self.failed = threading.Event()
        self.error: DeployError | None = None
        self.threads: list[threading.Thread] = []

    def start(self) -> None:
        room = self.room
        jobs: list[tuple[str, Callable[[], None]]] = [("nginx", lambda: self._keep(self._nginx()))]
        for b in room.backends:
            jobs.append((b, (lambda b=b: self._keep(self._app(b))) if room.local else (lambda b=b: self._watch(b))))
        for name, job in jobs:
            thread = threading.Thread(target=self._guard, args=(job,), name=f"classroom {name}", daemon=True)
            thread.start()
            self.threads.append(thread)

    def stop(self) -> None:
        """No restart from now on: every thread ends (a start in progress is left to the caller to stop)."""
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def _nginx(self) -> _Kept:
        room = self.room
        return _Kept(
            "nginx",
            lambda: _start_nginx(self.nginx_binary, room.run_dir),
            lambda: room._nginx,
            lambda process: setattr(room, "_nginx", process),
            room.url,
            room.run_dir / "nginx-error.log",
            "learners' pages reconnect when it is back",
        )

    def _app(self, backend: str) -> _Kept:
        room, port = self.room, int(backend.rpartition(":")[2])
        log = room.run_dir / f"app-{port}.log"
        return _Kept(
            f"the app process at {backend}",
            lambda: _start_app(port, log, self.app_env),
            lambda: room._apps[backend],
            lambda process: room._apps.__setitem__(backend, process),
            f"http://{backend}",
            log,
            "its learners go on in a fresh session on the others",
            warm=backend,
        )

    def _guard(self, job: Callable[[], None]) -> None:
        try:
            job()
        except DeployError as exc:
            self.error = self.error or exc
            self.failed.set()

    def _say(self, message: str) -> None:
        say(message, self.room.log)

    def _exited(self, process: subprocess.Popen) -> bool:
        """Wait until the process exits (True) or the classroom stops (False)."""
        while not self.stopping.is_set():
            try:
                process.wait(timeout=POLL_SECONDS)
                return True
            except subprocess.TimeoutExpired:
                continue
        return False

    def _answers(self, kept: _Kept, process: subprocess.Popen) -> bool | None:
        """Wait until the new process answers (True), exits or stays silent START_TIMEOUT s (False), or the
        classroom stops (None)."""
        deadline = time.monotonic() + START_TIMEOUT
        while not healthy(kept.url):
            if process.poll() is not None or time.monotonic() > deadline:
                return False
            if self.stopping.wait(0.2):
                return None
        return True

    def _keep(self, kept: _Kept) -> None:
        """Restart the process whenever it exits, until the classroom stops."""
        in_a_row = 0  # restarts since the process last ran STEADY_SECONDS
        since = time.monotonic()
        while self._exited(process := kept.get()):
            _end_group(process)
            ran = time.monotonic() - since
            in_a_row = 0 if ran >= STEADY_SECONDS else in_a_row
            self._say(f"{kept.what} exited ({_how_it_ended(process.returncode)}) after {ran:.0f} s; {kept.meanwhile}")
            attempts = self._restart(kept, in_a_row)
            if attempts is None:
                return
            in_a_row += attempts
            since = time.monotonic()
            self._say(f"{kept.what} is back (process {kept.get().pid})")
            if kept.warm:
                self._warm(kept.warm)

    def _restart(self, kept: _Kept, in_a_row: int) -> int | None:
        """Start the process again, after a pause that grows with each restart in a row, until it answers; the
        number of starts it took, None when the classroom stops meanwhile, DeployError when it died QUICK_DEATHS
        times in a row before it answered."""
        for attempt in range(1, QUICK_DEATHS + 1):
            delay = RESTART_DELAYS[min(in_a_row + attempt - 1, len(RESTART_DELAYS) - 1)]
            self._say(f"restarting {kept.what} in {delay} s (its log: {kept.log})")
            if self.stopping.wait(delay):
                return None
            process = kept.start()
            kept.put(process)
            answered = self._answers(kept, process)
            if answered is None:
                return None
            if answered:
                return attempt
            if process.poll() is None:  # alive, but silent all this time
                process.kill()
                process.wait()
                problem = f"{kept.what} did not answer within {START_TIMEOUT} s"
            else:
                problem = _died_message(kept.what, process.returncode, kept.log)
            _end_group(process)
            if attempt == QUICK_DEATHS:
                raise DeployError(f"{problem}; that is {QUICK_DEATHS} times in a row, see {kept.log}.")
            self._say(problem)
        return None  # not reached

    def _warm(self, backend: str) -> None:
        try:
            seconds = warm_up(backend, self.stopping)
        except Exception as exc:  # noqa: BLE001 - a warm-up is a courtesy: the process serves without it
            self._say(f"the warm-up request to {backend} failed ({exc}); its first learner waits for its first run")
            return
        if seconds is not None:
            self._say(f"the app process at {backend} ran its first page in {seconds:.1f} s (warm-up)")

    def _watch(self, backend: str) -> None:
        """A backend this script did not start: say when it stops or starts answering, and warm it when it is back."""
        up = True
        while not self.stopping.wait(REMOTE_POLL_SECONDS):
            if healthy(f"http://{backend}") == up:
                continue
            up = not up
            if up:
                self._say(f"the app process at {backend} answers again")
                self._warm(backend)
            else:
                self._say(f"the app process at {backend} does not answer; nginx sends its learners to the others")


class Classroom:
    """A running classroom: where learners connect, the app processes behind it, and the run directory."""

    def __init__(self, url: str, backends: Sequence[str], run_dir: Path, model_store: Path | None) -> None:
        self.url = url
        self.backends = list(backends)  # "IP:PORT" of every app process, in nginx's round-robin order
        self.run_dir = run_dir  # nginx.conf, access.log, nginx-error.log, classroom.log, app-PORT.log of each
        self.model_store = model_store  # the folder every local app process publishes to and opens from
        self.local = model_store is not None  # the app processes were started here (not --backends)
        self._nginx: subprocess.Popen | None = None
        self._apps: dict[str, subprocess.Popen] = {}
        self._supervisor: _Supervisor | None = None

    @property
    def nginx(self) -> subprocess.Popen:
        """nginx's process now (a new one after a restart)."""
        assert self._nginx is not None
        return self._nginx

    @property
    def apps(self) -> list[subprocess.Popen]:
        """The app processes started here, now (none with remote backends), in the order of `backends`."""
        return [self._apps[b] for b in self.backends if b in self._apps]

    def app(self, backend: str) -> subprocess.Popen:
        """The process serving backend ("127.0.0.1:PORT") now."""
        return self._apps[backend]

    @property
    def access_log(self) -> Path:
        """nginx's log of every request: one JSON object a line (status, method, uri, upstream, cookie)."""
        return self.run_dir / "access.log"

    @property
    def log(self) -> Path:
        """What the supervisor told the teacher: processes that died, restarts, warm-ups."""
        return self.run_dir / "classroom.log"

    def wait(self) -> None:
        """Serve until interrupted; DeployError when a process cannot be kept running."""
        assert self._supervisor is not None
        while not self._supervisor.failed.wait(POLL_SECONDS):
            pass
        raise self._supervisor.error or DeployError("the classroom stopped")


def _wait_healthy(url: str, what: str, process: subprocess.Popen | None, log: Path | None) -> None:
    """Wait until url answers; DeployError when the process (with its log) exits first, or after START_TIMEOUT s."""
    deadline = time.monotonic() + START_TIMEOUT
    while not healthy(url):
        if process is not None and log is not None and process.poll() is not None:
            raise DeployError(f"{_died_message(what, process.returncode, log)}; see {log}.")
        if time.monotonic() > deadline:
            hint = f"see {log}" if log else "is the app running there?"
            raise DeployError(f"{what} did not answer at {url}/_stcore/health within {START_TIMEOUT} s; {hint}.")
        time.sleep(0.2)


def app_environment(processes: int, model_store: Path, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of every app process: the shared model store, and each process's share of the cores for its
    trainings (slots) and their torch threads, unless the environment says otherwise (a bad or too large
    PLAYGROUND_TRAINING_SLOTS is replaced, as check_training_slots says)."""
    environ = dict(os.environ if environ is None else environ)
    cores = os.cpu_count() or 1
    share = max(1, cores // max(1, processes))
    slots, _ = training_slots.read_slots(environ.get(training_slots.ENV), cores, default=share)
    return {"OMP_NUM_THREADS": str(share), **environ, training_slots.ENV: str(slots), STORE_ENV: str(model_store)}


def check_training_slots(processes: int, environ: dict[str, str] | None = None) -> str | None:
    """The warning for a bad or too large PLAYGROUND_TRAINING_SLOTS, saying what each app process does instead."""
    environ = os.environ if environ is None else environ
    cores = os.cpu_count() or 1
    share = max(1, cores // max(1, processes))
    slots, problem = training_slots.read_slots(environ.get(training_slots.ENV), cores, default=share)
    if problem is None:
        return None
    instead = " (its share of the cores)" if slots == share else ""  # else the cap, which the problem names
    return f"{problem}; each app process trains at most {slots} at once{instead}."


@contextmanager
def classroom(
    app_ports: Sequence[int] = (8601, 8602, 8603),
    port: int = 8501,
    address: str = "0.0.0.0",
    run_dir: Path | None = None,
    backends: Sequence[str] = (),
    model_store: Path | None = None,
    warm: bool = True,
) -> Iterator[Classroom]:
    """App processes on 127.0.0.1:app_ports (or the given remote backends) behind nginx on address:port, every
    local one with the model store `model_store` (default: default_model_store()); warm=False leaves out the
    warm-up requests at the start (benchmarks/classroom.py compares).

    Ready when entered (every process has answered /_stcore/health and run the app's first page once, and nginx
    answers); while inside, a supervisor restarts any process that dies (Classroom.wait() raises DeployError when
    one cannot be kept running); everything started is stopped when left.
    """
    check_port_free(address, port, "choose another --port, or an --address of this machine")
    local = not backends
    if backends:
        backends = [parse_backend(b) for b in backends]
        app_ports = ()
    else:
        for app_port in app_ports:
            check_port_free("127.0.0.1", app_port, "choose other app ports with --first-app-port")
        backends = [f"127.0.0.1:{p}" for p in app_ports]
    nginx_binary = find_nginx()
    store = prepare_model_store(model_store or default_model_store()) if local else None
    run_dir = Path(run_dir or tempfile.mkdtemp(prefix="classroom-")).resolve()
    (run_dir / "tmp").mkdir(parents=True, exist_ok=True)
    listen = "127.0.0.1" if address == "0.0.0.0" else address
    room = Classroom(f"http://{listen}:{port}", backends, run_dir, store)
    supervisor = None
    try:
        env = app_environment(len(app_ports), store) if store else {}
        for app_port, backend in zip(app_ports, backends):
            room._apps[backend] = _start_app(app_port, run_dir / f"app-{app_port}.log", env)
        for backend in backends:
            log = run_dir / f"app-{backend.rpartition(':')[2]}.log" if local else None
            _wait_healthy(f"http://{backend}", f"the app process at {backend}", room._apps.get(backend), log)
        if warm:
            _warm_all(backends, run_dir / "classroom.log")

        (run_dir / "nginx.conf").write_text(
            nginx_config(backends, address, port, run_dir, upload_cap_mb()), encoding="utf-8"
        )
        room._nginx = _start_nginx(nginx_binary, run_dir)
        _wait_healthy(room.url, "nginx", room._nginx, run_dir / "nginx-error.log")
        supervisor = room._supervisor = _Supervisor(room, nginx_binary, env)
        supervisor.start()
        yield room
    finally:
        if supervisor is not None:
            supervisor.stop()  # no restart from here on
        _stop(([room._nginx] if room._nginx else []) + room.apps)  # nginx first: no new request reaches a stopping app


def _warm_all(backends: Sequence[str], log: Path) -> None:
    """The warm-up request to every process at once; one that fails is said, and serves all the same."""

    def warm(backend: str) -> None:
        try:
            seconds = warm_up(backend)
        except Exception as exc:  # noqa: BLE001 - a warm-up is a courtesy: the process serves without it
            say(f"the warm-up request to {backend} failed ({exc}); its first learner waits for its first run", log)
            return
        say(f"the app process at {backend} ran its first page in {seconds:.1f} s (warm-up)", log)

    threads = [threading.Thread(target=warm, args=(b,), daemon=True) for b in backends]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        sys.stderr.write(f"error: {message} (see --help)\n")
        sys.exit(2)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "-n", "--processes", type=int, default=3,
        help="app processes to start (default 3; at most two per core and one per 400 MB of free memory)",
    )  # fmt: skip
    parser.add_argument("--port", type=int, default=8501, help="the one port learners connect to (default 8501)")
    parser.add_argument(
        "--address", default="0.0.0.0", help="IPv4 address nginx listens on (default 0.0.0.0: every interface)"
    )
    parser.add_argument(
        "--first-app-port", type=int, default=8601, help="app processes listen on 127.0.0.1 from here (default 8601)"
    )
    parser.add_argument(
        "--backends",
        nargs="+",
        metavar="IP:PORT",
        default=(),
        help="app processes already running elsewhere, instead of starting --processes here (default: none)",
    )
    parser.add_argument(
        "--model-store", type=Path, metavar="DIR",
        help=f"the folder of published models, shared by every app process (default: ${STORE_ENV}, else "
        "transformer-playground/models in $XDG_CACHE_HOME or ~/.cache)",
    )  # fmt: skip
    parser.add_argument("--run-dir", type=Path, help="for nginx.conf and the logs (default: a new temporary folder)")
    return parser


def _check_options(args: argparse.Namespace) -> list[str]:
    """DeployError for a teacher's mistake in the options; the warnings to print (a capped --processes, a bad
    PLAYGROUND_TRAINING_SLOTS, the shared store of remote backends). Sets args.processes to what will start."""
    check_port_number(args.port, "--port")
    warnings = []
    if args.backends:
        args.backends = [parse_backend(b) for b in args.backends]
        warnings.append(
            f"every app process behind --backends must use the same model store folder (set {STORE_ENV} to one "
            "shared folder, e.g. an NFS mount, on each machine), or a published model opens only where it was made."
        )
        return warnings
    if args.processes < 1:
        raise DeployError(f"--processes must be at least 1; got {args.processes}.")
    cores, memory = os.cpu_count() or 1, available_memory_mb()
    cap = process_cap(cores, memory)
    if args.processes > cap:
        warnings.append(
            f"--processes {args.processes} is more than this machine can hold; starting {cap} "
            f"({PROCESSES_PER_CORE} per core on {cores} core(s), about {PROCESS_MB} MB each of {memory} MB free)."
        )
        args.processes = cap
    check_port_number(args.first_app_port, "--first-app-port")
    last = args.first_app_port + args.processes - 1
    if last > 65535:
        raise DeployError(
            f"{args.processes} app processes from --first-app-port {args.first_app_port} need ports up to {last}, "
            f"past 65535; choose a --first-app-port of at most {65536 - args.processes}."
        )
    if args.first_app_port <= args.port <= last:
        raise DeployError(
            f"--port {args.port} is one of the app processes' ports ({args.first_app_port} to {last}); "
            "choose another --port or --first-app-port."
        )
    slots = check_training_slots(args.processes)
    if slots:
        warnings.append(slots)
    return warnings


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: start the classroom, say where to connect, keep it serving until Ctrl-C or SIGTERM."""
    args = _parser().parse_args(argv)
    try:
        for warning in _check_options(args):
            print(f"warning: {warning}", file=sys.stderr, flush=True)
    except DeployError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    # Ctrl-C, SIGTERM and a closed terminal raise KeyboardInterrupt, so the `with` below stops nginx and the apps
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.default_int_handler)
    app_ports = range(args.first_app_port, args.first_app_port + args.processes)
    try:
        with classroom(app_ports, args.port, args.address, args.run_dir, args.backends, args.model_store) as room:
            where = f"http://{socket.gethostname()}:{args.port}" if args.address == "0.0.0.0" else room.url
            store = f"\nModel store: {room.model_store}" if room.model_store else ""
            print(
                f"Classroom ready: {len(room.backends)} app process(es) behind nginx.\n"
                f"Learners open {where} (or this machine's IP address instead of its name).\n"
                f"Config and logs: {room.run_dir}{store}\nCtrl-C stops everything.",
                flush=True,
            )
            room.wait()
    except DeployError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    print("Classroom stopped.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
