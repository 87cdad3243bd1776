"""Lab experiments: a variant of the model (one or more switches of TransformerConfig off) trained beside the
standard model on the same data, sizes and seed, and the measurements that show what the switch changed.

Every claim an experiment makes is checked against figures of the run at hand (`evidence`), never a canned result.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import torch

from . import corpus
from .config import MAX_EPOCHS, TrainConfig, TransformerConfig, model_sizes
from .data import tokenize
from .errors import DataError
from .model import ATTENTION_KINDS, AttentionMaps, evaluating
from .recipe import EXACT_LEARNED, Verdict, under_trained
from .scores import ALL, ScoreTable
from .splits import reordered_groups, split_pairs
from .summary import EpochRecord
from .train import train
from .translator import Evaluation, Translator

_standard = TransformerConfig(1, 1)
STANDARD_SIZES = model_sizes(_standard)
LOSS_REACHED = 0.5  # "has learned": the training loss an experiment counts epochs to (the bundled data starts near 4)


# no warmup: the baseline warms up for WARMUP_STEPS steps to the paper's schedule's peak d_model^-0.5 · warmup^-0.5;
# the variant uses that rate from the first step. On 600 corpus pairs at batch size 64 (30 epochs, 300 steps), warmup
# 50 (peak 0.0177) learned (loss 0.015, 99.8 % exact) where the constant 0.0177 stalled at loss 4.0 (0 % exact); a
# warmup of 25 (peak 0.025) stalled too, with warmup or without
WARMUP_STEPS = 50
WARMUP_PEAK = _standard.d_model**-0.5 * WARMUP_STEPS**-0.5
MIN_PAIRS = 200  # no look-ahead mask: fewer pairs can be memorised, and memorising can pass for translating
MIN_REORDERED = 3  # no positional encoding: groups of pairs whose meaning changes with word order
COMBINATION_SHARE = 0.1  # dropout: the share of the pairs held out as new combinations
# dropout: its corpus. On 600 pairs (30 epochs, seed 0) 76 % of the 67 held-out rows against 58 % without dropout;
# see docs/performance.md for other seeds and sizes
DROPOUT_PAIRS = 600


@dataclass(frozen=True)
class Experiment:
    """A ready-made comparison: the variant's switches, the sizes both models share, what is held out, what data can
    show its effect (`needs`), and the corpus it runs on by default (corpus_size pairs of transformer.corpus, trained
    with the corpus's recipe for `epochs` epochs, then on until the baseline has learned (Until): at 30 epochs every
    baseline passes the recipe's stopping test on the corpus (benchmarks/lab_baselines.py; at 15 epochs four of them
    had not learned), and both models train in well under a minute on a quiet core)."""

    name: str
    switches: dict
    sizes: dict = field(default_factory=dict)  # overrides of the standard sizes, the same for both models
    holdout: str = "none"  # "none", "longest": the longest targets (longest_rows), "combination" (combination_rows)
    # "any", "reordered" (MIN_REORDERED groups), "longer" (targets of several lengths), "many", "combination" (rows of
    # new combinations can be held out)
    needs: str = "any"
    corpus_size: int = 600
    epochs: int = 30
    train: dict = field(default_factory=dict)  # TrainConfig fields of both models on the corpus (e.g. batch_size)
    baseline_train: dict = field(default_factory=dict)  # TrainConfig fields of the baseline alone
    variant_train: dict = field(default_factory=dict)  # TrainConfig fields of the variant alone (its training switch)

    def corpus_pairs(self) -> list[tuple[str, str]]:
        """The corpus this experiment runs on by default."""
        return [(p.source, p.target) for p in corpus.generate(self.corpus_size, corpus.DEFAULT_SEED)]

    def corpus_config(self, seed: int = 0) -> TrainConfig:
        """How both models train on that corpus: the corpus's recipe (corpus.TRAIN_CONFIG), with its own epochs."""
        recipe = corpus.TRAIN_CONFIG
        fields = {"lr": recipe.lr, "batch_size": recipe.batch_size, **self.train}
        return TrainConfig(epochs=self.epochs, seed=seed, **fields)

    def configs(self, cfg: TrainConfig) -> tuple[TrainConfig, TrainConfig]:
        """(the baseline's, the variant's) settings from the settings both share: each with its own training fields."""
        return replace(cfg, **self.baseline_train), replace(cfg, **self.variant_train)

    @property
    def changes(self) -> bool:
        """Whether the variant differs from the baseline at all (a switch of the model, or of its training)."""
        return bool(self.switches or self.variant_train or self.baseline_train)


EXPERIMENTS = {
    e.name: e
    for e in (
        Experiment("no_look_ahead", {"look_ahead_mask": False}, needs="many"),
        Experiment("no_pe", {"pe": "none"}, needs="reordered"),
        Experiment("no_scale", {"scale": False}, {"d_model": 128, "n_heads": 1, "d_ff": 128}, corpus_size=300),
        Experiment("no_residual_norm", {"residual": False, "norm": "none"}, {"n_layers": 6}, corpus_size=300),
        Experiment("pre_norm", {"norm": "pre"}, {"n_layers": 6}, corpus_size=300),
        Experiment("learned_pe", {"pe": "learned"}, holdout="longest", needs="longer"),
        Experiment("label_smoothing", {}, variant_train={"label_smoothing": 0.1}),
        Experiment(
            "no_warmup",
            {},
            baseline_train={"warmup": WARMUP_STEPS, "lr": WARMUP_PEAK},
            variant_train={"lr": WARMUP_PEAK},
        ),
        Experiment("dropout", {"dropout": 0.1}, holdout="combination", needs="combination", corpus_size=DROPOUT_PAIRS),
    )
}


@dataclass(frozen=True)
class DataCheck:
    """Whether some pairs can show an experiment's effect; when not, why (code and values, for the UI's words)."""

    ok: bool
    code: str = ""  # "too_few", "no_reordered", "one_length"
    values: dict = field(default_factory=dict)


def check_data(experiment: Experiment, pairs: Sequence[tuple[str, str]], tokenizer: str = "auto") -> DataCheck:
    """Whether these pairs can show the experiment's effect (see Experiment.needs)."""
    if experiment.needs == "many" and len(pairs) < MIN_PAIRS:
        return DataCheck(False, "too_few", {"n": len(pairs), "min": MIN_PAIRS})
    if experiment.needs == "reordered":
        groups = reordered_groups(pairs, tokenizer)
        if len(groups) < MIN_REORDERED:
            return DataCheck(False, "no_reordered", {"n": len(groups), "min": MIN_REORDERED})
    if experiment.needs == "longer" and not longest_rows(pairs, tokenizer):
        return DataCheck(False, "one_length", {})
    if experiment.needs == "combination" and not combination_rows(pairs, tokenizer):
        return DataCheck(False, "no_combination", {})
    return DataCheck(True)


def combination_rows(pairs: Sequence[tuple[str, str]], tokenizer: str = "auto", seed: int = 0) -> list[int]:
    """Rows of the pairs whose source pairs two words that no training sentence pairs (transformer.splits, the
    "combination" split, COMBINATION_SHARE of them, drawn with seed); empty when the pairs cannot be split so."""
    try:
        return split_pairs(pairs, "combination", COMBINATION_SHARE, seed, tokenizer).held
    except DataError:
        return []


def held_rows(experiment: Experiment, pairs: Sequence[tuple[str, str]], tokenizer: str = "auto", seed: int = 0):
    """The rows of pairs an experiment holds out (Experiment.holdout): none, the longest targets or new
    combinations."""
    if experiment.holdout == "longest":
        return longest_rows(pairs, tokenizer)
    if experiment.holdout == "combination":
        return combination_rows(pairs, tokenizer, seed)
    return []


def longest_rows(pairs: Sequence[tuple[str, str]], tokenizer: str = "auto", share: float = 0.15) -> list[int]:
    """Rows of the pairs whose targets are longer than every other target: about `share` of them, cut at a length so
    that each held-out target is longer than any kept one (empty when all targets have one length)."""
    lengths = [len(tokenize(t, tokenizer, "target")) for _, t in pairs]
    if len(set(lengths)) < 2:
        return []
    by_length = sorted(set(lengths), reverse=True)
    held: list[int] = []
    for length in by_length[:-1]:  # the shortest length always stays in training
        held += [i for i, n in enumerate(lengths) if n == length]
        if len(held) >= share * len(pairs):
            break
    return sorted(held)


def peak_attention(maps: AttentionMaps) -> float:
    """How peaked attention is: the mean, over every kind, layer, head and query, of the query's largest
    weight; 1.0 is one-hot attention, 1/n spreads evenly over n keys."""
    attns = [a for kind in ATTENTION_KINDS.values() for a in maps.of(kind)]  # each (B, H, Lq, Lk)
    peaks = [a.amax(-1).flatten() for a in attns]  # B·H·Lq peaks each
    return float(torch.cat(peaks).mean()) if peaks else float("nan")


def epochs_to_loss(history: Sequence, threshold: float = LOSS_REACHED) -> int | None:
    """The first epoch whose training loss is below threshold, or None when none is."""
    for h in history:
        if h.loss < threshold:
            return int(h.epoch)
    return None


def mean_top_probability(translator: Translator, pairs: Sequence[tuple[str, str]]) -> float:
    """How confident the model is: the mean, over the teacher-forced target tokens of pairs, of the largest
    next-token probability (whichever token it is); 1.0 is certain everywhere, 1/V spreads evenly."""
    if not pairs:
        return float("nan")
    total, counted = 0.0, 0
    with evaluating(translator.model) as device:
        for start in range(0, len(pairs), 128):
            enc, dec, out = (t.to(device) for t in translator.make_batch(list(pairs[start : start + 128])))
            logits, _ = translator.model(enc, dec)  # (B, Lt, V)
            real = out.ne(translator.pad_id)  # (B, Lt)
            total += float(logits.softmax(-1).amax(-1)[real].sum())
            counted += int(real.sum())
    return total / counted if counted else float("nan")


def baseline_verdict(side: Side) -> Verdict:
    """The recipe's stopping test (transformer.recipe.under_trained) on a comparison's baseline: whether it learned
    its training pairs, so that what the variant lacks can be told from what neither model learned yet."""
    return under_trained(side.history, side.evaluations["train"].exact_match)


LEARN_CHECKS = 3  # after its first epochs the baseline is tested every third of them ...
LEARN_MOST = 3  # ... and trains at most three times them


@dataclass(frozen=True)
class Until:
    """How long a Lab experiment trains: until its baseline has learned. The recipe's stopping test runs on the
    baseline after `first` epochs (those the experiment's claims were measured at), then every `every` epochs, and
    training ends at the first test it passes, or after `last` epochs; the variant trains as many epochs as the
    baseline."""

    first: int
    every: int
    last: int

    @classmethod
    def of(cls, epochs: int) -> Until:
        """The Lab's rule for an experiment of `epochs` epochs: tested after them, then every third of them, at most
        three times them (and at most MAX_EPOCHS)."""
        last = max(epochs, min(MAX_EPOCHS, LEARN_MOST * epochs))
        return cls(epochs, max(1, round(epochs / LEARN_CHECKS)), last)

    def due(self, epoch: int) -> bool:
        """Whether the stopping test runs after this epoch."""
        return self.first <= epoch <= self.last and (epoch == self.last or (epoch - self.first) % self.every == 0)

    def goal(self, epoch: int) -> int:
        """The epoch of the next stopping test at or after `epoch`: where training ends if the baseline passes it."""
        if epoch <= self.first:
            return self.first
        return min(self.last, self.first + math.ceil((epoch - self.first) / self.every) * self.every)


def learned_now(translator: Translator, pairs: Sequence[tuple[str, str]]) -> Verdict:
    """The recipe's stopping test on a model in training: its history so far and its greedy exact match on pairs."""
    found = translator.exact_match(list(pairs))
    exact = sum(r[3] for r in found) / len(found) if found else 0.0
    return under_trained(translator.summary.history, exact)


def may_stop(until: Until | None, epoch: int, translator: Translator, pairs: Sequence[tuple[str, str]]) -> bool:
    """Whether an experiment's training ends after this epoch, before its last: a stopping test is due and the
    baseline (translator, trained on pairs) passes it."""
    if until is None or epoch >= until.last or not until.due(epoch):
        return False
    return not learned_now(translator, pairs).under_trained


def ended_early(translator: Translator) -> None:
    """A training planned for more epochs ended at its baseline's stopping test: its recorded settings say the epochs
    it trained, so that they train the same model again (the learning rate depends on the step, not on the end)."""
    summary = translator.summary
    if summary.train_config is not None and summary.epochs:
        translator.summary = replace(summary, train_config=replace(summary.train_config, epochs=summary.epochs))


@dataclass(frozen=True)
class Training:
    """What a page says about how long an experiment trained: the code of its sentence and the figures it states."""

    code: str  # "learned" (at the first test), "learned_later", "unlearned_exact", "unlearned_falling", "stopped"
    epochs: int  # epochs the baseline trained
    first: int  # epochs of the first stopping test
    last: int  # the most the experiment trains
    exact: float  # the baseline's training-pair exact match: right of total pairs
    right: int
    total: int
    fall: float  # how much its loss fell over the last tenth of the steps, as a share of its value there


def training_of(side: Side, until: Until | None, stopped: bool = False) -> Training:
    """How long the baseline trained and whether it learned, from its history and its evaluation (the figures beside
    the sentence): learned at the first stopping test or later, stopped by the learner, or not learned, and why."""
    verdict = baseline_verdict(side)
    epochs = len(side.history)
    until = until or Until(epochs, 1, epochs)
    if not verdict.under_trained:
        code = "learned" if epochs <= until.first else "learned_later"
    elif stopped and epochs < until.last:
        code = "stopped"
    else:
        code = "unlearned_exact" if verdict.exact < EXACT_LEARNED else "unlearned_falling"
    trained = side.evaluations["train"]
    return Training(code, epochs, until.first, until.last, verdict.exact, trained.exact, trained.total, verdict.fall)


MEASURES = ("exact_match", "token_accuracy", "bleu", "chrf")  # the score table's measures, as the verdict names them


def higher_measures(baseline: ScoreTable, variant: ScoreTable) -> list[tuple[str, str, float, float]]:
    """(measure, part, baseline's score, variant's score) for every measure of every part on which the variant
    scores higher than the baseline (every pair's row) as the score table shows them (percentages to 0.1 %, BLEU and
    chrF to 0.1): what a verdict must name beside the table."""
    found = []
    parts = [p for p in baseline.parts if p in variant.parts]
    for part in [p for p in parts if p != ALL] or parts:  # every pair's part only when the pairs are not divided
        b, v = baseline.get(ALL, part), variant.get(ALL, part)
        if b is None or v is None:
            continue
        for measure in MEASURES:
            bv, vv = getattr(b, measure), getattr(v, measure)
            digits = 3 if measure in ("exact_match", "token_accuracy") else 1  # as the table shows them: 99.8 %, 74.8
            if math.isfinite(bv) and math.isfinite(vv) and round(vv, digits) > round(bv, digits):
                found.append((measure, part, bv, vv))
    return found


def accuracy_beyond(translator: Translator, pairs: Sequence[tuple[str, str]], position: int) -> tuple[float, int]:
    """(teacher-forced token accuracy, tokens counted) over the target positions at index ≥ position of pairs."""
    if not pairs:
        return float("nan"), 0
    with evaluating(translator.model) as device:
        enc, dec, out = (t.to(device) for t in translator.make_batch(list(pairs)))
        logits, _ = translator.model(enc, dec)  # (B, Lt, V)
    real = out.ne(translator.pad_id)
    real[:, :position] = False
    counted = int(real.sum())
    if not counted:
        return float("nan"), 0
    return int(logits.argmax(-1)[real].eq(out[real]).sum()) / counted, counted


@dataclass
class Side:
    """One trained model of a comparison, with what its training recorded."""

    translator: Translator
    history: Sequence[EpochRecord]
    evaluations: dict[str, Evaluation]  # "train" (and "holdout")
    snapshots: list[tuple[int, AttentionMaps]] = field(default_factory=list)
    trained_pairs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def final_loss(self) -> float:
        last = self.history[-1] if self.history else None
        return float("nan") if last is None else float(last.loss)


def evidence(name: str, baseline: Side, variant: Side, holdout: Sequence[tuple[str, str]] = ()) -> tuple[bool, dict]:
    """(whether the experiment's claim held in this run, the figures that say so) for a ready-made experiment."""
    b, v = baseline.evaluations["train"], variant.evaluations["train"]
    if name == "no_look_ahead":  # training looks perfect, greedy decoding fails
        facts = dict(v_acc=v.token_accuracy, v_exact=v.exact_match, b_acc=b.token_accuracy, b_exact=b.exact_match)
        held = v.token_accuracy >= 0.9 and v.exact_match <= 0.3
        if not held:  # what kept the claim from holding
            facts["cause"] = "epochs" if v.token_accuracy < 0.9 else "memorised"
        return held, facts
    if name == "no_pe":  # sentences whose meaning only word order tells get one translation: at most one is right
        return _reordered_evidence(baseline, variant)
    if name == "no_scale":  # softmax saturates early, training slows
        first = [peak_attention(s.snapshots[0][1]) if s.snapshots else float("nan") for s in (baseline, variant)]
        reached = [epochs_to_loss(s.history) for s in (baseline, variant)]
        slower = reached[1] is None or (reached[0] is not None and reached[1] > reached[0])
        facts = dict(b_peak=first[0], v_peak=first[1], b_epochs=reached[0], v_epochs=reached[1])
        facts.update(b_loss=baseline.final_loss, v_loss=variant.final_loss)
        held = first[1] > first[0] and (slower or variant.final_loss > 2 * baseline.final_loss)
        if not held:
            facts["cause"] = "epochs" if reached[0] is None else "seed"
        return held, facts
    if name == "no_residual_norm":  # a deep stack without them stalls or diverges
        facts = dict(
            b_loss=baseline.final_loss, v_loss=variant.final_loss, b_exact=b.exact_match, v_exact=v.exact_match
        )
        drops = [_first_loss(side) - side.final_loss for side in (baseline, variant)]
        stalled = (  # no lower than a tenth of the baseline, or fell by less than a quarter as much
            math.isnan(variant.final_loss) or variant.final_loss > 10 * baseline.final_loss or drops[1] < drops[0] / 4
        )
        held = stalled and v.exact_match < b.exact_match
        if not held:
            facts["cause"] = "epochs" if epochs_to_loss(baseline.history) is None else "seed"
        return held, facts
    if name == "pre_norm":  # pre-norm trains a deep stack at least as fast
        reached = [epochs_to_loss(s.history) for s in (baseline, variant)]
        facts = dict(b_epochs=reached[0], v_epochs=reached[1], b_loss=baseline.final_loss, v_loss=variant.final_loss)
        held = reached[1] is not None and (reached[0] is None or reached[1] <= reached[0])
        if not held:
            facts["cause"] = "epochs" if reached[1] is None and reached[0] is None else "seed"
        return held, facts
    if name == "learned_pe":  # learned positions past the longest training target were never trained
        longest = max((len(baseline.translator.target_tokens(t)) for _, t in baseline.trained_pairs), default=0)
        beyond = [accuracy_beyond(s.translator, holdout, longest + 1) for s in (baseline, variant)]  # +1: E
        facts = dict(position=longest + 2, b_beyond=beyond[0][0], v_beyond=beyond[1][0], tokens=beyond[0][1])
        held = beyond[0][1] > 0 and beyond[1][0] < beyond[0][0]
        if not held:
            facts["cause"] = "data" if beyond[0][1] == 0 else "seed"
        return held, facts
    if name == "label_smoothing":  # less confident, as accurate
        conf = [mean_top_probability(s.translator, s.trained_pairs) for s in (baseline, variant)]
        facts = dict(b_conf=conf[0], v_conf=conf[1], b_exact=b.exact_match, v_exact=v.exact_match)
        held = conf[1] < conf[0] and v.exact_match >= b.exact_match - SAME_EXACT
        if not held:
            facts["cause"] = "epochs" if v.exact_match < b.exact_match - SAME_EXACT else "seed"
        return held, facts
    if name == "no_warmup":  # the same peak learning rate from the first step: the run diverges or stalls
        facts = dict(
            b_loss=baseline.final_loss, v_loss=variant.final_loss, b_exact=b.exact_match, v_exact=v.exact_match
        )
        facts.update(lr=_peak_lr(variant))
        failed = math.isnan(variant.final_loss) or variant.final_loss > 2 * baseline.final_loss
        held = failed and v.exact_match < b.exact_match
        if not held:
            facts["cause"] = "epochs" if baseline_verdict(baseline).under_trained else "seed"
        return held, facts
    if name == "dropout":  # regularisation: more of the new combinations translated, the trained pairs still learned
        return _dropout_evidence(baseline, variant)
    raise KeyError(f"no ready-made experiment named {name!r}")


SAME_EXACT = 0.05  # label smoothing, dropout: exact match within this of the baseline's counts as "as accurate"


def _dropout_evidence(baseline: Side, variant: Side) -> tuple[bool, dict]:
    """dropout: held-out rows of new combinations translated exactly by each model, and exact match on the trained
    pairs; the claim holds when the variant translates more held-out rows and stays within SAME_EXACT on the trained."""
    b, v = baseline.evaluations["train"], variant.evaluations["train"]
    hb, hv = baseline.evaluations.get("holdout"), variant.evaluations.get("holdout")
    facts = dict(b_exact=b.exact_match, v_exact=v.exact_match)
    if hb is None or hv is None or not hb.total:
        return False, {**facts, "cause": "data"}
    facts.update(n_held=hb.total, b_right=hb.exact, v_right=hv.exact)
    facts.update(b_held_exact=hb.exact_match, v_held_exact=hv.exact_match)
    kept_up = v.exact_match >= b.exact_match - SAME_EXACT
    held = hv.exact > hb.exact and kept_up
    if not held:  # a baseline, or a variant, that had not learned its training pairs: train longer
        facts["cause"] = "epochs" if baseline_verdict(baseline).under_trained or not kept_up else "seed"
    return held, facts


def _peak_lr(side: Side) -> float:
    """The largest learning rate a side's history recorded (nan when it recorded none)."""
    rates = [float(r.lr or "nan") for r in side.history]
    rates = [r for r in rates if math.isfinite(r)]
    return max(rates) if rates else WARMUP_PEAK  # none recorded yet: the rate the experiment sets


def _first_loss(side: Side) -> float:
    first = side.history[0] if side.history else None
    return float("nan") if first is None else float(first.loss)


def _reordered_evidence(baseline: Side, variant: Side) -> tuple[bool, dict]:
    """no_pe: both models compared on exactly the trained pairs whose meaning changes with word order
    (splits.reordered_groups): rows (group, source, reference, baseline output, exact?, variant output, exact?), how
    many each model translates exactly, and in how many groups the variant gives every source one translation."""
    pairs = list(variant.trained_pairs or baseline.trained_pairs)
    groups = reordered_groups(pairs, variant.translator.tokenizer)
    rows_of = [i for g in groups for i in g]
    results = []
    for side in (baseline, variant):
        recorded = side.evaluations.get("train")
        if recorded is not None and [(s, t) for s, t, *_ in recorded.results] == pairs:
            results.append({i: recorded.results[i][2:] for i in rows_of})
        else:  # evaluated on other pairs: translate these here
            found = side.translator.exact_match([pairs[i] for i in rows_of])
            results.append({i: r[2:] for i, r in zip(rows_of, found)})
    rows, same = [], 0
    for k, group in enumerate(groups, start=1):
        same += len({results[1][i][0] for i in group}) == 1
        rows += [(k, *pairs[i], *results[0][i], *results[1][i]) for i in group]
    b_right, v_right = sum(r[4] for r in rows), sum(r[6] for r in rows)
    facts = dict(rows=rows, groups=len(groups), same=same, pairs=len(rows), b_right=b_right, v_right=v_right)
    facts.update(b_exact=b_right / len(rows) if rows else float("nan"))
    facts.update(v_exact=v_right / len(rows) if rows else float("nan"))
    held = len(groups) >= 1 and same == len(groups) and v_right < b_right
    if not held:  # what kept the claim from holding: too few such pairs, or a baseline that had not learned them yet
        facts["cause"] = "data" if len(groups) < MIN_REORDERED else "epochs" if same == len(groups) else "seed"
    return held, facts


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
    until: Until | None = None,
) -> tuple[Side, Side, list]:
    """Train an experiment's baseline and variant one after the other, here and now (the app trains them as a
    background job): (baseline, variant, held-out pairs). With `until`, the baseline trains until it has learned
    (Until) and the variant as many epochs; without, both train cfg.epochs."""
    rows = held_rows(experiment, pairs, tokenizer, cfg.seed)
    sizes = {**STANDARD_SIZES, **experiment.sizes}
    baseline, variant, train_pairs, held = prepare(pairs, experiment.switches, sizes, tokenizer, cfg.seed, rows)
    sides, epochs = [], until.last if until else cfg.epochs
    for side, translator in enumerate((baseline, variant)):
        side_cfg = experiment.configs(replace(cfg, epochs=epochs))[side]
        records = []
        for record in train(translator, train_pairs, side_cfg, snapshot_every, range(8), held or None):
            records.append(record)
            if side == 0 and may_stop(until, record.epoch, translator, train_pairs):
                break
        if len(records) < epochs:
            ended_early(translator)
        epochs = len(records)  # the variant trains as many epochs as the baseline did
        evaluations = {"train": translator.evaluate(train_pairs)}
        if held:
            evaluations["holdout"] = translator.evaluate(held)
        snapshots = [(r.epoch, r.snapshot) for r in records if r.snapshot is not None]
        sides.append(Side(translator, records, evaluations, snapshots, train_pairs))
    return sides[0], sides[1], held
