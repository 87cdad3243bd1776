"""transformer.text: user text shown as text in a terminal, in markdown, in plotly labels and in a spreadsheet."""

import unicodedata

import pytest

from transformer.text import ECHO_CHARS, echo, from_spreadsheet, markdown, plotly, spreadsheet, visible

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


def test_visible_escapes_exactly_the_invisible_characters_and_keeps_every_other_one():
    """Each character of these ranges between two letters: controls, format characters, surrogates, private-use and
    unassigned characters and the line and paragraph separators become escapes; every other one stays, spaces such as
    the no-break and the ideographic one included."""
    invisible = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
    for code in [*range(0x3100), *range(0xD7F0, 0xE010), *range(0xFE00, 0x10000), 0x1F600, 0xE0001, 0x10FFFF]:
        ch = chr(code)
        escape = f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
        assert visible(f"a{ch}b") == (f"a{escape}b" if unicodedata.category(ch) in invisible else f"a{ch}b"), hex(code)


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


@pytest.mark.parametrize("char", ["a", "我", "\x1b", "\ud7fc", "\U000e0001"])
def test_echo_repeats_at_most_its_limit_of_characters_whatever_they_are(char):
    """An invisible character is shown as an escape of 4 to 10 characters: 200 of them were shown as 1,200."""
    long = echo(char * 5_000)
    assert len(long) <= ECHO_CHARS and long.endswith("…")
    assert long[:-1] == visible(char) * ((ECHO_CHARS - 1) // len(visible(char)))  # never half an escape
    assert echo("ab" + char) == visible("ab" + char)  # short texts are whole
