"""Beam search, sampling, a forced prefix, teacher forcing vs free running: what a learner can rely on."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch

from transformer import Translator, greedy_decode
from transformer.checkpoint import load_checkpoint
from transformer.data import parse_pairs, tokenize
from transformer.errors import ConfigError, DataError
from transformer.strategies import (
    beam_search,
    beam_search_batch,
    beam_vs_greedy,
    check_beam,
    check_sampling,
    forced_decode,
    lp,
    sample,
    teacher_forcing_vs_free_running,
    truncate,
)

ASSETS = Path(__file__).resolve().parents[1] / "assets"
TINY = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 2}
UNSEEN = ["我喜欢狗", "他有一只猫", "你喜欢音乐吗", "猫喜欢我", "今天我很好", "我有一只龙"]  # 龙 is unknown


@pytest.fixture(scope="module")
def bundled() -> Translator:
    return load_checkpoint(ASSETS / "model.safetensors")


@pytest.fixture(scope="module")
def bundled_sources() -> list[str]:
    return [s for s, _ in parse_pairs((ASSETS / "pairs.tsv").read_bytes())] + UNSEEN


@pytest.fixture
def noisy(pairs20) -> Translator:
    """An untrained model with random output weights: flat, varied distributions that rarely choose E."""
    translator = Translator.create(pairs20, seed=2, **TINY)
    with torch.no_grad():
        weight = translator.model.projection.weight
        weight.copy_(torch.randn(weight.shape, generator=torch.Generator().manual_seed(4)))
    return translator


def _enc(translator: Translator, sentence: str) -> torch.Tensor:
    return translator.encode_source(sentence)[0]


def _greedy_log_prob(result) -> float:
    return sum(math.log(float(step.probs[step.token_id])) for step in result.steps)


# ---------------------------------------------------------------- equal to greedy


def test_beam_size_1_and_top_k_1_are_greedy_on_the_bundled_model(bundled, bundled_sources):
    every = bundled.translate_all(bundled_sources)  # batched greedy decoding, over every bundled pair
    enc_inputs = bundled.make_batch([(s, "") for s in bundled_sources]).enc_inputs
    assert [h.tokens for h in beam_search_batch(bundled.model, enc_inputs, bundled.tgt_vocab, 1)] == every
    for sentence in bundled_sources[::4] + UNSEEN:  # one sentence at a time, with every step
        enc = _enc(bundled, sentence)
        greedy = greedy_decode(bundled.model, enc, bundled.tgt_vocab, return_attn=False)
        beam = beam_search(bundled.model, enc, bundled.tgt_vocab, beam_size=1)
        sampled = sample(bundled.model, enc, bundled.tgt_vocab, temperature=1.7, top_k=1, seed=3)
        assert beam.best.tokens == greedy.tokens == sampled.tokens, sentence
        assert beam.best.finished is (greedy.stop_reason == "eos")
        assert beam.best.log_prob == pytest.approx(_greedy_log_prob(greedy), abs=1e-4)
        assert sampled.log_prob == pytest.approx(_greedy_log_prob(greedy), abs=1e-6)


@pytest.mark.parametrize("max_len", [1, 4, 12])
@pytest.mark.parametrize("sentence", ["我吃饭", "他们去公园", "我会游泳吗"])
def test_beam_size_1_and_top_k_1_are_greedy_on_a_flat_untrained_model(noisy, sentence, max_len):
    enc, vocab = _enc(noisy, sentence), noisy.tgt_vocab
    greedy = greedy_decode(noisy.model, enc, vocab, max_len=max_len, return_attn=False)
    beam = beam_search(noisy.model, enc, vocab, beam_size=1, max_len=max_len)
    sampled = sample(noisy.model, enc, vocab, top_k=1, seed=0, max_len=max_len)
    assert beam.best.tokens == greedy.tokens == sampled.tokens
    assert len(beam.steps) == len(greedy.steps) == len(sampled.steps)
    assert sampled.stop_reason == greedy.stop_reason


def test_forced_decode_without_a_prefix_or_with_greedys_own_is_greedy(bundled, bundled_sources):
    for sentence in bundled_sources[::5]:
        enc = _enc(bundled, sentence)
        greedy = greedy_decode(bundled.model, enc, bundled.tgt_vocab)
        own = [s.token_id for s in greedy.steps[:2]]
        for prefix in ([], own):
            forced = forced_decode(bundled.model, enc, bundled.tgt_vocab, prefix)
            assert forced.tokens == greedy.tokens
            assert [s.forced for s in forced.steps] == [i < len(prefix) for i in range(len(forced.steps))]
            for a, b in zip(forced.steps, greedy.steps, strict=True):
                assert torch.allclose(a.probs, b.probs, atol=1e-6)
                assert torch.allclose(a.dec_enc_attns[-1], b.dec_enc_attns[-1], atol=1e-6)


# ---------------------------------------------------------------- beam search


def test_beam_hypotheses_are_sorted_distinct_and_scored(noisy):
    vocab = noisy.tgt_vocab
    for alpha in (0.0, 0.6, 2.0):
        result = beam_search(noisy.model, _enc(noisy, "他们去公园"), vocab, beam_size=5, length_penalty=alpha, n_best=5)
        hyps = result.hypotheses
        assert len(hyps) == 5
        assert [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)
        assert len({tuple(h.tokens) for h in hyps}) == 5
        for h in hyps:
            assert h.log_prob < 0 and not {"S", "P", "E"} & set(h.tokens)
            assert h.score == pytest.approx(h.log_prob / lp(len(h.tokens) + h.finished, alpha))


@pytest.mark.parametrize("n_best", [1, 2, 4])
def test_n_best_returns_the_best_n(bundled, n_best):
    enc = _enc(bundled, "猫喜欢我")
    every = beam_search(bundled.model, enc, bundled.tgt_vocab, beam_size=4)
    some = beam_search(bundled.model, enc, bundled.tgt_vocab, beam_size=4, n_best=n_best)
    assert [h.tokens for h in some.hypotheses] == [h.tokens for h in every.hypotheses[:n_best]]


def test_a_wider_beam_finds_at_least_as_probable_a_translation_here(bundled):
    enc = _enc(bundled, "猫喜欢我")
    scores = [beam_search(bundled.model, enc, bundled.tgt_vocab, k).best.score for k in (1, 2, 4, 8)]
    assert scores == sorted(scores)


def test_a_length_penalty_favours_longer_hypotheses(noisy):
    enc, vocab = _enc(noisy, "我吃饭"), noisy.tgt_vocab
    plain = beam_search(noisy.model, enc, vocab, 4, 0.0, max_len=8)
    strong = beam_search(noisy.model, enc, vocab, 4, 3.0, max_len=8)
    assert len(strong.best.tokens) >= len(plain.best.tokens)
    assert plain.best.score == plain.best.log_prob


def test_beam_steps_record_kept_finished_and_pruned_candidates(bundled):
    vocab = bundled.tgt_vocab
    result = beam_search(bundled.model, _enc(bundled, "猫喜欢我"), vocab, beam_size=3)
    assert result.steps[0].beams == [["S"]]
    for step, following in zip(result.steps, result.steps[1:]):
        kept = sorted((c for c in step.candidates if c.status == "kept"), key=lambda c: c.beam)
        assert [c.beam for c in kept] == list(range(len(kept))) and 1 <= len(kept) <= 3
        assert following.beams == [step.beams[c.parent] + [c.token] for c in kept]
        assert following.beam_log_probs == pytest.approx([c.log_prob for c in kept])
        assert any(c.status == "pruned" for c in step.candidates)
        for parent in range(len(step.beams)):
            children = [c.log_prob for c in step.candidates if c.parent == parent]
            assert children == sorted(children, reverse=True)
            assert all(p <= step.beam_log_probs[parent] for p in children)
    finished = [(c, s) for s in result.steps for c in s.candidates if c.status == "finished"]
    assert {c.token for c, _ in finished} == {"E"}
    assert sorted(c.log_prob for c, _ in finished) == pytest.approx(sorted(h.log_prob for h in result.hypotheses))


def test_beam_search_runs_the_decoder_once_per_step_for_all_beams(bundled):
    batches = []
    hook = bundled.model.decoder.register_forward_hook(lambda module, args, out: batches.append(out.size(0)))
    try:
        result = beam_search(bundled.model, _enc(bundled, "我有一只猫和一只狗"), bundled.tgt_vocab, beam_size=4)
    finally:
        hook.remove()
    assert len(batches) == len(result.steps)
    assert batches[0] == 1 and max(batches) == 4


def test_beam_search_stops_at_the_length_cap(noisy):
    with torch.no_grad():
        noisy.model.projection.weight[noisy.tgt_vocab.eos_id] = -100.0  # E is never probable
    result = beam_search(noisy.model, _enc(noisy, "我吃饭"), noisy.tgt_vocab, beam_size=3, max_len=5)
    assert len(result.steps) == 5
    assert len(result.hypotheses) == 3
    assert all(not h.finished and len(h.tokens) == 5 for h in result.hypotheses)


def test_batched_beam_search_finds_what_one_sentence_at_a_time_finds(bundled, bundled_sources, noisy):
    for translator, sentences, max_len in (
        (bundled, bundled_sources[::3], 50),
        (noisy, ["我吃饭", "他们去公园", "你好"], 6),
    ):
        enc_inputs = translator.make_batch([(s, "") for s in sentences]).enc_inputs  # (B, Ls), padded
        for beam_size, alpha in ((1, 0.0), (3, 0.6)):
            batched = beam_search_batch(translator.model, enc_inputs, translator.tgt_vocab, beam_size, alpha, max_len)
            for sentence, hypothesis in zip(sentences, batched, strict=True):
                alone = beam_search(
                    translator.model, _enc(translator, sentence), translator.tgt_vocab, beam_size, alpha, max_len
                )
                assert hypothesis.tokens == alone.best.tokens, sentence
                assert hypothesis.finished is alone.best.finished
                assert hypothesis.score == pytest.approx(alone.best.score, abs=1e-4)


def test_beam_vs_greedy_scores_both_the_same_way(bundled):
    sentences = ["猫喜欢我", "我喜欢猫", "我有一只猫和一只狗"]
    enc_inputs = bundled.make_batch([(s, "") for s in sentences]).enc_inputs
    rows = beam_vs_greedy(bundled.model, enc_inputs, bundled.tgt_vocab, 4, 0.6)
    for sentence, row in zip(sentences, rows, strict=True):
        assert row.greedy.tokens == bundled.translate(sentence).tokens
        assert row.beam.score >= row.greedy.score - 1e-5  # the same hypothesis may differ by float rounding
        assert row.beam_wins is (row.beam.tokens != row.greedy.tokens)


# ---------------------------------------------------------------- sampling


def test_sampling_is_reproducible_for_a_seed_and_varies_with_it(noisy):
    enc, vocab = _enc(noisy, "他们去公园"), noisy.tgt_vocab
    runs = [sample(noisy.model, enc, vocab, temperature=1.5, seed=seed, max_len=8) for seed in range(6)]
    again = [sample(noisy.model, enc, vocab, temperature=1.5, seed=seed, max_len=8) for seed in range(6)]
    assert [r.tokens for r in runs] == [r.tokens for r in again]
    assert len({tuple(r.tokens) for r in runs}) > 1
    for run in runs:
        assert run.stop_reason in ("eos", "max_len") and 1 <= len(run.steps) <= 8
        assert not {"S", "P"} & {s.token for s in run.steps}


def test_sampling_records_the_distribution_before_and_after_each_setting(noisy):
    result = sample(noisy.model, _enc(noisy, "我吃饭"), noisy.tgt_vocab, 0.5, top_k=4, top_p=0.9, seed=1, max_len=4)
    for step in result.steps:
        for dist in (step.probs, step.tempered, step.final):
            assert dist.sum().item() == pytest.approx(1.0, abs=1e-5)
        assert step.final[step.token_id] > 0
        assert 1 <= int((step.final > 0).sum()) <= 4
        entropy = [-(p[p > 0] * p[p > 0].log()).sum().item() for p in (step.probs, step.tempered)]
        assert entropy[1] < entropy[0]  # temperature below 1 sharpens
        assert torch.equal(step.probs.argsort(descending=True)[:4], step.tempered.argsort(descending=True)[:4])


@pytest.mark.parametrize(
    ("top_k", "top_p", "kept"),
    [(0, 1.0, [0.4, 0.3, 0.2, 0.1]), (2, 1.0, [0.4, 0.3]), (0, 0.6, [0.4, 0.3]), (0, 0.7, [0.4, 0.3]),
     (0, 0.71, [0.4, 0.3, 0.2]), (3, 0.5, [0.4, 0.3]), (0, 0.1, [0.4]), (1, 1.0, [0.4])],
)  # fmt: skip
def test_truncate_keeps_the_top_k_and_the_top_p_mass(top_k, top_p, kept):
    probs = torch.tensor([0.1, 0.4, 0.2, 0.3], dtype=torch.float64)
    out = truncate(probs, top_k, top_p)
    assert sorted(out[out > 0].tolist(), reverse=True) == pytest.approx([p / sum(kept) for p in kept])


# ---------------------------------------------------------------- forcing a token


def test_a_forced_token_is_taken_and_decoding_continues_greedily_after_it(bundled):
    vocab, enc = bundled.tgt_vocab, _enc(bundled, "我喜欢猫")
    forced = forced_decode(bundled.model, enc, vocab, [vocab.stoi["You"]])
    assert forced.steps[0].token == "You" and forced.steps[0].forced
    assert forced.steps[0].probs.argmax() == vocab.stoi["I"]  # the model's own choice is still recorded
    assert forced.steps[1].dec_input == ["S", "You"]
    for step in forced.steps[1:]:
        assert not step.forced and step.token_id == int(step.probs.argmax())
    assert forced.tokens[0] == "You" and forced.tokens != bundled.translate("我喜欢猫").tokens


def test_forcing_e_ends_the_output_and_p_or_s_cannot_be_forced(bundled):
    vocab, enc = bundled.tgt_vocab, _enc(bundled, "我喜欢猫")
    ended = forced_decode(bundled.model, enc, vocab, [vocab.stoi["I"], vocab.eos_id])
    assert ended.tokens == ["I"] and ended.stop_reason == "eos" and len(ended.steps) == 2
    for token in ("P", "S"):
        with pytest.raises(DataError, match="forced tokens"):
            forced_decode(bundled.model, enc, vocab, [vocab.stoi[token]])


# ---------------------------------------------------------------- teacher forcing vs free running


def test_teacher_forcing_and_free_running_agree_on_a_learned_pair(bundled):
    vocab = bundled.tgt_vocab
    reference = vocab.encode(tokenize("I have a cat ."))[0]
    result = teacher_forcing_vs_free_running(bundled.model, _enc(bundled, "我有一只猫"), vocab, reference)
    assert result.parted_at is None
    assert [r.reference for r in result.rows] == ["I", "have", "a", "cat", ".", "E"]
    assert [r.free_choice for r in result.rows] == ["I", "have", "a", "cat", ".", "E"]
    assert all(r.teacher_prob > 0.5 and r.teacher_choice == r.reference for r in result.rows)


def test_free_running_parts_from_a_reference_it_would_not_produce(bundled):
    vocab = bundled.tgt_vocab
    reference = vocab.encode(tokenize("I love dogs very much ."))[0]  # "very", "much" are unknown words
    result = teacher_forcing_vs_free_running(bundled.model, _enc(bundled, "我喜欢猫"), vocab, reference)
    assert result.parted_at == 3
    row = result.rows[2]
    assert (row.reference, row.free_choice) == ("dogs", "cats")
    assert row.teacher_prob < 0.5 and row.teacher_choice == "cats"
    assert [r.reference for r in result.rows] == ["I", "love", "dogs", "<unk>", "<unk>", ".", "E"]
    assert result.free_tokens == ["I", "love", "cats", "."]
    assert [r.free_choice for r in result.rows[4:]] == ["E", None, None]


def test_a_reference_too_long_for_the_model_is_a_data_error(pairs20):
    translator = Translator.create(pairs20, max_len=8, **TINY)
    vocab = translator.tgt_vocab
    with pytest.raises(DataError, match="at most 7"):
        teacher_forcing_vs_free_running(translator.model, _enc(translator, "我吃饭"), vocab, [vocab.unk_id] * 8)


# ---------------------------------------------------------------- every strategy


STRATEGIES = {  # each gives what the learner sees: tokens and probabilities
    "beam": lambda m, enc, v: [(h.tokens, h.log_prob) for h in beam_search(m, enc, v, 3, max_len=4).hypotheses],
    "sample": lambda m, enc, v: [(s.token, s.probs.tolist()) for s in sample(m, enc, v, seed=0, max_len=4).steps],
    "forced": lambda m, enc, v: [(s.token, s.probs.tolist()) for s in forced_decode(m, enc, v, [v.unk_id], 4).steps],
    "teacher": lambda m, enc, v: teacher_forcing_vs_free_running(m, enc, v, [v.unk_id], max_len=4).rows,
}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_runs_without_dropout_and_leaves_the_mode_alone(pairs20, strategy):
    translator = Translator.create(pairs20, dropout=0.5, **TINY)
    translator.model.train()
    run, enc, vocab = STRATEGIES[strategy], _enc(translator, "我吃饭"), translator.tgt_vocab
    first, second = (run(translator.model, enc, vocab) for _ in range(2))
    assert translator.model.training
    assert first == second
    translator.model.eval()
    assert run(translator.model, enc, vocab) == first


@pytest.mark.parametrize(
    ("check", "args", "words"),
    [
        (check_beam, (0,), "beam size"),
        (check_beam, (11,), "beam size"),
        (check_beam, (2.5,), "beam size"),
        (check_beam, (4, -0.1), "length penalty"),
        (check_beam, (4, float("nan")), "length penalty"),
        (check_beam, (4, 0.6, 5), "n-best"),
        (check_beam, (4, 0.6, 0), "n-best"),
        (check_sampling, (0.0,), "temperature"),
        (check_sampling, (-1.0,), "temperature"),
        (check_sampling, (float("inf"),), "temperature"),
        (check_sampling, (1.0, -1), "top-k"),
        (check_sampling, (1.0, 0, 0.0), "top-p"),
        (check_sampling, (1.0, 0, 1.5), "top-p"),
        (check_sampling, (1.0, 0, 1.0, -3), "seed"),
    ],
)
def test_bad_settings_are_config_errors_that_name_the_setting(check, args, words):
    with pytest.raises(ConfigError, match=words):
        check(*args)
