"""Any Tatoeba file on the Data page: a French or German download recognised by its attribution column, read into
English, its languages named from the file name, and its credits whole in a table; a model trained on it carries
them to the lesson sheet and the Publish block."""

from pathlib import Path

import pytest

from tests.apptest_helpers import open_app, texts
from transformer.columns import infer_roles, read_file, take_pairs
from transformer.credits import credits_of
from transformer.summary import DataRecord
from ui.credits import CREDIT_ROWS_LISTED, credit_lines

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize(
    ("name", "language", "chinese", "first"),
    [("fra-eng.txt", "French", "法语", "Bonjour."), ("deu-eng.txt", "German", "德语", "Hallo.")],
)
def test_a_french_or_german_tatoeba_file_is_read_into_english_and_credited_whole(name, language, chinese, first):
    at = open_app("en", None, data_dataset="tutorial")
    at.file_uploader(key="pairs_upload").upload(name, (FIXTURES / name).read_bytes(), "text/plain").run()
    assert not at.exception
    assert at.session_state.pairs[0] == (first, "Hello.")  # the other language → English, as every Tatoeba file
    assert any(
        s.startswith(f"Recognised by its attribution column: a Tatoeba/Anki download of English, {language} and")
        for s in texts(at, "info")
    )
    assert f"Translating column 2 ({language}) → column 1 (English)." in texts(at, "caption")
    assert not any("such as English" in s for s in texts(at, "caption"))
    assert any(s.startswith("Sentences by 6 contributors (CC-BY asks for the authors): ") for s in texts(at, "caption"))
    (credits,) = [d.value for d in at.dataframe if "column 1: sentence" in list(d.value.columns)]
    assert list(credits.columns) == [
        "line", "column 1: sentence", "column 1: contributor", "column 2: sentence", "column 2: contributor"
    ]  # fmt: skip
    assert len(credits) == 45
    row = (FIXTURES / name).read_text(encoding="utf-8").splitlines()[0]
    line, n1, who1, n2, who2 = credits.iloc[0].tolist()
    assert line == 1 and row.endswith(f"{n1} ({who1}) & {n2} ({who2})")
    zh = open_app("zh", None, data_dataset="tutorial")
    zh.file_uploader(key="pairs_upload").upload(name, (FIXTURES / name).read_bytes(), "text/plain").run()
    assert f"从第 2 列（{chinese}）翻译到第 1 列（英语）。" in texts(zh, "caption")


def test_a_tatoeba_file_named_without_its_languages_says_the_other_language():
    at = open_app("en", None, data_dataset="tutorial")
    data = (FIXTURES / "fra-eng.txt").read_bytes()
    at.file_uploader(key="pairs_upload").upload("sentences.txt", data, "text/plain").run()
    assert "Translating column 2 (the other language) → column 1 (English)." in texts(at, "caption")


def _record(rows: int) -> DataRecord:
    lines = (FIXTURES / "deu-eng.txt").read_text(encoding="utf-8").splitlines()
    text = "\n".join((lines * (rows // len(lines) + 1))[:rows])
    found = read_file(text, "deu-eng.txt")
    taken = take_pairs(found, infer_roles(found))
    return DataRecord(data_credit="CC-BY 2.0 (France)", credits=credits_of(taken.extra["attribution"], taken.lines))


def test_the_sheets_credit_lines_list_every_row_or_say_where_the_rest_are():
    few = credit_lines("en", _record(12))
    assert few[0] == "Data: CC-BY 2.0 (France)" and len(few) == 3
    assert few[2].count(" & #") == 12 and "more rows" not in few[2]
    many = credit_lines("en", _record(300))
    assert many[2].count(" & #") == CREDIT_ROWS_LISTED
    assert many[2].endswith(
        f"… and {300 - CREDIT_ROWS_LISTED} more rows: the model's checkpoint keeps every one (python -m transformer "
        "credits --model FILE lists them), as does the Data page's credits table."
    )
    assert credit_lines("en", DataRecord()) == []
