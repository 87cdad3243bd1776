"""When does a second torch thread help one training? Training-step time with 1 and 2 intra-op threads over the sizes
the Train page offers (and one larger, for the command line), idle and with one other core busy.

The work of a step is counted as parameters × tokens in a batch, the figure `transformer.train.intra_op_threads`
compares with MULTI_THREAD_WORK. Prints a table and writes JSON:

    .venv/bin/python benchmarks/threads.py          # about 3 minutes
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
from _root import ROOT

from benchmarks.bench import VOCAB, median_ms, train_step
from benchmarks.load import busy_core
from transformer import TransformerConfig
from transformer.model import Transformer, parameter_count
from transformer.train import MULTI_THREAD_WORK, intra_op_threads

LENGTH = 10  # tokens per sentence, about the bundled pairs' padded length
SIZES = [  # (d_model, n_heads, d_ff, n_layers, batch)
    (64, 4, 128, 2, 16),  # the defaults
    (64, 4, 128, 2, 64),
    (128, 4, 512, 2, 16),
    (128, 4, 512, 2, 64),
    (256, 8, 1024, 2, 16),
    (256, 8, 1024, 2, 64),
    (256, 8, 1024, 6, 16),
    (256, 8, 1024, 6, 64),  # the largest the Train page offers
    (512, 8, 2048, 6, 64),  # command line only
]


def step_ms(step, threads: int, seconds: float = 1.0) -> float:
    """Median milliseconds of a training step on `threads` intra-op threads, over about `seconds` of steps."""
    torch.set_num_threads(threads)
    once = median_ms(step, 1, warmup=1)
    return median_ms(step, max(3, min(50, int(seconds * 1e3 / max(once, 0.1)))), warmup=0)


def measure() -> list[dict]:
    rows = []
    for d_model, n_heads, d_ff, n_layers, batch in SIZES:
        cfg = TransformerConfig(VOCAB, VOCAB, d_model=d_model, n_heads=n_heads, d_ff=d_ff, n_layers=n_layers)
        torch.manual_seed(0)
        step = train_step(Transformer(cfg), batch, LENGTH)
        row = {
            "d_model": d_model,
            "d_ff": d_ff,
            "n_layers": n_layers,
            "batch": batch,
            "work": parameter_count(cfg) * batch * LENGTH,
            "threads_chosen": intra_op_threads(cfg, batch * LENGTH, cores=2, busy=0.0),  # on free cores
        }
        for label, busy in (("idle", False), ("busy", True)):
            with busy_core(busy):
                one, two = step_ms(step, 1), step_ms(step, 2)
            row[label] = {"one_ms": one, "two_ms": two, "speedup": one / two}
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "threads.json")
    args = parser.parse_args()
    threads = torch.get_num_threads()
    try:
        rows = measure()
    finally:
        torch.set_num_threads(threads)
    print(f"MULTI_THREAD_WORK = {MULTI_THREAD_WORK:.0e}; speedup = step time on 1 thread / on 2 threads")
    print(
        f"{'d_model d_ff layers batch':<27}{'work':>9}  {'idle 1 / 2 threads ms':>22}{'x':>6}  "
        f"{'busy 1 / 2 ms':>15}{'x':>6}  chosen"
    )
    for r in rows:
        idle, busy = r["idle"], r["busy"]
        print(
            f"{r['d_model']:>7} {r['d_ff']:>4} {r['n_layers']:>6} {r['batch']:>5}    {r['work']:>9.1e}  "
            f"{idle['one_ms']:>10.1f} / {idle['two_ms']:>8.1f}{idle['speedup']:>6.2f}  "
            f"{busy['one_ms']:>7.1f} / {busy['two_ms']:>5.1f}{busy['speedup']:>6.2f}  {r['threads_chosen']}"
        )
    args.json.write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), "length": LENGTH, "rows": rows}, indent=2))
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
