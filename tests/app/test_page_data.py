"""The Data page through AppTest: kept choices, messages tied to the table, make_data padding, restoring the
sample pairs, big tables."""

import ast
import json
import random

import pandas as pd
import pyarrow.ipc
import pytest

import ui.session as ui_session
from deploy.nginx import upload_cap_mb
from tests.apptest_helpers import open_app as open_tab
from tests.apptest_helpers import texts
from transformer.config import MAX_DATA_BYTES
from transformer.data import build_vocabs, summarize_pairs
from ui.datasets import bundled_pairs
from ui.i18n import t

DATA, TRAIN = "pages/data.py", "pages/train.py"
EDITABLE_ROWS, PAGE_ROWS = 1_000, 100  # as in pages/data.py (importing a page would run it)
GOOD_FILE = "source\ttarget\n你好\tHello .\n".encode()


def open_app(lang: str = "en", page: str | None = None, **state):
    """A tab on the tutorial pairs, the small table these tests edit (a tab starts on the corpus, unless told)."""
    return open_tab(lang, page, **{"data_dataset": "tutorial", **state})


def make_data_tokens(at) -> dict[str, list[list[str]]]:
    """The token tables of the make_data section (enc_inputs, dec_inputs, dec_outputs), one list per pair."""
    frames = at.dataframe[-3:]
    return {
        name: [list(row) for row in frame.value.itertuples(index=False)]
        for name, frame in zip(("enc_inputs", "dec_inputs", "dec_outputs"), frames, strict=True)
    }


def test_the_upload_mode_stays_chosen_after_a_language_switch():
    # the value and what it does; that the browser shows it selected is tests/e2e/test_e2e_pages.py's to check
    # (AppTest keeps the chosen option itself, so only the browser lost the selection)
    at = open_app("en")
    at.radio(key="data_upload_mode").set_value("append").run()
    at.sidebar.radio(key="lang").set_value("zh").run()
    assert not at.exception
    radio = at.radio(key="data_upload_mode")
    assert radio.value == "append" and radio.options == ["替换当前表格", "追加到当前表格"]
    at.file_uploader(key="pairs_upload").upload("p.tsv", GOOD_FILE, "text/tsv").run()
    assert at.session_state.pairs == [*bundled_pairs(), ("你好", "Hello .")]  # added to the table


def test_a_half_typed_pair_and_the_make_data_choice_survive_a_page_switch():
    at = open_app()
    at.text_input(key="new_source").input("我爱")
    at.text_input(key="new_target").input("I love").run()
    chosen = [bundled_pairs()[2], bundled_pairs()[0]]
    at.multiselect(key="data_make_data_pairs").set_value(chosen).run()
    at.switch_page(TRAIN).run()
    at.switch_page(DATA).run()
    assert at.text_input(key="new_source").value == "我爱"
    assert at.text_input(key="new_target").value == "I love"
    assert at.multiselect(key="data_make_data_pairs").value == chosen


def test_an_upload_message_goes_once_the_table_changes():
    at = open_app()
    at.file_uploader(key="pairs_upload").upload("p.tsv", GOOD_FILE, "text/tsv").run()
    assert "Loaded 1 pairs from p.tsv." in texts(at, "success")
    at.run()  # still the loaded table: still said
    assert "Loaded 1 pairs from p.tsv." in texts(at, "success")
    at.text_input(key="new_source").input("我爱猫")
    at.text_input(key="new_target").input("I love cats !")
    at.button(key="add_pair").click().run()
    assert not any("Loaded" in s for s in texts(at, "success"))


def test_an_uploaded_file_is_read_before_the_page_runs_so_one_run_draws_the_new_table(monkeypatch):
    runs = []
    real = ui_session.init_app_session
    monkeypatch.setattr(ui_session, "init_app_session", lambda: runs.append(1) or real())
    at = open_app()
    runs.clear()
    at.file_uploader(key="pairs_upload").upload("p.tsv", GOOD_FILE, "text/tsv").run()
    assert len(runs) == 1  # no run that draws the old table first and then starts again
    assert at.session_state.pairs == [("你好", "Hello .")]
    assert at.metric[0].value == "1" and "Loaded 1 pairs from p.tsv." in texts(at, "success")


def test_a_failed_upload_is_said_until_the_table_changes_and_names_the_file_literally():
    at = open_app()
    at.file_uploader(key="pairs_upload").upload("**bad** [x](y).csv", b"a,b,c,d,e,f,g,h,i,j,k\n", "text/csv").run()
    (error,) = at.error
    assert "\\*\\*bad\\*\\*" in error.value  # the file name cannot become bold text or a link
    assert texts(at, "error")[0].startswith("**bad** [x](y).csv was not loaded")
    at.run()
    assert at.error  # the table has not changed, so the message stays
    at.session_state["pairs"] = [("我", "I")]
    at.run()
    assert not at.error


WINDOWS_MB = 1024 * 1024  # Streamlit's uploader counts a megabyte as this in a browser on Windows, 1,000,000 elsewhere


def test_a_file_only_a_windows_browser_sends_reaches_the_app_and_is_refused_with_its_size_and_the_limit():
    """The uploader refuses a file over its limit before sending it, counting megabytes of 1,000,000 bytes, but of
    1,048,576 in a browser on Windows: there a file of 15,000,001 to 15,728,640 bytes is sent. The server takes it (its
    own cap, and nginx's in a classroom, is larger), and the app refuses it, saying its size and the limit."""
    at = open_app()
    before = list(at.session_state.pairs)
    limit_mb = at.file_uploader(key="pairs_upload").proto.max_upload_size_mb
    assert limit_mb * 1_000_000 == MAX_DATA_BYTES  # what other browsers send at most
    largest = limit_mb * WINDOWS_MB  # 15,728,640: what a Windows browser sends at most
    assert largest <= upload_cap_mb() * 1024 * 1024  # Streamlit's server counts its cap in megabytes of 1,048,576
    for size in (MAX_DATA_BYTES + 1, largest):
        data = (GOOD_FILE * (size // len(GOOD_FILE) + 1))[:size]
        at.file_uploader(key="pairs_upload").upload("big.tsv", data, "text/tab-separated-values").run()
        assert texts(at, "error") == [
            f"big.tsv was not loaded: big.tsv is {size:,} bytes; the limit is 15,000,000. Use a smaller file. "
            "Your table is unchanged."
        ]
        assert at.session_state.pairs == before


def test_restore_the_sample_pairs():
    at = open_app(pairs=[("我", "I")])
    assert not at.button(key="restore_pairs").disabled
    at.button(key="restore_pairs").click().run()
    assert at.session_state.pairs == bundled_pairs()
    assert f"Restored the {len(bundled_pairs())} sample pairs." in texts(at, "success")
    assert at.button(key="restore_pairs").disabled  # nothing left to restore


def test_make_data_shows_padding_by_default_with_ids_of_the_whole_vocabulary():
    at = open_app()
    chosen = at.multiselect(key="data_make_data_pairs").value
    assert len(chosen) == 2
    tokens = make_data_tokens(at)
    for name in ("enc_inputs", "dec_inputs", "dec_outputs"):
        assert any("P" in row for row in tokens[name]), name  # the shorter sentence is padded
    src_vocab, _ = build_vocabs(bundled_pairs())
    shown = [m.value for m in at.markdown if m.value.startswith("`[[")]  # the ids, in monospace
    ids = ast.literal_eval(shown[0].strip("`"))  # the enc_inputs ids, as make_data returns them
    assert ids[0][: len(chosen[0][0].split())] == [src_vocab.stoi[tok] for tok in chosen[0][0].split()]


def test_make_data_choice_is_kept_valid_when_the_data_changes():
    at = open_app()
    at.multiselect(key="data_make_data_pairs").set_value([bundled_pairs()[5]]).run()
    pairs = [("我 喜 欢 你", "I love you ."), ("他 有 一 只 猫", "He has a cat ."), ("你 好", "Hello .")]
    at.session_state["pairs"] = pairs
    at.run()
    assert not at.exception
    assert at.multiselect(key="data_make_data_pairs").value == pairs[:2]  # the default for the new data
    at.multiselect(key="data_make_data_pairs").set_value([]).run()
    assert any("Choose one or more pairs" in i for i in texts(at, "info"))


def _twenty_thousand() -> list[tuple[str, str]]:
    """20,000 pairs of 1 to 30 tokens a side with a new word in every one, and 30 rows without a source."""
    rng = random.Random(0)
    chars = "我你他她们喜欢猫狗吃饭喝茶看书去学校公园"
    words = ["I", "you", "he", "she", "like", "cats", "dogs", "eat", "rice", "drink", "tea", "read", "go", "to"]

    def pair(i: int) -> tuple[str, str]:
        n = rng.randint(1, 29)
        source = "".join(rng.choice(chars) for _ in range(n)) + str(i)
        return source, " ".join(rng.choice(words) for _ in range(max(1, n - 3))) + f" w{i} ."

    return [pair(i) for i in range(19_970)] + [("", f"t{i}") for i in range(30)]


@pytest.fixture(scope="module")
def big_table():
    return _twenty_thousand()


def _charts(at) -> dict[str, tuple[dict, pd.DataFrame]]:
    """The page's Vega-Lite charts by title: the spec, and the data Streamlit sends beside it (as Arrow)."""
    charts = {}
    for element in at.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        charts[spec["title"]["text"]] = (spec, pyarrow.ipc.open_stream(element.proto.data.data).read_pandas())
    return charts


@pytest.mark.slow
def test_a_twenty_thousand_pair_table_is_summarised_and_shown_a_page_at_a_time_read_only(big_table):
    at = open_app(pairs=big_table)
    assert not at.exception
    summary = summarize_pairs(big_table)
    assert len(summary.src_counts) > 19_970  # a new word in every pair: more tokens than any preview shows
    metrics = {m.label: m.value for m in at.metric}
    src_vocab, tgt_vocab = build_vocabs(big_table[:19_970])
    assert metrics == {
        "Pairs": "20,000",
        "Usable pairs": "19,970",
        "Errors": "30",
        "Warnings": "0",
        "Source vocabulary": f"{len(src_vocab):,}",
        "Target vocabulary": f"{len(tgt_vocab):,}",
    }
    assert any(
        "This table has 20,000 pairs, more than the 1,000 that can be edited here" in i for i in texts(at, "info")
    )
    # the table: a page of 100 rows, read-only, numbered as in the file; no editor anywhere on the page
    assert not at.data_editor
    page = at.dataframe[0]
    assert page.editing_mode == "read_only"
    assert list(page.value.index) == list(range(1, 101)) and tuple(page.value.iloc[0]) == big_table[0]
    assert "Rows 1–100 of 20,000." in texts(at, "caption")
    at.number_input(key="data_table_page").set_value(200).run()
    page = at.dataframe[0]
    assert list(page.value.index) == list(range(19_901, 20_001)) and tuple(page.value.iloc[-1]) == big_table[-1]
    assert "Rows 19,901–20,000 of 20,000." in texts(at, "caption")
    # the summary: every usable sentence in the length histogram, the most frequent tokens with their counts
    charts = _charts(at)
    assert list(charts) == [
        "Sentence lengths",
        "The 20 most frequent source tokens",
        "The 20 most frequent target tokens",
    ]
    _, lengths = charts["Sentence lengths"]
    assert lengths.groupby("side", sort=False)["sentences"].sum().to_dict() == {"source": 19_970, "target": 19_970}
    target = lengths[lengths["side"] == "target"]
    assert target.loc[target["length"] == 5, "sentences"].tolist() == [summary.tgt_lengths.count(5)]
    _, top = charts["The 20 most frequent target tokens"]
    assert top["token"].tolist()[:2] == [token for token, _ in summary.most_common("target", 2)]
    assert top["count"].iloc[0] == summary.tgt_counts["."] == 19_970
    assert not at.get("plotly_chart")  # the first page draws without waiting for plotly.js
    # the lesson sheet has the same charts, as plotly figures (built when the sheet is made)
    sheet = at.session_state["_lesson_sheet"].charts
    assert [chart.caption for chart in sheet] == list(charts)
    assert [sum(trace.y) for trace in sheet[0].figure.data] == [19_970, 19_970]
    assert list(sheet[2].figure.data[0].x[:2]) == top["count"].tolist()[:2]
    # errors are still listed, the first ten and a count of the rest; previews stay capped
    (errors,) = texts(at, "error")
    assert errors.count("\n- ") == 11 and errors.endswith("… and 20 more.")
    captions = texts(at, "caption")
    assert "Showing the first 100 of the 19,970 usable pairs." in captions  # counts read as the metrics above
    assert f"Showing the first 500 of the {len(src_vocab):,} tokens." in captions
    assert "The first 200 of the 19,970 usable pairs are offered here." in captions
    assert len(at.multiselect(key="data_make_data_pairs").options) == 200
    assert not at.exception


def test_a_table_is_editable_up_to_the_threshold_and_paged_read_only_above_it():
    pairs = [(f"我 {i}", f"word{i} .") for i in range(EDITABLE_ROWS + 1)]
    at = open_app(pairs=pairs[:EDITABLE_ROWS])
    (editor,) = at.data_editor
    assert editor.editing_mode == "dynamic" and len(editor.value) == EDITABLE_ROWS
    assert not at.get("vega_lite_chart") and not at.get("plotly_chart")  # no summary for a table that can be edited
    at.session_state["pairs"] = pairs
    at.run()
    assert not at.data_editor and at.dataframe[0].editing_mode == "read_only"
    assert len(at.dataframe[0].value) == PAGE_ROWS
    assert "Sentence lengths" in _charts(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_says_how_to_edit_the_table_only_when_it_can_be_edited(lang):
    edit = t("data.edit_help", lang)
    pairs = [(f"我 {i}", f"word{i} .") for i in range(EDITABLE_ROWS + 1)]
    at = open_app(lang, pairs=pairs[:EDITABLE_ROWS])
    words = texts(at, "markdown") + texts(at, "caption")
    assert at.data_editor and sum(edit in w for w in words) == 1
    at.session_state["pairs"] = pairs
    at.run()
    words = texts(at, "markdown") + texts(at, "caption")
    assert not at.data_editor and not any(edit in w or edit.split("**")[0] in w for w in words)  # read-only: not said
    assert any(t("data.large", lang, n=f"{len(pairs):,}", limit=f"{EDITABLE_ROWS:,}") in i for i in texts(at, "info"))


@pytest.mark.slow
def test_a_large_table_is_checked_and_counted_once_not_on_every_rerun(big_table, monkeypatch):
    calls = []
    real = ui_session.summarize_pairs
    monkeypatch.setattr(ui_session, "summarize_pairs", lambda *a: calls.append(a[1]) or real(*a))
    at = open_app(pairs=big_table)
    at.number_input(key="data_table_page").set_value(3).run()
    at.switch_page(TRAIN).run()  # the Train page needs the same checks and vocabularies
    at.switch_page(DATA).run()
    assert calls == ["auto"]
    at.selectbox(key="tokenizer").set_value("whitespace").run()
    assert calls == ["auto", "whitespace"]
    assert not at.exception


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_more_distinct_tokens_than_a_vocabulary_holds_are_listed_in_both_languages(lang):
    pairs = [("我", " ".join(f"w{i + j}" for j in range(40))) for i in range(0, 30_000, 40)]  # 30,000 target words
    at = open_app(lang, pairs=pairs)
    assert not at.exception
    (errors,) = texts(at, "error")
    if lang == "en":
        assert (
            "- The target sentences have 30,000 distinct tokens, more than the 29,996 a vocabulary holds besides its 4 "
            "special tokens. Use fewer pairs, or choose a tokenization that makes fewer distinct tokens." in errors
        )
    else:
        assert "- 目标句共有 30,000 个不同的词元，超过了词表在 4 个特殊词元之外能容纳的 29,996 个。" in errors
