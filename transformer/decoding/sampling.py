"""Sampling: draw each next token from the model's distribution, after a temperature and a top-k / top-p cut.

Runs the model in eval mode without gradients and always ends (at E or at the length cap). Shapes: t tokens so far,
V target vocabulary, Ls source length, D d_model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from ..config import MAX_DECODE_LEN
from ..data import Vocab
from ..model import Transformer, evaluating
from .checks import check_sampling
from .step import next_logits


@dataclass(frozen=True)
class SampleStep:
    """One step of sampling: the model's distribution, after temperature, after top-k / top-p, and the draw."""

    step: int  # 1-based
    dec_input: list[str]  # S and the tokens drawn before this step
    probs: torch.Tensor  # (V,) the model's next-token distribution (temperature 1)
    tempered: torch.Tensor  # (V,) softmax(logits / temperature)
    final: torch.Tensor  # (V,) tempered, cut to top-k and top-p and renormalised: the token is drawn from this
    token_id: int
    token: str


@dataclass(frozen=True)
class Sample:
    """The result of sample: output tokens without S/E, every step, why it stopped, its log-probability."""

    tokens: list[str]
    steps: list[SampleStep]
    stop_reason: str  # "eos" or "max_len"
    log_prob: float  # the sum of the model's log-probabilities (temperature 1) of the drawn tokens, E included
    seed: int

    @property
    def text(self) -> str:
        """The output tokens joined by single spaces."""
        return " ".join(self.tokens)


def with_temperature(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """softmax(logits / temperature) for any finite temperature > 0: in float64 after subtracting the largest logit,
    so a temperature of 1e-300 gives the most probable token probability 1 (greedy) and 1e300 a flat distribution
    over the allowed tokens, never NaN. Blocked tokens (logit −∞) stay at 0."""
    scaled = (logits.double() - logits.max().double()) / temperature  # (V,): ≤ 0, the largest exactly 0
    return torch.softmax(scaled, dim=-1).to(logits.dtype)


def truncate(probs: torch.Tensor, top_k: int = 0, top_p: float = 1.0) -> torch.Tensor:
    """probs (V,) with all but the top_k most probable tokens (0: all) set to 0, then all but the fewest most
    probable whose probabilities add up to top_p; renormalised. The most probable token always stays."""
    order = torch.sort(probs, descending=True, stable=True).indices  # (V,): on a tie the lower id first
    keep = torch.zeros_like(probs, dtype=torch.bool)
    keep[order[: top_k or len(order)]] = True
    if top_p < 1:
        before = torch.cumsum(probs[order], 0) - probs[order]  # (V,): probability of the tokens ranked above
        keep[order[before >= top_p]] = False
    keep[order[0]] = True
    kept = torch.where(keep, probs, torch.zeros_like(probs))
    return kept / kept.sum()


def sample(
    model: Transformer,
    enc_input: torch.Tensor,
    tgt_vocab: Vocab,
    temperature: float = 1.0,
    top_k: int = 0,
    top_p: float = 1.0,
    seed: int = 0,
    max_len: int = MAX_DECODE_LEN,
) -> Sample:
    """Draw each next token at random from the model's distribution, sharpened (temperature < 1) or flattened (> 1),
    then cut to the top_k tokens (0: no cut) and to the top_p probability mass, until E or max_len tokens.

    The same seed gives the same output; top_k=1 is greedy decoding.
    """
    check_sampling(temperature, top_k, top_p, seed)
    generator = torch.Generator().manual_seed(seed)
    with evaluating(model) as device:
        enc_input = enc_input.to(device)
        max_len = min(max_len, model.config.max_len - 1)
        memory = model.encoder(enc_input)  # (1, Ls, D)
        ids, steps, log_prob, stop_reason = [tgt_vocab.bos_id], [], 0.0, "max_len"
        for step in range(1, max_len + 1):
            dec_input = torch.tensor([ids], device=device)  # (1, t)
            logits = next_logits(model, dec_input, enc_input, memory, tgt_vocab)[0].cpu()  # (V,)
            probs = torch.softmax(logits, dim=-1)  # (V,)
            tempered = with_temperature(logits, temperature)  # (V,)
            final = truncate(tempered, top_k, top_p)  # (V,)
            next_id = int(torch.multinomial(final, 1, generator=generator))
            log_prob += math.log(float(probs[next_id])) if probs[next_id] > 0 else float("-inf")
            token = tgt_vocab.itos[next_id]
            steps.append(SampleStep(step, tgt_vocab.decode(ids), probs, tempered, final, next_id, token))
            if next_id == tgt_vocab.eos_id:
                stop_reason = "eos"
                break
            ids.append(next_id)
    return Sample(tgt_vocab.decode(ids[1:]), steps, stop_reason, log_prob, seed)
