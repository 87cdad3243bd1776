"""The lesson sheet: what a page showed in its latest run, recorded block by block (ui.export records it), and the
one self-contained HTML file a teacher prints from it. No Streamlit here.

Every text reaches the file escaped. Page text is the markdown the page showed, whose user text
transformer.text.markdown has backslash-escaped; it is rendered by a small renderer of the few forms our own UI
strings use (paragraphs, "- " lists, **bold**, *italic*, `code`, Streamlit's :color-badge[…], entities), which makes
no link, image or raw HTML from anything. Captions, table cells, code and titles are plain text, HTML-escaped.
Formulas are LaTeX from the pages (never user text), written as MathML. The only scripts are plotly.js itself (the
plotly package's own: no copy in this repo) and the loader that unpacks it and draws each figure from its JSON; both are
packed by ui.packing (LZMA, seven bits to a character, no "<" in them). The sheet ends with exercises on its figures
(ui.exercises) and their answer key on a printed page of its own.
"""

from __future__ import annotations

import functools
import html
import math
import re
import string
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import plotly.graph_objects as go
import plotly.io
import plotly.offline
from latex2mathml.converter import convert as latex_to_mathml

from .exercises import Exercise, exercises
from .i18n import t
from .packing import UNPACK_JS, Packed, pack, packed_once
from .sheet_style import COLUMN_PX, PRINT_ZOOM, STYLE

PRINT_PX = 300  # a taller chart is printed smaller, to this height
PAGE_PX = 900  # the tallest a chart may be drawn and still fit a printed page with its caption
TABLE_COLUMNS = 8  # a wider table is printed as several tables of this many columns (its first columns repeated)
TABLE_PARTS = 2  # at most this many of them: the columns after are counted, not printed (a 64-wide vector)
TABLE_ROWS = 8  # a longer table is cut to its first rows, and says how many it leaves out (a sheet is ≤ 4 pages)
NOTE_KINDS = ("info", "warning", "success", "error")
# the most one page's sheet weighs (issue 32): plotly.js packed (1.27 MB), its figures packed, and the page
SHEET_BYTES = 1_500_000

# ------------------------------------------------------------------------------------------------ what a page showed


@dataclass
class Text:
    """Markdown as the page showed it: body text, a caption, or a coloured box (info, warning, success, error)."""

    markdown: str
    kind: str = "markdown"


@dataclass
class Formula:
    latex: str


@dataclass
class Code:
    text: str


@dataclass
class Metric:
    label: str
    value: str


@dataclass
class Table:
    """A table as text, cell by cell; `highlight` rows are marked, `repeat` first columns repeat when it is split. The
    cells may be given as a function that makes them, called when the sheet is made: a page records its tables on
    every run, and the sheet is made only when asked for."""

    columns: list[str]
    cells: list[list[str]] | Callable[[], list[list[str]]]
    highlight: frozenset[int] = frozenset()
    repeat: int = 1
    total: int = 0  # rows the page's table has (more than `rows` when it was cut)
    title: str = ""

    @property
    def rows(self) -> list[list[str]]:
        if callable(self.cells):
            self.cells = self.cells()
        return self.cells


@dataclass
class Chart:
    """A chart and its caption. The figure may be given as a function that builds it, called when the sheet is made:
    a page that draws the chart otherwise (Vega-Lite on the Data page) does not build a plotly figure on every run."""

    caption: str
    drawing: go.Figure | Callable[[], go.Figure]

    @property
    def figure(self) -> go.Figure:
        if not isinstance(self.drawing, go.Figure):
            self.drawing = self.drawing()
        return self.drawing


@dataclass
class Section:
    """A heading of the page (level 2: st.header, 3: st.subheader) and what follows it."""

    title: str
    level: int = 2
    blocks: list = field(default_factory=list)


@dataclass
class LessonSheet:
    """What the page showed in its latest run, in order, and the link to that view (kept per tab)."""

    page: str = ""
    title: str = ""
    link: str = ""
    sections: list[Section] = field(default_factory=list)

    def start(self, page: str, title: str, link: str) -> None:
        """A new run of a page: its blocks replace the previous run's."""
        self.page, self.title, self.link, self.sections = page, title, link, [Section("", 1)]

    def add(self, block) -> None:
        """One more block in the current section."""
        if not self.sections:
            self.sections.append(Section("", 1))
        self.sections[-1].blocks.append(block)

    def section(self, title: str, level: int = 2) -> None:
        self.sections.append(Section(title, level))

    @property
    def charts(self) -> list[Chart]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Chart)]


# ------------------------------------------------------------------------------------------------ markdown → HTML

_ESCAPABLE = frozenset(string.punctuation)  # what a backslash escapes in CommonMark (and transformer.text.markdown)
_COLORS = ("red", "orange", "yellow", "green", "blue", "violet", "gray", "grey", "primary")
_DIRECTIVE = re.compile(r":(" + "|".join(_COLORS) + r")(-badge)?\[")
_ENTITY = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_LIST_ITEM = re.compile(r"^\s{0,3}[-*] +(.*)$")
_EMPHASIS = {"**": ("<strong>", "</strong>"), "*": ("<em>", "</em>")}


def inline_html(text: str) -> str:
    """One line or paragraph of markdown as HTML: escapes, **bold**, *italic*, `code`, :color[…] and
    :color-badge[…], entities; everything else is text. An opener without its closer stays text."""
    out: list[str] = []  # HTML pieces
    open_: list[tuple[str, int, str]] = []  # (closing marker, index of the opener's piece in out, its HTML)
    chars: list[str] = []  # text since the last piece

    def flush() -> None:
        if chars:
            out.append(html.escape("".join(chars)))
            chars.clear()

    def close(marker: str, closing_html: str) -> bool:
        """Close the innermost opener of marker (openers inside it stay text); False when there is none."""
        for depth in range(len(open_) - 1, -1, -1):
            if open_[depth][0] == marker:
                _, at, opening_html = open_[depth]
                del open_[depth:]
                flush()
                out[at] = opening_html
                out.append(closing_html)
                return True
        return False

    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPABLE:
            chars.append(text[i + 1])
            i += 2
        elif ch == "`" and (end := text.find("`", i + 1)) != -1:
            flush()
            out.append(f"<code>{html.escape(text[i + 1 : end])}</code>")
            i = end + 1
        elif ch == "*":
            marker = "**" if text.startswith("**", i) else "*"
            if not close(marker, _EMPHASIS[marker][1]):
                flush()
                open_.append((marker, len(out), _EMPHASIS[marker][0]))
                out.append(html.escape(marker))  # text until its closer comes
            i += len(marker)
        elif ch == ":" and (m := _DIRECTIVE.match(text, i)):
            flush()
            color = "gray" if m.group(1) == "grey" else m.group(1)
            kind = "badge" if m.group(2) else "color"
            open_.append(("]", len(out), f'<span class="{kind} {color}">'))
            out.append(html.escape(m.group(0)))
            i = m.end()
        elif ch == "]" and close("]", "</span>"):
            i += 1
        elif ch == "&" and (m := _ENTITY.match(text, i)) and html.unescape(m.group(0)) != m.group(0):
            chars.append(html.unescape(m.group(0)))
            i = m.end()
        else:
            chars.append(ch)
            i += 1
    flush()
    return "".join(out)


def markdown_html(text: str) -> str:
    """Markdown as the page showed it, as HTML blocks: paragraphs (blank lines between them) and "- " lists."""
    blocks: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []

    def end_paragraph() -> None:
        if paragraph:
            blocks.append(f"<p>{inline_html(' '.join(paragraph))}</p>")
            paragraph.clear()

    def end_list() -> None:
        if items:
            blocks.append("<ul>" + "".join(f"<li>{inline_html(item)}</li>" for item in items) + "</ul>")
            items.clear()

    for line in str(text).split("\n"):
        item = _LIST_ITEM.match(line)
        if not line.strip():
            end_paragraph()
            end_list()
        elif item:
            end_paragraph()
            items.append(item.group(1).strip())
        elif items and line[:1] in (" ", "\t"):  # an item's next line
            items[-1] += " " + line.strip()
        else:
            end_list()
            paragraph.append(line.strip())
    end_paragraph()
    end_list()
    return "".join(blocks)


def formula_html(latex: str) -> str:
    """A page's LaTeX formula as MathML (drawn by the browser, no script); LaTeX it cannot read is shown as code."""
    try:
        return f'<div class="formula">{latex_to_mathml(latex, display="block")}</div>'
    except Exception:  # noqa: BLE001 - a formula the converter does not know: its source still says what it is
        return f'<pre class="formula">{html.escape(latex)}</pre>'


# ------------------------------------------------------------------------------------------------ blocks → HTML


def cell_text(value, precision: int = 4, na_rep: str = "") -> str:
    """One table cell as the sheet prints it: numbers to `precision` decimals, a missing value as na_rep."""
    if value is None:
        return na_rep
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int) or (hasattr(value, "dtype") and getattr(value.dtype, "kind", "") in "iu"):
        return str(int(value))
    if isinstance(value, float) or (hasattr(value, "dtype") and getattr(value.dtype, "kind", "") == "f"):
        value = float(value)
        return na_rep if math.isnan(value) else f"{value:.{precision}f}"
    return str(value)


def _shown_columns(table: Table) -> int:
    """How many of a table's first columns the sheet prints (the rest are counted)."""
    repeat = min(table.repeat, len(table.columns))
    return min(len(table.columns), repeat + TABLE_PARTS * max(1, TABLE_COLUMNS - repeat))


def _table_html(table: Table, L: str) -> str:
    repeat = min(table.repeat, len(table.columns))
    shown = _shown_columns(table)
    rest = shown - repeat
    chunks = max(1, math.ceil(rest / max(1, TABLE_COLUMNS - repeat)))
    step = max(1, math.ceil(rest / chunks))  # as many columns in each part
    parts = []
    for start in range(repeat, max(shown, repeat + 1), step):
        cols = list(range(repeat)) + list(range(start, min(start + step, shown)))
        head = "".join(f'<th scope="col">{html.escape(table.columns[c])}</th>' for c in cols)
        body = "".join(
            ('<tr class="highlight">' if r in table.highlight else "<tr>")
            + "".join(f"<td>{html.escape(row[c])}</td>" for c in cols)
            + "</tr>"
            for r, row in enumerate(table.rows)
        )
        parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    title = f'<p class="table-title">{inline_html(table.title)}</p>' if table.title else ""
    notes = []
    if table.total > len(table.rows):
        notes.append(t("sheet.rows_shown", L, n=len(table.rows), total=table.total, rest=table.total - len(table.rows)))
    if shown < len(table.columns):
        notes.append(t("sheet.columns_shown", L, n=shown, total=len(table.columns), rest=len(table.columns) - shown))
    cut = "".join(f'<p class="caption">{html.escape(note)}</p>' for note in notes)
    return f'<div class="table">{title}{"".join(parts)}{cut}</div>'


def _fit(fig: go.Figure) -> float:
    """How much a chart drawn at its own fixed size must shrink to fit the sheet's width and a printed page."""
    width, height = fig.layout.width, fig.layout.height or 450  # plotly's default height
    scale = min(1.0, PAGE_PX / height)
    if width:
        scale = min(scale, COLUMN_PX / width)
    return scale


def _chart_html(chart: Chart, number: int, L: str, data: str) -> str:
    """A numbered chart with its caption: a box plotly draws in when the sheet opens, and its figure's JSON (data)."""
    fig = chart.figure
    scale = _fit(fig)
    style = f' style="zoom:{scale:.3f}"' if scale < 1 else ""
    printed = min(PRINT_ZOOM, PRINT_PX / ((fig.layout.height or 450) * scale))  # on paper: at most PRINT_PX tall
    width = f"{fig.layout.width}px" if fig.layout.width else "100%"
    size = f"width:{width};height:{fig.layout.height or 450}px"
    caption = html.escape(t("sheet.figure", L, n=number, caption=chart.caption))
    plot = f'<div class="sheet-plot" id="figure-{number}" style="{size}"></div>'
    source = pack(data.encode()).element('class="figure-data"')
    drawn = f'<div class="drawing"{style}>{plot}{source}</div>'
    return (
        f'<figure class="chart" style="--print-zoom:{printed:.3f}">{drawn}<figcaption>{caption}</figcaption></figure>'
    )


def _block_html(block, figures: dict[str, int], L: str, numbered: list[tuple[int, go.Figure]]) -> str:
    if isinstance(block, Text):
        body = markdown_html(block.markdown)
        if block.kind in NOTE_KINDS:
            return f'<div class="note {block.kind}">{body}</div>'
        if block.kind == "source":  # the code that computed a chart: on screen, not on paper
            return f'<div class="caption source">{body}</div>'
        return f'<div class="caption">{body}</div>' if block.kind == "caption" else body
    if isinstance(block, Formula):
        return formula_html(block.latex)
    if isinstance(block, Code):
        return f"<pre><code>{html.escape(block.text)}</code></pre>"
    if isinstance(block, Metric):
        label, value = html.escape(block.label), html.escape(block.value)
        return f'<div class="metric"><span>{label}</span> <strong>{value}</strong></div>'
    if isinstance(block, Table):
        return _table_html(block, L)
    if isinstance(block, Chart):
        drawn = plotly.io.to_json(block.figure, validate=False)
        if drawn in figures:  # the same chart again: said, not drawn twice
            return f'<p class="caption">{html.escape(t("sheet.same_figure", L, n=figures[drawn]))}</p>'
        figures[drawn] = len(figures) + 1
        numbered.append((figures[drawn], block.figure))
        return _chart_html(block, figures[drawn], L, drawn)
    raise TypeError(f"not a lesson sheet block: {block!r}")


HALF_COLUMNS = 10  # a map of square cells with at most this many columns reads as well at half the sheet's width
HALF_LINES = 3  # a chart of at most this many lines (or series of points, unlabelled) too
HALF_TABLE_COLUMNS, HALF_TABLE_CHARS = 4, 44  # a table this narrow (columns, characters a row) too
LEAD_BLOCKS = 2  # the short texts or formulas before a half-width chart that go beside it with it
LEAD_CHARS = 160  # what counts as short


def _half(block) -> bool:
    """Whether a chart or table reads as well at half the sheet's width (drawn there, two side by side on paper): a
    map of square cells of at most HALF_COLUMNS columns, or bars, not drawn at its own width; a table of at most
    HALF_TABLE_COLUMNS short columns."""
    if isinstance(block, Table):
        widest = max((sum(len(cell) + 2 for cell in row) for row in [block.columns, *block.rows]), default=0)
        return len(block.columns) <= HALF_TABLE_COLUMNS and widest <= HALF_TABLE_CHARS
    if not isinstance(block, Chart) or block.figure.layout.width:
        return False
    fig = block.figure
    maps = [tr for tr in fig.data if tr.type == "heatmap" and tr.z is not None and len(tr.z)]
    if maps:  # square cells: a small map, or a pattern without numbers in its cells
        square = any(axis.scaleanchor for axis in fig.select_yaxes())
        numbers = any(tr.texttemplate or tr.text is not None for tr in maps)
        return square and (not numbers or all(len(tr.z[0]) <= HALF_COLUMNS for tr in maps))
    lines = all(tr.type == "scatter" and "text" not in str(tr.mode or "lines") for tr in fig.data)  # no labels
    return bool(fig.data) and (all(tr.type == "bar" for tr in fig.data) or (lines and len(fig.data) <= HALF_LINES))


def _lead(block) -> bool:
    """A block short enough to stand beside its chart: a line of text (not a box) or a formula."""
    if isinstance(block, Formula):
        return True
    return (
        isinstance(block, Text)
        and block.kind in ("markdown", "caption", "source")
        and len(block.markdown) <= LEAD_CHARS
    )


def _cells(section: Section) -> list[tuple[int, int, bool]]:
    """A section's blocks in runs (start, end, half): a half-width chart with the short lines just before it and its
    captions after it is one run that prints beside another; every other block is a run of its own."""
    blocks = section.blocks
    runs: list[tuple[int, int, bool]] = []
    i = 0
    while i < len(blocks):
        end = i
        while end < len(blocks) and end - i < LEAD_BLOCKS and _lead(blocks[end]):
            end += 1
        if end < len(blocks) and _half(blocks[end]):
            end += 1
            while end < len(blocks) and isinstance(blocks[end], Text) and blocks[end].kind in ("caption", "source"):
                end += 1
            runs.append((i, end, True))
            i = end
        else:
            runs.append((i, i + 1, False))
            i += 1
    return runs


def side_by_side(parts: list[tuple[str, bool]]) -> str:
    """HTML parts in order, each run of two or more half-width ones in a box that prints them two to a row."""
    out: list[str] = []
    run: list[str] = []
    for part, half in [*parts, ("", False)]:
        if half:
            run.append(f'<div class="half">{part}</div>')
            continue
        if run:
            out.append(f'<div class="halves">{"".join(run)}</div>' if len(run) > 1 else run[0])
            run = []
        if part:
            out.append(part)
    return "\n".join(out)


def _blocks_html(section: Section, figures: dict[str, int], L: str, numbered: list[tuple[int, go.Figure]]) -> str:
    """A section's blocks as HTML, half-width charts two to a row (_cells)."""
    parts = [
        ("\n".join(_block_html(b, figures, L, numbered) for b in section.blocks[start:end]), half)
        for start, end, half in _cells(section)
    ]
    return side_by_side(parts)


def _half_section(section: Section) -> bool:
    """A subsection that is only a half-width chart and its lines (each mask of the Masks page): printed beside the
    next one like it."""
    return section.level >= 3 and [half for _, _, half in _cells(section)] == [True]


# nothing leaves the file: no fetch, frame, font or image from anywhere but the file itself
POLICY = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; "
    "font-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'"
)


def _has_content(sections: list[Section], i: int) -> bool:
    """Whether section i, or a section under it (before the next one of its level), holds anything: a heading the page
    drew above its controls only is left out of the sheet."""
    for later in sections[i:]:
        if later is not sections[i] and later.level <= sections[i].level:
            return False
        if later.blocks:
            return True
    return False


@functools.cache
def packed_plotly() -> Packed:
    """The plotly package's plotly.js, packed: 1.27 MB of text for its 4.8 MB (once per process)."""
    return packed_once(plotly.offline.get_plotlyjs().encode())


# unpack plotly.js (ui.packing), run it, then draw each figure from its JSON; then
# <html data-charts="drawn"> (or "failed", and the note that says which browsers draw them is shown; it says "drawing"
# until then, and "none" in a sheet without figures)
LOADER = (
    "<script>"
    + UNPACK_JS
    + """
(async () => {
  const text = (element) => new TextDecoder().decode(unpack(element));
  const library = document.createElement("script");
  library.textContent = text(document.getElementById("plotly-js"));
  document.head.appendChild(library);
  for (const source of document.querySelectorAll("script.figure-data")) {
    const figure = JSON.parse(text(source));
    await Plotly.newPlot(source.previousElementSibling, figure.data, figure.layout,
                         {displaylogo: false, responsive: true, displayModeBar: false});
  }
  document.documentElement.dataset.charts = "drawn";
})().catch(() => {
  document.documentElement.dataset.charts = "failed";
  document.getElementById("needs-browser").hidden = false;
});
</script>"""
)


def _exercises_html(questions: list[Exercise], L: str) -> tuple[str, str]:
    """The exercises (a section at the end of the sheet) and their answer key (a section on a page of its own)."""
    if not questions:
        return "", ""
    asked = "".join(f"<li>{html.escape(q.question)}</li>" for q in questions)
    keys = {True: "sheet.answer", False: "sheet.answer_table"}  # on a figure, on a table
    answers = "".join(
        f"<p>{html.escape(t(keys[bool(q.figure)], L, n=i, figure=q.figure, answer=q.answer))}</p>"
        for i, q in enumerate(questions, 1)
    )
    intro = html.escape(t("sheet.exercises_intro", L))
    return (
        f'<section class="exercises"><h2>{html.escape(t("sheet.exercises", L))}</h2><p>{intro}</p><ol>{asked}</ol>'
        "</section>",
        f'<section class="answers"><h2>{html.escape(t("sheet.answers", L))}</h2>{answers}</section>',
    )


def _link_html(link: str, L: str) -> str:
    """The link to the view, when the server knows an address learners can open (ui.links.shareable_link); else the
    line that says how the teacher shares the view (a localhost address opens nothing on a learner's machine)."""
    if link:
        return f'<p class="link">{html.escape(t("export.sheet_link", L))} <code>{html.escape(link)}</code></p>'
    return f'<p class="link">{html.escape(t("export.sheet_no_link", L))}</p>'


def lesson_sheet_html(sheet: LessonSheet, summary: list[str], L: str) -> str:
    """One self-contained HTML file: the page's title, the model's summary, the link to the view, then every section
    the page showed with its text, formulas, tables and charts (each chart once, numbered, with its caption), then
    exercises on those figures and, on a page of its own, their answers."""
    figures: dict[str, int] = {}
    numbered: list[tuple[int, go.Figure]] = []
    parts: list[tuple[str, bool]] = []
    for i, section in enumerate(sheet.sections):
        half = _half_section(section)
        blocks = "\n".join(_block_html(b, figures, L, numbered) for b in section.blocks) if half else None
        blocks = blocks if half else _blocks_html(section, figures, L, numbered)
        if section.level <= 1:
            parts.append((f"<section>{blocks}</section>", False))
        elif _has_content(sheet.sections, i):
            h = f"h{min(section.level, 4)}"
            parts.append((f"<section><{h}>{inline_html(section.title)}</{h}>\n{blocks}</section>", half))
    sections = [side_by_side(parts)]
    tables = [  # as printed: its first rows, its first columns
        (s.title or sheet.title, b.columns[: _shown_columns(b)], [row[: _shown_columns(b)] for row in b.rows])
        for s in sheet.sections
        for b in s.blocks
        if isinstance(b, Table)
    ]
    asked, answers = _exercises_html(exercises(numbered, L, tables), L)
    items = "".join(f"<li>{html.escape(line)}</li>" for line in summary)
    made = t("export.sheet_made", L, date=time.strftime("%Y-%m-%d"))
    library = packed_plotly().element('id="plotly-js"') + "\n" + LOADER if numbered else ""
    state = "drawing" if numbered else "none"
    needs_browser = f'<p class="note warning" id="needs-browser" hidden>{html.escape(t("sheet.needs_browser", L))}</p>'
    return f"""<!DOCTYPE html>
<html lang="{"zh" if L == "zh" else "en"}" data-charts="{state}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(sheet.title)}</title>
<!-- plotly.js (from the plotly package), Copyright 2012-2026 Plotly, Inc., MIT licence -->
<style>{STYLE}</style>
</head><body>
<header><h1>{html.escape(sheet.title)}</h1>
<p class="caption">{html.escape(made)}</p>
{_link_html(sheet.link, L)}
<h2>{html.escape(t("sidebar.model", L))}</h2><ul>{items}</ul></header>
<main>
{needs_browser if numbered else ""}
{chr(10).join(sections)}
{asked}
</main>
{answers}
{library}
</body></html>
"""
