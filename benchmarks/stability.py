"""The train command's defaults on the corpus, long (issue 41): `train --split random --holdout 0.1 --seed S` on the
2,000 corpus pairs (batch size 16, lr 0.003, 113 steps an epoch), on one torch thread. After every epoch it prints the
training loss, the held-out loss and token accuracy, the held-out exact match (every fifth epoch, then every epoch from
30 on), and the largest and the median norm of the gradient and of Adam's update (the change of all the weights in one
step) over the epoch's steps; at the end, the worst drop of held-out exact match below its best so far.

    .venv/bin/python benchmarks/stability.py --seed 0 --epochs 60 --decay-after 0 --beta2 0.999 --eps 1e-8  # before
    .venv/bin/python benchmarks/stability.py --seed 1 --epochs 50 --eps 1e-8  # the decay and β2 0.98 alone
    .venv/bin/python benchmarks/stability.py --seed 1 --epochs 50  # the defaults: decay after 400 steps, β2 0.98, ε
"""

from __future__ import annotations

import argparse
import time

import _root  # noqa: F401  (the checkout on sys.path)
import torch

from transformer import TrainConfig, corpus
from transformer.config import DECAY_AFTER, TRAIN_BETA2, TRAIN_EPS
from transformer.plan import TrainingPlan
from transformer.splits import split_pairs

HOLDOUT = 0.1


class Norms:
    """The gradient's and the update's norm at every optimiser step (Adam.step wrapped while a training runs)."""

    def __init__(self) -> None:
        self.steps: list[tuple[float, float]] = []
        self._step = torch.optim.Adam.step
        norms = self

        def step(optimizer, *args, **kwargs):
            params = [p for group in optimizer.param_groups for p in group["params"]]
            grad = torch.sqrt(sum((p.grad.detach() ** 2).sum() for p in params if p.grad is not None))
            before = [p.detach().clone() for p in params]
            result = norms._step(optimizer, *args, **kwargs)
            update = torch.sqrt(sum(((p.detach() - b) ** 2).sum() for p, b in zip(params, before)))
            norms.steps.append((float(grad), float(update)))
            return result

        torch.optim.Adam.step = step

    def epoch(self) -> str:
        """The epoch's largest and median norms, and a fresh count for the next."""
        grads, updates = sorted(g for g, _ in self.steps), sorted(u for _, u in self.steps)
        self.steps = []
        mid = len(grads) // 2
        return f"grad max {grads[-1]:.3f} med {grads[mid]:.4f}  update max {updates[-1]:.4f} med {updates[mid]:.4f}"


def main() -> None:
    """Train the defaults and print each epoch and the worst drop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=TrainConfig().epochs)
    parser.add_argument("--decay-after", type=int, default=DECAY_AFTER, help="0: a constant lr (before issue 41)")
    parser.add_argument("--beta2", type=float, default=TRAIN_BETA2, help="Adam's β2 (before issue 41: 0.999)")
    parser.add_argument("--eps", type=float, default=TRAIN_EPS, help="Adam's ε (before: torch's 1e-8)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    pairs = [(p.source, p.target) for p in corpus.generate()]
    split = split_pairs(pairs, "random", HOLDOUT, args.seed, "auto")
    cfg = TrainConfig(
        epochs=args.epochs,
        seed=args.seed,
        threads=1,
        decay_after=args.decay_after or None,
        beta2=args.beta2,
        eps=args.eps,
    )
    plan = TrainingPlan.from_split(pairs, split, HOLDOUT, "auto", {}, cfg)
    translator = plan.build()
    norms = Norms()
    best, worst, started = 0.0, (0.0, 0), time.perf_counter()
    for record in plan.train(translator):
        exact = float("nan")
        if record.epoch >= 30 or record.epoch % 5 == 0:
            exact = translator.evaluate(plan.held_pairs).exact_match
            best = max(best, exact)
            if best - exact > worst[0]:
                worst = (best - exact, record.epoch)
        print(
            f"seed {args.seed} epoch {record.epoch:3d}  loss {record.loss:.5f}  held out: loss "
            f"{record.holdout_loss:.4f} token accuracy {record.holdout_accuracy:.3f} exact {exact:.3f}  "
            f"{norms.epoch()}  lr {record.lr:.2g}  {time.perf_counter() - started:.0f} s",
            flush=True,
        )
    print(f"seed {args.seed}: worst drop of held-out exact {worst[0]:.1%} at epoch {worst[1]} (best {best:.1%})")


if __name__ == "__main__":
    main()
