"""The Lab's experiments in the package: what is held out, which sentences are reorderings of each other, the
measurements, and the two headline experiments on the bundled data with a fixed seed (issue 11.3, 11.5)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.conftest import PAIRS20
from transformer import TrainConfig, Translator, corpus, train
from transformer.checkpoint import load_checkpoint
from transformer.config import SWITCHES
from transformer.data import tokenize
from transformer.lab import (
    EXPERIMENTS,
    MIN_PAIRS,
    MIN_REORDERED,
    STANDARD_SIZES,
    DataCheck,
    Side,
    accuracy_beyond,
    check_data,
    combination_rows,
    epochs_to_loss,
    evidence,
    held_rows,
    longest_rows,
    peak_attention,
    prepare,
)
from transformer.model import AttentionMaps
from transformer.splits import reordered_groups, split_pairs
from transformer.summary import EpochRecord
from transformer.translator import Evaluation

REPO = Path(__file__).resolve().parents[2]


def test_longest_rows_hold_out_targets_longer_than_every_kept_one(bundled_pairs):
    rows = longest_rows(bundled_pairs)
    assert rows == longest_rows(bundled_pairs)  # deterministic
    assert 0.15 * len(bundled_pairs) <= len(rows) < len(bundled_pairs) / 2
    held = {len(tokenize(bundled_pairs[i][1])) for i in rows}
    kept = {len(tokenize(t)) for i, (_, t) in enumerate(bundled_pairs) if i not in rows}
    assert min(held) > max(kept)
    assert longest_rows([("a", "x y"), ("b", "y z")]) == []  # one length: nothing is longer


def test_peak_attention_is_one_for_one_hot_maps_and_one_over_n_for_even_ones():
    one_hot = torch.eye(4).expand(1, 2, 4, 4)  # (B, H, Lq, Lk)
    even = torch.full((1, 2, 3, 4), 0.25)
    assert peak_attention(AttentionMaps([one_hot], [one_hot], [one_hot])) == pytest.approx(1.0)
    assert peak_attention(AttentionMaps([even], [even], [even])) == pytest.approx(0.25)
    mixed = AttentionMaps([one_hot], [], [even])  # every query counts once
    assert peak_attention(mixed) == pytest.approx((8 * 1.0 + 6 * 0.25) / 14)


def test_epochs_to_loss_finds_the_first_epoch_below_the_threshold():
    history = [EpochRecord(e, loss, 0.5, None) for e, loss in enumerate([3.0, 1.0, 0.4, 0.6, 0.1], start=1)]
    assert epochs_to_loss(history) == 3
    assert epochs_to_loss(history, 0.05) is None


def test_both_models_of_an_experiment_start_alike_and_differ_only_in_the_switches():
    baseline, variant, train_pairs, held = prepare(
        PAIRS20, {"scale": False}, STANDARD_SIZES, seed=3, holdout_rows=[0, 5]
    )
    assert held == [PAIRS20[0], PAIRS20[5]] and len(train_pairs) == 18
    assert variant.config.variant == {"scale": False} and baseline.config.variant == {}
    for (name, a), (_, b) in zip(baseline.model.state_dict().items(), variant.model.state_dict().items()):
        assert torch.equal(a, b), name  # the same initial weights: only the switch differs
    assert "园" not in baseline.src_vocab.stoi  # the vocabulary is the training pairs' only (公园 is held out)


def test_accuracy_beyond_counts_only_the_later_positions(trained_seed):
    pairs = [("我 喜 欢 你", "I love you .")]  # targets: I love you . E
    accuracy, counted = accuracy_beyond(trained_seed, pairs, 2)
    assert counted == 3 and accuracy == 1.0
    assert accuracy_beyond(trained_seed, pairs, 9) == (pytest.approx(float("nan"), nan_ok=True), 0)


def _bundled_side(pairs) -> Side:
    """The bundled checkpoint as a baseline: the standard model with the default sizes (trained on the corpus and the
    bundled pairs, it translates every bundled pair exactly)."""
    translator = load_checkpoint(REPO / "assets" / "model.safetensors")
    return Side(translator, translator.summary.history, {"train": translator.evaluate(pairs)}, [], pairs)


def _variant_side(pairs, **switches) -> Side:
    translator = Translator.create(pairs, seed=0, **STANDARD_SIZES, **switches)
    records = list(train(translator, pairs, TrainConfig(seed=0)))
    return Side(translator, records, {"train": translator.evaluate(pairs)}, [], pairs)


@pytest.mark.slow
def test_without_the_look_ahead_mask_training_looks_perfect_and_greedy_decoding_fails(bundled_pairs):
    variant = _variant_side(bundled_pairs, look_ahead_mask=False)
    held, facts = evidence("no_look_ahead", _bundled_side(bundled_pairs), variant)
    assert facts["v_acc"] >= 0.9 and facts["v_exact"] <= 0.3
    assert facts["b_acc"] == 1.0 and facts["b_exact"] == 1.0
    assert held


@pytest.mark.slow
def test_without_positions_a_reordered_sentence_translates_identically(bundled_pairs):
    variant = _variant_side(bundled_pairs, pe="none")
    held, facts = evidence("no_pe", _bundled_side(bundled_pairs), variant)
    groups = reordered_groups(bundled_pairs)
    assert facts["groups"] == len(groups) >= 1 and facts["pairs"] == sum(map(len, groups))
    assert [r[1:3] for r in facts["rows"]] == [bundled_pairs[i] for g in groups for i in g]  # exactly those pairs
    row = next(r for r in facts["rows"] if r[1] == "我爱你")
    assert row[3:5] == ("I love you .", True)  # the baseline reads the order
    for k in range(1, facts["groups"] + 1):  # the variant cannot: one translation per group
        assert len({r[5] for r in facts["rows"] if r[0] == k}) == 1
    assert facts["same"] == facts["groups"] and facts["v_right"] < facts["b_right"]
    assert (
        facts["b_right"] == sum(r[4] for r in facts["rows"]) and facts["v_exact"] == facts["v_right"] / facts["pairs"]
    )
    assert held and "cause" not in facts


def test_no_pe_does_not_hold_when_the_variant_tells_the_orders_apart_or_the_data_has_no_such_pairs(bundled_pairs):
    baseline = _bundled_side(bundled_pairs)
    held, facts = evidence("no_pe", baseline, baseline)  # a "variant" that reads word order
    assert not held and facts["same"] < facts["groups"] < MIN_REORDERED and facts["cause"] == "data"
    plain = [("我 睡 觉", "I sleep ."), ("你 跑", "You run ."), ("他 吃 饭", "He eats .")]
    side = _variant_side(plain, pe="none")
    held, facts = evidence("no_pe", side, side)
    assert not held and facts["groups"] == 0 and facts["cause"] == "data"


def test_each_experiment_says_what_data_can_show_its_effect_and_the_corpus_can(bundled_pairs):
    assert check_data(EXPERIMENTS["no_pe"], PAIRS20) == DataCheck(False, "no_reordered", {"n": 0, "min": MIN_REORDERED})
    assert check_data(EXPERIMENTS["no_look_ahead"], bundled_pairs) == DataCheck(
        False, "too_few", {"n": len(bundled_pairs), "min": MIN_PAIRS}
    )
    assert check_data(EXPERIMENTS["learned_pe"], [("a", "x y"), ("b", "y z")]) == DataCheck(False, "one_length")
    assert check_data(EXPERIMENTS["no_scale"], PAIRS20[:2]).ok  # any pairs can show it
    for experiment in EXPERIMENTS.values():
        pairs = experiment.corpus_pairs()
        assert check_data(experiment, pairs).ok, experiment.name
        assert len(pairs) == experiment.corpus_size and pairs[0] == corpus.TUTORIAL_PAIR
        cfg = experiment.corpus_config(seed=3)
        assert (cfg.lr, cfg.batch_size, cfg.seed) == (corpus.TRAIN_CONFIG.lr, corpus.TRAIN_CONFIG.batch_size, 3)
    assert len(reordered_groups(EXPERIMENTS["no_pe"].corpus_pairs())) >= 100


@pytest.mark.parametrize(
    "v_acc, v_exact, held, cause",
    [(1.0, 0.1, True, None), (0.95, 1.0, False, "memorised"), (0.5, 0.0, False, "epochs")],
)
def test_no_look_ahead_holds_and_says_why_not_from_the_figures(v_acc, v_exact, held, cause):
    def side(acc, exact):
        return Side(None, [], {"train": Evaluation(0.1, acc, round(exact * 10), 10, [])}, [], [])

    found, facts = evidence("no_look_ahead", side(1.0, 1.0), side(v_acc, v_exact))
    assert found is held and facts.get("cause") == cause


def _side(losses, exact, snapshots=()) -> Side:
    history = [EpochRecord(e, loss, 0.5, None) for e, loss in enumerate(losses, start=1)]
    return Side(None, history, {"train": Evaluation(losses[-1], 1.0, exact, 10, [])}, list(snapshots), [])


@pytest.mark.parametrize(
    "name, baseline, variant, held",
    [
        ("no_residual_norm", _side([4, 1, 0.01], 10), _side([4, 3.7, 3.6], 0), True),
        ("no_residual_norm", _side([4, 1, 0.01], 10), _side([4, 1, 0.02], 10), False),
        ("no_residual_norm", _side([4.3, 2, 0.56], 7), _side([4.3, 4.1, 3.98], 0), True),  # stalled near its start
        ("no_residual_norm", _side([4.3, 2, 0.56], 7), _side([4.3, 2.5, 1.0], 5), False),
        ("pre_norm", _side([4, 1, 0.3], 10), _side([4, 0.4, 0.1], 10), True),
        ("pre_norm", _side([4, 0.4, 0.1], 10), _side([4, 1, 0.3], 10), False),
    ],
)
def test_a_claim_holds_only_when_this_runs_figures_say_so(name, baseline, variant, held):
    assert evidence(name, baseline, variant)[0] is held


def test_every_ready_made_experiment_changes_a_switch_and_says_what_it_holds_out():
    for experiment in EXPERIMENTS.values():
        assert experiment.changes and experiment.holdout in ("none", "longest", "combination")
        translator = Translator.create(PAIRS20, **{**STANDARD_SIZES, **experiment.sizes}, **experiment.switches)
        assert translator.config.variant == {k: v for k, v in experiment.switches.items() if k in SWITCHES}
        assert all(getattr(translator.config, k) == v for k, v in experiment.switches.items())  # dropout: not a switch


def _combination_side(exact: int, held_exact: int) -> Side:
    """A side that translated exact of 10 trained pairs and held_exact of 20 held-out new combinations."""
    history = [EpochRecord(e, loss, 0.5, None) for e, loss in enumerate([4, 1, *[0.01] * 18], start=1)]  # learned
    evaluations = {"train": Evaluation(0.1, 1.0, exact, 10, []), "holdout": Evaluation(0.5, 0.9, held_exact, 20, [])}
    return Side(None, history, evaluations, [], [])


@pytest.mark.parametrize(
    "baseline, variant, held, cause",
    [
        (_combination_side(10, 12), _combination_side(10, 16), True, None),
        (_combination_side(10, 12), _combination_side(10, 12), False, "seed"),  # as many new combinations: not more
        (_combination_side(10, 16), _combination_side(10, 12), False, "seed"),  # fewer
        (_combination_side(10, 12), _combination_side(9, 16), False, "epochs"),  # more, but trained pairs lost
    ],
)
def test_dropout_holds_only_when_the_variant_translates_more_new_combinations_and_keeps_the_trained(
    baseline, variant, held, cause
):
    found, facts = evidence("dropout", baseline, variant)
    assert found is held and facts.get("cause") == cause
    assert (facts["n_held"], facts["b_right"], facts["v_right"]) == (
        20,
        *(s.evaluations["holdout"].exact for s in (baseline, variant)),
    )
    assert facts["v_held_exact"] == variant.evaluations["holdout"].exact / 20


def test_dropout_holds_out_new_combinations_and_says_when_the_data_has_none():
    experiment = EXPERIMENTS["dropout"]
    pairs = experiment.corpus_pairs()
    rows = held_rows(experiment, pairs, seed=0)
    assert rows == combination_rows(pairs, seed=0) == split_pairs(pairs, "combination", 0.1, 0).held
    assert abs(len(rows) / len(pairs) - 0.1) <= 0.02 and rows != combination_rows(pairs, seed=1)
    assert check_data(experiment, [("a", "x"), ("b", "y")]) == DataCheck(False, "no_combination")
    side = _combination_side(10, 0)
    side.evaluations.pop("holdout")
    assert evidence("dropout", side, side) == (False, {"b_exact": 1.0, "v_exact": 1.0, "cause": "data"})
