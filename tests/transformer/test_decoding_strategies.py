"""Beam search, sampling, a forced prefix, teacher forcing vs free running: what a learner can rely on."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch

from tests.conftest import random_translator
from transformer import Translator, greedy_decode
from transformer.checkpoint import load_checkpoint
from transformer.data import parse_pairs, tokenize
from transformer.decoding import (
    SCORE_TOLERANCE,
    BeamCandidate,
    BeamSearch,
    BeamStep,
    GreedyPath,
    Hypothesis,
    against_greedy,
    beam_search,
    beam_search_batch,
    beam_vs_greedy,
    check_beam,
    check_sampling,
    forced_decode,
    greedy_batch,
    greedy_hypothesis,
    greedy_path,
    lp,
    sample,
    teacher_forcing_vs_free_running,
    truncate,
)
from transformer.errors import ConfigError, DataError

ASSETS = Path(__file__).resolve().parents[2] / "assets"
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
    # beams that find the same translation may add its log-probs in another order: equal within rounding
    assert all(wider >= narrower - 1e-6 for narrower, wider in zip(scores, scores[1:])), scores


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
    hook = bundled.model.projection.register_forward_hook(lambda module, args, out: batches.append(out.size(0)))
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
        greedy = greedy_hypothesis(bundled.translate(sentence, return_attn=False), 0.6)
        assert row.greedy.tokens == greedy.tokens and row.greedy.finished is greedy.finished
        assert row.greedy.score == pytest.approx(greedy.score, abs=1e-5)
        assert row.beam.score >= row.greedy.score - SCORE_TOLERANCE  # the same hypothesis may differ by rounding
        assert row.beam_wins is (row.beam.tokens != row.greedy.tokens)


@pytest.mark.parametrize("max_len", [3, 50])
@pytest.mark.parametrize("alpha", [0.0, 0.6])
def test_batched_greedy_is_greedy_decoding_scored_like_a_hypothesis(noisy, bundled, bundled_sources, alpha, max_len):
    for translator, sentences in ((bundled, bundled_sources[::3]), (noisy, ["我吃饭", "他们去公园", "你好"])):
        enc_inputs = translator.make_batch([(s, "") for s in sentences]).enc_inputs  # (B, Ls), padded
        batched = greedy_batch(translator.model, enc_inputs, translator.tgt_vocab, alpha, max_len)
        for sentence, hypothesis in zip(sentences, batched, strict=True):
            alone = greedy_decode(translator.model, _enc(translator, sentence), translator.tgt_vocab, max_len, False)
            assert hypothesis.tokens == alone.tokens and hypothesis.finished is (alone.stop_reason == "eos")
            assert hypothesis.log_prob == pytest.approx(_greedy_log_prob(alone), abs=1e-4)
            assert hypothesis.score == pytest.approx(greedy_hypothesis(alone, alpha).score, abs=1e-4)


# ---------------------------------------------------------------- the stopping rule, and greedy's path


def _record_scores(result, last: int) -> tuple[list[float], list[float]]:
    """From the record of steps 1..last: every finished hypothesis's score, best first (E at step s makes a
    hypothesis of length s), and the log-probabilities of the beams alive after step `last`."""
    finished = [
        c.log_prob / lp(step.step, result.length_penalty)
        for step in result.steps[:last]
        for c in step.candidates
        if c.status == "finished"
    ]
    live = [c.log_prob for c in result.steps[last - 1].candidates if c.status == "kept"]
    return sorted(finished, reverse=True), live


@pytest.mark.parametrize("alpha", [0.0, 0.6, 2.0])
@pytest.mark.parametrize("beam_size", [1, 2, 4, 10])
def test_the_search_stops_only_when_no_beam_alive_can_still_win(bundled, noisy, beam_size, alpha):
    """Read from the record, for any model: when the search stopped, no beam alive could beat the K-th best
    hypothesis, even with the length penalty's help (its best is log P / lp(cap)); one step earlier one could."""
    for translator, sentence in ((bundled, "猫和狗是朋友"), (bundled, "那喜"), (noisy, "他们去公园")):
        result = beam_search(translator.model, _enc(translator, sentence), translator.tgt_vocab, beam_size, alpha)
        finished, live = _record_scores(result, len(result.steps))
        if result.stop_reason == "finished":
            assert not live or (
                len(finished) >= beam_size and max(live) / lp(result.max_len, alpha) <= finished[beam_size - 1]
            ), (sentence, live, finished)
            assert [h.score for h in result.hypotheses] == pytest.approx(finished[:beam_size], abs=1e-5)
        else:
            assert len(result.steps) == result.max_len
        if len(result.steps) > 1:
            finished, live = _record_scores(result, len(result.steps) - 1)
            assert live and (
                len(finished) < beam_size or max(live) / lp(result.max_len, alpha) > finished[beam_size - 1]
            ), (sentence, live, finished)


@pytest.mark.slow
@pytest.mark.parametrize("alpha", [0.0, 0.6])
@pytest.mark.parametrize("beam_size", [2, 4, 10])
def test_beam_search_scores_at_least_as_well_as_greedy_on_the_bundled_pairs(bundled, bundled_sources, beam_size, alpha):
    """Whatever the bundled model: the best hypothesis never scores below greedy's output under the same scoring,
    unless the search's record shows that it pruned greedy's path (K beams can drop it; the stopping rule cannot)."""
    vocab = bundled.tgt_vocab
    enc_inputs = bundled.make_batch([(s, "") for s in bundled_sources]).enc_inputs
    rows = beam_vs_greedy(bundled.model, enc_inputs, vocab, beam_size, alpha)
    assert len(rows) == len(bundled_sources) >= 50
    for sentence, row in zip(bundled_sources, rows, strict=True):
        if row.beam.score < row.greedy.score - SCORE_TOLERANCE:  # then one sentence at a time, with its record
            result = beam_search(bundled.model, _enc(bundled, sentence), vocab, beam_size, alpha)
            greedy = greedy_hypothesis(bundled.translate(sentence, return_attn=False), alpha)
            assert against_greedy(result, greedy, vocab).case == "pruned", sentence


@pytest.mark.parametrize(
    ("seed", "weights", "sentence", "case", "fate", "step"),
    [
        (0, 0, "你好", "same", "found", 6),  # the same translation, alive at the length cap
        (0, 0, "我吃饭", "better", "found", 6),  # greedy's translation is a hypothesis, beam search found a better one
        (1, 4, "我吃饭", "better", "pruned", 6),  # greedy's path was pruned, and beam search found a better one
        (3, 5, "他们去公园", "pruned", "pruned", 4),  # greedy's path was pruned, and it was the better one
    ],
)
def test_against_greedy_says_what_became_of_greedys_path(pairs20, seed, weights, sentence, case, fate, step):
    translator = random_translator(pairs20, seed, weights)
    enc, vocab = _enc(translator, sentence), translator.tgt_vocab
    greedy_run = greedy_decode(translator.model, enc, vocab, return_attn=False)
    for alpha in (0.0, 0.6):
        result = beam_search(translator.model, enc, vocab, 2, alpha)
        greedy = greedy_hypothesis(greedy_run, alpha)
        verdict = against_greedy(result, greedy, vocab)
        assert (verdict.case, verdict.path) == (case, GreedyPath(fate, step))
        assert verdict.beam == result.best and verdict.greedy == greedy
        # the record at that step: greedy's prefix was a beam, and its next token was dropped or ended the path
        here = result.steps[step - 1]
        prefix = ["S", *greedy.tokens[: step - 1]]
        token = (greedy.tokens + ["E"])[step - 1]
        statuses = [c.status for c in here.candidates if c.parent == here.beams.index(prefix) and c.token == token]
        if fate == "pruned":
            assert statuses in ([], ["pruned"])
            assert all(beam[: len(prefix) + 1] != [*prefix, token] for s in result.steps[step:] for beam in s.beams)
        else:  # it ended with E there, or it was alive at the length cap
            assert statuses == (["finished"] if greedy.finished else ["kept"])
            assert result.stop_reason == "max_len" or greedy.finished
        assert (verdict.beam.score < greedy.score - SCORE_TOLERANCE) is (case == "pruned")


def test_against_greedy_on_a_trained_model_that_ends_with_e(trained_seed):
    enc, vocab = _enc(trained_seed, "我 喜 欢 你"), trained_seed.tgt_vocab
    greedy = greedy_hypothesis(trained_seed.translate("我 喜 欢 你", return_attn=False), 0.6)
    verdict = against_greedy(beam_search(trained_seed.model, enc, vocab, 3, 0.6), greedy, vocab)
    assert greedy.tokens == ["I", "love", "you", "."] and greedy.finished
    assert (verdict.case, verdict.path) == ("same", GreedyPath("found", 5))  # E at step 5 made it a hypothesis


def _scripted_search(stop_reason: str) -> BeamSearch:
    """The record of a search with two beams that stopped at step 2 once two hypotheses had ended with E, while
    the beam "The cat" (greedy's path) was still alive and more probable than both: the stopping rule this
    project had before, which beam_search no longer follows."""
    steps = [
        BeamStep(
            1, [["S"]], [0.0], [BeamCandidate(0, 3, "The", -0.05, "kept", 0), BeamCandidate(0, 4, "A", -3.0, "kept", 1)]
        ),
        BeamStep(
            2,
            [["S", "The"], ["S", "A"]],
            [-0.05, -3.0],
            [
                BeamCandidate(0, 5, "cat", -0.07, "kept", 0),
                BeamCandidate(0, 2, "E", -3.5, "finished"),
                BeamCandidate(1, 2, "E", -3.2, "finished"),
                BeamCandidate(1, 5, "cat", -3.6, "kept", 1),
            ],
        ),
    ]
    hypotheses = [Hypothesis(["A"], -3.2, -3.2, True), Hypothesis(["The"], -3.5, -3.5, True)]
    return BeamSearch(hypotheses, steps, 2, 0.0, stop_reason, max_len=6)


def test_against_greedy_never_claims_a_pruning_the_record_does_not_show(bundled):
    vocab = bundled.tgt_vocab
    assert vocab.itos[vocab.eos_id] == "E"
    search = _scripted_search("finished")
    greedy = Hypothesis(["The", "cat"], -0.1, -0.1, True)
    verdict = against_greedy(search, greedy, vocab)
    assert (verdict.case, verdict.path) == ("stopped", GreedyPath("alive", 2))
    tie = Hypothesis(["The", "dog"], -3.2 + SCORE_TOLERANCE / 2, -3.2 + SCORE_TOLERANCE / 2, True)
    assert against_greedy(search, tie, vocab).case == "tie"
    assert against_greedy(search, Hypothesis(["The"], -3.5, -3.5, True), vocab).path == GreedyPath("found", 2)
    assert against_greedy(search, Hypothesis(["A", "cat", "dog"], -4.0, -4.0, True), vocab).case == "better"
    assert against_greedy(search, Hypothesis(["A", "dog"], -3.9, -3.9, True), vocab).path == GreedyPath("pruned", 2)
    # the same record at the length cap: greedy's path alive there is a hypothesis of the search
    at_cap = _scripted_search("max_len")
    assert greedy_path(at_cap, Hypothesis(["The", "cat"], -0.07, -0.07, False), vocab) == GreedyPath("found", 2)


# ---------------------------------------------------------------- sampling


@pytest.mark.parametrize("temperature", [1e-40, 1e-300, 5e-324, 1e308])
def test_any_finite_temperature_gives_a_distribution(noisy, temperature):
    enc, vocab = _enc(noisy, "他们去公园"), noisy.tgt_vocab
    result = sample(noisy.model, enc, vocab, temperature=temperature, seed=1, max_len=6)
    never = [vocab.stoi["P"], vocab.bos_id]
    for step in result.steps:
        assert torch.isfinite(step.tempered).all() and step.tempered.sum() == pytest.approx(1.0)
        assert step.tempered[never].tolist() == [0.0, 0.0]
        allowed = step.tempered[[i for i in range(len(vocab)) if i not in never]]
        if temperature < 1:  # all on the most probable token: greedy
            assert step.tempered.argmax() == step.probs.argmax() and step.tempered.max() == 1.0
        else:  # flat over every token that may be an output
            assert allowed.tolist() == pytest.approx([1 / len(allowed)] * len(allowed))
    if temperature < 1:
        assert result.tokens == greedy_decode(noisy.model, enc, vocab, max_len=6, return_attn=False).tokens


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
    reference = vocab.encode(tokenize("I like dogs very much ."))[0]  # "very", "much" are unknown words
    result = teacher_forcing_vs_free_running(bundled.model, _enc(bundled, "我喜欢猫"), vocab, reference)
    assert result.parted_at == 3
    row = result.rows[2]
    assert (row.reference, row.free_choice) == ("dogs", "cats")
    assert row.teacher_prob < 0.5 and row.teacher_choice == "cats"
    assert [r.reference for r in result.rows] == ["I", "like", "dogs", "<unk>", "<unk>", ".", "E"]
    assert result.free_tokens == ["I", "like", "cats", "."]
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
        (check_beam, (4, 4000.0), "length penalty must be a number from 0 to 10"),
        (check_beam, (4, 0.6, 5), "n-best"),
        (check_beam, (4, 0.6, 0), "n-best"),
        (check_sampling, (0.0,), "temperature"),
        (check_sampling, (-1.0,), "temperature"),
        (check_sampling, (float("inf"),), "temperature"),
        (check_sampling, (1.0, -1), "top-k"),
        (check_sampling, (1.0, 0, 0.0), "top-p"),
        (check_sampling, (1.0, 0, 1.5), "top-p"),
        (check_sampling, (1.0, 0, 1.0, -3), "seed"),
        (check_sampling, (1.0, 0, 1.0, 2**64), "seed must be a whole number from 0 to 2147483647"),
    ],
)
def test_bad_settings_are_config_errors_that_name_the_setting(check, args, words):
    with pytest.raises(ConfigError, match=words):
        check(*args)
