"""The whole `python -m transformer translate` process on a random model of opus-mt-zh-en's exact shape (issue 40,
"Speed and memory": at most 1.5 × transformers' from_pretrained plus greedy generate, load included).

Both sides are fresh processes given the same 5 sentences, each decoded alone and greedily to the same cap (a random
model seldom ends a sentence: both stop after MAX_DECODE_LEN = 50 tokens, or at </s>):

    ours          python -m transformer translate --model FOLDER S1 … S5
    transformers  python -c "import transformers; MarianMTModel.from_pretrained(FOLDER); MarianTokenizer(…);
                  generate(num_beams=1, max_new_tokens=50, <pad> never chosen) per sentence"

Rounds alternate the two, so both see the same machine. Each process's wall seconds and CPU seconds (user + system,
what the work costs even when other processes share the cores) are printed, the medians and the ratio, idle and with
another core kept busy (a `while True: pass` process), with the load average before each. Both print the same
translations (checked).

    .venv/bin/python benchmarks/marian_translate.py [--rounds 3] [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from _marian import SENTENCES, busy_core, load, marian_folder
from _root import ROOT

from transformer.config import MAX_DECODE_LEN

TRANSFORMERS = """
import sys
import torch
from transformers import MarianMTModel, MarianTokenizer
folder, sentences = sys.argv[1], sys.argv[2:]
model = MarianMTModel.from_pretrained(folder).eval()
tokenizer = MarianTokenizer(f"{folder}/source.spm", f"{folder}/target.spm", f"{folder}/vocab.json")
pad = model.config.pad_token_id
with torch.no_grad():
    for sentence in sentences:
        ids = tokenizer(sentence, return_tensors="pt")["input_ids"]
        out = model.generate(ids, num_beams=1, do_sample=False, max_new_tokens={cap}, bad_words_ids=[[pad]],
                             forced_eos_token_id=None)
        print(tokenizer.decode(out[0], skip_special_tokens=True))
""".replace("{cap}", str(MAX_DECODE_LEN))


def run_child(cmd: list[str]) -> tuple[float, float, str]:
    """(wall, CPU, stdout) of cmd in a fresh process, its CPU read from the kernel's accounting of that child."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = os.times()
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd[:4])} failed: {done.stderr[-600:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, done.stdout


def measure(rounds: int, busy: bool) -> dict:
    """Medians over rounds of both processes, alternating, with another core busy or not."""
    folder = str(marian_folder())
    ours_cmd = [sys.executable, "-m", "transformer", "translate", "--model", folder, *SENTENCES]
    theirs_cmd = [sys.executable, "-c", TRANSFORMERS, folder, *SENTENCES]
    figures = {"ours": [], "transformers": []}
    outputs = {}
    with busy_core(busy):
        seen = load()
        for _ in range(rounds):
            for name, cmd in (("ours", ours_cmd), ("transformers", theirs_cmd)):
                wall, cpu, out = run_child(cmd)
                figures[name].append((wall, cpu))
                # the same words: a filler piece of the vocabulary (▁w123) is not in target.spm, whose
                # decode_pieces (ours) keeps its ▁ where transformers' decode writes a space
                outputs[name] = [" ".join(line.replace("▁", " ").split()) for line in out.splitlines()]
    result = {"busy": busy, "load": seen, "same_translations": outputs["ours"] == outputs["transformers"]}
    for ours, theirs in zip(outputs["ours"], outputs["transformers"]):
        if ours != theirs:
            print(f"  differ:\n    ours          {ours[:150]}\n    transformers  {theirs[:150]}")
    for name, runs in figures.items():
        result[name] = {
            "wall_s": statistics.median(w for w, _ in runs),
            "cpu_s": statistics.median(c for _, c in runs),
            "runs": runs,
        }
    result["ratio_wall"] = result["ours"]["wall_s"] / result["transformers"]["wall_s"]
    result["ratio_cpu"] = result["ours"]["cpu_s"] / result["transformers"]["cpu_s"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of both processes (default 3)")
    parser.add_argument("--quick", action="store_true", help="one round, idle only")
    args = parser.parse_args()
    rounds = 1 if args.quick else args.rounds
    print(f"{len(SENTENCES)} sentences, greedy, cap {MAX_DECODE_LEN} tokens; {time.strftime('%Y-%m-%d %H:%M')}")
    results = [measure(rounds, busy) for busy in ((False,) if args.quick else (False, True))]
    head = f"{'another core':<14}{'ours s':>9}{'hf s':>8}{'ratio':>7}{'ours CPU s':>12}{'hf CPU s':>10}{'ratio':>7}"
    print(f"\n{head}  load")
    for r in results:
        print(
            f"{'busy' if r['busy'] else 'idle':<14}{r['ours']['wall_s']:>9.2f}{r['transformers']['wall_s']:>8.2f}"
            f"{r['ratio_wall']:>7.2f}{r['ours']['cpu_s']:>12.2f}{r['transformers']['cpu_s']:>10.2f}"
            f"{r['ratio_cpu']:>7.2f}  {r['load']}"
        )
    print(f"target: ratio (wall) <= 1.5; same translations: {all(r['same_translations'] for r in results)}")


if __name__ == "__main__":
    main()
