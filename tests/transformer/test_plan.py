"""transformer.plan: a training planned before it starts, and the one builder of its summary, which the command line
and the app's jobs share."""

from __future__ import annotations

import copy

from jobs.worker import evaluate_run
from tests.conftest import TINY
from transformer import TrainConfig, corpus
from transformer.__main__ import main
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.config import MAX_CHECKPOINT_BYTES
from transformer.plan import TrainingPlan, scored_rows
from transformer.scores import ALL, PHENOMENA
from transformer.splits import pairs_sha256, split_pairs
from transformer.summary import DataRecord, SplitRecord, TrainingSummary, TrainScored

PAIRS = [(p.source, p.target) for p in corpus.generate(24, 0)]  # corpus sentences: the grammar tags them
ALSO = [("我 喜 欢 你", "I love you ."), ("你 好", "hello .")]
CFG = TrainConfig(epochs=3, seed=1)


def _rows(summary: TrainingSummary) -> set[str]:
    return set(summary.scores.rows)


def test_a_plan_trains_the_kept_rows_then_the_also_pairs_and_records_what_it_held_out():
    split = split_pairs(PAIRS, "random", 0.25, seed=1, always_train=ALSO)
    plan = TrainingPlan.from_split(PAIRS, split, 0.25, "auto", TINY, CFG, ALSO)
    assert plan.train_pairs == [PAIRS[i] for i in split.train] + ALSO
    assert plan.held_pairs == [PAIRS[i] for i in split.held] and split.held
    assert plan.data == DataRecord(
        data_sha256=pairs_sha256(PAIRS),  # the rows of holdout_rows are rows of these pairs, without ALSO
        always_trained=len(ALSO),
        holdout_rows=tuple(split.held),
        split=SplitRecord("random", 0.25, 1, ()),
    )
    nothing_held = TrainingPlan.from_split(PAIRS, None, 0.0, "auto", TINY, CFG)
    assert nothing_held.held_pairs == []
    assert nothing_held.data == DataRecord(pairs_sha256(PAIRS), always_trained=0)


def test_a_job_and_the_command_line_write_the_same_summary_of_the_same_training():
    plan = TrainingPlan.from_rows(PAIRS, [0, 5, 9], "auto", TINY, CFG)
    translator = plan.build()
    records = list(plan.train(translator))
    assert len(records) == 3 and records[-1].holdout_loss is not None
    in_job = copy.deepcopy(translator)
    evaluations = plan.finish(translator)
    evaluate_run(in_job, plan.train_pairs, plan.held_pairs, plan.data)  # what jobs.worker runs in the child
    assert in_job.summary == translator.summary
    summary = translator.summary
    assert summary.exact_match == evaluations["train"].exact_match
    assert summary.holdout_exact_match == evaluations["holdout"].exact_match
    assert summary.data.holdout_rows == (0, 5, 9) and set(summary.scores.parts) == {"train", "holdout"}
    tags = {tag for pair_tags in corpus.tags_of(PAIRS) for tag in pair_tags}
    assert tags and _rows(summary) == {ALL, *tags}  # the grammar's phenomena of the pairs


def test_the_command_line_scores_the_grammars_phenomena_not_the_files_column(tmp_path, capsys):
    """A phenomena column that says something else (here, a tag the corpus does not know and a wrong one) does not
    change the table a checkpoint keeps: the same pairs get the same table in the app and on the command line."""
    lines = ["source\ttarget\tphenomena"] + [f"{s}\t{t}\tzebra question" for s, t in PAIRS]
    data = tmp_path / "pairs.tsv"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "m.safetensors"
    sizes = [f"--{k.replace('_', '-')}={v}" for k, v in TINY.items()]
    assert main(["train", "--pairs", str(data), "--out", str(out), "--epochs", "1", *sizes]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"saved {out}"
    summary = load_checkpoint(out).summary
    tags = {tag for pair_tags in corpus.tags_of(PAIRS) for tag in pair_tags}
    assert _rows(summary) == {ALL, *tags} and "zebra" not in _rows(summary) and tags <= set(PHENOMENA)


def test_a_plan_says_before_building_when_its_checkpoint_would_be_too_large():
    small = TrainingPlan.from_rows(PAIRS, [], "auto", TINY, CFG)
    assert small.oversized() is None
    large = TrainingPlan.from_rows(PAIRS, [], "auto", dict(d_model=1024, n_heads=8, d_ff=4096, n_layers=6), CFG)
    parameters, size = large.oversized()
    assert size > MAX_CHECKPOINT_BYTES and parameters > 10_000_000


def test_scored_rows_are_all_rows_up_to_the_sample_and_past_it_a_sample_the_seed_draws_again():
    assert scored_rows(4, seed=1, sample=4) == [0, 1, 2, 3]
    drawn = scored_rows(10, seed=1, sample=4)
    assert len(set(drawn)) == 4 and drawn == sorted(drawn) and set(drawn) <= set(range(10))
    assert scored_rows(10, seed=1, sample=4) == drawn  # reproducible from the training's seed
    assert any(scored_rows(10, seed, 4) != drawn for seed in (2, 3, 4))  # another seed, another sample


def test_past_the_sample_size_the_training_pairs_are_scored_on_a_sample_the_held_out_in_full_and_the_summary_says_so():
    words = ["see", "love", "have", "eat", "drink", "hear", "write", "read"]
    pairs = [(f"我 {c}", f"I {w} .") for c, w in zip("看爱有吃喝听写读", words)]
    short = dict(TINY, n_layers=1, max_len=6)  # an untrained model decodes to max_len: kept short
    plan = TrainingPlan.from_rows(pairs, [0, 5], "auto", short, TrainConfig(epochs=1, seed=1))
    translator = plan.build()  # untrained: what is scored is the point, not the scores
    whole = copy.deepcopy(translator)
    evaluations = plan.finish(translator, sample=3)
    assert evaluations["train"].total == 3 and evaluations["holdout"].total == 2  # 3 of the 6 trained; both held
    assert [r[:2] for r in evaluations["train"].results] == [plan.train_pairs[i] for i in scored_rows(6, 1, 3)]
    summary = translator.summary
    assert summary.train_scored == TrainScored(3, 6) and summary.sampled == (3, 6)
    scores = summary.scores
    assert scores.get(ALL, "train").pairs == 3 and scores.get(ALL, "holdout").pairs == 2
    assert load_checkpoint(save_checkpoint(translator)).summary.train_scored == TrainScored(3, 6)
    plan.finish(whole, sample=6)  # no more pairs than the sample: every one scored, and nothing said
    assert whole.summary.train_scored is None and whole.summary.sampled is None
    assert whole.summary.scores.get(ALL, "train").pairs == 6
