"""Text from users and files shown as text: in a terminal, in markdown, in plotly labels and in a spreadsheet. One
place for all four.

Sentence pairs, tokens, vocabularies, checkpoint metadata and file names are untrusted. Each function here returns
a string that shows exactly the characters it was given and nothing more: no escape sequence reaches a terminal,
no markdown, LaTeX, link or colour directive is formed, no HTML tag reaches a chart.
"""

from __future__ import annotations

import re
import string
import unicodedata

_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, format characters, surrogates, unassigned
_MARKDOWN_SPECIALS = set(string.punctuation)  # CommonMark lets a backslash escape any ASCII punctuation
_PLOTLY_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "$": "&#36;"}  # $…$ would start LaTeX in plotly
_FORMULA = re.compile(r"'*[=+\-@\t\r]")  # a spreadsheet runs a cell that starts with = + - @ (or tab, CR) as a formula


def _escape_code(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: str) -> str:
    """text with control, format and line-separator characters written as \\xNN / \\uNNNN (ESC → \\x1b).

    Spaces and every printable character, Chinese included, stay as they are.
    """
    text = str(text)
    if text.isprintable():  # false for any Other or Separator character but the space: none of _INVISIBLE is here
        return text
    return "".join(_escape_code(ch) if unicodedata.category(ch) in _INVISIBLE else ch for ch in text)


ECHO_CHARS = 200  # most characters of a user's text that a message repeats


def echo(text: str, limit: int = ECHO_CHARS) -> str:
    """visible(text) of at most limit characters, cut before an escape that would pass them and ended with "…": the
    user's text as a one-line message repeats it (an invisible character is shown as up to 10, \\U000e0001)."""
    text = str(text)
    shown = visible(text[: limit + 1])
    if len(shown) <= limit:
        return shown
    pieces, used = [], 0
    for ch in text:  # at most limit characters are looked at: each shows as one or more
        piece = visible(ch)
        if used + len(piece) > limit - 1:
            break
        pieces.append(piece)
        used += len(piece)
    return "".join(pieces) + "…"


def markdown(text: str) -> str:
    """text for st.markdown (and every Streamlit label that renders markdown), shown literally.

    Every ASCII punctuation character is backslash-escaped, so no emphasis, code span, link, autolink, heading,
    table, HTML, `$…$` formula or `:color[…]` directive can form; invisible characters are made visible first.
    """
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIALS else ch for ch in visible(text))


def plotly(text: str) -> str:
    """text for a plotly label (tick, hover, title, legend), shown literally: <, >, & and $ as HTML entities."""
    return "".join(_PLOTLY_ENTITIES.get(ch, ch) for ch in visible(text))


def spreadsheet(text: str) -> str:
    """text for a cell of a CSV or TSV file, shown literally when a spreadsheet opens it: a cell that would start a
    formula (=, +, -, @, tab, CR; also after apostrophes) gets a leading apostrophe, the spreadsheet's mark of text.
    from_spreadsheet undoes it."""
    text = str(text)
    return "'" + text if _FORMULA.match(text) else text


def from_spreadsheet(cell: str) -> str:
    """The text spreadsheet(text) was made from: one leading apostrophe before a formula start dropped."""
    return cell[1:] if cell.startswith("'") and _FORMULA.match(cell, 1) else cell
