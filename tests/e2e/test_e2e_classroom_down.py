"""Every app process of a classroom down (issue 43 §5): a learner who arrives, or reloads, meanwhile sees nginx's
restarting page instead of its bare "502 Bad Gateway": in English and Chinese, clean under axe, with nothing fetched
from elsewhere, and once a process answers it shows the app at the same address by itself.

The app processes are stand-ins (tests/deploy/fake_app.py: they answer any page with their port), behind the real
nginx and supervisor; stopping both (SIGSTOP, with the supervisor's checks far apart) keeps the outage under the
test's control, and SIGCONT ends it.
"""

from __future__ import annotations

import os
import re
import signal

import pytest

from deploy import classroom as deploy
from deploy import supervisor
from deploy.classroom import HealthChecks
from tests.conftest import wake
from tests.deploy.conftest import start_fake_app
from tests.e2e.accessibility import describe, violations
from tests.e2e.helpers import VIEWPORT, expect
from tests.e2e.test_e2e_classroom import free_ports, need_nginx

pytestmark = pytest.mark.e2e

BACK_SECONDS = 30  # after the outage ends, the page shows the app within this long (nginx skips a failed process 10 s)


def test_a_learner_who_arrives_while_every_process_is_down_sees_the_restarting_page_then_the_app(
    browser, tmp_path, monkeypatch
):
    need_nginx()
    monkeypatch.setattr(deploy, "start_app", start_fake_app)
    monkeypatch.setattr(supervisor, "start_app", start_fake_app)
    port, *apps = free_ports(3)
    health = HealthChecks(interval=600, request_timeout=0.5)  # the supervisor leaves the stopped processes alone
    with deploy.classroom(apps, port, "127.0.0.1", tmp_path / "run", (), tmp_path / "s", False, health) as room:
        context = browser.new_context(viewport=VIEWPORT, locale="zh-CN")
        try:
            page = context.new_page()
            asked: list[str] = []
            page.on("request", lambda request: asked.append(request.url))
            for process in room.apps:
                os.kill(process.pid, signal.SIGSTOP)
            address = f"{room.url}/Attention?model=0123456789abcdef"
            response = page.goto(address)
            assert response.status in (502, 504)
            assert response.headers["cache-control"] == "no-store"
            expect(page.get_by_role("heading", name="The class server is restarting")).to_be_visible()
            expect(page.get_by_role("heading", name="课堂服务器正在重启")).to_be_visible()
            expect(page.get_by_text("它每 3 秒重试一次")).to_be_visible()
            expect(page.get_by_role("status")).to_have_text(re.compile(r"^Tried 1 time\(s\) · 已重试 1 次$"))
            found = violations(page)
            assert found == [], describe(found)
            wake(room.apps)  # the outage ends
            expect(page.locator("body")).to_have_text(re.compile(r"^\s*\d+\s*$"), timeout=BACK_SECONDS * 1000)
            assert page.locator("body").inner_text().strip() in {a.rpartition(":")[2] for a in room.backends}
            assert page.url == address  # the same address: the learner's link, as they opened it
            assert asked and all(url.startswith(f"{room.url}/") for url in asked), asked  # nothing from elsewhere
        finally:
            wake(room.apps)
            context.close()
