"""The files of the model store's folder (transformer.store), always named relative to the open folder and never
opened through a symbolic link: atomic writes, a scan of what the folder holds, and what a name that is not a
regular file is (a folder, a socket…: things the store never makes, so never deletes), and a file that could not be
deleted."""

from __future__ import annotations

import os
import secrets
import stat
from contextlib import suppress
from dataclasses import dataclass

NO_FOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
PARTIAL = ".partial-"  # a file being written: .partial-RANDOM-NAME


class NotAFile(OSError):
    """A name in the store that is a folder, a fifo or a device rather than a file."""


@dataclass(frozen=True)
class Stuck:
    """A file prune meant to delete and could not: its name, why it was to go, and the system's reason."""

    name: str
    why: str  # "damaged, set aside", "least recently opened", …
    error: OSError

    @property
    def reason(self) -> str:
        """The system's words for the failure ("Operation not permitted")."""
        return self.error.strerror or str(self.error)


def unlink_or_note(dirfd: int, name: str, why: str, stuck: list[Stuck]) -> bool:
    """Delete one file of the folder; whether it is gone (a failure is added to `stuck`, and prune goes on)."""
    try:
        os.unlink(name, dir_fd=dirfd)
    except FileNotFoundError:
        pass
    except OSError as exc:
        stuck.append(Stuck(name, why, exc))
        return False
    return True


def open_file(dirfd: int, name: str) -> int:
    """A read-only descriptor of the regular file name in the folder; never through a symbolic link."""
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | NO_FOLLOW, dir_fd=dirfd)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotAFile(f"{name} is not a regular file")
    return fd


def scan(dirfd: int) -> dict[str, os.stat_result]:
    """Every name in the folder with its status (of a link itself, never its target)."""
    found = {}
    for name in os.listdir(dirfd):
        with suppress(FileNotFoundError):  # removed since it was listed
            found[name] = os.stat(name, dir_fd=dirfd, follow_symlinks=False)
    return found


def kind(mode: int) -> str:
    """What a name that is not a regular file is, in words: "a folder", "a socket"…"""
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "a named pipe" if stat.S_ISFIFO(mode) else "a device"


def non_files(found: dict[str, os.stat_result]) -> list[str]:
    """One line per name of a scan that is not a regular file, "NAME (a folder)", sorted by name."""
    return [f"{n} ({kind(info.st_mode)})" for n, info in sorted(found.items()) if not stat.S_ISREG(info.st_mode)]


def non_file_kind(dirfd: int, name: str) -> str | None:
    """What name in the folder is when it is there and is not a regular file ("a folder"…), else None."""
    try:
        mode = os.stat(name, dir_fd=dirfd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return None
    return None if stat.S_ISREG(mode) else kind(mode)


def identity(info: os.stat_result) -> tuple[int, ...]:
    """What changes when a file is replaced or rewritten."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def write_atomically(dirfd: int, name: str, data: bytes) -> None:
    """Write name in the folder atomically: a temporary file, synced, then renamed over name."""
    temp = f"{PARTIAL}{secrets.token_hex(8)}-{name}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW, 0o644, dir_fd=dirfd)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, name, src_dir_fd=dirfd, dst_dir_fd=dirfd)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp, dir_fd=dirfd)
        raise
    sync(dirfd)


def sync(dirfd: int) -> None:
    """Make the folder's renames and deletions durable (some file systems cannot sync a folder: nothing to do)."""
    with suppress(OSError):
        os.fsync(dirfd)
