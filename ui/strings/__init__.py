"""Every UI string, English and Chinese side by side: one TOML file per screen (ui/strings/<screen>.toml, read with the
standard library's tomllib), and STRINGS, the one table merged from them.

The strings are data, not code: a translator edits a screen's file without reading Python. A key written twice in one
file stops tomllib; a key defined in two files stops the merge, so each key has one home.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

HERE = Path(__file__).parent
SCREENS = (  # the files, in the order of the app: the sidebar first, then the pages
    "sidebar",
    "one_chart",
    "sheet",
    "jobs",
    "common",
    "errors",
    "data",
    "tokens",
    "train",
    "opened",
    "recipe",
    "finetune",
    "positional_encoding",
    "masks",
    "inside",
    "attention",
    "decoding",
    "lab",
)


def read_screen(name: str) -> dict[str, dict[str, str]]:
    """One screen's table: key → {"en": …, "zh": …}."""
    with open(HERE / f"{name}.toml", "rb") as f:
        return tomllib.load(f)


def merged(tables: dict[str, dict[str, dict[str, str]]]) -> dict[str, dict[str, str]]:
    """One table from the screens' tables (name → table); a key defined twice raises ValueError naming both screens."""
    table: dict[str, dict[str, str]] = {}
    home: dict[str, str] = {}
    for name, screen in tables.items():
        for key, texts in screen.items():
            if key in table:
                raise ValueError(f"UI string {key!r} is defined twice: in {home[key]}.toml and in {name}.toml")
            table[key], home[key] = texts, name
    return table


STRINGS: dict[str, dict[str, str]] = merged({name: read_screen(name) for name in SCREENS})
