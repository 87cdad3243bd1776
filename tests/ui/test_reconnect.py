"""A tab whose session was lost with its server process is told so (issue 31: a hung or dead classroom process)."""

from tests.apptest_helpers import open_app, texts
from ui import session
from ui.compat import resumed_session_id

LOST = "This tab lost its connection, and the server process that held its session has gone"


def test_the_session_a_reconnecting_browser_asks_for_is_read_from_its_websocket_headers():
    assert resumed_session_id({"Sec-WebSocket-Protocol": "streamlit, xsrf-token, 1234-abcd"}) == "1234-abcd"
    assert resumed_session_id({"Sec-WebSocket-Protocol": "streamlit, xsrf-token, "}) is None  # a first connection
    assert resumed_session_id({"Sec-WebSocket-Protocol": "streamlit"}) is None
    assert resumed_session_id({}) is None


def test_a_fresh_session_for_a_browser_that_asked_for_another_says_what_was_lost_until_closed(monkeypatch):
    assert not [w for w in texts(open_app(), "warning") if LOST in w]  # a new tab: nothing was lost
    monkeypatch.setattr(session, "resumed_session_id", lambda headers: "a-session-this-process-never-had")
    at = open_app()
    assert [w for w in texts(at, "warning") if LOST in w]
    at.switch_page("pages/attention.py").run()  # on every page, until the learner has read it
    assert [w for w in texts(at, "warning") if LOST in w]
    at.button(key="session_lost_seen").click().run()
    assert not [w for w in texts(at, "warning") if LOST in w]
    assert "session_lost_seen" not in [b.key for b in at.button]
