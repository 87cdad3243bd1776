"""What measuring alignment after every epoch adds to a training (issue 30 §7): the default model on the default corpus
with the corpus's recipe, one torch thread; the seconds of a training epoch, and of the best head's AER on the gold
sample (transformer.alignment.gold_sample, ALIGN_PAIRS pairs), each the median of its repeats.

    .venv/bin/python benchmarks/alignment_cost.py [--pairs 2000] [--epochs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import _root  # noqa: F401  (the checkout on sys.path)
import torch

from transformer import corpus
from transformer.alignment import best_head_aer, gold_batch, gold_sample
from transformer.config import TrainConfig
from transformer.train import train
from transformer.translator import Translator


def main() -> None:
    """Print the seconds of an epoch, of one AER measurement, and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)
    pairs = [(p.source, p.target) for p in corpus.generate(args.pairs, corpus.DEFAULT_SEED)]
    started = time.perf_counter()
    sample = gold_sample(pairs)
    sampled = time.perf_counter() - started
    recipe = corpus.TRAIN_CONFIG
    cfg = TrainConfig(epochs=args.epochs, lr=recipe.lr, batch_size=recipe.batch_size, threads=1)
    translator = Translator.create(pairs, "auto", 0, **corpus.TRAIN_SIZES)
    gold = gold_batch(translator, sample)
    epochs, measures, aers = [], [], []
    last = 0.0
    for record in train(translator, pairs, cfg):  # without gold: the epoch alone
        epochs.append(record.seconds - last)
        last = record.seconds
        for _ in range(3):
            started = time.perf_counter()
            aer = best_head_aer(translator, gold)
            measures.append(time.perf_counter() - started)
        aers.append(aer[0])
    epoch, measure = statistics.median(epochs), statistics.median(measures)
    print(f"{args.pairs} pairs, {len(sample)} gold pairs sampled in {sampled:.3f} s (once per training)")
    print(f"epoch {epoch:.3f} s, best head's AER {measure * 1000:.1f} ms: +{measure / epoch:.1%} per epoch")
    print("AER per epoch: " + " ".join(f"{a:.2f}" for a in aers))


if __name__ == "__main__":
    main()
