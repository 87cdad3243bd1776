"""Real-browser harness: one Streamlit server and one Debian Chromium (driven by Playwright) for each test process.

Locally the suite is skipped (with the reason) when /usr/bin/chromium or Playwright is missing; under CI
(CI=true) the same situation is a failure, so a broken install can never pass as "all skipped".
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, ServerError, streamlit_server


def pytest_collection_modifyitems(config, items):
    """Every test under tests/e2e/ is an e2e test, whether or not its module says so."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


def _missing_browser_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        return f"Playwright for Python is not importable ({exc}); install requirements-dev.txt"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing; install Debian's chromium (apt-get install -y chromium)"
    return None


@pytest.fixture(scope="session")
def browser_available() -> None:
    """Skip (locally) or fail (under CI) when Chromium or Playwright is missing."""
    reason = _missing_browser_reason()
    if reason is None:
        return
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"e2e tests cannot run under CI: {reason}", pytrace=False)
    pytest.skip(f"e2e tests skipped: {reason}")


@pytest.fixture(scope="session")
def app_url(browser_available) -> Iterator[str]:
    """Start `streamlit run app.py` on a free port, wait until /_stcore/health says ok, stop it afterwards."""
    try:
        with streamlit_server() as server:
            yield server.url
    except ServerError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="session")
def browser(browser_available):
    """One headless Chromium for the whole run."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def tabs_of(browser):
    """tabs_of(locale) → the browser context (en-US or zh-CN) whose tabs the tests' learners open in, one per locale
    for the whole run: a Streamlit session is a tab's, and the tabs share the context's HTTP cache and compiled
    scripts. A test that needs a browser of its own (cookies: a classroom) makes a context (helpers.open_learner)."""
    from tests.e2e.helpers import TIMEOUT, VIEWPORT

    contexts = {}

    def context(locale: str):
        if locale not in contexts:
            contexts[locale] = browser.new_context(viewport=VIEWPORT, locale=locale, accept_downloads=True)
            contexts[locale].set_default_timeout(TIMEOUT)
        return contexts[locale]

    yield context
    for each in contexts.values():
        each.close()


@pytest.fixture
def new_page(browser, tabs_of, app_url, request):
    """new_page() → a new tab (a new Streamlit session) opened on the app and idle; new_page(locale) in that locale's
    browser; new_page(before_opening=f) calls f(page) before the app is opened; new_page(own_browser=True) opens it
    in a browser of its own, as a student opens a link a teacher sent (nothing of this run's other tabs in its cache
    or its cookies).

    The tabs are closed after the test; a failing test leaves a screenshot and the browser log of each behind.
    """
    from tests.e2e.helpers import TIMEOUT, VIEWPORT, call_failed, keep_failure_artifacts, open_tab

    pages, logs, contexts = [], [], []

    def make(locale: str = "en-US", before_opening=None, own_browser: bool = False):
        context = tabs_of(locale)
        if own_browser:
            context = browser.new_context(viewport=VIEWPORT, locale=locale, accept_downloads=True)
            context.set_default_timeout(TIMEOUT)
            contexts.append(context)
        return open_tab(context, app_url, pages, logs, before_opening)

    yield make
    if call_failed(request):
        keep_failure_artifacts(request.node.name, pages, logs)
    for page in pages:
        if not page.is_closed():  # a test may close its tab itself (the tab goes away)
            page.close()
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    """The app in a new tab (a fresh session, English), loaded and idle."""
    return new_page()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can tell whether the test failed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
