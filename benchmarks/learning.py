"""How fast the default model learns the default corpus to translate sentences it never saw, trained through the
app's job queue (jobs.queue, without a browser, as benchmarks/load.py does) on one torch thread.

For each split (random, combination, length, word; 10 % asked for) it trains the default model with the corpus's
training settings (transformer.corpus.TRAIN_CONFIG and TRAIN_SIZES' dropout) as a job and prints the held-out exact
match after every epoch, against the seconds of training the job reports at that epoch: the time to 90 % and to 95 %
(the issue's target: 95 % within 30 s on the random split), and the final figures (exact match, token accuracy,
BLEU, chrF; trained on and held out).

A job's child process sends per epoch only teacher-forced figures, so the exact match after epoch k is measured on
the model of a job of k epochs: training is deterministic for a seed, so its first k epochs are those of the longer
job (the script checks that the two end with the same loss). Epochs are measured one by one until both targets are
reached or --curve epochs have passed; the last epoch always.

    .venv/bin/python benchmarks/learning.py            # idle
    .venv/bin/python benchmarks/learning.py --busy     # with one other core kept busy
    .venv/bin/python benchmarks/learning.py --splits random --epochs 6
    .venv/bin/python benchmarks/learning.py --in-process     # every epoch scored, one training a split
    .venv/bin/python benchmarks/learning.py --splits combination --size 600 --epochs 30 --dropout 0 --in-process

It prints figures; docs/performance.md records them when they were measured on a quiet machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time

import _root  # noqa: F401  (the checkout on sys.path)

from benchmarks.load import busy_core

TARGETS = (0.90, 0.95)


def _queue():
    from streamlit.logger import set_log_level

    set_log_level("error")  # its caches would warn that no server is running
    from jobs.queue import JobQueue
    from jobs.worker import start_fork_server

    start_fork_server()
    return JobQueue(1, alive=lambda _: True)


def _train(queue, train_pairs, held_pairs, cfg, dropout):
    """One training job through the queue: (its run when done, wall seconds from submit to done)."""
    from jobs.queue import Job, Run
    from transformer import Translator, corpus
    from transformer.lab import STANDARD_SIZES

    sizes = {**STANDARD_SIZES, **corpus.TRAIN_SIZES, **({} if dropout is None else {"dropout": dropout})}
    translator = Translator.create(train_pairs, "auto", cfg.seed, **sizes)
    job = Job("train", "bench", [Run("model", translator, train_pairs, cfg, held_pairs)])
    start = time.perf_counter()
    queue.submit(job)
    while not job.finished:
        time.sleep(0.02)
    if job.state != "done":
        raise RuntimeError(f"the training job ended {job.state}: {job.error}")
    return job.runs[0], time.perf_counter() - start


def _scores(translator, train_pairs, held_pairs) -> str:
    from transformer.scores import ALL, table_of
    from transformer.scores import score_pairs as score

    parts = ["train"] * len(train_pairs) + ["holdout"] * len(held_pairs)
    table = table_of(score(translator, train_pairs + held_pairs), None, parts)
    return "; ".join(
        f"{label}: exact {s.exact_match:.1%} ({s.exact}/{s.pairs}), token accuracy {s.token_accuracy:.1%}, "
        f"BLEU {s.bleu:.1f}, chrF {s.chrf:.1f}"
        for label, s in (("trained on", table.get(ALL, "train")), ("held out", table.get(ALL, "holdout")))
    )


def learning_curve(kind: str, epochs: int, curve: int, seed: int, queue, size: int, dropout: float | None) -> None:
    """Train on one split and print held-out exact match per epoch, the time to each target and the final scores."""
    from transformer import corpus
    from transformer.splits import split_pairs

    pairs = [(p.source, p.target) for p in corpus.generate(size)]
    split = split_pairs(pairs, kind, 0.1, seed)
    train_pairs, held_pairs = [pairs[i] for i in split.train], [pairs[i] for i in split.held]
    cfg = dataclasses.replace(corpus.TRAIN_CONFIG, epochs=epochs, seed=seed, threads=1)
    print(f"\n{split.describe()}")
    full, wall = _train(queue, train_pairs, held_pairs, cfg, dropout)
    seconds = [r.seconds for r in full.records]
    reached: dict[float, tuple[int, float]] = {}
    for epoch in range(1, epochs + 1):
        if epoch == epochs:
            run = full
        elif len(reached) == len(TARGETS) or epoch > curve:
            continue  # past the targets, or past the epochs measured one by one: only the final model is scored
        else:
            run, _ = _train(queue, train_pairs, held_pairs, dataclasses.replace(cfg, epochs=epoch), dropout)
            if abs(run.records[-1].loss - full.records[epoch - 1].loss) > 1e-6:
                print(f"  (epoch {epoch}: the shorter job's loss differs from the long job's; its figure is its own)")
        exact = run.evaluations["holdout"].exact_match
        print(f"  epoch {epoch:2d}  {seconds[epoch - 1]:6.1f} s of training  held-out exact match {exact:6.1%}")
        for target in TARGETS:
            if exact >= target and target not in reached:
                reached[target] = (epoch, seconds[epoch - 1])
    for target in TARGETS:
        when = reached.get(target)
        text = f"{when[1]:.1f} s (epoch {when[0]})" if when else f"not within {epochs} epochs"
        print(f"  time to {target:.0%} held-out exact match: {text}")
    print(f"  final, after {epochs} epochs ({seconds[-1]:.1f} s of training, {wall:.1f} s from submit to done):")
    print(f"    {_scores(full.translator, train_pairs, held_pairs)}")


def in_process_curve(kind: str, epochs: int, seed: int, size: int, dropout: float | None) -> None:
    """As learning_curve, trained once in this process with the held-out exact match after every epoch (the same
    model as the job's at each epoch: one training, deterministic for a seed; no seconds)."""
    from transformer import Translator, corpus, train
    from transformer.lab import STANDARD_SIZES
    from transformer.splits import split_pairs

    pairs = [(p.source, p.target) for p in corpus.generate(size)]
    split = split_pairs(pairs, kind, 0.1, seed)
    train_pairs, held_pairs = [pairs[i] for i in split.train], [pairs[i] for i in split.held]
    cfg = dataclasses.replace(corpus.TRAIN_CONFIG, epochs=epochs, seed=seed, threads=1)
    print(f"\n{split.describe()}")
    sizes = {**STANDARD_SIZES, **corpus.TRAIN_SIZES, **({} if dropout is None else {"dropout": dropout})}
    translator = Translator.create(train_pairs, "auto", cfg.seed, **sizes)
    reached: dict[float, int] = {}
    for record in train(translator, train_pairs, cfg):
        exact = translator.evaluate(held_pairs).exact_match
        print(f"  epoch {record.epoch:2d}  loss {record.loss:.4f}  held-out exact match {exact:6.1%}", flush=True)
        for target in TARGETS:
            if exact >= target and target not in reached:
                reached[target] = record.epoch
    for target in TARGETS:
        when = f"epoch {reached[target]}" if target in reached else f"not within {epochs} epochs"
        print(f"  {target:.0%} held-out exact match: {when}")
    print(f"  final, after {epochs} epochs:\n    {_scores(translator, train_pairs, held_pairs)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--busy", action="store_true", help="keep one other core busy meanwhile")
    parser.add_argument(
        "--splits", nargs="+", default=["random", "combination", "length", "word"], help="splits to train"
    )
    parser.add_argument("--epochs", type=int, help="epochs per training (default: the corpus's training settings)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the split, the weights and the batches")
    parser.add_argument(
        "--curve", type=int, default=10, help="epochs whose exact match is measured one by one (each is a job)"
    )
    parser.add_argument("--size", type=int, default=2000, help="corpus pairs (the Lab's experiments: 600)")
    parser.add_argument("--dropout", type=float, help="the model's dropout (default: the corpus's, 0.1)")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="train once in this process, scoring every epoch (no job queue, no seconds: the epochs only)",
    )
    args = parser.parse_args()
    from transformer import corpus

    epochs = args.epochs or corpus.TRAIN_CONFIG.epochs
    cfg = corpus.TRAIN_CONFIG
    load = os.getloadavg()[0]
    print(
        f"default model, default corpus ({corpus.DEFAULT_SIZE:,} pairs), {epochs} epochs, lr {cfg.lr}, batch size "
        f"{cfg.batch_size}, one torch thread; {'one core kept busy' if args.busy else 'no core kept busy'} by this "
        f"script (load average {load:.1f} on {os.cpu_count()} cores before it started: on a quiet machine, near 0)"
    )
    if args.in_process:
        for kind in args.splits:
            in_process_curve(kind, epochs, args.seed, args.size, args.dropout)
        return
    with busy_core(args.busy):
        queue = _queue()
        for kind in args.splits:
            learning_curve(kind, epochs, args.curve, args.seed, queue, args.size, args.dropout)


if __name__ == "__main__":
    main()
