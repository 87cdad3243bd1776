"""`python -m transformer credits`: who wrote the sentences a saved model was trained on, row by row, as its
checkpoint keeps them (transformer.credits): the licence, the contributors, then one TSV line per row."""

from __future__ import annotations

import argparse

from ..text import visible
from .common import required_file

HEADER = "line\tsentence 1\tcontributor 1\tsentence 2\tcontributor 2"  # the columns of the rows printed


def register(sub: argparse._SubParsersAction) -> None:
    """The credits command and its flags."""
    cr = sub.add_parser(
        "credits",
        help="list who wrote the sentences a saved model was trained on: its data's licence, contributors and every "
        "row's sentence numbers (CC-BY asks for the authors)",
    )
    required_file(cr, "--model", "a .safetensors checkpoint")


def run(args: argparse.Namespace) -> None:
    """Print the checkpoint's credit line, its contributors, and each row's sentence numbers and contributors."""
    from ..checkpoint import load_checkpoint

    data = load_checkpoint(args.model).summary.data
    credits = data.credits
    if credits is None:
        said = f"data: {visible(data.data_credit)}; " if data.data_credit else ""
        print(f"{said}the checkpoint records no sentence numbers or contributors (no attribution column was read)")
        return
    print(f"data: {visible(data.data_credit or credits.licence)}")
    people = credits.by_contributor()
    print(f"{len(people):,} contributors: " + ", ".join(f"{visible(who)} ({n:,})" for who, n in people))
    print(HEADER)
    for row in credits.table():
        print("\t".join(visible(str(cell)) for cell in row))
