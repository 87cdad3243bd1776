"""Fuzzing of what reads a link's values and the PLAYGROUND_TRAINING_SLOTS setting (tests/fuzz.py): each value is
taken or refused as the page does (ValueError, then the default and a notice), in well under a second; the setting
is a number in range or the default with one sentence that repeats the value only cut."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from jobs.slots import max_slots, read_slots
from tests.fuzz import MAX_MESSAGE_CHARS, digits, judged, user_text
from transformer.store import is_model_hash
from ui.view_state import LINK_VERSION, link_text, link_value

KINDS = ("int", "float", "bool", "str", "ints", "index", "marks", "pair")
link_values = st.one_of(
    user_text,
    digits,
    st.lists(st.tuples(digits, st.sampled_from("-?,"), digits).map("".join), max_size=8).map(",".join),
    st.sampled_from(["nan", "inf", "-1e999", "1e308", "true", "True", "1_0", " 2 ", "0x1", "٣", "²"]),
)


@given(link_values, st.sampled_from(KINDS), st.sampled_from(["1", LINK_VERSION, "x"]))
@example("9" * 400, "int", LINK_VERSION)
@example("\ud7fc" * 400, "float", "1")  # float()'s refusal repeated the text, each character as 6
def test_a_link_value_is_read_as_its_kind_or_refused_with_a_value_error(text, kind, version):
    value = judged(link_value, text, kind, version, errors=ValueError)
    if isinstance(value, ValueError):
        return
    if kind in ("int", "index"):
        assert isinstance(value, int)
    elif kind == "float":
        assert value == value and abs(value) != float("inf")
    elif kind in ("ints", "marks"):
        assert isinstance(value, list)
    if kind in ("int", "bool", "ints", "str", "index") and len(text) < 399:
        assert link_value(link_text(value, kind), kind) == value  # what a link says opens the same view


@given(link_values)
def test_a_links_model_is_a_fingerprint_or_nothing_is_looked_up(text):
    if judged(is_model_hash, text):
        assert len(text) in (8, 16) and set(text) <= set("0123456789abcdef")


@given(st.none() | user_text | digits, st.integers(1, 64), st.integers(1, 8))
@example("9" * 5_000, 2, 1)  # int() refused it: more than 4,300 digits
@example("x" * 10_000, 2, 1)  # was repeated whole
def test_the_training_slots_setting_is_a_number_in_range_or_the_default_with_a_reason(value, cores, default):
    slots, problem = judged(read_slots, value, cores, default)
    assert 1 <= slots <= max(default, max_slots(cores))
    if problem is not None:
        assert "\n" not in problem and len(problem) <= MAX_MESSAGE_CHARS, problem[:300]
