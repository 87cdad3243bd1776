"""`python -m transformer store list|remove|prune`: the published models (the app's Publish button)."""

from __future__ import annotations

import argparse
import time

from ..store import MAX_BYTES_ENV, MAX_MODELS_ENV, STORE_ENV, ModelStore
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
        "prune", help="delete damaged files, then the least recently opened models until within the limits"
    )


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def run(args: argparse.Namespace) -> None:
    """Remove one model or prune, then say how full the store is; list: every model too."""
    store = ModelStore.from_env()
    if args.action == "remove":
        entry = store.remove(args.hash)
        print(f"removed {entry.hash} ({entry.size:,} bytes) {visible(entry.name)}".rstrip())
        return
    if args.action == "prune":
        removed = store.prune()
        for line in removed:
            print(f"removed {visible(line)}")
        if not removed:
            print("nothing to remove")
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
