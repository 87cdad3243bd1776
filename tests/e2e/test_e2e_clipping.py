"""Labels that read (issue 32 §3, §4): on the Data and Train pages, at 1024 and 1400 px windows, every st.metric, every
static table and every cell of every st.dataframe shows its whole text (tests/e2e/cell_clipping.py measures them); the
beam-search tree shows whole tokens and, when wider than the page, scrolls inside its own box while the page does not;
the Chinese Data page shows none of the file uploader's English texts."""

from __future__ import annotations

import re

import pytest

from tests.e2e.cell_clipping import grid_cell_problems, html_text_problems
from tests.e2e.clipping import assert_text_fits
from tests.e2e.helpers import (
    TRAIN_TIMEOUT,
    alert,
    expect,
    go_to,
    link_says,
    no_exception,
    open_app,
    press_epochs,
    press_holdout,
    press_slider,
    settled,
    use_tutorial_pairs,
)

pytestmark = pytest.mark.e2e

WIDTHS = (1024, 1400)  # the browser windows


def _cut(page, where: str) -> tuple[list[str], dict[str, int]]:
    """Every metric's, static table's and dataframe cell's text that is cut, and how many of each were read."""
    problems, read = [], {"metrics": 0, "tables": 0, "cells": 0}
    for kind, name in (("stMetric", "metrics"), ("stTable", "tables")):
        elements = page.get_by_test_id(kind)
        for i in range(elements.count()):
            read[name] += 1
            problems += [f"{where}, {kind} {i + 1}: {p}" for p in html_text_problems(elements.nth(i))]
    grids = page.get_by_test_id("stDataFrame")
    for i in range(grids.count()):
        cells, cut = grid_cell_problems(grids.nth(i))
        read["cells"] += cells
        problems += [f"{where}, table {i + 1}: {p}" for p in cut]
    return problems, read


def _at_both_widths(page, where: str) -> tuple[list[str], dict[str, int]]:
    problems, read = [], {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_function(f"innerWidth === {width}")
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        settled(page)
        found, counts = _cut(page, f"{where} at {width} px")
        problems += found
        read = {k: read.get(k, 0) + v for k, v in counts.items()}
    return problems, read


def test_every_metric_and_table_cell_of_the_data_and_train_pages_shows_its_whole_text(page):
    problems = []
    found, read = _at_both_widths(page, "Data, corpus")  # a new tab: the corpus, its summary and phenomena
    problems += found
    # two static tables at each width: the columns panel's first rows and the phenomena
    assert read["metrics"] >= 2 * 6 and read["tables"] == 2 * 2 and read["cells"] > 2 * 1000, read
    go_to(page, "train")  # the bundled model's score table
    found, read = _at_both_widths(page, "Train, bundled model")
    problems += found
    assert read["cells"] > 2 * 100, read

    go_to(page, "data")  # a model trained here, with pairs held out: its metrics and its results table
    use_tutorial_pairs(page)
    found, read = _at_both_widths(page, "Data, tutorial pairs")  # the editor
    problems += found
    go_to(page, "train")
    press_epochs(page, "Home")
    assert press_holdout(page, "ArrowRight", "ArrowRight") == "20%"  # shown by the server before Train
    page.get_by_role("button", name="Train", exact=True).click()
    expect(alert(page, "Success", re.compile(r"Trained \d+ epochs"))).to_be_visible(timeout=TRAIN_TIMEOUT)
    expect(page.get_by_test_id("stMetric").filter(has_text="held out")).to_have_count(1)
    no_exception(page)
    found, read = _at_both_widths(page, "Train, trained here")
    problems += found
    assert read["metrics"] == 2 * 4, read
    assert not problems, "text cut:\n" + "\n".join(problems)


def test_the_beam_tree_shows_whole_tokens_and_scrolls_in_its_own_box(page):
    go_to(page, "decoding")
    page.get_by_role("radio", name="beam search").check(force=True)
    link_says(page, "strategy", "beam")
    settled(page)
    press_slider(page, "beam size K", "End")  # K = 10: the widest tree
    link_says(page, "beam", "10")
    tree = page.locator(".st-key-dec_beam_tree .js-plotly-plot")
    box = page.locator(".st-key-dec_beam_tree_box")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        settled(page)
        expect(tree).to_have_count(1)  # one tree: a run's former chart, kept while it draws the new one, has gone
        tree.scroll_into_view_if_needed()
        assert_text_fits(tree, data_text=True, where=f"the beam tree at {width} px")  # no box meets another
        labels = tree.locator(".annotation-text").all_text_contents()
        whole = [label for label in labels if re.match(r"[A-Za-z]{6,}", label)]  # e.g. "drinking", never "dri…"
        assert whole and not [label for label in labels if "…" in label], labels
        sizes = box.evaluate("b => [b.scrollWidth, b.clientWidth, document.documentElement.scrollWidth, innerWidth]")
        tree_px, box_px, page_px, window_px = sizes
        assert page_px <= window_px, f"the page is wider than the window at {width} px: {sizes}"
        if width == 1024:  # wider than the page: the tree keeps its width, its box scrolls
            assert tree_px > box_px, sizes


def test_the_chinese_data_page_shows_none_of_the_file_uploaders_english_texts(page, app_url):
    open_app(page, f"{app_url}/?lang=zh")
    uploader = page.get_by_test_id("stFileUploader").first
    uploader.scroll_into_view_if_needed()
    expect(uploader.get_by_role("button", name="选择文件")).to_be_visible()  # its name is the app's word
    shown = uploader.get_by_test_id("stFileUploaderDropzone").evaluate(
        """zone => { const out = [];
            const walker = document.createTreeWalker(zone, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode())
                if (n.textContent.trim() && n.parentElement.checkVisibility({visibilityProperty: true})
                    && !n.parentElement.closest('[data-testid="stIconMaterial"]')) out.push(n.textContent.trim());
            return out; }"""
    )
    assert not [text for text in shown if re.search(r"[A-Za-z]", text)], shown  # "Upload", "8MB per file • CSV"
