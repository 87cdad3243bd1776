"""Attention masks. Convention, said once: True = blocked (this query may not look at this key)."""

import torch

from .data import PAD_ID


def get_attn_pad_mask(seq_q: torch.Tensor, seq_k: torch.Tensor, pad_id: int = PAD_ID) -> torch.Tensor:
    """[B, Lq, Lk]: True where the key is padding."""
    len_q = seq_q.size(1)
    return seq_k.eq(pad_id).unsqueeze(1).expand(-1, len_q, -1)  # (B, Lq, Lk)


def get_attn_subsequence_mask(seq: torch.Tensor) -> torch.Tensor:
    """[B, L, L]: True above the diagonal, so position i cannot see positions after i (look-ahead mask)."""
    batch, length = seq.shape
    future = torch.ones(length, length, dtype=torch.bool, device=seq.device).triu(diagonal=1)  # (L, L)
    return future.expand(batch, -1, -1)  # (B, L, L)


def get_dec_self_attn_mask(dec_inputs: torch.Tensor) -> torch.Tensor:
    """[B, Lt, Lt]: the decoder self-attention mask, padding OR look-ahead."""
    return get_attn_pad_mask(dec_inputs, dec_inputs) | get_attn_subsequence_mask(dec_inputs)


def get_dec_enc_attn_mask(dec_inputs: torch.Tensor, enc_inputs: torch.Tensor) -> torch.Tensor:
    """[B, Lt, Ls]: the encoder–decoder (cross) attention mask, True where the source key is padding."""
    return get_attn_pad_mask(dec_inputs, enc_inputs)
