"""Every use of Streamlit's internals, in one place: the fragment-run filter, the pages-directory flag, the running
server and this run's session. Importing this module checks that each internal it uses is still there, with the
signature it was written against (Streamlit TESTED_STREAMLIT, pinned in requirements.txt); if one is not, the app
refuses to start with one line saying so, instead of misbehaving in a way only a browser test would notice.

The fragment-run filter. A fragment's run (its timer's, or a click inside it) takes the values of its own widgets
only. The sidebar's job status is a fragment that reruns on a timer (every second while this tab trains, every few
seconds while others do). Its browser side sends, with each of those runs, the value of every widget on the page, as
the browser holds it when the timer fires. A run that the learner started just before (an upload, a new dataset, a
link) may set values of its own: the Data page's dataset becomes "Your own" after an upload, a dataset brings its
recipe's settings. When the timer fires before the browser has received that run, the fragment's run comes after it
on the server with the values from before it, sets them back and calls their widgets' callbacks as if the learner had
changed them: in a classroom, a learner's uploaded table became the corpus again while the page still showed it.

A learner who changes a widget outside a fragment starts a run of the whole page, which brings its value; in a
fragment's run only the fragment's widgets can have been changed. So here a fragment's run drops the values of every
other widget before Streamlit takes them: they keep the values the server holds.

A fragment's id is its place in the page (its function's name and the position where it is drawn), and the browser
sends a click in a fragment under the id of the last run it received. An element drawn before a fragment on some runs
only would give the fragment a new id on a run that draws it or stops drawing it, and a click sent under the old id
would then be dropped here. So the sidebar holds the place of its optional button above the job status, whose Stop
must never be lost (ui.sidebar); ui.browser's lazy_parts, after the page's own elements, tries its click again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import inspect
from importlib.metadata import version

TESTED_STREAMLIT = "1.67.0"  # the Streamlit release these internals were read from (requirements.txt pins ~=1.67.0)
# the logger Streamlit's caches warn through when no session runs (ui.warmup quiets it while it fills them)
SCRIPT_RUN_CONTEXT_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"


class StreamlitChanged(RuntimeError):
    """The installed Streamlit lacks an internal the app uses, or has changed its signature."""


def _refuse(what: str) -> StreamlitChanged:
    return StreamlitChanged(
        f"This app was tested with Streamlit {TESTED_STREAMLIT}; the installed Streamlit {version('streamlit')} "
        f"{what}: install the tested release (pip install -r requirements.txt)."
    )


try:
    from streamlit.proto.WidgetStates_pb2 import WidgetStates
    from streamlit.runtime import Runtime
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext, get_script_run_ctx
    from streamlit.runtime.session_manager import ActiveSessionInfo, SessionManager
    from streamlit.runtime.state.common import WidgetMetadata
    from streamlit.runtime.state.session_state import SessionState
except ImportError as error:
    raise _refuse(f"has no {error.name or error}") from None

# the methods used, with their signatures as Streamlit TESTED_STREAMLIT has them (annotations left out)
METHODS = {
    (SessionState, "on_script_will_rerun"): (
        "(self, fresh_widget_states, *, replay_trigger_states=None, replay_trigger_values=None, "
        "is_history_navigation=False)"
    ),
    (SessionState, "get_widget_metadata"): "(self, widget_id)",
    (Runtime, "exists"): "()",
    (Runtime, "instance"): "()",
    (Runtime, "is_active_session"): "(self, session_id)",
    (Runtime, "connect_session"): "(self, client, user_info, existing_session_id=None, session_id_override=None)",
    (SessionManager, "get_active_session_info"): "(self, session_id)",
    (AppSession, "request_rerun"): "(self, client_state)",
}
# the attributes read or set: class-level ones (dataclass fields, flags) and those an instance sets in __init__
ATTRIBUTES = {
    (PagesManager, "uses_pages_directory"),
    (ScriptRunContext, "fragment_ids_this_run"),
    (ScriptRunContext, "session_id"),
    (WidgetMetadata, "fragment_id"),
    (ActiveSessionInfo, "session"),
    (ActiveSessionInfo, "script_run_count"),
}
INSTANCE_ATTRIBUTES = {(Runtime, "_script_cache"), (Runtime, "_session_mgr"), (AppSession, "_scriptrunner")}


def _bare(signature: inspect.Signature) -> str:
    """A signature as text without its annotations (they are only text, and change with no effect on a call)."""
    parameters = [p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=parameters, return_annotation=inspect.Signature.empty))


def _has(cls, name: str) -> bool:
    """Whether cls has the attribute name, as a class attribute or as a dataclass field (one without a default)."""
    return hasattr(cls, name) or (dataclasses.is_dataclass(cls) and name in {f.name for f in dataclasses.fields(cls)})


def changed_internals(methods=None, attributes=None, instance_attributes=None) -> list[str]:
    """What of the internals this module uses (by default METHODS, ATTRIBUTES, INSTANCE_ATTRIBUTES) is missing or
    has another signature, as "Class.name" phrases; empty when all is as tested."""
    methods = METHODS if methods is None else methods
    attributes = ATTRIBUTES if attributes is None else attributes
    instance_attributes = INSTANCE_ATTRIBUTES if instance_attributes is None else instance_attributes
    found = []
    for (cls, name), expected in methods.items():
        method = inspect.getattr_static(cls, name, None)
        if method is None:
            found.append(f"has no {cls.__name__}.{name}")
        elif _bare(inspect.signature(getattr(cls, name), follow_wrapped=True)) != expected:
            found.append(f"changed the signature of {cls.__name__}.{name}")
    for cls, name in sorted(attributes, key=str):
        if not _has(cls, name):
            found.append(f"has no {cls.__name__}.{name}")
    for cls, name in sorted(instance_attributes, key=str):
        if name not in cls.__init__.__code__.co_names:  # the names __init__ sets or reads as self.<name>
            found.append(f"has no {cls.__name__}.{name}")
    return found


def check_streamlit(**internals) -> None:
    """Raise StreamlitChanged, with one line naming the tested release, if an internal used here has changed."""
    found = changed_internals(**internals)
    if found:
        raise _refuse(" and ".join(found))


check_streamlit()


def fragment_widget_states(states: WidgetStates, session_state: SessionState, fragments: set[str]) -> WidgetStates:
    """The states of the widgets drawn in one of `fragments` (and of widgets the server has not seen drawn yet)."""
    kept = WidgetStates()
    for state in states.widgets:
        metadata = session_state.get_widget_metadata(state.id)
        if metadata is None or metadata.fragment_id in fragments:
            kept.widgets.append(state)
    return kept


def _only_the_fragments_widgets(will_rerun):
    @functools.wraps(will_rerun)
    def on_script_will_rerun(self, fresh_widget_states, *args, **kwargs):
        ctx = get_script_run_ctx()
        fragments = getattr(ctx, "fragment_ids_this_run", None)
        if fresh_widget_states is not None and fragments:
            fresh_widget_states = fragment_widget_states(fresh_widget_states, self, set(fragments))
        return will_rerun(self, fresh_widget_states, *args, **kwargs)

    on_script_will_rerun.keeps_fragment_runs_to_their_widgets = True
    return on_script_will_rerun


def keep_fragment_runs_to_their_widgets() -> None:
    """Make every session of this server take, in a fragment's run, the values of that fragment's widgets only (once
    per process; app.py calls it on every run)."""
    if not getattr(SessionState.on_script_will_rerun, "keeps_fragment_runs_to_their_widgets", False):
        SessionState.on_script_will_rerun = _only_the_fragments_widgets(SessionState.on_script_will_rerun)


def leave_pages_directory_mode() -> bool:
    """If this server's sessions still start in Streamlit's old multipage mode (a pages/ folder exists and no script
    has called st.navigation yet on this server), switch that mode off as st.navigation would; True if it was on.

    A run in that mode runs a page script alone (ui.session.page_setup), or app.py with other widget ids than every
    later run: the first tab of a server just started (a classroom process restarted after a crash) lost its first
    click in the sidebar (English or 中文, the presenter view), taken for a widget no longer drawn. So app.py calls
    this first and, when the mode was on, runs again."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        return True
    return False


def server_running() -> bool:
    """Whether a Streamlit server runs in this process (False under AppTest and in plain Python)."""
    return Runtime.exists()


def session_alive(session_id: str) -> bool:
    """Whether the tab is still connected (always True outside a running server, e.g. under AppTest)."""
    return not Runtime.exists() or Runtime.instance().is_active_session(session_id)


def session_id() -> str:
    """This tab's session id ("no-session" outside a script run)."""
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx else "no-session"


def resumed_session_id(headers) -> str | None:
    """The session a reconnecting browser asked to resume, from its websocket's request headers (None on a tab's first
    connection). Streamlit's browser side sends it as the third entry of Sec-WebSocket-Protocol ("streamlit, <xsrf
    token>, <session id>"), and its server resumes that session when it still holds it."""
    entries = [entry.strip() for entry in (headers.get("Sec-WebSocket-Protocol") or "").split(",")]
    return entries[2] if len(entries) >= 3 and entries[2] else None


LOST_SESSION_RUN_AFTER = 2.0  # s a new session for a browser that asked to resume another waits for a run it asks for


def run_sessions_that_could_not_resume() -> None:
    """Make the server run the page of a session that replaced one its browser asked to resume, when the browser itself
    asks for no run. A browser that loses its connection while a run it asked for has not come back (a classroom
    process that hung on the learner's click) reconnects without asking again: its new session would never run, and
    the learner would look at the old page with nothing behind it. Once per process; a browser that asks for a run
    within LOST_SESSION_RUN_AFTER (the usual case: ui.reconnect) is left to it."""
    if not getattr(Runtime.connect_session, "runs_lost_sessions", False):
        Runtime.connect_session = _run_if_not_resumed(Runtime.connect_session)


def _run_if_not_resumed(connect):
    @functools.wraps(connect)
    def connect_session(self, client, user_info, existing_session_id=None, session_id_override=None):
        session_id = connect(self, client, user_info, existing_session_id, session_id_override)
        if existing_session_id is not None and session_id != existing_session_id:
            with contextlib.suppress(RuntimeError):  # no event loop: not a running server's websocket
                asyncio.get_running_loop().call_later(LOST_SESSION_RUN_AFTER, _run_if_idle, self, session_id)
        return session_id

    connect_session.runs_lost_sessions = True
    return connect_session


def _run_if_idle(runtime, session_id: str) -> None:
    """Run the page of a connected session that has not run yet."""
    info = runtime._session_mgr.get_active_session_info(session_id)
    # no run finished and none running (the script runner is dropped between runs: it alone does not say "never")
    if info is not None and info.script_run_count == 0 and info.session._scriptrunner is None:
        info.session.request_rerun(None)


def script_cache():
    """The running server's ScriptCache (where it keeps compiled scripts), or None when no server runs."""
    return getattr(Runtime.instance(), "_script_cache", None) if Runtime.exists() else None
