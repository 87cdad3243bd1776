"""Alignment forming during training (issue 30 §7): the gold pairs a training measures, the best head's AER recorded
per epoch (without changing what is trained), kept by a checkpoint, and the trend read from a history."""

from __future__ import annotations

import pytest
import torch

from tests.conftest import PAIRS20, TINY
from transformer import TrainConfig, Translator, corpus, train
from transformer.alignment import (
    aer_table,
    alignment_trend,
    best_head_aer,
    corpus_gold,
    gold_batch,
    gold_sample,
    head_aers,
)
from transformer.bpe import learn_bpe
from transformer.checkpoint import load_checkpoint, save_checkpoint, summary_to_dict
from transformer.summary import EpochRecord, TrainingSummary
from transformer.words import same_words

CORPUS12 = [(p.source, p.target) for p in corpus.generate(12, corpus.DEFAULT_SEED)]


def test_the_gold_sample_is_spread_over_the_pairs_that_carry_gold_and_empty_without_gold():
    mixed = [PAIRS20[0], *CORPUS12, PAIRS20[1]]
    sample = gold_sample(mixed, n=4)
    golds = corpus_gold(CORPUS12)
    with_gold = [(p, g) for p, g in zip(CORPUS12, golds) if g is not None]
    assert len(with_gold) >= 8
    assert sample == [with_gold[round(k * (len(with_gold) - 1) / 3)] for k in range(4)]  # first and last included
    assert gold_sample(mixed) == with_gold  # fewer than ALIGN_PAIRS: every one
    assert gold_sample([("a b", "x y"), ("我 们", "x y")]) == []  # pairs outside the grammar have no gold
    assert gold_sample(CORPUS12, "char") == with_gold  # links of words, whatever tokens the model reads


def _tiny(pairs):
    return Translator.create(pairs, seed=0, **TINY, dropout=0.1)  # dropout draws random masks in training


def test_training_records_the_best_heads_aer_each_epoch_without_changing_what_it_trains():
    pairs = CORPUS12[:8]
    sample = gold_sample(pairs, n=4)
    cfg = TrainConfig(epochs=2, batch_size=4, threads=1)
    measured, plain = _tiny(pairs), _tiny(pairs)
    with torch.random.fork_rng(devices=[]):
        records = list(train(measured, pairs, cfg, gold=sample))
    list(train(plain, pairs, cfg))
    for a, b in zip(measured.model.parameters(), plain.model.parameters()):
        assert torch.equal(a, b)  # measured in eval mode: no dropout mask or other randomness drawn
    assert all(r.aer is not None and 0 <= r.aer <= 1 for r in records)
    last = records[-1]
    assert 0 <= last.aer_layer < TINY["n_layers"] and 0 <= last.aer_head < TINY["n_heads"]
    # every head's AER, scored at once on the batch, is the Attention page's table's for that head (the one linking
    # rule, the same sums); the recorded figure is the lowest of them after the same epoch
    heads = [s for s in aer_table(measured, *zip(*sample)) if s.method.name == "attention"]
    at_once = head_aers(measured.model, gold_batch(measured, sample))  # (layers, heads)
    assert [float(at_once[s.method.layer, s.method.head]) for s in heads] == pytest.approx([s.score.aer for s in heads])
    best = min(heads, key=lambda s: s.score.aer)
    assert (last.aer, last.aer_layer, last.aer_head) == (best.score.aer, best.method.layer, best.method.head)
    assert best_head_aer(measured, gold_batch(measured, sample))[0] == last.aer
    kept = load_checkpoint(save_checkpoint(measured)).summary.history  # a checkpoint keeps the curve
    assert [(h.aer, h.aer_layer, h.aer_head) for h in kept] == [(r.aer, r.aer_layer, r.aer_head) for r in records]
    unmeasured = TrainingSummary(history=(EpochRecord(1, 1.0, 0.5, 0.1),))
    assert "aer" not in summary_to_dict(unmeasured)["history"][0]  # no gold: no field


def test_a_bpe_model_records_the_aer_of_words_that_the_aer_table_gives():
    pairs = CORPUS12[:8]
    bpe = learn_bpe(pairs, 40)
    assert not same_words(bpe, pairs)  # pieces, not words: the gold of words is read through them
    sample = gold_sample(pairs, bpe, n=6)
    assert len(sample) == len(gold_sample(pairs, n=6)) > 0
    translator = Translator.create(pairs, bpe, seed=0, **TINY)
    records = list(train(translator, pairs, TrainConfig(epochs=2, batch_size=4, threads=1), gold=sample))
    assert all(r.aer is not None for r in records)
    heads = [s for s in aer_table(translator, *zip(*sample)) if s.method.name == "attention"]
    at_once = head_aers(translator.model, gold_batch(translator, sample))  # (layers, heads)
    assert [float(at_once[s.method.layer, s.method.head]) for s in heads] == pytest.approx([s.score.aer for s in heads])
    assert records[-1].aer == pytest.approx(min(s.score.aer for s in heads))


def _history(*aers):
    return [EpochRecord(e, 1.0, 0.5, None, aer=a, aer_layer=1, aer_head=e % 2) for e, a in enumerate(aers, 1)]


@pytest.mark.parametrize(
    "history, change, lowest",
    [
        (_history(0.8, 0.5, 0.3), "better", (3, 0.3)),  # fell
        (_history(0.3, 0.2, 0.6), "worse", (2, 0.2)),  # rose at the end, its lowest earlier
        (_history(0.5, 0.502, 0.498), "same", (3, 0.498)),  # within compare's tolerance: stayed
    ],
)
def test_the_trend_says_what_the_recorded_figures_did(history, change, lowest):
    trend = alignment_trend(history)
    assert trend.change == change and (trend.lowest_epoch, trend.lowest_aer) == lowest
    assert (trend.first_epoch, trend.last_epoch, trend.layer, trend.head) == (1, 3, 1, 1)


def test_a_history_without_aer_has_no_trend():
    assert alignment_trend([EpochRecord(1, 2.0, 0.5, None)]) is None
    assert alignment_trend([]) is None
