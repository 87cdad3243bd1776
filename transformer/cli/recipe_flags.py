"""The training-recipe flags of `python -m transformer train`: steps instead of epochs, and the paper's recipe
(label smoothing, warmup, Adam's β2 and ε, the √d_model embedding scale, a tied projection), alone or as --paper."""

from __future__ import annotations

import argparse
import math

from ..config import MAX_LABEL_SMOOTHING, MAX_WARMUP, TRAIN_BETA2, TRAIN_EPS, TrainConfig
from ..errors import ConfigError
from ..recipe import epochs_for, paper_recipe, steadied, steps_per_epoch
from ..text import echo


def _shown(value: object) -> str:
    """A flag's refused value as its message repeats it, cut (a number of 1,000 digits is a flag's value too)."""
    return echo(str(value), 40)


def register_recipe(t: argparse.ArgumentParser) -> None:
    """Add the recipe flags to the train command's parser."""
    g = t.add_argument_group(
        "the paper's recipe",
        "Each is off by default (the seeds' settings, which teach faster on tiny data) but Adam's β2, 0.98 as the "
        f"paper's, which with Adam's ε of {TRAIN_EPS:g} and the decay of --lr after --decay-after steps keeps a long "
        "training from jumping out of what it learned; --paper turns on every one not given: label smoothing 0.1, "
        "warmup over a quarter of the steps, Adam β2 0.98 and ε 1e-9, dropout 0.1, the √d_model embedding scale, and "
        "the output projection tied to the target embeddings.",
    )
    g.add_argument("--paper", action="store_true", help="the paper's training recipe, every item below")
    numbers = (  # flag, type, metavar, help
        (
            "--steps",
            int,
            "N",
            "train for about N optimiser steps: the epochs follow from the pairs and --batch-size (default: none, "
            "--epochs counts)",
        ),
        (
            "--label-smoothing",
            float,
            "EPS",
            f"label smoothing ε, 0 to {MAX_LABEL_SMOOTHING:g} (paper: 0.1; default: 0)",
        ),
        (
            "--warmup",
            int,
            "STEPS",
            f"warm up for STEPS steps (1 to {MAX_WARMUP:,}), then lr = d_model^-0.5 · min(step^-0.5, "
            "step · warmup^-1.5); replaces --lr (default: the constant --lr)",
        ),
        ("--adam-beta2", float, "B2", f"Adam's β2 (paper: 0.98; default: {TRAIN_BETA2:g}; torch's: 0.999)"),
        (
            "--adam-eps",
            float,
            "EPS",
            f"Adam's ε, added to the root of its mean of squared gradients: a larger one shrinks the steps once the "
            f"gradients are tiny, keeping a learned model from jumping (paper: 1e-9; default: {TRAIN_EPS:g}; torch's: "
            "1e-8)",
        ),
    )
    for flag, kind, metavar, help_text in numbers:
        g.add_argument(flag, type=kind, metavar=metavar, help=help_text)
    g.add_argument("--emb-scale", action="store_true", help="multiply the embeddings by √d_model (the paper)")
    g.add_argument(
        "--tie-output", action="store_true", help="the output projection is the target embedding matrix (the paper)"
    )


def recipe_settings(args: argparse.Namespace, train_pairs: int) -> tuple[dict, TrainConfig]:
    """(model fields, TrainConfig) from the flags, for train_pairs training pairs; bad values raise ConfigError, one
    sentence naming the flag."""
    if args.label_smoothing is not None and not (0 <= args.label_smoothing <= MAX_LABEL_SMOOTHING):  # NaN too
        raise ConfigError(
            f"--label-smoothing must be a number from 0 to {MAX_LABEL_SMOOTHING:g} (the paper uses 0.1), "
            f"got {_shown(args.label_smoothing)}."
        )
    if args.warmup is not None and not 1 <= args.warmup <= MAX_WARMUP:
        raise ConfigError(
            f"--warmup must be a whole number of steps from 1 to {MAX_WARMUP:,}, got {_shown(args.warmup)}."
        )
    if not 0 <= args.decay_after <= MAX_WARMUP:
        raise ConfigError(
            f"--decay-after must be a whole number of steps from 0 to {MAX_WARMUP:,} (0: a constant --lr), got "
            f"{_shown(args.decay_after)}."
        )
    if args.steps is not None and args.steps < 1:
        raise ConfigError(f"--steps must be a positive whole number, got {_shown(args.steps)}.")
    for flag, value in (("--adam-beta2", args.adam_beta2), ("--adam-eps", args.adam_eps)):
        if value is not None and not math.isfinite(value):
            raise ConfigError(f"{flag} must be a finite number, got {_shown(value)}.")
    epochs = args.epochs
    if args.steps is not None:
        epochs = epochs_for(args.steps, train_pairs, args.batch_size)
    steps = epochs * steps_per_epoch(train_pairs, max(1, args.batch_size))
    model, train = paper_recipe(steps) if args.paper else ({}, {})
    if not args.paper:
        model = {"emb_scale": args.emb_scale, "tie_output": args.tie_output}
    given = {
        "label_smoothing": args.label_smoothing,
        "warmup": args.warmup,
        "beta2": args.adam_beta2,
        "eps": args.adam_eps,
    }
    train.update({k: v for k, v in given.items() if v is not None})
    train = steadied(train, args.decay_after)  # --paper keeps the paper's β2 and ε
    cfg = TrainConfig(epochs=epochs, lr=args.lr, batch_size=args.batch_size, seed=args.seed, **train)
    return model, cfg
