"""One decoding step: the next-token logits of a decoder state, and the one place where P and S are blocked.

P (padding) and S (start) are never targets in training, so decoding never outputs them: every strategy takes its
next-token distribution from next_logits or next_log_probs, where their logit is −∞ (probability 0), and a forced or
picked token is one that can_output allows. Shapes: B rows (sentences or beams), t tokens so far, V target
vocabulary, Ls source length, D d_model.
"""

from __future__ import annotations

import torch

from ..data import PAD, Vocab
from ..model import AttentionMaps, Transformer


def blocked_ids(tgt_vocab: Vocab) -> list[int]:
    """Target ids that are never outputs: P (padding) and S (start)."""
    return [tgt_vocab.stoi[PAD], tgt_vocab.bos_id]


def n_outputs(tgt_vocab: Vocab) -> int:
    """How many target tokens decoding can output: the vocabulary without P and S."""
    return len(tgt_vocab) - len(blocked_ids(tgt_vocab))


def can_output(token_id: int, tgt_vocab: Vocab) -> bool:
    """True for an id decoding can output, or a learner can force: in the vocabulary, neither P nor S."""
    return 0 <= token_id < len(tgt_vocab) and token_id not in blocked_ids(tgt_vocab)


def output_ids(ids: list, tgt_vocab: Vocab) -> list[int]:
    """The whole numbers of ids that decoding can output (can_output), in order; anything else left out."""
    return [i for i in ids if isinstance(i, int) and can_output(i, tgt_vocab)]


def block(logits: torch.Tensor, tgt_vocab: Vocab) -> torch.Tensor:
    """logits (..., V) with P and S set to −∞ in place, so that a softmax gives them probability 0."""
    logits[..., blocked_ids(tgt_vocab)] = float("-inf")
    return logits


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
    return block(model.projection(hidden[:, -1]).float(), tgt_vocab)  # (B, V)


def next_log_probs(
    model: Transformer, dec_input: torch.Tensor, enc_input: torch.Tensor, memory: torch.Tensor, tgt_vocab: Vocab
) -> torch.Tensor:
    """log P(next token | dec_input (B, t), source) as (B, V); −∞ for P and S."""
    return torch.log_softmax(next_logits(model, dec_input, enc_input, memory, tgt_vocab), dim=-1)  # (B, V)
