"""ui.compat, the one module that touches Streamlit's internals: its fragment-run filter, driven without a browser,
and its guard, which refuses a Streamlit whose internals are not the tested ones."""

import contextvars
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState
from streamlit.runtime.state.common import WidgetMetadata
from streamlit.runtime.state.session_state import SessionState

from jobs.queue import Job, Run
from tests.apptest_helpers import open_app
from transformer import TrainConfig
from ui import compat
from ui.model_cache import CurrentModel

ROOT = Path(__file__).resolve().parents[2]
TABLE, STATUS = "$$ID-table", "$$ID-status"  # a page's widget, and one drawn in the job-status fragment


def widget_states(**values: int) -> WidgetStates:
    """What the browser sends with a run: the value of each widget it holds (ids as keyword names)."""
    states = WidgetStates()
    for widget_id, value in values.items():
        state = states.widgets.add()
        state.id, state.int_value = widget_id, value
    return states


@pytest.fixture
def session(monkeypatch) -> SessionState:
    """A session whose page drew TABLE (value 5, outside any fragment) and STATUS (value 1, in fragment "status"),
    with the filter installed (SessionState is put back as it was after the test)."""
    monkeypatch.setattr(SessionState, "on_script_will_rerun", SessionState.on_script_will_rerun)
    compat.keep_fragment_runs_to_their_widgets()
    state = SessionState()
    for widget_id, key, fragment in ((TABLE, "table", None), (STATUS, "status", "status")):
        metadata = WidgetMetadata(widget_id, lambda v: v, lambda v: v, "int_value", fragment_id=fragment)
        state.register_widget(metadata, key)
    state.on_script_finished({TABLE, STATUS})
    monkeypatch.setattr(compat, "get_script_run_ctx", lambda: None)  # a run of the whole page
    state.on_script_will_rerun(widget_states(**{TABLE: 5, STATUS: 1}))
    return state


def test_a_fragments_run_keeps_the_values_of_widgets_outside_it_as_the_server_holds_them(session, monkeypatch):
    monkeypatch.setattr(compat, "get_script_run_ctx", lambda: SimpleNamespace(fragment_ids_this_run=["status"]))
    session.on_script_will_rerun(widget_states(**{TABLE: 0, STATUS: 2}))  # the browser's table value is older
    assert (session["table"], session["status"]) == (5, 2)


def test_a_run_of_the_whole_page_takes_every_value_the_browser_sends(session, monkeypatch):
    monkeypatch.setattr(compat, "get_script_run_ctx", lambda: SimpleNamespace(fragment_ids_this_run=None))
    session.on_script_will_rerun(widget_states(**{TABLE: 0, STATUS: 2}))
    assert (session["table"], session["status"]) == (0, 2)


def test_the_filter_keeps_a_fragments_widgets_and_those_the_server_has_not_seen_drawn(session):
    kept = compat.fragment_widget_states(widget_states(**{TABLE: 0, STATUS: 2, "$$ID-new": 3}), session, {"status"})
    assert [state.id for state in kept.widgets] == [STATUS, "$$ID-new"]


def test_the_filter_is_installed_once_however_often_app_py_runs(monkeypatch):
    monkeypatch.setattr(SessionState, "on_script_will_rerun", SessionState.on_script_will_rerun)
    compat.keep_fragment_runs_to_their_widgets()
    installed = SessionState.on_script_will_rerun
    compat.keep_fragment_runs_to_their_widgets()
    assert SessionState.on_script_will_rerun is installed
    assert installed.keeps_fragment_runs_to_their_widgets


def test_the_installed_streamlit_has_every_internal_as_tested():
    assert compat.changed_internals() == []
    assert version("streamlit").startswith(compat.TESTED_STREAMLIT.rsplit(".", 1)[0] + ".")


def test_requirements_pin_the_tested_minor_release():
    pins = [line.split("#")[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    minor = compat.TESTED_STREAMLIT.rsplit(".", 1)[0]
    assert f"streamlit~={minor}.0" in pins


class Old:
    """A stand-in for a Streamlit class as a later release might change it."""

    flag = None

    def __init__(self):
        self._cache = None

    def on_script_will_rerun(self, fresh_widget_states, *, replay_trigger_states=None):
        """A signature with a keyword fewer than the tested one."""


@pytest.mark.parametrize(
    ("internals", "said"),
    [
        (dict(methods={(Old, "on_script_will_rerun"): "(self, fresh_widget_states)"}), "changed the signature of Old"),
        (dict(methods={(Old, "get_widget_metadata"): "(self, widget_id)"}), "has no Old.get_widget_metadata"),
        (dict(attributes={(Old, "uses_pages_directory")}), "has no Old.uses_pages_directory"),
        (dict(instance_attributes={(Old, "_script_cache")}), "has no Old._script_cache"),
    ],
)
def test_the_guard_refuses_a_missing_or_changed_internal_in_one_line_naming_the_tested_release(internals, said):
    nothing = dict(methods={}, attributes=set(), instance_attributes=set())
    with pytest.raises(compat.StreamlitChanged) as refused:
        compat.check_streamlit(**{**nothing, **internals})
    message = str(refused.value)
    assert said in message and f"tested with Streamlit {compat.TESTED_STREAMLIT}" in message
    assert "\n" not in message


def test_the_guard_accepts_internals_as_tested():
    compat.check_streamlit(
        methods={(Old, "on_script_will_rerun"): "(self, fresh_widget_states, *, replay_trigger_states=None)"},
        attributes={(Old, "flag")},
        instance_attributes={(Old, "_cache")},
    )


def test_the_server_refuses_to_start_on_a_changed_streamlit_with_one_line():
    changed = (
        "from streamlit.runtime.state.session_state import SessionState\n"
        "del SessionState.get_widget_metadata\n"
        "import serve\n"
    )
    done = subprocess.run([sys.executable, "-c", changed], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if "Streamlit" in line]
    assert lines == [
        f"This app was tested with Streamlit {compat.TESTED_STREAMLIT}; the installed Streamlit {version('streamlit')} "
        "has no SessionState.get_widget_metadata: install the tested release (pip install -r requirements.txt)."
    ]


@pytest.mark.parametrize("button_appears", [True, False], ids=["back-button-drawn", "back-button-gone"])
def test_a_stop_clicked_before_a_full_run_that_draws_or_removes_the_back_button_still_stops(
    monkeypatch, button_appears
):
    """The browser sends a click in the sidebar's job status under the fragment id of the run it last received. A full
    run that draws (or no longer draws) the optional "Back to your model" button above it must not give the fragment
    another id, or the filter would drop the Stop that arrives after that run."""
    at = open_app(page="pages/masks.py")
    model = at.session_state["model"]
    job = Job("train", "no-session", [Run("model", model.translator, [("我", "I")], TrainConfig(epochs=3))])
    job.state = "running"
    at.session_state["job"] = job
    back = {
        "own_model": CurrentModel(model.translator, "trained"),
        "_link_store": {"state": "opened", "model_id": model.id, "hash": "0" * 16, "page": "elsewhere"},
    }

    def show_back_button(shown: bool) -> None:
        for key, value in back.items():
            if shown:
                at.session_state[key] = value
            elif key in at.session_state:
                del at.session_state[key]
        at.run()
        assert [b.key for b in at.sidebar.button].count("back_to_own_model") == shown

    show_back_button(not button_appears)
    state: SessionState = at._session_state._state
    stop_id = state._key_id_mapper.get_id_from_key("job_stop")
    browsers_fragment = state.get_widget_metadata(stop_id).fragment_id  # the id the browser holds
    show_back_button(button_appears)  # a full run reaches the server before the click does
    click = state.get_widget_states()
    next(s for s in click if s.id == stop_id).trigger_value = True
    monkeypatch.setattr(
        compat, "get_script_run_ctx", lambda: SimpleNamespace(fragment_ids_this_run=[browsers_fragment])
    )
    states = WidgetStates()
    states.widgets.extend(click)

    def fragments_run() -> None:  # as the script runner's thread takes a run's values (its callbacks need this)
        ThreadState.initialize()
        state.on_script_will_rerun(states)

    contextvars.copy_context().run(fragments_run)
    assert job.stop_requested
