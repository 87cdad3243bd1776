"""The link a lesson sheet prints (issue 42): only an address learners can open. The server knows one when the
classroom listens on an --address, or when PLAYGROUND_PUBLIC_URL says it; otherwise the sheet says how the teacher
shares the view, never http://localhost:…, which opens nothing on a learner's machine."""

from __future__ import annotations

import html

import pytest

from deploy import classroom as deploy
from ui import links
from ui.sheet import LessonSheet, lesson_sheet_html

VIEW = "http://localhost:8501/attention?layer=2&head=1&lang=zh"


def _sheet(link: str) -> LessonSheet:
    sheet = LessonSheet()
    sheet.start("attention", "Attention", link)
    return sheet


@pytest.mark.parametrize("value", [None, "", "localhost:8501", "ftp://room/", "not a url", "http://"])
def test_without_a_public_address_no_link_is_printed_and_the_sheet_says_how_the_teacher_shares_it(value):
    environ = {} if value is None else {links.PUBLIC_URL_ENV: value}
    assert links.public_url(environ) is None and links.shareable_link(VIEW, environ) == ""
    page = lesson_sheet_html(_sheet(links.shareable_link(VIEW, environ)), [], "en")
    assert "localhost" not in page.split("<body>", 1)[1]
    assert "use the link your teacher shares (the sidebar's Share and export → Link to this view)" in html.unescape(
        page
    )
    zh = lesson_sheet_html(_sheet(""), [], "zh")
    assert "请使用老师分享的链接（老师可在侧栏“分享与导出 → 本视图的链接”中复制）" in zh


def test_with_a_public_address_the_link_opens_the_same_view_there():
    environ = {links.PUBLIC_URL_ENV: " http://192.168.1.20:8080/ "}
    link = links.shareable_link(VIEW, environ)
    assert link == "http://192.168.1.20:8080/attention?layer=2&head=1&lang=zh"  # the view's path and query kept
    assert links.shareable_link("http://localhost:8501/", environ) == "http://192.168.1.20:8080/"
    page = lesson_sheet_html(_sheet(link), [], "en")
    assert f"This view in the app: <code>{link.replace('&', '&amp;')}</code>" in page
    assert "your teacher shares" not in page


def test_the_classroom_tells_its_apps_the_address_it_listens_on_and_the_teachers_own_setting_wins(tmp_path):
    assert deploy.PUBLIC_URL_ENV == links.PUBLIC_URL_ENV  # one name, read by the app and set by the classroom
    public = deploy.public_url("192.168.1.20", 8080)
    assert public == "http://192.168.1.20:8080"
    env = deploy.app_environment(3, tmp_path, {"PATH": "/usr/bin"}, public=public)
    assert env[deploy.PUBLIC_URL_ENV] == "http://192.168.1.20:8080"
    assert links.public_url(env) == "http://192.168.1.20:8080"
    mine = {deploy.PUBLIC_URL_ENV: "https://lessons.example.edu"}
    assert (
        deploy.app_environment(3, tmp_path, mine, public=public)[deploy.PUBLIC_URL_ENV] == mine[deploy.PUBLIC_URL_ENV]
    )
    # every interface (0.0.0.0): the script cannot tell which address the room reaches, so the apps get none
    assert deploy.public_url("0.0.0.0", 8080) is None
    assert deploy.PUBLIC_URL_ENV not in deploy.app_environment(3, tmp_path, {"PATH": "/usr/bin"}, public=None)
