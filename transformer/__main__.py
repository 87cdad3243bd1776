"""Command line: `python -m transformer train …` and `python -m transformer translate …`."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .checkpoint import load_checkpoint, save_checkpoint
from .config import MAX_BEAM_SIZE, MAX_DATA_BYTES, TrainConfig, TransformerConfig
from .data import TOKENIZERS, UNK, check_pairs, parse_pairs
from .errors import TransformerError
from .strategies import BeamSearch, SampleStep, beam_search, check_beam, check_sampling, sample
from .text import visible
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

    tr = sub.add_parser("translate", help="translate sentences with a saved model (greedy, beam search or sampling)")
    tr.add_argument("--model", required=True, type=Path, help="a .safetensors checkpoint")
    tr.add_argument("--steps", action="store_true", help="also print every step (top-3 tokens, or the beams)")
    tr.add_argument("--beam", type=int, metavar="K", help=f"beam search with K beams (1 to {MAX_BEAM_SIZE}; paper: 4)")
    tr.add_argument(
        "--length-penalty", type=float, metavar="A", help="beam search: score log P / ((5 + length) / 6)^A (paper: 0.6)"
    )
    tr.add_argument("--n-best", type=int, metavar="N", help="beam search: print the N best as log-prob<TAB>translation")
    tr.add_argument("--sample", action="store_true", help="draw every next token at random")
    tr.add_argument("--temperature", type=float, metavar="T", help="sampling: below 1 sharper, above 1 flatter")
    tr.add_argument("--top-k", type=int, metavar="K", help="sampling: draw only among the K most probable (0: all)")
    tr.add_argument("--top-p", type=float, metavar="P", help="sampling: draw only among the most probable with mass P")
    tr.add_argument("--seed", type=int, metavar="S", help="sampling: the same seed gives the same output (default 0)")
    tr.add_argument("sentences", nargs="+", metavar="SENTENCE")
    return parser


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


_SAMPLING_FLAGS = {"temperature": "--temperature", "top_k": "--top-k", "top_p": "--top-p", "seed": "--seed"}


def _check_strategy(args: argparse.Namespace) -> None:
    """One strategy at a time, each setting with its own strategy, every value in range."""
    if args.beam is not None and args.sample:
        raise TransformerError("--beam and --sample cannot be used together: pick one way of decoding.")
    if args.beam is None and (args.length_penalty is not None or args.n_best is not None):
        flag = "--length-penalty" if args.length_penalty is not None else "--n-best"
        raise TransformerError(f"{flag} needs --beam K (beam search).")
    loose = [flag for name, flag in _SAMPLING_FLAGS.items() if getattr(args, name) is not None]
    if loose and not args.sample:
        raise TransformerError(f"{loose[0]} needs --sample.")
    if args.beam is not None:
        check_beam(args.beam, args.length_penalty or 0.0, args.n_best)
    if args.sample:
        check_sampling(**_sampling_settings(args))


def _sampling_settings(args: argparse.Namespace) -> dict:
    return {name: getattr(args, name) for name in _SAMPLING_FLAGS if getattr(args, name) is not None}


def _top3(probs, vocab) -> str:
    top = probs.topk(min(3, probs.numel()))
    return "  ".join(f"{visible(vocab.itos[i])} {p:.3f}" for p, i in zip(top.values.tolist(), top.indices.tolist()))


def _print_steps(steps, stop_reason: str, vocab) -> None:
    """Greedy or sampling steps: the decoder input, the token chosen, the top 3 of the distribution it came from."""
    for step in steps:
        probs = step.final if isinstance(step, SampleStep) else step.probs
        words = visible(" ".join(step.dec_input))
        print(f"  step {step.step}: {words} → {visible(step.token)}   [{_top3(probs, vocab)}]")
    print(f"  stopped: {'E reached' if stop_reason == 'eos' else 'length cap reached'}")


def _print_beam_steps(result: BeamSearch) -> None:
    """Beam search steps: the beams kept and the hypotheses finished, with log-probabilities, and how many pruned."""
    for step in result.steps:
        paths = {"kept": [], "finished": [], "pruned": []}
        for c in sorted(step.candidates, key=lambda c: c.log_prob, reverse=True):
            words = " ".join(step.beams[c.parent][1:] + [c.token])
            paths[c.status].append(f"{visible(words)} {c.log_prob:.3f}")
        kept, finished = " | ".join(paths["kept"]) or "-", " | ".join(paths["finished"]) or "-"
        print(f"  step {step.step}: kept {kept}   finished {finished}   pruned {len(paths['pruned'])}")
    reason = "length cap reached" if result.stop_reason == "max_len" else f"{result.beam_size} hypotheses finished"
    print(f"  stopped: {reason}")


def _translate(args: argparse.Namespace) -> None:
    _check_strategy(args)
    translator = load_checkpoint(args.model)
    model, vocab = translator.model, translator.tgt_vocab
    for sentence in args.sentences:
        enc_input, _, unknown = translator.encode_source(sentence)
        if unknown:
            print(f"  (unknown words read as {UNK}: {visible(' '.join(unknown))})", file=sys.stderr)
        if args.beam is not None:
            result = beam_search(model, enc_input, vocab, args.beam, args.length_penalty or 0.0, n_best=args.n_best)
            if args.n_best is None:
                print(visible(result.best.text))
            for hypothesis in result.hypotheses if args.n_best is not None else []:
                print(f"{hypothesis.score:.4f}\t{visible(hypothesis.text)}")
            if args.steps:
                _print_beam_steps(result)
            if args.n_best is not None:
                print()
            continue
        if args.sample:
            result = sample(model, enc_input, vocab, **_sampling_settings(args))
        else:
            result = translator.translate(sentence, return_attn=False)
        print(visible(result.text))
        if args.steps:
            _print_steps(result.steps, result.stop_reason, vocab)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; bad input gives one line on stderr and exit status 2."""
    args = _parser().parse_args(argv)
    try:
        (_train if args.command == "train" else _translate)(args)
    except TransformerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
