"""The training loop: one EpochRecord per epoch, so a caller can draw progress and stop between epochs.

Batches group pairs of similar lengths (length_batches), so a batch is padded only to its own longest sentence and an
epoch's work grows with the number of pairs, not with pairs × the longest sentence of the data. Training can hold out
part of the pairs: they are never trained on, and every epoch reports their teacher-forced loss and token accuracy
next to the training figures, so memorising is not mistaken for translating.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace

import torch
from torch import nn

from .alignment import Gold, best_head_aer, gold_batch
from .config import TrainConfig, TransformerConfig
from .data import PAD_ID, by_length, chunks, lengths
from .errors import ConfigError
from .model import parameter_count
from .summary import EpochRecord, recorded_settings
from .translator import EVAL_ROWS, Translator, teacher_forced

# one intra-op thread is fastest for small models, and far faster when other work shares the cores (a second thread
# made every size 1.6-2.9x slower with one other core busy); on free cores a second thread pays off (1.4-1.9x on 2
# cores) from about this much work per step: parameters × tokens in a batch (benchmarks/threads.py, see
# docs/performance.md "Threads")
MULTI_THREAD_WORK = 3e8
SNAPSHOT_PAIRS = 8  # pairs whose attention maps are recorded during training (for the training film strip)


def pick_device(name: str | None = None) -> torch.device:
    """The named device, else CUDA when available, else the CPU."""
    return torch.device(name or ("cuda" if torch.cuda.is_available() else "cpu"))


def busy_cores(window: float = 0.1) -> float:
    """How many cores were busy over the next `window` seconds (Linux /proc/stat; 0.0 where it cannot be read)."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as stat:
            ticks = [int(v) for v in stat.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
        return sum(ticks), ticks[3] + ticks[4]

    try:
        total, idle = sample()
        time.sleep(window)
        total_after, idle_after = sample()
    except (OSError, ValueError, IndexError):
        return 0.0
    if total_after <= total:
        return 0.0
    return (1 - (idle_after - idle) / (total_after - total)) * (os.cpu_count() or 1)


def intra_op_threads(
    cfg: TransformerConfig, batch_tokens: int, cores: int | None = None, busy: float | None = None
) -> int:
    """torch threads for one training: 1, unless a step does enough work (MULTI_THREAD_WORK) for more to help; then
    one per core that other work leaves free (busy: cores in use, measured now with busy_cores when not given)."""
    if parameter_count(cfg) * batch_tokens < MULTI_THREAD_WORK:
        return 1
    cores = cores or os.cpu_count() or 1
    free = cores - (busy_cores() if busy is None else busy)
    return max(1, min(4, round(free)))


def holdout_split(n: int, fraction: float = 0.0, rows: Sequence[int] = (), seed: int = 0) -> tuple[list, list]:
    """(training indexes, held-out indexes) of n pairs: the chosen rows, else round(fraction · n) rows drawn with the
    seed; the same arguments always give the same split, and at least one pair is always trained on."""
    if rows:
        held = sorted(set(rows))
        if held[0] < 0 or held[-1] >= n:
            raise ConfigError(f"held-out rows must be between 1 and {n}, got {[r + 1 for r in held]}.")
    else:
        if not 0.0 <= fraction < 1.0:
            raise ConfigError(f"the held-out fraction must be at least 0 and below 1, got {fraction!r}.")
        count = round(fraction * n)
        held = sorted(torch.randperm(n, generator=torch.Generator().manual_seed(seed))[:count].tolist())
    if len(held) >= n:
        raise ConfigError(f"holding out {len(held)} of {n} pairs leaves nothing to train on: hold out fewer.")
    kept = sorted(set(range(n)) - set(held))
    return kept, held


def length_batches(
    src_lengths: torch.Tensor, tgt_lengths: torch.Tensor, batch_size: int, generator: torch.Generator
) -> list[torch.Tensor]:
    """One epoch's batches of pair indexes: every pair once, pairs of similar lengths together (sorted by target, then
    source length, pairs of equal lengths in an order drawn with generator), and the batches in an order drawn with
    generator: the same generator state gives the same batches, and every epoch draws new ones."""
    order = by_length(src_lengths, tgt_lengths, torch.randperm(len(src_lengths), generator=generator))  # (n,)
    batches = order.split(batch_size)
    return [batches[i] for i in torch.randperm(len(batches), generator=generator).tolist()]


def smoothed_cross_entropy(
    logits: torch.Tensor, target: torch.Tensor, epsilon: float, ignore_index: int = PAD_ID, reduction: str = "mean"
) -> torch.Tensor:
    """Cross-entropy against a smoothed target: probability 1 − ε on the reference token and ε spread evenly over all V
    tokens, i.e. (1 − ε)·(−log p_ref) + ε·mean_v(−log p_v), over the targets that are not ignore_index.

    logits (N, V), target (N,); reduction "mean" or "sum" over the counted targets. ε = 0 is plain cross-entropy."""
    real = target.ne(ignore_index)  # (N,)
    logp = logits[real].log_softmax(-1)  # (n, V)
    nll = -logp.gather(-1, target[real].unsqueeze(-1)).squeeze(-1)  # (n,)
    per_token = nll if epsilon == 0 else (1 - epsilon) * nll - epsilon * logp.mean(-1)  # (n,)
    return per_token.sum() if reduction == "sum" else per_token.mean()


def train(
    translator: Translator,
    pairs: list[tuple[str, str]],
    cfg: TrainConfig = TrainConfig(),
    snapshot_every: int = 0,
    snapshot_pairs: Sequence[int] = (0,),
    holdout: list[tuple[str, str]] | None = None,
    gold: Sequence[tuple[tuple[str, str], Gold]] = (),
) -> Iterator[EpochRecord]:
    """Train translator.model on pairs with Adam and cross-entropy that ignores padding; yield after each epoch.

    holdout pairs are never trained on; each record reports their loss and accuracy. Every snapshot_every epochs (and
    at the first and last) the attention maps of the pairs at snapshot_pairs are recorded. gold, pairs with their gold
    links (transformer.alignment.gold_sample), gives each record the best cross-attention head's AER on them. The
    torch threads of the calling thread are set for this training (cfg.threads, else intra_op_threads). Breaking out of
    the loop keeps the partly trained model; translator.summary always describes it, its seconds counting only time
    spent training.
    """
    model = translator.model
    device = pick_device(cfg.device)
    model.to(device)
    batch = translator.make_batch(pairs)
    pad = translator.pad_id  # P (0), or a model read from elsewhere's own (Marian's <pad>, its last id)
    src_lengths, tgt_lengths = lengths(batch, pad)  # (n,), (n,): without padding
    enc_inputs, dec_inputs, dec_outputs = (t.to(device) for t in batch)
    held = chunks(translator.make_batch(holdout), EVAL_ROWS, pad) if holdout else None  # evaluated a part at a time
    torch.set_num_threads(cfg.threads or intra_op_threads(model.config, cfg.batch_size * enc_inputs.size(1)))
    generator = torch.Generator().manual_seed(cfg.seed)
    torch.manual_seed(cfg.seed)  # dropout
    betas = (0.9, cfg.beta2)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr, betas=betas, eps=cfg.eps, fused=True)  # one kernel
    criterion = nn.CrossEntropyLoss(ignore_index=pad, reduction="sum")  # what the history reports: plain
    n = enc_inputs.size(0)
    snap = [i for i in snapshot_pairs if 0 <= i < n]
    ls, lt = (max((int(t[i].ne(pad).sum()) for i in snap), default=0) for t in (enc_inputs, dec_outputs))
    snap_enc, snap_dec = enc_inputs[snap, :ls], dec_inputs[snap, :lt]  # (S, ls), (S, lt): padded to their longest
    translator.summary = replace(translator.summary, train_config=recorded_settings(cfg))
    start_epoch = translator.summary.epochs
    step = translator.summary.steps  # optimiser steps taken before this training (the schedule goes on)
    d_model = model.config.d_model
    spent = translator.summary.seconds
    aligned_on = gold_batch(translator, gold)  # the gold pairs this model reads, or None
    aligned_on = aligned_on.to(device) if aligned_on is not None else None
    for epoch in range(1, cfg.epochs + 1):
        started = time.perf_counter()
        model.train()
        total_loss, correct, counted = 0.0, 0, 0
        for idx in length_batches(src_lengths, tgt_lengths, cfg.batch_size, generator):
            ls, lt = int(src_lengths[idx].max()), int(tgt_lengths[idx].max())  # this batch's longest sentences
            idx = idx.to(device)
            logits, _ = model(enc_inputs[idx, :ls], dec_inputs[idx, :lt])  # (b, lt, V)
            target = dec_outputs[idx, :lt]  # (b, lt)
            tokens = int(target.ne(pad).sum())
            loss = criterion(logits.flatten(0, 1), target.flatten())  # summed plain cross-entropy, as reported
            trained = loss  # what the gradient follows: the same, or the label-smoothed loss
            if cfg.label_smoothing:
                eps = cfg.label_smoothing
                trained = smoothed_cross_entropy(logits.flatten(0, 1), target.flatten(), eps, pad, "sum")
            step += 1
            lr = cfg.learning_rate(d_model, step)
            for group in optimizer.param_groups:
                group["lr"] = lr
            optimizer.zero_grad(set_to_none=True)
            (trained / tokens).backward()
            optimizer.step()
            total_loss += loss.item()
            correct += int((logits.argmax(-1).eq(target) & target.ne(pad)).sum())
            counted += tokens
        snapshot = None
        if snap and snapshot_every and (epoch % snapshot_every == 0 or epoch == 1 or epoch == cfg.epochs):
            snapshot = translator.attention_maps(snap_enc, snap_dec)
        held_loss, held_acc = teacher_forced(model, held, pad) if held is not None else (None, None)
        aligned = best_head_aer(translator, aligned_on)  # (aer, layer, head) or None; eval mode, no randomness drawn
        spent += time.perf_counter() - started
        record = EpochRecord(
            start_epoch + epoch, total_loss / counted, correct / counted, spent, snapshot, held_loss, held_acc, step, lr
        )
        if aligned is not None:
            record = replace(record, aer=aligned[0], aer_layer=aligned[1], aer_head=aligned[2])
        translator.summary = translator.summary.after_epoch(record)
        yield record
