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

When an app process hangs (stopped, its server loop stuck, lost in swap), nginx sends its learners to another process
once a plain HTTP request has had no answer for --request-timeout seconds, and the script, which asks every process
GET /_stcore/health every --health-interval seconds, kills it (and its children) after --health-failures checks in
a row without an answer within --health-timeout seconds, says so and starts it again.

nginx runs with a generated config in its own run directory (never /etc/nginx). Ctrl-C or SIGTERM stops
nginx and every app process the script started.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script: deploy.*, jobs.* and transformer.* live in the repository
    sys.path.insert(0, str(REPO))

# the parts of the classroom, each importing only the ones above it: processes ← nginx ← supervisor ← this script
from deploy.nginx import find_nginx, nginx_config, start_nginx, upload_cap_mb  # noqa: E402
from deploy.processes import DeployError, say, start_app, stop_processes, wait_healthy, warm_up  # noqa: E402
from deploy.supervisor import Classroom, HealthChecks, Supervisor  # noqa: E402
from jobs import slots as training_slots  # noqa: E402  (standard library only)
from transformer.store import STORE_ENV, default_folder  # noqa: E402  (imports no torch until a model is opened)

PROCESS_MB = 400  # an app process's memory once its learners use it (docs/performance.md)
# at most this many app processes per core: each trains at least one model at once (PLAYGROUND_TRAINING_SLOTS),
# and two trainings per core is what kept page switches under 1 s (jobs.slots)
PROCESSES_PER_CORE = training_slots.PER_CORE


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
    folder (transformer.store.default_folder)."""
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


PUBLIC_URL_ENV = "PLAYGROUND_PUBLIC_URL"  # the address learners open, printed on lesson sheets (ui.links reads it)


def public_url(address: str, port: int) -> str | None:
    """The address learners open when the classroom listens on one (--address): http://ADDRESS:PORT; None for
    0.0.0.0, where this script cannot tell which of the machine's addresses the room reaches."""
    return None if address == "0.0.0.0" else f"http://{address}:{port}"


def app_environment(
    processes: int, model_store: Path, environ: dict[str, str] | None = None, public: str | None = None
) -> dict[str, str]:
    """The environment of every app process: the shared model store, and each process's share of the cores for its
    trainings (slots) and their torch threads, unless the environment says otherwise (a bad or too large
    PLAYGROUND_TRAINING_SLOTS is replaced, as check_training_slots says); the address learners open (`public`,
    PLAYGROUND_PUBLIC_URL) unless the environment gives one."""
    environ = dict(os.environ if environ is None else environ)
    cores = os.cpu_count() or 1
    share = max(1, cores // max(1, processes))
    slots, _ = training_slots.read_slots(environ.get(training_slots.ENV), cores, default=share)
    shown = {PUBLIC_URL_ENV: public} if public and not environ.get(PUBLIC_URL_ENV) else {}
    return {
        "OMP_NUM_THREADS": str(share),
        **environ,
        **shown,
        training_slots.ENV: str(slots),
        STORE_ENV: str(model_store),
    }


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
    health: HealthChecks | None = None,
) -> Iterator[Classroom]:
    """App processes on 127.0.0.1:app_ports (or the given remote backends) behind nginx on address:port, every
    local one with the model store `model_store` (default: default_model_store()); warm=False leaves out the
    warm-up requests at the start (benchmarks/classroom.py compares).

    Ready when entered (every process has answered /_stcore/health and run the app's first page once, and nginx
    answers); while inside, a supervisor restarts any process that dies, or that hangs by `health` (default:
    HealthChecks()) (Classroom.wait() raises DeployError when one cannot be kept running); everything started is
    stopped when left.
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
    health = health or HealthChecks()
    run_dir = Path(run_dir or tempfile.mkdtemp(prefix="classroom-")).resolve()
    (run_dir / "tmp").mkdir(parents=True, exist_ok=True)
    listen = "127.0.0.1" if address == "0.0.0.0" else address
    room = Classroom(f"http://{listen}:{port}", backends, run_dir, store)
    supervisor = None
    try:
        env = app_environment(len(app_ports), store, public=public_url(address, port)) if store else {}
        for app_port, backend in zip(app_ports, backends):
            room._apps[backend] = start_app(app_port, run_dir / f"app-{app_port}.log", env)
        for backend in backends:
            log = run_dir / f"app-{backend.rpartition(':')[2]}.log" if local else None
            wait_healthy(f"http://{backend}", f"the app process at {backend}", room._apps.get(backend), log)
        if warm:
            _warm_all(backends, run_dir / "classroom.log")

        (run_dir / "nginx.conf").write_text(
            nginx_config(backends, address, port, run_dir, upload_cap_mb(), health.request_timeout), encoding="utf-8"
        )
        room._nginx = start_nginx(nginx_binary, run_dir)
        wait_healthy(room.url, "nginx", room._nginx, run_dir / "nginx-error.log")
        supervisor = room._supervisor = Supervisor(room, nginx_binary, env, health)
        supervisor.start()
        yield room
    finally:
        if supervisor is not None:
            supervisor.stop()  # no restart from here on
        # nginx first: no new request reaches a stopping app
        stop_processes(([room._nginx] if room._nginx else []) + room.apps)


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
    default = HealthChecks()
    parser.add_argument(
        "--health-interval", type=float, default=default.interval, metavar="SECONDS",
        help=f"how often each app process is asked whether it answers (default {default.interval:g})",
    )  # fmt: skip
    parser.add_argument(
        "--health-timeout", type=float, default=default.timeout, metavar="SECONDS",
        help=f"how long each of those checks waits for its answer (default {default.timeout:g})",
    )  # fmt: skip
    parser.add_argument(
        "--health-failures", type=int, default=default.failures, metavar="N",
        help=f"checks in a row without an answer after which an app process is taken for hung, killed and started "
        f"again (default {default.failures})",
    )  # fmt: skip
    parser.add_argument(
        "--request-timeout", type=float, default=default.request_timeout, metavar="SECONDS",
        help="nginx passes over an app process that has not answered a plain HTTP request (a page, a script, a "
        f"download; not the websocket) within this long, for another (default {default.request_timeout:g})",
    )  # fmt: skip
    return parser


def _check_options(args: argparse.Namespace) -> list[str]:
    """DeployError for a teacher's mistake in the options; the warnings to print (a capped --processes, a bad
    PLAYGROUND_TRAINING_SLOTS, the shared store of remote backends). Sets args.processes to what will start."""
    check_port_number(args.port, "--port")
    args.health = HealthChecks(args.health_interval, args.health_timeout, args.health_failures, args.request_timeout)
    if problem := args.health.problem():
        raise DeployError(problem)
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
        with classroom(
            app_ports, args.port, args.address, args.run_dir, args.backends, args.model_store, health=args.health
        ) as room:
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
