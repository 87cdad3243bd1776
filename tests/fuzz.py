"""What the fuzzing of the parsers of users' bytes shares (docs/robustness.md, "Fuzzed parsers"): the number of
inputs per parser, the user's text as hypothesis draws it, and judged(), which runs a parser on one input and fails
when it takes too long, raises anything but the project's own error, or says too much.

The fast suite tries FAST_EXAMPLES inputs per parser; a run with --with-slow, or with the browser tests (the README's
test command, CI), tries SLOW_EXAMPLES (tests/conftest.py loads the hypothesis profile)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from transformer.text import ECHO_CHARS

FAST_EXAMPLES = 75
SLOW_EXAMPLES = 20 * FAST_EXAMPLES
CPU_SECONDS = 0.5  # the most one input may take a parser, as issue 43 asks of the checkpoint loader
# a message longer than this repeats more of the user's text than transformer.text.echo keeps (a message quotes at
# most a couple of cut texts, beside its own words)
MAX_MESSAGE_CHARS = 3 * ECHO_CHARS + 600

_COMMON = {
    "deadline": None,  # judged() bounds CPU time: a wall-clock deadline fails on a machine that other work shares
    "database": None,  # nothing written into the checkout; a failure prints the input that failed, to copy
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
}
settings.register_profile("fuzz-fast", max_examples=FAST_EXAMPLES, **_COMMON)
settings.register_profile("fuzz-slow", max_examples=SLOW_EXAMPLES, **_COMMON)


# ---------------------------------------------------------------- what a user may type or send


def _long(piece: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A piece repeated into a text of thousands of characters: hypothesis alone draws short texts."""
    return st.tuples(piece, st.integers(300, 3_000)).map(lambda p: p[0] * p[1])


TRICKY = "\"\\'[]{},:;-?=+@#\t\r\n\x00\x1b\u2028\u00a0\ufeff\ud800０٣²P S E"  # characters parsers trip on
tricky_text = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=60)
user_text = st.one_of(st.text(), tricky_text, _long(tricky_text.filter(bool)), _long(st.sampled_from(["9", '"\\"'])))
digits = st.one_of(st.integers(0, 10**12).map(str), _long(st.just("9")), st.text("0123456789٣０²", min_size=1))


def json_values(leaves: st.SearchStrategy | None = None) -> st.SearchStrategy:
    """Any JSON value (nested lists and objects of text, numbers, booleans and null)."""
    leaves = leaves or (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | tricky_text)
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=6) | st.dictionaries(tricky_text, inner, max_size=6),
        max_leaves=25,
    )


# ---------------------------------------------------------------- one input judged


def judged(parse: Callable, *args, errors: type[BaseException] | tuple = (), **kwargs):
    """parse(*args, **kwargs)'s value, or the error it raised when that is one of errors (the project's own); fails
    when the call takes more than CPU_SECONDS of CPU, raises anything else, or raises a message that is not one line
    of at most MAX_MESSAGE_CHARS characters (one that repeats the user's text whole)."""
    gc.disable()  # a collection of the whole test process's objects is not the parser's time
    start = time.process_time()
    try:
        result = parse(*args, **kwargs)
    except errors as exc:
        result = exc
        message = str(exc)
        assert "\n" not in message, f"a message of several lines: {message[:300]!r}"
        assert len(message) <= MAX_MESSAGE_CHARS, f"a message of {len(message):,} characters: {message[:300]!r}…"
    finally:
        seconds = time.process_time() - start
        gc.enable()
    assert seconds < CPU_SECONDS, f"{seconds:.2f} CPU seconds for one input"
    return result
