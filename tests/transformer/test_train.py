"""The training loop: records, reproducibility, stopping early, convergence with defaults, snapshots, padding."""

from __future__ import annotations

import copy
import subprocess
import sys
import time

import pytest
import torch
import torch.nn.functional as F

from transformer import AttentionMaps, EpochRecord, TrainConfig, TransformerConfig, Translator, train
from transformer.data import PAD_ID
from transformer.errors import ConfigError
from transformer.train import busy_cores, holdout_split, intra_op_threads, length_batches

TINY = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 2}


def _losses(pairs, seed: int = 0, epochs: int = 4, batch_size: int = 4, **sizes) -> list[float]:
    translator = Translator.create(pairs, seed=seed, **{**TINY, **sizes})
    return [r.loss for r in train(translator, pairs, TrainConfig(epochs=epochs, batch_size=batch_size, seed=seed))]


def test_train_yields_one_record_per_epoch(seed_pairs):
    translator = Translator.create(seed_pairs, **TINY)
    records = list(train(translator, seed_pairs, TrainConfig(epochs=5)))
    assert [type(r) for r in records] == [EpochRecord] * 5
    assert [r.epoch for r in records] == [1, 2, 3, 4, 5]
    assert all(r.loss > 0 and 0.0 <= r.accuracy <= 1.0 for r in records)
    assert all(0 <= a.seconds <= b.seconds for a, b in zip(records, records[1:]))
    assert records[-1].loss < records[0].loss
    assert all(r.snapshot is None for r in records)  # snapshots only when asked
    assert translator.summary.epochs == 5
    assert [h.loss for h in translator.summary.history] == [r.loss for r in records]


def test_same_seed_gives_identical_loss_history(pairs20):
    assert _losses(pairs20, seed=3) == _losses(pairs20, seed=3)


def test_same_seed_with_dropout_gives_identical_loss_history(pairs20):
    assert _losses(pairs20, seed=1, dropout=0.3) == _losses(pairs20, seed=1, dropout=0.3)


def test_different_seeds_give_different_loss_histories(pairs20):
    assert _losses(pairs20, seed=0) != _losses(pairs20, seed=1)


def test_train_seed_alone_changes_the_batch_order(pairs20):
    """Same initial weights, different TrainConfig.seed: the shuffled batches differ, so do the losses."""
    histories = []
    for seed in (0, 1):
        translator = Translator.create(pairs20, seed=0, **TINY)
        histories.append([r.loss for r in train(translator, pairs20, TrainConfig(epochs=3, batch_size=4, seed=seed))])
    assert histories[0] != histories[1]


def test_breaking_out_keeps_the_partly_trained_model(seed_pairs):
    translator = Translator.create(seed_pairs, **TINY)
    initial = copy.deepcopy(translator.model.state_dict())
    for record in train(translator, seed_pairs, TrainConfig(epochs=50)):
        if record.epoch == 3:
            break
    assert translator.summary.epochs == 3
    assert len(translator.summary.history) == 3
    assert translator.summary.loss == record.loss
    changed = [k for k, v in translator.model.state_dict().items() if not torch.equal(v, initial[k])]
    assert len(changed) == len(initial)  # every weight moved


def test_training_again_continues_the_epoch_count(seed_pairs):
    translator = Translator.create(seed_pairs, **TINY)
    list(train(translator, seed_pairs, TrainConfig(epochs=2)))
    records = list(train(translator, seed_pairs, TrainConfig(epochs=3)))
    assert [r.epoch for r in records] == [3, 4, 5]
    assert translator.summary.epochs == 5
    assert len(translator.summary.history) == 5


def test_defaults_learn_the_seed_example(seed_pairs):
    translator = Translator.create(seed_pairs)
    list(train(translator, seed_pairs))
    assert translator.translate("我 喜 欢 你").text == "I love you ."
    assert translator.translate("我喜欢你").tokens == ["I", "love", "you", "."]


def test_defaults_learn_twenty_pairs_exactly(trained20, pairs20):
    translator, records = trained20
    assert len(records) == TrainConfig().epochs
    wrong = [(s, out) for s, _, out, ok in translator.exact_match(pairs20) if not ok]
    assert wrong == []
    assert records[-1].accuracy == 1.0


def test_snapshots_come_every_n_epochs_plus_first_and_last(seed_pairs):
    translator = Translator.create(seed_pairs, **TINY)
    records = list(train(translator, seed_pairs, TrainConfig(epochs=7), snapshot_every=3))
    with_snapshot = [r.epoch for r in records if r.snapshot is not None]
    assert with_snapshot == [1, 3, 6, 7]
    snapshot = records[2].snapshot
    assert isinstance(snapshot, AttentionMaps)
    assert len(snapshot.enc_self_attns) == len(snapshot.dec_enc_attns) == TINY["n_layers"]
    assert snapshot.enc_self_attns[0].shape == (1, 2, 4, 4)  # 我 喜 欢 你
    assert snapshot.dec_self_attns[0].shape == (1, 2, 5, 5)  # S I love you .
    assert snapshot.dec_enc_attns[0].shape == (1, 2, 5, 4)
    assert translator.model.training  # taking a snapshot does not leave the model in eval mode


def test_snapshots_of_chosen_pairs_are_padded_to_the_longest_of_them(pairs20):
    translator = Translator.create(pairs20, **TINY)
    records = list(train(translator, pairs20, TrainConfig(epochs=2), snapshot_every=1, snapshot_pairs=[5, 16]))
    # 他们去公园 → They go to the park . (5 + 7 positions) and 早上好 → Good morning . (3 + 4)
    snapshot = records[-1].snapshot  # taken after the last epoch: the model as it is now
    assert snapshot.enc_self_attns[0].shape == (2, 2, 5, 5)
    assert snapshot.dec_self_attns[0].shape == (2, 2, 7, 7)
    batch = translator.make_batch([pairs20[16]])
    alone = translator.attention_maps(batch.enc_inputs, batch.dec_inputs)
    # the shorter pair's maps, cut to its own length, are the maps it has alone (its padding is masked)
    assert torch.allclose(snapshot.dec_enc_attns[1][1, :, :4, :3], alone.dec_enc_attns[1][0], atol=1e-6)


def test_held_out_pairs_are_never_trained_on_and_reported_every_epoch(pairs20):
    kept, held = holdout_split(len(pairs20), fraction=0.25, seed=7)
    assert (kept, held) == holdout_split(len(pairs20), fraction=0.25, seed=7)  # deterministic for a seed
    assert len(held) == 5 and sorted(kept + held) == list(range(20)) and not set(kept) & set(held)
    assert holdout_split(len(pairs20), fraction=0.25, seed=8) != (kept, held)
    train_pairs, held_pairs = [pairs20[i] for i in kept], [pairs20[i] for i in held]
    translator = Translator.create(train_pairs, **TINY)
    seen = []
    original = translator.model.forward

    def spy(enc_inputs, dec_inputs, *args, **kwargs):
        if translator.model.training:
            seen.extend(map(tuple, enc_inputs.tolist()))
        return original(enc_inputs, dec_inputs, *args, **kwargs)

    translator.model.forward = spy
    records = list(train(translator, train_pairs, TrainConfig(epochs=3), holdout=held_pairs))
    held_rows = {tuple(r) for r in translator.make_batch(held_pairs).enc_inputs.tolist()}
    trained_rows = {tuple(r) for r in translator.make_batch(train_pairs).enc_inputs.tolist()}
    assert set(seen) == trained_rows and not set(seen) & held_rows  # only training pairs ever reach a training step
    assert all(r.holdout_loss is not None and 0 <= r.holdout_accuracy <= 1 for r in records)
    assert translator.summary.history[-1].holdout_loss == records[-1].holdout_loss
    evaluation = translator.evaluate(held_pairs)
    assert evaluation.loss == pytest.approx(records[-1].holdout_loss)
    assert evaluation.token_accuracy == pytest.approx(records[-1].holdout_accuracy)
    assert evaluation.total == 5


def test_chosen_held_out_rows_and_impossible_splits():
    assert holdout_split(5, rows=[4, 1]) == ([0, 2, 3], [1, 4])
    with pytest.raises(ConfigError, match="between 1 and 5"):
        holdout_split(5, rows=[5])
    with pytest.raises(ConfigError, match="leaves nothing to train on"):
        holdout_split(1, fraction=0.6)
    assert holdout_split(3) == ([0, 1, 2], [])


def test_reported_time_is_time_spent_training(seed_pairs):
    translator = Translator.create(seed_pairs, **TINY)
    epochs = train(translator, seed_pairs, TrainConfig(epochs=3))
    first = next(epochs)
    time.sleep(0.3)  # the caller is away (another page, a queue): this is not training time
    rest = list(epochs)
    assert rest[-1].seconds - first.seconds < 0.25
    assert translator.summary.seconds == rest[-1].seconds


def test_small_models_train_on_one_thread_and_large_ones_on_the_free_cores():
    small = TransformerConfig(30, 30)  # the app's default sizes
    large = TransformerConfig(30, 30, d_model=256, d_ff=1024, n_heads=8, n_layers=6)
    assert intra_op_threads(small, batch_tokens=16 * 12, cores=2, busy=0.0) == 1
    assert intra_op_threads(large, batch_tokens=64 * 12, cores=2, busy=0.0) == 2
    assert intra_op_threads(large, batch_tokens=64 * 12, cores=2, busy=0.2) == 2  # a browser redrawing a chart
    assert intra_op_threads(large, batch_tokens=64 * 12, cores=2, busy=1.0) == 1  # another core is taken
    assert intra_op_threads(large, batch_tokens=64 * 12, cores=1, busy=0.0) == 1


def test_a_busy_core_is_seen():
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.2)
        assert busy_cores(0.3) >= 0.8  # other work on the machine only adds to it
    finally:
        hog.kill()
        hog.wait()


def test_loss_and_accuracy_ignore_padding():
    """Epoch 1's loss is the mean cross-entropy over the real target tokens only, whatever the padding."""
    pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "hi"), ("我", "I love cats very much .")]
    translator = Translator.create(pairs, **TINY)
    initial = copy.deepcopy(translator.model)
    batch = translator.make_batch(pairs)
    assert batch.dec_outputs.eq(PAD_ID).any()  # the batch does contain padding

    record = next(train(translator, pairs, TrainConfig(epochs=1, batch_size=16)))

    initial.train()  # dropout is 0, so train mode is deterministic
    with torch.no_grad():
        logits, _ = initial(batch.enc_inputs, batch.dec_inputs)
    real = batch.dec_outputs.ne(PAD_ID)
    expected_loss = F.cross_entropy(logits[real], batch.dec_outputs[real]).item()
    expected_accuracy = logits[real].argmax(-1).eq(batch.dec_outputs[real]).float().mean().item()
    assert record.loss == pytest.approx(expected_loss, rel=1e-5)
    assert record.accuracy == pytest.approx(expected_accuracy)
    counting_padding = F.cross_entropy(logits.flatten(0, 1), batch.dec_outputs.flatten()).item()
    assert record.loss != pytest.approx(counting_padding, rel=1e-3)  # the check above can tell the difference


# ---------------------------------------------------------------- batches grouped by length


def _varied_pairs(n: int = 60) -> list[tuple[str, str]]:
    """n distinct pairs of 1 to 12 tokens a side, lengths mixed in row order."""
    return [("我" * (1 + i % 12) + str(i), " ".join(["w"] * (1 + (7 * i) % 12)) + f" {i}") for i in range(n)]


def _lengths(pairs):
    translator = Translator.create(pairs, **TINY)
    return translator, *(t.ne(PAD_ID).sum(1) for t in translator.make_batch(pairs)[:2])


def test_length_batches_are_the_same_for_a_seed_and_new_every_epoch():
    _, src, tgt = _lengths(_varied_pairs())

    def epochs(seed):
        generator = torch.Generator().manual_seed(seed)
        return [[b.tolist() for b in length_batches(src, tgt, 8, generator)] for _ in range(3)]

    first = epochs(0)
    assert first == epochs(0)  # deterministic for a seed
    assert first[0] != first[1] != first[2]  # each epoch draws its batches anew
    assert first != epochs(1)
    for batches in first:
        assert sorted(i for b in batches for i in b) == list(range(60))  # every pair once per epoch
        assert all(len(b) <= 8 for b in batches)


def test_length_batches_pad_far_less_than_random_batches_padded_to_the_longest_sentence():
    _, src, tgt = _lengths(_varied_pairs(120))
    generator = torch.Generator().manual_seed(0)
    before = len(src) * (int(src.max()) + int(tgt.max())) - int(
        src.sum() + tgt.sum()
    )  # every row padded to the longest
    after = sum(
        len(b) * (int(src[b].max()) + int(tgt[b].max())) - int(src[b].sum() + tgt[b].sum())
        for b in length_batches(src, tgt, 8, generator)
    )
    assert after < before / 4


def test_every_pair_is_trained_once_per_epoch_in_batches_padded_to_their_own_longest_sentence():
    pairs = _varied_pairs()
    translator, src, _ = _lengths(pairs)
    seen: list[list[tuple]] = [[]]  # the sources of the training steps, epoch by epoch
    original = translator.model.forward

    def spy(enc_inputs, dec_inputs, *args, **kwargs):
        if translator.model.training:
            assert enc_inputs.ne(PAD_ID).any(0).all() and dec_inputs.ne(PAD_ID).any(0).all()  # no column all padding
            seen[-1].extend(tuple(i for i in row if i != PAD_ID) for row in enc_inputs.tolist())
        return original(enc_inputs, dec_inputs, *args, **kwargs)

    translator.model.forward = spy
    for _ in train(translator, pairs, TrainConfig(epochs=3, batch_size=8)):
        seen.append([])
    every = sorted(tuple(r[: int(n)]) for r, n in zip(translator.make_batch(pairs).enc_inputs.tolist(), src))
    assert len(set(every)) == len(pairs)
    assert [sorted(epoch) for epoch in seen] == [every, every, every, []]
