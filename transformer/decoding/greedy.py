"""Greedy decoding (the tutorials' greedy_decoder): one loop that takes the most probable next token, or a forced
token while a forced prefix lasts, with every step recorded; and its batched form, without records.

A forced decode with an empty prefix is greedy decoding. Every function runs the model in eval mode without
gradients and always ends (at E or at the length cap). Shapes: B sentences, t tokens so far, V target vocabulary,
Ls source length, D d_model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

from ..config import MAX_DECODE_LEN
from ..data import Vocab
from ..model import AttentionMaps, Transformer, evaluating
from .checks import check_beam, check_prefix
from .hypothesis import Hypothesis, scored
from .step import next_log_probs, next_logits


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
class Translation:
    """The result of greedy_decode: output tokens without S/E, every step, and why it stopped."""

    tokens: list[str]
    steps: list[DecodeStep]
    stop_reason: str  # "eos": E was chosen; "max_len": the length cap was reached
    enc_self_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (H, Ls, Ls)
    src_tokens: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # source words not in the vocabulary

    @property
    def text(self) -> str:
        """The output tokens joined by single spaces."""
        return " ".join(self.tokens)


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
    with evaluating(model) as device:
        enc_input = enc_input.to(device)
        max_len = min(max_len, model.config.max_len - 1)
        enc_maps = AttentionMaps() if return_attn else None
        memory = model.encoder(enc_input, enc_maps)  # (1, Ls, D)
        ids, steps, stop_reason = [tgt_vocab.bos_id], [], "max_len"
        for step in range(1, max_len + 1):
            dec_input = torch.tensor([ids], device=device)  # (1, t)
            maps = AttentionMaps() if return_attn else None
            logits = next_logits(model, dec_input, enc_input, memory, tgt_vocab, maps)[0]  # (V,)
            probs = torch.softmax(logits, dim=-1).cpu()  # (V,)
            forced = step <= len(prefix)
            next_id = int(prefix[step - 1]) if forced else int(probs.argmax())  # the chooser
            steps.append(
                DecodeStep(
                    step=step,
                    dec_input=tgt_vocab.decode(ids),
                    probs=probs,
                    token_id=next_id,
                    token=tgt_vocab.itos[next_id],
                    dec_self_attns=[a[0].cpu() for a in maps.dec_self_attns] if maps else [],
                    dec_enc_attns=[a[0].cpu() for a in maps.dec_enc_attns] if maps else [],
                    forced=forced,
                )
            )
            if next_id == tgt_vocab.eos_id:
                stop_reason = "eos"
                break
            ids.append(next_id)
        return Translation(
            tokens=tgt_vocab.decode(ids[1:]),
            steps=steps,
            stop_reason=stop_reason,
            enc_self_attns=[a[0].cpu() for a in enc_maps.enc_self_attns] if enc_maps else [],
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


greedy_decoder = greedy_decode  # the tutorials' name


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
    alpha, eos = float(length_penalty), tgt_vocab.eos_id
    with evaluating(model) as device:
        enc_inputs = enc_inputs.to(device)
        B, max_len = enc_inputs.size(0), min(max_len, model.config.max_len - 1)
        memory = model.encoder(enc_inputs)  # (B, Ls, D)
        dec = torch.full((B, 1), tgt_vocab.bos_id, device=device)  # (B, t)
        log_prob = torch.zeros(B, device=device)  # (B,)
        done = torch.zeros(B, dtype=torch.bool, device=device)  # (B,)
        for _ in range(max_len):
            log_probs = next_log_probs(model, dec, enc_inputs, memory, tgt_vocab)  # (B, V)
            next_ids = log_probs.argmax(-1)  # (B,): on a tie the lowest id, as greedy_decode
            log_prob += log_probs.gather(1, next_ids.unsqueeze(1)).squeeze(1).masked_fill(done, 0.0)  # (B,)
            next_ids = next_ids.masked_fill(done, eos)  # (B,): a finished row only repeats E
            dec = torch.cat([dec, next_ids.unsqueeze(1)], dim=1)  # (B, t+1)
            done |= next_ids.eq(eos)
            if done.all():
                break
    outputs = []
    for row, total in zip(dec[:, 1:].tolist(), log_prob.tolist()):
        finished = eos in row
        ids = row[: row.index(eos)] if finished else row
        outputs.append(scored(tgt_vocab.decode(ids), total, finished, alpha))
    return outputs


def greedy_decode_batch(
    model: Transformer, enc_inputs: torch.Tensor, tgt_vocab: Vocab, max_len: int = MAX_DECODE_LEN
) -> list[list[str]]:
    """Greedy output tokens (without S/E) for every row of enc_inputs (B, Ls) at once: greedy_batch's tokens."""
    return [h.tokens for h in greedy_batch(model, enc_inputs, tgt_vocab, max_len=max_len)]
