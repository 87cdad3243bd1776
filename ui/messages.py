"""Domain errors in the UI language: package errors that carry a code, and data problems."""

from __future__ import annotations

from transformer.config import MAX_PAIRS, MAX_TOKEN_CHARS, MAX_TOKENS, MAX_VOCAB_SIZE
from transformer.data import SPECIALS, Problem
from ui.i18n import t
from ui.strings import STRINGS


def error_text(exc: Exception, lang: str) -> str:
    """A package error in the UI language when it carries a known code, else its own (English) message."""
    code = getattr(exc, "code", None)
    if code and f"error.{code}" in STRINGS:
        return t(f"error.{code}", lang, **exc.values)
    return str(exc)


def problem_text(problem: Problem, lang: str) -> str:
    """A data problem in the UI language."""
    sided = ("too_long", "token_too_long", "too_many_tokens")
    detail = t(f"side.{problem.detail}", lang) if problem.kind in sided else problem.detail
    limits = dict(
        max_tokens=MAX_TOKENS,
        max_pairs=f"{MAX_PAIRS:,}",
        max_token_chars=MAX_TOKEN_CHARS,
        max_distinct=f"{MAX_VOCAB_SIZE - len(SPECIALS):,}",
    )
    count = f"{problem.count:,}" if problem.count is not None else ""
    return t(f"problem.{problem.kind}", lang, row=problem.row, detail=detail, count=count, **limits)
