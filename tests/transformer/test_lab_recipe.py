"""The Lab's experiments on the training recipe (label smoothing, warmup), the baseline's stopping test, and the
measures on which a variant scores higher, which a verdict must name."""

import math

import pytest
import torch

from tests.conftest import PAIRS20
from transformer import TrainConfig, Translator, corpus, train
from transformer.config import MAX_EPOCHS
from transformer.lab import (
    EXPERIMENTS,
    STANDARD_SIZES,
    WARMUP_PEAK,
    WARMUP_STEPS,
    Experiment,
    Side,
    Until,
    baseline_verdict,
    evidence,
    higher_measures,
    mean_top_probability,
    run,
    training_of,
)
from transformer.scores import ALL, Scores, ScoreTable
from transformer.summary import EpochRecord
from transformer.translator import Evaluation

TINY = dict(d_model=16, n_heads=2, d_ff=32, n_layers=1)


def _table(exact, correct, bleu, chrf, part="train") -> ScoreTable:
    cell = Scores(pairs=10, exact=exact, correct=correct, tokens=50, bleu=bleu, chrf=chrf)
    return ScoreTable((ALL,), (part,), {(ALL, part): cell})


def test_higher_measures_names_each_measure_the_variant_wins():
    baseline, variant = _table(9, 48, 74.8, 94.4), _table(7, 40, 79.6, 88.9)  # the no-PE run
    assert higher_measures(baseline, variant) == [("bleu", "train", 74.8, 79.6)]
    assert higher_measures(baseline, _table(9, 48, 74.8, 94.4)) == []  # equal is not higher
    assert higher_measures(baseline, _table(9, 48, 74.84, 94.4)) == []  # nor a difference the table does not show
    assert higher_measures(baseline, _table(2, 10, 20.0, 30.0)) == []
    both = higher_measures(_table(5, 30, 50.0, 60.0), _table(6, 31, 51.0, 61.0))
    assert [m for m, *_ in both] == ["exact_match", "token_accuracy", "bleu", "chrf"]


def _side(losses, exact, lrs=None, translator=None, pairs=()) -> Side:
    history = [
        EpochRecord(e, loss, 0.5, None, step=10 * e, lr=lrs[e - 1] if lrs else None)
        for e, loss in enumerate(losses, start=1)
    ]
    evaluation = Evaluation(losses[-1], 1.0, round(10 * exact), 10, [])
    return Side(translator, history, {"train": evaluation}, [], list(pairs))


def test_the_baseline_verdict_is_the_recipes_stopping_test():
    learned = _side([4.0, 1.0, 0.3, 0.1, 0.05, 0.04, 0.03, 0.03, 0.03, 0.03], 1.0)
    assert not baseline_verdict(learned).under_trained
    assert baseline_verdict(_side([4.0, 1.0, 0.3, 0.1, 0.05, 0.04, 0.03, 0.03, 0.03, 0.03], 0.8)).under_trained
    still_falling = _side([4.0, 3.0, 2.0, 1.5, 1.2, 1.0, 0.8, 0.6, 0.4, 0.3], 1.0)
    assert baseline_verdict(still_falling).falling


def test_no_warmup_holds_when_the_constant_rate_stalls_and_not_when_it_learns():
    lrs = [WARMUP_PEAK] * 10
    warm = _side([4.4, 2.5, 1.3, 1.0, 0.7, 0.5, 0.3, 0.27, 0.26, 0.25], 1.0, lrs)
    stalled = _side([4.5, 4.1, 4.07, 4.08, 4.05, 4.03, 3.98, 3.95, 3.94, 3.93], 0.0, lrs)
    held, facts = evidence("no_warmup", warm, stalled)
    assert held and facts["lr"] == pytest.approx(WARMUP_PEAK) and facts["v_loss"] == 3.93
    learned_too = _side([4.5, 2.0, 1.0, 0.6, 0.4, 0.3, 0.28, 0.26, 0.25, 0.25], 1.0, lrs)
    held, facts = evidence("no_warmup", warm, learned_too)
    assert not held and facts["cause"] == "seed"


@pytest.mark.slow
def test_without_warmup_the_peak_rate_stalls_where_warmup_learns():
    """The learning rate the no_warmup experiment uses: on 24 corpus pairs (one batch a step, 60 steps) with the
    standard model, the constant WARMUP_PEAK does not learn them (loss 0.43 on the corrected corpus of issue 30; 3.4,
    near where it started, on the former one; it stalls there on some draws, seeds 3 and 4) where the same rate
    reached by warming up learns every token (loss 0.0005)."""
    pairs = [(p.source, p.target) for p in corpus.generate(24, corpus.DEFAULT_SEED)]
    experiment = EXPERIMENTS["no_warmup"]
    base = TrainConfig(epochs=60, batch_size=24, lr=2e-3, threads=1)
    losses = []
    for cfg in experiment.configs(base):
        translator = Translator.create(pairs, seed=0, **STANDARD_SIZES)
        losses.append(list(train(translator, pairs, cfg))[-1].loss)
    warm, constant = losses
    assert experiment.configs(base)[0].warmup == WARMUP_STEPS and experiment.configs(base)[1].warmup is None
    assert warm < 0.01 and (math.isnan(constant) or constant > 0.1), (warm, constant)


def test_mean_top_probability_is_the_mean_largest_next_token_probability():
    pairs = PAIRS20[:4]
    translator = Translator.create(pairs, seed=0, **TINY)
    batch = translator.make_batch(pairs)
    translator.model.eval()
    with torch.no_grad():
        probs = translator.model(batch.enc_inputs, batch.dec_inputs)[0].softmax(-1)  # (B, Lt, V)
    real = batch.dec_outputs.ne(0)
    assert mean_top_probability(translator, pairs) == pytest.approx(float(probs.amax(-1)[real].mean()), rel=1e-5)


def test_label_smoothing_makes_the_model_less_confident_and_the_claim_says_so():
    pairs = PAIRS20[:4]
    sides = []
    for cfg in EXPERIMENTS["label_smoothing"].configs(TrainConfig(epochs=40, batch_size=4, lr=1e-2, threads=1)):
        translator = Translator.create(pairs, seed=0, **TINY)
        records = list(train(translator, pairs, cfg))
        sides.append(Side(translator, records, {"train": translator.evaluate(pairs)}, [], pairs))
    held, facts = evidence("label_smoothing", *sides)
    assert facts["v_conf"] < facts["b_conf"]
    assert held is (facts["v_exact"] >= facts["b_exact"] - 0.05)
    # as accurate but not less confident: the claim does not hold
    held, facts = evidence("label_smoothing", sides[1], sides[0])
    assert not held


def test_the_lab_tests_its_baseline_after_the_experiments_epochs_then_every_third_of_them_at_most_three_times():
    until = Until.of(30)
    assert until == Until(30, 10, 90)
    assert [e for e in range(1, 200) if until.due(e)] == [30, 40, 50, 60, 70, 80, 90]
    assert [until.goal(e) for e in (0, 12, 30, 31, 40, 85)] == [30, 30, 30, 40, 40, 90]  # what progress counts to
    assert Until.of(MAX_EPOCHS).last == MAX_EPOCHS and Until.of(2) == Until(2, 1, 6)


def test_an_experiment_trains_until_its_baseline_has_learned_and_the_variant_as_many_epochs():
    pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "hello .")]
    experiment = Experiment("tiny", {"scale": False}, dict(d_model=8, n_heads=2, d_ff=16, n_layers=1))
    until = Until(8, 8, 40)
    baseline, variant, _ = run(pairs, experiment, TrainConfig(lr=0.03, threads=1), snapshot_every=0, until=until)
    assert len(baseline.history) == len(variant.history) == 24  # not learned at the tests after 8 and 16 epochs
    assert [s.translator.summary.train_config.epochs for s in (baseline, variant)] == [24, 24]  # as trained
    assert training_of(baseline, until).code == "learned_later"
    slow = TrainConfig(lr=1e-4, threads=1)  # never learns: trains the most, and says so
    baseline, variant, _ = run(pairs, experiment, slow, snapshot_every=0, until=Until(2, 2, 6))
    assert len(baseline.history) == len(variant.history) == 6
    found = training_of(baseline, Until(2, 2, 6))
    assert (found.code, found.epochs, found.right, found.total) == ("unlearned_exact", 6, 0, 2)


def test_how_long_the_baseline_trained_is_said_from_its_own_figures():
    flat = [4.0, 1.0, 0.3, 0.1, 0.05, 0.04, 0.03, 0.03, 0.03, 0.03]
    until = Until(10, 5, 30)
    assert training_of(_side(flat, 1.0), until).code == "learned"
    assert training_of(_side(flat + [0.03] * 5, 1.0), until).code == "learned_later"
    assert training_of(_side(flat * 3, 0.8), until).code == "unlearned_exact"  # 8 of 10 exact after the most epochs
    falling = _side([4.0, 3.0, 2.0, 1.5, 1.2, 1.0, 0.8, 0.6, 0.4, 0.3], 1.0)
    found = training_of(falling, Until(10, 5, 10))
    assert found.code == "unlearned_falling" and found.fall == pytest.approx(0.25)  # 0.4 → 0.3 over the last tenth
    assert training_of(_side(flat[:6], 0.5), until, stopped=True).code == "stopped"
    assert training_of(_side(flat[:6], 1.0), until, stopped=True).code == "learned"  # stopped, yet learned
    assert training_of(_side(flat, 0.8), None).code == "unlearned_exact"  # a result without the rule: as it trained
