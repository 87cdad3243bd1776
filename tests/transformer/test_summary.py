"""transformer.summary: the training summary as a type. Checkpoints written before it was one (by the code at
c9ab3ed, tests/fixtures/old_summary_*.safetensors, and the bundled model) load with every field typed and equal to
what their JSON says, and save back to the same JSON; a summary that is not an object is refused in words."""

from __future__ import annotations

import copy
import json
import struct
from pathlib import Path

import pytest

from tests.conftest import TINY
from transformer import TrainConfig, corpus
from transformer.checkpoint import load_checkpoint, save_checkpoint, summary_from_dict, summary_to_dict
from transformer.errors import CheckpointError
from transformer.plan import TrainingPlan
from transformer.recipe import under_trained
from transformer.scores import ALL, ScoreTable
from transformer.summary import EpochRecord, SplitRecord, TrainingSummary, TrainScored
from viz.training import learning_rate_figure, loss_accuracy_figure

ROOT = Path(__file__).resolve().parents[2]
FULL = ROOT / "tests" / "fixtures" / "old_summary_full.safetensors"  # every field a summary had at c9ab3ed
OLDEST = ROOT / "tests" / "fixtures" / "old_summary_oldest.safetensors"  # the first summary: no settings, no seconds
BUNDLED = ROOT / "assets" / "model.safetensors"  # the published model a tab starts with


def _raw_summary(path: Path) -> dict:
    """The summary JSON of a checkpoint file as it is written there, read without the loader."""
    data = path.read_bytes()
    (size,) = struct.unpack("<Q", data[:8])
    return json.loads(json.loads(data[8 : 8 + size])["__metadata__"]["summary"])


@pytest.mark.parametrize("path", [FULL, OLDEST, BUNDLED], ids=["full", "oldest", "bundled"])
def test_an_old_checkpoint_loads_without_warnings_and_saves_the_same_summary_json(path, tmp_path):
    warnings: list[str] = []
    summary = load_checkpoint(path, warnings).summary
    assert warnings == []
    raw = _raw_summary(path)
    assert summary_to_dict(summary) == raw
    save_checkpoint(load_checkpoint(path), tmp_path / "again.safetensors")
    assert _raw_summary(tmp_path / "again.safetensors") == raw


def test_every_field_of_an_old_summary_is_typed_as_its_json_says():
    raw, summary = _raw_summary(FULL), load_checkpoint(FULL).summary
    assert (summary.epochs, summary.steps, summary.loss, summary.accuracy, summary.seconds) == (
        raw["epochs"],
        raw["steps"],
        raw["loss"],
        raw["accuracy"],
        raw["seconds"],
    )
    assert (summary.exact_match, summary.holdout_exact_match) == (raw["exact_match"], raw["holdout_exact_match"])
    assert all(isinstance(r, EpochRecord) and r.snapshot is None for r in summary.history)
    assert [{k: v for k, v in vars(r).items() if v is not None} for r in summary.history] == raw["history"]
    last = summary.history[-1]  # the fields the old code wrote for a training with a schedule, held-out pairs, gold
    assert None not in (last.step, last.lr, last.holdout_loss, last.holdout_accuracy, last.aer, last.aer_layer)
    assert summary.train_config == TrainConfig(**raw["train_config"])
    assert summary.train_config.warmup == 20 and summary.train_config.label_smoothing == 0.1
    assert summary.scores == ScoreTable.from_dict(raw["scores"]) and summary.scores.get(ALL, "holdout").pairs > 0
    assert summary.train_scored == TrainScored(10, raw["train_scored"]["of"]) and summary.sampled == (10, 43)
    data = summary.data
    assert data.split == SplitRecord("length", 0.2, 1, tuple(raw["split"]["held_out"])) and data.split.held_out
    assert data.holdout_rows == tuple(raw["holdout_rows"]) and data.set_aside_rows == tuple(raw["set_aside_rows"])
    assert data.set_aside_rows and not set(data.holdout_rows) & set(data.set_aside_rows)
    assert (data.data_sha256, data.always_trained, data.data_credit) == (
        raw["data_sha256"],
        1,
        "CC BY 2.0 FR, tatoeba.org (a fixture)",
    )


def test_the_oldest_summary_loads_with_the_defaults_of_what_it_did_not_record_and_is_drawn():
    summary = load_checkpoint(OLDEST).summary
    assert (summary.epochs, summary.loss, summary.exact_match) == (2, 3.25, 0.0)
    assert summary.history == (EpochRecord(1, 3.5, 0.125, None), EpochRecord(2, 3.25, 0.25, None))  # no seconds
    assert summary.train_config is None and summary.steps == 0 and summary.scores is None
    assert summary.data.split is None and summary.data.holdout_rows == () and summary.sampled is None
    assert under_trained(summary.history, summary.exact_match).under_trained  # what the Train page says of it
    assert [list(trace.y) for trace in loss_accuracy_figure(summary.history).data] == [[3.5, 3.25], [0.125, 0.25]]
    assert learning_rate_figure(summary.history, lambda step: 1e-3).data == ()  # no steps recorded: no rates


def test_a_training_builds_its_summary_epoch_by_epoch_and_the_checkpoint_keeps_it():
    pairs = [(p.source, p.target) for p in corpus.generate(16, 0)]
    plan = TrainingPlan.from_rows(pairs, [0, 3], "auto", TINY, TrainConfig(epochs=2, seed=1, threads=1))
    translator = plan.build()
    assert translator.summary == TrainingSummary()  # untrained: nothing recorded, and saved as {}
    assert _saved_summary(translator) == {}
    records = list(plan.train(translator, snapshot_every=1))
    summary = translator.summary
    assert summary.history == tuple(r.__class__(**{**vars(r), "snapshot": None}) for r in records)
    assert records[0].snapshot is not None  # the records keep their maps; the summary does not
    assert (summary.epochs, summary.steps, summary.loss) == (2, records[-1].step, records[-1].loss)
    assert summary.train_config == TrainConfig(epochs=2, seed=1)  # where it ran (threads) is not recorded
    plan.finish(translator)
    loaded = load_checkpoint(save_checkpoint(translator)).summary
    assert loaded == translator.summary and loaded.data.holdout_rows == (0, 3)


def _saved_summary(translator) -> dict:
    data = save_checkpoint(translator)
    (size,) = struct.unpack("<Q", data[:8])
    return json.loads(json.loads(data[8 : 8 + size])["__metadata__"]["summary"])


@pytest.mark.parametrize("value", [[1, 2], "abc", None, 3.5])
def test_a_summary_that_is_not_an_object_is_refused_in_words(value):
    with pytest.raises(CheckpointError, match="not a JSON object"):
        summary_from_dict(value, [])


@pytest.mark.parametrize(
    "value",
    [
        {"history": [{"epoch": 1, "loss": 1.0, "accuracy": 0.5, "snapshot": [1]}]},  # maps never cross a checkpoint
        {"history": [{"epoch": 1, "loss": 1.0}]},  # a required figure missing
        {"split": {"kind": "random", "holdout": 0.1, "seed": 0}},
        {"train_scored": {"scored": 1}},
        {"train_config": {"epochs": 1, "device": "cuda"}},
        {"scores": {"train": {"all": {"pairs": 1}}}},
        {"history": [{"epoch": 1, "loss": 1.0, "accuracy": 0.5, "seconds": None}]},
    ],
)
def test_a_malformed_field_is_dropped_with_a_warning_never_a_key_or_type_error(value):
    warnings: list[str] = []
    assert summary_from_dict(copy.deepcopy(value), warnings) == TrainingSummary()
    (name,) = value
    assert len(warnings) == 1 and repr(name) in warnings[0] and "dropped" in warnings[0]


def test_a_summary_records_the_settings_not_where_they_ran():
    loaded = summary_from_dict({"train_config": {"epochs": 3, "threads": 2}}, [])
    assert loaded.train_config == TrainConfig(epochs=3) and loaded.train_config.threads is None
