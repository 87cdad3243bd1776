"""The training summary: what a model's checkpoint says about how it was trained, as a type.

A TrainingSummary is frozen. train() records its settings and makes a new one after every epoch (after_epoch), and
transformer.plan.finish adds the evaluation (evaluated) and the record of the data; code that changes one uses
dataclasses.replace. Only transformer.checkpoint turns it into JSON and back (summary_to_dict, summary_from_dict),
and it reads every summary an older checkpoint holds: a field that was not recorded has its default here (no history,
no settings, no split).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .config import TrainConfig

if TYPE_CHECKING:  # the summary holds none at run time: no import of torch or of the scores for the type alone
    from .credits import Credits
    from .model import AttentionMaps
    from .scores import ScoreTable


@dataclass(frozen=True)
class EpochRecord:
    """What one epoch did: mean loss and token accuracy on the non-padding targets, on the training pairs and (when
    some were held out) on the held-out pairs, and the seconds spent training so far."""

    epoch: int
    loss: float
    accuracy: float
    seconds: float | None  # None only in a history of the oldest checkpoints, which did not record it
    snapshot: AttentionMaps | None = None  # maps of the snapshot pairs (batch order), every snapshot_every epochs
    holdout_loss: float | None = None
    holdout_accuracy: float | None = None
    step: int | None = None  # optimiser steps taken so far
    lr: float | None = None  # the learning rate of this epoch's last step
    aer: float | None = None  # the best cross-attention head's alignment error rate on the gold pairs, when given
    aer_layer: int | None = None  # that head, from 0
    aer_head: int | None = None


@dataclass(frozen=True)
class SplitRecord:
    """The held-out split a model's data was made with (transformer.splits), as its summary records it."""

    kind: str  # one of transformer.splits.SPLITS
    holdout: float  # the share asked for
    seed: int
    held_out: tuple[str, ...] = ()  # what the split held out ("猫 + 追", "音乐", …), the first ones, cut short


@dataclass(frozen=True)
class DataRecord:
    """What a training records about the data it was given: which pairs (their SHA-256), the rows it held out or set
    aside, the pairs trained on besides them, the split, and the data's credit: a file's licence and source in one
    line, and, whole, each row's sentence numbers and contributors (CC-BY asks for the authors)."""

    data_sha256: str | None = None
    always_trained: int = 0  # pairs trained on besides the rows (--also): after them, never held out
    holdout_rows: tuple[int, ...] = ()
    set_aside_rows: tuple[int, ...] = ()  # a length split's rows between its cuts: on neither side
    split: SplitRecord | None = None
    data_credit: str | None = None
    credits: Credits | None = None  # each row's sentence numbers and contributors (transformer.credits)


@dataclass(frozen=True)
class TrainScored:
    """How many training pairs the evaluation scored, of how many (a sample when scored < of)."""

    scored: int
    of: int


@dataclass(frozen=True)
class TrainingSummary:
    """How a model was trained and how it scored: the last epoch's figures, the history of every epoch, the settings,
    the evaluation and what the data was. An untrained model's is TrainingSummary()."""

    epochs: int = 0
    steps: int = 0  # optimiser steps: a further training goes on with the schedule from here
    loss: float | None = None  # the last epoch's
    accuracy: float | None = None
    seconds: float = 0.0  # spent training
    history: tuple[EpochRecord, ...] = ()  # one record per epoch, without snapshots
    train_config: TrainConfig | None = None  # the settings (not where it ran: no device, no threads)
    exact_match: float | None = None  # greedy exact match on the training pairs scored (train_scored)
    holdout_exact_match: float | None = None
    scores: ScoreTable | None = None  # by phenomenon and part (transformer.scores)
    train_scored: TrainScored | None = None  # recorded when the training pairs scored were a sample of them
    data: DataRecord = field(default_factory=DataRecord)

    def after_epoch(self, record: EpochRecord) -> TrainingSummary:
        """The summary once record's epoch is over: its figures are the last ones, and it joins the history."""
        return replace(
            self,
            epochs=record.epoch,
            steps=record.step if record.step is not None else self.steps,
            loss=record.loss,
            accuracy=record.accuracy,
            seconds=record.seconds if record.seconds is not None else self.seconds,
            history=(*self.history, replace(record, snapshot=None)),
        )

    def evaluated(
        self, exact_match: float, holdout_exact_match: float | None, scores: ScoreTable, scored: int, of: int
    ) -> TrainingSummary:
        """The summary with a trained model's evaluation: exact match of each part, the score table, and, when the
        training pairs scored were a sample (scored < of), how many of how many."""
        sampled = TrainScored(scored, of) if scored < of else None
        return replace(
            self, exact_match=exact_match, holdout_exact_match=holdout_exact_match, scores=scores, train_scored=sampled
        )

    @property
    def sampled(self) -> tuple[int, int] | None:
        """(scored, of) when the training figures are those of a sample of the training pairs, else None: the page and
        the command line say so from this."""
        made = self.train_scored
        return (made.scored, made.of) if made is not None and made.scored < made.of else None


def recorded_settings(config: TrainConfig) -> TrainConfig:
    """The settings a summary records: where the training ran (device, threads) is not among them."""
    return replace(config, device=None, threads=None)
