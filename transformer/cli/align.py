"""`python -m transformer align`: one line of alignment links per pair, read from a saved model; with gold links in the
pairs file, the alignment error rate of every head and method. Links are of words (characters for Chinese, words and
punctuation for English), whatever pieces the model reads: two words are linked when any of their pieces are."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import ALIGN_METHODS, MAX_DATA_BYTES, MAX_STUDY_PAIRS, TransformerConfig
from ..data import check_pairs, parse_aligned_pairs
from ..errors import DataError, TransformerError
from ..files import read_limited
from ..text import visible
from .common import add_model, check_writable, required_file

if TYPE_CHECKING:  # the model and its alignment are imported when the command runs: its --help needs no torch
    from ..alignment import Method, MethodScore

METHOD_WORDS = {
    "attention": "one cross-attention head's weights",
    "average": "the mean of one layer's cross-attention heads",
    "norm": "cross-attention weighted by the norm of each source token's value vector, ‖α·f(x)‖",
    "saliency": "gradient × input of each target token's log-probability",
}


def register(sub: argparse._SubParsersAction) -> None:
    """The align command and its flags."""
    al = sub.add_parser(
        "align",
        help="link the words of every pair with a saved model (two words are linked when any of their pieces are); "
        "with gold links, the alignment error rate (AER) of every head and method",
    )
    add_model(al)
    required_file(
        al,
        "--pairs",
        "UTF-8 TSV or CSV file of source, target[, phenomena[, alignment]] rows; gold links are written i-j (sure) "
        "and i?j (possible), source word first, counted from 0 (a character for Chinese, a word or punctuation mark "
        "otherwise, whatever pieces the model reads), in the 4th column or in a column a header row names "
        "alignment",
    )
    al.add_argument(
        "--method",
        choices=ALIGN_METHODS,
        default="attention",
        help="how weights are read: " + "; ".join(f"{m}: {w}" for m, w in METHOD_WORDS.items()) + " (default: "
        "%(default)s)",
    )
    al.add_argument(
        "--layer",
        type=int,
        metavar="L",
        help="the layer, from 1 (default: for attention the best head on the gold links, for average and norm the "
        "last layer; saliency reads the whole model)",
    )
    al.add_argument(
        "--head",
        type=int,
        metavar="H",
        help="the head, from 1 (default: for attention the best head on the gold links; norm without a head weighs "
        "the layer's heads together)",
    )
    al.add_argument(
        "--out",
        type=Path,
        metavar="FILE",
        help="write the links there and the AER table on stdout (default: the links on stdout, the table on stderr)",
    )


def read_aligned_pairs(path: Path, tokenizer: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The pairs of a file and each one's alignment cell ("" when it has none); bad rows are refused."""
    data = read_limited(path, MAX_DATA_BYTES, "a pairs file (UTF-8 CSV or TSV)", DataError)
    pairs, _, cells = parse_aligned_pairs(data, str(path))
    errors = [p for p in check_pairs(pairs, tokenizer) if p.severity == "error"]
    if errors:
        raise TransformerError(f"{path}, {errors[0].message()}")
    return pairs, cells


def chosen_method(args: argparse.Namespace, cfg: TransformerConfig, gold: bool) -> Method | None:
    """The method the flags ask for (layers and heads from 1 become 0-based), checked against the model; None for
    attention without --layer and --head when the best head on the gold is to be chosen."""
    from ..alignment import Method, check_method

    layer = None if args.layer is None else args.layer - 1
    head = None if args.head is None else args.head - 1
    if args.method == "attention" and layer is None and head is None:
        if not gold:
            raise TransformerError(
                "--method attention needs --layer and --head when the pairs have no gold links to choose the best "
                "head by."
            )
        return None
    if args.method == "attention" and (layer is None or head is None):
        raise TransformerError("--method attention takes --layer and --head together: give both, or neither.")
    if args.method in ("average", "norm") and layer is None:
        if head is not None:
            raise TransformerError(f"--method {args.method} with --head needs --layer too.")
        layer = cfg.n_layers - 1
    if args.method == "saliency" and (layer is not None or head is not None):
        raise TransformerError("--method saliency reads the whole model: leave out --layer and --head.")
    method = Method(args.method, layer, head)
    try:
        check_method(method, cfg)
    except DataError as exc:
        flag = "--head" if args.head is not None and "head" in str(exc) else "--layer"
        raise TransformerError(f"{flag}: {exc}") from None
    return method


def table_lines(scores: list[MethodScore], cfg: TransformerConfig, n_pairs: int, n_gold: int) -> list[str]:
    """The AER table of n_pairs pairs (the first of n_gold with gold links): attention and norm by layer and head,
    with each layer's average or whole-layer norm; then saliency, and the best of each method."""
    from ..alignment import Method, best

    by = {s.method: s.score.aer for s in scores}

    def cell(method: Method) -> str:
        value = by.get(method)
        return f"{value:8.3f}" if value is not None else f"{'–':>8}"

    heads = "".join(f"{f'head {h + 1}':>8}" for h in range(cfg.n_heads))
    which = f"{n_pairs} pairs" if n_pairs == n_gold else f"the first {n_pairs:,} of the {n_gold:,} pairs"
    lines = [f"AER on {which} with gold links (0 = every link right, lower is better)"]
    for name, whole, title in (
        ("attention", "average", "cross-attention weights α"),
        ("norm", "norm", "weighted by value norms ‖α·f(x)‖"),
    ):
        lines += ["", f"{name}: {title}", f"{'layer':<6}{heads}{'layer':>8}"]
        for layer in range(cfg.n_layers):
            row = "".join(cell(Method(name, layer, h)) for h in range(cfg.n_heads))
            lines.append(f"{layer + 1:<6}{row}{cell(Method(whole, layer))}")
    lines += ["", f"saliency: gradient × input{cell(Method('saliency'))}", "", "best:"]
    for name in ALIGN_METHODS:
        top = best(scores, name)
        if top is not None:
            s = top.score
            shares = f"precision {s.precision or 0:.3f}  recall {s.recall or 0:.3f}"
            lines.append(f"  {top.method.label():<26} AER {s.aer:.3f}  {shares}")
    return lines


def run(args: argparse.Namespace) -> None:
    """Write one line of links per pair; with gold links, print the AER table and use the best head by default."""
    from ..alignment import aer_table, align, best, floor_score, format_links, read_gold
    from ..opening import open_model

    if args.out:
        check_writable(args.out, "--out", "links.txt")
    translator = open_model(args.model)
    cfg = translator.config
    pairs, cells = read_aligned_pairs(args.pairs, translator.tokenizer)
    golds, problems = read_gold(pairs, cells)  # links of words: a file's own tokens (characters for Chinese)
    for problem in problems:
        kept = "The pair is kept, without gold links."
        print(f"{visible(str(args.pairs))}, {visible(str(problem))} {kept}", file=sys.stderr)
    with_gold = [(p, g) for p, g in zip(pairs, golds) if g is not None]
    method = chosen_method(args, cfg, bool(with_gold))
    table = []
    if with_gold:
        measured = with_gold[:MAX_STUDY_PAIRS]  # the AER table reads as many pairs as the app's dataset views
        scores = aer_table(translator, [p for p, _ in measured], [g for _, g in measured])
        table = table_lines(scores, cfg, len(measured), len(with_gold))
        floor = floor_score([p for p, _ in measured], [g for _, g in measured], translator.tokenizer)
        if floor is not None:  # None: a word of several pieces can take several links
            table.append(
                f"(the best AER one link per target token can reach against this gold: {floor.aer:.3f}, "
                f"recall {floor.recall or 0:.3f})"
            )
        else:
            table.append("(links of words: two words are linked when any of their pieces are, Garg et al. 2019)")
        if method is None:
            method = best(scores, "attention").method
            table.append(f"(links by the best head: {method.label()})")
    lines = [format_links(links) for links in align(translator, pairs, method)]
    if args.out:
        try:
            args.out.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        except OSError as exc:
            raise TransformerError(f"cannot write {args.out}: {exc.strerror or exc}.") from None
        print(f"wrote the links of {len(lines):,} pairs ({method.label()}) to {visible(str(args.out))}")
        for line in table:
            print(line)
    else:
        for line in lines:
            print(line)
        for line in table:
            print(line, file=sys.stderr)
