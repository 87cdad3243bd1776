"""Every UI string, English and Chinese side by side, one module per screen; STRINGS merges them into one table.

A key defined in two modules stops the import: each key has one home."""

from __future__ import annotations

from . import (
    attention,
    common,
    data,
    decoding,
    errors,
    inside,
    jobs,
    lab,
    masks,
    positional_encoding,
    sheet,
    sidebar,
    train,
)

SCREENS = (
    sidebar,
    sheet,
    jobs,
    common,
    errors,
    data,
    train,
    positional_encoding,
    masks,
    inside,
    attention,
    decoding,
    lab,
)


def merged(screens) -> dict[str, dict[str, str]]:
    """One table from the screens' tables; a key defined twice raises ValueError naming both modules."""
    table: dict[str, dict[str, str]] = {}
    home: dict[str, str] = {}
    for screen in screens:
        for key, texts in screen.STRINGS.items():
            if key in table:
                raise ValueError(f"UI string {key!r} is defined twice: in {home[key]} and in {screen.__name__}")
            table[key], home[key] = texts, screen.__name__
    return table


STRINGS: dict[str, dict[str, str]] = merged(SCREENS)
