"""A training, planned before it starts: split → checks → train() → evaluate → summary.

A TrainingPlan says which pairs a new model trains on and which it holds out, its sizes and its settings, and what
its checkpoint records about that data. A plan may also go on from a model that exists (TrainingPlan.continuing, a
fine-tuning): that model's vocabularies, tokenizer and sizes are kept, the settings are the plan's, and `before` says
what it knew before, on the same held-out pairs that `finish` scores after.

`finish` is the one place that writes a training's summary (exact match, the
score table by phenomenon and part, the held-out rows and split): the command line (`python -m transformer train`),
the app's jobs (jobs.worker, for the Train page, the Attention page's replay and the Lab) all end a training with it.

The rows of the score table are the phenomena the corpus's grammar finds in each pair (transformer.corpus.tags_of),
whatever a file's own phenomena column says: a checkpoint keeps the grammar's phenomena only, and the same pairs get
the same table wherever they were trained.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from . import corpus
from .bpe import DEFAULT_BPE_VOCAB_SIZE, Bpe, learn_bpe
from .checkpoint import MAX_HELD_OUT_CHARS, MAX_HELD_OUT_ITEMS, checkpoint_too_large
from .config import TrainConfig, TransformerConfig
from .data import Vocab, build_vocabs, unseen_words
from .model import parameter_count
from .scores import ALL, Scores, aggregate, table_of
from .splits import Split, pairs_sha256
from .summary import DataRecord, EpochRecord, SplitRecord, TrainingSummary
from .train import train
from .translator import Evaluation, Translator

Pairs = list[tuple[str, str]]
# training pairs finish scores: more than this many are scored on a sample of this many, drawn with the training's
# seed. Scoring a pair costs 2.5-3.6 times training on it for an epoch (docs/performance.md), so 5,000 of 30,000 pairs
# took 11-12 % of the 5 epochs the Train page gives them, where all 30,000 took 50-58 %; exact match on 5,000 pairs is
# within ±1.4 points (95 %) of all of them. Held-out pairs are always scored in full.
TRAIN_SAMPLE = 5_000


@dataclass(frozen=True)
class TrainingPlan:
    """One training of a new model: the pairs it trains on (in order) and those it holds out, the model's sizes and
    switches, the settings, and `data`, what its summary records about the data it was given."""

    train_pairs: Pairs
    held_pairs: Pairs
    tokenizer: str | Bpe = "auto"
    sizes: dict = field(default_factory=dict)  # d_model, n_heads, …, and any architecture switches
    config: TrainConfig = TrainConfig()
    data: DataRecord = field(default_factory=DataRecord)
    base: Translator | dict | None = None  # fine-tuning: the model training goes on from (or it packed, in a job)

    @classmethod
    def continuing(
        cls,
        base: Translator,
        pairs: Sequence[tuple[str, str]],
        split: Split | None,
        fraction: float,
        config: TrainConfig = TrainConfig(),
        also: Sequence[tuple[str, str]] = (),
    ) -> TrainingPlan:
        """Go on training base on the split's kept rows of pairs and on `also`, holding out its held rows (as
        from_split): base's vocabularies, tokenizer and sizes stay, tokens it lacks are read as unknown."""
        plan = cls.from_split(pairs, split, fraction, "auto", None, config, also)  # "auto": nothing learned here
        sizes = {k: v for k, v in base.config.to_dict().items() if not k.endswith("vocab_size")}
        return replace(plan, tokenizer=base.tokenizer, sizes=sizes, base=base)

    @property
    def fine_tuning(self) -> bool:
        return self.base is not None

    def unknown_tokens(self) -> tuple[int, int]:
        """Fine-tuning: (source tokens, target tokens) of the plan's pairs, every occurrence counted, that the model's
        vocabularies lack and that it therefore reads as unknown; (0, 0) for a new model, whose vocabularies are the
        training pairs'."""
        if not isinstance(self.base, Translator):
            return 0, 0
        unseen = unseen_words(self.train_pairs + self.held_pairs, *self.vocabs(), self.tokenizer)
        return sum(unseen.source.values()), sum(unseen.target.values())

    @classmethod
    def from_split(
        cls,
        pairs: Sequence[tuple[str, str]],
        split: Split | None,
        fraction: float,
        tokenizer: str = "auto",
        sizes: dict | None = None,
        config: TrainConfig = TrainConfig(),
        also: Sequence[tuple[str, str]] = (),
    ) -> TrainingPlan:
        """Train on the split's kept rows of pairs (not those it sets aside), then on every pair of `also`; hold out its
        held rows (split None: hold out nothing). fraction is the share the split was asked to hold out, as the summary
        records it."""
        held = list(split.held) if split is not None else []
        plan = cls.from_rows(pairs, held, tokenizer, sizes, config, also)
        if split is not None and split.set_aside:  # a length split's rows between its cuts: on neither side, and
            aside = tuple(sorted(split.set_aside))  # recorded, so no one takes them for trained rows
            kept = [pairs[i] for i in split.train] + list(also)
            plan = replace(plan, train_pairs=kept, data=replace(plan.data, set_aside_rows=aside))
        if not held:
            return plan
        what = tuple(x[:MAX_HELD_OUT_CHARS] for x in split.held_out[:MAX_HELD_OUT_ITEMS])
        return replace(plan, data=replace(plan.data, split=SplitRecord(split.kind, fraction, config.seed, what)))

    @classmethod
    def from_rows(
        cls,
        pairs: Sequence[tuple[str, str]],
        held_rows: Sequence[int],
        tokenizer: str = "auto",
        sizes: dict | None = None,
        config: TrainConfig = TrainConfig(),
        also: Sequence[tuple[str, str]] = (),
    ) -> TrainingPlan:
        """Train on every row of pairs not in held_rows, then on every pair of `also`; hold out held_rows. A BPE
        tokenizer (a Bpe, or "bpe" for one of the default size) is learned again from the training pairs alone, so
        the held-out pairs play no part in its pieces."""
        held = set(held_rows)
        train_pairs = [p for i, p in enumerate(pairs) if i not in held] + list(also)
        if isinstance(tokenizer, Bpe) or tokenizer == Bpe.name:
            tokenizer = learn_bpe(train_pairs, getattr(tokenizer, "vocab_size", DEFAULT_BPE_VOCAB_SIZE))
        held_pairs = [pairs[i] for i in sorted(held)]
        data = DataRecord(pairs_sha256(pairs), len(also), tuple(sorted(held)))  # held_rows are rows of these pairs
        return cls(train_pairs, held_pairs, tokenizer, dict(sizes or {}), config, data)

    def vocabs(self) -> tuple[Vocab, Vocab]:
        """The (source, target) vocabularies the model gets: those of the training pairs, with the tokenizer learned
        from them (Translator.create builds the same); a fine-tuning's, the model's own."""
        if isinstance(self.base, Translator):
            return self.base.src_vocab, self.base.tgt_vocab
        return build_vocabs(self.train_pairs, self.tokenizer)

    def model_config(self) -> TransformerConfig:
        """The config of the model this plan builds, from the sizes and its vocabularies (TransformerError when a
        vocabulary is too large)."""
        if isinstance(self.base, Translator):
            return self.base.config
        src_vocab, tgt_vocab = self.vocabs()
        return TransformerConfig(len(src_vocab), len(tgt_vocab), **self.sizes)

    def oversized(self) -> tuple[int, int] | None:
        """(parameters, checkpoint bytes) when the checkpoint of this training would be refused by the loader, else
        None: checked from the sizes alone, before anything is built. A Marian model trained further is not refused
        here: its training goes on whatever its size, and Publish says when its checkpoint would be too large."""
        if getattr(self.tokenizer, "name", None) == "sentencepiece":
            return None
        src_vocab, tgt_vocab = self.vocabs()
        model = self.model_config()
        rows = len(self.held_pairs) + len(self.data.set_aside_rows)  # row numbers the summary records
        size = checkpoint_too_large(
            model, src_vocab, tgt_vocab, self.config.epochs, rows, self.tokenizer, self.data.credits
        )
        return None if size is None else (parameter_count(model), size)

    def build(self) -> Translator:
        """The untrained model: vocabularies of the training pairs, initial weights from the settings' seed; a
        fine-tuning's: the caller's own copy of the model it goes on from (Translator.own_copy, a shared model is
        never changed), its training history begun anew."""
        if self.base is not None:
            return self.start(self.base.own_copy())
        return Translator.create(self.train_pairs, self.tokenizer, self.config.seed, **self.sizes)

    def start(self, translator: Translator) -> Translator:
        """A fine-tuning's model as its training begins: the summary of this training only (its epochs, its steps:
        a warmup starts again), nothing of the model's earlier training."""
        return replace(translator, summary=TrainingSummary())

    def before(self, translator: Translator, sample: int | None = None) -> Before:
        """What a model knows before this training: its scores (exact match, BLEU, chrF) on the held-out pairs, or,
        when none are held out, on the training pairs (past sample of them, the sample finish scores)."""
        if self.held_pairs:
            return Before("holdout", aggregate(translator.evaluate(self.held_pairs).scored))
        rows = scored_rows(len(self.train_pairs), self.config.seed, sample)
        return Before("train", aggregate(translator.evaluate([self.train_pairs[i] for i in rows]).scored))

    def train(
        self, translator: Translator, snapshot_every: int = 0, snapshot_pairs: Sequence[int] = (0,)
    ) -> Iterator[EpochRecord]:
        """transformer.train.train of this plan: one record per epoch, the held-out pairs' figures in each."""
        return train(translator, self.train_pairs, self.config, snapshot_every, snapshot_pairs, self.held_pairs or None)

    def finish(self, translator: Translator, sample: int | None = None) -> dict[str, Evaluation]:
        """Evaluate the trained model and write its summary (see finish), the training pairs' sample drawn with the
        settings' seed."""
        return finish(translator, self.train_pairs, self.held_pairs, self.data, self.config.seed, sample)


@dataclass(frozen=True)
class Before:
    """A model's scores before a fine-tuning, on one part of the plan's pairs ("holdout", else "train")."""

    part: str
    scores: Scores

    def after(self, translator: Translator) -> Scores | None:
        """The same part's scores once the model is trained and finished (its summary's table), None before that."""
        table = translator.summary.scores
        if table is None:
            return None
        return table.get(ALL, self.part)


def scored_rows(n: int, seed: int, sample: int | None = None) -> list[int]:
    """The rows of n training pairs that finish scores, in order: all of them when they are at most sample
    (TRAIN_SAMPLE when None), else a sample of that many drawn with seed (the same rows for the same seed)."""
    sample = TRAIN_SAMPLE if sample is None else sample
    if n <= sample:
        return list(range(n))
    return sorted(random.Random(seed).sample(range(n), sample))


def finish(
    translator: Translator,
    pairs: Pairs,
    holdout: Pairs,
    data: DataRecord | None = None,
    seed: int = 0,
    sample: int | None = None,
) -> dict[str, Evaluation]:
    """The evaluations of a trained model ("train", and "holdout" when pairs were held out), and into its summary
    what a checkpoint keeps of them: exact match of each part, the score table (transformer.scores) of both parts by
    phenomenon, and the plan's record of the data. Every held-out pair is decoded once and teacher-forced once for
    both; so is every training pair, or, past sample of them (scored_rows), a sample drawn with seed, and the summary's
    train_scored says how many of how many."""
    rows = scored_rows(len(pairs), seed, sample)
    scored_pairs = pairs if len(rows) == len(pairs) else [pairs[i] for i in rows]
    evaluations = {"train": translator.evaluate(scored_pairs)}
    if holdout:
        evaluations["holdout"] = translator.evaluate(holdout)
    scored = [p for evaluation in evaluations.values() for p in evaluation.scored]
    parts = ["train"] * len(scored_pairs) + ["holdout"] * len(holdout)
    table = table_of(scored, corpus.tags_of(scored_pairs + holdout), parts)
    held_exact = evaluations["holdout"].exact_match if holdout else None
    summary = translator.summary.evaluated(evaluations["train"].exact_match, held_exact, table, len(rows), len(pairs))
    translator.summary = summary if data is None else replace(summary, data=data)
    return evaluations
