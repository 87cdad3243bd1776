"""Beam search against greedy decoding on a dataset: for every beam size K and length penalty α, on how many pairs
beam search's best hypothesis scores worse than greedy's output under the same scoring (log P / lp(length, α)),
and which sources. Also the mean number of steps a search takes and its time per sentence.

Greedy is scored here from its own step distributions, independently of transformer.decoding, so the table means
the same before and after a change to beam search. Prints a table and writes JSON:

    .venv/bin/python benchmarks/beam_vs_greedy.py                      # the bundled pairs and checkpoint
    .venv/bin/python benchmarks/beam_vs_greedy.py --model m.safetensors --pairs p.tsv --json out.json

The counts do not depend on the machine; the times do (measure them on a quiet machine).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from _root import ROOT

from transformer.checkpoint import load_checkpoint
from transformer.data import parse_pairs
from transformer.decoding import beam_search, beam_search_batch, greedy_decode, lp

BEAM_SIZES = (2, 4, 10)
ALPHAS = (0.0, 0.6)
TOLERANCE = 1e-5  # the same hypothesis scored by two computations may differ by float rounding


def greedy_score(translator, enc_input, alpha: float) -> tuple[list[str], float]:
    """Greedy decoding's tokens and their score log P / lp(length, α), E counted in the length when chosen."""
    result = greedy_decode(translator.model, enc_input, translator.tgt_vocab, return_attn=False)
    log_prob = sum(math.log(float(step.probs[step.token_id])) for step in result.steps)
    return result.tokens, log_prob / lp(len(result.tokens) + (result.stop_reason == "eos"), alpha)


def measure(translator, sources: list[str]) -> list[dict]:
    """One row per (K, α): the sources where beam search (one sentence at a time, and batched) lost to greedy."""
    encoded = [translator.encode_source(s)[0] for s in sources]
    enc_inputs = translator.make_batch([(s, "") for s in sources]).enc_inputs  # (B, Ls), padded with P
    rows = []
    for beam_size in BEAM_SIZES:
        for alpha in ALPHAS:
            worse, worse_batched, steps, seconds = [], [], 0, 0.0
            batched = beam_search_batch(translator.model, enc_inputs, translator.tgt_vocab, beam_size, alpha)
            for source, enc_input, batch_best in zip(sources, encoded, batched, strict=True):
                greedy_tokens, greedy = greedy_score(translator, enc_input, alpha)
                start = time.perf_counter()
                result = beam_search(translator.model, enc_input, translator.tgt_vocab, beam_size, alpha)
                seconds += time.perf_counter() - start
                steps += len(result.steps)
                if result.best.score < greedy - TOLERANCE:
                    worse.append(
                        {
                            "source": source,
                            "beam": result.best.text,
                            "beam_score": round(result.best.score, 4),
                            "greedy": " ".join(greedy_tokens),
                            "greedy_score": round(greedy, 4),
                        }
                    )
                if batch_best.score < greedy - TOLERANCE:
                    worse_batched.append(source)
            rows.append(
                {
                    "beam_size": beam_size,
                    "alpha": alpha,
                    "pairs": len(sources),
                    "worse": worse,
                    "worse_batched": worse_batched,
                    "mean_steps": round(steps / len(sources), 2),
                    "ms_per_sentence": round(1e3 * seconds / len(sources), 2),
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=ROOT / "assets" / "model.safetensors")
    parser.add_argument("--pairs", type=Path, default=ROOT / "assets" / "pairs.tsv")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    translator = load_checkpoint(args.model)
    sources = [s for s, _ in parse_pairs(args.pairs.read_bytes())]
    rows = measure(translator, sources)
    print("| K | α | beam worse than greedy | batched | mean steps | ms / sentence | sources |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        names = ", ".join(f"`{w['source']}`" for w in row["worse"]) or "–"
        print(
            f"| {row['beam_size']} | {row['alpha']} | {len(row['worse'])} of {row['pairs']} | "
            f"{len(row['worse_batched'])} | {row['mean_steps']} | {row['ms_per_sentence']} | {names} |"
        )
    for row in rows:
        for w in row["worse"]:
            print(
                f"K={row['beam_size']} α={row['alpha']} {w['source']}: beam {w['beam']!r} {w['beam_score']} "
                f"< greedy {w['greedy']!r} {w['greedy_score']}"
            )
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
