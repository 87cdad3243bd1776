"""`python -m transformer evaluate`: score a saved model on sentence pairs by phenomenon and part."""

from __future__ import annotations

import argparse

from ..splits import pairs_sha256
from ..text import visible
from .common import add_columns, add_model, read_pairs, required_file


def register(sub: argparse._SubParsersAction) -> None:
    """The evaluate command and its flags."""
    ev = sub.add_parser(
        "evaluate",
        help="score a saved model on sentence pairs: exact match, token accuracy, BLEU and chrF by phenomenon and part",
    )
    add_model(ev)
    required_file(
        ev,
        "--pairs",
        "UTF-8 TSV or CSV file of source, target pairs (up to 10 columns: phenomena, alignment, attribution; see "
        "--columns); when the model was trained on this file, the rows "
        "it held out are scored apart from the rows it trained on",
    )
    add_columns(ev)


def run(args: argparse.Namespace) -> None:
    """Score the model on the file: its held-out rows apart when it was trained on that file."""
    from ..opening import open_model
    from ..scores import score_pairs, table_of

    translator = open_model(args.model)
    pairs, tags = read_pairs(args.pairs, translator.tokenizer, args.columns)
    data = translator.summary.data
    if data.data_sha256 == pairs_sha256(pairs):
        held = {i for i in data.holdout_rows if i < len(pairs)}
        aside = {i for i in data.set_aside_rows if i < len(pairs)} - held  # a length split's middle rows
        parts = ["holdout" if i in held else "aside" if i in aside else "train" for i in range(len(pairs))]
        also = f", {len(aside)} set aside (neither trained on nor held out)" if aside else ""
        trained = len(pairs) - len(held) - len(aside)
        print(
            f"{len(pairs)} pairs: the model was trained on this file, {trained} of them trained on and "
            f"{len(held)} held out{also} (the rows its checkpoint records)"
        )
    else:
        parts = None
        print(
            f"{len(pairs)} pairs, scored as one part: the model was not trained on this file (its checkpoint names "
            "another or none), so which of them it trained on is not known"
        )
    if not any(tags):
        print("(no phenomena column: one row for all the pairs)")
    table = table_of(score_pairs(translator, pairs), tags, parts)
    for line in table.lines({"train": "trained on", "holdout": "held out", "aside": "set aside"}):
        print(visible(line))
