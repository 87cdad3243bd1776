"""`python -m transformer corpus`: write the teaching corpus, zh→en pairs tagged with the phenomena they show."""

from __future__ import annotations

import argparse

from .. import corpus
from ..config import MAX_SEED
from ..errors import ConfigError, TransformerError
from ..text import visible
from .common import add_numbers, check_writable, required_file


def register(sub: argparse._SubParsersAction) -> None:
    """The corpus command and its flags."""
    c = sub.add_parser("corpus", help="write the teaching corpus: zh→en pairs tagged with the phenomena they show")
    required_file(c, "--out", "where to write the TSV of source, target, phenomena (checked first)")
    add_numbers(
        c,
        ("--size", int, corpus.DEFAULT_SIZE, "N", f"distinct pairs drawn from the grammar, 1 to {corpus.max_size():,}"),
        ("--seed", int, corpus.DEFAULT_SEED, "S", f"the same size and seed give the same pairs, 0 to {MAX_SEED:,}"),
    )


def run(args: argparse.Namespace) -> None:
    """Write the corpus file, then how many pairs it has and how many show each phenomenon."""
    check_writable(args.out, "--out", "corpus.tsv")
    if not 1 <= args.size <= corpus.max_size():
        raise ConfigError(
            f"--size must be from 1 to {corpus.max_size():,} (every pair the grammar makes), got {args.size:,}."
        )
    if not 0 <= args.seed <= MAX_SEED:
        raise ConfigError(f"--seed must be from 0 to {MAX_SEED:,}, got {args.seed:,}.")
    pairs = corpus.generate(args.size, args.seed)
    try:
        args.out.write_text(corpus.format_corpus(pairs), encoding="utf-8")
    except OSError as exc:
        raise TransformerError(f"cannot write {args.out}: {exc.strerror or exc}.") from None
    counts = corpus.phenomenon_counts(pairs)
    print(f"wrote {len(pairs):,} pairs (seed {args.seed}) to {visible(str(args.out))}")
    print("phenomena: " + ", ".join(f"{tag} {counts[tag]:,}" for tag in corpus.PHENOMENA if counts[tag]))
