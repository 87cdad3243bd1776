"""Exports: every chart downloads from its mode bar as PNG or SVG under a name that says what it shows, every matrix
as CSV with its row and column tokens, and a page's charts with the model's summary as one self-contained HTML lesson
sheet (plotly embedded, no network needed to open it)."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import time
from dataclasses import dataclass, field

import numpy as np
import plotly.graph_objects as go
import plotly.io
import plotly.offline
import streamlit as st

from transformer.text import spreadsheet

from .i18n import t
from .state import lang

IMAGE_FORMATS = ("png", "svg")
IMAGE_SCALE = 2  # PNGs at twice the screen resolution: sharp on slides


def file_name(*parts) -> str:
    """A file name from what a download shows, e.g. ("attention", "dec_enc", "layer 2") → attention-dec_enc-layer-2."""
    text = "-".join(str(p) for p in parts if p not in (None, ""))
    return re.sub(r"[^\w.-]+", "-", text, flags=re.UNICODE).strip("-")[:120] or "chart"


@dataclass
class LessonSheet:
    """The charts the page drew in its latest run, in order, and the link to that view (kept per tab)."""

    page: str = ""
    title: str = ""
    link: str = ""
    charts: list[tuple[str, go.Figure]] = field(default_factory=list)  # (caption, figure): made into HTML on download


def _sheet() -> LessonSheet:
    return st.session_state.setdefault("_lesson_sheet", LessonSheet())


def start_page(page: str, title: str, link: str) -> None:
    """At the top of a page: this run's charts (and the link to this view) replace the previous run's."""
    sheet = _sheet()
    sheet.page, sheet.title, sheet.link, sheet.charts = page, title, link, []


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


def figure_csv(fig: go.Figure) -> str | None:
    """Every matrix a figure shows (its heatmaps, not the overlays drawn on them), as CSV blocks with their tokens;
    None when it shows no matrix."""
    blocks = []
    for trace in fig.data:
        if not isinstance(trace, go.Heatmap) or trace.z is None or trace.meta == "overlay":
            continue
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
    kinds = ("enc_self_attns", "dec_self_attns", "dec_enc_attns")
    data = {kind: [layer[0].tolist() for layer in getattr(maps, kind)] for kind in kinds}  # (1, H, Lq, Lk) each
    return json.dumps({"src_tokens": src_tokens, "dec_tokens": dec_tokens, **data}, ensure_ascii=False)


def chart(
    fig: go.Figure,
    key: str,
    name: str,
    caption: str = "",
    matrix: tuple | None = None,
    **plotly_chart_kwargs,
):
    """st.plotly_chart with the mode bar's image download saving `name`.png or .svg (the tab's choice), a CSV download
    of the matrices it shows (or of `matrix` = (values, row tokens, column tokens)), and the chart kept for the lesson
    sheet."""
    image_format = st.session_state.get("chart_format", "png")
    config = {
        "displaylogo": False,
        "toImageButtonOptions": {"format": image_format, "filename": name, "scale": IMAGE_SCALE},
        **plotly_chart_kwargs.pop("config", {}),
    }
    if plotly_chart_kwargs.get("on_select", "ignore") != "ignore":  # clicks select here: no zoom or pan tools
        config.setdefault("modeBarButtons", [["toImage"]])
    event = st.plotly_chart(fig, key=key, config=config, **plotly_chart_kwargs)
    _sheet().charts.append((caption or fig.layout.title.text or name, fig))
    table = matrix_csv(*matrix) if matrix is not None else figure_csv(fig)
    if table is not None:
        st.download_button(
            t("export.csv", lang()),
            data=table,
            file_name=f"{name}.csv",
            mime="text/csv",
            key=f"csv_{key}",
            on_click="ignore",
            icon=":material/download:",
            type="tertiary",
        )
    return event


def lesson_sheet_html(sheet: LessonSheet, summary: list[str], L: str) -> str:
    """One self-contained HTML file: the page's title, the model's summary, the link to the view, every chart."""
    charts = "\n".join(
        f"<section><h2>{html.escape(caption)}</h2>"
        + plotly.io.to_html(fig, include_plotlyjs=False, full_html=False)
        + "</section>"
        for caption, fig in sheet.charts
    )
    items = "".join(f"<li>{html.escape(line)}</li>" for line in summary)
    return f"""<!DOCTYPE html>
<html lang="{"zh" if L == "zh" else "en"}"><head><meta charset="utf-8">
<title>{html.escape(sheet.title)}</title>
<script>{plotly.offline.get_plotlyjs()}</script>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}}section{{margin:2em 0}}</style>
</head><body>
<h1>{html.escape(sheet.title)}</h1>
<p>{html.escape(t("export.sheet_made", L, date=time.strftime("%Y-%m-%d")))}</p>
<h2>{html.escape(t("sidebar.model", L))}</h2><ul>{items}</ul>
<p>{html.escape(t("export.sheet_link", L))} <code>{html.escape(sheet.link)}</code></p>
{charts}
</body></html>
"""


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
