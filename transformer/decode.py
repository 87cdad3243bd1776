"""Greedy decoding (the tutorials' greedy_decoder), one record per step, always ending."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .config import MAX_DECODE_LEN
from .data import PAD, Vocab
from .model import AttentionMaps, Transformer, evaluating


@dataclass(frozen=True)
class DecodeStep:
    """One step of greedy decoding: what went in, what came out, and where the decoder looked."""

    step: int  # 1-based
    dec_input: list[str]  # the decoder input so far: S and the tokens chosen before this step
    probs: torch.Tensor  # (V,) next-token probability distribution
    token_id: int  # the chosen (most probable) token
    token: str
    dec_self_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (H, t, t), newest row last
    dec_enc_attns: list[torch.Tensor] = field(default_factory=list)  # [layer] (H, t, Ls)


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


def greedy_decode(
    model: Transformer,
    enc_input: torch.Tensor,
    tgt_vocab: Vocab,
    max_len: int = MAX_DECODE_LEN,
    return_attn: bool = True,
) -> Translation:
    """Encode enc_input (1, Ls) once, then pick the most probable next token until E or max_len tokens.

    P and S are never targets in training, so they are never chosen (their probability is set to 0).
    """
    with evaluating(model) as device:
        enc_input = enc_input.to(device)
        max_len = min(max_len, model.config.max_len - 1)
        enc_maps = AttentionMaps() if return_attn else None
        memory = model.encoder(enc_input, enc_maps)  # (1, Ls, D)
        never = [tgt_vocab.stoi[PAD], tgt_vocab.bos_id]  # padding and S are never outputs
        ids = [tgt_vocab.bos_id]
        steps: list[DecodeStep] = []
        stop_reason = "max_len"
        for step in range(1, max_len + 1):
            dec_input = torch.tensor([ids], device=device)  # (1, t)
            maps = AttentionMaps() if return_attn else None
            hidden = model.decoder(dec_input, enc_input, memory, maps)  # (1, t, D)
            logits = model.projection(hidden[0, -1]).float()  # (V,)
            logits[never] = float("-inf")
            probs = torch.softmax(logits, dim=-1).cpu()
            next_id = int(probs.argmax())
            steps.append(
                DecodeStep(
                    step=step,
                    dec_input=tgt_vocab.decode(ids),
                    probs=probs,
                    token_id=next_id,
                    token=tgt_vocab.itos[next_id],
                    dec_self_attns=[a[0].cpu() for a in maps.dec_self_attns] if maps else [],
                    dec_enc_attns=[a[0].cpu() for a in maps.dec_enc_attns] if maps else [],
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


greedy_decoder = greedy_decode  # the tutorials' name


def greedy_decode_batch(
    model: Transformer, enc_inputs: torch.Tensor, tgt_vocab: Vocab, max_len: int = MAX_DECODE_LEN
) -> list[list[str]]:
    """Greedy output tokens (without S/E) for every row of enc_inputs (B, Ls) at once; no records."""
    with evaluating(model) as device:
        enc_inputs = enc_inputs.to(device)
        max_len = min(max_len, model.config.max_len - 1)
        memory = model.encoder(enc_inputs)  # (B, Ls, D)
        batch = enc_inputs.size(0)
        never = [tgt_vocab.stoi[PAD], tgt_vocab.bos_id]  # padding and S are never outputs
        dec = torch.full((batch, 1), tgt_vocab.bos_id, device=device)  # (B, 1)
        done = torch.zeros(batch, dtype=torch.bool, device=device)
        for _ in range(max_len):
            hidden = model.decoder(dec, enc_inputs, memory)  # (B, t, D)
            logits = model.projection(hidden[:, -1])  # (B, V)
            logits[:, never] = float("-inf")
            next_ids = logits.argmax(-1)  # (B,)
            next_ids = next_ids.masked_fill(done, tgt_vocab.eos_id)
            dec = torch.cat([dec, next_ids.unsqueeze(1)], dim=1)  # (B, t+1)
            done |= next_ids.eq(tgt_vocab.eos_id)
            if done.all():
                break
        outputs = []
        for row in dec[:, 1:].tolist():
            cut = row.index(tgt_vocab.eos_id) if tgt_vocab.eos_id in row else len(row)
            outputs.append(tgt_vocab.decode(row[:cut]))
        return outputs
