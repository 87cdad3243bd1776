"""The 30-pair case of issue 29: a learner's 30 everyday pairs (tests/fixtures/everyday30.tsv), trained with one click.

Before, the Train page kept the corpus's recipe for them (20 epochs at batch size 64: 20 optimiser steps); now the
learner's own pairs train by steps (transformer.recipe.OWN_STEPS at OWN_CONFIG's batch size, ui.datasets.own_recipe).
For each recipe, with and without the paper's recipe on top, it trains the default model on one torch thread with 10 %
held out, as the page does, and prints the training pairs' exact match, the steps, the seconds, and the under-training
verdict (transformer.recipe.under_trained).

    .venv/bin/python benchmarks/small_data.py
"""

from __future__ import annotations

import argparse
import time

import torch
from _root import ROOT

from transformer import TrainConfig, corpus
from transformer.cli.common import read_pairs
from transformer.plan import TrainingPlan
from transformer.recipe import OWN_CONFIG, OWN_STEPS, epochs_for, paper_recipe, under_trained
from transformer.splits import split_pairs

HOLDOUT = 0.1


def measure(name: str, pairs: list, cfg: TrainConfig, sizes: dict) -> None:
    """Train one recipe and print its line."""
    split = split_pairs(pairs, "random", HOLDOUT, cfg.seed, "auto")
    plan = TrainingPlan.from_split(pairs, split, HOLDOUT, "auto", sizes, cfg)
    translator = plan.build()
    started = time.perf_counter()
    list(plan.train(translator))
    evaluations = plan.finish(translator)
    seconds = time.perf_counter() - started
    train = evaluations["train"]
    verdict = under_trained(translator.summary.history, train.exact_match)
    said = "under-trained" if verdict.under_trained else "learned"
    print(
        f"{name:<34} {cfg.epochs:4d} epochs {translator.summary.steps:4d} steps  exact {train.exact_match:6.1%} "
        f"({train.exact}/{train.total})  {seconds:5.1f} s  {said}"
    )


def main() -> None:
    """Print the figures of each recipe."""
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    torch.set_num_threads(1)
    pairs, _ = read_pairs(ROOT / "tests/fixtures/everyday30.tsv", "auto")
    kept = len(pairs) - round(HOLDOUT * len(pairs))
    before = corpus.TRAIN_CONFIG
    own = TrainConfig(epochs=epochs_for(OWN_STEPS, kept, OWN_CONFIG.batch_size), lr=OWN_CONFIG.lr, batch_size=16)
    model, train = paper_recipe(own.epochs * -(-kept // own.batch_size))
    paper = TrainConfig(epochs=own.epochs, lr=own.lr, batch_size=own.batch_size, **train)
    measure("before: the corpus's recipe", pairs, before, {})
    measure("after: 400 steps", pairs, own, {})
    measure("after: 400 steps, the paper's recipe", pairs, paper, model)


if __name__ == "__main__":
    main()
