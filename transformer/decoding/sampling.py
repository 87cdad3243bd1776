"""Sampling: draw each next token from the model's distribution, after a temperature and a top-p / top-k cut (the
processors Temperature, TopP, TopK), a chooser for the one loop.

Runs the model in eval mode without gradients and always ends (at E or at the length cap). Shapes: t tokens so far,
V target vocabulary, Ls source length, D d_model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from ..config import MAX_DECODE_LEN
from ..data import Vocab
from ..model import AttentionMaps, Transformer
from .checks import check_sampling
from .loop import Choice, Output, decode_loop
from .processors import Temperature, TopK, TopP, process


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
class Sample(Output):
    """The result of sample: output tokens without S/E, every step (SampleStep), why it stopped, its
    log-probability."""

    log_prob: float  # the sum of the model's log-probabilities (temperature 1) of the drawn tokens, E included
    seed: int


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
    tempering, cuts = [Temperature(temperature)], [TopP(top_p), TopK(top_k)]  # top-p measures the tempered mass
    eos, steps = tgt_vocab.eos_id, []

    def choose(step: int, dec: torch.Tensor, logits: torch.Tensor, maps: AttentionMaps | None) -> Choice:
        logits = logits[0].cpu()  # (V,)
        tempered_logits = process(tempering, logits, step)  # (V,) float64
        probs = torch.softmax(logits, dim=-1)  # (V,)
        tempered = torch.softmax(tempered_logits, dim=-1).to(logits.dtype)  # (V,)
        final = torch.softmax(process(cuts, tempered_logits, step), dim=-1).to(logits.dtype)  # (V,)
        next_id = int(torch.multinomial(final, 1, generator=generator))
        token = tgt_vocab.itos[next_id]
        steps.append(SampleStep(step, tgt_vocab.decode(dec[0].tolist()), probs, tempered, final, next_id, token))
        return Choice.one_row(dec, next_id, eos)

    done = decode_loop(model, enc_input, tgt_vocab, choose, max_len)
    tokens, stop_reason = done.one_row_output(tgt_vocab)
    log_prob = sum(math.log(p) if p > 0 else float("-inf") for p in (float(s.probs[s.token_id]) for s in steps))
    return Sample(tokens, steps, stop_reason, log_prob, seed)
