"""ui/browser.py: the chart pages' lazily loaded parts, drawn out of sight when the browser asks (its script clicks the
hidden button once the first page is drawn; tests/e2e/test_e2e_first_chart.py checks that side)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import streamlit

from tests.apptest_helpers import open_app
from ui.browser import UPLOADER_TEXTS, uploader_css, uploader_rules
from ui.i18n import t
from ui.widgets import ATTENTION_FORMULA


def _part_ids(at) -> set[str]:
    """The keys of the parts drawn in this run: chart, toggle (a formula and italic text have none)."""
    keys = {el.proto.id.rsplit("-", 1)[-1] for el in at.get("plotly_chart")}
    return keys | {toggle.key for toggle in at.main.toggle}  # the sidebar's presenter switch aside


def test_the_button_draws_one_of_each_lazy_part_and_the_next_run_takes_them_away():
    at = open_app("zh")  # the Data page, on the corpus: no plotly chart, formula or toggle of its own
    button = at.button(key="lazy_parts_button")
    assert button.label == "提前加载的图表组件"  # hidden from everyone, and still in the UI language
    assert not _part_ids(at) and not at.latex
    button.click().run()
    assert _part_ids(at) == {"lazy_parts_chart", "lazy_parts_toggle"}
    (formula,) = at.latex  # the Attention page's (pages/attention.py draws the same): KaTeX's fonts for it load with it
    assert ATTENTION_FORMULA in formula.value
    assert not at.exception
    at.run()  # any next run: a page switch, an edit
    assert not _part_ids(at) and not at.latex


def test_the_file_uploaders_own_english_texts_are_hidden_and_their_button_speaks_the_ui_language():
    for lang, word in (("en", "Choose a file"), ("zh", "选择文件")):
        at = open_app(lang)
        (css,) = [h.proto.body for h in at.sidebar.get("html") if "stFileUploaderDropzoneInstructions" in h.proto.body]
        assert '[data-testid="stFileUploaderDropzoneInstructions"] {display: none;}' in css  # "8MB per file • CSV"
        assert f'::after {{content: "{word}";' in css  # the button's word, in place of Streamlit's "Upload"
        labels = [u.proto.label for u in at.get("file_uploader")]
        assert labels and all("MB" in label for label in labels)  # the limit, in the app's words


def test_the_uploaders_other_english_texts_are_the_pinned_streamlits_and_said_in_chinese_in_the_chinese_ui():

    static = Path(streamlit.__file__).parent / "static" / "static" / "js"
    frontend = "".join(
        p.read_text(encoding="utf-8") for p in static.glob("*.js") if p.name.startswith(("File", "utils"))
    )
    for pattern, key in UPLOADER_TEXTS:
        english = t(key, "en", value="text/html")
        assert re.search(pattern, english), key  # the rule reads Streamlit's text as the app's English says it
        drawn = english.split("text/html")[0] or english.split("text/html")[1]  # the fixed part of its template
        assert drawn.rstrip() in frontend, f"Streamlit no longer writes {drawn!r}: update UPLOADER_TEXTS"
        said = re.sub(pattern, t(key, "zh", value=r"\1"), english)
        assert not re.search(r"[A-Za-z]", said.replace("text/html", "")), said  # Chinese but for the file's own words
    assert uploader_rules("en") == [] and "把文件拖放到这里" in uploader_css("zh")
    rules = json.loads(uploader_css("zh").split("window.playgroundUploaderRules = ", 1)[1].split(".map(", 1)[0])
    assert ["^File must be (.+?) ?or smaller\\.$", "文件不能超过 $1。"] in rules
