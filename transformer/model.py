"""The encoder–decoder Transformer of "Attention Is All You Need", post-norm, batch-first.

Shapes: B batch, H heads, Ls source length, Lt target length, D d_model.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import nn

from .config import TransformerConfig
from .masks import get_attn_pad_mask, get_dec_enc_attn_mask, get_dec_self_attn_mask


def positional_encoding_table(max_len: int, d_model: int) -> torch.Tensor:
    """[max_len, d_model]: PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(same)."""
    position = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)  # (L, 1)
    div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    table = torch.zeros(max_len, d_model)
    table[:, 0::2] = torch.sin(position * div_term)  # (L, ceil(D/2))
    table[:, 1::2] = torch.cos(position * div_term[: d_model // 2])  # (L, floor(D/2))
    return table


def wavelengths(d_model: int) -> list[float]:
    """The wavelength 2π·10000^(2i/d_model) of each sin/cos dimension pair i."""
    return [2 * math.pi * 10000 ** (2 * i / d_model) for i in range(0, (d_model + 1) // 2)]


def _dropout(p: float) -> nn.Module:
    """Dropout, or nothing at all when p is 0 (even p=0 dropout draws a random mask in training)."""
    return nn.Dropout(p) if p > 0 else nn.Identity()


class PositionalEncoding(nn.Module):
    """Adds the fixed sinusoidal table to token embeddings, then dropout."""

    def __init__(self, d_model: int, max_len: int, dropout: float):
        super().__init__()
        self.dropout = _dropout(dropout)
        self.register_buffer("pe", positional_encoding_table(max_len, d_model), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (B, L, D)
        if x.size(1) > self.pe.size(0):
            raise ValueError(f"sequence of {x.size(1)} tokens is longer than max_len={self.pe.size(0)}")
        return self.dropout(x + self.pe[: x.size(1)])  # (B, L, D)


@dataclass
class AttentionMaps:
    """Every attention map of one forward pass, per layer; filled only when asked for."""

    enc_self_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (B, H, Ls, Ls)
    dec_self_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (B, H, Lt, Lt)
    dec_enc_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (B, H, Lt, Ls)
    enc_self_scores: list[torch.Tensor] = field(default_factory=list)  # scaled scores before masking
    dec_self_scores: list[torch.Tensor] = field(default_factory=list)
    dec_enc_scores: list[torch.Tensor] = field(default_factory=list)


def scaled_dot_product_attention(
    Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, attn_mask: torch.Tensor | None, dropout: float = 0.0
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """softmax(QKᵀ/√d_k with blocked scores set to −∞)·V; returns (context, weights, scaled scores)."""
    scores = Q @ K.transpose(-1, -2) / math.sqrt(Q.size(-1))  # (B, H, Lq, Lk)
    masked = scores if attn_mask is None else scores.masked_fill(attn_mask, float("-inf"))
    attn = torch.softmax(masked, dim=-1)  # (B, H, Lq, Lk)
    context = F.dropout(attn, dropout) @ V if dropout else attn @ V  # (B, H, Lq, d_v)
    return context, attn, scores


class MultiHeadAttention(nn.Module):
    """Projects to H heads, attends, concatenates, projects back; fused kernel unless maps are wanted."""

    def __init__(self, d_model: int, n_heads: int, d_k: int, d_v: int, dropout: float):
        super().__init__()
        self.n_heads, self.d_k, self.d_v, self.dropout = n_heads, d_k, d_v, dropout
        self.W_Q = nn.Linear(d_model, n_heads * d_k)
        self.W_K = nn.Linear(d_model, n_heads * d_k)
        self.W_V = nn.Linear(d_model, n_heads * d_v)
        self.fc = nn.Linear(n_heads * d_v, d_model)

    def forward(self, input_Q, input_K, input_V, attn_mask, return_attn: bool = False):
        """(output (B, Lq, D), weights (B, H, Lq, Lk) or None, scores or None); attn_mask True = blocked."""
        B, H = input_Q.size(0), self.n_heads
        Q = self.W_Q(input_Q).view(B, -1, H, self.d_k).transpose(1, 2)  # (B, H, Lq, d_k)
        K = self.W_K(input_K).view(B, -1, H, self.d_k).transpose(1, 2)  # (B, H, Lk, d_k)
        V = self.W_V(input_V).view(B, -1, H, self.d_v).transpose(1, 2)  # (B, H, Lk, d_v)
        mask = attn_mask.unsqueeze(1)  # (B, 1, Lq, Lk), broadcast over heads
        p = self.dropout if self.training else 0.0
        if return_attn:
            context, attn, scores = scaled_dot_product_attention(Q, K, V, mask, p)
        else:
            context = F.scaled_dot_product_attention(Q, K, V, attn_mask=~mask, dropout_p=p)  # True = attend there
            attn = scores = None
        context = context.transpose(1, 2).reshape(B, -1, H * self.d_v)  # (B, Lq, H*d_v)
        return self.fc(context), attn, scores


class PoswiseFeedForwardNet(nn.Module):
    """Linear → ReLU → Linear, applied to every position alike."""

    def __init__(self, d_model: int, d_ff: int):
        super().__init__()
        self.fc1 = nn.Linear(d_model, d_ff)
        self.fc2 = nn.Linear(d_ff, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(F.relu(self.fc1(x)))


class EncoderLayer(nn.Module):
    """Self-attention and feed-forward, each as LayerNorm(x + dropout(sublayer(x)))."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.enc_self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.d_k, cfg.d_v, cfg.dropout)
        self.pos_ffn = PoswiseFeedForwardNet(cfg.d_model, cfg.d_ff)
        self.norm1 = nn.LayerNorm(cfg.d_model)
        self.norm2 = nn.LayerNorm(cfg.d_model)
        self.dropout = _dropout(cfg.dropout)

    def forward(self, x, enc_self_attn_mask, return_attn=False):
        out, attn, scores = self.enc_self_attn(x, x, x, enc_self_attn_mask, return_attn)
        x = self.norm1(x + self.dropout(out))  # (B, Ls, D)
        x = self.norm2(x + self.dropout(self.pos_ffn(x)))  # (B, Ls, D)
        return x, attn, scores


class DecoderLayer(nn.Module):
    """Masked self-attention, encoder–decoder attention and feed-forward, each post-norm."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.dec_self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.d_k, cfg.d_v, cfg.dropout)
        self.dec_enc_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads, cfg.d_k, cfg.d_v, cfg.dropout)
        self.pos_ffn = PoswiseFeedForwardNet(cfg.d_model, cfg.d_ff)
        self.norm1 = nn.LayerNorm(cfg.d_model)
        self.norm2 = nn.LayerNorm(cfg.d_model)
        self.norm3 = nn.LayerNorm(cfg.d_model)
        self.dropout = _dropout(cfg.dropout)

    def forward(self, x, memory, dec_self_attn_mask, dec_enc_attn_mask, return_attn=False):
        out, self_attn, self_scores = self.dec_self_attn(x, x, x, dec_self_attn_mask, return_attn)
        x = self.norm1(x + self.dropout(out))  # (B, Lt, D)
        out, enc_attn, enc_scores = self.dec_enc_attn(x, memory, memory, dec_enc_attn_mask, return_attn)
        x = self.norm2(x + self.dropout(out))  # (B, Lt, D)
        x = self.norm3(x + self.dropout(self.pos_ffn(x)))  # (B, Lt, D)
        return x, (self_attn, self_scores, enc_attn, enc_scores)


class Encoder(nn.Module):
    """Source embedding + positional encoding, then n_layers encoder layers."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.src_emb = nn.Embedding(cfg.src_vocab_size, cfg.d_model)
        self.pos_emb = PositionalEncoding(cfg.d_model, cfg.max_len, cfg.dropout)
        self.layers = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.n_layers))

    def forward(self, enc_inputs, maps: AttentionMaps | None = None):
        """memory (B, Ls, D) from enc_inputs (B, Ls); fills maps when given."""
        x = self.pos_emb(self.src_emb(enc_inputs))  # (B, Ls, D)
        mask = get_attn_pad_mask(enc_inputs, enc_inputs)  # (B, Ls, Ls)
        for layer in self.layers:
            x, attn, scores = layer(x, mask, maps is not None)
            if maps is not None:
                maps.enc_self_attns.append(attn)
                maps.enc_self_scores.append(scores)
        return x


class Decoder(nn.Module):
    """Target embedding + positional encoding, then n_layers decoder layers."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.tgt_emb = nn.Embedding(cfg.tgt_vocab_size, cfg.d_model)
        self.pos_emb = PositionalEncoding(cfg.d_model, cfg.max_len, cfg.dropout)
        self.layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.n_layers))

    def forward(self, dec_inputs, enc_inputs, memory, maps: AttentionMaps | None = None):
        """hidden states (B, Lt, D) for dec_inputs (B, Lt) attending to memory (B, Ls, D)."""
        x = self.pos_emb(self.tgt_emb(dec_inputs))  # (B, Lt, D)
        self_mask = get_dec_self_attn_mask(dec_inputs)  # (B, Lt, Lt)
        enc_mask = get_dec_enc_attn_mask(dec_inputs, enc_inputs)  # (B, Lt, Ls)
        for layer in self.layers:
            x, (self_attn, self_scores, enc_attn, enc_scores) = layer(x, memory, self_mask, enc_mask, maps is not None)
            if maps is not None:
                maps.dec_self_attns.append(self_attn)
                maps.dec_self_scores.append(self_scores)
                maps.dec_enc_attns.append(enc_attn)
                maps.dec_enc_scores.append(enc_scores)
        return x


class Transformer(nn.Module):
    """Encoder, decoder and the projection to target-vocabulary logits."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.config = cfg
        self.encoder = Encoder(cfg)
        self.decoder = Decoder(cfg)
        self.projection = nn.Linear(cfg.d_model, cfg.tgt_vocab_size, bias=False)

    def forward(self, enc_inputs, dec_inputs, return_attn: bool = False):
        """(logits (B, Lt, tgt_vocab), AttentionMaps or None); return_attn=True also records every map."""
        maps = AttentionMaps() if return_attn else None
        memory = self.encoder(enc_inputs, maps)  # (B, Ls, D)
        hidden = self.decoder(dec_inputs, enc_inputs, memory, maps)  # (B, Lt, D)
        return self.projection(hidden), maps  # (B, Lt, V)

    def num_parameters(self) -> int:
        """Number of trainable parameters."""
        return sum(p.numel() for p in self.parameters() if p.requires_grad)


def parameter_count(cfg: TransformerConfig) -> int:
    """Trainable parameters of a model with this config, counted from the sizes alone (nothing is built)."""
    d, h = cfg.d_model, cfg.n_heads
    attention = 2 * (d * h * cfg.d_k + h * cfg.d_k) + d * h * cfg.d_v + h * cfg.d_v + h * cfg.d_v * d + d
    feed_forward = d * cfg.d_ff + cfg.d_ff + cfg.d_ff * d + d
    norm = 2 * d
    encoder_layer = attention + feed_forward + 2 * norm
    decoder_layer = 2 * attention + feed_forward + 3 * norm
    embeddings = (cfg.src_vocab_size + cfg.tgt_vocab_size) * d
    return embeddings + cfg.n_layers * (encoder_layer + decoder_layer) + d * cfg.tgt_vocab_size


def buffer_count(cfg: TransformerConfig) -> int:
    """Numbers in the non-persistent buffers of a model with this config (not in checkpoints, built with the model):
    the encoder's and the decoder's sinusoidal tables, max_len × d_model each."""
    return 2 * cfg.max_len * cfg.d_model


@contextmanager
def evaluating(model: nn.Module) -> Iterator[torch.device]:
    """Eval mode (no dropout) and no gradients inside; the previous mode comes back afterwards. Yields the device."""
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            yield next(model.parameters()).device
    finally:
        model.train(was_training)
