"""`python -m transformer train`: train a model on sentence pairs, holding some out, and save it (transformer.plan)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..bpe import DEFAULT_BPE_VOCAB_SIZE, Bpe, check_vocab_size, tokenizer_for
from ..columns import credit
from ..config import (
    DECAY_AFTER,
    MAX_BPE_VOCAB_SIZE,
    MAX_CHECKPOINT_BYTES,
    MAX_EPOCHS,
    MAX_SEED,
    MAX_WARMUP,
    NORM_KINDS,
    PE_KINDS,
    SIZE_LIMITS,
    TrainConfig,
    TransformerConfig,
    heads_dividing,
)
from ..credits import credits_of
from ..data import TOKENIZERS
from ..errors import ConfigError, DataError, TransformerError
from ..recipe import steps_per_epoch, under_trained, verdict_line
from ..splits import SPLITS, share_met, split_pairs
from ..text import echo, visible
from .common import add_columns, add_numbers, check_writable, read_table, refuse_bad_rows, required_file
from .recipe_flags import recipe_settings, register_recipe

if TYPE_CHECKING:  # the model, its training and its scores are imported when the command runs: --help needs no torch
    from ..plan import TrainingPlan
    from ..scores import ScoreTable

_SPLIT_HELP = {
    "random": "pairs drawn at random",
    "combination": "pairings of a subject and a verb, or a verb and an object, never trained on",
    "length": "targets longer than every training target",
    "word": "every pair holding a word never trained on",
}


class Given(int):
    """A number given on the command line (its flag's default is a plain int): --epochs beside --steps is ignored,
    and the command says so."""


_SWITCHES = (  # the architecture switches in the order --help lists them: (config field, help, choices or None)
    ("look_ahead_mask", "the decoder may see later target tokens", None),
    ("pad_mask", "attention may look at padding", None),
    ("pe", "positional encoding: the paper's sinusoidal table, a learned table, or none", PE_KINDS),
    ("scale", "no division of the scores by √d_k", None),
    ("residual", "no residual connections", None),
    ("norm", "LayerNorm after each residual sum (post, the paper), before each sublayer (pre), or none", NORM_KINDS),
)


def register(sub: argparse._SubParsersAction) -> None:
    """The train command and its flags."""
    t = sub.add_parser("train", help="train a model on sentence pairs and save it")
    required_file(
        t,
        "--pairs",
        "UTF-8 TSV or CSV file of source, target pairs (header optional), and optionally columns of phenomena, "
        "alignment or attribution (a Tatoeba/Anki file of any language is read the other language to English, its "
        "attribution kept whole)",
    )
    add_columns(t)
    required_file(t, "--out", "where to write the .safetensors checkpoint (checked before training)")
    t.add_argument(
        "--from",
        dest="base",
        metavar="MODEL",
        help="go on training this model on the pairs: a .safetensors checkpoint, a Marian folder or hf:NAME (then "
        "--out is a new folder, written as the Marian folder was); it keeps its vocabularies, tokenizer and sizes "
        "(tokens it lacks are read as unknown), the training settings are these flags'; held-out exact match, BLEU "
        "and chrF are printed before and after (default: a new model)",
    )
    _register_sizes(t)
    _register_data(t)
    _register_switches(t)
    register_recipe(t)


_SIZE_FIELDS = ("d_model", "d_ff", "n_heads", "n_layers", "dropout")


def _register_sizes(t: argparse.ArgumentParser) -> None:
    """The flags of the model's sizes and the training's numbers, with their defaults."""
    defaults, model = TrainConfig(), TransformerConfig(1, 1)
    add_numbers(
        t,
        ("--epochs", Given, defaults.epochs, "N", f"passes over the training pairs, 1 to {MAX_EPOCHS:,}"),
        ("--d-model", int, model.d_model, "N", "size of each token's vector"),
        ("--d-ff", int, model.d_ff, "N", "inner size of each feed-forward layer"),
        ("--n-heads", int, model.n_heads, "N", "attention heads per layer; must divide --d-model"),
        ("--n-layers", int, model.n_layers, "N", "layers in the encoder and in the decoder"),
        ("--dropout", float, model.dropout, "P", "dropout probability while training, at least 0 and below 1"),
        ("--lr", float, defaults.lr, "LR", "Adam's learning rate, above 0 and at most 1"),
        (
            "--decay-after",
            int,
            DECAY_AFTER,
            "STEPS",
            f"keep --lr for STEPS steps (0 to {MAX_WARMUP:,}), then lower it as 1/√step, so a long training does not "
            "jump out of what it learned; 0: --lr throughout",
        ),
        ("--batch-size", int, defaults.batch_size, "N", "pairs per training step"),
        (
            "--seed",
            int,
            defaults.seed,
            "S",
            f"seed of the initial weights, the batches and the split, 0 to {MAX_SEED:,}",
        ),
    )


def _register_data(t: argparse.ArgumentParser) -> None:
    """The flags of how the pairs are read and split: the tokenizer, the held-out share and kind, the --also pairs."""
    t.add_argument(
        "--tokenizer",
        choices=TOKENIZERS,
        default="auto",
        help="auto: every Chinese character is a "
        "token, other text is split at spaces and punctuation; whitespace: at spaces only; char: every "
        "character; bpe: subword pieces learned from the training pairs (byte-pair encoding, as the paper) "
        "(default: %(default)s)",
    )
    t.add_argument(
        "--vocab-size",
        type=int,
        metavar="N",
        help=f"with --tokenizer bpe: the pieces to learn, 1 to {MAX_BPE_VOCAB_SIZE:,} (default: "
        f"{DEFAULT_BPE_VOCAB_SIZE:,})",
    )
    add_numbers(
        t,
        (
            "--holdout",
            float,
            0.0,
            "FRACTION",
            "share of the pairs held out of training and scored apart, at least 0 and below 1",
        ),
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


def _register_switches(t: argparse.ArgumentParser) -> None:
    """The architecture switches, each on (or the paper's kind) by default."""
    model = TransformerConfig(1, 1)
    arch = t.add_argument_group(
        "architecture switches",
        "Experiments. The defaults are the paper's architecture, except for three details the tutorials share: no "
        "√d_model scaling of the embeddings, an output projection not tied to the target embeddings, no label "
        "smoothing.",
    )
    for field, text, kinds in _SWITCHES:
        if kinds is None:  # on by default: --no-<field> turns it off
            arch.add_argument(f"--no-{field.replace('_', '-')}", action="store_true", help=text)
        else:
            arch.add_argument(
                f"--{field}", choices=kinds, default=getattr(model, field), help=f"{text} (default: %(default)s)"
            )


def _check_heads(d_model: int, n_heads: int) -> None:
    """A sentence naming the --n-heads values that fit when n_heads does not divide d_model."""
    if 1 <= d_model <= SIZE_LIMITS["d_model"] and n_heads >= 1 and d_model % n_heads:
        fitting = heads_dividing(d_model)
        raise ConfigError(
            f"--n-heads {n_heads} does not divide --d-model {d_model}: use one of --n-heads "
            f"{', '.join(map(str, fitting))}, or another --d-model."
        )


def _check_checkpoint_size(plan: TrainingPlan) -> None:
    """Refuse sizes whose checkpoint the loader would refuse, before anything is built."""
    refused = plan.oversized()
    if refused is not None:
        parameters, size = refused
        raise ConfigError(
            f"these sizes make a model of {parameters:,} parameters, whose checkpoint would take up to "
            f"{size:,} bytes, more than the {MAX_CHECKPOINT_BYTES:,} a checkpoint may have: choose a smaller "
            "--d-model, --d-ff or --n-layers."
        )


def _scores(loss: float, table: ScoreTable, part: str) -> str:
    """loss, teacher-forced token accuracy, greedy exact match, BLEU and chrF of one part, as the done line gives
    them."""
    from ..scores import ALL

    s = table.get(ALL, part)
    return (
        f"loss {loss:.4f}, token accuracy {s.token_accuracy:.1%}, exact match {s.exact_match:.1%} "
        f"({s.exact}/{s.pairs}), BLEU {s.bleu:.1f}, chrF {s.chrf:.1f}"
    )


def _check_vocab_size(args: argparse.Namespace) -> None:
    """Refuse --vocab-size without --tokenizer bpe, or out of its range, before any file is read."""
    if args.vocab_size is None:
        return
    if args.tokenizer != Bpe.name:
        raise ConfigError(
            f"--vocab-size applies to --tokenizer bpe only, not {args.tokenizer}: add --tokenizer bpe or drop "
            "--vocab-size."
        )
    try:
        check_vocab_size(args.vocab_size)
    except DataError:
        raise ConfigError(
            f"--vocab-size {args.vocab_size}: the BPE vocabulary size must be 1 to {MAX_BPE_VOCAB_SIZE:,}."
        ) from None


def _read(args: argparse.Namespace):
    """(pairs, also pairs, tokenizer, the data's credit line, its credits whole): both files read in the columns
    chosen, the tokenizer learned from both when it is bpe (the plan learns it again from the training pairs alone),
    and the rows checked with it."""
    taken = read_table(args.pairs, args.columns)  # the summary's phenomena are the grammar's (plan.py)
    attribution = taken.extra.get("attribution", [])
    all_pairs, credited = taken.pairs, credit(attribution)
    credits = credits_of(attribution, taken.lines) if attribution else None
    also_taken = read_table(args.also, args.columns) if args.also else None
    also = also_taken.pairs if also_taken is not None else []
    tokenizer = tokenizer_for(args.tokenizer, all_pairs + also, args.vocab_size)
    refuse_bad_rows(args.pairs, taken, tokenizer)
    if also_taken is not None:
        refuse_bad_rows(args.also, also_taken, tokenizer)
    return all_pairs, also, tokenizer, credited, credits


def _say_split(split, n: int, holdout: float) -> None:
    """A warning on stderr when the split holds out far from the share asked for, as the Train page says."""
    if holdout and not share_met(split, n, holdout):
        aside = f", and sets {len(split.set_aside):,} aside" if split.set_aside else ""
        print(
            f"warning: --split {split.kind} --holdout {holdout:g} holds out {len(split.held):,} of the {n:,} pairs "
            f"({len(split.held) / n:.1%}){aside}, not the {holdout:.0%} asked for: these pairs cannot give more with "
            "this split. Choose another --split, or read its held-out scores as those of a few pairs.",
            file=sys.stderr,
        )


def _say_steps(args: argparse.Namespace, cfg: TrainConfig, train_pairs: int) -> None:
    """With --steps: the epochs it makes and the steps they take, the --epochs it overrides, and the cap it hits."""
    if args.steps is None:
        return
    per_epoch = steps_per_epoch(train_pairs, max(1, args.batch_size))
    epochs = f"{cfg.epochs:,} epoch{'s' if cfg.epochs != 1 else ''}"
    total = f"{cfg.epochs * per_epoch:,} steps"
    said = f"note: --steps {echo(str(args.steps), 40)}: {epochs} of {per_epoch:,} steps ({total})"
    if isinstance(args.epochs, Given):
        said += f"; --epochs {args.epochs} is ignored, as --steps sets the epochs"
    print(said + ".", file=sys.stderr)
    if args.steps > MAX_EPOCHS * per_epoch:
        print(
            f"warning: --steps {echo(str(args.steps), 40)} would take more than the {MAX_EPOCHS:,} epochs one training "
            f"may have: it trains {MAX_EPOCHS:,} epochs ({MAX_EPOCHS * per_epoch:,} steps) and stops.",
            file=sys.stderr,
        )


def _model_flags(args: argparse.Namespace) -> list[str]:
    """The flags given that shape a new model (sizes, tokenizer, switches): a model trained further keeps its own."""
    model = TransformerConfig(1, 1)
    given = [f"--{f.replace('_', '-')}" for f in _SIZE_FIELDS if getattr(args, f) != getattr(model, f)]
    given += ["--tokenizer"] * (args.tokenizer != "auto") + ["--vocab-size"] * (args.vocab_size is not None)
    for field, _, kinds in _SWITCHES:
        if (getattr(args, field) != getattr(model, field)) if kinds else getattr(args, f"no_{field}"):
            given.append(f"--{field.replace('_', '-')}" if kinds else f"--no-{field.replace('_', '-')}")
    return given + [flag for flag in ("--emb-scale", "--tie-output") if getattr(args, flag[2:].replace("-", "_"))]


def _scores_line(scores) -> str:
    """exact match, BLEU and chrF of one part, as the before and after lines give them."""
    return (
        f"exact match {scores.exact_match:.1%} ({scores.exact}/{scores.pairs}), BLEU {scores.bleu:.1f}, "
        f"chrF {scores.chrf:.1f}"
    )


def _plan_from(args: argparse.Namespace):
    """(plan, split, the model it goes on from) of `train --from`: the pairs read and split with the model's own
    tokenizer, the settings the flags'."""
    from ..opening import open_model
    from ..plan import TrainingPlan

    given = _model_flags(args)
    if given:
        raise ConfigError(
            f"{', '.join(given)}: a model trained further with --from keeps its own sizes, tokenizer and "
            "architecture; drop these flags (the training settings, such as --epochs, --lr and --warmup, apply)."
        )
    base = open_model(args.base)
    taken = read_table(args.pairs, args.columns)
    attribution = taken.extra.get("attribution", [])
    all_pairs, credited = taken.pairs, credit(attribution)
    credits = credits_of(attribution, taken.lines) if attribution else None
    also_taken = read_table(args.also, args.columns) if args.also else None
    also = also_taken.pairs if also_taken is not None else []
    refuse_bad_rows(args.pairs, taken, base.tokenizer)
    if also_taken is not None:
        refuse_bad_rows(args.also, also_taken, base.tokenizer)
    split = split_pairs(all_pairs, args.split or "random", args.holdout, args.seed, base.tokenizer, always_train=also)
    plan = TrainingPlan.continuing(base, all_pairs, split, args.holdout, TrainConfig(), also)
    if credited:
        plan = replace(plan, data=replace(plan.data, data_credit=credited, credits=credits))
    _, cfg = recipe_settings(args, len(plan.train_pairs))  # the recipe's training settings; the model stays as it is
    return replace(plan, config=cfg), split, base


def run(args: argparse.Namespace) -> None:
    """Plan the training (split, checks), train it with a line every tenth of the epochs, then score and save it;
    with --from, the model given goes on training, scored before and after."""
    from ..plan import TrainingPlan

    marian = _marian_out(args) if args.base is not None else None  # a Marian model trained further: a folder
    if not marian:
        check_writable(args.out, "--out")
    if args.split is not None and args.holdout == 0:
        raise ConfigError(f"--split {args.split} needs --holdout FRACTION above 0: the share of pairs to hold out.")
    if args.base is not None:
        plan, split, base = _plan_from(args)
        _say_split(split, len(plan.train_pairs) + len(plan.held_pairs), args.holdout)
        _say_steps(args, plan.config, len(plan.train_pairs))
        _check_checkpoint_size(plan)
        translator = plan.build()
        unknown = plan.unknown_tokens()
        print(
            f"training {visible(str(args.base))} further: {len(plan.train_pairs)} pairs"
            + (f" (+{len(plan.held_pairs)} held out)" if plan.held_pairs else "")
            + f", {translator.model.num_parameters():,} parameters, its vocabularies of "
            f"{len(translator.src_vocab)} / {len(translator.tgt_vocab)} tokens kept: {unknown[0]:,} source and "
            f"{unknown[1]:,} target tokens of the pairs are not in them and are read as unknown"
        )
        if plan.held_pairs:
            print(visible(split.describe()))
        before = plan.before(translator)
        part = "held out" if before.part == "holdout" else "training pairs"
        print(f"before: {part}: {_scores_line(before.scores)}")
        _train_and_save(plan, translator, args, marian)
        print(f"after: {part}: {_scores_line(before.after(translator))} (before: {_scores_line(before.scores)})")
        print(f"saved {visible(str(args.out))}")
        return
    _check_vocab_size(args)
    all_pairs, also, tokenizer, credited, credits = _read(args)
    cfg = TrainConfig(epochs=args.epochs, lr=args.lr, batch_size=args.batch_size, seed=args.seed)
    _check_heads(args.d_model, args.n_heads)
    split = split_pairs(all_pairs, args.split or "random", args.holdout, args.seed, tokenizer, always_train=also)
    sizes = dict(
        d_model=args.d_model,
        d_ff=args.d_ff,
        n_heads=args.n_heads,
        n_layers=args.n_layers,
        dropout=args.dropout,
    )
    for field, _, kinds in _SWITCHES:
        sizes[field] = getattr(args, field) if kinds else not getattr(args, f"no_{field}")
    plan = TrainingPlan.from_split(all_pairs, split, args.holdout, tokenizer, sizes, cfg, also)
    if credited:  # the licence of such data asks for credit (CC-BY: the authors): the checkpoint and its sheet carry it
        plan = replace(plan, data=replace(plan.data, data_credit=credited, credits=credits))
    recipe, cfg = recipe_settings(args, len(plan.train_pairs))  # steps → epochs, and the paper's recipe
    _say_split(split, len(all_pairs), args.holdout)
    _say_steps(args, cfg, len(plan.train_pairs))
    if args.dropout != TransformerConfig(1, 1).dropout:  # a --dropout given beside --paper wins
        recipe.pop("dropout", None)
    plan = replace(plan, sizes={**plan.sizes, **recipe}, config=cfg)
    _check_checkpoint_size(plan)
    translator = plan.build()
    variant = ", ".join(f"{k}={v}" for k, v in translator.config.variant.items())
    pairs, holdout = plan.train_pairs, plan.held_pairs  # the --also pairs come last
    print(
        f"{len(pairs)} pairs" + (f" (+{len(holdout)} held out)" if holdout else "") + ", "
        f"{translator.model.num_parameters():,} parameters, "
        f"vocabularies {len(translator.src_vocab)} / {len(translator.tgt_vocab)} tokens"
        + (f" (BPE pieces: {len(plan.tokenizer.pieces):,} learned)" if isinstance(plan.tokenizer, Bpe) else "")
        + (f"; variant: {variant}" if variant else "")
    )
    if plan.held_pairs:
        print(visible(split.describe()))
    _train_and_save(plan, translator, args)
    print(f"saved {visible(str(args.out))}")


def _marian_out(args: argparse.Namespace) -> Path | None:
    """For --from a Marian folder or hf:NAME: the folder it was opened from (--out, checked here, is a new folder
    written as that one); None for a checkpoint."""
    from ..opening import HF_PREFIX, hub_folder, is_marian_spec

    if not is_marian_spec(args.base):
        return None
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError(f"--out {out} exists: a Marian model trained further is saved as a new folder, name one.")
    if not out.parent.is_dir():
        raise ConfigError(f"--out {out}: the folder {out.parent} does not exist: create it, or choose another.")
    spec = str(args.base)
    return hub_folder(spec[len(HF_PREFIX) :]) if spec.startswith(HF_PREFIX) else Path(spec)


def _train_and_save(plan: TrainingPlan, translator, args: argparse.Namespace, marian: Path | None = None) -> None:
    """Train with a line every tenth of the epochs, score (the done line), save to --out (a Marian model: as a folder
    beside the one it was opened from, marian), and say when it ended under-trained."""
    from ..checkpoint import save_checkpoint
    from ..marian_save import save_marian_folder

    cfg, pairs, holdout = plan.config, plan.train_pairs, plan.held_pairs  # the --also pairs come last
    every = max(1, cfg.epochs // 10)
    for record in plan.train(translator):
        if record.epoch % every == 0 or record.epoch == cfg.epochs:
            held_out = (
                ""
                if record.holdout_loss is None
                else (f"  held out: loss {record.holdout_loss:.4f}  token accuracy {record.holdout_accuracy:6.1%}")
            )
            print(f"epoch {record.epoch:4d}  loss {record.loss:.4f}  token accuracy {record.accuracy:6.1%}{held_out}")
    evaluations = plan.finish(translator)  # each pair decoded once (many training pairs: a sample); the summary written
    summary = translator.summary
    table, sampled = summary.scores, summary.sampled  # many training pairs: their figures are a sample's
    said = "" if sampled is None else f"scored on a sample of {sampled[0]:,} of the {sampled[1]:,} training pairs: "
    line = f"done: {said}{_scores(evaluations['train'].loss, table, 'train')}"
    if holdout:
        line += f"; held out: {_scores(evaluations['holdout'].loss, table, 'holdout')}"
    try:
        if marian is None:
            save_checkpoint(translator, args.out)
        else:
            save_marian_folder(translator, marian, args.out)
    except OSError as exc:
        raise TransformerError(f"cannot write {args.out}: {exc.strerror or exc}.") from None
    print(f"{line}, {summary.seconds:.1f} s")
    verdict = under_trained(summary.history, evaluations["train"].exact_match)
    said = verdict_line(verdict, cfg, len(pairs), summary.history)
    if said:  # on stderr, as a warning: the lines on stdout keep their shape
        print(said, file=sys.stderr)
