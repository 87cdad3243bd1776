"""Command line: `python -m transformer corpus …`, `… train …`, `… evaluate …`, `… translate …`, `… trace …` and
`… store list|remove|prune`.

Bad input gives one line `error: …` on stderr and exit status 2; text from files (tokens, sentences, messages that
quote them) is printed with control and escape characters made visible (transformer.text.visible).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

from . import corpus
from .checkpoint import (
    MAX_HELD_OUT_CHARS,
    MAX_HELD_OUT_ITEMS,
    checkpoint_bytes,
    fits_in_a_checkpoint,
    load_checkpoint,
    save_checkpoint,
)
from .config import (
    MAX_BEAM_SIZE,
    MAX_CHECKPOINT_BYTES,
    MAX_DATA_BYTES,
    MAX_EPOCHS,
    MAX_LENGTH_PENALTY,
    MAX_SEED,
    NORM_KINDS,
    PE_KINDS,
    SIZE_LIMITS,
    TrainConfig,
    TransformerConfig,
)
from .data import TOKENIZERS, UNK, build_vocabs, check_pairs, parse_tagged_pairs
from .decoding import BeamSearch, SampleStep, beam_search, check_beam, check_sampling, sample
from .errors import ConfigError, DataError, TransformerError
from .files import read_limited
from .model import parameter_count
from .scores import ALL, PHENOMENA, ScoreTable, score_pairs, table_of
from .splits import SPLITS, pairs_sha256, split_pairs
from .store import MAX_BYTES_ENV, MAX_MODELS_ENV, STORE_ENV, ModelStore
from .text import visible
from .trace import format_values, trace_sentence
from .train import train
from .translator import Translator

N_BEST_HEADER = "score\tlog-prob\ttranslation"  # the columns --n-best prints
_N_BEST_SHOWN = N_BEST_HEADER.replace("\t", "<TAB>")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        sys.stderr.write(f"error: {visible(message)} (see --help)\n")
        sys.exit(2)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m transformer", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    defaults, model = TrainConfig(), TransformerConfig(1, 1)

    c = sub.add_parser("corpus", help="write the teaching corpus: zh→en pairs tagged with the phenomena they show")
    c.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="FILE",
        help="where to write the TSV of source, target, phenomena (checked first); required",
    )
    c.add_argument(
        "--size",
        type=int,
        default=corpus.DEFAULT_SIZE,
        metavar="N",
        help=f"distinct pairs drawn from the grammar, 1 to {corpus.max_size():,} (default: %(default)s)",
    )
    c.add_argument(
        "--seed",
        type=int,
        default=corpus.DEFAULT_SEED,
        metavar="S",
        help=f"the same size and seed give the same pairs, 0 to {MAX_SEED:,} (default: %(default)s)",
    )

    t = sub.add_parser("train", help="train a model on sentence pairs and save it")
    t.add_argument(
        "--pairs",
        required=True,
        type=Path,
        metavar="FILE",
        help="UTF-8 TSV or CSV file of source, target pairs (header optional), and optionally a third column of "
        "phenomena; required",
    )
    t.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="FILE",
        help="where to write the .safetensors checkpoint (checked before training); required",
    )
    t.add_argument(
        "--epochs",
        type=int,
        default=defaults.epochs,
        metavar="N",
        help=f"passes over the training pairs, 1 to {MAX_EPOCHS:,} (default: %(default)s)",
    )
    t.add_argument(
        "--d-model",
        type=int,
        default=model.d_model,
        metavar="N",
        help="size of each token's vector (default: %(default)s)",
    )
    t.add_argument(
        "--d-ff",
        type=int,
        default=model.d_ff,
        metavar="N",
        help="inner size of each feed-forward layer (default: %(default)s)",
    )
    t.add_argument(
        "--n-heads",
        type=int,
        default=model.n_heads,
        metavar="N",
        help="attention heads per layer; must divide --d-model (default: %(default)s)",
    )
    t.add_argument(
        "--n-layers",
        type=int,
        default=model.n_layers,
        metavar="N",
        help="layers in the encoder and in the decoder (default: %(default)s)",
    )
    t.add_argument(
        "--dropout",
        type=float,
        default=model.dropout,
        metavar="P",
        help="dropout probability while training, at least 0 and below 1 (default: %(default)s)",
    )
    t.add_argument(
        "--lr",
        type=float,
        default=defaults.lr,
        metavar="LR",
        help="Adam's learning rate, above 0 and at most 1 (default: %(default)s)",
    )
    t.add_argument(
        "--batch-size",
        type=int,
        default=defaults.batch_size,
        metavar="N",
        help="pairs per training step (default: %(default)s)",
    )
    t.add_argument(
        "--seed",
        type=int,
        default=defaults.seed,
        metavar="S",
        help=f"seed of the initial weights, the batches and the split, 0 to {MAX_SEED:,} (default: %(default)s)",
    )
    t.add_argument(
        "--tokenizer",
        choices=TOKENIZERS,
        default="auto",
        help="auto: every Chinese character is a "
        "token, other text is split at spaces and punctuation; whitespace: at spaces only; char: every "
        "character (default: %(default)s)",
    )
    t.add_argument(
        "--holdout",
        type=float,
        default=0.0,
        metavar="FRACTION",
        help="share of the pairs held out of training and scored apart, at least 0 and below 1 (default: %(default)s)",
    )
    t.add_argument(
        "--split",
        choices=SPLITS,
        help="which pairs --holdout holds out: "
        + "; ".join(f"{kind}: {text}" for kind, text in _SPLIT_HELP.items())
        + " (default: random)",
    )
    t.add_argument(
        "--also",
        type=Path,
        metavar="FILE",
        help="more pairs, always trained on and never held out, e.g. assets/pairs.tsv beside the corpus (default: "
        "none)",
    )
    arch = t.add_argument_group(
        "architecture switches",
        "Experiments. The defaults are the paper's architecture, except for three details the tutorials share: no "
        "√d_model scaling of the embeddings, an output projection not tied to the target embeddings, no label "
        "smoothing.",
    )
    arch.add_argument("--no-look-ahead-mask", action="store_true", help="the decoder may see later target tokens")
    arch.add_argument("--no-pad-mask", action="store_true", help="attention may look at padding")
    arch.add_argument(
        "--pe",
        choices=PE_KINDS,
        default=model.pe,
        help="positional encoding: the paper's sinusoidal table, a learned table, or none (default: %(default)s)",
    )
    arch.add_argument("--no-scale", action="store_true", help="no division of the scores by √d_k")
    arch.add_argument("--no-residual", action="store_true", help="no residual connections")
    arch.add_argument(
        "--norm",
        choices=NORM_KINDS,
        default=model.norm,
        help="LayerNorm after each residual sum "
        "(post, the paper), before each sublayer (pre), or none (default: %(default)s)",
    )

    ev = sub.add_parser(
        "evaluate",
        help="score a saved model on sentence pairs: exact match, token accuracy, BLEU and chrF by phenomenon and part",
    )
    ev.add_argument("--model", required=True, type=Path, metavar="FILE", help="a .safetensors checkpoint; required")
    ev.add_argument(
        "--pairs",
        required=True,
        type=Path,
        metavar="FILE",
        help="UTF-8 TSV or CSV file of source, target[, phenomena] pairs; when the model was trained on this file, the "
        "rows it held out are scored apart from the rows it trained on; required",
    )

    tr = sub.add_parser("translate", help="translate sentences with a saved model (greedy, beam search or sampling)")
    tr.add_argument("--model", required=True, type=Path, metavar="FILE", help="a .safetensors checkpoint; required")
    tr.add_argument("--steps", action="store_true", help="also print every step (top-3 tokens, or the beams)")
    tr.add_argument(
        "--beam",
        type=int,
        metavar="K",
        help=f"beam search with K beams, 1 to {MAX_BEAM_SIZE} (paper: 4; default: greedy decoding)",
    )
    tr.add_argument(
        "--length-penalty",
        type=float,
        metavar="A",
        help="beam search: score = log-prob / ((5 + length) / 6)^A, A "
        f"from 0 to {MAX_LENGTH_PENALTY:g} (paper: 0.6; default: 0, the score is the log-prob)",
    )
    tr.add_argument(
        "--n-best",
        type=int,
        metavar="N",
        help=f"beam search: print the N best, one per line, under the header line {_N_BEST_SHOWN}: "
        "score is the length-normalised log-probability (see --length-penalty), log-prob the log-probability of the "
        "tokens and E (default: only the best translation, without numbers)",
    )
    tr.add_argument("--sample", action="store_true", help="draw every next token at random")
    tr.add_argument(
        "--temperature",
        type=float,
        metavar="T",
        help="sampling: the logits are divided by T, any number above 0; below 1 sharper, above 1 flatter (default: 1)",
    )
    tr.add_argument(
        "--top-k", type=int, metavar="K", help="sampling: draw only among the K most probable tokens (default: 0, all)"
    )
    tr.add_argument(
        "--top-p",
        type=float,
        metavar="P",
        help="sampling: draw only among the fewest most probable "
        "tokens whose probabilities add up to P, above 0 and at most 1 (default: 1, all)",
    )
    tr.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help=f"sampling: seed of the draws, 0 to {MAX_SEED:,}; the same seed gives the same output (default: 0)",
    )
    tr.add_argument(
        "sentences", nargs="+", metavar="SENTENCE", help="a sentence to translate (quote it if it has spaces)"
    )

    tc = sub.add_parser("trace", help="print every tensor of one teacher-forced forward pass of a sentence pair")
    tc.add_argument("--model", required=True, type=Path, metavar="FILE", help="a .safetensors checkpoint; required")
    tc.add_argument("source", metavar="SOURCE", help="the source sentence")
    tc.add_argument("--target", help="the reference translation (default: the model's own greedy output)")
    tc.add_argument(
        "--pad-source",
        type=_count,
        default=0,
        metavar="N",
        help="padding positions after the source (default: %(default)s)",
    )
    tc.add_argument(
        "--pad-target",
        type=_count,
        default=0,
        metavar="N",
        help="padding positions after the target (default: %(default)s)",
    )
    tc.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="also write every step with its full values as JSON (default: not written)",
    )

    st = sub.add_parser(
        "store",
        help="the published models (the app's Publish button)",
        description=f"The folder of published models: {STORE_ENV} (default: transformer-playground/models in the "
        f"user's cache), at most {MAX_MODELS_ENV} models and {MAX_BYTES_ENV} bytes.",
    )
    actions = st.add_subparsers(dest="action", required=True, parser_class=_Parser)
    actions.add_parser("list", help="every published model: fingerprint, size, dates, name")
    rm = actions.add_parser("remove", help="delete one published model")
    rm.add_argument("hash", metavar="HASH", help="its fingerprint (16 hex digits, or 8 that start only it)")
    actions.add_parser(
        "prune", help="delete damaged files, then the least recently opened models until within the limits"
    )
    return parser


_SPLIT_HELP = {
    "random": "pairs drawn at random",
    "combination": "pairings of a subject and a verb, or a verb and an object, never trained on",
    "length": "targets longer than every training target",
    "word": "every pair holding a word never trained on",
}


def _count(text: str) -> int:
    """A whole number of at least 0, for argparse."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, got {text!r}")
    return int(text)


def _read_pairs(path: Path, tokenizer: str) -> tuple[list[tuple[str, str]], list[tuple[str, ...]]]:
    """The pairs of a file and each one's phenomena tags (empty when the file has none); bad rows are refused."""
    data = read_limited(path, MAX_DATA_BYTES, "a pairs file (UTF-8 CSV or TSV)", DataError)
    pairs, tags = parse_tagged_pairs(data, str(path))
    errors = [p for p in check_pairs(pairs, tokenizer) if p.severity == "error"]
    if errors:
        raise TransformerError(f"{path}, {errors[0].message()}")
    return pairs, tags


def _check_heads(d_model: int, n_heads: int) -> None:
    """A sentence naming the --n-heads values that fit when n_heads does not divide d_model."""
    if 1 <= d_model <= SIZE_LIMITS["d_model"] and n_heads >= 1 and d_model % n_heads:
        fitting = [h for h in range(1, min(d_model, SIZE_LIMITS["n_heads"]) + 1) if d_model % h == 0]
        raise ConfigError(
            f"--n-heads {n_heads} does not divide --d-model {d_model}: use one of --n-heads "
            f"{', '.join(map(str, fitting))}, or another --d-model."
        )


def _check_checkpoint_size(
    sizes: dict, pairs: list[tuple[str, str]], tokenizer: str, epochs: int, held_out: int
) -> None:
    """Refuse sizes whose checkpoint the loader would refuse, before anything is built."""
    src_vocab, tgt_vocab = build_vocabs(pairs, tokenizer)
    model = TransformerConfig(len(src_vocab), len(tgt_vocab), **sizes)
    size = checkpoint_bytes(model, src_vocab, tgt_vocab, epochs, held_out)
    if not fits_in_a_checkpoint(model, src_vocab, tgt_vocab, epochs, held_out):
        raise ConfigError(
            f"these sizes make a model of {parameter_count(model):,} parameters, whose checkpoint would take up to "
            f"{size:,} bytes, more than the {MAX_CHECKPOINT_BYTES:,} a checkpoint may have: choose a smaller "
            "--d-model, --d-ff or --n-layers."
        )


def _scores(loss: float, table: ScoreTable, part: str) -> str:
    """loss, teacher-forced token accuracy, greedy exact match, BLEU and chrF of one part, as the done line gives
    them."""
    s = table.get(ALL, part)
    return (
        f"loss {loss:.4f}, token accuracy {s.token_accuracy:.1%}, exact match {s.exact_match:.1%} "
        f"({s.exact}/{s.pairs}), BLEU {s.bleu:.1f}, chrF {s.chrf:.1f}"
    )


def _known_rows(table: ScoreTable) -> ScoreTable:
    """The table's rows of every pair and of the corpus's phenomena (a checkpoint keeps no other tag)."""
    rows = tuple(r for r in table.rows if r == ALL or r in PHENOMENA)
    return ScoreTable(rows, table.parts, {k: v for k, v in table.cells.items() if k[0] in rows})


def _check_writable(path: Path, flag: str, example: str = "model.safetensors") -> None:
    """Before any work: a file can be written at path (not a folder; its folder exists and may be written in)."""
    if path.is_dir():
        raise TransformerError(f"{flag} {path} is a folder: give a file name, such as {path / example}.")
    folder = path.parent
    if not folder.is_dir():
        raise TransformerError(f"{flag} {path}: the folder {folder} does not exist: create it, or choose another.")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise TransformerError(f"{flag} {path}: this file cannot be written (permission denied): choose another.")


def _corpus(args: argparse.Namespace) -> None:
    _check_writable(args.out, "--out", "corpus.tsv")
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
    print("phenomena: " + ", ".join(f"{tag} {counts[tag]:,}" for tag in PHENOMENA if counts[tag]))


def _train(args: argparse.Namespace) -> None:
    _check_writable(args.out, "--out")
    all_pairs, all_tags = _read_pairs(args.pairs, args.tokenizer)
    also, also_tags = _read_pairs(args.also, args.tokenizer) if args.also else ([], [])
    cfg = TrainConfig(epochs=args.epochs, lr=args.lr, batch_size=args.batch_size, seed=args.seed)
    _check_heads(args.d_model, args.n_heads)
    if args.split is not None and args.holdout == 0:
        raise ConfigError(f"--split {args.split} needs --holdout FRACTION above 0: the share of pairs to hold out.")
    split = split_pairs(all_pairs, args.split or "random", args.holdout, args.seed, args.tokenizer, always_train=also)
    pairs = [all_pairs[i] for i in split.train] + also  # the --also pairs come last
    holdout = [all_pairs[i] for i in split.held]
    tags = [all_tags[i] for i in split.train] + also_tags + [all_tags[i] for i in split.held]
    sizes = dict(
        d_model=args.d_model,
        d_ff=args.d_ff,
        n_heads=args.n_heads,
        n_layers=args.n_layers,
        dropout=args.dropout,
        look_ahead_mask=not args.no_look_ahead_mask,
        pad_mask=not args.no_pad_mask,
        pe=args.pe,
        scale=not args.no_scale,
        residual=not args.no_residual,
        norm=args.norm,
    )
    _check_checkpoint_size(sizes, pairs, args.tokenizer, cfg.epochs, len(holdout))
    translator = Translator.create(pairs, args.tokenizer, args.seed, **sizes)
    variant = ", ".join(f"{k}={v}" for k, v in translator.config.variant.items())
    print(
        f"{len(pairs)} pairs" + (f" (+{len(holdout)} held out)" if holdout else "") + ", "
        f"{translator.model.num_parameters():,} parameters, "
        f"vocabularies {len(translator.src_vocab)} / {len(translator.tgt_vocab)} tokens"
        + (f"; variant: {variant}" if variant else "")
    )
    if holdout:
        print(visible(split.describe()))
    every = max(1, cfg.epochs // 10)
    for record in train(translator, pairs, cfg, holdout=holdout or None):
        if record.epoch % every == 0 or record.epoch == cfg.epochs:
            held_out = (
                ""
                if record.holdout_loss is None
                else (f"  held out: loss {record.holdout_loss:.4f}  token accuracy {record.holdout_accuracy:6.1%}")
            )
            print(f"epoch {record.epoch:4d}  loss {record.loss:.4f}  token accuracy {record.accuracy:6.1%}{held_out}")
    parts = ["train"] * len(pairs) + ["holdout"] * len(holdout)
    evaluations = [translator.evaluate(part) for part in (pairs, holdout) if part]  # each pair decoded once
    table = table_of([p for evaluation in evaluations for p in evaluation.scored], tags, parts)
    translator.summary.update(
        exact_match=table.get(ALL, "train").exact_match,
        data_sha256=pairs_sha256(all_pairs),  # the rows of holdout_rows are rows of these pairs
        always_trained=len(also),
        scores=_known_rows(table).to_dict(),
    )
    line = f"done: {_scores(evaluations[0].loss, table, 'train')}"
    if holdout:
        held_out = split.held_out[:MAX_HELD_OUT_ITEMS]
        translator.summary.update(
            holdout_exact_match=table.get(ALL, "holdout").exact_match,
            holdout_rows=split.held,
            split={
                "kind": split.kind,
                "holdout": args.holdout,
                "seed": args.seed,
                "held_out": [x[:MAX_HELD_OUT_CHARS] for x in held_out],
            },
        )
        line += f"; held out: {_scores(evaluations[1].loss, table, 'holdout')}"
    try:
        save_checkpoint(translator, args.out)
    except OSError as exc:
        raise TransformerError(f"cannot write {args.out}: {exc.strerror or exc}.") from None
    print(f"{line}, {translator.summary['seconds']:.1f} s")
    print(f"saved {visible(str(args.out))}")


def _evaluate(args: argparse.Namespace) -> None:
    translator = load_checkpoint(args.model)
    pairs, tags = _read_pairs(args.pairs, translator.tokenizer)
    summary = translator.summary
    if summary.get("data_sha256") == pairs_sha256(pairs):
        held = {i for i in summary.get("holdout_rows", []) if i < len(pairs)}
        parts = ["holdout" if i in held else "train" for i in range(len(pairs))]
        print(
            f"{len(pairs)} pairs: the model was trained on this file, {len(pairs) - len(held)} of them trained on and "
            f"{len(held)} held out (the rows its checkpoint records)"
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
    for line in table.lines({"train": "trained on", "holdout": "held out"}):
        print(visible(line))


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
    if result.stop_reason == "max_len":
        reason = "length cap reached"
    else:
        best = "best hypothesis" if result.beam_size == 1 else f"{result.beam_size} best hypotheses"
        reason = f"no beam alive could still enter the {best}"
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
            else:
                print(N_BEST_HEADER)
            for hypothesis in result.hypotheses if args.n_best is not None else []:
                print(f"{hypothesis.score:.4f}\t{hypothesis.log_prob:.4f}\t{visible(hypothesis.text)}")
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


SHOW_VALUES = 64  # tensors of at most this many numbers have their values printed


def _trace(args: argparse.Namespace) -> None:
    if args.json:
        _check_writable(args.json, "--json")
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
        try:
            args.json.write_text(trace.to_json(), encoding="utf-8")
        except OSError as exc:
            raise TransformerError(f"cannot write {args.json}: {exc.strerror or exc}.") from None
        print(f"wrote {len(trace.steps)} steps to {visible(str(args.json))}")


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def _store(args: argparse.Namespace) -> None:
    store = ModelStore.from_env()
    if args.action == "remove":
        entry = store.remove(args.hash)
        print(f"removed {entry.hash} ({entry.size:,} bytes) {visible(entry.name)}".rstrip())
        return
    if args.action == "prune":
        removed = store.prune()
        for line in removed:
            print(f"removed {visible(line)}")
        if not removed:
            print("nothing to remove")
    entries = sorted(store.entries(), key=lambda e: e.opened, reverse=True)
    total = sum(e.size for e in entries)
    print(
        f"{visible(str(store.folder))}: {len(entries)} models of at most {store.max_models}, "
        f"{total:,} bytes of at most {store.max_bytes:,}"
    )
    if args.action == "list":
        for e in entries:
            print(
                f"{e.hash}  {e.size:>12,} bytes  published {e.published_date or '?':10}  "
                f"last opened {_when(e.opened)}  {visible(e.name)}".rstrip()
            )
        damaged = store.damaged()
        if damaged:
            print(f"{len(damaged)} damaged file(s) set aside, never served: `store prune` deletes them")


COMMANDS = {
    "corpus": _corpus,
    "train": _train,
    "evaluate": _evaluate,
    "translate": _translate,
    "trace": _trace,
    "store": _store,
}
INTERRUPTED = 130  # exit status after Ctrl-C, as a shell reports a command ended by SIGINT (128 + 2)
PIPE_CLOSED = 141  # exit status when the reader of the output has gone (`… | head`), 128 + SIGPIPE


def main(argv: list[str] | None = None) -> int:
    """Run the command line; bad input gives one line on stderr and exit status 2. Ctrl-C and a closed output pipe
    end it quietly, as they end other command-line tools."""
    args = _parser().parse_args(argv)
    try:
        COMMANDS[args.command](args)
        sys.stdout.flush()  # a reader that has gone shows here, not in the interpreter's last flush
    except TransformerError as exc:
        print(f"error: {visible(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # nothing is written before training ends, so nothing is half-written
        return INTERRUPTED
    except BrokenPipeError:
        _discard_output()
        return PIPE_CLOSED
    return 0


def _discard_output() -> None:
    """Send what is left in stdout's buffer nowhere, so that exiting does not fail on the closed pipe again."""
    with contextlib.suppress(OSError, ValueError):  # stdout is not a file (a test's capture): nothing to redirect
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
