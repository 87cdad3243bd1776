"""The one decoding loop (as x-transformers' generate): encode the source once, then step the decoder, one token per
row, until a strategy stops or the length cap is reached. The cap is computed here and nowhere else.

A strategy is a chooser: given the step's logits (P and S blocked) it says which decoder rows go on and with which
token, and records what it needs. Greedy decoding keeps its one row; beam search picks parents among its beams;
batched decoding has a row per sentence (or per sentence and beam). Runs the model in eval mode without gradients.
Shapes: B source rows, k decoder rows, t tokens so far, V target vocabulary, Ls source length, D d_model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from ..config import MAX_DECODE_LEN
from ..data import Vocab
from ..model import AttentionMaps, Transformer, evaluating
from .cache import DecoderCache, cached_logits, can_cache
from .step import next_logits, start_id


def length_cap(model: Transformer, max_len: int | None = None) -> int:
    """The most tokens a decode chooses: max_len (None: no limit of its own), and never more than the decoder's
    positions hold after S."""
    room = model.config.max_len - 1  # the decoder reads S and the tokens chosen before the last one
    return room if max_len is None else min(max_len, room)


@dataclass(frozen=True)
class Choice:
    """What a strategy chose at one step: the rows that go on and the token each appends."""

    parents: torch.Tensor  # (k',): the row of this step each next row continues
    tokens: torch.Tensor  # (k',): the token it appends
    stop: bool = False  # True: decoding ends after this step

    @staticmethod
    def one_row(dec: torch.Tensor, token_id: int, eos: int) -> Choice:
        """The one row of dec (1, t) goes on with token_id; decoding stops when it is E."""
        return Choice(torch.zeros(1, dtype=torch.long, device=dec.device), dec.new_tensor([token_id]), token_id == eos)


Chooser = Callable[[int, torch.Tensor, torch.Tensor, "AttentionMaps | None"], Choice]
# (step (1-based), dec_input (k, t), logits (k, V) with P and S blocked, the step's decoder maps) → Choice


@dataclass(frozen=True)
class Decoded:
    """What the loop leaves: every row alive at the end, why it ended, the cap it ran under, the encoder's maps."""

    dec: torch.Tensor  # (k, t): S and each row's tokens, the last step's included
    stopped: bool  # True: the chooser stopped it; False: it reached the cap
    cap: int
    enc_maps: AttentionMaps | None

    def one_row_output(self, tgt_vocab: Vocab) -> tuple[list[str], str]:
        """The tokens of the one row without S and without the E it stopped at, and why it ended: "eos" or
        "max_len"."""
        ids = self.dec[0, 1:].tolist()
        return tgt_vocab.decode(ids[:-1] if self.stopped else ids), "eos" if self.stopped else "max_len"


@dataclass(frozen=True)
class Output:
    """What a one-row strategy (greedy, forced, sampling) returns: output tokens without S/E, the steps it recorded
    (DecodeStep, SampleStep) and why it stopped."""

    tokens: list[str]
    steps: list
    stop_reason: str  # "eos": E was chosen; "max_len": the length cap was reached

    @property
    def text(self) -> str:
        """The output tokens joined by single spaces."""
        return " ".join(self.tokens)


def rows_of(n: int, width: int, device) -> torch.Tensor:
    """(n·width,): the source row of each decoder row when every source row starts width decoder rows."""
    return torch.arange(n, device=device).repeat_interleave(width)


def decode_loop(
    model: Transformer,
    enc_input: torch.Tensor,
    tgt_vocab: Vocab,
    choose: Chooser,
    max_len: int = MAX_DECODE_LEN,
    width: int = 1,
    return_attn: bool = False,
) -> Decoded:
    """Encode enc_input (B, Ls) once; start width rows of S per source row; then each step: the logits of every row,
    the chooser's choice, the rows it continues with their tokens appended; until it stops or length_cap tokens."""
    with evaluating(model) as device:
        enc_input = enc_input.to(device)
        enc_maps = AttentionMaps() if return_attn else None
        memory = model.encoder(enc_input, enc_maps)  # (B, Ls, D)
        rows = rows_of(enc_input.size(0), width, device)  # (k,)
        dec = torch.full((rows.size(0), 1), start_id(model, tgt_vocab), device=device)  # (k, 1): S, or Marian's start
        cap = length_cap(model, max_len)
        # no maps asked for: one token per step, the keys and values before it kept (cache.py)
        cache = (
            DecoderCache.start(model, enc_input[rows], memory[rows]) if can_cache(model) and not return_attn else None
        )
        for step in range(1, cap + 1):
            maps = AttentionMaps() if return_attn else None
            if cache is not None:
                logits = cached_logits(model, dec, cache, tgt_vocab)  # (k, V)
            else:
                logits = next_logits(model, dec, enc_input[rows], memory[rows], tgt_vocab, maps)  # (k, V)
            choice = choose(step, dec, logits, maps)
            rows = rows[choice.parents]  # (k',)
            dec = torch.cat([dec[choice.parents], choice.tokens.unsqueeze(1)], dim=1)  # (k', t+1)
            if cache is not None and model.config.pad_mask and bool(choice.tokens.eq(model.config.pad_id).any()):
                cache = None  # a forced padding token is blocked as a key from here on: the whole prefix again
            elif cache is not None:
                cache.reorder(choice.parents)
            if choice.stop:
                return Decoded(dec, True, cap, enc_maps)
        return Decoded(dec, False, cap, enc_maps)
