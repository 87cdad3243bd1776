"""Greedy decoding (the tutorials' greedy_decoder, here greedy_decode): a chooser for the one loop that takes the
most probable next token, or a forced token while a forced prefix lasts (processors.ForcedTokens), with every step
recorded; and its batched form, without records.

A forced decode with an empty prefix is greedy decoding. Every function runs the model in eval mode without
gradients and always ends (at E or at the length cap: loop.py). Shapes: B sentences, t tokens so far, V target
vocabulary, Ls source length, D d_model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

from ..config import MAX_DECODE_LEN
from ..data import Vocab
from ..model import AttentionMaps, Transformer
from .checks import check_beam, check_prefix
from .hypothesis import Hypothesis, scored
from .loop import Choice, Output, decode_loop
from .processors import ForcedTokens


@dataclass(frozen=True)
class DecodeStep:
    """One step of greedy decoding: what went in, what came out, and where the decoder looked."""

    step: int  # 1-based
    dec_input: list[str]  # the decoder input so far: S and the tokens chosen before this step
    probs: torch.Tensor  # (V,) next-token probability distribution
    token_id: int  # the chosen token: the most probable one, or the forced one
    token: str
    dec_self_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (H, t, t), newest row last
    dec_enc_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (H, t, Ls)
    forced: bool = False  # True: the token was given in a forced prefix, not chosen by the model


@dataclass(frozen=True)
class Translation(Output):
    """The result of greedy_decode: output tokens without S/E, every step (DecodeStep), and why it stopped."""

    enc_self_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (H, Ls, Ls)
    src_tokens: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # source words not in the vocabulary


def forced_decode(
    model: Transformer,
    enc_input: torch.Tensor,
    tgt_vocab: Vocab,
    prefix: list[int],
    max_len: int = MAX_DECODE_LEN,
    return_attn: bool = True,
) -> Translation:
    """Greedy decoding of enc_input (1, Ls) whose first len(prefix) tokens are the given token ids instead of the
    model's choice; every step records the model's own distribution. An E in the prefix ends the output there."""
    check_prefix(prefix, tgt_vocab)
    forced, eos, steps = ForcedTokens(tuple(int(i) for i in prefix)), tgt_vocab.eos_id, []

    def choose(step: int, dec: torch.Tensor, logits: torch.Tensor, maps: AttentionMaps | None) -> Choice:
        probs = torch.softmax(logits[0], dim=-1).cpu()  # (V,): the model's own distribution
        next_id = int(torch.softmax(forced(logits, step)[0], dim=-1).cpu().argmax())  # the forced or most probable
        steps.append(
            DecodeStep(
                step=step,
                dec_input=tgt_vocab.decode(dec[0].tolist()),
                probs=probs,
                token_id=next_id,
                token=tgt_vocab.itos[next_id],
                dec_self_attns=[a[0].cpu() for a in maps.dec_self_attns] if maps else [],
                dec_enc_attns=[a[0].cpu() for a in maps.dec_enc_attns] if maps else [],
                forced=forced.forces(step),
            )
        )
        return Choice.one_row(dec, next_id, eos)

    done = decode_loop(model, enc_input, tgt_vocab, choose, max_len, return_attn=return_attn)
    tokens, stop_reason = done.one_row_output(tgt_vocab)
    return Translation(
        tokens=tokens,
        steps=steps,
        stop_reason=stop_reason,
        enc_self_attns=[a[0].cpu() for a in done.enc_maps.enc_self_attns] if done.enc_maps else [],
    )


def greedy_decode(
    model: Transformer,
    enc_input: torch.Tensor,
    tgt_vocab: Vocab,
    max_len: int = MAX_DECODE_LEN,
    return_attn: bool = True,
) -> Translation:
    """Encode enc_input (1, Ls) once, then pick the most probable next token until E or max_len tokens.

    P and S are never targets in training, so they are never chosen (their probability is 0). This is forced_decode
    with nothing forced.
    """
    return forced_decode(model, enc_input, tgt_vocab, [], max_len, return_attn)


def greedy_hypothesis(result: Translation, length_penalty: float = 0.0) -> Hypothesis:
    """Greedy decoding's output (greedy_decode's record) scored as beam search scores a hypothesis."""
    check_beam(1, length_penalty)
    log_prob = sum(math.log(float(step.probs[step.token_id])) for step in result.steps)  # E included when chosen
    return scored(list(result.tokens), log_prob, result.stop_reason == "eos", float(length_penalty))


def greedy_batch(
    model: Transformer,
    enc_inputs: torch.Tensor,
    tgt_vocab: Vocab,
    length_penalty: float = 0.0,
    max_len: int = MAX_DECODE_LEN,
) -> list[Hypothesis]:
    """Greedy decoding of every row of enc_inputs (B, Ls, padded with P) at once, each output scored as beam search
    scores a hypothesis (log P / lp(length, α), E counted when chosen); no records."""
    check_beam(1, length_penalty)
    alpha, eos, B = float(length_penalty), tgt_vocab.eos_id, enc_inputs.size(0)
    log_prob = torch.zeros(B)  # (B,)
    done = torch.zeros(B, dtype=torch.bool)  # (B,)

    def choose(step: int, dec: torch.Tensor, logits: torch.Tensor, maps: AttentionMaps | None) -> Choice:
        nonlocal done
        log_probs = torch.log_softmax(logits, dim=-1).cpu()  # (B, V)
        next_ids = log_probs.argmax(-1)  # (B,): on a tie the lowest id, as greedy_decode
        log_prob.add_(log_probs.gather(1, next_ids.unsqueeze(1)).squeeze(1).masked_fill(done, 0.0))  # (B,)
        next_ids = next_ids.masked_fill(done, eos)  # (B,): a finished row only repeats E
        done = done | next_ids.eq(eos)
        return Choice(torch.arange(B, device=dec.device), next_ids.to(dec.device), stop=bool(done.all()))

    dec = decode_loop(model, enc_inputs, tgt_vocab, choose, max_len).dec  # (B, t)
    outputs = []
    for row, total in zip(dec[:, 1:].tolist(), log_prob.tolist()):
        finished = eos in row
        ids = row[: row.index(eos)] if finished else row
        outputs.append(scored(tgt_vocab.decode(ids), total, finished, alpha))
    return outputs
