"""One fine-tuning epoch of a model of opus-mt-zh-en's exact shape (issue 40 §5, "Speed and memory": at most 30 s on
one thread for 150 pairs).

The model is random, built offline from a Marian config of opus-mt-zh-en's sizes (65,001 tokens, d_model 512, 6 + 6
layers, 8 heads, d_ff 2,048, swish, biases, the tied shared vocabulary) through transformer.marian's own reading of a
config; the 150 pairs are random tokens of that vocabulary, sentence lengths of everyday pairs (8-14 pieces a side).
It goes through what the Train page and `train --from` run: TrainingPlan.continuing → build (the caller's own copy)
→ the held-out pairs scored before (each decoded greedily: a random model never ends a sentence, so each runs to the
decoding cap) → one epoch, and prints the wall and CPU seconds of each part (CPU seconds are what the work costs
when other processes share the cores) and the process's peak resident memory.

    .venv/bin/python benchmarks/finetune_epoch.py [--pairs 150] [--batch-size 16] [--held 15]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from dataclasses import replace

from _marian import MARIAN_ZH_EN  # opus-mt-zh-en's shape, as the other Marian benchmarks build it
from _root import ROOT  # noqa: F401  (the project on the path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=150)
    parser.add_argument("--held", type=int, default=15)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args()

    import torch

    from transformer import TrainConfig, Translator
    from transformer.data import Vocab
    from transformer.marian import marian_transformer_config
    from transformer.model import Transformer
    from transformer.plan import TrainingPlan
    from transformer.spm import MARIAN_SPECIALS

    torch.set_num_threads(1)
    cfg = marian_transformer_config(MARIAN_ZH_EN)
    torch.manual_seed(0)
    started = time.perf_counter()
    model = Transformer(cfg).eval()
    itos = ["</s>", "<unk>", *(f"w{i}" for i in range(2, 65000)), "<pad>"]
    vocab = Vocab(itos, MARIAN_SPECIALS)
    base = Translator(model, vocab, vocab, "whitespace").share()
    built = time.perf_counter() - started
    rng = random.Random(0)

    def sentence() -> str:
        return " ".join(f"w{rng.randrange(2, 65000)}" for _ in range(rng.randint(8, 14)))

    pairs = [(sentence(), sentence()) for _ in range(args.pairs + args.held)]
    settings = TrainConfig(epochs=1, batch_size=args.batch_size, threads=1, lr=1e-5)
    plan = TrainingPlan.continuing(base, pairs, None, 0.0, settings)  # then the last `held` pairs held out:
    plan = replace(plan, train_pairs=pairs[: args.pairs], held_pairs=pairs[args.pairs :])
    t0 = time.perf_counter()
    tuned = plan.build()
    copied = time.perf_counter() - t0
    t0, cpu0 = time.perf_counter(), time.process_time()
    before = plan.before(tuned)
    scored_before, before_cpu = time.perf_counter() - t0, time.process_time() - cpu0
    t0, cpu0 = time.perf_counter(), time.process_time()
    (record,) = list(plan.train(tuned))
    epoch, epoch_cpu = time.perf_counter() - t0, time.process_time() - cpu0  # CPU: what other work on the cores hides
    print(
        json.dumps(
            {
                "parameters": tuned.model.num_parameters(),
                "pairs": args.pairs,
                "held_out": args.held,
                "batch_size": args.batch_size,
                "threads": torch.get_num_threads(),
                "build_s": round(built, 1),
                "own_copy_s": round(copied, 2),
                "before_s": round(scored_before, 1),
                "before_cpu_s": round(before_cpu, 1),
                "epoch_s": round(epoch, 1),
                "epoch_cpu_s": round(epoch_cpu, 1),
                "epoch_loss": round(record.loss, 3),
                "before_exact": before.scores.exact,
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            }
        )
    )


if __name__ == "__main__":
    main()
