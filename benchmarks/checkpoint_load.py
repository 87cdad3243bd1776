"""Loading the bundled checkpoint and counting a model's parameters from its sizes (docs/performance.md "What was fixed
on the way"): the median wall time of each over several repeats, in a process that has imported torch and the
package but built no model yet, and whether the loader imported torch._dynamo (1.7 s when it built on `meta`).

    .venv/bin/python benchmarks/checkpoint_load.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from _root import ROOT

from transformer.checkpoint import load_checkpoint
from transformer.config import TransformerConfig
from transformer.model import parameter_count


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    path = ROOT / "assets" / "model.safetensors"
    start = time.perf_counter()
    translator = load_checkpoint(path)
    first = 1000 * (time.perf_counter() - start)
    print(f"first load of {path.name}: {first:.0f} ms (torch._dynamo imported: {'torch._dynamo' in sys.modules})")
    print(f"load, median of {args.repeats}: {_median_ms(lambda: load_checkpoint(path), args.repeats):.1f} ms")
    config = translator.config
    assert isinstance(config, TransformerConfig)
    n = parameter_count(config)
    ms = _median_ms(lambda: parameter_count(config), args.repeats)
    print(f"parameter count from the sizes ({n:,}), median of {args.repeats}: {ms:.3f} ms")


if __name__ == "__main__":
    main()
