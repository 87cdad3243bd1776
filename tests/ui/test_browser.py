"""ui/browser.py: the chart pages' lazily loaded parts, drawn out of sight when the browser asks (its script clicks the
hidden button once the first page is drawn; tests/e2e/test_e2e_first_chart.py checks that side)."""

from __future__ import annotations

from tests.apptest_helpers import open_app
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
