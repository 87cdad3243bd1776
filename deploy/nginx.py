"""nginx in front of the app processes: the generated nginx.conf (a learner's first request round-robin, a cookie for
the rest), Debian's nginx binary, and nginx started in the run directory."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from collections.abc import Sequence
from pathlib import Path

from deploy.processes import REPO, DeployError, mark_start

COOKIE = "classroom_backend"  # names the app process ("IP:PORT") that holds the learner's session
FAIL_SECONDS = 10  # after a failed request nginx sends nobody to that process for this long, then tries it again
CONNECT_SECONDS = 3  # nginx gives up on connecting to an app process after this long and tries the next one
# nginx gives up on an app process that has not answered a plain HTTP request (a page, a script, an upload, a download)
# after this long and tries the next one: a hung process still accepts connections (the kernel does that), so only this
# sends its learners elsewhere. Streamlit's server loop answers every plain request at once: files from memory, an
# upload once its body is in (nginx starts the timer when it has sent the whole body); the app's own work runs over
# the websocket, which keeps a long timeout
READ_SECONDS = 5
# nginx's own answer, through the public port: the supervisor asks it as it asks each app process /_stcore/health, and
# a stopped nginx (its master, its worker) accepts the connection, as the kernel does that, but never answers
HEALTH_PATH = "/_classroom/health"
# what a learner sees while no app process answers (502: all refuse, 504: all silent; 503 for good measure): a page in
# English and Chinese that says the class server is restarting and loads the same address again once it answers,
# instead of nginx's bare "502 Bad Gateway"
RESTARTING_PAGE = Path(__file__).with_name("restarting.html")
RESTARTING_PATH = "/_classroom/restarting"


def upload_cap_mb() -> int:
    """The app's upload cap in MB: server.maxUploadSize of .streamlit/config.toml (Streamlit's default 200)."""
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    return int(config.get("server", {}).get("maxUploadSize", 200))


def restarting_page() -> str:
    """deploy/restarting.html as a string of nginx's config (it is served by nginx alone, no file read at run time:
    nginx's workers may run as a user who cannot read this folder)."""
    html = RESTARTING_PAGE.read_text(encoding="utf-8")
    if "$" in html:  # nginx would take it for a variable
        raise ValueError(f"{RESTARTING_PAGE} must not contain '$'")
    return "'" + html.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _own_answers() -> str:
    """The locations nginx answers itself: the restarting page and its own health check."""
    return f"""\
        # no app process answers: the restarting page, with the error's status (the browser's address stays the same)
        error_page 502 503 504 {RESTARTING_PATH};
        location = {RESTARTING_PATH} {{
            internal;
            default_type "text/html; charset=utf-8";
            add_header Cache-Control "no-store" always;
            add_header Retry-After 3 always;
            return 502 {restarting_page()};
        }}
        # answered by nginx itself, whether or not any app process is up
        location = {HEALTH_PATH} {{
            access_log off;
            default_type text/plain;
            return 200 "ok";
        }}"""


def _regex(backend: str) -> str:
    return backend.replace(".", r"\.")


def _proxy(read_timeout: str, why: str, tries: int) -> str:
    """The proxy settings of a location: to the learner's process, on to the next one when it does not answer."""
    return f"""\
            proxy_pass http://$app_process;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;  # Streamlit accepts a websocket whose Origin matches its Host
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            # a process that is down refuses the connection, a hung one does not answer: every request, the
            # websocket's handshake too, goes on to the next process, which answers with a new cookie
            proxy_next_upstream error timeout;
            proxy_next_upstream_tries {tries};
            proxy_connect_timeout {CONNECT_SECONDS}s;
            proxy_read_timeout {read_timeout};  # {why}
            proxy_send_timeout {read_timeout};
            proxy_buffering off;  # uploads and downloads stream straight through, no temporary files
            proxy_request_buffering off;
            add_header Set-Cookie $sticky_cookie always;"""


def nginx_config(
    backends: Sequence[str], address: str, port: int, run_dir: Path, upload_mb: int, read_seconds: float = READ_SECONDS
) -> str:
    """The nginx.conf text: round-robin for a learner's first request, the cookie's process for all the rest, and
    the next live process (and a new cookie) when the cookie's process refuses or, for plain HTTP, has not answered
    within read_seconds."""
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
    silent = f"{round(read_seconds * 1000)}ms"  # nginx takes no fractions of a second
    plain = _proxy(silent, "plain HTTP: a process silent this long is taken for hung", len(backends))
    stream = _proxy("1d", "the websocket", len(backends))
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
{plain}
        }}
{_own_answers()}
        # a learner's websocket stays open and quiet for the whole lesson; when its process is killed (dead, or hung
        # and killed by the supervisor) it closes, and the browser reconnects through both locations
        location = /_stcore/stream {{
{stream}
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


def start_nginx(binary: str, run_dir: Path) -> subprocess.Popen:
    """nginx with the run's config, in a session of its own (its workers go with it: see end_group)."""
    error_log = run_dir / "nginx-error.log"
    mark_start(error_log)
    with open(error_log, "ab") as out:
        return subprocess.Popen(
            [binary, "-p", str(run_dir), "-c", str(run_dir / "nginx.conf"), "-e", str(error_log)],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
