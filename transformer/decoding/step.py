"""One decoding step: the next-token logits of a decoder state, with P and S blocked (processors.BlockSpecials).

The one loop (loop.py) takes every step's logits from next_logits, where the logit of P and S is −∞ (probability 0);
a strategy then runs its own processors (processors.py). Shapes: B rows (sentences or beams), t tokens
so far, V target vocabulary, Ls source length, D d_model.
"""

from __future__ import annotations

import torch

from ..data import Vocab
from ..model import AttentionMaps, Transformer
from .processors import BlockSpecials


def start_id(model: Transformer, tgt_vocab: Vocab) -> int:
    """The decoder's first input: the model's decoder_start_id when its config has one (Marian starts from its
    <pad>), else the vocabulary's S."""
    start = model.config.decoder_start_id
    return tgt_vocab.bos_id if start is None else start


def next_logits(
    model: Transformer,
    dec_input: torch.Tensor,
    enc_input: torch.Tensor,
    memory: torch.Tensor,
    tgt_vocab: Vocab,
    maps: AttentionMaps | None = None,
) -> torch.Tensor:
    """Float logits (B, V) of the token after dec_input (B, t), P and S blocked; maps records decoder attention."""
    hidden = model.decoder(dec_input, enc_input, memory, maps)  # (B, t, D)
    return BlockSpecials(tgt_vocab)(model.logits(hidden[:, -1]).float(), dec_input.size(1))  # (B, V)
