"""The logit processors and the one loop: what each processor leaves possible, and where the loop stops."""

from __future__ import annotations

import math

import pytest
import torch

from transformer import Translator
from transformer.decoding import (
    BlockSpecials,
    Choice,
    ForcedTokens,
    Temperature,
    TopK,
    TopP,
    blocked_ids,
    decode_loop,
    length_cap,
    process,
    truncate,
)

TINY = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 1}


@pytest.fixture
def tiny(pairs20) -> Translator:
    return Translator.create(pairs20, seed=1, max_len=7, **TINY)


def test_p_and_s_are_ruled_out_and_nothing_else(tiny):
    vocab = tiny.tgt_vocab
    logits = BlockSpecials(vocab)(torch.zeros(2, len(vocab)), 1)
    assert set(torch.isinf(logits[0]).nonzero().flatten().tolist()) == set(blocked_ids(vocab))
    assert torch.equal(logits[0], logits[1])


def test_a_forced_token_is_the_only_one_possible_while_the_prefix_lasts():
    forced, logits = ForcedTokens((4, 2)), torch.randn(1, 9)
    for step, token in ((1, 4), (2, 2)):
        probs = torch.softmax(forced(logits, step), dim=-1)[0]
        assert probs[token] == 1 and probs.sum() == 1
    assert torch.equal(forced(logits, 3), logits) and not forced.forces(3)


@pytest.mark.parametrize("temperature", [1e-300, 0.5, 1.0, 3.0, 1e300])
def test_any_temperature_keeps_the_order_and_the_blocked_tokens(temperature):
    logits = torch.tensor([[float("-inf"), 1.0, 3.0, 2.0]])
    probs = torch.softmax(Temperature(temperature)(logits, 1), dim=-1)[0]
    assert not probs.isnan().any() and probs[0] == 0 and float(probs.sum()) == pytest.approx(1.0)
    assert probs[2] >= probs[3] >= probs[1]
    if temperature == 1e300:
        assert probs[1:].tolist() == pytest.approx([1 / 3] * 3)


@pytest.mark.parametrize(("top_k", "top_p"), [(0, 1.0), (2, 1.0), (0, 0.6), (0, 0.71), (3, 0.5), (0, 0.1), (1, 1.0)])
def test_top_p_then_top_k_keep_what_truncate_keeps(top_k, top_p):
    probs = torch.tensor([0.1, 0.4, 0.2, 0.3], dtype=torch.float64)
    cut = torch.softmax(process([TopP(top_p), TopK(top_k)], probs.log().unsqueeze(0), 1), dim=-1)[0]
    assert cut.tolist() == pytest.approx(truncate(probs, top_k, top_p).tolist())


def test_the_loop_stops_when_the_chooser_says_and_otherwise_at_the_cap(tiny):
    enc, vocab = tiny.encode_source("我吃饭")[0], tiny.tgt_vocab
    seen = []

    def never_stop(step, dec, logits, maps):
        seen.append((step, dec.shape[1], bool(math.isinf(float(logits[0, vocab.bos_id])))))
        return Choice.one_row(dec, 4, vocab.eos_id)

    done = decode_loop(tiny.model, enc, vocab, never_stop, max_len=50)
    assert length_cap(tiny.model, 50) == done.cap == 6 and not done.stopped  # 7 positions: S and 6 tokens
    assert seen == [(s, s, True) for s in range(1, 7)] and done.dec.tolist() == [[vocab.bos_id] + [4] * 6]
    done = decode_loop(
        tiny.model, enc, vocab, lambda step, dec, logits, maps: Choice.one_row(dec, vocab.eos_id, vocab.eos_id)
    )
    assert done.stopped and done.dec.tolist() == [[vocab.bos_id, vocab.eos_id]]
    assert length_cap(tiny.model, 3) == 3 and length_cap(tiny.model) == 6
