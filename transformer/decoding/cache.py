"""Incremental decoding: each step runs the decoder on its newest token only, with the keys and values of the tokens
before it kept from the steps before (a key–value cache), and the encoder–decoder keys and values of the source
computed once. Running the decoder on the whole prefix again at every step does the work of t tokens at step t; this
does one.

It gives the same logits (within float rounding) as the decoder run on the whole prefix: with the look-ahead mask no
position reads a later one, so the hidden states of the earlier tokens do not change when a token is added. The loop
(loop.py) uses it when no attention maps are asked for and the model has the look-ahead mask; a page that draws the
maps of a step gets them from the whole prefix, as before. Shapes: k rows, H heads, t tokens so far, Ls source
length, D d_model.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from ..data import Vocab
from ..model import MultiHeadAttention, Transformer
from .processors import BlockSpecials


def can_cache(model: Transformer) -> bool:
    """Whether the model's decoder can run one token at a time: only when no position reads a later one."""
    return model.config.look_ahead_mask


def _heads(attn: MultiHeadAttention, x: torch.Tensor, d: int) -> torch.Tensor:
    """(k, L, H·d) → (k, H, L, d)."""
    return x.view(x.size(0), -1, attn.n_heads, d).transpose(1, 2)


def _attend(attn: MultiHeadAttention, h: torch.Tensor, K, V, keep: torch.Tensor | None) -> torch.Tensor:
    """attn's output (k, 1, D) for the queries of h (k, 1, D) over keys K and values V (k, H, L, d); keep (k, 1, 1,
    L) True where a key is read, or None."""
    Q = _heads(attn, attn.W_Q(h), attn.d_k)  # (k, H, 1, d_k)
    context = F.scaled_dot_product_attention(Q, K, V, attn_mask=keep, scale=None if attn.scale else 1.0)
    return attn.fc(context.transpose(1, 2).reshape(h.size(0), -1, attn.n_heads * attn.d_v))  # (k, 1, D)


@dataclass
class DecoderCache:
    """What the decoder keeps between steps, per layer: the self-attention keys and values of every token so far,
    and the encoder–decoder keys and values of the source."""

    self_kv: list[tuple[torch.Tensor, torch.Tensor] | None]  # [layer] (k, H, t, d_k), (k, H, t, d_v)
    enc_kv: list[tuple[torch.Tensor, torch.Tensor]]  # [layer] (k, H, Ls, d_k), (k, H, Ls, d_v)
    enc_keep: torch.Tensor | None  # (k, 1, 1, Ls): True where a source position is read (not padding)

    @classmethod
    def start(cls, model: Transformer, enc_input: torch.Tensor, memory: torch.Tensor) -> DecoderCache:
        """An empty cache for the rows of enc_input (k, Ls) and their memory (k, Ls, D)."""
        enc_kv = []
        for layer in model.decoder.layers:
            attn = layer.dec_enc_attn
            enc_kv.append((_heads(attn, attn.W_K(memory), attn.d_k), _heads(attn, attn.W_V(memory), attn.d_v)))
        keep = enc_input.ne(model.config.pad_id)[:, None, None, :] if model.config.pad_mask else None
        return cls([None] * len(enc_kv), enc_kv, keep)

    def reorder(self, parents: torch.Tensor) -> None:
        """Keep the rows the next step continues: row i of the next step is row parents[i] of this one."""
        if parents.size(0) == self.enc_kv[0][0].size(0) and bool(
            parents.eq(torch.arange(parents.size(0), device=parents.device)).all()
        ):
            return  # every row goes on in its place (greedy decoding): nothing to copy
        self.self_kv = [(k[parents], v[parents]) for k, v in self.self_kv]
        self.enc_kv = [(k[parents], v[parents]) for k, v in self.enc_kv]
        self.enc_keep = None if self.enc_keep is None else self.enc_keep[parents]


def cached_logits(model: Transformer, dec: torch.Tensor, cache: DecoderCache, tgt_vocab: Vocab) -> torch.Tensor:
    """next_logits (step.py) of dec (k, t), computed on its last token alone with the cache of the t − 1 before it
    (which it extends): float logits (k, V) of the next token, P and S blocked."""
    decoder, position = model.decoder, dec.size(1) - 1
    x = decoder.tgt_emb(dec[:, -1:]) * decoder.emb_factor  # (k, 1, D)
    if decoder.pos_emb.kind != "none":
        x = x + decoder.pos_emb.pe[position]  # (k, 1, D) + (D,)
    for i, layer in enumerate(decoder.layers):
        attn = layer.dec_self_attn
        h = layer.norm1.sublayer_input(x)
        K, V = _heads(attn, attn.W_K(h), attn.d_k), _heads(attn, attn.W_V(h), attn.d_v)  # (k, H, 1, d)
        if cache.self_kv[i] is not None:
            K, V = torch.cat([cache.self_kv[i][0], K], dim=2), torch.cat([cache.self_kv[i][1], V], dim=2)
        cache.self_kv[i] = (K, V)  # (k, H, t, d)
        x = layer.norm1(x, _attend(attn, h, K, V, None))  # the start token is read (as the full pass reads it)
        x = layer.norm2(x, _attend(layer.dec_enc_attn, layer.norm2.sublayer_input(x), *cache.enc_kv[i], cache.enc_keep))
        x = layer.norm3(x, layer.pos_ffn(layer.norm3.sublayer_input(x)))  # (k, 1, D)
    if decoder.final_norm is not None:
        x = decoder.final_norm(x)
    return BlockSpecials(tgt_vocab)(model.logits(x[:, -1]).float(), dec.size(1))  # (k, V)
