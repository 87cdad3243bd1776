"""Training recipes by optimiser steps, the paper's recipe as one preset, and the test of whether a training ended
under-trained.

A recipe fixes a number of optimiser steps, not of epochs: epochs follow from the data size and the batch size
(`epochs_for`), so 30 pairs train as long as 3,000 do, in steps. A training has *learned* when its training pairs are
at least EXACT_LEARNED exact and its loss is no longer falling steeply (`under_trained`): over the last tenth of its
steps the loss fell by more than STEEP_RELATIVE of its value there *and* by more than STEEP_SHARE of all it fell over
the run. The first alone would call a loss that creeps from 0.0002 to 0.0001 steep; the second alone would miss the
Lab's baseline of issue 29 (0.259 → 0.182 over its last tenth, 30 % of its value, but 1.9 % of its fall from 4.26).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .config import DECAY_AFTER, MAX_EPOCHS, MAX_WARMUP, PAPER_MODEL, PAPER_TRAIN, TRAIN_BETA2, TRAIN_EPS, TrainConfig

OWN_STEPS = 400  # optimiser steps of the recipe for a learner's own pairs (30 everyday pairs: 100 % exact, ~5 s)
OWN_CONFIG = TrainConfig(lr=3e-3, batch_size=16)  # its learning rate and batch size
# the paper's preset warms up for this share of the steps (the paper: 4,000 of 100,000, with d_model 512): with
# d_model 64 and 400 steps a tenth (peak lr 0.020) failed on 30 everyday pairs, a quarter (peak 0.0125) learned them all
WARMUP_SHARE = 0.25
EXACT_LEARNED = 0.9  # training-pair exact match below this: under-trained
LAST_SHARE = 0.1  # the part of the steps whose fall is measured
# still falling steeply: over the last tenth of the steps the loss fell by more than STEEP_RELATIVE of its value at the
# start of that tenth, and by more than STEEP_SHARE of all it fell over the run (a straight fall puts a tenth there)
STEEP_RELATIVE = 0.1
STEEP_SHARE = 0.01
# Adam's constant learning rates that learn the seeds' model sizes: the defaults' 0.003, the corpus's 0.002, 0.001
# (outside them a training that learns nothing is more likely a wrong rate than too few epochs)
GOOD_LR = (1e-3, 3e-3)


def steps_per_epoch(pairs: int, batch_size: int) -> int:
    """Optimiser steps in one epoch: one per batch, the last batch possibly smaller."""
    return max(1, math.ceil(pairs / batch_size))


def epochs_for(steps: int, pairs: int, batch_size: int) -> int:
    """The epochs that take about `steps` optimiser steps on this many pairs (at least 1, at most MAX_EPOCHS)."""
    per_epoch = steps_per_epoch(pairs, batch_size)
    if steps >= MAX_EPOCHS * per_epoch:  # and a float of steps / per_epoch would overflow for --steps of 400 digits
        return MAX_EPOCHS
    return max(1, round(steps / per_epoch))


def paper_warmup(steps: int) -> int:
    """The warmup of the paper's preset for a training of `steps` steps: WARMUP_SHARE of them, 1 to MAX_WARMUP."""
    return max(1, min(MAX_WARMUP, round(WARMUP_SHARE * steps)))


def paper_recipe(steps: int) -> tuple[dict, dict]:
    """(model fields, TrainConfig fields) of the paper's recipe for a training of `steps` steps: label smoothing 0.1,
    warmup then 1/√step, Adam β2 0.98 and ε 1e-9, dropout 0.1, the √d_model embedding scale, a tied projection."""
    return dict(PAPER_MODEL), {**PAPER_TRAIN, "warmup": paper_warmup(steps)}


def steadied(fields: dict, decay_after: int | None = DECAY_AFTER) -> dict:
    """TrainConfig fields with the train command's and the Train page's defaults for those not given: Adam's β2
    TRAIN_BETA2 and ε TRAIN_EPS, and without warmup the rate's decay after decay_after steps (None or 0: a constant
    rate), which keep a long training from jumping out of what it learned (docs/training.md "Stability")."""
    steady = {"beta2": TRAIN_BETA2, "eps": TRAIN_EPS, **fields}
    if "warmup" not in steady and decay_after:  # the warmup schedule replaces the rate, and its decay with it
        steady.setdefault("decay_after", decay_after)
    return steady


@dataclass(frozen=True)
class Verdict:
    """Whether a training ended under-trained, and the figures that say so (for one sentence that says what to do)."""

    under_trained: bool
    exact: float  # training-pair exact match
    falling: bool  # the loss still fell steeply over the last tenth of the steps
    fall: float  # how much it fell there, as a share of its value at the start of that tenth (nan: too few records)
    share: float  # how much it fell there, as a share of all it fell over the run (nan: too few records, or no fall)
    loss: float  # the last loss


def loss_fall(history: Sequence) -> tuple[float, float]:
    """How much the training loss fell over the last LAST_SHARE of the steps (epochs when the records have no steps):
    (as a share of its value at the start of that part, as a share of all it fell from the first record to the last);
    nan with fewer than two records, the second nan when the loss did not fall over the run."""
    if len(history) < 2:
        return float("nan"), float("nan")
    ends = [h.step or h.epoch for h in history]
    start = ends[-1] - LAST_SHARE * ends[-1]
    before = [i for i, end in enumerate(ends[:-1]) if end <= start]
    first = before[-1] if before else 0  # the last record at or before the start of the last tenth
    losses = [float(h.loss) for h in history]
    fell, total = losses[first] - losses[-1], losses[0] - losses[-1]
    relative = fell / losses[first] if losses[first] > 0 else 0.0
    share = fell / total if math.isfinite(total) and total > 0 else float("nan")
    return relative, share


def under_trained(history: Sequence, exact: float) -> Verdict:
    """The recipe's stopping test: under-trained when exact < EXACT_LEARNED, or when over the last tenth of the steps
    the loss fell by more than STEEP_RELATIVE of its value there and by more than STEEP_SHARE of its whole fall."""
    fall, share = loss_fall(history)
    loss = float(history[-1].loss) if history else float("nan")
    falling = math.isfinite(fall) and math.isfinite(share) and fall > STEEP_RELATIVE and share > STEEP_SHARE
    return Verdict(exact < EXACT_LEARNED or falling, exact, falling, fall, share, loss)


def advice(verdict: Verdict, config: TrainConfig, pairs: int) -> dict:
    """What to change after an under-trained run: twice the steps, as epochs at this batch size (the figures the
    sentence uses)."""
    steps = steps_per_epoch(pairs, config.batch_size) * config.epochs
    return {"epochs": min(MAX_EPOCHS, 2 * config.epochs), "steps": 2 * steps, "exact": verdict.exact}


@dataclass(frozen=True)
class NothingLearned:
    """What to check when no training pair came out exact: more epochs alone may not help. rate: "warmup" (the rate
    rose to peak over warmup steps), "high" or "low" (a constant lr outside GOOD_LR) or "usual" (inside it); recipe:
    "paper" (label smoothing or warmup on: try the seeds' defaults) or "defaults" (try the paper's recipe)."""

    rate: str
    lr: float  # the constant rate, or the warmup's peak
    warmup: int | None
    recipe: str


def nothing_learned(history: Sequence, config: TrainConfig) -> NothingLearned:
    """The learning rate and the recipe of a training that translated no training pair exactly, for the advice."""
    if config.warmup is not None:
        peak = max((float(h.lr) for h in history if getattr(h, "lr", None) is not None), default=float("nan"))
        rate, lr = "warmup", peak
    else:
        lr = float(config.lr)
        rate = "high" if lr > GOOD_LR[1] else "low" if lr < GOOD_LR[0] else "usual"
    recipe = "paper" if config.warmup is not None or config.label_smoothing else "defaults"
    return NothingLearned(rate, lr, config.warmup, recipe)


_CLI_RATE = {
    "warmup": "its learning rate warmed up for {warmup} steps to {lr:.2g} (the preset, --paper, warms up for a quarter "
    "of the steps and refits it to --epochs)",
    "high": "--lr {lr:g} is above the rates that learn these sizes (0.001 to 0.003): try --lr 0.001",
    "low": "--lr {lr:g} is below the rates that learn these sizes (0.001 to 0.003): try --lr 0.003",
    "usual": "--lr {lr:g} is within the rates that learn these sizes (0.001 to 0.003); if the loss jumped, try 0.001",
}
_CLI_RECIPE = {
    "paper": "the seeds' defaults (without --paper, --label-smoothing, --warmup) learn small data in the fewest steps",
    "defaults": "the paper's recipe (--paper) warms the rate up and decays it",
}


def verdict_line(verdict: Verdict, config: TrainConfig, pairs: int, history: Sequence = ()) -> str | None:
    """The command line's one sentence for an under-trained run (None when it learned); when no training pair is
    exact, it names the learning rate and the recipe to check as well as the epochs."""
    if not verdict.under_trained:
        return None
    tip = advice(verdict, config, pairs)
    why = (
        f"training pairs are {verdict.exact:.0%} exact (below {EXACT_LEARNED:.0%})"
        if verdict.exact < EXACT_LEARNED
        else f"the loss still fell steeply over the last tenth of the steps (by {verdict.fall:.0%})"
    )
    longer = f"e.g. --epochs {tip['epochs']} (about {tip['steps']:,} steps at --batch-size {config.batch_size})"
    if verdict.exact > 0:
        return f"under-trained: {why}; train longer, {longer}."
    check = nothing_learned(history, config)
    rate = _CLI_RATE[check.rate].format(lr=check.lr, warmup=check.warmup)
    return (
        f"under-trained: {why}, nothing is learned yet. Train longer, {longer}, and check the learning rate: {rate}; "
        f"and the recipe: {_CLI_RECIPE[check.recipe]}."
    )
