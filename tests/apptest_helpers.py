"""Helpers for AppTest-driven page tests."""

import functools
import json
import re
import time
from pathlib import Path

from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[1] / "app.py")
# A running server decides once that the app uses st.navigation (the first run of app.py tells it) and then
# always runs app.py. AppTest forgets that before every run and, seeing a pages/ folder, would run a page
# script on its own as in Streamlit's old multipage mode; this makes it behave like the server.
_init = PagesManager.__init__


def _init_as_server(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    PagesManager.uses_pages_directory = False


PagesManager.__init__ = _init_as_server

PAGES = [
    "pages/data.py",
    "pages/train.py",
    "pages/positional_encoding.py",
    "pages/masks.py",
    "pages/inside.py",
    "pages/attention.py",
    "pages/decoding.py",
    "pages/lab.py",
]


def open_app(lang: str = "en", page: str | None = None, **state) -> AppTest:
    """A fresh browser tab on the app (its own session), optionally opened on a page (its first run is on that page, as
    when a learner opens the page's address; the Data page, on the 2,000-pair corpus, is not drawn first) and with
    session values set."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = lang
    for key, value in state.items():
        at.session_state[key] = value
    if page:
        at.switch_page(page)
    at.run()
    return at


@functools.cache
def opened_page(lang: str = "en", page: str | None = None) -> AppTest:
    """open_app(lang, page), made once per test process: the first run of a fresh tab on a page, shared by the tests
    that only read what it shows (they never run it again, click, set a value or change its session state)."""
    return open_app(lang, page)


def shown(markdown_source: str) -> str:
    """Markdown source as a reader sees it: backslash escapes of ASCII punctuation (CommonMark's, which
    transformer.text.markdown writes) removed; any other backslash is a character of the text."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown_source)


def texts(at: AppTest, kind: str) -> list[str]:
    """The text of every element of one kind (error, warning, success, markdown, …), as a reader sees it."""
    return [shown(e.value) for e in getattr(at, kind)]


def finish_job(at: AppTest, timeout: float = 60.0, job=None) -> None:
    """Wait until this tab's background job has finished, then rerun so the tab takes its result. After a run that may
    have taken the result already (Stop: the job can end during that very run), pass the job the tab had before it."""
    deadline = time.monotonic() + timeout
    job = job or at.session_state["job"]
    if job is None:  # a short job can end, and its result be taken, during the very run that started it
        took = [k for k in ("last_training", "lab") if k in at.session_state and at.session_state[k]]
        assert took, "this tab has no job and took no result"
        at.run()
        return
    while not job.finished:
        assert time.monotonic() < deadline, f"the job did not finish within {timeout} s (state {job.state})"
        time.sleep(0.02)
    at.run()


def wait_for_epochs(at: AppTest, n: int, timeout: float = 60.0) -> None:
    """Wait until this tab's job has trained at least n epochs (the tab does not rerun meanwhile)."""
    job = at.session_state["job"]
    deadline = time.monotonic() + timeout
    while job.epochs_done < n:
        assert time.monotonic() < deadline, f"fewer than {n} epochs after {timeout} s (state {job.state})"
        time.sleep(0.01)


def open_link(page: str, query: dict) -> AppTest:
    """A fresh tab opened on a link: the page path and its query string, the tab's very first run on that page."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(page)
    at.run()
    return at


def chart_spec(at: AppTest, key: str) -> dict:
    """The parsed plotly spec of the one chart drawn with key=key."""
    found = [el for el in at.get("plotly_chart") if el.proto.id.endswith(f"-{key}")]
    assert len(found) == 1, f"{len(found)} charts with key {key!r}"
    return json.loads(found[0].proto.spec)
