"""Logit processors: each changes the next-token logits of one step, and a list of them runs in order (as Hugging
Face's LogitsProcessorList). Blocking P and S is the one every strategy runs; a forced prefix, a temperature and the
top-p and top-k cuts are the others a strategy adds. A processor sets a token's logit to −∞ to rule it out, so a
softmax gives it probability 0. Shapes: B rows (sentences or beams), V target vocabulary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import torch

from ..data import Vocab

NEVER = float("-inf")  # the logit of a token a processor rules out


class Processor(Protocol):
    """Changes the logits (B, V) of step `step` (1-based); returns the changed logits (B, V)."""

    def __call__(self, logits: torch.Tensor, step: int) -> torch.Tensor: ...


def process(processors: Sequence[Processor], logits: torch.Tensor, step: int) -> torch.Tensor:
    """logits (B, V) through every processor, in order."""
    for processor in processors:
        logits = processor(logits, step)
    return logits


# ---------------------------------------------------------------- P and S: never outputs


def blocked_ids(tgt_vocab: Vocab) -> list[int]:
    """Target ids that are never outputs: P (padding) and S (start); one id when they are one token (Marian's
    <pad>)."""
    return list(dict.fromkeys((tgt_vocab.pad_id, tgt_vocab.bos_id)))


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
    logits[..., blocked_ids(tgt_vocab)] = NEVER
    return logits


@dataclass(frozen=True)
class BlockSpecials:
    """P and S ruled out at every step: they are never targets in training, so decoding never outputs them."""

    tgt_vocab: Vocab

    def __call__(self, logits: torch.Tensor, step: int) -> torch.Tensor:
        return block(logits, self.tgt_vocab)


# ---------------------------------------------------------------- a forced prefix


@dataclass(frozen=True)
class ForcedTokens:
    """While the prefix lasts, its token is the only one allowed: step s takes prefix[s - 1]."""

    prefix: tuple[int, ...]

    def forces(self, step: int) -> bool:
        """True at the steps the prefix covers."""
        return step <= len(self.prefix)

    def __call__(self, logits: torch.Tensor, step: int) -> torch.Tensor:
        if not self.forces(step):
            return logits
        forced = torch.full_like(logits, NEVER)  # (B, V)
        forced[..., self.prefix[step - 1]] = 0.0
        return forced


# ---------------------------------------------------------------- temperature, top-p, top-k


@dataclass(frozen=True)
class Temperature:
    """logits / temperature, in float64 after subtracting the largest logit: any finite temperature > 0 gives finite
    logits (1e-300: the most probable token alone; 1e300: all allowed tokens alike), never NaN; −∞ stays −∞."""

    temperature: float

    def __call__(self, logits: torch.Tensor, step: int) -> torch.Tensor:
        top = logits.max(dim=-1, keepdim=True).values  # (B, 1)
        return (logits.double() - top.double()) / self.temperature  # (B, V): ≤ 0, the largest exactly 0


def ranked(probs: torch.Tensor) -> torch.Tensor:
    """The token ids of probs (V,), most probable first; on a tie the lower id first."""
    return torch.sort(probs, descending=True, stable=True).indices


def top_k_kept(probs: torch.Tensor, top_k: int) -> torch.Tensor:
    """A mask (V,) of the top_k most probable tokens of probs (V,) (0: all)."""
    order = ranked(probs)
    keep = torch.zeros_like(probs, dtype=torch.bool)
    keep[order[: top_k or len(order)]] = True
    return keep


def top_p_kept(probs: torch.Tensor, top_p: float) -> torch.Tensor:
    """A mask (V,) of the fewest most probable tokens of probs (V,) whose probabilities add up to top_p; the most
    probable token always stays."""
    order = ranked(probs)
    before = torch.cumsum(probs[order], 0) - probs[order]  # (V,): probability of the tokens ranked above
    keep = torch.ones_like(probs, dtype=torch.bool)
    keep[order[before >= top_p]] = False
    keep[order[0]] = True
    return keep


def _cut(logits: torch.Tensor, kept) -> torch.Tensor:
    """logits (B, V) with every token outside kept(probs of its row) set to −∞."""
    rows = [row.masked_fill(~kept(torch.softmax(row, dim=-1)), NEVER) for row in logits.reshape(-1, logits.size(-1))]
    return torch.stack(rows).reshape(logits.shape)


@dataclass(frozen=True)
class TopP:
    """Only the fewest most probable tokens whose probabilities add up to top_p (1: all)."""

    top_p: float

    def __call__(self, logits: torch.Tensor, step: int) -> torch.Tensor:
        return logits if self.top_p >= 1 else _cut(logits, lambda probs: top_p_kept(probs, self.top_p))


@dataclass(frozen=True)
class TopK:
    """Only the top_k most probable tokens (0: all)."""

    top_k: int

    def __call__(self, logits: torch.Tensor, step: int) -> torch.Tensor:
        return logits if not self.top_k else _cut(logits, lambda probs: top_k_kept(probs, self.top_k))


def with_temperature(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """softmax(logits / temperature) for any finite temperature > 0 (Temperature), never NaN; blocked tokens stay 0."""
    return torch.softmax(Temperature(temperature)(logits, 0), dim=-1).to(logits.dtype)


def truncate(probs: torch.Tensor, top_k: int = 0, top_p: float = 1.0) -> torch.Tensor:
    """probs (V,) with all but the top_k most probable tokens (0: all) set to 0, then all but the fewest most
    probable whose probabilities add up to top_p; renormalised. The most probable token always stays."""
    keep = top_k_kept(probs, top_k) & (top_p_kept(probs, top_p) if top_p < 1 else True)
    kept = torch.where(keep, probs, torch.zeros_like(probs))
    return kept / kept.sum()
