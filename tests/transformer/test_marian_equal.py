"""A Marian model converted into the project's Transformer (transformer.marian) computes what Hugging Face's
MarianMTModel computes, offline, on tiny random models of several shapes: the logits (a padded batch with its
attention mask), every attention map (eager), greedy decoding token for token and beam search where the settings
match (length penalty 0: both score a hypothesis by its log-probability; early stopping by the same rule).
"""

from __future__ import annotations

import copy

import pytest
import torch

from tests.transformer.marian_models import (
    EOS,
    SHAPES,
    MarianIds,
    reference,
    save_random_marian,
    sources,
    transformers,
)
from transformer.decoding import beam_search, beam_search_batch, greedy_batch, greedy_decode, length_cap
from transformer.marian import marian_transformer

TOLERANCE = 1e-4
MAX_LEN = 12  # tokens decoded at most (Hugging Face's max_length counts the start token too: MAX_LEN + 1)


@pytest.fixture(scope="module", params=SHAPES, ids=lambda shape: shape.id)
def pair(request, tmp_path_factory):
    """(shape, Hugging Face's model, ours) for one random Marian model saved to a folder."""
    folder = save_random_marian(request.param, tmp_path_factory.mktemp("marian"))
    ours, _ = marian_transformer(folder)
    return request.param, reference(folder), ours


def targets(shape, n: int, seed: int = 1) -> torch.Tensor:
    """(n, Lt) decoder inputs of a padded batch: <pad> (the start), pieces, </s>, then <pad> to the longest."""
    generator = torch.Generator().manual_seed(seed)
    pad, rows = shape.vocab - 1, []
    for i in range(n):
        pieces = torch.randint(1, shape.vocab - 1, (2 + 3 * i,), generator=generator).tolist()
        rows.append([pad, *pieces, EOS])
    longest = max(map(len, rows))
    return torch.tensor([row + [pad] * (longest - len(row)) for row in rows])


def forward_both(shape, hf, ours):
    """Both models on one padded batch: (HF's output, our logits, our maps, real decoder positions (B, Lt))."""
    src = sources(shape)
    dec = targets(shape, src.size(0))
    real = dec.ne(shape.vocab - 1)
    real[:, 0] = True  # the start token has <pad>'s id and is read
    with torch.no_grad():
        theirs = hf(
            input_ids=src,
            attention_mask=src.ne(shape.vocab - 1).long(),
            decoder_input_ids=dec,
            output_attentions=True,
        )
        logits, maps = ours(src, dec, return_attn=True)
    return theirs, logits, maps, real


def test_logits_equal_on_a_padded_batch(pair):
    shape, hf, ours = pair
    theirs, logits, _, real = forward_both(shape, hf, ours)
    assert logits.shape == theirs.logits.shape
    assert theirs.logits.abs().max() > 1.0  # random weights give logits far from zero: the comparison means something
    difference = (logits - theirs.logits)[real].abs().max().item()  # padded queries' logits are never read
    print(f"max |Δlogits| {shape.id}: {difference:.2e}")
    assert difference < TOLERANCE


def test_in_float64_the_logits_agree_to_rounding(pair):
    """Every float32 difference above is rounding: in float64 the two models agree within 1e-9."""
    shape, hf, ours = pair
    theirs, logits, _, real = forward_both(shape, copy.deepcopy(hf).double(), copy.deepcopy(ours).double())
    assert (logits - theirs.logits)[real].abs().max() < 1e-9


def test_attention_maps_equal(pair):
    shape, hf, ours = pair
    theirs, _, maps, real = forward_both(shape, hf, ours)
    assert len(maps.enc_self_attns) == shape.enc_layers and len(maps.dec_self_attns) == shape.dec_layers
    for ref, got in zip(theirs.encoder_attentions, maps.enc_self_attns, strict=True):
        assert torch.allclose(got, ref, atol=TOLERANCE)  # (B, H, Ls, Ls): padded queries too
    rows = real[:, None, :, None]  # (B, 1, Lt, 1): the real decoder queries
    for kind, refs in (("dec_self_attns", theirs.decoder_attentions), ("dec_enc_attns", theirs.cross_attentions)):
        for ref, got in zip(refs, getattr(maps, kind), strict=True):
            assert got.shape == ref.shape
            assert ((got - ref).abs() * rows).max() < TOLERANCE, kind


def generation_config(shape, num_beams: int = 1, **settings):
    """Hugging Face's generation settings that match the project's decoding: <pad> never generated (the project
    blocks P and S, here one token), no forced </s> at the cap, the same cap, probabilities renormalised after <pad>
    is blocked (the project blocks before its softmax)."""
    pad = shape.vocab - 1
    return transformers.GenerationConfig(
        max_length=MAX_LEN + 1,
        num_beams=num_beams,
        do_sample=False,
        bad_words_ids=[[pad]],
        forced_eos_token_id=None,
        eos_token_id=EOS,
        pad_token_id=pad,
        decoder_start_token_id=pad,
        renormalize_logits=True,
        **settings,
    )


def generated(shape, hf, src, config) -> list[list[int]]:
    """Hugging Face's output ids per sentence: without the start token, cut at </s> (excluded)."""
    hf.generation_config = config  # a setting left None falls back to the model's own generation_config
    with torch.no_grad():
        out = hf.generate(input_ids=src, attention_mask=src.ne(shape.vocab - 1).long(), generation_config=config)
    rows = []
    for row in out[:, 1:].tolist():
        rows.append(row[: row.index(EOS)] if EOS in row else row)
    return rows


def ids(vocab: MarianIds, tokens: list[str]) -> list[int]:
    return [vocab.stoi[t] for t in tokens]


def test_greedy_equals_generate_token_for_token(pair):
    shape, hf, ours = pair
    vocab, src = MarianIds(shape.vocab), sources(shape, n=6, seed=3)
    assert length_cap(ours, MAX_LEN) == MAX_LEN
    expected = generated(shape, hf, src, generation_config(shape))
    one_by_one = []
    for i, row in enumerate(src):
        real = row[row.ne(shape.vocab - 1)].unsqueeze(0)  # (1, Ls): the sentence alone, as a user translates it
        result = greedy_decode(ours, real, vocab, MAX_LEN)
        one_by_one.append(ids(vocab, result.tokens))
        assert result.stop_reason == ("eos" if len(expected[i]) < MAX_LEN else "max_len")
    batched = [ids(vocab, h.tokens) for h in greedy_batch(ours, src, vocab, max_len=MAX_LEN)]
    assert one_by_one == expected
    assert batched == expected
    assert 0 < sum(len(out) < MAX_LEN for out in expected) < len(expected)  # some end with </s>, some at the cap


@pytest.mark.parametrize("early_stopping", [False, "never"])
def test_beam_search_equals_generate(pair, early_stopping):
    """Length penalty 0 on both sides (the project's GNMT lp and Hugging Face's length**α are both 1): a hypothesis
    scores its log-probability; early stopping False or "never" then stop as the project does (no live beam can
    beat the beam_size-th finished hypothesis)."""
    shape, hf, ours = pair
    vocab, src, k = MarianIds(shape.vocab), sources(shape, n=4, seed=5), 3
    config = generation_config(
        shape, k, length_penalty=0.0, early_stopping=early_stopping, return_dict_in_generate=True, output_scores=True
    )
    hf.generation_config = config
    with torch.no_grad():
        out = hf.generate(input_ids=src, attention_mask=src.ne(shape.vocab - 1).long(), generation_config=config)
    expected = [row[: row.index(EOS)] if EOS in row else row for row in out.sequences[:, 1:].tolist()]
    batched = beam_search_batch(ours, src, vocab, beam_size=k, max_len=MAX_LEN)
    assert [ids(vocab, h.tokens) for h in batched] == expected
    for i, row in enumerate(src):
        search = beam_search(ours, row[row.ne(shape.vocab - 1)].unsqueeze(0), vocab, beam_size=k, max_len=MAX_LEN)
        assert ids(vocab, search.best.tokens) == expected[i]
        assert search.best.score == pytest.approx(float(out.sequences_scores[i]), abs=TOLERANCE)
