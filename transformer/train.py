"""The training loop: one EpochRecord per epoch, so a caller can draw progress and stop between epochs."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from dataclasses import dataclass

import torch
from torch import nn

from .config import TrainConfig
from .data import PAD_ID
from .model import AttentionMaps
from .translator import Translator


@dataclass(frozen=True)
class EpochRecord:
    """What one epoch did: mean loss, token accuracy on non-padding targets, seconds since the start."""

    epoch: int
    loss: float
    accuracy: float
    seconds: float
    snapshot: AttentionMaps | None = None  # attention maps of the snapshot pair, every snapshot_every epochs


def pick_device(name: str | None = None) -> torch.device:
    """The named device, else CUDA when available, else the CPU."""
    return torch.device(name or ("cuda" if torch.cuda.is_available() else "cpu"))


def train(
    translator: Translator,
    pairs: list[tuple[str, str]],
    cfg: TrainConfig = TrainConfig(),
    snapshot_every: int = 0,
    snapshot_pair: int = 0,
) -> Iterator[EpochRecord]:
    """Train translator.model on pairs with Adam and cross-entropy that ignores padding; yield after each epoch.

    Breaking out of the loop keeps the partly trained model; translator.summary always describes it.
    """
    model = translator.model
    device = pick_device(cfg.device)
    model.to(device)
    batch = translator.make_batch(pairs)
    enc_inputs, dec_inputs, dec_outputs = (t.to(device) for t in batch)
    generator = torch.Generator().manual_seed(cfg.seed)
    torch.manual_seed(cfg.seed)  # dropout
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD_ID, reduction="sum")
    n = enc_inputs.size(0)
    ls, lt = (int(t[snapshot_pair].ne(PAD_ID).sum()) for t in (enc_inputs, dec_inputs))
    snap_enc, snap_dec = enc_inputs[snapshot_pair, :ls][None], dec_inputs[snapshot_pair, :lt][None]  # (1, ls), (1, lt)
    history = translator.summary.setdefault("history", [])
    translator.summary["train_config"] = {k: v for k, v in dataclasses.asdict(cfg).items() if k != "device"}
    start_epoch = translator.summary.get("epochs", 0)
    start_seconds = translator.summary.get("seconds", 0.0)
    start = time.perf_counter()
    for epoch in range(1, cfg.epochs + 1):
        model.train()
        total_loss, correct, counted = 0.0, 0, 0
        for idx in torch.randperm(n, generator=generator).split(cfg.batch_size):
            idx = idx.to(device)
            logits, _ = model(enc_inputs[idx], dec_inputs[idx])  # (b, Lt, V)
            target = dec_outputs[idx]  # (b, Lt)
            tokens = int(target.ne(PAD_ID).sum())
            loss = criterion(logits.flatten(0, 1), target.flatten())
            optimizer.zero_grad(set_to_none=True)
            (loss / tokens).backward()
            optimizer.step()
            total_loss += loss.item()
            correct += int((logits.argmax(-1).eq(target) & target.ne(PAD_ID)).sum())
            counted += tokens
        snapshot = None
        if snapshot_every and (epoch % snapshot_every == 0 or epoch == 1 or epoch == cfg.epochs):
            snapshot = translator.attention_maps(snap_enc, snap_dec)
        record = EpochRecord(
            start_epoch + epoch, total_loss / counted, correct / counted, time.perf_counter() - start, snapshot
        )
        history.append({"epoch": record.epoch, "loss": record.loss, "accuracy": record.accuracy})
        translator.summary.update(
            epochs=record.epoch, loss=record.loss, accuracy=record.accuracy, seconds=start_seconds + record.seconds
        )
        yield record
