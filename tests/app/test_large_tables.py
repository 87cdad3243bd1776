"""Views over the whole dataset read at most MAX_STUDY_PAIRS pairs at once, and say so, when the table is larger
(a table of 20,000 pairs would hold every attention map of every pair at once, or beam-search all of them in one
page run)."""

import pytest

from tests.apptest_helpers import open_app
from transformer.config import MAX_STUDY_PAIRS
from ui.datasets import bundled_pairs
from ui.model_cache import CacheKind

ATTN, DEC = "pages/attention.py", "pages/decoding.py"


def _table(n: int) -> list[tuple[str, str]]:
    bundled = bundled_pairs()
    return [bundled[i % len(bundled)] for i in range(n)]


def test_head_statistics_read_the_first_pairs_of_a_large_table_and_say_so():
    at = open_app(page=ATTN, pairs=_table(MAX_STUDY_PAIRS + 50), attn_scope="dataset")
    assert not at.exception
    assert at.radio(key="attn_scope").options[0] == "the first 200 of the 250 pairs (teacher-forced)"
    pairs = tuple(_table(MAX_STUDY_PAIRS + 50)[:MAX_STUDY_PAIRS])
    study = at.session_state.model.values(CacheKind.HEADS)[(CacheKind.HEADS, "dataset", pairs)]
    assert study.sentences == MAX_STUDY_PAIRS
    at = open_app(page=ATTN, pairs=_table(MAX_STUDY_PAIRS), attn_scope="dataset")
    assert at.radio(key="attn_scope").options[0] == "the dataset (200 pairs, teacher-forced)"


@pytest.mark.slow
def test_beam_against_greedy_compares_the_first_pairs_of_a_large_table_and_says_so():
    at = open_app(page=DEC, dec_strategy="beam", pairs=_table(MAX_STUDY_PAIRS + 1))
    toggle = at.toggle(key="dec_beam_table")
    assert toggle.label == "Compare on the first 200 of the 201 pairs"
    toggle.set_value(True).run()
    assert not at.exception
    assert len(at.dataframe[1].value) == MAX_STUDY_PAIRS
