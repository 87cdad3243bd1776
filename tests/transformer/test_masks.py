"""Attention masks (True = blocked), checked against the seed tutorial's tensors."""

from __future__ import annotations

import torch

from transformer import get_attn_pad_mask, get_attn_subsequence_mask, get_dec_enc_attn_mask, get_dec_self_attn_mask

ENC = torch.tensor([[1, 2, 3, 4, 0]])
DEC = torch.tensor([[4, 1, 2, 3, 6, 0]])


def assert_blocks_only_the_last_key(mask, shape):
    """mask is boolean, of shape [batch, Lq, Lk], and blocks the last key (ENC's padding) for every query only."""
    assert mask.dtype == torch.bool
    assert mask.shape == shape
    expected = torch.zeros(*shape, dtype=torch.bool)
    expected[:, :, -1] = True
    assert torch.equal(mask, expected)


def test_pad_mask_blocks_only_the_padding_key_column():
    assert_blocks_only_the_last_key(get_attn_pad_mask(ENC, ENC), (1, 5, 5))


def test_pad_mask_follows_each_row_of_a_batch():
    keys = torch.tensor([[5, 6, 0, 0], [5, 6, 7, 8]])
    queries = torch.tensor([[1, 2, 3], [1, 2, 0]])
    mask = get_attn_pad_mask(queries, keys)
    assert mask.shape == (2, 3, 4)
    assert mask[0].tolist() == [[False, False, True, True]] * 3
    assert not mask[1].any()  # padding in the queries does not block anything


def test_subsequence_mask_is_the_strict_upper_triangle():
    mask = get_attn_subsequence_mask(DEC)
    assert mask.dtype == torch.bool
    assert mask.shape == (1, 6, 6)
    expected = torch.ones(6, 6, dtype=torch.bool).triu(diagonal=1)
    assert torch.equal(mask[0], expected)
    assert not mask[0].diagonal().any()  # every position may look at itself


def test_dec_self_mask_is_padding_or_look_ahead():
    mask = get_dec_self_attn_mask(DEC)
    assert mask.dtype == torch.bool
    assert mask.shape == (1, 6, 6)
    expected = torch.ones(6, 6, dtype=torch.bool).triu(diagonal=1)
    expected[:, -1] = True  # the last decoder input is padding
    assert torch.equal(mask[0], expected)
    assert torch.equal(mask, get_attn_pad_mask(DEC, DEC) | get_attn_subsequence_mask(DEC))


def test_dec_enc_mask_blocks_the_source_padding_for_every_target_position():
    assert_blocks_only_the_last_key(get_dec_enc_attn_mask(DEC, ENC), (1, 6, 5))
