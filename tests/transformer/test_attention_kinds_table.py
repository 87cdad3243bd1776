"""Each record of transformer.model.ATTENTION_KINDS is true to the model: read off a real forward pass (the inputs its
attention module is given, the cells its weights leave at exactly 0, the ids among its keys), not restated."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from transformer import Translator
from transformer.data import BOS, EOS
from transformer.heads import study_maps
from transformer.model import ATTENTION_KINDS, DEC_ENC, DEC_SELF, ENC_SELF, AttentionMaps, attention_kind

KINDS = list(ATTENTION_KINDS.values())
PAIRS = [("我 吃 饭", "I eat rice today"), ("他 喝", "he drinks")]  # 3 and 2 source words, 4 and 2 target words
SWITCHES = [(True, True), (True, False), (False, True), (False, False)]  # (pad_mask, look_ahead_mask)


def translator(pad_mask: bool = True, look_ahead_mask: bool = True) -> Translator:
    """A small untrained model with the given mask switches (weights from seed 0)."""
    sizes = dict(d_model=16, n_heads=2, d_ff=32, n_layers=2, dropout=0.0)
    return Translator.create(PAIRS, pad_mask=pad_mask, look_ahead_mask=look_ahead_mask, **sizes)


def layer_of(model, kind, layer: int = 0):
    """The encoder or decoder layer whose rows are the kind's queries."""
    return (model.encoder if kind.queries == "src" else model.decoder).layers[layer]


def test_links_keep_the_names_of_the_kinds_and_the_maps_their_fields():
    """A link carries a kind's name, and AttentionMaps' fields are the tutorials' names: both stay as they were."""
    assert list(ATTENTION_KINDS) == ["enc_self", "dec_self", "dec_enc"]
    assert [ENC_SELF, DEC_SELF, DEC_ENC] == KINDS
    fields = {f.name for f in dataclasses.fields(AttentionMaps)}
    assert fields == {f"{kind.name}_{what}" for kind in KINDS for what in ("attns", "scores")}
    assert all(attention_kind(kind.name) is kind and attention_kind(kind) is kind for kind in KINDS)
    with pytest.raises(ValueError, match="enc_self, dec_self, dec_enc"):
        attention_kind("enc_dec")


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_the_queries_and_keys_are_the_sides_the_module_is_given(kind):
    """The kind's attention module (layer.<module>) gets its queries from one side and its keys from the other; the
    weights it returns are maps.of(kind)."""
    model = translator().model
    batch = translator().make_batch(PAIRS)
    lengths = {"src": batch.enc_inputs.size(1), "tgt": batch.dec_inputs.size(1)}  # 3 and 5: the sides tell apart
    assert lengths["src"] != lengths["tgt"]
    seen = []
    module = getattr(layer_of(model, kind), kind.module)
    hook = module.register_forward_hook(lambda m, args, out: seen.append((args[0].size(1), args[1].size(1), out[1])))
    try:
        model.eval()
        _, maps = model(batch.enc_inputs, batch.dec_inputs, return_attn=True)
    finally:
        hook.remove()
    (len_q, len_k, weights) = seen[0]
    assert (len_q, len_k) == (lengths[kind.queries], lengths[kind.keys]) == kind.sides(lengths["src"], lengths["tgt"])
    assert torch.equal(weights, maps.of(kind)[0])  # (B, H, Lq, Lk)
    assert kind.crosses == (kind.queries != kind.keys)


@pytest.mark.parametrize("pad_mask, look_ahead_mask", SWITCHES)
@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_the_mask_is_what_the_model_blocks(kind, pad_mask, look_ahead_mask):
    """The cells the model's softmax leaves at exactly 0 (a blocked score is −∞) are kind.mask, in every head and
    layer, for each setting of the switches; the decoder's own self-attention mask agrees."""
    tr = translator(pad_mask, look_ahead_mask)
    batch = tr.make_batch(PAIRS)  # the second pair is padded on both sides
    cfg = tr.config
    maps = tr.attention_maps(batch.enc_inputs, batch.dec_inputs)
    mask = kind.mask(cfg, batch.enc_inputs, batch.dec_inputs)  # (B, Lq, Lk) or None
    for attn in maps.of(kind):  # (B, H, Lq, Lk)
        blocked = attn.eq(0)
        expected = torch.zeros_like(blocked) if mask is None else mask[:, None].expand_as(blocked)
        assert torch.equal(blocked, expected)
    if kind == DEC_SELF:
        own = tr.model.decoder.self_attn_mask(batch.dec_inputs)
        assert (own is None and mask is None) or torch.equal(own, mask)
    assert (mask is None) == (not any(getattr(cfg, switch) for switch in kind.masks))


def test_the_decoders_self_attention_blocks_padding_and_the_future_and_cross_attention_the_source_padding():
    """With both switches on: dec_self blocks what is after the query or padding; dec_enc and enc_self the source's
    padding only (the second pair has 2 of 3 source words and 3 of 5 decoder inputs)."""
    tr = translator()
    batch = tr.make_batch(PAIRS)
    maps = tr.attention_maps(batch.enc_inputs, batch.dec_inputs)
    self_blocked = maps.of(DEC_SELF)[0][1, 0].eq(0)  # (Lt, Lt) of the second pair, head 1
    assert self_blocked.tolist()[0] == [False, True, True, True, True]  # S sees itself only
    assert self_blocked.tolist()[2] == [False, False, False, True, True]  # the last word: padding after it
    assert maps.of(DEC_ENC)[0][1, 0].eq(0).tolist()[0] == [False, False, True]  # the source's padding
    assert maps.of(ENC_SELF)[0][1, 0].eq(0).tolist()[0] == [False, False, True]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_the_keys_hold_S_or_E_only_where_the_record_says(kind):
    tr = translator()
    batch = tr.make_batch(PAIRS)
    _, keys = kind.sides(batch.enc_inputs, batch.dec_inputs)
    vocab = kind.sides(tr.src_vocab, tr.tgt_vocab)[1]
    tokens = {token for row in keys for token in vocab.decode(row)}
    assert bool(tokens & {BOS, EOS}) == kind.keys_hold_special


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_the_default_statistic_is_measured_for_the_kind(kind):
    """The statistic a page shows first has a value for every head of the kind (diagonal: cross-attention only)."""
    tr = translator()
    batch = tr.make_batch(PAIRS)
    maps = tr.attention_maps(batch.enc_inputs, batch.dec_inputs)
    stats = study_maps(maps, batch.enc_inputs, batch.dec_inputs, tr.tgt_vocab).stats[kind.name]
    assert all(getattr(s, kind.statistic) is not None for s in stats)


def test_one_pair_of_a_batch_has_the_maps_it_has_alone():
    """AttentionMaps.pair cuts each kind on its own sides: the second pair, cut out of a padded batch, is what the
    model computes for it alone."""
    tr = translator()
    batch = tr.make_batch(PAIRS)
    together = tr.attention_maps(batch.enc_inputs, batch.dec_inputs)
    one = tr.make_batch(PAIRS[1:])
    alone = tr.attention_maps(one.enc_inputs, one.dec_inputs)
    cut = together.pair(1, one.enc_inputs.size(1), one.dec_inputs.size(1))
    for kind in KINDS:
        for a, b in zip(cut.of(kind), alone.of(kind)):
            assert a.shape == b.shape and torch.allclose(a, b, atol=1e-5)
        assert [s.shape for s in cut.scores_of(kind)] == [s.shape for s in alone.scores_of(kind)]
