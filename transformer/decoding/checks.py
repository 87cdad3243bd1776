"""Checks of decoding settings and forced tokens: a ConfigError or DataError whose sentence says what is allowed."""

from __future__ import annotations

import math

from ..config import MAX_BEAM_SIZE, MAX_LENGTH_PENALTY, MAX_SEED
from ..data import Vocab
from ..errors import ConfigError, DataError
from .processors import can_output


def check_whole(name: str, value, lo: int, hi: int | None = None) -> None:
    """ConfigError unless value is a whole number (not a bool) from lo to hi (no upper bound when hi is None)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or (hi is not None and value > hi):
        allowed = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
        raise ConfigError(f"{name} must be a whole number {allowed}, got {value!r}.")


def check_number(name: str, value, ok: bool, allowed: str) -> None:
    """ConfigError unless value is a finite number (not a bool) and ok; allowed says which numbers are."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or not ok:
        raise ConfigError(f"{name} must be {allowed}, got {value!r}.")


def check_beam(beam_size: int, length_penalty: float = 0.0, n_best: int | None = None) -> None:
    """ConfigError unless 1 ≤ beam_size ≤ MAX_BEAM_SIZE, 0 ≤ length_penalty ≤ MAX_LENGTH_PENALTY and
    1 ≤ n_best ≤ beam_size."""
    check_whole("the beam size", beam_size, 1, MAX_BEAM_SIZE)
    ok = isinstance(length_penalty, (int, float)) and 0 <= length_penalty <= MAX_LENGTH_PENALTY
    allowed = f"a number from 0 to {MAX_LENGTH_PENALTY:g} (0: none; the paper uses 0.6)"
    check_number("the length penalty", length_penalty, ok, allowed)
    if n_best is not None:
        check_whole("n-best", n_best, 1, beam_size)


def check_sampling(temperature: float = 1.0, top_k: int = 0, top_p: float = 1.0, seed: int = 0) -> None:
    """ConfigError unless temperature > 0 (and finite), top_k ≥ 0 (0: off), 0 < top_p ≤ 1 and 0 ≤ seed ≤ MAX_SEED."""
    ok = isinstance(temperature, (int, float)) and temperature > 0
    check_number("the temperature", temperature, ok, "a number above 0")
    check_whole("top-k", top_k, 0)
    ok = isinstance(top_p, (int, float)) and 0 < top_p <= 1
    check_number("top-p", top_p, ok, "a number above 0 and at most 1")
    check_whole("the seed", seed, 0, MAX_SEED)


def check_prefix(prefix: list[int], tgt_vocab: Vocab) -> None:
    """DataError unless every forced token id is one decoding can output (can_output: in the vocabulary, not P or S)."""
    bad = [i for i in prefix if not can_output(int(i), tgt_vocab)]
    if bad:
        raise DataError(f"the forced tokens must be output tokens of the target vocabulary, got id(s) {bad}.")
