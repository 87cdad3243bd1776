"""Exports: every chart downloads from its mode bar as PNG or SVG under a name that says what it shows, every matrix
as CSV with its row and column tokens, and the page as a lesson sheet: the functions below draw a page's text,
formulas, tables and charts in Streamlit and record the same for the sheet (ui.sheet makes it one self-contained HTML
file, plotly embedded, no network needed to open it)."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import time
from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from transformer.data import BOS, EOS, PAD
from transformer.model import ATTENTION_KINDS
from transformer.text import markdown, spreadsheet, visible
from viz.common import CELL_TEXT, text_px
from viz.presenter import presenter_figure

from .i18n import t
from .one_chart import SLIDE_PX, one_chart_on, slide
from .presenter import presenting
from .session import lang
from .sheet import TABLE_ROWS, Chart, Code, Formula, LessonSheet, Metric, Table, Text, cell_text, lesson_sheet_html

__all__ = ["LessonSheet", "lesson_sheet_html"]  # the sheet itself lives in ui.sheet

IMAGE_FORMATS = ("png", "svg")
IMAGE_SCALE = 2  # PNGs at twice the screen resolution: sharp on slides
CAPTION_SPECIALS = frozenset((PAD, BOS, EOS))  # left out of a caption's sentence, unless the page teaches them


def file_name(*parts) -> str:
    """A file name from what a download shows, e.g. ("attention", "dec_enc", "layer 2") → attention-dec_enc-layer-2."""
    text = "-".join(str(p) for p in parts if p not in (None, ""))
    return re.sub(r"[^\w.-]+", "-", text, flags=re.UNICODE).strip("-")[:120] or "chart"


def _sheet() -> LessonSheet:
    return st.session_state.setdefault("_lesson_sheet", LessonSheet())


def start_page(page: str, title: str, link: str) -> None:
    """At the top of a page: this run's text, tables and charts (and the link to this view) replace the previous
    run's."""
    _sheet().start(page, title, link)


# ------------------------------------------------------------------------------------------------ drawn and recorded
# A page draws its text, formulas, tables and charts with these, never with st.markdown & co. directly (a test
# checks): each draws in Streamlit where it is called and records the same thing for the lesson sheet.


def section(title: str, level: int = 2, drawn: bool = True) -> None:
    """st.header (level 2) or st.subheader (level 3), and a new section of the sheet under that heading; drawn=False:
    in the sheet only (what the page says with a widget, e.g. the decoding strategy)."""
    if drawn:
        (st.header if level <= 2 else st.subheader)(title)
    _sheet().section(title, level)


def text(body: str, kind: str = "markdown", paper: str | None = None) -> None:
    """Markdown (user text escaped by transformer.text.markdown) as st.markdown, st.caption or a coloured box
    (kind "info", "warning", "success", "error"; "source": a caption that names the code, left off the printed sheet);
    in the sheet, its paper form when it has one (a text that tells the
    reader what to click says on paper what the screen shows), or nothing when paper is ""."""
    draw = {"markdown": st.markdown, "caption": st.caption, "source": st.caption}.get(kind) or getattr(st, kind)
    draw(body)
    if paper is None or paper:
        _sheet().add(Text(body if paper is None else paper, kind))


def hint(body: str, kind: str = "caption") -> None:
    """Text about the app's own controls ("click a cell …", a form's label or its error): drawn as st.caption, or
    st.markdown / st.info / st.error (kind), but not in the sheet, where it means nothing."""
    {"markdown": st.markdown, "info": st.info, "error": st.error}.get(kind, st.caption)(body)


def formula(latex: str) -> None:
    """st.latex, and the formula (MathML) in the sheet."""
    st.latex(latex)
    _sheet().add(Formula(latex))


def code(body: str, language: str | None = "python") -> None:
    """st.code, its long lines wrapped (a block that scrolls sideways cannot be scrolled from the keyboard), and the
    same text in the sheet."""
    st.code(body, language=language, wrap_lines=True)
    _sheet().add(Code(body))


def ids(values: list) -> None:
    """Token ids as Python writes them (make_data's tensors as lists), in monospace: inline code in the app, and a code
    block in the sheet. Not st.code: its syntax highlighter is a module of its own that the Data page, the first page
    a tab draws, waited for (about 0.2 s of the browser's CPU, more of its time; measured 2026-11-26)."""
    body = repr(values)  # digits, commas, brackets and spaces: nothing that markdown reads
    st.markdown(f"`{body}`")
    _sheet().add(Code(body))


def metric(label: str, value: str, detail: str | None = None) -> None:
    """st.metric, with what the value counts (detail) in grey under it, and "label value (detail)" in the sheet: a
    metric's value is one line, and a long one is cut ("100% (1838/…")."""
    st.metric(label, value, delta=detail, delta_color="off", delta_arrow="off")
    _sheet().add(Metric(label, value if detail is None else f"{value} ({detail})"))


def sheet_table(
    frame: pd.DataFrame,
    *,
    precision: int = 4,
    na_rep: str = "",
    highlight: Iterable[int] = (),
    repeat: int = 1,
    title: str = "",
    rows: int = TABLE_ROWS,
) -> None:
    """A table in the sheet only: what the page shows in another form (the data editor, a widget's values); its first
    `rows` rows, and a count of the rest."""
    head = frame.head(rows)

    def cells() -> list[list[str]]:
        return [[cell_text(v, precision, na_rep) for v in row] for row in head.itertuples(index=False)]

    _sheet().add(
        Table([str(c) for c in frame.columns], cells, frozenset(highlight), repeat, total=len(frame), title=title)
    )


def table(
    frame: pd.DataFrame,
    *,
    precision: int = 4,
    na_rep: str = "",
    highlight: int | None = None,
    highlight_color: str = "#ffd6d6",
    repeat: int = 1,
    styled: bool = False,
    static: bool = False,
    sheet_rows: int = TABLE_ROWS,
    **dataframe_kwargs,
):
    """st.dataframe of frame (numbers to `precision` decimals and missing values as na_rep when styled, or a row
    highlighted), or st.table when static (a short table whose long texts wrap in their cells, where st.dataframe
    cuts them at its column's width), and the same table in the sheet: its first `sheet_rows` rows, split into narrower
    tables when wide (the first `repeat` columns in each)."""
    shown = frame
    if styled or highlight is not None:
        shown = frame.style.format(precision=precision, na_rep=na_rep)
        if highlight is not None:
            shown = shown.apply(
                lambda r: [f"background-color: {highlight_color}" if r.name == highlight else "" for _ in r], axis=1
            )
    if not static:
        dataframe_kwargs["column_config"] = _fitted_columns(
            frame, precision, na_rep, dataframe_kwargs.get("column_config")
        )
    event = (st.table if static else st.dataframe)(shown, **dataframe_kwargs)
    sheet_table(
        frame,
        precision=precision,
        na_rep=na_rep,
        highlight=() if highlight is None else (highlight,),
        repeat=repeat,
        rows=sheet_rows,
    )
    return event


GRID_TEXT_PX, GRID_PAD_PX = 14, 18  # st.dataframe's font size; a cell's padding on both sides and its border
MAX_COLUMN_PX = 800  # a column is never drawn wider than this, however long its longest text
FITTED_ROWS = 1_000  # the rows whose texts size the columns


def _fitted_columns(frame: pd.DataFrame, precision: int, na_rep: str, config: dict | None) -> dict:
    """column_config with a width for each column it does not configure: as wide as its label and its longest text
    (text_px, an upper bound), so st.dataframe, which sizes columns by a sample of rows and caps them, cuts none."""
    config = dict(config or {})
    for name in frame.columns:
        if name in config or str(name) in config:
            continue
        texts = [str(name), *(cell_text(v, precision, na_rep) for v in frame[name].head(FITTED_ROWS))]
        config[str(name)] = st.column_config.Column(width=column_px(texts))
    return config


def column_px(texts: Iterable[str]) -> int:
    """The width (px) of an st.dataframe or st.data_editor column that shows each of texts (its label among them)
    whole: the longest by text_px, an upper bound, and a cell's padding; at most MAX_COLUMN_PX."""
    px = max((text_px(text, GRID_TEXT_PX) for text in list(texts)[:FITTED_ROWS]), default=0) + GRID_PAD_PX
    return int(min(MAX_COLUMN_PX, px + 1))


def sheet_settings(L: str, items: Iterable[tuple[str, object]]) -> None:
    """The values of the widgets a view depends on (label, value), as one line of the sheet only (the page shows
    them in its widgets)."""
    listed = "; ".join(f"{label} {visible(str(value))}" for label, value in items)
    _sheet().add(Text(markdown(t("sheet.settings", L, items=listed)), "caption"))


def words(tokens: str) -> str:
    """Tokens joined by spaces without the special tokens P, S and E: the sentence as a reader says it."""
    return " ".join(token for token in tokens.split(" ") if token not in CAPTION_SPECIALS)


def for_sentence(L: str, source: str, target: str | None = None, specials: bool = False) -> str:
    """The sentence a chart is about, for its caption: 'for “source” → “target”' (plain text); without P, S and E
    unless the page teaches them (specials: the masks, one forward pass)."""
    if not specials:
        source, target = words(source), None if target is None else words(target)
    if target is None:
        return t("sheet.for", L, source=visible(source))
    return t("sheet.for_pair", L, source=visible(source), target=visible(target))


def caption(*parts) -> str:
    """A chart's caption from its parts (what it shows, kind, layer, head, step, the sentence), empty ones left out."""
    return " · ".join(str(p) for p in parts if p not in (None, ""))


def set_sheet_link(link: str) -> None:
    """At the end of a page's run: the link to the view the page settled on."""
    _sheet().link = link


def _number(v: float) -> str:
    return "" if v != v else f"{v:.6g}"  # NaN (a gap in the chart, e.g. a masked score) is an empty cell


def matrix_csv(values, row_tokens, col_tokens, corner: str = "") -> str:
    """A matrix as CSV: a header row of column tokens, then one row per row token (gaps left empty)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([spreadsheet(corner), *(spreadsheet(c) for c in col_tokens)])
    array = np.asarray(values, dtype=float)  # (rows, cols)
    for token, row in zip(row_tokens, array.reshape(len(row_tokens), -1)):
        writer.writerow([spreadsheet(token), *(_number(v) for v in row.tolist())])
    return out.getvalue()


def _labels(fig: go.Figure, axis_ref: str, values) -> list[str]:
    """The tick labels of an axis (the tokens of a token heatmap, unescaped), else the coordinates themselves."""
    axis = fig.layout[("xaxis" if axis_ref.startswith("x") else "yaxis") + axis_ref[1:]]
    ticks = list(axis.ticktext) if axis.ticktext is not None else None
    if ticks and axis.tickvals is not None and len(ticks) == len(values):
        return [html.unescape(str(tick)) for tick in ticks]
    return [str(v) for v in values]


def _matrix_traces(fig: go.Figure) -> list[go.Heatmap]:
    return [
        trace
        for trace in fig.data
        if isinstance(trace, go.Heatmap) and trace.z is not None and trace.meta not in ("overlay", CELL_TEXT)
    ]


def figure_csv(fig: go.Figure) -> str | None:
    """Every matrix a figure shows (its heatmaps, not the overlays drawn on them nor the copies that write a heatmap's
    white numbers), as CSV blocks with their tokens; None when it shows no matrix."""
    blocks = []
    for trace in _matrix_traces(fig):
        z = np.array(trace.z, dtype=float)  # (rows, cols), None → nan
        if z.ndim != 2:
            continue
        x = trace.x if trace.x is not None else range(z.shape[1])
        y = trace.y if trace.y is not None else range(z.shape[0])
        rows, cols = _labels(fig, trace.yaxis or "y", y), _labels(fig, trace.xaxis or "x", x)
        blocks.append(matrix_csv(z, rows, cols, corner=trace.name or ""))
    return "\n".join(blocks) if blocks else None


def maps_json(src_tokens: list[str], dec_tokens: list[str], maps) -> str:
    """Every attention map of one sentence as JSON: the tokens, then per kind [layer][head][query][key] weights."""
    data = {  # (1, H, Lq, Lk) each
        f"{kind.name}_attns": [layer[0].tolist() for layer in maps.of(kind)] for kind in ATTENTION_KINDS.values()
    }
    return json.dumps({"src_tokens": src_tokens, "dec_tokens": dec_tokens, **data}, ensure_ascii=False)


def chart(
    fig: go.Figure,
    key: str,
    name: str,
    caption: str,
    matrix: tuple | None = None,
    **plotly_chart_kwargs,
):
    """st.plotly_chart with the mode bar's image download saving `name`.png or .svg (the tab's choice), a CSV download
    of the matrices it shows (or of `matrix` = (values, row tokens, column tokens)), and the chart kept for the lesson
    sheet under `caption` (plain text: what it shows, and for which sentence, layer, head, step …)."""
    image_format = st.session_state.get("chart_format", "png")
    config = {
        "displaylogo": False,
        "toImageButtonOptions": {"format": image_format, "filename": name, "scale": IMAGE_SCALE},
        **plotly_chart_kwargs.pop("config", {}),
    }
    if plotly_chart_kwargs.get("on_select", "ignore") != "ignore":  # clicks select here: no zoom or pan tools
        config.setdefault("modeBarButtons", [["toImage"]])
    shown = presenter_figure(fig) if presenting() else fig  # larger fonts for a projector; the sheet keeps fig
    if one_chart_on() and not shown.layout.width:  # a chart on a screen of its own (a copy): as tall as the screen
        shown.layout.height = max(shown.layout.height or 0, SLIDE_PX)
    with slide(key, caption, lang()):  # in the one-chart mode, a container of its own under its title
        event = st.plotly_chart(shown, key=key, config=config, **plotly_chart_kwargs)
        _sheet().add(Chart(caption, fig))
        if matrix is not None or _matrix_traces(fig):  # the CSV is written when asked for, not on every run
            st.download_button(
                t("export.csv", lang()),
                data=(lambda: matrix_csv(*matrix)) if matrix is not None else (lambda: figure_csv(fig) or ""),
                file_name=f"{name}.csv",
                mime="text/csv",
                key=f"csv_{key}",
                on_click="ignore",
                icon=":material/download:",
                type="tertiary",
            )
    return event


def vega_chart(spec: dict, key: str, caption: str, sheet_figure: Callable[[], go.Figure]) -> None:
    """st.vega_lite_chart of a Vega-Lite spec (drawn by Streamlit's own chart library, whose module loads in a fraction
    of plotly.js's time: for a page that must draw at once, the first page), described to screen readers by `caption`,
    and for the lesson sheet, under `caption`, the same chart as the plotly figure sheet_figure() builds when the sheet
    is made."""
    with slide(key, caption, lang()):  # in the one-chart mode, a container of its own under its title
        st.vega_lite_chart(spec=spec, key=key, width="stretch", alt=caption)
    _sheet().add(Chart(caption, sheet_figure))


def lesson_sheet_button(summary: list[str]) -> None:
    """A download of the current page's lesson sheet (built when clicked, from the page's latest run)."""
    L = lang()
    sheet = _sheet()
    st.download_button(
        t("export.sheet", L),
        data=lambda: lesson_sheet_html(sheet, summary, L),
        file_name=file_name("lesson", sheet.page or "page", time.strftime("%Y-%m-%d")) + ".html",
        mime="text/html",
        key="lesson_sheet",
        on_click="ignore",  # no rerun, which would empty the sheet while it is being built
        icon=":material/description:",
        width="stretch",
    )
