"""transformer.text: user text shown as text in a terminal, in markdown, in plotly labels and in a spreadsheet."""

import pytest

from transformer.text import from_spreadsheet, markdown, plotly, spreadsheet, visible

PAYLOADS = [
    "$\\rule{3000px}{3000px}$",
    "`code` and a [link](https://example.com)",
    "**bold** _it_ # heading",
    "<a href='https://example.com'>click</a>",
    "www.example.com :red[red] :material/home: :cat:",
    "| a | b |",
]


def test_visible_writes_control_characters_as_escapes_and_keeps_chinese():
    assert visible("我\x1b[31m喜\x00欢\u202e你\n") == "我\\x1b[31m喜\\x00欢\\u202e你\\x0a"
    assert visible("I love you .") == "I love you ."


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markdown_escapes_every_ascii_punctuation_character(payload):
    out = markdown(payload)
    unescaped = out.replace("\\\\", "").replace("\\", "")  # drop the escapes: the original text comes back
    assert unescaped == payload.replace("\\", "")
    for i, ch in enumerate(out):
        if ch in "$`*_[]()<>#|:!" and (i == 0 or out[i - 1] != "\\"):
            pytest.fail(f"{ch!r} at {i} is not escaped in {out!r}")


def test_plotly_turns_tags_and_dollars_into_entities():
    assert plotly("<a href=x>hi</a> & $x$") == "&lt;a href=x&gt;hi&lt;/a&gt; &amp; &#36;x&#36;"
    assert plotly("你\x1b") == "你\\x1b"


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("'=x", "''=x"),
        ("'Tis", "'Tis"),
        ("I love you .", "I love you ."),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_a_spreadsheet_cell_never_starts_a_formula_and_gives_back_its_text(text, cell):
    assert spreadsheet(text) == cell
    assert from_spreadsheet(cell) == text
