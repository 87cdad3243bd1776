"""`python -m transformer store list|remove|prune`: the published models (the app's Publish button)."""

from __future__ import annotations

import argparse
import errno
import sys
import time

from ..store import KEEP_OPENED_SECONDS, MAX_BYTES_ENV, MAX_MODELS_ENV, STORE_ENV, ModelStore, PruneReport
from ..store_files import Stuck
from ..text import visible
from .common import Parser


def register(sub: argparse._SubParsersAction) -> None:
    """The store command and its actions."""
    st = sub.add_parser(
        "store",
        help="the published models (the app's Publish button)",
        description=f"The folder of published models: {STORE_ENV} (default: transformer-playground/models in the "
        f"user's cache), at most {MAX_MODELS_ENV} models and {MAX_BYTES_ENV} bytes.",
    )
    actions = st.add_subparsers(dest="action", required=True, parser_class=Parser)
    actions.add_parser("list", help="every published model: fingerprint, size, dates, name")
    rm = actions.add_parser("remove", help="delete one published model")
    rm.add_argument("hash", metavar="HASH", help="its fingerprint (16 hex digits, or 8 that start only it)")
    actions.add_parser(
        "prune",
        help="delete damaged files, then the least recently opened models until within the limits (never one opened "
        "within the hour: exits with status 1 when the store is still over its limits)",
    )


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def _report(report: PruneReport) -> None:
    for line in report.removed:
        print(f"removed {visible(line)}")
    for s in report.stuck:
        print(f"could not remove {visible(s.name)} ({s.why}): {s.reason}")
    for e in report.kept:
        line = f"kept {e.hash} (last opened {_when(e.opened)}, within the hour; {e.size:,} bytes) {visible(e.name)}"
        print(line.rstrip())
    if not report.removed and not report.kept and not report.stuck:
        print("nothing to remove")


def _still_over(store: ModelStore, report: PruneReport, count: int, total: int) -> str:
    """The line that says the store is still over its limits, why, and when prune can do more."""
    models = "the model above was" if len(report.kept) == 1 else f"the {len(report.kept)} models above were"
    again = _when(report.kept[-1].opened + KEEP_OPENED_SECONDS + 60)
    return (
        f"the model store is still over its limits ({count} models, {total:,} bytes; at most {store.max_models} models "
        f"and {store.max_bytes:,} bytes): {models} opened within the last hour, and prune never removes such a "
        f"model. Run it again after {again}, or raise {MAX_MODELS_ENV} or {MAX_BYTES_ENV}."
    )


def _stuck_advice(store: ModelStore, stuck: list[Stuck]) -> str:
    """The line that says files could not be removed, with advice that fits why (the system's error of each)."""
    files = "the file above" if len(stuck) == 1 else f"the {len(stuck)} files above"
    codes = {s.error.errno for s in stuck}
    if codes & {errno.EACCES, errno.EROFS}:  # a matter of the folder, not of one file
        reason = next(s.reason for s in stuck if s.error.errno in (errno.EACCES, errno.EROFS))
        return (
            f"this user cannot delete files in the model store at {visible(str(store.folder))} ({reason}), so "
            f"{files} stayed: run prune as the user the app runs as, or make the folder writable for this one."
        )
    them, one = ("it", "it is") if len(stuck) == 1 else ("them", "each is")
    if codes == {errno.EPERM}:
        return (
            f"{files} could not be removed, the rest of the store was pruned: the system refuses to delete {them} "
            f"(Operation not permitted), so {one} immutable or append-only (lsattr shows an i or an a; chattr -i or "
            "-a, as root, clears it) or another user's in a folder with the sticky bit. Clear that or delete "
            f"{them} by hand, then run prune again."
        )
    return (
        f"{files} could not be removed, the rest of the store was pruned: see the reason given for each; delete "
        "what is left by hand, then run prune again."
    )


def run(args: argparse.Namespace) -> int:
    """Remove one model or prune, then say how full the store is; list: every model too. Exit status 1 when prune
    leaves the store over its limits or a file it meant to delete."""
    store = ModelStore.from_env()
    if args.action == "remove":
        entry = store.remove(args.hash)
        print(f"removed {entry.hash} ({entry.size:,} bytes) {visible(entry.name)}".rstrip())
        return 0
    report = store.prune() if args.action == "prune" else None
    if report is not None:
        _report(report)
    entries = sorted(store.entries(), key=lambda e: e.opened, reverse=True)
    total = sum(e.size for e in entries)
    print(
        f"{visible(str(store.folder))}: {len(entries)} models of at most {store.max_models}, "
        f"{total:,} bytes of at most {store.max_bytes:,}"
    )
    if args.action == "list":
        for e in entries:
            print(
                f"{e.hash}  {e.size:>12,} bytes  published {e.published_date or '?':10}  "
                f"last opened {_when(e.opened)}  {visible(e.name)}".rstrip()
            )
        damaged = store.damaged()
        if damaged:
            print(f"{len(damaged)} damaged file(s) set aside, never served: `store prune` deletes them")
    others = report.left if report is not None else store.others()
    for line in others:
        print(f"left {visible(line)} as it is: not a file the store made; move it out of the folder")
    if report is None:
        return 0
    if report.stuck:
        print(f"prune: {_stuck_advice(store, report.stuck)}", file=sys.stderr)
    if report.over:
        print(f"prune: {_still_over(store, report, len(entries), total)}", file=sys.stderr)
    return 1 if report.stuck or report.over else 0
