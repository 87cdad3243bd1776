"""Real-sized data in the browser: a 20,000-pair file uploaded on the Data page is summarised and shown a page at a
time, and the Train page takes it."""

from __future__ import annotations

import re

from tests.e2e.big_file import realistic_file
from tests.e2e.helpers import alert, expect, go_to, no_exception, page_charts, screenshot, settled
from transformer.data import parse_pairs, summarize_pairs

UPLOAD_TIMEOUT = 60_000  # ms: 2.5 MB sent, read and checked on a shared 2-core machine


def test_a_twenty_thousand_pair_file_is_summarised_and_paged_read_only(page, tmp_path):
    path = tmp_path / "corpus.tsv"
    path.write_bytes(realistic_file())
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Upload pairs")
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    expect(alert(page, "Success", "Loaded 20,000 pairs from corpus.tsv.")).to_be_visible(timeout=UPLOAD_TIMEOUT)
    expect(
        alert(page, "Info", "This table has 20,000 pairs, more than the 1,000 that can be edited here")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="Summary")).to_be_visible()
    usable = page.get_by_test_id("stMetric").filter(has_text="Usable pairs")
    expect(usable.get_by_test_id("stMetricValue")).to_have_text("20,000")
    errors = page.get_by_test_id("stMetric").filter(has_text="Errors")
    expect(errors.get_by_test_id("stMetricValue")).to_have_text("0")
    charts = page.get_by_test_id("stVegaLiteChart")  # drawn without waiting for plotly.js
    for title in ("Sentence lengths", "The 20 most frequent source tokens", "The 20 most frequent target tokens"):
        expect(charts.filter(has_text=title).locator("svg.marks")).to_be_visible()
    lengths = charts.filter(has_text="Sentence lengths")
    expect(lengths.get_by_text("source", exact=True)).to_be_visible()  # the legend: sources beside targets
    expect(lengths.get_by_text("tokens in the sentence")).to_be_visible()
    summary = summarize_pairs(parse_pairs(path.read_bytes()))
    for side in ("source", "target"):  # the file's tokens, not those of the corpus the tab started on
        ((token, _),) = summary.most_common(side, 1)
        top = charts.filter(has_text=f"The 20 most frequent {side} tokens")
        expect(top.locator("text").filter(has_text=re.compile(rf"^{re.escape(token)}$"))).to_have_count(1)
    expect(page_charts(page)).to_have_count(0)
    expect(alert(page, "Success", "All pairs are ready for training.")).to_be_visible()
    settled(page)
    no_exception(page)
    screenshot(page, "data-twenty-thousand-pairs")

    expect(page.get_by_text("Rows 1–100 of 20,000.")).to_be_visible()
    pager = page.get_by_role("spinbutton", name="Page (of 200)")
    pager.fill("200")
    pager.press("Enter")
    expect(page.get_by_text("Rows 19,901–20,000 of 20,000.")).to_be_visible()
    settled(page)
    no_exception(page)

    go_to(page, "train")
    # the vocabularies of the model Train would build: from the training pairs alone, 10 % held out (issue 41)
    expect(page.get_by_text("· 20,000 pairs · vocabularies 3,508 / 15,455 tokens")).to_be_visible()
    expect(page.get_by_role("button", name="Train", exact=True)).to_be_enabled()
    no_exception(page)
