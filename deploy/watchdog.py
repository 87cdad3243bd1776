"""What watches the supervisor: systemd (deploy/classroom.service). The supervisor says READY=1 once the classroom
serves, and WATCHDOG=1 after each round in which every one of its threads did its checks in time; systemd kills and
restarts the whole classroom when WatchdogSec passes without one (a stopped or stuck supervisor). The messages go
over the unix datagram socket systemd names in NOTIFY_SOCKET (a path, or an abstract name written with a leading
@), as sd_notify(3) sends them; without NOTIFY_SOCKET nothing is sent."""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Mapping

NOTIFY_ENV = "NOTIFY_SOCKET"
WATCHDOG_ENV = "WATCHDOG_USEC"  # systemd's WatchdogSec, in microseconds, set for the service's main process


def notify(state: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Send `state` ("READY=1", "WATCHDOG=1", …) to the service manager; whether it was sent (False without
    NOTIFY_SOCKET, or when the socket is gone: a watchdog message is only ever a courtesy to the manager)."""
    address = environ.get(NOTIFY_ENV, "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket name: a NUL byte where the @ is
        address = "\0" + address[1:]
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as out:
        out.connect(address)
        out.sendall(state.encode())
        return True
    return False


def watchdog_seconds(environ: Mapping[str, str] = os.environ) -> float | None:
    """systemd's WatchdogSec for this process (WATCHDOG_USEC), or None when none is set (or it is not for us)."""
    pid = environ.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None
    try:
        usec = int(environ.get(WATCHDOG_ENV, ""))
    except ValueError:
        return None
    return usec / 1e6 if usec > 0 else None
