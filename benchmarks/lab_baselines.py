"""Each ready-made Lab experiment on its corpus, trained here on one torch thread as the Lab's job trains it (the
baseline until it has learned, transformer.lab.Until, and the variant as many epochs): the epochs both trained, both
models' exact match, BLEU and chrF on the training pairs, whether the baseline learned (the recipe's stopping test,
transformer.recipe.under_trained), whether the claim held, and the measures on which the variant scores higher.

    .venv/bin/python benchmarks/lab_baselines.py                  # every experiment
    .venv/bin/python benchmarks/lab_baselines.py no_pe --epochs 15  # one, starting from other epochs (the issue's run)
    .venv/bin/python benchmarks/lab_baselines.py no_pe --epochs 15 --fixed  # exactly those epochs, as before issue 29
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import _root  # noqa: F401  (the checkout on sys.path)
import torch

from transformer.lab import (
    EXPERIMENTS,
    STANDARD_SIZES,
    Side,
    Until,
    baseline_verdict,
    ended_early,
    evidence,
    held_rows,
    higher_measures,
    may_stop,
)
from transformer.plan import TrainingPlan
from transformer.scores import ALL


def measure(name: str, epochs: int | None, fixed: bool = False) -> None:
    """Train one experiment's two models and print its lines."""
    experiment = EXPERIMENTS[name]
    pairs = experiment.corpus_pairs()
    cfg = experiment.corpus_config(0)
    if epochs:
        cfg = replace(cfg, epochs=epochs)
    until = None if fixed else Until.of(cfg.epochs)
    planned = cfg.epochs if fixed else until.last
    sizes = {**STANDARD_SIZES, **experiment.sizes}
    held = held_rows(experiment, pairs, seed=cfg.seed)
    plan = TrainingPlan.from_rows(pairs, held, "auto", sizes, cfg)
    sides, tables = [], []
    for side, (label, model_sizes) in enumerate((("baseline", sizes), ("variant", {**sizes, **experiment.switches}))):
        side_cfg = experiment.configs(replace(cfg, epochs=planned))[side]
        side_plan = replace(plan, sizes=model_sizes, config=side_cfg)
        translator = side_plan.build()
        started = time.perf_counter()
        records = []
        for record in side_plan.train(translator, snapshot_every=1, snapshot_pairs=range(8)):  # as the Lab's job
            records.append(record)
            if side == 0 and may_stop(until, record.epoch, translator, side_plan.train_pairs):
                break
        if len(records) < planned:
            ended_early(translator)
        planned = len(records)  # the variant trains as many epochs as the baseline
        evaluations = side_plan.finish(translator)
        table = translator.summary.scores
        s = table.get(ALL, "train")
        print(
            f"{name:<16} {label:<8} {len(records):3d} epochs  exact {s.exact_match:6.1%}  BLEU {s.bleu:5.1f}  "
            f"chrF {s.chrf:5.1f}  loss {records[-1].loss:.3f}  {time.perf_counter() - started:5.1f} s"
        )
        snapshots = [(r.epoch, r.snapshot) for r in records if r.snapshot is not None]
        sides.append(Side(translator, records, evaluations, snapshots, side_plan.train_pairs))
        tables.append(table)
    verdict = baseline_verdict(sides[0])
    held_claim, _ = evidence(name, sides[0], sides[1], plan.held_pairs)
    higher = ", ".join(f"{m} ({p})" for m, p, _, _ in higher_measures(*tables)) or "none"
    print(
        f"{name:<16} baseline {'under-trained' if verdict.under_trained else 'learned'}; claim "
        f"{'held' if held_claim else 'did not hold'}; the variant scores higher on: {higher}"
    )


def main() -> None:
    """Parse the arguments and measure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"experiments: {', '.join(EXPERIMENTS)} (default: all)")
    parser.add_argument("--epochs", type=int, help="the epochs of the first stopping test (default: the experiment's)")
    parser.add_argument("--fixed", action="store_true", help="train exactly --epochs, without the stopping test")
    args = parser.parse_args()
    unknown = [n for n in args.names if n not in EXPERIMENTS]
    if unknown:
        parser.error(f"no experiment named {', '.join(unknown)}")
    torch.set_num_threads(1)
    for name in args.names or EXPERIMENTS:
        measure(name, args.epochs, args.fixed)


if __name__ == "__main__":
    main()
