"""Benchmarks: ours against torch.nn.Transformer, fitting the bundled data, greedy and beam decoding, the app.

Every figure is the median of several repeats in one run on one machine. Prints a table and writes JSON:

    .venv/bin/python benchmarks/bench.py                 # everything (the app part needs /usr/bin/chromium)
    .venv/bin/python benchmarks/bench.py --skip-app      # model figures only
    .venv/bin/python benchmarks/bench.py --classroom     # also 3 app processes behind nginx under load (~10 min)
    .venv/bin/python benchmarks/bench.py --json out.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import time
from pathlib import Path

import torch
from _root import ROOT
from torch import nn

from transformer import TrainConfig, TransformerConfig, Translator, train
from transformer.checkpoint import load_checkpoint
from transformer.data import parse_pairs
from transformer.decoding import beam_search, greedy_decode
from transformer.model import Transformer, positional_encoding_table

SIZES = {  # name: (d_model, n_heads, d_ff, n_layers, batch, length)
    "tiny": (16, 2, 32, 2, 2, 6),
    "small": (128, 4, 512, 2, 64, 16),
    "base": (512, 8, 2048, 6, 8, 16),
}
VOCAB = 100


class TorchTransformer(nn.Module):
    """torch.nn.Transformer with the same embeddings, positional encoding and output projection as ours."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.src_emb = nn.Embedding(cfg.src_vocab_size, cfg.d_model)
        self.tgt_emb = nn.Embedding(cfg.tgt_vocab_size, cfg.d_model)
        self.register_buffer("pe", positional_encoding_table(cfg.max_len, cfg.d_model), persistent=False)
        self.transformer = nn.Transformer(
            cfg.d_model, cfg.n_heads, cfg.n_layers, cfg.n_layers, cfg.d_ff, cfg.dropout, batch_first=True
        )
        self.projection = nn.Linear(cfg.d_model, cfg.tgt_vocab_size, bias=False)

    def forward(self, enc_inputs, dec_inputs):
        lt = dec_inputs.size(1)
        causal = torch.ones(lt, lt, dtype=torch.bool, device=dec_inputs.device).triu(1)
        src_pad, tgt_pad = enc_inputs.eq(0), dec_inputs.eq(0)
        out = self.transformer(
            self.src_emb(enc_inputs) + self.pe[: enc_inputs.size(1)],
            self.tgt_emb(dec_inputs) + self.pe[:lt],
            tgt_mask=causal,
            src_key_padding_mask=src_pad,
            tgt_key_padding_mask=tgt_pad,
            memory_key_padding_mask=src_pad,
        )
        return self.projection(out), None


def median_ms(fn, repeats: int, warmup: int = 3) -> float:
    """Median wall time of fn() in milliseconds."""
    for _ in range(warmup):
        fn()
    if not repeats:
        return 0.0
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def train_step(model: nn.Module, batch: int, length: int):
    """A function doing one forward + backward + Adam step on fixed random data."""
    g = torch.Generator().manual_seed(0)
    enc = torch.randint(1, VOCAB, (batch, length), generator=g)
    dec = torch.randint(1, VOCAB, (batch, length), generator=g)
    out = torch.randint(1, VOCAB, (batch, length), generator=g)
    enc[:, -2:] = 0  # some padding, as in real batches
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    criterion = nn.CrossEntropyLoss(ignore_index=0)
    model.train()

    def step():
        logits, _ = model(enc, dec)
        loss = criterion(logits.flatten(0, 1), out.flatten())
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    return step


def bench_train_steps(repeats: int) -> dict:
    """Ours against torch.nn.Transformer, measured in alternating rounds so both see the same machine state."""
    results = {}
    for name, (d_model, n_heads, d_ff, n_layers, batch, length) in SIZES.items():
        cfg = TransformerConfig(VOCAB, VOCAB, d_model=d_model, n_heads=n_heads, d_ff=d_ff, n_layers=n_layers)
        torch.manual_seed(0)
        ours = train_step(Transformer(cfg), batch, length)
        torch.manual_seed(0)
        theirs = train_step(TorchTransformer(cfg), batch, length)
        rounds = repeats if name != "base" else max(3, repeats // 4)
        steps = 10 if name == "tiny" else 2 if name == "small" else 1
        times = {"ours": [], "torch": []}
        for step in (ours, theirs):
            median_ms(step, 0, warmup=3)
        for _ in range(rounds):
            for label, step in (("ours", ours), ("torch", theirs)):
                times[label].append(median_ms(step, steps, warmup=0))
        a, b = statistics.median(times["ours"]), statistics.median(times["torch"])
        results[name] = {"ours_ms": a, "torch_ms": b, "ratio": a / b, "rounds": rounds}
    return results


def bench_fit(repeats: int) -> dict:
    """Seconds for the default settings to reach 100% exact-match translations of the bundled pairs."""
    pairs = parse_pairs((ROOT / "assets" / "pairs.tsv").read_bytes())
    times, epochs = [], []
    for seed in range(repeats):
        translator = Translator.create(pairs, seed=seed)
        start, reached = time.perf_counter(), None
        for record in train(translator, pairs, TrainConfig(seed=seed, epochs=200)):
            if record.accuracy == 1.0 and all(ok for *_, ok in translator.exact_match(pairs)):
                reached = record.epoch
                break
        times.append(time.perf_counter() - start)
        epochs.append(reached)
    return {"seconds": statistics.median(times), "epochs": epochs, "pairs": len(pairs)}


def bench_decode(repeats: int) -> dict:
    """A 10-token greedy decode with and without attention capture, and a 10-step beam search with 4 beams (the
    bundled model, E made impossible so every decode runs all 10 steps), on one thread."""
    translator = load_checkpoint(ROOT / "assets" / "model.safetensors")
    enc_input, _, _ = translator.encode_source("我有一只猫和一只狗")
    vocab = translator.tgt_vocab
    eos = vocab.eos_id
    model = translator.model
    threads = torch.get_num_threads()
    torch.set_num_threads(1)

    def never_e(module, args, logits):
        logits[..., eos] = float("-inf")  # E never wins, so every decode runs exactly max_len = 10 steps
        return logits

    hook = model.projection.register_forward_hook(never_e)
    try:
        out = {}
        for capture in (False, True):
            key = "with_attention_ms" if capture else "without_attention_ms"
            out[key] = median_ms(lambda c=capture: greedy_decode(model, enc_input, vocab, 10, c), repeats)
        out["steps"] = len(greedy_decode(model, enc_input, vocab, 10, False).steps)
        out["beam_4_ms"] = median_ms(lambda: beam_search(model, enc_input, vocab, 4, 0.6, 10), repeats)
        out["beam_steps"] = len(beam_search(model, enc_input, vocab, 4, 0.6, 10).steps)
        out["threads"] = 1
    finally:
        hook.remove()
        torch.set_num_threads(threads)
    return out


def bench_app(repeats: int) -> dict:
    """App latencies through a real browser (see benchmarks/app_latency.py)."""
    from benchmarks.app_latency import measure

    return measure(repeats)


def bench_classroom() -> dict:
    """Page switches of idle learners while four others train: 3 app processes behind nginx, then 1."""
    from benchmarks.classroom import measure

    return measure()


def machine() -> dict:
    cpu = "unknown"
    with contextlib.suppress(OSError, StopIteration), open("/proc/cpuinfo") as info:
        cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "platform": platform.platform(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--skip-app", action="store_true")
    parser.add_argument("--classroom", action="store_true", help="page switches in a busy classroom (needs nginx)")
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results.json")
    args = parser.parse_args()

    report = {"machine": machine(), "date": time.strftime("%Y-%m-%d")}
    report["train_step"] = bench_train_steps(args.repeats)
    report["fit_bundled"] = bench_fit(3)
    report["greedy_decode_10"] = bench_decode(args.repeats)
    if not args.skip_app:
        report["app"] = bench_app(3)
    if args.classroom:
        report["classroom"] = bench_classroom()

    print(f"machine: {report['machine']['cpu']}, {report['machine']['cores']} cores, torch {torch.__version__}")
    print(f"\n{'training step':<16}{'ours ms':>10}{'torch ms':>10}{'ratio':>8}   target ratio <= 1.0")
    for name, r in report["train_step"].items():
        print(f"{name:<16}{r['ours_ms']:>10.2f}{r['torch_ms']:>10.2f}{r['ratio']:>8.2f}")
    fit = report["fit_bundled"]
    print(
        f"\nfit bundled data ({fit['pairs']} pairs) to 100% exact match: {fit['seconds']:.2f} s "
        f"(epochs per seed {fit['epochs']})   target <= 10 s"
    )
    dec = report["greedy_decode_10"]
    print(
        f"greedy decode, {dec['steps']} tokens: {dec['without_attention_ms']:.1f} ms without attention, "
        f"{dec['with_attention_ms']:.1f} ms with   target <= 30 ms"
    )
    print(f"beam search, 4 beams, {dec['beam_steps']} tokens: {dec['beam_4_ms']:.1f} ms (1 thread)   target <= 100 ms")
    if "app" in report:
        app = report["app"]
        print(
            f"\napp (median of {app['repeats']} fresh servers):\n"
            f"  first render, first session of a new server  {app['first_render_s']:5.2f} s   target <= 3 s\n"
            f"  first render, a later session               {app['first_render_warm_server_s']:5.2f} s\n"
            f"  switch to Attention, first chart of session  {app['switch_to_attention_s']:5.2f} s   target <= 1 s\n"
            f"  switch to Attention, plotly.js loaded       {app['switch_to_attention_warm_s']:5.2f} s  target <= 1 s\n"
            f"  head selector to new chart                   {app['head_change_s']:5.2f} s   target <= 1 s\n"
            f"  server peak memory                           {app['server_peak_mb']:5.0f} MB  target <= 600 MB"
        )
    if "classroom" in report:
        from benchmarks.classroom import report_lines

        print("\n" + report_lines(report["classroom"]))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2))
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
