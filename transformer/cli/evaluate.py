"""`python -m transformer evaluate`: score a saved model on sentence pairs by phenomenon and part."""

from __future__ import annotations

import argparse
import sys

from ..splits import pairs_sha256
from ..text import visible
from .common import add_columns, add_model, checked_pairs, required_file

SAMPLE = 200  # pairs whose tokens are looked up to tell the model's direction
REVERSED_MARGIN = 0.3  # the other direction's known tokens must exceed this one's by this share, and be the most


def known_share(sentences: list[str], vocab, tokenizer, side: str) -> float:
    """The share of the sentences' tokens, split as the model splits its side `side`, that a vocabulary holds."""
    from ..data import tokenize

    tokens = [token for sentence in sentences for token in tokenize(sentence, tokenizer, side)]
    return sum(token in vocab.stoi for token in tokens) / len(tokens) if tokens else 0.0


def reversed_direction(translator, pairs: list[tuple[str, str]]) -> tuple[float, float] | None:
    """(known share this way, the other way) when the model reads these pairs the other way round: its source
    vocabulary holds the target column's tokens and its target vocabulary the source column's, far more than this
    way; None otherwise."""
    sample = pairs[:SAMPLE]
    sources, targets = [s for s, _ in sample], [t for _, t in sample]
    src, tgt, tok = translator.src_vocab, translator.tgt_vocab, translator.tokenizer
    this_way = (known_share(sources, src, tok, "source") + known_share(targets, tgt, tok, "target")) / 2
    other_way = (known_share(targets, src, tok, "source") + known_share(sources, tgt, tok, "target")) / 2
    return (this_way, other_way) if other_way >= this_way + REVERSED_MARGIN else None


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
    taken = checked_pairs(args.pairs, translator.tokenizer, args.columns)
    pairs, tags = taken.pairs, taken.tags
    data = translator.summary.data
    turned = reversed_direction(translator, pairs) if data.data_sha256 != pairs_sha256(pairs) else None
    if turned is not None:
        s, t = (n + 1 for n in taken.columns)
        trained = data.data_sha256 is not None and data.data_sha256 == pairs_sha256([(b, a) for a, b in pairs])
        why = (
            "it was trained on this file the other way round"
            if trained
            else f"its vocabularies know {turned[1]:.0%} of the tokens read that way against {turned[0]:.0%} this way"
        )
        print(
            f"warning: the direction is reversed: the model translates column {t} → column {s} of "
            f"{visible(str(args.pairs))}, not column {s} → column {t} ({why}): give --columns {t},{s} to score "
            "it in its own direction.",
            file=sys.stderr,
        )
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
    elif turned is not None:
        parts = None
        print(f"{len(pairs)} pairs, scored as one part in the direction asked, which is not the model's (see above)")
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
