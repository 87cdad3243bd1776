"""The first tab of a server just started (a classroom process restarted after a crash, a teacher's laptop) keeps its
first click in the sidebar: Streamlit used to run that session's first run in its old pages-directory mode, which
gave the sidebar's widgets other ids than every later run, so the click was taken for a widget no longer drawn and
dropped (app.py, ui.compat.leave_pages_directory_mode)."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import VIEWPORT, expect, open_app, sidebar
from tests.e2e.server import REPO, streamlit_server

pytestmark = pytest.mark.e2e


def test_the_first_click_of_a_new_servers_first_tab_counts(browser):
    with streamlit_server(REPO / "test-artifacts" / "first-session-server.log") as server:
        context = browser.new_context(viewport=VIEWPORT)
        try:
            page = context.new_page()
            open_app(page, server.url)
            expect(page.locator("h1")).to_have_text("Sentence pairs")
            sidebar(page).get_by_text("中文").click()
            expect(page.locator("h1")).to_have_text("句子对")
            expect(sidebar(page).get_by_role("radio", name="中文")).to_be_checked()
        finally:
            context.close()
