"""The encoder–decoder Transformer of "Attention Is All You Need", batch-first, with switches for experiments.

The defaults are the paper's post-norm architecture, with three details as in the tutorials rather than as in the
paper: the embeddings are not multiplied by √d_model, the output projection has weights of its own (the paper ties
it to the embeddings), and training uses no label smoothing (the paper's ε = 0.1). The first two are the config's
emb_scale and tie_output, the third TrainConfig's label_smoothing. TransformerConfig's switches take
out a mask, the positional encoding, the 1/√d_k scaling, the residuals or the LayerNorm, or move the LayerNorm before
each sublayer.

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
from .masks import get_attn_pad_mask, get_attn_subsequence_mask


def positional_encoding(positions: torch.Tensor, d_model: int, layout: str = "interleaved") -> torch.Tensor:
    """[len(positions), d_model] for any real positions: PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),
    PE(pos, 2i+1) = cos(same). The model only ever uses whole positions 0, 1, 2, …

    layout "halves" (Marian's) holds the same sines and cosines, the sines first: PE(pos, i) = sin(pos / 10000^(2i/D))
    for i < ⌈D/2⌉, then the cosines, computed in float64 as Hugging Face's MarianSinusoidalPositionalEmbedding."""
    if layout == "halves":
        i = torch.arange((d_model + 1) // 2, dtype=torch.float64)  # (⌈D/2⌉,)
        angles = positions.to(torch.float64).unsqueeze(1) / 10000 ** (2 * i / d_model)  # (L, ⌈D/2⌉)
        return torch.cat([torch.sin(angles), torch.cos(angles[:, : d_model // 2])], dim=1).float()  # (L, D)
    position = positions.to(torch.float32).unsqueeze(1)  # (L, 1)
    div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    table = torch.zeros(len(positions), d_model)
    table[:, 0::2] = torch.sin(position * div_term)  # (L, ceil(D/2))
    table[:, 1::2] = torch.cos(position * div_term[: d_model // 2])  # (L, floor(D/2))
    return table


def positional_encoding_table(max_len: int, d_model: int, layout: str = "interleaved") -> torch.Tensor:
    """[max_len, d_model]: the sinusoidal encoding of positions 0 … max_len − 1, in either layout."""
    return positional_encoding(torch.arange(max_len), d_model, layout)


def pe_similarity_by_distance(d_model: int, n: int) -> torch.Tensor:
    """[n]: PE_0 · PE_k for the distances k = 0 … n − 1.

    For even d_model this is Σ_i cos(k·ω_i), the dot product of any two positions k apart, whatever they are;
    it is largest (d_model / 2) at k = 0. With odd d_model the last sin dimension has no cos partner and adds a
    tiny term that also depends on the positions themselves.
    """
    table = positional_encoding_table(n, d_model)  # (n, D)
    return table @ table[0]  # (n,)


def rising_distances(similarity) -> list[int]:
    """The distances k ≥ 1 at which similarity[k] is larger than similarity[k − 1]: where it rises again."""
    values = [float(v) for v in similarity]
    return [k for k in range(1, len(values)) if values[k] > values[k - 1]]


def wavelengths(d_model: int) -> list[float]:
    """The wavelength 2π·10000^(2i/d_model) of each sin/cos dimension pair i."""
    return [2 * math.pi * 10000 ** (2 * i / d_model) for i in range(0, (d_model + 1) // 2)]


def _dropout(p: float) -> nn.Module:
    """Dropout, or nothing at all when p is 0 (even p=0 dropout draws a random mask in training)."""
    return nn.Dropout(p) if p > 0 else nn.Identity()


class Recorder:
    """Where a forward pass reports its intermediates, one call per step: rec(module, name, tensor) → tensor.

    This base records nothing (and is falsy, so the model keeps its fast path); transformer.trace.Trace records
    every step with the module it happened in and the line of code that computed it.
    """

    def __call__(self, module: nn.Module, name: str, tensor: torch.Tensor) -> torch.Tensor:
        return tensor

    def __bool__(self) -> bool:
        return False


NO_RECORD = Recorder()


class PositionalEncoding(nn.Module):
    """Adds position information to token embeddings: the fixed sinusoidal table, a learned table, or nothing."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.kind, self.max_len = cfg.pe, cfg.max_len
        self.dropout = _dropout(cfg.dropout)
        if cfg.pe == "sinusoidal":
            table = positional_encoding_table(cfg.max_len, cfg.d_model, cfg.pe_layout)
            self.register_buffer("pe", table, persistent=False)
        elif cfg.pe == "learned":  # one trained vector per position, initialised like the token embeddings
            self.pe = nn.Parameter(torch.randn(cfg.max_len, cfg.d_model))

    def table(self) -> torch.Tensor | None:
        """The [max_len, d_model] table added to the embeddings, or None when the model has no positional encoding."""
        return None if self.kind == "none" else self.pe.detach()

    def forward(self, x: torch.Tensor, rec: Recorder = NO_RECORD) -> torch.Tensor:  # x: (B, L, D)
        if x.size(1) > self.max_len:
            raise ValueError(f"sequence of {x.size(1)} tokens is longer than max_len={self.max_len}")
        if self.kind == "none":
            return self.dropout(x)
        return self.dropout(x + rec(self, "pe", self.pe[: x.size(1)]))  # (B, L, D) + (L, D)


@dataclass(frozen=True)
class AttentionKind:
    """One kind of attention of the model: whose positions ask (rows), whose are looked at (columns), what is blocked.

    The three kinds are the table ATTENTION_KINDS below; every page, chart and statistic reads a kind from it.
    """

    name: str  # enc_self, dec_self or dec_enc: the prefix of its AttentionMaps fields, and its value in a link
    queries: str  # "src" (enc_inputs) or "tgt" (dec_inputs): the side whose positions are the rows
    keys: str  # the side whose positions are the columns
    masks: tuple[str, ...]  # the TransformerConfig switches of the masks it applies: pad_mask, look_ahead_mask
    statistic: str  # the head statistic (transformer.heads) that finds its typical head
    label: str  # the UI string key of its name

    @property
    def module(self) -> str:
        """The attribute of its MultiHeadAttention in an encoder or decoder layer, e.g. dec_enc_attn."""
        return f"{self.name}_attn"

    @property
    def keys_hold_special(self) -> bool:
        """Whether its keys can hold S or E: target-side inputs start with S; the source holds neither."""
        return self.keys == "tgt"

    @property
    def crosses(self) -> bool:
        """Whether its rows and columns are different sentences (the decoder looking at the source)."""
        return self.queries != self.keys

    def sides(self, src, tgt) -> tuple:
        """(the query side's, the key side's) of anything given once per side: ids, tokens, lengths."""
        side = {"src": src, "tgt": tgt}
        return side[self.queries], side[self.keys]

    def mask(self, cfg: TransformerConfig, enc_inputs: torch.Tensor, dec_inputs: torch.Tensor) -> torch.Tensor | None:
        """[B, Lq, Lk] True where a model with cfg's switches blocks a key (padding OR look-ahead); None if nothing."""
        queries, keys = self.sides(enc_inputs, dec_inputs)
        blocked = None
        if "pad_mask" in self.masks and cfg.pad_mask:
            blocked = get_attn_pad_mask(queries, keys)  # (B, Lq, Lk)
        if "look_ahead_mask" in self.masks and cfg.look_ahead_mask:
            future = get_attn_subsequence_mask(queries)  # (B, Lq, Lq), Lq = Lk
            blocked = future if blocked is None else blocked | future
        return blocked


ENC_SELF = AttentionKind("enc_self", "src", "src", ("pad_mask",), "previous", "attn.enc_self")
DEC_SELF = AttentionKind("dec_self", "tgt", "tgt", ("pad_mask", "look_ahead_mask"), "previous", "attn.dec_self")
DEC_ENC = AttentionKind("dec_enc", "tgt", "src", ("pad_mask",), "diagonal", "attn.dec_enc")
ATTENTION_KINDS = {kind.name: kind for kind in (ENC_SELF, DEC_SELF, DEC_ENC)}  # name → kind, in the model's order


def attention_kind(kind: AttentionKind | str) -> AttentionKind:
    """The kind itself, or the kind of that name (a link's value); ValueError for any other name."""
    if isinstance(kind, AttentionKind):
        return kind
    if kind not in ATTENTION_KINDS:
        raise ValueError(f"kind must be one of {', '.join(ATTENTION_KINDS)}, got {kind!r}.")
    return ATTENTION_KINDS[kind]


@dataclass
class AttentionMaps:
    """Every attention map of one forward pass, per layer; filled only when asked for."""

    enc_self_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (B, H, Ls, Ls)
    dec_self_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (B, H, Lt, Lt)
    dec_enc_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (B, H, Lt, Ls)
    enc_self_scores: list[torch.Tensor] = field(default_factory=list)  # scaled scores before masking
    dec_self_scores: list[torch.Tensor] = field(default_factory=list)
    dec_enc_scores: list[torch.Tensor] = field(default_factory=list)

    def of(self, kind: AttentionKind | str) -> list[torch.Tensor]:
        """The weights of one kind, [layer] (B, H, Lq, Lk)."""
        return getattr(self, f"{attention_kind(kind).name}_attns")

    def scores_of(self, kind: AttentionKind | str) -> list[torch.Tensor]:
        """The scaled scores of one kind before masking, [layer] (B, H, Lq, Lk)."""
        return getattr(self, f"{attention_kind(kind).name}_scores")

    def pair(self, b: int, ls: int, lt: int) -> AttentionMaps:
        """The maps of batch row b alone (a batch of 1), cut to its ls source and lt target positions."""
        cut = {}
        for kind in ATTENTION_KINDS.values():
            lq, lk = kind.sides(ls, lt)
            cut[f"{kind.name}_attns"] = [m[b : b + 1, :, :lq, :lk] for m in self.of(kind)]  # (1, H, Lq, Lk)
            cut[f"{kind.name}_scores"] = [m[b : b + 1, :, :lq, :lk] for m in self.scores_of(kind)]
        return AttentionMaps(**cut)


def scaled_dot_product_attention(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    attn_mask: torch.Tensor | None,
    dropout: float = 0.0,
    scale: bool = True,
    rec: Recorder = NO_RECORD,
    module: nn.Module | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """softmax(QKᵀ/√d_k with blocked scores set to −∞)·V; returns (context, weights, scores before masking).

    attn_mask (B, 1, Lq, Lk) is True where blocked; scale=False leaves out the division by √d_k.
    """
    sqrt_d_k = math.sqrt(Q.size(-1)) if scale else 1.0
    scores = rec(module, "scores", Q @ K.transpose(-1, -2) / sqrt_d_k)  # (B, H, Lq, Lk)
    masked = scores if attn_mask is None else rec(module, "scores (masked)", scores.masked_fill(attn_mask, -math.inf))
    attn = rec(module, "attn", torch.softmax(masked, dim=-1))  # (B, H, Lq, Lk)
    context = rec(module, "context", (F.dropout(attn, dropout) if dropout else attn) @ V)  # (B, H, Lq, d_v)
    return context, attn, scores


class MultiHeadAttention(nn.Module):
    """Projects to H heads, attends, concatenates, projects back; fused kernel unless maps or a record are wanted."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.n_heads, self.d_k, self.d_v = cfg.n_heads, cfg.d_k, cfg.d_v
        self.dropout, self.scale = cfg.dropout, cfg.scale
        self.W_Q = nn.Linear(cfg.d_model, cfg.n_heads * cfg.d_k)
        self.W_K = nn.Linear(cfg.d_model, cfg.n_heads * cfg.d_k)
        self.W_V = nn.Linear(cfg.d_model, cfg.n_heads * cfg.d_v)
        self.fc = nn.Linear(cfg.n_heads * cfg.d_v, cfg.d_model)

    def forward(self, input_Q, input_K, input_V, attn_mask, return_attn: bool = False, rec: Recorder = NO_RECORD):
        """(output (B, Lq, D), weights (B, H, Lq, Lk) or None, scores or None); attn_mask (B, Lq, Lk) True = blocked,
        or None when nothing is blocked."""
        B, H = input_Q.size(0), self.n_heads
        Q = rec(self, "Q", self.W_Q(input_Q).view(B, -1, H, self.d_k).transpose(1, 2))  # (B, H, Lq, d_k)
        K = rec(self, "K", self.W_K(input_K).view(B, -1, H, self.d_k).transpose(1, 2))  # (B, H, Lk, d_k)
        V = rec(self, "V", self.W_V(input_V).view(B, -1, H, self.d_v).transpose(1, 2))  # (B, H, Lk, d_v)
        mask = None if attn_mask is None else rec(self, "attn_mask", attn_mask.unsqueeze(1))  # (B, 1, Lq, Lk)
        p = self.dropout if self.training else 0.0
        if return_attn or rec:
            context, attn, scores = scaled_dot_product_attention(Q, K, V, mask, p, self.scale, rec, self)
        else:
            keep = None if mask is None else ~mask  # the fused kernel wants True = attend there
            scale = None if self.scale else 1.0  # None: the kernel's own 1/√d_k
            context = F.scaled_dot_product_attention(Q, K, V, attn_mask=keep, dropout_p=p, scale=scale)
            attn = scores = None
        context = rec(self, "context (concatenated)", context.transpose(1, 2).reshape(B, -1, H * self.d_v))
        return rec(self, "output", self.fc(context)), attn, scores  # (B, Lq, H*d_v) → (B, Lq, D)


HIDDEN_STEPS = ("hidden (ReLU)", "hidden (swish)", "hidden (GELU)")  # the hidden layer's step, by activation


class PoswiseFeedForwardNet(nn.Module):
    """Linear → ReLU (or Marian's swish) → Linear, applied to every position alike."""

    def __init__(self, d_model: int, d_ff: int, activation: str = "relu"):
        super().__init__()
        self.fc1 = nn.Linear(d_model, d_ff)
        self.fc2 = nn.Linear(d_ff, d_model)
        self.activation = activation

    def forward(self, x: torch.Tensor, rec: Recorder = NO_RECORD) -> torch.Tensor:
        if self.activation == "swish":  # swish(x) = x·σ(x), torch's SiLU (Marian)
            hidden = rec(self, "hidden (swish)", F.silu(self.fc1(x)))  # (B, L, d_ff)
        elif self.activation == "gelu":
            hidden = rec(self, "hidden (GELU)", F.gelu(self.fc1(x)))  # (B, L, d_ff)
        else:
            hidden = rec(self, "hidden (ReLU)", F.relu(self.fc1(x)))  # (B, L, d_ff)
        return rec(self, "output", self.fc2(hidden))  # (B, L, D)


class AddNorm(nn.Module):
    """Add & Norm around one sublayer: LayerNorm(x + dropout(sublayer(x))) as in the paper (post-norm), or
    x + dropout(sublayer(LayerNorm(x))) (pre-norm); the residual and the LayerNorm can each be switched off."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.placement, self.residual = cfg.norm, cfg.residual
        self.dropout = _dropout(cfg.dropout)
        if cfg.norm != "none":  # nn.LayerNorm(d_model)'s parameters, under the names checkpoints use
            self.weight = nn.Parameter(torch.ones(cfg.d_model))
            self.bias = nn.Parameter(torch.zeros(cfg.d_model))

    def layer_norm(self, x: torch.Tensor) -> torch.Tensor:
        """Each position's vector scaled to mean 0 and variance 1, then by the learned weight and bias."""
        return F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-5)

    def sublayer_input(self, x: torch.Tensor, rec: Recorder = NO_RECORD) -> torch.Tensor:
        """What the sublayer reads: x itself, or LayerNorm(x) in a pre-norm model."""
        return rec(self, "LayerNorm", self.layer_norm(x)) if self.placement == "pre" else x

    def forward(self, x: torch.Tensor, out: torch.Tensor, rec: Recorder = NO_RECORD) -> torch.Tensor:
        """The layer's new x from its old x and the sublayer's output."""
        out = self.dropout(out)
        if self.residual:
            out = rec(self, "output + residual", x + out)  # (B, L, D)
        if self.placement == "post":
            out = rec(self, "LayerNorm", self.layer_norm(out))  # (B, L, D)
        return out


class EncoderLayer(nn.Module):
    """Self-attention and feed-forward, each wrapped in Add & Norm."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.enc_self_attn = MultiHeadAttention(cfg)
        self.pos_ffn = PoswiseFeedForwardNet(cfg.d_model, cfg.d_ff, cfg.activation)
        self.norm1 = AddNorm(cfg)
        self.norm2 = AddNorm(cfg)

    def forward(self, x, enc_self_attn_mask, return_attn=False, rec: Recorder = NO_RECORD):
        h = self.norm1.sublayer_input(x, rec)
        out, attn, scores = self.enc_self_attn(h, h, h, enc_self_attn_mask, return_attn, rec)
        x = self.norm1(x, out, rec)  # (B, Ls, D)
        x = self.norm2(x, self.pos_ffn(self.norm2.sublayer_input(x, rec), rec), rec)  # (B, Ls, D)
        return x, attn, scores


class DecoderLayer(nn.Module):
    """Masked self-attention, encoder–decoder attention and feed-forward, each wrapped in Add & Norm."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.dec_self_attn = MultiHeadAttention(cfg)
        self.dec_enc_attn = MultiHeadAttention(cfg)
        self.pos_ffn = PoswiseFeedForwardNet(cfg.d_model, cfg.d_ff, cfg.activation)
        self.norm1 = AddNorm(cfg)
        self.norm2 = AddNorm(cfg)
        self.norm3 = AddNorm(cfg)

    def forward(self, x, memory, dec_self_attn_mask, dec_enc_attn_mask, return_attn=False, rec=NO_RECORD):
        h = self.norm1.sublayer_input(x, rec)
        out, self_attn, self_scores = self.dec_self_attn(h, h, h, dec_self_attn_mask, return_attn, rec)
        x = self.norm1(x, out, rec)  # (B, Lt, D)
        h = self.norm2.sublayer_input(x, rec)
        out, enc_attn, enc_scores = self.dec_enc_attn(h, memory, memory, dec_enc_attn_mask, return_attn, rec)
        x = self.norm2(x, out, rec)  # (B, Lt, D)
        x = self.norm3(x, self.pos_ffn(self.norm3.sublayer_input(x, rec), rec), rec)  # (B, Lt, D)
        return x, (self_attn, self_scores, enc_attn, enc_scores)


def _final_norm(cfg: TransformerConfig) -> nn.Module | None:
    """A pre-norm stack ends with one more LayerNorm (its last residual sum is never normalised otherwise)."""
    return nn.LayerNorm(cfg.d_model) if cfg.norm == "pre" else None


class Encoder(nn.Module):
    """Source embedding + positional encoding, then n_layers encoder layers."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.pad_mask, self.pad_id = cfg.pad_mask, cfg.pad_id
        self.src_emb = nn.Embedding(cfg.src_vocab_size, cfg.d_model)
        self.emb_factor = math.sqrt(cfg.d_model) if cfg.emb_scale else 1.0  # the paper's √d_model, or 1
        self.pos_emb = PositionalEncoding(cfg)
        self.layers = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.n_layers))
        self.final_norm = _final_norm(cfg)

    def forward(self, enc_inputs, maps: AttentionMaps | None = None, rec: Recorder = NO_RECORD):
        """memory (B, Ls, D) from enc_inputs (B, Ls); fills maps when given."""
        enc_inputs = rec(self, "enc_inputs", enc_inputs)  # (B, Ls) token ids
        enc_outputs = rec(self.src_emb, "enc_outputs", self.src_emb(enc_inputs) * self.emb_factor)  # (B, Ls, D)
        enc_outputs = rec(self.pos_emb, "enc_outputs", self.pos_emb(enc_outputs, rec))  # (B, Ls, D)
        mask = None
        if self.pad_mask:
            mask = rec(
                self, "enc_self_attn_mask", get_attn_pad_mask(enc_inputs, enc_inputs, self.pad_id)
            )  # (B, Ls, Ls)
        for layer in self.layers:
            enc_outputs, attn, scores = layer(enc_outputs, mask, maps is not None, rec)
            if maps is not None:
                maps.enc_self_attns.append(attn)
                maps.enc_self_scores.append(scores)
        if self.final_norm is not None:
            enc_outputs = rec(self.final_norm, "LayerNorm", self.final_norm(enc_outputs))
        return enc_outputs


class Decoder(nn.Module):
    """Target embedding + positional encoding, then n_layers decoder layers (n_dec_layers when given)."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.pad_mask, self.look_ahead_mask, self.pad_id = cfg.pad_mask, cfg.look_ahead_mask, cfg.pad_id
        self.starts_with_pad = cfg.decoder_start_id == cfg.pad_id  # Marian: the first input is <pad>, yet no padding
        self.tgt_emb = nn.Embedding(cfg.tgt_vocab_size, cfg.d_model)
        self.emb_factor = math.sqrt(cfg.d_model) if cfg.emb_scale else 1.0  # the paper's √d_model, or 1
        self.pos_emb = PositionalEncoding(cfg)
        self.layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.decoder_layers))
        self.final_norm = _final_norm(cfg)

    def self_attn_mask(self, dec_inputs: torch.Tensor, rec: Recorder = NO_RECORD) -> torch.Tensor | None:
        """[B, Lt, Lt]: padding OR look-ahead, as the switches say; None when neither is on."""
        masks = []
        if self.pad_mask:
            pad = get_attn_pad_mask(dec_inputs, dec_inputs, self.pad_id)  # (B, Lt, Lt)
            if self.starts_with_pad:  # the start token has padding's id but is read: never blocked
                pad = torch.cat([torch.zeros_like(pad[..., :1]), pad[..., 1:]], dim=-1)  # (B, Lt, Lt)
            masks.append(rec(self, "dec_self_attn_pad_mask", pad))
        if self.look_ahead_mask:
            masks.append(rec(self, "dec_self_attn_subsequence_mask", get_attn_subsequence_mask(dec_inputs)))
        if len(masks) == 2:
            return rec(self, "dec_self_attn_mask", masks[0] | masks[1])  # (B, Lt, Lt)
        return masks[0] if masks else None

    def forward(self, dec_inputs, enc_inputs, memory, maps: AttentionMaps | None = None, rec: Recorder = NO_RECORD):
        """hidden states (B, Lt, D) for dec_inputs (B, Lt) attending to memory (B, Ls, D)."""
        dec_inputs = rec(self, "dec_inputs", dec_inputs)  # (B, Lt) token ids
        dec_outputs = rec(self.tgt_emb, "dec_outputs", self.tgt_emb(dec_inputs) * self.emb_factor)  # (B, Lt, D)
        dec_outputs = rec(self.pos_emb, "dec_outputs", self.pos_emb(dec_outputs, rec))  # (B, Lt, D)
        self_mask = self.self_attn_mask(dec_inputs, rec)  # (B, Lt, Lt)
        enc_mask = None
        if self.pad_mask:
            enc_mask = rec(
                self, "dec_enc_attn_mask", get_attn_pad_mask(dec_inputs, enc_inputs, self.pad_id)
            )  # (B, Lt, Ls)
        for layer in self.layers:
            dec_outputs, (self_attn, self_scores, enc_attn, enc_scores) = layer(
                dec_outputs, memory, self_mask, enc_mask, maps is not None, rec
            )
            if maps is not None:
                maps.dec_self_attns.append(self_attn)
                maps.dec_self_scores.append(self_scores)
                maps.dec_enc_attns.append(enc_attn)
                maps.dec_enc_scores.append(enc_scores)
        if self.final_norm is not None:
            dec_outputs = rec(self.final_norm, "LayerNorm", self.final_norm(dec_outputs))
        return dec_outputs


class Transformer(nn.Module):
    """Encoder, decoder and the projection to target-vocabulary logits (plus Marian's logits bias when configured)."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.config = cfg
        self.encoder = Encoder(cfg)
        self.decoder = Decoder(cfg)
        if cfg.share_embeddings:  # one tensor: one vocabulary, the source embedding is the target embedding (V, D)
            self.decoder.tgt_emb.weight = self.encoder.src_emb.weight
        self.projection = nn.Linear(cfg.d_model, cfg.tgt_vocab_size, bias=False)
        if cfg.tie_output:  # one tensor: the target embedding matrix is the projection's weight (V, D)
            self.projection.weight = self.decoder.tgt_emb.weight
        if cfg.logits_bias:  # Marian's final_logits_bias: one learned number per target token, added to its logit
            self.logits_bias = nn.Parameter(torch.zeros(cfg.tgt_vocab_size))

    def logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """The target-vocabulary logits (..., V) of decoder outputs (..., D): the projection, plus the logits bias."""
        logits = self.projection(hidden)  # (..., V)
        return logits + self.logits_bias if self.config.logits_bias else logits

    read_only = False  # True for a model every tab of a process reads (Translator.share): train() refuses it

    def train(self, mode: bool = True) -> Transformer:
        """nn.Module.train; refused (RuntimeError) for a read-only model, which is trained as a copy (own_copy)."""
        if mode and self.read_only:
            raise RuntimeError("this model is shared read-only by every tab: train a copy of it (Translator.own_copy).")
        return super().train(mode)

    def forward(self, enc_inputs, dec_inputs, return_attn: bool = False, rec: Recorder = NO_RECORD):
        """(logits (B, Lt, tgt_vocab), AttentionMaps or None); return_attn=True also records every map, and a
        Recorder (see transformer.trace) receives every intermediate."""
        maps = AttentionMaps() if return_attn else None
        memory = self.encoder(enc_inputs, maps, rec)  # (B, Ls, D)
        hidden = self.decoder(dec_inputs, enc_inputs, memory, maps, rec)  # (B, Lt, D)
        return rec(self.projection, "dec_logits", self.logits(hidden)), maps  # (B, Lt, V)

    def num_parameters(self) -> int:
        """Number of trainable parameters (a tied matrix counted once), frozen or not (a shared model's are)."""
        return sum(p.numel() for p in self.parameters())

    def tied_names(self) -> list[str]:
        """The names of the tensors that are another one (not stored): a shared target embedding, a tied projection."""
        return [
            name
            for name, on in ((SHARED_NAME, self.config.share_embeddings), (TIED_NAME, self.config.tie_output))
            if on
        ]

    def saved_tensors(self) -> dict[str, torch.Tensor]:
        """The state dict as a checkpoint stores it: a tied tensor is not stored twice (it is the embedding)."""
        state = self.state_dict()
        for name in self.tied_names():
            del state[name]
        return state

    def load_saved_tensors(self, tensors: dict[str, torch.Tensor]) -> None:
        """Load what saved_tensors gave (strict: every other name must be there); a tied tensor follows."""
        missing, unexpected = self.load_state_dict(tensors, strict=False)
        if sorted(missing) != sorted(self.tied_names()) or unexpected:
            raise RuntimeError(f"tensors do not match the model: missing {missing}, unexpected {unexpected}")


TIED_NAME = "projection.weight"  # the tensor a model with tie_output shares with decoder.tgt_emb.weight
SHARED_NAME = "decoder.tgt_emb.weight"  # the tensor a model with share_embeddings shares with encoder.src_emb.weight


def parameter_count(cfg: TransformerConfig) -> int:
    """Trainable parameters of a model with this config, counted from the sizes alone (nothing is built)."""
    d, h = cfg.d_model, cfg.n_heads
    attention = 2 * (d * h * cfg.d_k + h * cfg.d_k) + d * h * cfg.d_v + h * cfg.d_v + h * cfg.d_v * d + d
    feed_forward = d * cfg.d_ff + cfg.d_ff + cfg.d_ff * d + d
    norm = 2 * d if cfg.norm != "none" else 0
    encoder_layer = attention + feed_forward + 2 * norm
    decoder_layer = 2 * attention + feed_forward + 3 * norm
    embeddings = (cfg.src_vocab_size + (0 if cfg.share_embeddings else cfg.tgt_vocab_size)) * d
    positions = 2 * cfg.max_len * d if cfg.pe == "learned" else 0
    final_norms = 2 * norm if cfg.norm == "pre" else 0
    layers = cfg.n_layers * encoder_layer + cfg.decoder_layers * decoder_layer
    projection = 0 if cfg.tie_output else d * cfg.tgt_vocab_size
    logits_bias = cfg.tgt_vocab_size if cfg.logits_bias else 0
    return embeddings + positions + layers + final_norms + projection + logits_bias


def buffer_count(cfg: TransformerConfig) -> int:
    """Numbers in the non-persistent buffers of a model with this config (not in checkpoints, built with the model):
    the encoder's and the decoder's sinusoidal tables, max_len × d_model each (a learned table is a parameter)."""
    return 2 * cfg.max_len * cfg.d_model if cfg.pe == "sinusoidal" else 0


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
