"""The running classroom and its supervisor: one thread per process restarts a dead app process (after growing
pauses) or nginx, kills and restarts an app process or nginx that stops answering its health checks (hung), watches a
remote backend, tells the teacher, and warms every app process that has started again."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from deploy.nginx import HEALTH_PATH, READ_SECONDS, start_nginx
from deploy.processes import (
    APP_HEALTH,
    CHECK_SECONDS,
    POLL_SECONDS,
    START_TIMEOUT,
    DeployError,
    died_message,
    end_group,
    healthy,
    how_it_ended,
    say,
    start_app,
    warm_up,
)
from deploy.watchdog import notify, watchdog_seconds

RESTART_DELAYS = (1, 2, 4, 8, 16, 30)  # seconds before restarting a dead process, one more each time in a row
STEADY_SECONDS = 60  # a process that ran this long before it died starts again from the first delay
QUICK_DEATHS = 3  # a process that dies this many times in a row before it answers is not started again
BEAT_SLACK = 1.0  # seconds a supervising thread may be late for its next check before its round counts as stalled


@dataclass(frozen=True)
class HealthChecks:
    """When an app process or nginx is taken for hung. nginx sends a learner's plain HTTP request elsewhere after
    request_timeout s without an answer; the supervisor asks each app process GET /_stcore/health, and nginx its own
    GET /_classroom/health through the public port, and kills and restarts one after `failures` checks in a row
    without an answer. The defaults find a stopped process within interval + failures × timeout = 11 s and have it back
    within 30 s, while a process under a full class's load answers in well under a second (docs/performance.md)."""

    interval: float = 2.0  # seconds from one check of a process to the next
    timeout: float = 3.0  # seconds a check waits for the answer
    failures: int = 3  # checks in a row without an answer make a process hung: it is killed and started again
    request_timeout: float = READ_SECONDS  # seconds nginx waits for a plain HTTP answer before it tries another

    def problem(self) -> str | None:
        """What is wrong with these settings, as the teacher set them (None when nothing)."""
        if not self.interval > 0:
            return f"--health-interval must be more than 0 seconds; got {self.interval:g}."
        if not self.timeout > 0:
            return f"--health-timeout must be more than 0 seconds; got {self.timeout:g}."
        if self.failures < 1:
            return f"--health-failures must be at least 1; got {self.failures}."
        if not 0.001 <= self.request_timeout <= 86_400:  # nginx counts in milliseconds
            return f"--request-timeout must be from 0.001 to 86400 seconds; got {self.request_timeout:g}."
        return None


@dataclass
class _Kept:
    """One process the supervisor keeps running: how to start it, where it answers and logs, how to find it."""

    what: str  # "nginx" or "the app process at IP:PORT", as the teacher reads it
    start: Callable[[], subprocess.Popen]
    get: Callable[[], subprocess.Popen]
    put: Callable[[subprocess.Popen], None]
    url: str  # answers `health` when up
    health: str  # the path of its health check: an app process's /_stcore/health, nginx's own HEALTH_PATH
    log: Path
    meanwhile: str  # what learners see while it is down
    children: str  # what else is killed with it when it hangs
    warm: str | None = None  # the backend to warm up when it is back (an app process)


class Supervisor:
    """Keeps the classroom serving: restarts a dead app process (after growing pauses) or nginx, kills and restarts
    a hung app process, tells the teacher, and warms every app process that has started again. One thread per
    process; the first problem it cannot fix is kept in `error` and sets `failed`."""

    def __init__(
        self, room: Classroom, nginx_binary: str, app_env: dict[str, str], health: HealthChecks | None = None
    ) -> None:
        self.room = room
        self.nginx_binary = nginx_binary
        self.app_env = app_env
        self.health = health or HealthChecks()
        self.stopping = threading.Event()
        self.failed = threading.Event()
        self.error: DeployError | None = None
        self.threads: list[threading.Thread] = []
        self._due: dict[str, float] = {}  # each supervising thread's name → the time by which it checks again

    def start(self) -> None:
        """One thread for nginx and one for each backend: kept running when started here, else watched; then READY=1
        to systemd, and a thread that sends it WATCHDOG=1 after each round every thread did in time."""
        room = self.room
        jobs: list[tuple[str, Callable[[], None]]] = [("nginx", lambda: self._keep(self._nginx()))]
        for b in room.backends:
            jobs.append((b, (lambda b=b: self._keep(self._app(b))) if room.local else (lambda b=b: self._watch(b))))
        for name, job in jobs:
            self._due[f"classroom {name}"] = time.monotonic() + self.health.interval + BEAT_SLACK
            thread = threading.Thread(target=self._guard, args=(job,), name=f"classroom {name}", daemon=True)
            thread.start()
            self.threads.append(thread)
        notify("READY=1")
        thread = threading.Thread(target=self._watchdog, name="classroom watchdog", daemon=True)
        thread.start()
        self.threads.append(thread)

    def stop(self) -> None:
        """No restart from now on: every thread ends (a start in progress is left to the caller to stop)."""
        self.stopping.set()
        notify("STOPPING=1")
        for thread in self.threads:
            thread.join(timeout=30)

    def _beat(self, seconds: float) -> None:
        """The calling thread says it will check again within `seconds` (its next round)."""
        self._due[threading.current_thread().name] = time.monotonic() + seconds + BEAT_SLACK

    def in_time(self) -> bool:
        """Whether every supervising thread is within its round (none stuck: a check, a wait, a restart)."""
        now = time.monotonic()
        return all(now <= due for due in list(self._due.values()))

    def _watchdog(self) -> None:
        """WATCHDOG=1 to systemd every health interval (at least three times per WatchdogSec) while every thread is
        in time; nothing while one is stuck, so systemd restarts the classroom after WatchdogSec."""
        every = min(self.health.interval, (watchdog_seconds() or float("inf")) / 3)
        while not self.stopping.wait(every):
            if self.in_time():
                notify("WATCHDOG=1")

    def _nginx(self) -> _Kept:
        room = self.room
        return _Kept(
            "nginx",
            lambda: start_nginx(self.nginx_binary, room.run_dir),
            lambda: room._nginx,
            lambda process: setattr(room, "_nginx", process),
            room.url,  # its health is checked through the public port, as learners reach it
            HEALTH_PATH,
            room.run_dir / "nginx-error.log",
            "learners' pages reconnect when it is back",
            "its worker",
        )

    def _app(self, backend: str) -> _Kept:
        room, port = self.room, int(backend.rpartition(":")[2])
        log = room.run_dir / f"app-{port}.log"
        return _Kept(
            f"the app process at {backend}",
            lambda: start_app(port, log, self.app_env),
            lambda: room._apps[backend],
            lambda process: room._apps.__setitem__(backend, process),
            f"http://{backend}",
            APP_HEALTH,
            log,
            "its learners go on in a fresh session on the others",
            "its children",
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

    def _ended(self, kept: _Kept, process: subprocess.Popen, since: float) -> str | None:
        """Wait until the process exits or stops answering its health checks (then kill it and its process group: an
        app process's trainings, nginx's worker); the line that tells the teacher which, or None when the classroom
        stops first."""
        health = self.health
        answered = checked = time.monotonic()  # it has just answered: started, or warmed up
        silent = 0  # checks in a row without an answer
        while not self.stopping.is_set():
            self._beat(POLL_SECONDS + health.timeout)  # a wait for the process, then perhaps a check
            next_check = checked + health.interval - time.monotonic()
            try:
                process.wait(timeout=max(0.01, min(POLL_SECONDS, next_check)))
                ran = time.monotonic() - since
                return f"{kept.what} exited ({how_it_ended(process.returncode)}) after {ran:.0f} s; {kept.meanwhile}"
            except subprocess.TimeoutExpired:
                pass
            if time.monotonic() < checked + health.interval:
                continue
            checked = time.monotonic()
            if healthy(kept.url, health.timeout, kept.health):
                answered, silent = time.monotonic(), 0
                continue
            silent += 1
            if silent < health.failures or process.poll() is not None:  # a process that died is said as such
                continue
            end_group(process)  # SIGKILL: a stopped process cannot act on anything gentler
            process.wait()
            hung = time.monotonic() - answered
            return (
                f"{kept.what} (process {process.pid}) hangs: no answer to {silent} health checks in a row, "
                f"{hung:.0f} s since its last answer; killed it and {kept.children}; {kept.meanwhile}"
            )
        return None

    def _answers(self, kept: _Kept, process: subprocess.Popen) -> bool | None:
        """Wait until the new process answers (True), exits or stays silent START_TIMEOUT s (False), or the
        classroom stops (None)."""
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            self._beat(CHECK_SECONDS + 0.2)
            if healthy(kept.url, CHECK_SECONDS, kept.health):
                return True
            if process.poll() is not None or time.monotonic() > deadline:
                return False
            if self.stopping.wait(0.2):
                return None

    def _keep(self, kept: _Kept) -> None:
        """Restart the process whenever it exits or hangs, until the classroom stops."""
        in_a_row = 0  # restarts since the process last ran STEADY_SECONDS
        since = time.monotonic()
        while (ended := self._ended(kept, process := kept.get(), since)) is not None:
            end_group(process)
            in_a_row = 0 if time.monotonic() - since >= STEADY_SECONDS else in_a_row
            self._say(ended)
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
            self._beat(delay)
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
                problem = died_message(kept.what, process.returncode, kept.log)
            end_group(process)
            if attempt == QUICK_DEATHS:
                raise DeployError(f"{problem}; that is {QUICK_DEATHS} times in a row, see {kept.log}.")
            self._say(problem)
        return None  # not reached

    def _warm(self, backend: str) -> None:
        """Warm the process up in a thread of its own: its health is checked meanwhile (a process can hang in its
        warm-up too, which waits up to WARM_UP_TIMEOUT)."""
        thread = threading.Thread(target=self._warm_now, args=(backend,), name=f"warm {backend}", daemon=True)
        thread.start()
        self.threads.append(thread)

    def _warm_now(self, backend: str) -> None:
        try:
            seconds = warm_up(backend, self.stopping)
        except Exception as exc:  # noqa: BLE001 - a warm-up is a courtesy: the process serves without it
            if not self.stopping.is_set():  # else the classroom is stopping the process
                self._say(f"the warm-up request to {backend} failed ({exc}); its first learner waits for its first run")
            return
        if seconds is not None:
            self._say(f"the app process at {backend} ran its first page in {seconds:.1f} s (warm-up)")

    def _watch(self, backend: str) -> None:
        """A backend this script did not start: say when it stops or starts answering, and warm it when it is back."""
        up = True
        while True:
            self._beat(self.health.interval + self.health.timeout)
            if self.stopping.wait(self.health.interval):
                return
            if healthy(f"http://{backend}", self.health.timeout) == up:
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
        self._supervisor: Supervisor | None = None

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
