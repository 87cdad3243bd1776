"""A browser that reconnects runs its page again, so a learner whose server process died gets a working page.

When its websocket drops, Streamlit's browser side (1.67) reconnects and asks for a run only when the page has a
fragment that reruns on a timer; otherwise it keeps the page as drawn and counts on the server to resume its
session. A server that was restarted, or another app process of a classroom (deploy/classroom.py), does not hold
that session: nothing would run, and the learner would look at a page with nothing behind it, its buttons and
uploads going nowhere, until they happened to move a widget. The fragment here reruns itself once an hour and draws
nothing, so that every reconnect runs the page: a resumed session reruns as it was, and a new one draws the learner's
page afresh, with the widget values their browser still holds.
"""

from datetime import timedelta

import streamlit as st

from .i18n import t

RERUN_EVERY = timedelta(hours=1)  # the timer only has to exist; its runs cost next to nothing


@st.fragment(run_every=RERUN_EVERY)
def _timer() -> None:
    """Draws nothing."""


def rerun_on_reconnect() -> None:
    """Give this page a fragment that reruns on a timer (in the sidebar, where it takes no room)."""
    with st.sidebar:
        _timer()


def lost_session_notice(L: str) -> None:
    """While a session that replaced one the browser asked to resume is new (ui.session.init_session), say so above the
    page until the learner closes the message: the page looks as before, but everything they had on the old process
    has gone. (Not on its first run alone: the browser may send a run of its own at once, which would hide it.)"""
    ss = st.session_state
    if ss.get("session_lost"):
        st.warning(t("reconnect.session_lost", L), icon=":material/sync_problem:")
        st.button(
            t("reconnect.understood", L), key="session_lost_seen", on_click=ss.__setitem__, args=("session_lost", False)
        )
