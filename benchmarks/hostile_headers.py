"""How long the checkpoint loader takes to judge hostile JSON (issue 43 §1): each of the hostile headers of the largest
size a header may have, and each hostile metadata field (tests/transformer/hostile_json.py), loaded `--repeats` times;
the wall-clock and CPU seconds of the slowest repeat of each, then the slowest of all against the 0.5 s target. Run it
idle, then with `--busy`: one other process (`yes`) keeps one core busy meanwhile. The load average is printed first:
figures taken on a busy machine are not an idle machine's.

    .venv/bin/python benchmarks/hostile_headers.py           # idle
    .venv/bin/python benchmarks/hostile_headers.py --busy    # with another core busy
"""

from __future__ import annotations

import argparse
import os
import time

import _root  # noqa: F401  (the checkout on sys.path)

from benchmarks.load import busy_core
from tests.transformer.hostile_json import HOSTILE_HEADERS, header_file, hostile_fields, seconds_to_load

TARGET_SECONDS = 0.5  # any header of up to the size limit refused or accepted within this (issue 43)


def _slowest(data: bytes, repeats: int) -> tuple[float, float]:
    """(wall-clock, CPU) seconds of the slowest of repeats loads of data."""
    runs = [(seconds_to_load(data, time.perf_counter), seconds_to_load(data)) for _ in range(repeats)]
    return max(w for w, _ in runs), max(c for _, c in runs)


def main() -> None:
    """Print each case's slowest wall-clock and CPU seconds, then the slowest case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--busy", action="store_true", help="keep one core busy with another process meanwhile")
    args = parser.parse_args()
    cases = {f"header: {name}": header_file(text) for name, text in HOSTILE_HEADERS.items()}
    cases.update({f"field: {name}": data for name, data in hostile_fields().items()})
    busy = "one core kept busy" if args.busy else "no core kept busy"
    print(f"load average {os.getloadavg()[0]:.2f}; {busy} by this script; {args.repeats} repeats")
    results = {}
    with busy_core(args.busy):
        for name, data in cases.items():
            results[name] = _slowest(data, args.repeats)
            print(f"{results[name][0]:7.3f} s wall  {results[name][1]:7.3f} s CPU  {len(data):>11,} bytes  {name}")
    worst = max(results, key=lambda name: results[name][0])
    wall, cpu = results[worst]
    verdict = "met" if wall <= TARGET_SECONDS else "NOT met"
    print(f"slowest: {worst}, {wall:.3f} s wall ({cpu:.3f} s CPU); target ≤ {TARGET_SECONDS} s: {verdict}")


if __name__ == "__main__":
    main()
