"""Reading a file a user names: regular files only, and never more than a limit of bytes.

A size from stat() can be fooled (/dev/zero and /proc files say 0, a file can grow after the check), and opening a
fifo waits for a writer; so the file is opened without waiting, checked to be a regular file, and at most limit + 1
bytes are read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import TransformerError

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISFIFO, "a pipe (fifo)"),
    (stat.S_ISSOCK, "a socket"),
)


def read_limited(path: str | Path, limit: int, what: str, error: type[TransformerError] = TransformerError) -> bytes:
    """The bytes of the regular file at path, refused with error (a sentence naming the path and what was expected)
    when it cannot be read, is not a regular file, or holds more than limit bytes."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a fifo must not block the open
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}.") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = next((name for test, name in _KINDS if test(mode)), "something else")
        raise error(f"{path} is {kind}, not a file: give the path of {what}.")
    with os.fdopen(fd, "rb") as file:
        try:
            data = file.read(limit + 1)
        except OSError as exc:
            raise error(f"cannot read {path}: {exc.strerror or exc}.") from None
    if len(data) > limit:
        raise error(f"{path} is larger than {limit:,} bytes, the limit for {what}: use a smaller file.")
    return data
