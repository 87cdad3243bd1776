"""Real-sized data: a generated 20,000-pair file (tests/e2e/big_file.py; nothing is downloaded) read, checked and
summarised, one training epoch of the default model on one thread, and (--browser) the Data page in Chromium.

Prints figures (and writes them as JSON with --json); the machine's load is printed with them, since figures taken
while other work runs are not the app's own. The Data page's figures come with their phases: when the script run
ended, the bytes sent over the websocket, and the CPU seconds of the server and of the tab's main thread (which a
loaded machine stretches less than wall time). Targets (issue 19): parse + check + summary ≤ 2 s; the Data page drawn
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

import _root  # noqa: F401  (the checkout on sys.path)
import torch

from tests.e2e.big_file import realistic_file
from transformer import TrainConfig, Translator, train
from transformer.config import MAX_DATA_BYTES, MAX_PAIRS, MAX_TOKENS
from transformer.data import lengths, parse_pairs, summarize_pairs
from transformer.train import length_batches
from transformer.translator import teacher_forced

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


# the Data page after the upload, as the learner sees it: the file's summary (a tab starts on the corpus, whose summary
# has the same headings and charts): the message that the file was loaded, the three charts drawn with the file's
# figures (an SVG of marks from Vega-Lite, or plotly's, as the page drew them before; the lengths axis reaching the
# file's longest sentence, the file's most frequent token of each side), the script run over, no loading placeholder
# or status left
DRAWN = """expected => {
  const app = document.querySelector('[data-testid="stApp"]');
  const loaded = [...document.querySelectorAll('[data-testid="stAlert"]')]
    .some(alert => alert.textContent.includes(expected.loaded));
  const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"], [data-testid="stPlotlyChart"]')];
  const shows = (title, text) => charts.some(chart => chart.textContent.includes(title)
    && chart.querySelector("svg.marks, .main-svg")
    && [...chart.querySelectorAll("text")].some(label => label.textContent.trim() === text));
  return loaded && app && app.dataset.testScriptState === "notRunning"
    && shows("Sentence lengths", expected.longest)
    && shows("most frequent source tokens", expected.source)
    && shows("most frequent target tokens", expected.target)
    && !document.querySelector('[data-testid="stSkeleton"], [data-testid="stStatusWidget"]');
}"""
# in the tab: when the upload's script run started and ended (the server's part), in ms after the upload began
PHASES = """() => {
  window.benchmarkPhases = {};
  const t0 = performance.now();
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => {
    const state = app.dataset.testScriptState, at = performance.now() - t0;
    if (state === "running" && window.benchmarkPhases.running === undefined) window.benchmarkPhases.running = at;
    if (state === "notRunning" && window.benchmarkPhases.running !== undefined) window.benchmarkPhases.over = at;
  }).observe(app, {attributes: true, attributeFilter: ["data-test-script-state"]});
}"""
RENDERER = ("ThreadTime", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")  # Chrome's Performance metrics


def _renderer(cdp) -> dict:
    """The tab's renderer so far: CPU seconds of its main thread, and seconds of script, layout and style work."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {name: metrics.get(name, 0.0) for name in RENDERER}


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _upload_draw(page, cdp, server, path: Path, expected: dict, received: list[int]) -> dict:
    """Choose the file in the Data page's uploader and wait until the summary is drawn (checked at every frame):
    the seconds, the script run's start and end, the bytes the server sent over the websocket, and the CPU seconds
    of the server and of the tab's main thread meanwhile (`received` gets the size of every websocket frame)."""
    received.clear()
    page.evaluate(PHASES)
    renderer, server_cpu = _renderer(cdp), _cpu_s(server.process.pid)
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Upload pairs")
    start = time.perf_counter()
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    page.wait_for_function(DRAWN, arg=expected, polling="raf", timeout=120_000)
    seconds = time.perf_counter() - start
    phases = page.evaluate("window.benchmarkPhases")
    after = _renderer(cdp)
    return {
        "draw_s": seconds,
        "run_started_s": phases.get("running", 0) / 1000,
        "run_over_s": phases.get("over", 0) / 1000,
        "websocket_bytes": sum(received),
        "server_cpu_s": _cpu_s(server.process.pid) - server_cpu,
        **{f"renderer_{name}_s": after[name] - renderer[name] for name in RENDERER},
    }


def browser(data: bytes, repeats: int) -> dict:
    """In Chromium against a fresh `streamlit run app.py`: seconds from choosing the file in the Data page's uploader
    to the summary drawn (its charts drawn, the script run over), for `repeats` fresh sessions, each twice: chosen at
    once after the first page is drawn (while ui/browser.py may still be loading the chart library), and chosen once
    that library has loaded, as a learner who reads the page and picks a file does (a second fresh tab). With each, the
    phases: the script run's end, the websocket bytes, the CPU seconds of the server and of the tab's main thread.
    Also the server's memory growth for the first session (peak resident memory, VmHWM, before the upload against
    after the page is drawn, after paging the table and after the Train page)."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.helpers import expect, go_to, open_app, settled
    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, streamlit_server

    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: install Debian's chromium, or leave out --browser")
    pairs = parse_pairs(data)
    summary = summarize_pairs(pairs)
    expected = {  # what the file's summary shows, that the corpus's does not
        "loaded": f"Loaded {len(pairs):,} pairs from corpus.tsv.",
        "longest": str(max(summary.src_lengths + summary.tgt_lengths)),
        "source": summary.most_common("source", 1)[0][0],
        "target": summary.most_common("target", 1)[0][0],
    }
    out: dict = {"at_once": [], "after_reading": []}
    with tempfile.TemporaryDirectory() as tmp, streamlit_server() as server, sync_playwright() as playwright:
        path = Path(tmp) / "corpus.tsv"
        path.write_bytes(data)
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        for session in range(repeats):
            for case in ("at_once", "after_reading"):
                context = chromium.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Performance.enable")
                received: list[int] = []
                page.on(
                    "websocket", lambda ws, received=received: ws.on("framereceived", lambda f: received.append(len(f)))
                )
                open_app(page, server.url)
                if case == "after_reading":
                    expect(page.locator("html[data-chart-library=loaded]")).to_have_count(1, timeout=60_000)
                before = server.peak_memory_mb()
                out[case].append(_upload_draw(page, cdp, server, path, expected, received))
                if session == 0 and case == "at_once":
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
    for case in ("at_once", "after_reading"):
        runs = out[case]
        out[f"{case}_median"] = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    out["draw_s"] = [run["draw_s"] for run in out["at_once"]]
    out["draw_median_s"] = out["at_once_median"]["draw_s"]
    return out


def _phases(median: dict) -> str:
    return (
        f"the script run over at {median['run_over_s']:.2f} s; {median['websocket_bytes'] / 1000:.0f} kB sent over "
        f"the websocket; CPU: server {median['server_cpu_s']:.2f} s, the tab's main thread "
        f"{median['renderer_ThreadTime_s']:.2f} s (script {median['renderer_ScriptDuration_s']:.2f}, layout "
        f"{median['renderer_LayoutDuration_s']:.2f}, style {median['renderer_RecalcStyleDuration_s']:.2f})"
    )


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
        for case, what in (("at_once", "chosen at once"), ("after_reading", "chosen after the chart library loaded")):
            median = page[f"{case}_median"]
            each = ", ".join(f"{run['draw_s']:.2f}" for run in page[case])
            print(
                f"Data page, upload → summary drawn, {what}: {median['draw_s']:.2f} s median of {each}; "
                f"medians: {_phases(median)}"
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
