"""The Chinese strings follow docs/glossary.md (issue 32 §4): one Chinese form per term of the Transformer."""

import re
from pathlib import Path

import pytest

from ui.strings import STRINGS

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
CODE = re.compile(r"`[^`]*`|\{[^}]*\}")  # code names and placeholders are not words of the text
GLOSSED = re.compile(
    r"（[\u4e00-\u9fff]+，[A-Za-z][A-Za-z -]*）|(?<=[\u4e00-\u9fff])（[A-Za-z][A-Za-z -]*）"
)  # a term glossed in English once


def terms() -> list[tuple[str, str, list[str]]]:
    """The glossary's rows: (English, Chinese, the forms the strings never use)."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("English", "---"):
            rows.append((cells[0], cells[1], [f for f in re.split("[、]", cells[2]) if f]))
    return rows


def chinese_text(value: str) -> str:
    """A Chinese string as its reader reads its words: no code names, no placeholders, no English given once in
    brackets beside its Chinese term."""
    return GLOSSED.sub("", CODE.sub("", value))


def test_the_glossary_lists_the_terms_the_strings_use():
    rows = terms()
    assert len(rows) >= 25
    texts = " ".join(chinese_text(v["zh"]) for v in STRINGS.values())
    unused = [zh for _, zh, _ in rows if not any(form in texts for form in zh.split("、"))]
    assert unused == []


@pytest.mark.parametrize("english, chinese, others", terms(), ids=[row[0] for row in terms()])
def test_no_chinese_string_writes_a_term_in_another_form(english, chinese, others):
    found = {key: form for key, value in STRINGS.items() for form in others if form in chinese_text(value["zh"])}
    assert found == {}, f"{english} is {chinese} in the Chinese strings"


def test_the_check_sees_a_term_left_in_english_and_allows_it_once_in_brackets():
    assert "teacher forcing" in chinese_text("在 teacher forcing 中")
    assert "teacher forcing" not in chinese_text("教师强制（teacher forcing）准确率")
    assert "teacher forcing" not in chinese_text("喂给解码器（教师强制，teacher forcing）时")
    assert "teacher forcing" in chinese_text("（贪心解码和 teacher forcing 不同）")  # only the term itself, glossed
    assert "完全正确" in chinese_text("贪心解码完全正确：{n}")
