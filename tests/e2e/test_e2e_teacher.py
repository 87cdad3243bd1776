"""For teachers, in a real browser: a link copied from a page opens the same view in a new browser context; charts
download from the mode bar as PNG and SVG under meaningful names; matrices as CSV with their tokens; the trace and the
attention maps as JSON; the lesson sheet opens with no network and shows its charts (issue 13)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from tests.e2e.helpers import (
    LAZY_PARTS,
    REPO,
    changed_chart,
    choose,
    copied_link,
    expect,
    go_to,
    heatmap_z,
    no_exception,
    open_app,
    page_charts,
    plotly_data,
    press_slider,
    settled,
    share_section,
    sidebar,
)

pytestmark = pytest.mark.e2e


def _first_chart(page):
    """The page's first plotly chart (not ui/browser.py's hidden one, which a later run takes away)."""
    return page.get_by_test_id("stMain").locator(f".js-plotly-plot:not({LAZY_PARTS} *)").first


def _lab_variant(page) -> None:
    choose(page, "Experiment", "Your own variant")
    page.get_by_text("divide scores by √d_k", exact=True).click()  # the toggle, by its label


# one change per page; some change a value another widget derives from (issue 20 §4)
VIEWS = [
    ("data", lambda page: choose(page, "Tokenization", "whitespace: split on spaces only")),
    # n_heads 16 cannot divide d_model 8: the page adjusts it to 8, and the link must say 8
    ("train", lambda page: (press_slider(page, "n_heads", "End"), press_slider(page, "d_model", "Home"))),
    # a new d_model spreads the drawn dimensions over it again: the link must carry the new ones
    ("positional_encoding", lambda page: press_slider(page, "d_model", "End")),
    ("masks", lambda page: press_slider(page, "padding after the source", "ArrowRight")),
    ("inside", lambda page: page.get_by_role("button", name="Next step ▶").click()),
    ("attention", lambda page: (choose(page, "layer", "1"), choose(page, "head", "3"))),
    ("decoding", lambda page: page.get_by_role("button", name="Next ▶").first.click()),
    ("lab", _lab_variant),
]
# what each change shows in the link, as the page shows it
IN_LINK = {
    "train": ["n_heads=8", "d_model=8"],
    "positional_encoding": ["d_model=512", "dims=0%2C1%2C2%2C3%2C256%2C257%2C510%2C511"],
    "attention": ["layer=1", "head=3", "v=2"],
}
WIDGETS = ("stSelectbox", "stSlider", "stMultiSelect", "stRadio", "stCheckbox", "stTextInput", "stNumberInput")
_INPUTS = "els => els.map(e => (e.type === 'radio' || e.type === 'checkbox') ? String(e.checked) : e.value)"


def _view(page) -> list:
    """Every widget of the page as the learner sees it: its text and the state of its inputs (not ui/browser.py's
    hidden toggle, which one browser may have drawn and the other not yet)."""
    return [
        (testid, w.inner_text(), w.locator("input").evaluate_all(_INPUTS))
        for testid in WIDGETS
        for w in page.locator(f'[data-testid="stMain"] [data-testid="{testid}"]:not({LAZY_PARTS} *)').all()
    ]


@pytest.mark.parametrize(("slug", "change"), VIEWS, ids=[v[0] for v in VIEWS])
def test_a_copied_link_opens_the_same_view_in_a_new_browser(new_page, slug, change):
    page = new_page()
    go_to(page, slug)
    charts = _first_chart(page).count()
    before = plotly_data(_first_chart(page)) if charts else None
    change(page)
    settled(page)
    if slug in ("masks", "attention", "positional_encoding"):  # the first chart shows the change (once plotly has
        changed_chart(_first_chart(page), before)  # drawn it: it draws a moment after the run)
    link = copied_link(page)
    path = "" if slug == "data" else f"/{slug}"  # the Data page is the app's first page, at its root
    assert re.match(rf"http://127\.0\.0\.1:\d+{path}\?", link), link
    assert all(f"&{part}" in link or f"?{part}" in link for part in IN_LINK.get(slug, [])), link
    other = new_page(own_browser=True)  # a browser of its own: its own session, the bundled model
    open_app(other, link)
    no_exception(other)
    if charts:
        assert plotly_data(_first_chart(other)) == plotly_data(_first_chart(page))
    assert _view(other) == _view(page)
    expect(other.get_by_test_id("stAlertContentWarning").filter(has_text="This link was made with")).to_have_count(0)
    expect(other.get_by_test_id("stAlertContentWarning").filter(has_text="were replaced")).to_have_count(0)


def test_charts_download_as_named_png_and_svg_and_matrices_as_csv(page):
    go_to(page, "attention")
    choose(page, "layer", "1")
    chart = page.get_by_test_id("stMain").locator(".js-plotly-plot").first
    for fmt, magic in (("png", b"\x89PNG\r\n\x1a\n"), ("svg", b"<svg")):
        if fmt == "svg":
            share_section(page).get_by_text("SVG", exact=True).click()
            settled(page)
            chart = page.get_by_test_id("stMain").locator(".js-plotly-plot").first
        chart.hover()
        with page.expect_download() as download:
            chart.locator(".modebar-btn[data-title^='Download plot']").click()
        name = download.value.suggested_filename
        assert name == f"attention-dec_enc-layer-1-head-1.{fmt}", name
        assert download.value.path().read_bytes()[: len(magic)] == magic
    with page.expect_download() as download:
        page.get_by_test_id("stMain").get_by_role("button", name="CSV").first.click()
    rows = list(csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8"))))
    assert rows[0][1:] == ["我", "喜", "欢", "你"]  # the source tokens of the first bundled pair
    assert rows[1][0] == "S → I" and abs(sum(float(v) for v in rows[1][1:]) - 1) < 1e-3
    no_exception(page)


def test_the_attention_maps_and_the_trace_download_as_json(page):
    go_to(page, "attention")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download every attention map of this sentence").click()
    maps = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert maps["src_tokens"] == ["我", "喜", "欢", "你"] and len(maps["dec_enc_attns"]) == 2
    go_to(page, "inside")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the whole trace").click()
    trace = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert trace["steps"][0]["name"] == "enc_inputs" and trace["steps"][-1]["name"] == "loss"
    assert {"name", "where", "shape", "axes", "code", "values"} <= set(trace["steps"][5])


def test_the_lesson_sheet_opens_offline_and_shows_the_pages_charts(page, browser, tmp_path):
    go_to(page, "masks")
    charts = page_charts(page).count()
    with page.expect_download() as download:
        share_section(page).get_by_role("button", name="Lesson sheet (HTML)").click()
    sheet = tmp_path / download.value.suggested_filename
    download.value.save_as(sheet)
    assert sheet.name.startswith("lesson-masks-") and sheet.suffix == ".html"
    offline = browser.new_context()
    requests = []

    def no_network(route):
        requests.append(route.request.url)
        route.continue_() if route.request.url.startswith("file:") else route.abort()

    offline.route("**/*", no_network)
    reader = offline.new_page()
    reader.goto(sheet.as_uri())
    expect(reader.locator("h1")).to_have_text("Masks")
    drawn = reader.locator(".js-plotly-plot .main-svg")
    expect(reader.locator(".js-plotly-plot")).to_have_count(charts)
    expect(drawn.first).to_be_visible()
    assert all(url.startswith("file:") for url in requests)  # nothing fetched from a network
    assert heatmap_z(reader.locator(".js-plotly-plot").nth(0)) == heatmap_z(
        page.get_by_test_id("stMain").locator(".js-plotly-plot").nth(0)
    )
    offline.close()


def test_hostile_link_values_show_a_notice_and_the_page(new_page, app_url):
    page = new_page()
    open_app(page, f"{app_url}/attention?layer=99&head=abc&kind=%3Cscript%3E&pair=%24x%24&lang=xx")
    no_exception(page)
    expect(page.get_by_test_id("stAlertContentWarning").filter(has_text="were replaced")).to_be_visible()
    expect(page.locator("h1").first).to_have_text("Attention")


def test_a_link_that_is_a_new_servers_first_request_opens_the_app_not_a_bare_page(browser):
    from tests.e2e.server import streamlit_server

    with streamlit_server(REPO / "test-artifacts" / "fresh-server.log") as server:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{server.url}/attention?lang=zh&kind=enc_self&layer=1")  # nothing has run on this server yet
        expect(page.locator("h1").first).to_have_text("注意力", timeout=60_000)
        settled(page, timeout=60_000)
        links = sidebar(page).get_by_test_id("stSidebarNavLink")
        expect(links).to_have_count(8)  # the app's navigation, not Streamlit's list of files in pages/
        expect(links.first).to_contain_text("数据")
        expect(sidebar(page)).to_contain_text("当前模型")
        expect(page.get_by_role("combobox", name="层", exact=True)).to_have_value("2")  # layer=1 counts from 0
        no_exception(page)
        context.close()
