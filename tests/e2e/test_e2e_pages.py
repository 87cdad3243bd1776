"""The Data, Positional encoding and Masks pages in a real browser: a choice that must stay visible after a
language switch, typed text that must survive a page switch, three heatmaps that must line up and be readable."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import expect, go_to, no_exception, settled, sidebar

pytestmark = pytest.mark.e2e

CELL_TEXT_FONTS = "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"


def _language(page, label: str) -> None:
    """Pick English or 中文 in the sidebar and wait for the page to redraw."""
    sidebar(page).get_by_role("radiogroup").first.get_by_text(label, exact=True).click()
    expect(sidebar(page).get_by_text("Current model" if label == "English" else "当前模型")).to_be_visible()
    settled(page)


def test_the_upload_mode_stays_selected_after_a_language_switch(page, tmp_path):
    mode = page.get_by_test_id("stRadio").filter(has_text="An uploaded file")
    mode.get_by_text("is added to the table", exact=True).click()
    settled(page)
    expect(mode.get_by_role("radio", name="is added to the table")).to_be_checked()

    _language(page, "中文")
    mode = page.get_by_test_id("stRadio").filter(has_text="上传的文件")
    expect(mode.get_by_role("radio", name="追加到当前表格")).to_be_checked()  # the same choice, in Chinese
    expect(mode.get_by_role("radio", name="替换当前表格")).not_to_be_checked()
    rows = int(page.get_by_test_id("stMetricValue").first.inner_text().replace(",", ""))  # 2,042: the corpus
    pairs = tmp_path / "more.tsv"
    pairs.write_text("source\ttarget\n你好\tHello .\n", encoding="utf-8")
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(pairs))
    expect(page.get_by_test_id("stMetricValue").first).to_have_text(f"{rows + 1:,}")  # added, not replaced

    _language(page, "English")
    mode = page.get_by_test_id("stRadio").filter(has_text="An uploaded file")
    expect(mode.get_by_role("radio", name="is added to the table")).to_be_checked()
    no_exception(page)


def test_a_half_typed_pair_survives_a_visit_to_another_page(page):
    source, target = page.get_by_placeholder("我 喜 欢 你"), page.get_by_placeholder("I love you .")
    source.fill("我爱")
    target.fill("I love")
    target.press("Tab")  # not added yet: the learner leaves the box to look at something else first
    settled(page)
    go_to(page, "positional_encoding")
    go_to(page, "data")
    expect(source).to_have_value("我爱")
    expect(target).to_have_value("I love")


def test_the_three_mask_effect_heatmaps_line_up_and_their_numbers_are_readable(page):
    page.set_viewport_size({"width": 1400, "height": 900})  # room for the three in a row (they wrap when narrower)
    go_to(page, "masks")
    boxes = []
    for key in ("mask_scores", "mask_masked", "mask_weights"):
        chart = page.locator(f".st-key-{key} .js-plotly-plot")
        chart.scroll_into_view_if_needed()
        grid = chart.locator(".nsewdrag")  # plotly's drag layer covers exactly the plot area
        expect(grid).to_have_count(1)
        boxes.append(grid.bounding_box())
        fonts = chart.locator(".heatmaplayer text").evaluate_all(CELL_TEXT_FONTS)
        assert len(fonts) >= 36 and min(fonts) >= 12, (key, fonts)  # 6 × 6 values, every one at least 12 px
    tops, heights, widths = ({round(box[k]) for box in boxes} for k in ("y", "height", "width"))
    assert len(tops) == len(heights) == len(widths) == 1, boxes  # one row of equal grids
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]
    assert min(widths) >= 150  # cells big enough for the numbers
    no_exception(page)
