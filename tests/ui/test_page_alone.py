"""A page script that Streamlit runs alone, in its old multipage mode (a pages/ folder, and no run of app.py yet on
this server), runs again through app.py, even when another tab's run of app.py switched that mode off while the page
was starting (issue 43 §5: after a classroom's processes were restarted, one of three reconnecting tabs stayed on
its page drawn alone, without the sidebar and the "lost its connection" notice)."""

from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

import ui.session
from tests.apptest_helpers import APP


def sidebar_text(at: AppTest) -> str:
    return " ".join(m.value for m in at.sidebar.markdown)


def test_a_page_run_alone_runs_again_through_the_app_though_another_tab_left_the_old_mode_first(monkeypatch):
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = "en"
    at.run()
    drawn = sidebar_text(at)
    assert "Parameters:" in drawn  # the model block of the app's sidebar, drawn by app.py
    at.switch_page("pages/attention.py")
    start_as_a_fresh_server = PagesManager.__init__  # tests/apptest_helpers.py's: the mode off

    def old_mode(self, *args, **kwargs):  # this run starts in the old mode: the page script runs alone
        start_as_a_fresh_server(self, *args, **kwargs)
        PagesManager.uses_pages_directory = True

    leave = ui.session.leave_pages_directory_mode

    def another_tab_first() -> bool:  # another tab's app.py has switched the mode off in the meantime
        PagesManager.uses_pages_directory = False
        return leave()

    monkeypatch.setattr(PagesManager, "__init__", old_mode)
    monkeypatch.setattr(ui.session, "leave_pages_directory_mode", another_tab_first)
    at.run()
    assert not at.exception
    assert [h.value for h in at.title] == ["Attention"]
    assert "Parameters:" in sidebar_text(at)  # run through app.py: its sidebar, and with it the notices
