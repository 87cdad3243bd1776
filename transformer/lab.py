"""Lab experiments: a variant of the model (one or more switches of TransformerConfig off) trained beside the
standard model on the same data, sizes and seed, and the measurements that show what the switch changed.

Every claim an experiment makes is checked against figures of the run at hand (`evidence`), never a canned result.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import torch

from .config import TrainConfig, TransformerConfig
from .data import PAD_ID, tokenize
from .model import AttentionMaps, evaluating
from .train import train
from .translator import Evaluation, Translator

_standard = TransformerConfig(1, 1)
STANDARD_SIZES = {k: getattr(_standard, k) for k in ("d_model", "n_heads", "d_ff", "n_layers")}
LOSS_REACHED = 0.5  # "has learned": the training loss an experiment counts epochs to (the bundled data starts near 4)


@dataclass(frozen=True)
class Experiment:
    """A ready-made comparison: the variant's switches, the sizes both models share, and what is held out."""

    name: str
    switches: dict
    sizes: dict = field(default_factory=dict)  # overrides of the standard sizes, the same for both models
    holdout: str = "none"  # "none", or "longest": the pairs with the longest targets (see longest_rows)


EXPERIMENTS = {
    e.name: e
    for e in (
        Experiment("no_look_ahead", {"look_ahead_mask": False}),
        Experiment("no_pe", {"pe": "none"}),
        Experiment("no_scale", {"scale": False}, {"d_model": 128, "n_heads": 1, "d_ff": 128}),  # d_k = 128
        Experiment("no_residual_norm", {"residual": False, "norm": "none"}, {"n_layers": 6}),
        Experiment("pre_norm", {"norm": "pre"}, {"n_layers": 6}),
        Experiment("learned_pe", {"pe": "learned"}, holdout="longest"),
    )
}


def longest_rows(pairs: Sequence[tuple[str, str]], tokenizer: str = "auto", share: float = 0.15) -> list[int]:
    """Rows of the pairs whose targets are longer than every other target: about `share` of them, cut at a length so
    that each held-out target is longer than any kept one (empty when all targets have one length)."""
    lengths = [len(tokenize(t, tokenizer)) for _, t in pairs]
    if len(set(lengths)) < 2:
        return []
    by_length = sorted(set(lengths), reverse=True)
    held: list[int] = []
    for length in by_length[:-1]:  # the shortest length always stays in training
        held += [i for i, n in enumerate(lengths) if n == length]
        if len(held) >= share * len(pairs):
            break
    return sorted(held)


def permuted_sources(pairs: Sequence[tuple[str, str]], tokenizer: str = "auto") -> list[tuple[str, str]]:
    """Pairs of source sentences with the same tokens in another order (a bag of words cannot tell them apart): those
    in the data (e.g. 我爱你 / 你爱我), else each of the first three sources with distinct tokens and its reverse."""
    groups: dict[tuple, list[str]] = {}  # the tokens of a source, counted → the sources with those tokens
    for source, _ in pairs:
        group = groups.setdefault(tuple(sorted(Counter(tokenize(source, tokenizer)).items())), [])
        if source not in group:
            group.append(source)
    found = [(g[0], other) for g in groups.values() for other in g[1:]]
    if found:
        return found
    made = []
    for source, _ in pairs:
        tokens = tokenize(source, tokenizer)
        if len(set(tokens)) >= 2 and len(made) < 3:
            made.append((source, " ".join(reversed(tokens))))
    return made


def peak_attention(maps: AttentionMaps) -> float:
    """How peaked attention is: the mean, over every kind, layer, head and query, of the query's largest
    weight; 1.0 is one-hot attention, 1/n spreads evenly over n keys."""
    kinds = (maps.enc_self_attns, maps.dec_self_attns, maps.dec_enc_attns)
    peaks = [a.amax(-1).flatten() for kind in kinds for a in kind]  # each (B, H, Lq, Lk) → B·H·Lq peaks
    return float(torch.cat(peaks).mean()) if peaks else float("nan")


def epochs_to_loss(history: Sequence, threshold: float = LOSS_REACHED) -> int | None:
    """The first epoch whose training loss is below threshold, or None when none is."""
    for h in history:
        loss = h["loss"] if isinstance(h, Mapping) else h.loss
        if loss < threshold:
            return int(h["epoch"] if isinstance(h, Mapping) else h.epoch)
    return None


def accuracy_beyond(translator: Translator, pairs: Sequence[tuple[str, str]], position: int) -> tuple[float, int]:
    """(teacher-forced token accuracy, tokens counted) over the target positions at index ≥ position of pairs."""
    if not pairs:
        return float("nan"), 0
    with evaluating(translator.model) as device:
        enc, dec, out = (t.to(device) for t in translator.make_batch(list(pairs)))
        logits, _ = translator.model(enc, dec)  # (B, Lt, V)
    real = out.ne(PAD_ID)
    real[:, :position] = False
    counted = int(real.sum())
    if not counted:
        return float("nan"), 0
    return int(logits.argmax(-1)[real].eq(out[real]).sum()) / counted, counted


@dataclass
class Side:
    """One trained model of a comparison, with what its training recorded."""

    translator: Translator
    history: list  # EpochRecords or history dicts
    evaluations: dict[str, Evaluation]  # "train" (and "holdout")
    snapshots: list[tuple[int, AttentionMaps]] = field(default_factory=list)
    trained_pairs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def final_loss(self) -> float:
        last = self.history[-1] if self.history else None
        return float("nan") if last is None else float(last["loss"] if isinstance(last, Mapping) else last.loss)


def evidence(name: str, baseline: Side, variant: Side, holdout: Sequence[tuple[str, str]] = ()) -> tuple[bool, dict]:
    """(whether the experiment's claim held in this run, the figures that say so) for a ready-made experiment."""
    b, v = baseline.evaluations["train"], variant.evaluations["train"]
    if name == "no_look_ahead":  # training looks perfect, greedy decoding fails
        facts = dict(v_acc=v.token_accuracy, v_exact=v.exact_match, b_acc=b.token_accuracy, b_exact=b.exact_match)
        return v.token_accuracy >= 0.9 and v.exact_match <= 0.3, facts
    if name == "no_pe":  # a sentence and its permutation get the same translation
        rows = []
        for first, second in permuted_sources(
            variant.trained_pairs or baseline.trained_pairs, variant.translator.tokenizer
        ):
            outs = [
                tuple(" ".join(s.translator.translate(x, return_attn=False).tokens) for x in (first, second))
                for s in (baseline, variant)
            ]
            rows.append((first, second, *outs[0], *outs[1]))
        same = [r[4] == r[5] for r in rows]
        return bool(rows) and all(same), dict(rows=rows, same=sum(same), total=len(rows))
    if name == "no_scale":  # softmax saturates early, training slows
        first = [peak_attention(s.snapshots[0][1]) if s.snapshots else float("nan") for s in (baseline, variant)]
        reached = [epochs_to_loss(s.history) for s in (baseline, variant)]
        slower = reached[1] is None or (reached[0] is not None and reached[1] > reached[0])
        facts = dict(b_peak=first[0], v_peak=first[1], b_epochs=reached[0], v_epochs=reached[1])
        facts.update(b_loss=baseline.final_loss, v_loss=variant.final_loss)
        held = first[1] > first[0] and (slower or variant.final_loss > 2 * baseline.final_loss)
        return held, facts
    if name == "no_residual_norm":  # a deep stack without them stalls or diverges
        facts = dict(
            b_loss=baseline.final_loss, v_loss=variant.final_loss, b_exact=b.exact_match, v_exact=v.exact_match
        )
        stalled = math.isnan(variant.final_loss) or variant.final_loss > 10 * baseline.final_loss
        return stalled and v.exact_match < b.exact_match, facts
    if name == "pre_norm":  # pre-norm trains a deep stack at least as fast
        reached = [epochs_to_loss(s.history) for s in (baseline, variant)]
        facts = dict(b_epochs=reached[0], v_epochs=reached[1], b_loss=baseline.final_loss, v_loss=variant.final_loss)
        return reached[1] is not None and (reached[0] is None or reached[1] <= reached[0]), facts
    if name == "learned_pe":  # learned positions past the longest training target were never trained
        longest = max((len(tokenize(t, baseline.translator.tokenizer)) for _, t in baseline.trained_pairs), default=0)
        beyond = [accuracy_beyond(s.translator, holdout, longest + 1) for s in (baseline, variant)]  # +1: E
        facts = dict(position=longest + 2, b_beyond=beyond[0][0], v_beyond=beyond[1][0], tokens=beyond[0][1])
        return beyond[0][1] > 0 and beyond[1][0] < beyond[0][0], facts
    raise KeyError(f"no ready-made experiment named {name!r}")


def prepare(
    pairs: Sequence[tuple[str, str]],
    switches: Mapping,
    sizes: Mapping,
    tokenizer: str = "auto",
    seed: int = 0,
    holdout_rows: Sequence[int] = (),
) -> tuple[Translator, Translator, list, list]:
    """(baseline, variant, training pairs, held-out pairs): two untrained models of the same sizes and seed, with the
    vocabularies of the training pairs (every pair not in holdout_rows), differing only in the switches."""
    held = set(holdout_rows)
    train_pairs = [p for i, p in enumerate(pairs) if i not in held]
    held_pairs = [p for i, p in enumerate(pairs) if i in held]
    baseline = Translator.create(train_pairs, tokenizer, seed, **sizes)
    variant = Translator.create(train_pairs, tokenizer, seed, **sizes, **switches)
    return baseline, variant, train_pairs, held_pairs


def run(
    pairs: Sequence[tuple[str, str]],
    experiment: Experiment,
    cfg: TrainConfig = TrainConfig(),
    tokenizer: str = "auto",
    snapshot_every: int = 1,
) -> tuple[Side, Side, list]:
    """Train an experiment's baseline and variant one after the other, here and now (the app trains them as a
    background job): (baseline, variant, held-out pairs)."""
    rows = longest_rows(pairs, tokenizer) if experiment.holdout == "longest" else []
    sizes = {**STANDARD_SIZES, **experiment.sizes}
    baseline, variant, train_pairs, held = prepare(pairs, experiment.switches, sizes, tokenizer, cfg.seed, rows)
    sides = []
    for translator in (baseline, variant):
        records = list(train(translator, train_pairs, cfg, snapshot_every, range(8), held or None))
        evaluations = {"train": translator.evaluate(train_pairs)}
        if held:
            evaluations["holdout"] = translator.evaluate(held)
        snapshots = [(r.epoch, r.snapshot) for r in records if r.snapshot is not None]
        sides.append(Side(translator, records, evaluations, snapshots, train_pairs))
    return sides[0], sides[1], held
