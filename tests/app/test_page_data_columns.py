"""The Data page's columns through AppTest: a Tatoeba file recognised and read Chinese → English, the roles of its
columns shown and changed, the direction swapped for any dataset, rows left out by line, and the attribution
credited."""

from pathlib import Path

import ui.training as ui_training
from tests.apptest_helpers import open_app as open_tab
from tests.apptest_helpers import opened_page, texts
from transformer.checkpoint import load_checkpoint, save_checkpoint
from ui.datasets import bundled_pairs
from ui.model_cache import CurrentModel
from ui.share import model_summary

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "everyday_cmn_eng.txt"
ROWS = FIXTURE.read_text(encoding="utf-8").splitlines()
CREDIT = "CC-BY 2.0 (France) Attribution: example.org"


def _open(**state):
    return open_tab("en", None, **{"data_dataset": "tutorial", **state})


def _upload(at, name: str, data: bytes):
    at.file_uploader(key="pairs_upload").upload(name, data, "text/plain").run()
    assert not at.exception
    return at


def _roles(at, n: int) -> list[str]:
    return [at.selectbox(key=f"data_role_{i}").value for i in range(n)]


def test_a_tatoeba_file_is_named_read_chinese_to_english_and_its_attribution_shown_and_credited():
    at = _upload(_open(), "cmn-eng.txt", "\n".join(ROWS[:30]).encode())
    assert any(
        s.startswith("Recognised by its attribution column: a Tatoeba/Anki download of English, Mandarin Chinese")
        for s in texts(at, "info")
    )
    assert at.session_state.pairs[0] == ("你好。", "Hi.")  # Chinese → English, as everywhere in the app
    assert len(at.session_state.pairs) == 30
    assert _roles(at, 3) == ["target", "source", "attribution"]
    preview = at.dataframe[0].value  # the first table of the page: the file under its roles
    assert list(preview.columns) == ["1 · target", "2 · source", "3 · attribution"]
    assert preview.iloc[0, 2].startswith(CREDIT)  # the attribution is shown as a column
    assert f"Data: {CREDIT} (30 pairs)" in texts(at, "markdown")
    assert "Translating column 2 (Mandarin Chinese) → column 1 (English)." in texts(at, "caption")


def test_the_swap_button_turns_a_file_and_a_role_chosen_for_a_column_is_taken_from_the_other():
    at = _upload(_open(), "cmn-eng.txt", "\n".join(ROWS[:30]).encode())
    at.button(key="data_swap").click().run()
    assert at.session_state.pairs[0] == ("Hi.", "你好。")
    assert _roles(at, 3) == ["source", "target", "attribution"]
    at.selectbox(key="data_role_0").set_value("phenomena").run()  # the source cannot be dropped: one error line
    assert texts(at, "error") == [
        "Column 1 stays the source: the pairs need a source column and a target column. To move it, choose source for "
        "another column."
    ]
    assert _roles(at, 3) == ["source", "target", "attribution"] and at.session_state.pairs[0] == ("Hi.", "你好。")
    at.run()
    assert not at.error  # said once
    at.selectbox(key="data_role_2").set_value("ignored").run()  # no attribution: nothing to credit
    assert not any(s.startswith("Data:") for s in texts(at, "markdown"))
    at.selectbox(key="data_role_2").set_value("source").run()  # the attribution as the source: the source moves
    assert _roles(at, 3) == ["ignored", "target", "source"] and at.session_state.pairs[0][0].startswith(CREDIT)


def test_swapped_and_empty_rows_are_reported_by_line_and_the_rest_is_kept():
    rows = list(ROWS[:30])
    en, zh, credit = rows[4].split("\t")
    rows[4] = f"{zh}\t{en}\t{credit}"  # line 5: Chinese in the English column
    rows[9] = f"\t{rows[9].split(chr(9))[1]}\t{credit}"  # line 10: no English
    rows.append(rows[2])  # line 31: a repeat
    at = _upload(_open(), "cmn-eng.txt", "\n".join(rows).encode())
    assert len(at.session_state.pairs) == 29 and not at.error
    warnings = texts(at, "warning")
    assert any(
        "1 rows look swapped (Chinese in the English column) and were left out, not trained: line 5." in w
        for w in warnings
    ), warnings
    assert any("no source or no target in the columns chosen and were left out: line 10." in w for w in warnings)
    assert "1 rows repeat an earlier pair of the file exactly." in " ".join(texts(at, "caption"))
    assert "Loaded 29 pairs from cmn-eng.txt; 2 rows were left out" in texts(at, "success")[0]


def _dataset_preview(at):
    """The built-in dataset's columns panel: its first rows under their roles."""
    (frame,) = [f.value for f in at.table if str(f.value.columns[0]).startswith("1 · ")]
    return frame


TUTORIAL_CREDIT = "Data: the seed tutorials' sentence pairs, kept in assets/pairs.tsv (50 pairs)"


def test_the_corpus_shows_its_columns_roles_as_a_files_and_where_its_pairs_come_from():
    at = opened_page()  # a tab starts on the corpus (English)
    preview = _dataset_preview(at)
    assert list(preview.columns) == ["1 · source", "2 · target", "3 · phenomena", "4 · alignment (gold links)"]
    assert preview.iloc[0].tolist() == ["我 喜 欢 你", "I love you .", "agreement role_reversal", "0-0 1-1 2-1 3-2"]
    assert "The first 5 of the dataset's 2,042 rows, numbered, each column headed by what it holds." in texts(
        at, "caption"
    )
    credit = "this project's grammar, transformer.corpus (2,000 pairs); the seed tutorials' sentence pairs, "
    assert f"Data: {credit}assets/pairs.tsv (42 pairs)" in texts(at, "markdown")


def test_the_direction_of_the_tutorial_pairs_and_the_corpus_swaps_and_stays_their_dataset():
    at = _open()
    assert list(_dataset_preview(at).columns) == ["1 · source", "2 · target"] and TUTORIAL_CREDIT in texts(
        at, "markdown"
    )
    at.button(key="data_swap").click().run()
    assert at.session_state.pairs == [(t, s) for s, t in bundled_pairs()]
    assert at.session_state.data_dataset == "tutorial"  # still the tutorial pairs, turned round
    assert "Translating English → Chinese (swapped)." in texts(at, "caption")
    preview = _dataset_preview(at)  # the columns keep their place; the roles of the first two are exchanged
    assert list(preview.columns) == ["1 · target", "2 · source"]
    assert tuple(preview.iloc[0]) == bundled_pairs()[0] and TUTORIAL_CREDIT in texts(at, "markdown")
    at.radio(key="data_dataset").set_value("corpus").run()
    assert at.session_state.pairs[0][1] and at.session_state.pairs[0][1][0] >= "\u4e00"  # targets are Chinese
    assert at.session_state.data_dataset == "corpus"
    assert list(_dataset_preview(at).columns)[:2] == ["1 · target", "2 · source"]
    at.button(key="data_swap").click().run()
    assert "Translating Chinese → English." in texts(at, "caption")
    assert list(_dataset_preview(at).columns)[:3] == ["1 · source", "2 · target", "3 · phenomena"]


def test_the_learners_own_typed_pairs_are_turned_round():
    at = _open(pairs=[("我", "I"), ("你", "you")])
    at.button(key="data_swap").click().run()
    assert at.session_state.pairs == [("I", "我"), ("you", "你")]


def test_a_file_of_other_languages_keeps_its_columns_and_has_no_swap_check():
    at = _upload(_open(), "fr.tsv", b"Bonjour.\tHello.\nMerci.\tThank you.\n")
    assert at.session_state.pairs == [("Bonjour.", "Hello."), ("Merci.", "Thank you.")] and not at.warning
    caption = "Translating column 1 (Latin letters) → column 2 (Latin letters)."
    assert caption in texts(at, "caption")


def test_a_model_trained_on_a_credited_file_carries_the_credit_into_its_checkpoint_and_lesson_sheet(monkeypatch):
    at = _upload(_open(), "cmn-eng.txt", "\n".join(ROWS[:12]).encode())
    at.switch_page("pages/train.py").run()
    queued = []  # the training the Train button queues, kept here instead of run (the worker is tested elsewhere)
    monkeypatch.setattr(ui_training, "_submit", lambda job: queued.append(job) or job)
    at.button(key="train_button").click().run()
    plan = queued[0].runs[0].translator
    assert plan.data.data_credit == f"{CREDIT} (12 pairs)"
    translator = plan.build()
    plan.finish(translator)  # what the job does when training ends: the summary records the data
    assert load_checkpoint(save_checkpoint(translator)).summary.data.data_credit == f"{CREDIT} (12 pairs)"
    model = CurrentModel(translator, "trained")
    lines = model_summary("en", model)  # the lesson sheet's lines: the licence, the authors, each row's sentences
    assert lines[-3] == f"Data: {CREDIT} (12 pairs)"
    assert lines[-2].startswith("Sentences by ") and "(CC-BY asks for the authors): " in lines[-2]
    assert lines[-1].startswith("Sentence numbers and contributors by file line: 1: #100001 (lin_wen) & #900001 ")
    assert model_summary("zh", model)[-3] == f"数据来源：{CREDIT} (12 pairs)"


def test_a_file_too_large_to_edit_shows_its_attribution_beside_each_page_of_pairs():
    rows = []
    for k in range(6):  # 1,032 distinct rows: past the 1,000 the editor takes
        rows += [f"{en} ({k})\t{zh}（{k}）\t{credit}" for en, zh, credit in (r.split("\t") for r in ROWS)]
    at = _upload(_open(), "cmn-eng.txt", "\n".join(rows).encode())
    (page,) = [d.value for d in at.dataframe if list(d.value.columns) == ["source", "target", "attribution"]]
    assert page.iloc[0].tolist() == ["你好。（0）", "Hi. (0)", ROWS[0].split("\t")[2]]


def test_the_columns_panel_speaks_chinese():
    rows = list(ROWS[:12])
    for i in (4, 7):  # lines 5 and 8: Chinese in the English column
        en, zh, credit = rows[i].split("\t")
        rows[i] = f"{zh}\t{en}\t{credit}"
    at = open_tab("zh", None, data_dataset="tutorial")
    _upload(at, "cmn-eng.txt", "\n".join(rows).encode())
    recognised = "根据署名列识别为 Tatoeba/Anki 下载文件：英语、普通话（中文）和署名信息。"
    assert any(s.startswith(recognised) for s in texts(at, "info"))
    assert any("没有载入，也不参与训练：第 5、8 行。" in w for w in texts(at, "warning"))
    assert [at.selectbox(key=f"data_role_{i}").label for i in range(3)] == ["第 1 列", "第 2 列", "第 3 列"]
    assert f"数据来源：{CREDIT} (10 pairs)" in texts(at, "markdown")
