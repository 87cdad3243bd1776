"""Real-shaped data (issue 29 §2, §7): the everyday English–Chinese pairs of tests/fixtures/everyday_cmn_eng.txt (in the
Tatoeba/Anki format, written for this project; nothing is downloaded), scaled to 30,000 and 50,000 pairs by
repetition with variation, then read (columns and roles), checked and summarised as the Data page does, with the
time, the peak of Python's allocations (tracemalloc) and the growth of the process's resident memory; and the Data
page drawn with the file uploaded, through Streamlit's AppTest (the script run in this process: what the server
computes and sends, not the browser's drawing).

Then (§7) the vocabulary sizes with each tokenizer, and training: one epoch of the default model with BPE pieces
(vocabulary 4,000, learned from the training pairs) on one thread, on 3,000 pairs (every 10th of the 30,000: the same
length distribution) and on 30,000; the evaluation a training ends with (transformer.plan.finish: every training pair
decoded and teacher-forced, or past TRAIN_SAMPLE of them a seeded sample of that many; --full-evaluation times every
pair as well), against the epochs the Train page's recipe gives 30,000 pairs; and the process's peak resident memory.

Targets: 50,000 pairs read, checked and summarised in ≤ 2 s; the Data page drawn in ≤ 2 s; session memory ≤ +200 MB;
one epoch of 30,000 pairs ≤ 20 s on one thread, and ≤ 11× the epoch of 3,000; the evaluation at the end of training
≤ 25 % of the training time.

    .venv/bin/python benchmarks/real_data.py                # 30,000 and 50,000 pairs, training, and the page
    .venv/bin/python benchmarks/real_data.py --skip-page --skip-training --json out.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import time
import tracemalloc
from pathlib import Path

import torch
from _root import ROOT

from transformer import TrainConfig, Translator, train
from transformer.bpe import tokenizer_for
from transformer.columns import infer_roles, read_file, take_pairs
from transformer.config import MAX_DATA_BYTES
from transformer.data import TOKENIZERS, build_vocabs, summarize_pairs
from transformer.plan import TRAIN_SAMPLE, finish

FIXTURE = ROOT / "tests" / "fixtures" / "everyday_cmn_eng.txt"
TOP_TOKENS = 20  # as the Data page's summary shows
BPE_VOCAB = 4_000  # the pieces of the BPE tokenizer timed (issue 29 §7)
SMALL_SHARE = 10  # the small training set: every 10th pair of the large one
# the variations of a repeated pair: a name said first, then (past the 20th copy) a short follow-up sentence
NAMES = [
    ("Anna", "安娜"), ("Tom", "汤姆"), ("Lily", "莉莉"), ("Jack", "杰克"), ("Mary", "玛丽"), ("David", "大卫"),
    ("Lucy", "露西"), ("Mike", "迈克"), ("Emma", "艾玛"), ("Sam", "山姆"), ("Kate", "凯特"), ("Ben", "本"),
    ("Amy", "艾米"), ("Peter", "彼得"), ("Linda", "琳达"), ("Paul", "保罗"), ("Grace", "格蕾丝"), ("Leo", "利奥"),
    ("Nina", "妮娜"), ("Mark", "马克"),
]  # fmt: skip
FOLLOW_UPS = [
    ("", ""), (" Really.", "真的。"), (" Thanks.", "谢谢。"), (" Okay?", "好吗？"), (" Come on.", "快点。"),
    (" Listen.", "听着。"), (" I mean it.", "我是认真的。"), (" Trust me.", "相信我。"), (" Look.", "你看。"),
    (" Sorry.", "抱歉。"), (" Don't worry.", "别担心。"), (" Hurry up.", "快一点。"), (" Right?", "对吧？"),
    (" Wait.", "等等。"), (" See?", "明白了吧？"),
]  # fmt: skip


def load() -> str:
    """The machine's load averages and cores, to print beside the figures."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def rss_mb() -> float:
    """This process's resident memory in MB (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def scaled(n: int) -> bytes:
    """n pairs in the fixture's format: the fixture, then copies of it, each pair of copy k said to a name (k % 20)
    and, past the first 20 copies, followed by a short sentence (k // 20 % 15), with its own sentence numbers."""
    rows = [line.split("\t") for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    out = []
    for i in range(n):
        copy, (en, zh, credit) = divmod(i, len(rows))[0], rows[i % len(rows)]
        if copy:
            (name, name_zh), (tail, tail_zh) = (
                NAMES[copy % len(NAMES)],
                FOLLOW_UPS[copy // len(NAMES) % len(FOLLOW_UPS)],
            )
            en, zh = f"{name}, {en[0].lower()}{en[1:]}{tail}", f"{name_zh}，{zh}{tail_zh}"
            credit = credit.replace("#", f"#{copy}", 1)
        out.append(f"{en}\t{zh}\t{credit}\n")
    return "".join(out).encode()


def read_check_summarise(data: bytes) -> tuple[dict, object]:
    """Seconds to read the file's columns and take its pairs, to check and count them, and to build the vocabularies
    and top tokens the Data page shows."""
    cpu = time.process_time()
    start = time.perf_counter()
    found = read_file(data, "cmn-eng.txt")
    taken = take_pairs(found, infer_roles(found))
    read = time.perf_counter()
    summary = summarize_pairs(taken.pairs)
    checked = time.perf_counter()
    vocabs = summary.vocabs()
    summary.most_common("source", TOP_TOKENS), summary.most_common("target", TOP_TOKENS)
    done = time.perf_counter()
    times = {"read": read - start, "check_and_count": checked - read, "vocabularies": done - checked}
    times["total"] = done - start
    times["total_cpu"] = time.process_time() - cpu  # what a loaded machine stretches less than wall time
    return times, (found, taken, summary, vocabs)


def measure(n: int, repeats: int) -> dict:
    """Timings (median of repeats) and memory of read + check + summary for n pairs."""
    data = scaled(n)
    runs = [read_check_summarise(data)[0] for _ in range(repeats)]
    times = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    gc.collect()
    before = rss_mb()
    tracemalloc.start()
    _, kept = read_check_summarise(data)
    _, peak = tracemalloc.get_traced_memory()
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    found, taken, summary, vocabs = kept
    lengths = summary.src_lengths, summary.tgt_lengths
    return {
        "pairs": len(taken.pairs),
        "bytes": len(data),
        "mean_tokens": [round(statistics.mean(x), 2) for x in lengths],
        "vocab_sizes": [len(v) for v in vocabs],
        "seconds": {k: round(v, 3) for k, v in times.items()},
        "tracemalloc_peak_mb": round(peak / 1e6, 1),
        "tracemalloc_kept_mb": round(current / 1e6, 1),
        "rss_growth_mb": round(rss_mb() - before, 1),
    }


def reset_peak_rss() -> bool:
    """Start this process's peak resident memory (VmHWM) again from its memory now (Linux 4.0+); False when it
    cannot, and peak_rss_mb is then the peak since the process started."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB: VmHWM (since reset_peak_rss), else ru_maxrss (kB)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1e3
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def pairs_of(n: int) -> list[tuple[str, str]]:
    """The n scaled pairs as the Data page takes them (Chinese → English)."""
    found = read_file(scaled(n), "cmn-eng.txt")
    return take_pairs(found, infer_roles(found)).pairs


def vocabularies(pairs: list[tuple[str, str]]) -> dict:
    """The source and target vocabulary sizes (specials included) with each tokenizer, BPE with BPE_VOCAB pieces,
    and the seconds BPE takes to learn them."""
    out = {}
    for choice in TOKENIZERS:
        start = time.perf_counter()
        tokenizer = tokenizer_for(choice, pairs, BPE_VOCAB)
        learned = time.perf_counter() - start
        out[choice] = [len(v) for v in build_vocabs(pairs, tokenizer)]
        if choice == "bpe":
            out["bpe_learn_s"] = round(learned, 2)
    return out


def one_epoch(pairs: list[tuple[str, str]]) -> tuple[Translator, dict]:
    """One epoch of the default model (TrainConfig's batch size and learning rate) on one thread, with BPE_VOCAB
    pieces learned from the pairs: the trained model, and the epoch's wall and CPU seconds."""
    translator = Translator.create(pairs, tokenizer_for("bpe", pairs, BPE_VOCAB))
    cpu = time.process_time()
    record = next(train(translator, pairs, TrainConfig(epochs=1, threads=1)))
    return translator, {"epoch_s": round(record.seconds, 2), "epoch_cpu_s": round(time.process_time() - cpu, 2)}


def evaluation(translator: Translator, pairs: list[tuple[str, str]], sample: int) -> dict:
    """Wall and CPU seconds of transformer.plan.finish on pairs (one thread), scoring at most sample of them, and how
    many it scored."""
    torch.set_num_threads(1)
    cpu, start = time.process_time(), time.perf_counter()
    finish(translator, pairs, [], sample=sample)
    scored = (translator.summary.sampled or (len(pairs),))[0]
    return {"s": round(time.perf_counter() - start, 2), "cpu_s": round(time.process_time() - cpu, 2), "scored": scored}


def training(n: int, full: bool = False) -> dict:
    """The epoch of n pairs against the epoch of every SMALL_SHARE-th of them, the evaluation at the end of the
    training of the n pairs (a sample of TRAIN_SAMPLE decoded and teacher-forced, one thread; with full, every pair
    too) against the epochs the Train page's recipe gives n pairs, and the peak memory."""
    from ui.session import own_recipe  # the recipe the Train page gives a learner's own pairs (a pure function

    pairs = pairs_of(n)
    gc.collect()
    out: dict = {"rss_before_mb": round(rss_mb()), "peak_reset": reset_peak_rss()}
    one_epoch(pairs[: SMALL_SHARE * 16])  # torch's first steps in a process are slower: not counted
    _, small = one_epoch(pairs[::SMALL_SHARE])
    out[f"epoch_{len(pairs[::SMALL_SHARE])}"] = small
    translator, large = one_epoch(pairs)
    out["peak_rss_training_mb"] = round(peak_rss_mb())
    gc.collect()
    out["peak_reset_evaluation"] = reset_peak_rss()
    out[f"epoch_{n}"] = large
    out["parameters_default_bpe"] = translator.model.num_parameters()
    out["vocab_default_bpe"] = [len(translator.src_vocab), len(translator.tgt_vocab)]
    out["epoch_ratio"] = round(large["epoch_s"] / small["epoch_s"], 2)
    out["epoch_cpu_ratio"] = round(large["epoch_cpu_s"] / small["epoch_cpu_s"], 2)
    recipe = own_recipe(n)
    out["recipe_epochs"] = recipe["epochs"]
    training_s = recipe["epochs"] * large["epoch_s"]  # the recipe trains on n less the share it holds out
    training_cpu_s = recipe["epochs"] * large["epoch_cpu_s"]
    for name, sample in (("evaluation", TRAIN_SAMPLE), ("evaluation_full", n))[: 2 if full else 1]:
        timed = evaluation(translator, pairs, sample)
        out[f"{name}_scored"] = timed["scored"]
        out[f"{name}_s"], out[f"{name}_cpu_s"] = timed["s"], timed["cpu_s"]
        out[f"{name}_share_of_recipe_training"] = round(timed["s"] / training_s, 3)
        out[f"{name}_cpu_share_of_recipe_training"] = round(timed["cpu_s"] / training_cpu_s, 3)
        out[f"{name}_cpu_per_pair_over_epoch"] = round(timed["cpu_s"] / timed["scored"] / (large["epoch_cpu_s"] / n), 2)
        # the most pairs scored within 25 % of the training, at the CPU rate measured (the wall rate varies with load)
        out[f"{name}_largest_sample_for_target"] = int(0.25 * training_cpu_s / (timed["cpu_s"] / timed["scored"]))
    out["peak_rss_evaluation_mb"] = round(peak_rss_mb())
    return out


def page(n: int) -> dict:
    """The Data page through AppTest: the run that takes an upload of n pairs (reading, checking and drawing), then a
    rerun of the page as a click makes, and the resident memory the session added."""
    from tests.apptest_helpers import open_app

    at = open_app("en", None, data_dataset="tutorial")
    gc.collect()
    before = rss_mb()
    data = scaled(n)
    cpu, start = time.process_time(), time.perf_counter()
    at.file_uploader(key="pairs_upload").upload("cmn-eng.txt", data, "text/plain").run()
    uploaded, uploaded_cpu = time.perf_counter() - start, time.process_time() - cpu
    assert not at.exception and len(at.session_state.pairs) == n, at.exception
    cpu, start = time.process_time(), time.perf_counter()
    at.run()
    rerun, rerun_cpu = time.perf_counter() - start, time.process_time() - cpu
    gc.collect()
    return {
        "upload_run_s": round(uploaded, 3),
        "upload_run_cpu_s": round(uploaded_cpu, 3),
        "rerun_s": round(rerun, 3),
        "rerun_cpu_s": round(rerun_cpu, 3),
        "rss_growth_mb": round(rss_mb() - before),
    }


def main() -> None:
    """Print the figures (and write them as JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-page", action="store_true", help="leave out the Data page through AppTest")
    parser.add_argument("--skip-training", action="store_true", help="leave out the vocabularies and the training")
    parser.add_argument(
        "--full-evaluation", action="store_true", help="also time the evaluation of every training pair, not a sample"
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    print(load())
    results: dict = {"load": load()}
    for n in (30_000, 50_000):
        figures = measure(n, args.repeats)
        results[str(n)] = figures
        print(
            f"{n:,} pairs ({figures['bytes']:,} bytes, the limit {MAX_DATA_BYTES:,}; mean tokens source/target "
            f"{figures['mean_tokens']}; vocabularies {figures['vocab_sizes']}): read {figures['seconds']['read']} s, "
            f"check and count {figures['seconds']['check_and_count']} s, vocabularies and top tokens "
            f"{figures['seconds']['vocabularies']} s, total {figures['seconds']['total']} s (target ≤ 2 s; CPU "
            f"{figures['seconds']['total_cpu']} s); "
            f"tracemalloc peak {figures['tracemalloc_peak_mb']} MB, kept {figures['tracemalloc_kept_mb']} MB, "
            f"RSS +{figures['rss_growth_mb']} MB"
        )
    if not args.skip_training:
        for n in (30_000, 50_000):
            sizes = vocabularies(pairs_of(n))
            results[f"vocabularies_{n}"] = sizes
            listed = ", ".join(f"{k} {v[0]:,} / {v[1]:,}" for k, v in sizes.items() if k in TOKENIZERS)
            print(
                f"{n:,} pairs: vocabularies source / target: {listed} (BPE of {BPE_VOCAB:,} learned in "
                f"{sizes['bpe_learn_s']} s)"
            )
        figures = training(30_000, args.full_evaluation)
        results["training"] = figures
        small, large = (figures[f"epoch_{n}"] for n in (30_000 // SMALL_SHARE, 30_000))
        print(
            f"one epoch, default model ({figures['parameters_default_bpe']:,} parameters; BPE {BPE_VOCAB:,}: "
            f"vocabularies {figures['vocab_default_bpe']}), one thread: 3,000 pairs {small['epoch_s']} s (CPU "
            f"{small['epoch_cpu_s']} s), 30,000 pairs {large['epoch_s']} s (CPU {large['epoch_cpu_s']} s; target "
            f"≤ 20 s); 30,000 against 3,000: {figures['epoch_ratio']}× (CPU {figures['epoch_cpu_ratio']}×; target "
            f"≤ 11×)"
        )
        for name in ("evaluation", "evaluation_full"):
            if f"{name}_s" not in figures:
                continue
            print(
                f"evaluation at the end of training 30,000 pairs, {figures[f'{name}_scored']:,} of them scored: "
                f"{figures[f'{name}_s']} s (CPU {figures[f'{name}_cpu_s']} s) = "
                f"{figures[f'{name}_share_of_recipe_training']:.0%} of the {figures['recipe_epochs']} epochs the "
                "Train page's recipe trains 30,000 pairs for (CPU "
                f"{figures[f'{name}_cpu_share_of_recipe_training']:.0%}; target ≤ 25 %: at most "
                f"{figures[f'{name}_largest_sample_for_target']:,} pairs scored would meet it in CPU time; "
                f"scoring a pair costs {figures[f'{name}_cpu_per_pair_over_epoch']}× an epoch's share of "
                "it)"
            )
        print(
            f"peak resident memory {figures['peak_rss_training_mb']:,} MB while learning BPE and training the two "
            f"epochs, {figures['peak_rss_evaluation_mb']:,} MB while evaluating (from {figures['rss_before_mb']:,} MB "
            f"before{'' if figures['peak_reset'] else '; the peak since the process started'})"
        )
    if not args.skip_page:
        figures = page(50_000)
        results["page_50000"] = figures
        print(
            f"Data page (AppTest), 50,000 pairs: the upload's run {figures['upload_run_s']} s (CPU "
            f"{figures['upload_run_cpu_s']} s), a rerun {figures['rerun_s']} s (CPU {figures['rerun_cpu_s']} s) "
            f"(target ≤ 2 s); the session's RSS +{figures['rss_growth_mb']} MB (target ≤ +200 MB)"
        )
    print(load())
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
