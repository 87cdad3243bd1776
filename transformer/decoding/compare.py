"""Teacher forcing (the decoder reads the reference, as in training) against free running (it reads its own output).

Shapes: Lt reference length with S, V target vocabulary, Ls source length, D d_model.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..config import MAX_DECODE_LEN
from ..data import Vocab
from ..errors import DataError
from ..model import Transformer, evaluating
from .greedy import greedy_decode
from .loop import length_cap
from .processors import block
from .step import start_id


@dataclass(frozen=True)
class ForcingRow:
    """One output position: the reference token, its probability under teacher forcing, free running's choice."""

    position: int  # 1-based
    reference: str | None  # the reference token here (E after the last word); None past the reference's end
    teacher_prob: float | None  # P(reference token | S + the reference before it, source); None past the end
    teacher_choice: str | None  # the most probable token under teacher forcing; None past the end
    free_choice: str | None  # what greedy decoding of its own output chose here; None after it stopped


@dataclass(frozen=True)
class ForcingComparison:
    """Teacher forcing (the decoder reads the reference) against free running (it reads its own output)."""

    rows: list[ForcingRow]
    free_tokens: list[str]  # free running's output without S/E
    parted_at: int | None  # the first position where free running left the reference; None when it never did


def teacher_forcing_vs_free_running(
    model: Transformer, enc_input: torch.Tensor, tgt_vocab: Vocab, reference_ids: list[int], max_len=MAX_DECODE_LEN
) -> ForcingComparison:
    """Per position: the model's probability for the reference token when it reads the reference so far (teacher
    forcing, as in training), and the token greedy decoding picks when it reads its own output (free running)."""
    room = length_cap(model)  # the decoder reads S and then at most this many reference tokens
    if len(reference_ids) > room:
        raise DataError(
            f"the reference has {len(reference_ids)} tokens; this model reads at most {room}. Shorten it.",
            "reference_too_long",
            n=len(reference_ids),
            max=room,
        )
    free = greedy_decode(model, enc_input, tgt_vocab, max_len, return_attn=False)
    with evaluating(model) as device:
        dec_inputs = torch.tensor([[start_id(model, tgt_vocab), *reference_ids]], device=device)  # (1, Lt)
        hidden = model.decoder(dec_inputs, enc_input.to(device), model.encoder(enc_input.to(device)))  # (1, Lt, D)
        logits = block(model.logits(hidden[0]).float(), tgt_vocab)  # (Lt, V)
        teacher = torch.softmax(logits, dim=-1).cpu()  # (Lt, V)
    reference = tgt_vocab.decode(reference_ids) + [tgt_vocab.itos[tgt_vocab.eos_id]]
    rows, parted_at = [], None
    for position in range(1, max(len(reference), len(free.steps)) + 1):
        i = position - 1
        ref = reference[i] if i < len(reference) else None
        choice = free.steps[i].token if i < len(free.steps) else None
        rows.append(
            ForcingRow(
                position=position,
                reference=ref,
                teacher_prob=float(teacher[i, tgt_vocab.stoi[ref]]) if ref is not None else None,
                teacher_choice=tgt_vocab.itos[int(teacher[i].argmax())] if ref is not None else None,
                free_choice=choice,
            )
        )
        if parted_at is None and choice != ref:
            parted_at = position
    return ForcingComparison(rows, free.tokens, parted_at)
