"""A fragment's run (its timer's, or a click inside it) takes the values of its own widgets only.

The sidebar's job status is a fragment that reruns on a timer (every second while this tab trains, every few seconds
while others do). Its browser side sends, with each of those runs, the value of every widget on the page, as the
browser holds it when the timer fires. A run that the learner started just before (an upload, a new dataset, a
link) may set values of its own: the Data page's dataset becomes "Your own" after an upload, a dataset brings its
recipe's settings. When the timer fires before the browser has received that run, the fragment's run comes after it
on the server with the values from before it, sets them back and calls their widgets' callbacks as if the learner had
changed them: in a classroom, a learner's uploaded table became the corpus again while the page still showed it.

A learner who changes a widget outside a fragment starts a run of the whole page, which brings its value; in a
fragment's run only the fragment's widgets can have been changed. So here a fragment's run drops the values of every
other widget before Streamlit takes them: they keep the values the server holds.
"""

from __future__ import annotations

import functools

from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
from streamlit.runtime.state.session_state import SessionState


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
