"""Command line: `python -m transformer train …`, `python -m transformer translate …` and `python -m transformer
trace …`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .checkpoint import load_checkpoint, save_checkpoint
from .config import MAX_DATA_BYTES, TrainConfig, TransformerConfig
from .data import TOKENIZERS, check_pairs, parse_pairs
from .errors import TransformerError
from .text import visible
from .trace import format_values, json_values, trace_sentence
from .train import train
from .translator import Translator


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        sys.stderr.write(f"error: {message} (see --help)\n")
        sys.exit(2)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m transformer", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    defaults, model = TrainConfig(), TransformerConfig(1, 1)

    t = sub.add_parser("train", help="train a model on sentence pairs and save it")
    t.add_argument("--pairs", required=True, type=Path, help="UTF-8 TSV or CSV file: source, target (header optional)")
    t.add_argument("--out", required=True, type=Path, help="where to write MODEL.safetensors")
    t.add_argument("--epochs", type=int, default=defaults.epochs)
    t.add_argument("--d-model", type=int, default=model.d_model)
    t.add_argument("--d-ff", type=int, default=model.d_ff)
    t.add_argument("--n-heads", type=int, default=model.n_heads)
    t.add_argument("--n-layers", type=int, default=model.n_layers)
    t.add_argument("--dropout", type=float, default=model.dropout)
    t.add_argument("--lr", type=float, default=defaults.lr)
    t.add_argument("--batch-size", type=int, default=defaults.batch_size)
    t.add_argument("--seed", type=int, default=defaults.seed)
    t.add_argument("--tokenizer", choices=TOKENIZERS, default="auto")

    tr = sub.add_parser("translate", help="translate sentences with a saved model (greedy decoding)")
    tr.add_argument("--model", required=True, type=Path, help="a .safetensors checkpoint")
    tr.add_argument("--steps", action="store_true", help="also print every greedy step with its top-3 tokens")
    tr.add_argument("sentences", nargs="+", metavar="SENTENCE")

    tc = sub.add_parser("trace", help="print every tensor of one teacher-forced forward pass of a sentence pair")
    tc.add_argument("--model", required=True, type=Path, help="a .safetensors checkpoint")
    tc.add_argument("source", metavar="SOURCE", help="the source sentence")
    tc.add_argument("--target", help="the reference translation (default: the model's own greedy output)")
    tc.add_argument("--pad-source", type=_count, default=0, metavar="N", help="padding positions after the source")
    tc.add_argument("--pad-target", type=_count, default=0, metavar="N", help="padding positions after the target")
    tc.add_argument("--json", type=Path, metavar="FILE", help="also write every step with its full values as JSON")
    return parser


def _count(text: str) -> int:
    """A whole number of at least 0, for argparse."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, got {text!r}")
    return int(text)


def _read_pairs(path: Path, tokenizer: str) -> list[tuple[str, str]]:
    try:
        if path.stat().st_size > MAX_DATA_BYTES:
            raise TransformerError(f"{path} is larger than {MAX_DATA_BYTES:,} bytes: use a smaller file.")
        data = path.read_bytes()
    except OSError as exc:
        raise TransformerError(f"cannot read {path}: {exc.strerror or exc}.") from None
    pairs = parse_pairs(data, str(path))
    errors = [p for p in check_pairs(pairs, tokenizer) if p.severity == "error"]
    if errors:
        raise TransformerError(f"{path}, {errors[0].message()}")
    return pairs


def _train(args: argparse.Namespace) -> None:
    pairs = _read_pairs(args.pairs, args.tokenizer)
    cfg = TrainConfig(epochs=args.epochs, lr=args.lr, batch_size=args.batch_size, seed=args.seed)
    translator = Translator.create(
        pairs,
        args.tokenizer,
        args.seed,
        d_model=args.d_model,
        d_ff=args.d_ff,
        n_heads=args.n_heads,
        n_layers=args.n_layers,
        dropout=args.dropout,
    )
    print(
        f"{len(pairs)} pairs, {translator.model.num_parameters():,} parameters, "
        f"vocabularies {len(translator.src_vocab)} / {len(translator.tgt_vocab)} tokens"
    )
    every = max(1, cfg.epochs // 10)
    start = time.perf_counter()
    for record in train(translator, pairs, cfg):
        if record.epoch % every == 0 or record.epoch == cfg.epochs:
            print(f"epoch {record.epoch:4d}  loss {record.loss:.4f}  token accuracy {record.accuracy:6.1%}")
    results = translator.exact_match(pairs)
    exact = sum(ok for *_, ok in results) / len(results)
    translator.summary["exact_match"] = exact
    seconds = time.perf_counter() - start
    try:
        save_checkpoint(translator, args.out)
    except OSError as exc:
        raise TransformerError(f"cannot write {args.out}: {exc.strerror or exc}.") from None
    print(
        f"done: loss {record.loss:.4f}, exact match {exact:.1%} ({sum(ok for *_, ok in results)}/{len(results)}), "
        f"{seconds:.1f} s; saved {args.out}"
    )


def _translate(args: argparse.Namespace) -> None:
    translator = load_checkpoint(args.model)
    for sentence in args.sentences:
        result = translator.translate(sentence, return_attn=False)
        print(result.text)
        if result.unknown:
            print(
                f"  (unknown words read as {translator.src_vocab.itos[translator.src_vocab.unk_id]}: "
                f"{' '.join(result.unknown)})",
                file=sys.stderr,
            )
        if args.steps:
            for step in result.steps:
                top = step.probs.topk(min(3, step.probs.numel()))
                alternatives = "  ".join(
                    f"{translator.tgt_vocab.itos[i]} {p:.3f}" for p, i in zip(top.values.tolist(), top.indices.tolist())
                )
                print(f"  step {step.step}: {' '.join(step.dec_input)} → {step.token}   [{alternatives}]")
            reason = "E reached" if result.stop_reason == "eos" else "length cap reached"
            print(f"  stopped: {reason}")


SHOW_VALUES = 64  # tensors of at most this many numbers have their values printed


def _trace(args: argparse.Namespace) -> None:
    translator = load_checkpoint(args.model)
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
        steps = [
            {
                "name": s.name,
                "where": s.where,
                "shape": list(s.shape),
                "axes": list(s.axes),
                "code": s.code,
                "values": json_values(s.tensor),
            }
            for s in trace.steps
        ]
        tokens = {"src_tokens": trace.src_tokens, "dec_tokens": trace.dec_tokens, "tgt_tokens": trace.tgt_tokens}
        try:
            args.json.write_text(json.dumps({**tokens, "steps": steps}, ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            raise TransformerError(f"cannot write {args.json}: {exc.strerror or exc}.") from None
        print(f"wrote {len(steps)} steps to {visible(str(args.json))}")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; bad input gives one line on stderr and exit status 2."""
    args = _parser().parse_args(argv)
    try:
        {"train": _train, "translate": _translate, "trace": _trace}[args.command](args)
    except TransformerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
