"""`python -m transformer trace`: print every tensor of one teacher-forced forward pass of a sentence pair."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import TransformerError
from ..text import visible
from .common import add_model, add_numbers, check_writable

SHOW_VALUES = 64  # tensors of at most this many numbers have their values printed


def _count(text: str) -> int:
    """A whole number of at least 0, for argparse."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, got {text!r}")
    return int(text)


def register(sub: argparse._SubParsersAction) -> None:
    """The trace command and its flags."""
    tc = sub.add_parser("trace", help="print every tensor of one teacher-forced forward pass of a sentence pair")
    add_model(tc)
    tc.add_argument("source", metavar="SOURCE", help="the source sentence")
    tc.add_argument("--target", help="the reference translation (default: the model's own greedy output)")
    add_numbers(
        tc,
        ("--pad-source", _count, 0, "N", "padding positions after the source"),
        ("--pad-target", _count, 0, "N", "padding positions after the target"),
    )
    tc.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="also write every step with its full values as JSON (default: not written)",
    )


def run(args: argparse.Namespace) -> None:
    """Print the pass step by step (the values of small tensors), its loss, and write it as JSON when asked."""
    from ..opening import open_model
    from ..trace import format_values, trace_sentence

    if args.json:
        check_writable(args.json, "--json")
    translator = open_model(args.model)
    trace = trace_sentence(translator, args.source, args.target, args.pad_source, args.pad_target)
    if trace.unknown:
        unk = translator.src_vocab.itos[translator.src_vocab.unk_id]
        print(f"(unknown words read as {unk}: {visible(' '.join(trace.unknown))})", file=sys.stderr)
    print(f"enc_inputs:  {visible(' '.join(trace.src_tokens))}")
    print(f"dec_inputs:  {visible(' '.join(trace.dec_tokens))}")
    print(f"dec_outputs: {visible(' '.join(trace.tgt_tokens))}")
    if trace.teacher == "greedy":
        print("(no --target: teacher forcing on the model's own greedy output)")
    for step in trace.steps:
        print(f"\n[{step.index + 1}] {step.name}  ({step.where})  {step.shape_text()}")
        if step.code:
            print(f"    {step.code}")
        if step.tensor.numel() <= SHOW_VALUES:
            print(format_values(step.tensor))
    print(f"\nloss = {trace.loss:.4f}")
    if args.json:
        try:
            args.json.write_text(trace.to_json(), encoding="utf-8")
        except OSError as exc:
            raise TransformerError(f"cannot write {args.json}: {exc.strerror or exc}.") from None
        print(f"wrote {len(trace.steps)} steps to {visible(str(args.json))}")
