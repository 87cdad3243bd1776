"""The app's Chinese as a native reader writes it (issue 41): one word for a token (词元) and one for a sentence pair
(句子对), full-width punctuation inside Chinese sentences (in the strings and in what the code builds from them: lists,
a label and its value), no English word in a formula, and no two neighbouring controls with the same label."""

import json
import re
from pathlib import Path

import pytest

from tests.apptest_helpers import PAGES, open_app
from ui.strings import STRINGS
from viz.common import colon

ROOT = Path(__file__).resolve().parents[2]
CJK = r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"
ASCII_MARK = re.compile(rf"{CJK} ?[,;:?!(]|[,;:?!)] ?{CJK}")  # an ASCII mark touching Chinese


def chinese_prose(text: str) -> str:
    """A string's Chinese as prose: code, placeholders and formulas (a function's arguments, P(…), PE(pos, …), a
    bracket of arithmetic) left out, as they keep ASCII marks."""
    text = re.sub(r"`[^`]*`", "·", text)
    text = re.sub(r"\{[^}]*\}", "·", text)
    text = re.sub(r"\$[^$]*\$", "·", text)
    text = re.sub(r"\([^()]*[−+/=|∩\d][^()]*\)", "·", text)  # (L − 1)/L, (|A∩S| + |A∩P|)
    return re.sub(r"[A-Za-z_]+\([^()]*\)", "·", text)


def test_a_sentence_pair_has_one_name():
    assert [key for key, value in STRINGS.items() if "句对" in value["zh"]] == []


def test_every_string_about_tokens_calls_them_词元():
    about_tokens = [key for key, value in STRINGS.items() if re.search(r"\btokens?\b", value["en"], re.I)]
    assert len(about_tokens) > 20
    assert [key for key in about_tokens if "词元" not in STRINGS[key]["zh"]] == []


def test_the_sidebar_counts_tokens_as_词元():
    assert STRINGS["sidebar.vocab"]["zh"].endswith("个词元")


def test_chinese_sentences_use_full_width_punctuation():
    found = {k: m.group(0) for k, v in STRINGS.items() if (m := ASCII_MARK.search(chinese_prose(v["zh"])))}
    assert found == {}


def test_the_check_catches_an_ascii_comma_or_parenthesis_in_chinese():
    assert ASCII_MARK.search(chinese_prose("训练轮数 40, 学习率 0.001"))
    assert ASCII_MARK.search(chinese_prose("查询 (query)"))
    assert not ASCII_MARK.search(chinese_prose("P(参考词元)，教师强制"))


def test_a_label_takes_the_colon_of_its_language():
    assert colon("熵（比特）") == "熵（比特）："
    assert colon("概率") == "概率："
    assert colon("entropy (bits)") == "entropy (bits): "


def test_no_formula_holds_an_english_word():
    """A formula on a page is read in both languages: \\text{source} would be English in the Chinese page."""
    calls = [line for path in sorted(ROOT.glob("pages/*.py")) for line in path.read_text().splitlines()]
    formulas = [line for line in calls if "formula(" in line or line.strip().startswith('r"')]
    assert formulas and [f for f in formulas if re.search(r"\\text\{[A-Za-z]", f)] == []


def _zh_page(page: str):
    at = open_app("zh", page)
    assert not at.exception
    return at


@pytest.mark.parametrize("page", ["pages/train.py", "pages/attention.py"])
def test_what_a_chinese_page_builds_keeps_full_width_marks(page):
    """A list built in code (the recipe's settings on Train) and a chart's label and value (Attention's hovers)."""
    at = _zh_page(page)
    shown = [el.value for kind in ("info", "caption", "markdown") for el in at.get(kind) if isinstance(el.value, str)]
    assert [s for s in shown if re.search(rf"{CJK}[^,]{{0,12}}\d, {CJK}", s)] == []
    traces = [trace for chart in at.get("plotly_chart") for trace in json.loads(chart.proto.spec)["data"]]
    hovers = [trace["hovertemplate"] for trace in traces if isinstance(trace.get("hovertemplate"), str)]
    assert hovers, "no chart on the page"
    assert [h for h in hovers if re.search(rf"{CJK}: ", h)] == []


def test_the_recipe_settings_are_listed_with_the_chinese_list_mark():
    at = _zh_page("pages/train.py")
    recipe = [el.value for el in at.info if "训练轮数" in el.value]
    assert recipe and all("、" in line and ", " not in line for line in recipe)


def _in_order(node):
    """The elements under an AppTest node, in the order the page draws them."""
    children = getattr(node, "children", None)
    if children is None:
        yield node
        return
    for child in children.values():
        yield from _in_order(child)


WIDGETS = {"selectbox", "radio", "slider", "select_slider", "number_input", "toggle", "checkbox", "text_input"}


@pytest.mark.parametrize("page", PAGES)
def test_no_two_neighbouring_controls_share_a_label(page):
    """Two neighbours named alike cannot be told apart by ear or at a glance (Attention had two 头: which heads to
    show, and which head)."""
    at = _zh_page(page)
    order = [el.label for el in _in_order(at.main) if el.type in WIDGETS and getattr(el, "label", "")]
    assert len(order) >= 1
    assert [a for a, b in zip(order, order[1:]) if a == b] == []
