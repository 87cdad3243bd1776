"""The tab's session state is split by idea (issue 39 §4): datasets ← the model cache ← the session, and one memo
helper, session_memo, keeps what a page works out once per table in place of seven hand-rolled (key…, value) tuples."""

from streamlit.testing.v1 import AppTest

from tests.conftest import REPO
from tests.test_imports import imported, module_files
from ui.session import MEMO_PREFIX


def _memo_script():
    import streamlit as st

    from ui.session import session_memo

    ss = st.session_state
    ss.setdefault("computed", [])
    key_a, key_b = ss.get("key_a", 1), ss.get("key_b", 1)
    a = session_memo("a", (key_a,), lambda: ss.computed.append("a") or f"a of {key_a}")
    b = session_memo("b", (key_b,), lambda: ss.computed.append("b") or f"b of {key_b}")
    pairs = session_memo("pairs", (ss.get("pairs", []),), lambda: ss.computed.append("pairs") or len(ss.pairs))
    for value in (a, b, str(pairs)):
        st.text(value)


def test_a_memo_is_computed_again_only_when_its_key_changes_and_two_names_never_share_a_value():
    at = AppTest.from_function(_memo_script)
    at.session_state["pairs"] = [("我", "I")]
    at.run()
    assert at.session_state["computed"] == ["a", "b", "pairs"]
    assert [m.value for m in at.text] == ["a of 1", "b of 1", "1"]  # the same key, each name its own value
    at.run().run()  # reruns keep every value
    assert at.session_state["computed"] == ["a", "b", "pairs"]
    at.session_state["key_a"] = 2
    at.run()
    assert at.session_state["computed"] == ["a", "b", "pairs", "a"]  # only the memo whose key changed
    assert [m.value for m in at.text] == ["a of 2", "b of 1", "1"]
    equal = [("我", "I")]
    at.session_state["pairs"] = equal  # replaced by an equal table: nothing to do again
    at.run()
    assert at.session_state[MEMO_PREFIX + "pairs"][0][0] is equal  # kept, so the next run compares it at once
    at.session_state["pairs"] = [("我", "I"), ("你", "you")]  # a new table
    at.run()
    assert at.session_state["computed"] == ["a", "b", "pairs", "a", "pairs"]
    assert at.text[2].value == "2"


def test_ui_state_is_gone_and_its_three_ideas_import_one_way():
    # ui/state.py held five ideas in 576 lines; its target was at most 300 lines, or gone
    assert not (REPO / "ui" / "state.py").exists()
    files = module_files()
    imports = {name: imported(name, files[name], set(files)) for name in ("ui.datasets", "ui.model_cache")}
    assert not imports["ui.datasets"] & {"ui.model_cache", "ui.session"}
    assert "ui.session" not in imports["ui.model_cache"]
