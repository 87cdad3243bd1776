"""Every page's lesson sheet, as a teacher uses it (issue 21 §1): downloaded from the sidebar, opened in Chromium from
file:// with every request outside the file refused, and printed to PDF on A4 and Letter. The sheet holds the page's
headings and explanation in the page's language, each chart once with its caption, and prints with every chart, table
and the link inside the page's width and each chart whole on one page. Issue 32 §1: the file is at most 1.5 MB, no two
text boxes of a figure overlap, on screen or printed on either paper, the printed text holds no word that tells the
reader to use a mouse, and the exercises' answer key starts a printed page of its own."""

from __future__ import annotations

import re

import pytest

from tests.app.test_sheet_pages import MOUSE_WORDS
from tests.e2e.helpers import (
    PAGE_SLUGS,
    TITLES,
    expect,
    go_to,
    no_exception,
    page_charts,
    share_section,
    switch_language,
)
from tests.ui.test_packing import CASES
from ui import packing
from ui.sheet import SHEET_BYTES

pytestmark = pytest.mark.e2e

SHARE = {"en": ("Share and export", "Lesson sheet (HTML)"), "zh": ("分享与导出", "课堂讲义（HTML）")}
FIGURE = {"en": r"^Figure \d+\. \S", "zh": r"^图 \d+．\S"}
# printable area at 96 px per inch inside the sheet's 12 mm margins
PAPER = {"A4": (210 - 24, 297 - 24), "Letter": (215.9 - 24, 279.4 - 24)}  # mm
PX_PER_MM = 96 / 25.4
MAX_A4_PAGES = 4  # issue 42: every page's sheet, answer key included


def _download_sheet(page, lang: str, folder):
    title, button = SHARE[lang]
    section = share_section(page, title)
    with page.expect_download(timeout=120_000) as download:  # the sheet is made when asked for: slow on a busy machine
        section.get_by_role("button", name=button).click()
    path = folder / download.value.suggested_filename
    download.value.save_as(path)
    return path


def _main_headings(page) -> list[str]:
    main = page.get_by_test_id("stMain")
    return [h.strip() for h in main.locator("h2, h3").all_inner_texts() if h.strip()]


def _read_offline(browser, path):
    """The sheet opened from file:// in a fresh context that refuses (and records) every other request."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    context.route(re.compile(r"^(?!file:).*"), lambda route: route.abort())
    reader = context.new_page()
    errors: list[str] = []
    reader.on("pageerror", lambda error: errors.append(str(error)))
    reader.goto(path.as_uri())
    reader.wait_for_selector("html:not([data-charts=drawing])", state="attached")  # plotly.js unpacked, figures drawn
    return context, reader, requests, errors


# every pair of text boxes of one figure (titles, axis titles, tick labels, legend, colour bar, annotations; not the
# texts a trace draws at its points: the numbers in a heatmap's cells, the tokens beside an embedding's dots) that
# overlap by more than a pixel each way
OVERLAPS = """() => [...document.querySelectorAll('figure.chart')].flatMap((figure, n) => {
  const boxes = [...figure.querySelectorAll('.main-svg text')]
    .filter(t => !t.closest('g.trace') && t.textContent.trim())
    .map(t => [t.textContent.trim(), t.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && r.height > 0);
  const found = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (x > 1 && y > 1) found.push(`Figure ${n + 1}: “${a}” over “${b}”`);
  }
  return found;
})"""


def _check_sheet(browser, page, slug: str, lang: str, tmp_path) -> None:
    index = PAGE_SLUGS.index(slug)
    headings = _main_headings(page)
    main = page.get_by_test_id("stMain")
    charts_on_page = page_charts(page).count() + main.get_by_test_id("stVegaLiteChart").count()
    intro = page.get_by_test_id("stMain").get_by_test_id("stMarkdown").first.inner_text().strip()
    path = _download_sheet(page, lang, tmp_path)
    assert path.name.startswith(f"lesson-{slug}-") and path.suffix == ".html"
    assert path.stat().st_size <= SHEET_BYTES, path.stat().st_size

    context, reader, requests, errors = _read_offline(browser, path)
    try:
        expect(reader.locator("h1")).to_have_text(TITLES[lang][index])
        assert reader.locator("html").get_attribute("lang") == lang
        # the page's explanation, in its language: a sentence of it at least (its mouse instructions are said on paper
        # in their paper form, tests/app/test_sheet_pages.py)
        sentences = [part for part in re.split(r"(?<=[.。])\s*", intro) if len(part) > 8]
        main_text = reader.locator("main").inner_text()
        assert any(sentence in main_text for sentence in sentences), (intro, main_text[:500])
        sheet_headings = [h.strip() for h in reader.locator("main").locator("h2, h3").all_inner_texts()]
        assert set(sheet_headings) <= set(headings) | set(sheet_headings_only(reader)), (sheet_headings, headings)
        kept = [h for h in headings if h in sheet_headings]
        assert kept or not headings, (headings, sheet_headings)  # the page's sections, under its own headings

        figures = reader.locator("figure.chart")
        expect(figures).to_have_count(charts_on_page)  # each chart once
        captions = figures.locator("figcaption").all_inner_texts()
        assert len(set(captions)) == len(captions), captions
        assert all(re.match(FIGURE[lang], c) for c in captions), captions
        for i in range(charts_on_page):
            expect(figures.nth(i).locator(".main-svg").first).to_be_visible()
        assert reader.locator("html").get_attribute("data-charts") == ("drawn" if charts_on_page else "none")
        assert reader.evaluate(OVERLAPS) == []
        questions = reader.locator("section.exercises li")
        assert 3 <= questions.count() <= 5 if charts_on_page else questions.count() == 0

        for paper, (width_mm, height_mm) in PAPER.items():
            pdf = reader.pdf(format=paper, print_background=True)
            pages = len(re.findall(rb"/Type\s*/Page\b", pdf))  # each page object (not /Pages, the tree)
            assert pdf.startswith(b"%PDF") and pages >= (2 if charts_on_page else 1)  # the answers: a page of their own
            print(f"{slug} ({lang}) on {paper}: {pages} pages")  # issue 42's figure (pytest -s shows it)
            if paper == "A4":
                assert pages <= MAX_A4_PAGES, f"{slug}: {pages} A4 pages"  # a sheet a teacher hands out as it is
            reader.emulate_media(media="print")
            assert reader.evaluate(OVERLAPS) == [], paper
            printed = reader.locator("body").inner_text()
            assert MOUSE_WORDS.findall(printed) == [], (paper, MOUSE_WORDS.findall(printed))
            if charts_on_page:
                answers = reader.locator("section.answers")
                assert answers.evaluate("a => getComputedStyle(a).breakBefore") == "page"
            width, height = width_mm * PX_PER_MM, height_mm * PX_PER_MM
            sizes = reader.evaluate(
                """() => ({
                    figures: [...document.querySelectorAll('figure.chart')].map(f => {
                        const r = f.getBoundingClientRect(); return [r.width, r.height]; }),
                    tables: [...document.querySelectorAll('table, pre, .formula')].map(
                        t => t.getBoundingClientRect().width),
                    body: document.body.getBoundingClientRect().width,
                    link: (l => [l.scrollWidth, l.clientWidth])(document.querySelector('.link')),
                    avoid: [...document.querySelectorAll('figure.chart')].map(
                        f => getComputedStyle(f).breakInside),
                })"""
            )
            assert sizes["body"] <= width + 1, (paper, sizes["body"])
            assert all(w <= width + 1 and h <= height for w, h in sizes["figures"]), (paper, sizes["figures"])
            assert all(w <= sizes["body"] + 1 for w in sizes["tables"]), (paper, sizes["tables"], sizes["body"])
            assert sizes["link"][0] <= sizes["link"][1] + 1, sizes["link"]  # the link wraps inside the page
            assert set(sizes["avoid"]) <= {"avoid"}
            breaks = reader.evaluate(
                """() => ({
                    headings: [...document.querySelectorAll('main h2, main h3')].map(
                        h => getComputedStyle(h).breakAfter),
                    tables: [...document.querySelectorAll('.table')].map(t => getComputedStyle(t).breakInside),
                })"""
            )
            assert set(breaks["headings"]) <= {"avoid"} and set(breaks["tables"]) <= {"avoid"}, breaks
            reader.emulate_media(
                media="null"
            )  # no emulation: the next pdf() prints with print media, as a browser does
        assert not errors, errors
        assert all(url.startswith("file:") for url in requests), requests  # nothing leaves the file
    finally:
        context.close()


def sheet_headings_only(reader) -> list[str]:
    """Headings only the sheet has: a section the page shows with a widget (the decoding strategy, Train's results)."""
    return [
        h
        for h in reader.locator("main").locator("h2, h3").all_inner_texts()
        if h.startswith(
            ("How to choose the next word:", "如何选择下一个词：", "Results of the current model", "当前模型的结果")
            + ("Exercises", "练习")  # the sheet's own exercises on its figures
        )
    ]


@pytest.mark.parametrize("slug", PAGE_SLUGS)
def test_every_pages_sheet_opens_offline_and_prints_on_a4_and_letter(new_page, browser, tmp_path, slug):
    page = new_page()
    go_to(page, slug)
    _check_sheet(browser, page, slug, "en", tmp_path)
    no_exception(page)


def test_a_sheet_in_chinese(new_page, browser, tmp_path):
    page = new_page()
    switch_language(page, "zh")
    go_to(page, "inside", "zh")
    _check_sheet(browser, page, "inside", "zh", tmp_path)


def test_the_sheets_unpacker_gives_back_every_byte_in_chromium(browser):
    # ui.packing's own cases (unsafe groups in every position and at the end, every byte, random and repeated data),
    # packed by Python and unpacked by the script every sheet carries
    elements = "".join(packing.pack(data).element(f'id="case-{i}"') for i, data in enumerate(CASES.values()))
    page = browser.new_page()
    try:
        page.set_content(f"<!DOCTYPE html><meta charset='utf-8'><body>{elements}<script>{packing.UNPACK_JS}</script>")
        unpacked = page.evaluate(
            "n => Array.from({length: n}, (_, i) => Array.from(unpack(document.getElementById('case-' + i))))",
            len(CASES),
        )
    finally:
        page.close()
    assert [bytes(data) for data in unpacked] == list(CASES.values())
