"""What each page records for its lesson sheet in a real script run (AppTest): every text, box and caption the page
shows (but the hints about its own controls), its tables and formulas, and every chart once with a caption that says
what it shows and for which sentence, layer and head. Pages draw only through ui.export, so none can forget the sheet.
"""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest

from tests import source
from tests.apptest_helpers import PAGES, open_app, opened_page
from transformer import TrainConfig, Translator, train
from transformer.trace import trace_sentence
from ui.i18n import t
from ui.model_cache import CurrentModel
from ui.sheet import (
    SHEET_BYTES,
    Chart,
    Code,
    Formula,
    LessonSheet,
    Table,
    Text,
    lesson_sheet_html,
)

ROOT = Path(__file__).resolve().parents[2]
# what a page may still draw with Streamlit itself: layout, widgets, the title (the sheet's own), downloads, progress
DRAWN_BY_EXPORT = {
    *("markdown", "caption", "info", "warning", "error", "success", "latex", "dataframe", "table", "code", "metric"),
    *("header", "subheader", "write", "plotly_chart", "json", "image", "pyplot", "altair_chart", "text"),
    *("vega_lite_chart", "bar_chart", "line_chart", "area_chart", "scatter_chart"),
}
# texts about the app's own controls only (ui.export.hint), as templates: {n} stands for any value
HINTS = ("inside.click_block", "inside.click_cell", "attn.click_to_mark", "attn.stat_grid_help", "data.large")
HINTS += ("attn.read",)  # "Hover a cell …": left out of the sheet by its page (issue 32 §1)
# texts whose paper form the sheet prints instead (issue 32 §1: the screen's instructions, said as paper says them)
PAPER = {f"{key}": f"{key}_paper" for key in ("train.intro", "inside.intro", "inside.cell_intro", "attn.marks_intro")}
PAPER |= {key: f"{key}_paper" for key in ("attn.stats_intro", "attn.patterns_dataset", "attn.patterns_sentence")}
# what a reader is told to do with a mouse, a finger or a widget: never on paper (issue 32 §1), in either language
MOUSE_WORDS = re.compile(
    r"\b(hover|click|drag|scroll|slider|double-click|tap|press|pick)\w*|悬停|点击|单击|双击|拖动|拖曳|滑块|滚动|鼠标",
    re.IGNORECASE,
)


def _pattern(key: str) -> str:
    return re.sub(r"\\\{\w+\\\}", ".+", re.escape(t(key, "en")))


def _is_hint(text: str) -> bool:
    return any(re.fullmatch(_pattern(key), text) for key in HINTS)


def _in_paper_form(text: str, recorded: list[str]) -> bool:
    """Whether text is one the page shows on screen and the sheet records in its paper form."""
    return any(
        re.fullmatch(_pattern(key), text) and any(re.fullmatch(_pattern(paper), r) for r in recorded)
        for key, paper in PAPER.items()
    )


def sheet_words(page_html: str) -> str:
    """The text a reader of the printed sheet reads: no scripts (plotly.js, the figures' JSON), no tags."""
    body = re.sub(r"<script.*?</script>", " ", page_html.split("<body>", 1)[1], flags=re.DOTALL)
    body = re.sub(r'<p class="note warning" id="needs-browser" hidden>.*?</p>', " ", body)  # shown only on failure
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _fragments(tree: ast.Module) -> set[ast.AST]:
    """Functions decorated with st.fragment: redrawn alone every second (live training), so never in the sheet."""
    return {
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and any("fragment" in ast.unparse(d) for d in node.decorator_list)
    }


@pytest.mark.parametrize("path", [*PAGES, "ui/widgets.py"])
def test_pages_draw_text_tables_and_charts_only_through_the_sheet_recording_functions(path):
    tree = source.tree(ROOT / path)
    skipped = {id(n) for f in _fragments(tree) for n in ast.walk(f)}
    direct = [
        f"line {node.lineno}: {ast.unparse(node.func)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and id(node) not in skipped
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in DRAWN_BY_EXPORT
        and isinstance(node.func.value, (ast.Name, ast.Subscript, ast.Call))  # st, a column, st.container(…)
        and not (isinstance(node.func.value, ast.Name) and node.func.value.id in ("pd", "np", "torch"))
    ]
    assert not direct, f"{path} draws without recording it for the lesson sheet (use ui.export): {direct}"


def _sheet(at) -> LessonSheet:
    return at.session_state["_lesson_sheet"]


def _blocks(sheet: LessonSheet, kind):
    return [b for s in sheet.sections for b in s.blocks if isinstance(b, kind)]


def _main_texts(at) -> list[str]:
    """The markdown source of every text, caption and box in the page's main area."""
    kinds = ("markdown", "caption", "info", "warning", "error", "success")
    return [e.value for kind in kinds for e in getattr(at.main, kind)]


@pytest.mark.parametrize("page", PAGES)
def test_every_text_and_chart_a_page_shows_is_in_its_sheet(page):
    at = opened_page("en", page)
    assert not at.exception
    sheet = _sheet(at)
    recorded = [b.markdown for b in _blocks(sheet, Text)] + [f"`{b.text}`" for b in _blocks(sheet, Code)]  # export.ids
    missing = [
        text
        for text in _main_texts(at)
        if text not in recorded and not _is_hint(text) and text.strip("*") and not _in_paper_form(text, recorded)
    ]
    bold_labels = {f"**{t(k, 'en')}**" for k in ("train.model_settings", "train.train_settings", "data.add_pair")}
    assert [m for m in missing if m not in bold_labels] == []
    headings = [h.value for kind in ("header", "subheader") for h in getattr(at.main, kind)]
    assert set(headings) <= {s.title for s in sheet.sections}
    charts = _blocks(sheet, Chart)
    assert len(charts) == len(at.main.get("plotly_chart")) + len(at.main.get("vega_lite_chart"))
    captions = [c.caption for c in charts]
    assert len(set(captions)) == len(captions) and all(captions), captions  # each chart named, none twice
    assert sheet.title == at.title[0].value
    # the file (issue 32 §1): at most SHEET_BYTES, no mouse words, 3–5 exercises on its figures
    page_html = lesson_sheet_html(sheet, [], "en")
    assert len(page_html.encode()) <= SHEET_BYTES
    assert MOUSE_WORDS.findall(sheet_words(page_html)) == []
    asked = page_html.split('class="exercises"', 1)[-1].split("</section>", 1)[0]
    questions = re.findall(r"<li>(.*?)</li>", asked)
    assert 3 <= len(questions) <= 5 if charts else "Exercises" not in page_html
    assert any(" why " in q or q.startswith("Why") for q in questions) if charts else True  # issue 42: a "why"
    assert "localhost" not in sheet_words(page_html)  # no address learners cannot open


def test_the_inside_sheet_holds_the_arithmetic_of_one_weight_and_the_loss_table():
    at = opened_page("en", "pages/inside.py")
    sheet = _sheet(at)
    titles = [s.title for s in sheet.sections]
    assert t("inside.cell", "en") in titles and t("inside.loss", "en") in titles
    tables = {tuple(b.columns[:4]): b for b in _blocks(sheet, Table)}
    assert ("i", "q_i", "k_i", "q_i·k_i") in tables
    softmax = next(b for b in _blocks(sheet, Table) if "s_j" in b.columns)
    assert softmax.highlight == frozenset({0})  # the chosen key (0) is marked, as on the page
    loss = next(b for b in _blocks(sheet, Table) if "−log p" in b.columns)
    assert [row[2] for row in loss.rows] == ["I", "love", "you", ".", "E", "P"]
    assert loss.rows[-1][4] == "–"  # the padding row has no −log p, as the page says
    model = at.session_state["model"]
    trace = trace_sentence(model.translator, "我 喜 欢 你", "I love you .", 1, 1)
    cell = trace.attention_cell(trace.attention_modules()[0], 0, 0, 0)
    formulas = " ".join(b.latex for b in _blocks(sheet, Formula))
    assert f"{cell.dot:.4f}" in formulas and f"{cell.weight:.4f}" in formulas and f"{trace.loss:.4f}" in formulas
    captions = [c.caption for c in _blocks(sheet, Chart)]
    assert any("head 1" in c and "query 0 on key 0" in c and "“我 喜 欢 你 P”" in c for c in captions), captions


def test_the_attention_sheet_names_each_chart_and_the_film_strip_apart_from_the_map_above():
    pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "hello .")]
    translator = Translator.create(pairs, d_model=8, n_heads=2, d_ff=16, n_layers=2)
    records = list(train(translator, pairs, TrainConfig(epochs=3), snapshot_every=1, snapshot_pairs=(0,)))
    snapshots = [(r.epoch, r.snapshot) for r in records if r.snapshot is not None]
    model = CurrentModel(translator, "trained", snapshots, [pairs[0]], trained_on=tuple(pairs))
    at = open_app("zh", "pages/attention.py", pairs=pairs, model=model)
    assert not at.exception
    captions = [c.caption for c in _blocks(_sheet(at), Chart)]
    main, lines, grid, patterns, aer, film, film_lines = captions  # each map with its line view after it
    assert lines.startswith(t("attn.lines_title", "zh")) and film_lines.startswith(t("attn.lines_title", "zh"))
    assert aer.startswith("每个编码器-解码器注意力头及每层平均的对齐错误率")  # 我 喜 欢 你 has the corpus's gold links
    assert main.startswith("编码器-解码器注意力 · 层 2 · 头 1") and "句子“我 喜 欢 你”→“I love you .”" in main  # no S
    assert film.startswith("编码器-解码器注意力 · 层 2 · 头 1 · 训练中，第 3 轮")  # not the same title as the map above
    assert grid.startswith(f"{t('attn.dec_enc', 'zh')}每个头的“{t('attn.stat_diagonal', 'zh')}”")
    stats = next(b for b in _blocks(_sheet(at), Table) if b.columns[:2] == ["层", "头"])
    assert len(stats.rows) == 4 and all(re.fullmatch(r"-?\d+\.\d{3}", v) for v in stats.rows[0][2:])


def test_the_decoding_sheet_holds_the_n_best_table_and_the_verdict():
    at = open_app("en", "pages/decoding.py", dec_strategy="beam")
    sheet = _sheet(at)
    assert any(s.title == "How to choose the next word: beam search" for s in sheet.sections)
    nbest = next(b for b in _blocks(sheet, Table) if t("dec.translation", "en") in b.columns)
    assert nbest.rows[0][1] == "I love you ." and len(nbest.rows) >= 1
    assert [b.kind for b in _blocks(sheet, Text)].count("info") == 1  # the verdict (its text: the test above)
    (tree,) = _blocks(sheet, Chart)
    assert tree.caption == "The beams, step by step · K = 4 · α = 0.6 · for “我 喜 欢 你” → “I love you .”"


def test_hostile_pairs_stay_text_in_the_sheet():
    payload = "<script>alert(1)</script>[x](https://e.com)"
    pairs = [(f"{payload} 我", "I"), ("你", "you")]
    at = open_app("en", "pages/data.py", pairs=pairs, tokenizer="whitespace")
    page = lesson_sheet_html(_sheet(at), [], "en")
    body = page.split("</style>", 1)[1]
    assert "<script" not in body and "href" not in body  # the Data page draws no chart: no script at all
    assert "&lt;script&gt;alert(1)&lt;/script&gt;[x](https://e.com)" in body
