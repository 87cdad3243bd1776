"""The lesson sheet's HTML (ui.sheet): page text rendered without ever making markup or a link of user text, formulas
as MathML, tables that fit a printed page, each chart once with its numbered caption, and a print stylesheet. What
each page records is in test_sheet_pages.py; the sheet opened and printed in Chromium in tests/e2e/test_e2e_sheet.py."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from transformer.text import markdown
from ui import packing
from ui.sheet import (
    COLUMN_PX,
    TABLE_COLUMNS,
    TABLE_PARTS,
    Chart,
    Code,
    Formula,
    LessonSheet,
    Metric,
    Table,
    Text,
    cell_text,
    formula_html,
    inline_html,
    lesson_sheet_html,
    markdown_html,
)
from viz.attention import attention_figure

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[a link](https://example.com)",
    "![image](https://example.com/a.png)",
    "<https://example.com>",
    "$\\frac{1}{2}$ $$x$$",
    "**bold** *it* _it_ `code`",
    ":red[red] :blue-badge[badge] :material/home:",
    "&lt;b&gt; &amp; &nbsp; &#60;",
    "- a list\n# a heading\n> a quote",
    "javascript:alert(1)",
    "back\\slash \\* \\",
    "\x1b[31mred\x1b[0m \u202eevil",
    "我 喜 欢 你 </p></div>",
]
ALLOWED_TAGS = {"p", "ul", "li", "strong", "em", "code", "span"}


def _tags(fragment: str) -> set[str]:
    return set(re.findall(r"</?([a-zA-Z][\w-]*)", fragment))


def _attributes(fragment: str) -> set[str]:
    """Every attribute of every tag in a fragment of HTML."""
    return {name for tag in re.findall(r"<[a-zA-Z][^>]*>", fragment) for name in re.findall(r"\s([\w-]+)=", tag)}


def _text(fragment: str) -> str:
    """The text a browser shows for a fragment of HTML (tags dropped, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


@pytest.mark.parametrize("payload", HOSTILE)
def test_user_text_escaped_for_markdown_shows_as_its_own_characters_and_nothing_else(payload):
    shown = markdown_html(f"The word **{markdown(payload)}** and `{'P'}`.")
    assert _tags(shown) <= ALLOWED_TAGS
    assert _attributes(shown) == set() and "<span" not in shown
    strong = re.search(r"<strong>(.*)</strong>", shown, re.S).group(1)
    assert _tags(strong) == set()  # the user's text inside is text only
    from transformer.text import visible

    assert _text(strong) == visible(payload).replace("\n", " ")  # every character, as typed (controls made visible)


@pytest.mark.parametrize("payload", HOSTILE)
def test_even_unescaped_text_makes_no_link_image_html_or_formula(payload):
    shown = markdown_html(payload)
    assert _tags(shown) <= ALLOWED_TAGS
    assert _attributes(shown) <= {"class"} and "<math" not in shown


def test_our_own_markdown_renders_as_the_page_shows_it():
    assert inline_html("**Step 1 of 5**: `enc_inputs` is *the* source") == (
        "<strong>Step 1 of 5</strong>: <code>enc_inputs</code> is <em>the</em> source"
    )
    assert markdown_html("Intro:\n- **a**: one\n- b\n\nNext paragraph\ngoes on.") == (
        "<p>Intro:</p><ul><li><strong>a</strong>: one</li><li>b</li></ul><p>Next paragraph goes on.</p>"
    )
    badge = inline_html("input &nbsp; :gray-badge[S] :violet-badge[I] → :red-badge[love\\]]")
    assert badge == (
        'input \xa0 <span class="badge gray">S</span> <span class="badge violet">I</span> → '
        '<span class="badge red">love]</span>'
    )
    assert inline_html("**unclosed and *half") == "**unclosed and *half"  # openers without closers stay text
    assert inline_html("`<unk>` & <b>") == "<code>&lt;unk&gt;</code> &amp; &lt;b&gt;"


def test_formulas_are_mathml_and_one_the_converter_cannot_read_stays_its_source():
    shown = formula_html(r"s = \frac{q \cdot k}{\sqrt{16}} = \frac{-4.8423}{4.0000} = -1.2106")
    assert "<math" in shown and "<mfrac>" in shown and "4.8423" in shown and "1.2106" in shown
    broken = formula_html(r"\begin{unknownenv} <b> \end{x}")
    assert "<math" in broken or "&lt;b&gt;" in broken
    assert "<b>" not in broken


def test_table_cells_print_numbers_to_their_precision_and_gaps_as_said():
    assert cell_text(0.123456) == "0.1235" and cell_text(np.float32(2.5), 2) == "2.50"
    assert cell_text(float("nan"), na_rep="–") == "–" and cell_text(None) == ""
    assert cell_text(np.int64(7)) == "7" and cell_text(True) == "True" and cell_text("<b>") == "<b>"


def _sheet(*blocks, title="Inside the model") -> LessonSheet:
    sheet = LessonSheet()
    sheet.start("inside", title, "http://127.0.0.1:8501/inside?text=%3Cscript%3E&lang=en")
    sheet.add(Text("Intro **text**."))
    for block in blocks:
        if isinstance(block, tuple):
            sheet.section(*block)
        else:
            sheet.add(block)
    return sheet


def _figure(z=((0.5, 0.5), (0.1, 0.9)), title="layer 1 · head 1"):
    return attention_figure(np.array(z), ["S → I", "I → E"], ["我", "你"], title=title)


def test_the_sheet_has_its_sections_text_tables_and_each_chart_once_with_a_numbered_caption():
    fig = _figure()
    sheet = _sheet(
        ("The arithmetic of one attention weight", 2),
        Text("**1.** q·k:"),
        Table(["i", "q_i"], [["0", "0.5000"]]),
        Formula(r"q \cdot k = 0.5000"),
        Chart("attn · head 1 · for “我 你”", fig),
        ("A subsection", 3),
        Metric("loss", "0.0026"),
        Code("enc_inputs = [[1, 2]]"),
        Chart("the same map again", fig),
        Chart("another map", _figure(((1, 0), (0, 1)))),
        ("A heading above controls only", 3),
    )
    page = lesson_sheet_html(sheet, ["From: bundled"], "en")
    main = page.split("<main>", 1)[1]
    assert re.findall(r"<h([23])>([^<]*)</h\1>", main) == [
        ("2", "The arithmetic of one attention weight"),
        ("3", "A subsection"),
        ("2", "Exercises"),
        ("2", "Answer key"),
    ]  # the last heading has nothing under it: left out; the exercises on the figures, then their answers
    assert "<p>Intro <strong>text</strong>.</p>" in main and "<td>0.5000</td>" in main and "<math" in main
    # the same chart twice is drawn once
    assert main.count('class="sheet-plot"') == 2 and main.count('class="figure-data"') == 2
    assert "Figure 1. attn · head 1 · for “我 你”" in main and "Figure 2. another map" in main
    assert "Figure 1 above shows this chart." in main
    assert (
        "<span>loss</span> <strong>0.0026</strong>" in main and "<pre><code>enc_inputs = [[1, 2]]</code></pre>" in main
    )


def test_the_sheet_is_offline_and_prints_on_a4_and_letter():
    page = lesson_sheet_html(_sheet(Chart("a map", _figure())), ["From: bundled"], "zh")
    # plotly.js (packed), its loader, and one chart's JSON; nothing fetched
    assert page.count("<script") == 3 and "<script src" not in page and "<link" not in page
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "default-src 'none'" in policy and "connect-src 'none'" in policy
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    assert "@page" in style and "@media print" in style
    assert re.search(r"figure\.chart \{[^}]*break-inside: avoid", style)
    assert re.search(r"\.link \{[^}]*overflow-wrap: anywhere", style)
    assert re.search(r"td \{[^}]*overflow-wrap: anywhere", style)
    assert f"width: {COLUMN_PX}px" in style and COLUMN_PX * 25.4 / 96 <= 210 - 2 * 12  # A4, the narrower, fits
    assert '<html lang="zh" data-charts="drawing">' in page and "图 1．a map" in page and "当前模型" in page


def test_hostile_title_link_caption_cells_and_code_are_text():
    payload = "<script>alert(1)</script>"
    fig = _figure(title=payload)
    sheet = _sheet(
        (f"**{markdown(payload)}**", 2),
        Table([payload], [[payload]], title=markdown(payload)),
        Chart(payload, fig),
        Code(payload),
        Metric(payload, payload),
        Text(markdown(payload), "warning"),
        title=payload,
    )
    sheet.link = f"http://x/?q={payload}"
    page = lesson_sheet_html(sheet, [payload], "en")
    body = page.split("</style>", 1)[1]
    assert body.count("<script") == 3  # plotly.js (packed), its loader, and the chart's JSON only
    (data,) = packing.read(body, 'class="figure-data"')  # packed: no "<" in it, so it cannot end its script early
    assert json.loads(data)["layout"]["title"]["text"] == payload
    assert "<script>alert(1)" not in body
    assert body.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 8


def test_a_wide_table_prints_as_two_narrower_tables_that_repeat_its_first_columns_and_counts_the_rest():
    columns = ["j", "key"] + [f"v[{i}]" for i in range(15)]
    page = lesson_sheet_html(_sheet(Table(columns, [[str(i) for i in range(17)]], repeat=2)), [], "en")
    heads = re.findall(r"<thead><tr>(.*?)</tr></thead>", page)
    assert len(heads) == TABLE_PARTS  # 12 of the 15 columns, in parts of at most TABLE_COLUMNS with the two repeated
    widths = [h.count("<th") for h in heads]
    assert all(h.startswith('<th scope="col">j</th><th scope="col">key</th>') for h in heads)
    assert max(widths) <= TABLE_COLUMNS and sum(w - 2 for w in widths) == 12 and max(widths) - min(widths) <= 1
    assert "The first 14 of 17 columns; the other 3 are in the app." in page
    narrow = lesson_sheet_html(_sheet(Table(columns[:8], [[str(i) for i in range(8)]], repeat=2)), [], "en")
    assert narrow.count("<thead>") == 1 and "columns;" not in narrow


def test_a_long_table_is_cut_and_counts_the_rest():
    from ui.export import sheet_table
    from ui.sheet import TABLE_ROWS

    sheet = LessonSheet()
    sheet.start("data", "Data", "")
    import streamlit as st

    st.session_state["_lesson_sheet"] = sheet
    sheet_table(pd.DataFrame({"a": range(TABLE_ROWS + 5)}))
    sheet_table(pd.DataFrame({"b": range(30)}), rows=3)
    page = lesson_sheet_html(sheet, [], "en")
    assert page.count("<tr>") == TABLE_ROWS + 1 + 3 + 1
    assert f"The first {TABLE_ROWS} of {TABLE_ROWS + 5} rows; the other 5 are in the app." in page
    assert "The first 3 of 30 rows; the other 27 are in the app." in page
    zh = lesson_sheet_html(sheet, [], "zh")
    assert "前 3 行，共 30 行；其余 27 行请在应用中查看。" in zh


def test_a_chart_drawn_wider_or_taller_than_a_printed_page_is_shrunk_to_fit():
    wide = go.Figure(go.Bar(x=[1], y=[1]), layout=dict(width=1400, height=500))
    tall = go.Figure(go.Bar(x=[1], y=[1]), layout=dict(height=1800))
    page = lesson_sheet_html(_sheet(Chart("wide", wide), Chart("tall", tall), Chart("plain", _figure())), [], "en")
    zooms = re.findall(r'<div class="drawing"(?: style="zoom:([0-9.]+)")?>', page)
    assert zooms == ["0.500", "0.500", ""]
