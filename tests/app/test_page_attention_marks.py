"""The Attention page's hand marks ride in the view's link (issue 30 §6): written as source-first links i-j, read back
on a fresh tab, and a mark off the sentence named in the notice box. A link made before marks had a parameter opens
the view it was made on: no marks, no parameter (tests/ui/test_view_state_marks.py holds the link text)."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.apptest_helpers import APP, open_app, texts

ATTN = "pages/attention.py"
PAIRS = [("谢谢你", "Thank you ."), ("我很好", "I am fine .")]  # no gold: the AER grid is not computed


def _open_link(query: dict) -> AppTest:
    """A fresh tab on the tutorial pairs opened on a link to the page (its first run on that page)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["pairs"] = PAIRS
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(ATTN)
    return at.run()


def _map(at) -> list:
    """The data of the map at the top of the page (its marks included)."""
    (found,) = [el for el in at.get("plotly_chart") if el.proto.id.endswith("-click_attn_chart")]
    return json.loads(found.proto.spec)["data"]


def test_hand_marks_ride_in_the_link_and_a_mark_off_the_sentence_is_named():
    # (decoder row, source column): row 1 predicts you, from 你 (column 2) and 谢; row 0 predicts Thank
    at = open_app(page=ATTN, pairs=PAIRS, attn_marks=[(1, 2), (0, 0), (1, 1)])
    assert not at.exception
    query = dict(at.query_params)
    assert query["marks"] == "0-0,1-1,2-1"  # source index first, as gold links are written

    fresh = _open_link(query | {"marks": "0-0,1-1,2-1,7-1"})  # 7: past the 3 source tokens
    assert not fresh.exception
    assert fresh.session_state["attn_marks"] == [(0, 0), (1, 1), (1, 2)]
    assert _map(fresh) == _map(at)  # the same marks drawn on the same map
    assert any("marks=0-0,1-1,2-1,7-1 → 0-0,1-1,2-1" in w for w in texts(fresh, "warning"))
    assert dict(fresh.query_params)["marks"] == "0-0,1-1,2-1"
