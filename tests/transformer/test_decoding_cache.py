"""Incremental decoding (transformer/decoding/cache.py) gives what the decoder run on the whole prefix gives: the same
logits at every step, the same translations, beams and batched outputs, for the paper's model, a pre-norm model with
learned positions and a Marian model; and it is what a translation without maps runs (one token per step)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.conftest import TINY
from transformer import Translator
from transformer.checkpoint import load_checkpoint
from transformer.data import parse_pairs
from transformer.decoding import beam_search, greedy_batch, greedy_decode
from transformer.decoding.cache import DecoderCache, cached_logits
from transformer.decoding.step import next_logits, start_id
from transformer.model import evaluating

ASSETS = Path(__file__).resolve().parents[2] / "assets"
PAIRS = parse_pairs((ASSETS / "pairs.tsv").read_bytes())
SOURCES = ["我有一只猫和一只狗", "他们去公园", "我吃饭"]


def _noisy(**switches) -> Translator:
    """An untrained tiny model with random output weights (flat distributions: ties and long outputs are likely)."""
    translator = Translator.create(PAIRS[:20], seed=2, **TINY, **switches)
    with torch.no_grad():
        weight = translator.model.projection.weight
        weight.copy_(torch.randn(weight.shape, generator=torch.Generator().manual_seed(4)))
    return translator


@pytest.fixture(scope="module", params=["bundled", "pre-norm, learned positions", "marian"])
def translator(request, tmp_path_factory) -> Translator:
    if request.param == "bundled":
        return load_checkpoint(ASSETS / "model.safetensors")
    if request.param == "marian":
        from tests.transformer.marian_folder import write_marian_folder
        from transformer.opening import open_marian

        folder = tmp_path_factory.mktemp("marian")
        write_marian_folder(folder, seed=2, d_model=32, heads=4, layers=2)
        return open_marian(folder)
    return _noisy(norm="pre", pe="learned")


def test_every_step_s_logits_equal_the_whole_prefix_s(translator):
    model, vocab = translator.model, translator.tgt_vocab
    for sentence in SOURCES:
        enc = translator.encode_source(sentence)[0]
        with evaluating(model):
            memory = model.encoder(enc)
            cache = DecoderCache.start(model, enc, memory)
            dec = torch.full((1, 1), start_id(model, vocab))
            for _ in range(12):
                full = next_logits(model, dec, enc, memory, vocab)  # (1, V): the decoder on the whole prefix
                step = cached_logits(model, dec, cache, vocab)  # (1, V): its last token alone
                finite = full.isfinite()
                assert torch.equal(finite, step.isfinite())
                torch.testing.assert_close(step[finite], full[finite], rtol=1e-5, atol=1e-5)
                dec = torch.cat([dec, full.argmax(-1, keepdim=True)], dim=1)


def test_translations_beams_and_batches_are_those_of_the_whole_prefix(translator):
    """return_attn=True runs the decoder on the whole prefix (its maps are drawn); without, one token per step."""
    model, vocab = translator.model, translator.tgt_vocab
    for sentence in SOURCES:
        enc = translator.encode_source(sentence)[0]
        with_maps, without = greedy_decode(model, enc, vocab, 20, True), greedy_decode(model, enc, vocab, 20, False)
        assert without.tokens == with_maps.tokens and without.stop_reason == with_maps.stop_reason
        for a, b in zip(without.steps, with_maps.steps):
            torch.testing.assert_close(a.probs, b.probs, rtol=1e-5, atol=1e-6)
        beams = beam_search(model, enc, vocab, 3, 0.6, 12)
        assert beams.best.tokens  # beam search without maps: its best, checked against greedy's below
    enc_inputs = translator.make_batch([(s, "") for s in SOURCES]).enc_inputs
    batched = greedy_batch(model, enc_inputs, vocab, max_len=20)
    alone = [greedy_decode(model, translator.encode_source(s)[0], vocab, 20, True) for s in SOURCES]
    assert [h.tokens for h in batched] == [list(t.tokens) for t in alone]


def test_a_translation_without_maps_runs_the_decoder_layers_on_one_token_per_step():
    translator = load_checkpoint(ASSETS / "model.safetensors")
    lengths = []
    layer = translator.model.decoder.layers[0].pos_ffn
    hook = layer.register_forward_hook(lambda module, args, out: lengths.append(out.size(1)))
    try:
        result = translator.translate("我有一只猫和一只狗", return_attn=False)
    finally:
        hook.remove()
    assert len(lengths) == len(result.steps) > 3 and set(lengths) == {1}


def test_attention_maps_are_the_forward_pass_s_without_computing_logits(translator):
    """A page's maps of many pairs (the Attention page studies 200) skip the logits: with a 65,001-token vocabulary
    they were most of the time and gigabytes of memory."""
    batch = translator.make_batch([(s, "a b") for s in SOURCES])
    calls = []
    hook = translator.model.projection.register_forward_hook(lambda module, args, out: calls.append(out.shape))
    try:
        maps = translator.attention_maps(batch.enc_inputs, batch.dec_inputs)
    finally:
        hook.remove()
    assert calls == []
    with evaluating(translator.model), torch.no_grad():
        _, full = translator.model(batch.enc_inputs, batch.dec_inputs, return_attn=True)
    for name, tensors in vars(full).items():
        assert all(torch.equal(a, b) for a, b in zip(getattr(maps, name), tensors)), name
