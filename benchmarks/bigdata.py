"""Real-sized data: a generated 20,000-pair file (tests/e2e/big_file.py; nothing is downloaded) read, checked and
summarised, one training epoch of the default model on one thread, and (--browser) the Data page in Chromium.

Prints figures (and writes them as JSON with --json); the machine's load is printed with them, since figures taken
while other work runs are not the app's own. Targets (issue 19): parse + check + summary ≤ 2 s; the Data page drawn
≤ 2 s after the upload; the server's memory for that session ≤ +150 MB; one epoch's time reported.

    .venv/bin/python benchmarks/bigdata.py                 # reading, checking, padding and training
    .venv/bin/python benchmarks/bigdata.py --browser       # also the Data page in Chromium and the server's memory
    .venv/bin/python benchmarks/bigdata.py --skip-training --browser
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.big_file import realistic_file  # noqa: E402
from transformer import TrainConfig, Translator, train  # noqa: E402
from transformer.config import MAX_DATA_BYTES, MAX_PAIRS, MAX_TOKENS  # noqa: E402
from transformer.data import lengths, parse_pairs, summarize_pairs  # noqa: E402
from transformer.train import length_batches  # noqa: E402
from transformer.translator import teacher_forced  # noqa: E402

TOP_TOKENS = 20  # as the Data page shows


def load() -> str:
    """The machine's load averages and cores, to print beside the figures."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def read_check_summarise(data: bytes, repeats: int) -> dict:
    """Seconds to parse the file, check it and compute what the Data page's summary shows (median of repeats)."""
    times = {"parse": [], "check_and_count": [], "vocabularies_and_top_tokens": [], "total": []}
    cpu = []
    for _ in range(repeats):
        cpu_start = time.process_time()
        start = time.perf_counter()
        pairs = parse_pairs(data, "corpus.tsv")
        parsed = time.perf_counter()
        summary = summarize_pairs(pairs)  # check_pairs' problems, the lengths and the token counts, in one pass
        checked = time.perf_counter()
        summary.vocabs()
        summary.most_common("source", TOP_TOKENS), summary.most_common("target", TOP_TOKENS)
        done = time.perf_counter()
        cpu.append(time.process_time() - cpu_start)
        for key, seconds in zip(times, (parsed - start, checked - parsed, done - checked, done - start)):
            times[key].append(seconds)
    return {
        "pairs": len(pairs),
        "problems": len(summary.problems),
        "vocabularies": [len(v) for v in summary.vocabs()],
        **{f"{key}_s": statistics.median(values) for key, values in times.items()},
        "total_cpu_s": statistics.median(cpu),
    }


def padding(pairs: list[tuple[str, str]], batch_size: int) -> dict:
    """The share of padded positions in one epoch's batches: grouped by length now, against every pair padded to the
    longest sentence of the data (as training did before)."""
    translator = Translator.create(pairs[:1])  # only the tokenizer and vocabularies matter; unknown words are fine
    src, tgt = lengths(translator.make_batch(pairs))
    real = int(src.sum() + tgt.sum())
    before = len(src) * (int(src.max()) + int(tgt.max()))
    after = sum(
        len(b) * (int(src[b].max()) + int(tgt[b].max()))
        for b in length_batches(src, tgt, batch_size, torch.Generator().manual_seed(0))
    )
    return {"padded_share_before": 1 - real / before, "padded_share_now": 1 - real / after}


def epochs(pairs: list[tuple[str, str]], sizes: list[int]) -> dict:
    """Seconds of one epoch of the default model on one thread, on the first n pairs for each n in sizes; the model
    and its vocabularies are those of all the pairs, so only the number of pairs changes."""
    out = {}
    for n in sizes:
        translator = Translator.create(pairs)  # default sizes and seed
        cpu = time.process_time()
        record = next(train(translator, pairs[:n], TrainConfig(epochs=1, threads=1)))
        cpu = time.process_time() - cpu
        out[n] = {"seconds": record.seconds, "cpu_s": cpu, "per_1000_pairs_s": record.seconds / n * 1000}
    held = pairs[-len(pairs) // 10 :]  # what a 10 % held-out split costs every epoch, evaluated a part at a time
    batch = translator.make_batch(held)
    start = time.perf_counter()
    teacher_forced(translator.model, batch)
    out["holdout_10_percent_per_epoch_s"] = time.perf_counter() - start
    start = time.perf_counter()
    translator.translate_all([s for s, _ in held[:1000]])
    out["greedy_1000_pairs_s"] = time.perf_counter() - start
    out["parameters"] = translator.model.num_parameters()
    return out


def browser(data: bytes, repeats: int) -> dict:
    """In Chromium against a fresh `streamlit run app.py`: seconds from choosing the file in the Data page's uploader
    to the summary drawn (its charts visible, the script run over), for `repeats` fresh sessions; and the server's
    memory growth for the first session (peak resident memory, VmHWM, before the upload against after the page is
    drawn, after paging the table and after the Train page)."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.helpers import expect, go_to, open_app, settled
    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, streamlit_server

    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: install Debian's chromium, or leave out --browser")
    out: dict = {"draw_s": []}
    with tempfile.TemporaryDirectory() as tmp, streamlit_server() as server, sync_playwright() as playwright:
        path = Path(tmp) / "corpus.tsv"
        path.write_bytes(data)
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        for session in range(repeats):
            context = chromium.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            open_app(page, server.url)
            before = server.peak_memory_mb()
            uploader = page.get_by_test_id("stFileUploader").filter(has_text="Upload pairs")
            start = time.perf_counter()
            uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
            expect(page.get_by_role("heading", name="Summary")).to_be_visible(timeout=120_000)
            charts = page.get_by_test_id("stPlotlyChart")
            for title in ("Sentence lengths", "most frequent source tokens", "most frequent target tokens"):
                expect(charts.filter(has_text=title).locator(".main-svg").first).to_be_visible(timeout=120_000)
            settled(page, timeout=120_000)
            out["draw_s"].append(time.perf_counter() - start)
            if session == 0:
                out["memory_before_upload_mb"] = before
                out["memory_growth_drawn_mb"] = server.peak_memory_mb() - before
                pager = page.get_by_role("spinbutton", name="Page (of 200)")
                pager.fill("200")
                pager.press("Enter")
                expect(page.get_by_text("Rows 19,901–20,000 of 20,000.")).to_be_visible(timeout=60_000)
                settled(page)
                out["memory_growth_paged_mb"] = server.peak_memory_mb() - before
                go_to(page, "train")
                out["memory_growth_train_page_mb"] = server.peak_memory_mb() - before
            context.close()
        chromium.close()
    out["draw_median_s"] = statistics.median(out["draw_s"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=MAX_PAIRS, help="pairs in the generated file (default 20,000)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of each timing (median printed)")
    parser.add_argument("--skip-training", action="store_true", help="no training epochs")
    parser.add_argument("--browser", action="store_true", help="also the Data page in Chromium and server memory")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    torch.set_num_threads(1)
    results: dict = {"load_at_start": load()}
    print(f"machine: {results['load_at_start']}")

    data = realistic_file(args.pairs)
    pairs = parse_pairs(data)
    widest = ("我" * MAX_TOKENS + "\t" + " ".join(["abcdef"] * (MAX_TOKENS - 1) + ["abcde"]) + "\n").encode()
    results["file"] = {"bytes": len(data), "bytes_at_the_token_limit": len(widest) * MAX_PAIRS}
    print(
        f"file: {args.pairs:,} generated pairs, {len(data):,} bytes; {MAX_PAIRS:,} pairs at the {MAX_TOKENS}-token "
        f"limit on both sides would take {len(widest) * MAX_PAIRS:,} bytes (the limit is {MAX_DATA_BYTES:,})"
    )

    read = results["read"] = read_check_summarise(data, args.repeats)
    print(
        f"read + check + summary: {read['total_s']:.2f} s, {read['total_cpu_s']:.2f} s of CPU "
        f"(parse {read['parse_s']:.2f}, check and count "
        f"{read['check_and_count_s']:.2f}, vocabularies and top tokens {read['vocabularies_and_top_tokens_s']:.3f}); "
        f"{read['pairs']:,} pairs, {read['problems']} problems, vocabularies {read['vocabularies'][0]:,} / "
        f"{read['vocabularies'][1]:,} tokens"
    )
    pad = results["padding"] = padding(pairs, TrainConfig().batch_size)
    print(
        f"padding in one epoch's batches (batch size {TrainConfig().batch_size}): {pad['padded_share_now']:.1%} of "
        f"the positions now, {pad['padded_share_before']:.1%} with every pair padded to the longest sentence"
    )

    if not args.skip_training:
        sizes = sorted({max(1, args.pairs // 4), max(1, args.pairs // 2), args.pairs})
        fit = results["epochs"] = epochs(pairs, sizes)
        print(f"one epoch, default model ({fit['parameters']:,} parameters), one thread:")
        for n in sizes:
            print(
                f"  {n:>6,} pairs: {fit[n]['seconds']:.1f} s, {fit[n]['cpu_s']:.1f} s of CPU "
                f"({fit[n]['per_1000_pairs_s']:.2f} s per 1,000 pairs)"
            )
        print(
            f"  a 10 % held-out split adds {fit['holdout_10_percent_per_epoch_s']:.1f} s per epoch (teacher-forced); "
            f"greedy translation of 1,000 pairs takes {fit['greedy_1000_pairs_s']:.1f} s"
        )

    if args.browser:
        page = results["browser"] = browser(data, args.repeats)
        print(
            f"Data page, upload → summary drawn: {page['draw_median_s']:.2f} s median of "
            f"{', '.join(f'{s:.2f}' for s in page['draw_s'])}"
        )
        print(
            f"server peak memory {page['memory_before_upload_mb']:.0f} MB before the upload; growth for that session: "
            f"+{page['memory_growth_drawn_mb']:.0f} MB drawn, +{page['memory_growth_paged_mb']:.0f} MB after paging, "
            f"+{page['memory_growth_train_page_mb']:.0f} MB after the Train page"
        )

    results["load_at_end"] = load()
    print(f"machine: {results['load_at_end']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
