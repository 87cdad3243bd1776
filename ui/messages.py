"""Domain errors in the UI language: package errors that carry a code, and data problems."""

from __future__ import annotations

from transformer.config import MAX_PAIRS, MAX_TOKEN_CHARS, MAX_TOKENS, MAX_VOCAB_SIZE
from transformer.data import SPECIALS, Problem
from ui.i18n import t

# a package error's code (TransformerError.code) → its words; an error whose code is not here shows its own message
ERRORS = {
    "split_too_few": "error.split_too_few",
    "split_all": "error.split_all",
    "split_none": "error.split_none",
    "split_no_combination": "error.split_no_combination",
    "split_one_length": "error.split_one_length",
    "split_no_length": "error.split_no_length",
    "split_no_word": "error.split_no_word",
    "store_bad_hash": "error.store_bad_hash",
    "store_damaged": "error.store_damaged",
    "store_damaged_unmoved": "error.store_damaged_unmoved",
    "store_blocked": "error.store_blocked",
    "store_full": "error.store_full",
    "store_model_too_large": "error.store_model_too_large",
    "store_model_not_a_checkpoint": "error.store_model_not_a_checkpoint",
    "store_unusable": "error.store_unusable",
    "store_setting": "error.store_setting",
    "bpe_vocab_size": "error.bpe_vocab_size",
    "empty_sentence": "error.empty_sentence",
    "sentence_too_long": "error.sentence_too_long",
    "padded_too_long": "error.padded_too_long",
    "reference_too_long": "error.reference_too_long",
}

# a data problem's kind (transformer.data.Problem.kind) → its words
PROBLEMS = {
    "no_pairs": "problem.no_pairs",
    "too_many_rows": "problem.too_many_rows",
    "too_many_tokens": "problem.too_many_tokens",
    "empty_source": "problem.empty_source",
    "empty_target": "problem.empty_target",
    "too_long": "problem.too_long",
    "token_too_long": "problem.token_too_long",
    "control": "problem.control",
    "duplicate": "problem.duplicate",
    "reserved": "problem.reserved",
}
SIDES = {"source": "side.source", "target": "side.target"}  # the detail of a problem of one side


def error_text(exc: Exception, lang: str) -> str:
    """A package error in the UI language when it carries a known code, else its own (English) message."""
    key = ERRORS.get(getattr(exc, "code", None) or "")
    return t(key, lang, **exc.values) if key else str(exc)


def problem_text(problem: Problem, lang: str) -> str:
    """A data problem in the UI language."""
    sided = ("too_long", "token_too_long", "too_many_tokens")
    detail = t(SIDES[problem.detail], lang) if problem.kind in sided else problem.detail
    limits = dict(
        max_tokens=MAX_TOKENS,
        max_pairs=f"{MAX_PAIRS:,}",
        max_token_chars=MAX_TOKEN_CHARS,
        max_distinct=f"{MAX_VOCAB_SIZE - len(SPECIALS):,}",
    )
    count = f"{problem.count:,}" if problem.count is not None else ""
    return t(PROBLEMS[problem.kind], lang, row=problem.row, detail=detail, count=count, **limits)
