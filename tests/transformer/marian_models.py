"""Tiny random Marian models for the tests, built offline from transformers.MarianConfig, every weight and bias drawn
at random (LayerNorms and final_logits_bias included) and saved with save_pretrained; and a vocabulary of Marian's
ids (</s> = 0, <pad> = the last id, decoding starts from <pad>) of what decoding reads, as the vocabulary side will
give it. Hugging Face's model is the reference: it is loaded back from the folder, as the converter reads it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
import torch

transformers = pytest.importorskip("transformers")

EOS = 0  # Marian's </s>


@dataclass(frozen=True)
class Shape:
    """One tiny Marian model's sizes: (vocabulary, d_model, heads, encoder layers, decoder layers, ffn, √d scale)."""

    vocab: int
    d_model: int
    heads: int
    enc_layers: int
    dec_layers: int
    ffn: int
    scale_embedding: bool
    activation: str = "swish"
    seed: int = 0
    eos_bias: float = 0.0  # added to </s>'s logits bias, so that some sentences end before the cap and some do not

    @property
    def id(self) -> str:
        scaled = "scaled" if self.scale_embedding else "unscaled"
        return (
            f"V{self.vocab}-d{self.d_model}-h{self.heads}-{self.enc_layers}+{self.dec_layers}-ff{self.ffn}-{scaled}"
            f"-{self.activation}"
        )


SHAPES = (
    Shape(vocab=40, d_model=16, heads=2, enc_layers=2, dec_layers=1, ffn=32, scale_embedding=True, eos_bias=3),
    Shape(
        vocab=67, d_model=24, heads=3, enc_layers=1, dec_layers=3, ffn=40, scale_embedding=False, seed=1, eos_bias=10
    ),
    Shape(
        vocab=101, d_model=32, heads=8, enc_layers=3, dec_layers=2, ffn=20, scale_embedding=True, seed=2, eos_bias=12
    ),
    Shape(vocab=53, d_model=21, heads=3, enc_layers=2, dec_layers=2, ffn=24, scale_embedding=True, seed=3, eos_bias=10),
    Shape(
        vocab=45,
        d_model=16,
        heads=4,
        enc_layers=1,
        dec_layers=2,
        ffn=16,
        scale_embedding=False,
        activation="relu",
        eos_bias=6,
    ),
)  # the fourth has an odd d_model: Marian's table then has one sine more than cosines
MAX_POSITIONS = 64
ATTENTION_SCALE = 2.5  # larger: sharper softmaxes, where float32 rounding grows past 1e-4


def marian_config(shape: Shape):
    """The MarianConfig of a shape: one shared vocabulary, <pad> its last id, decoding from <pad>, </s> = 0."""
    pad = shape.vocab - 1
    return transformers.MarianConfig(
        vocab_size=shape.vocab,
        d_model=shape.d_model,
        encoder_layers=shape.enc_layers,
        decoder_layers=shape.dec_layers,
        encoder_attention_heads=shape.heads,
        decoder_attention_heads=shape.heads,
        encoder_ffn_dim=shape.ffn,
        decoder_ffn_dim=shape.ffn,
        max_position_embeddings=MAX_POSITIONS,
        activation_function=shape.activation,
        scale_embedding=shape.scale_embedding,
        pad_token_id=pad,
        decoder_start_token_id=pad,
        eos_token_id=EOS,
        forced_eos_token_id=EOS,
        dropout=0.1,
    )


def scale(name: str, shape: Shape) -> float:
    """The spread of a random tensor, chosen so that outputs vary from sentence to sentence (a random model with tied
    embeddings tends to repeat one token): strong attention, a weak feed-forward net, small biases."""
    if any(tied in name for tied in ("shared", "embed_tokens", "lm_head")):  # one tensor under four names
        return 1.0
    if "layer_norm" in name or "final_logits_bias" in name or name.endswith("bias"):
        return 0.1
    return (0.3 if ".fc" in name else ATTENTION_SCALE) / shape.d_model**0.5


def save_random_marian(shape: Shape, folder: Path) -> Path:
    """A MarianMTModel of shape with every saved weight and bias random, written by save_pretrained to folder."""
    torch.manual_seed(shape.seed)
    model = transformers.MarianMTModel(marian_config(shape))
    with torch.no_grad():
        for name, tensor in model.state_dict().items():
            if "embed_positions" in name:  # the sinusoidal tables: fixed, never saved
                continue
            tensor.copy_(torch.randn_like(tensor) * scale(name, shape))
            if "layer_norm.weight" in name:
                tensor.add_(1.0)  # around 1, as a trained LayerNorm's gain, each one different
        model.final_logits_bias[0, EOS] += shape.eos_bias
    model.save_pretrained(folder)
    return folder


def reference(folder: Path):
    """Hugging Face's model as it loads the folder, with the eager attention that returns every map, in eval mode."""
    return transformers.MarianMTModel.from_pretrained(folder, attn_implementation="eager").eval()


@dataclass(frozen=True)
class MarianIds:
    """What decoding reads of a target vocabulary, with Marian's ids: tokens t0 … t{V-1}; E is </s> (id 0), P is
    <pad> (the last id) and decoding starts from it (bos_id: the decoder's start)."""

    size: int
    itos: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "itos", tuple(f"t{i}" for i in range(self.size)))
        object.__setattr__(self, "stoi", {t: i for i, t in enumerate(self.itos)})

    def __len__(self) -> int:
        return self.size

    @property
    def pad_id(self) -> int:
        return self.size - 1

    @property
    def bos_id(self) -> int:
        return self.size - 1

    @property
    def eos_id(self) -> int:
        return EOS

    def decode(self, ids) -> list[str]:
        return [self.itos[int(i)] for i in ids]


def sources(shape: Shape, n: int = 4, seed: int = 0) -> torch.Tensor:
    """(n, L) source ids as the tokenizer gives them: pieces (never </s> or <pad>), then </s>, padded with <pad> to the
    longest; the lengths all differ."""
    generator = torch.Generator().manual_seed(seed)
    pad, rows = shape.vocab - 1, []
    for length in range(3, 3 + 2 * n, 2):
        pieces = torch.randint(1, shape.vocab - 1, (length,), generator=generator).tolist()
        rows.append([*pieces, EOS])
    longest = max(map(len, rows))
    return torch.tensor([row + [pad] * (longest - len(row)) for row in rows])
