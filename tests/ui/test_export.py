"""Exports: CSV of every matrix with its tokens, the attention maps and the trace as JSON, the lesson sheet as one
self-contained HTML file (more in test_sheet.py), and file names that say what they hold (issue 13.2). The browser
side (the mode bar's PNG and SVG, opening the lesson sheet offline) is in tests/e2e/test_e2e_teacher.py."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import plotly.offline

from transformer import TrainConfig, Translator, train
from transformer.data import format_pairs
from transformer.trace import trace_sentence
from ui import packing
from ui.export import (
    MAX_COLUMN_PX,
    LessonSheet,
    column_px,
    figure_csv,
    file_name,
    lesson_sheet_html,
    maps_json,
    matrix_csv,
)
from ui.sheet import Chart
from viz.attention import attention_figure, attention_grid_figure
from viz.masks import mask_effect_figures

PAIRS = [("我 喜 欢 你", "I love you ."), ("你 好", "hello .")]


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_a_heatmaps_csv_has_its_tokens_and_values_repeats_kept():
    attn = np.array([[0.5, 0.25, 0.25], [0.1, 0.8, 0.1]])
    fig = attention_figure(attn, ["S → I", "I → <unk>"], ["我", "你", "我"], value_label="weight")
    rows = _rows(figure_csv(fig))
    assert rows[0] == ["weight", "我", "你", "我"]  # the column tokens, the repeated 我 kept apart
    assert rows[1] == ["S → I", "0.5", "0.25", "0.25"]
    assert rows[2][0] == "I → <unk>"  # plotly's escaping undone: the token as the vocabulary has it


def test_every_head_of_a_grid_is_a_block_and_masked_scores_are_gaps():
    attn = np.full((2, 2, 2), 0.5)
    blocks = figure_csv(attention_grid_figure(attn, ["a", "b"], ["c", "d"])).split("\n\n")
    assert [b.splitlines()[0].split(",")[0] for b in blocks] == ["head 1", "head 2"]
    scores = np.array([[1.0, 2.0], [3.0, 4.0]])
    mask = np.array([[False, True], [False, False]])
    masked = mask_effect_figures(scores, mask, np.zeros((2, 2)), ["a", "b"], ["c", "d"])[1]  # the Masks page's
    rows = _rows(figure_csv(masked))
    assert rows == [["score", "c", "d"], ["a", "1", ""], ["b", "3", "4"]]  # the blocked cell is a gap; no overlay block


def test_a_token_that_looks_like_a_formula_stays_text_in_a_spreadsheet():
    text = matrix_csv([[1.0]], ['=HYPERLINK("http://x")'], ["+1", "@me"][:1])
    rows = _rows(text)
    assert rows[0][1] == "'+1" and rows[1][0] == '\'=HYPERLINK("http://x")'


def test_the_pairs_file_keeps_formulas_as_text_in_a_spreadsheet_as_the_matrix_csvs_do():
    cells = ['=HYPERLINK("http://x")', "+1", "-1", "@me", "'=x", "'Tis", "I love you ."]
    lines = format_pairs([(cell, cell) for cell in cells]).splitlines()[1:]
    written = [line.split("\t")[0].strip('"').replace('""', '"') for line in lines]
    assert written == ['\'=HYPERLINK("http://x")', "'+1", "'-1", "'@me", "''=x", "'Tis", "I love you ."]
    matrix = list(csv.reader(io.StringIO(matrix_csv([[0.0]] * len(cells), cells, ["x"]))))
    assert [row[0] for row in matrix[1:]] == written  # one helper for every file a spreadsheet may open


def test_file_names_say_what_they_hold_and_stay_file_names():
    assert file_name("attention", "dec_enc", "layer-2", "head-1") == "attention-dec_enc-layer-2-head-1"
    assert file_name("trace", "我 喜 欢 你/../x", "") == "trace-我-喜-欢-你-..-x"
    assert "/" not in file_name("a/b\\c:d") and file_name() == "chart"


def _trained() -> Translator:
    translator = Translator.create(PAIRS, d_model=8, n_heads=2, d_ff=16, n_layers=2)
    for _ in train(translator, PAIRS, TrainConfig(epochs=2)):
        pass
    return translator


def test_the_attention_maps_and_the_trace_download_as_json():
    translator = _trained()
    view = translator.inspect("我 喜 欢 你", "I love you .")
    data = json.loads(maps_json(view.src_tokens, view.dec_tokens, view.maps))
    assert data["src_tokens"] == ["我", "喜", "欢", "你"] and data["dec_tokens"][0] == "S"
    assert np.array(data["dec_enc_attns"]).shape == (2, 2, 5, 4)  # [layer][head][query][key]
    assert np.allclose(np.array(data["enc_self_attns"]).sum(-1), 1, atol=1e-5)
    trace = trace_sentence(translator, "我 喜 欢 你", "I love you .")
    steps = json.loads(trace.to_json())["steps"]
    assert {"name", "where", "shape", "axes", "code", "values"} <= set(steps[0])
    assert steps[-1]["name"] == "loss" and len(steps) == len(trace.steps)


def test_the_lesson_sheet_is_one_file_with_plotly_the_summary_and_every_chart():
    fig = attention_figure(np.eye(2), ["<b>a</b>", "b"], ["c", "d"], title="layer 1 · head 1")
    sheet = LessonSheet()
    sheet.start("attention", "Attention <script>", "http://localhost/attention?layer=0")
    sheet.add(Chart("encoder–decoder attention", fig))
    page = lesson_sheet_html(sheet, ["From: uploaded (x.safetensors)", "Parameters: 1,234"], "zh")
    assert page.startswith("<!DOCTYPE html>") and '<html lang="zh" data-charts="drawing">' in page
    assert "<script src" not in page and page.count('class="figure-data"') == 1  # the library itself is inside
    (library,) = packing.read(page, 'id="plotly-js"')  # what the sheet's loader runs
    assert library.startswith(b"/**\n* plotly.js v") and library == plotly.offline.get_plotlyjs().encode()
    assert "<title>Attention &lt;script&gt;</title>" in page and "<h1>Attention &lt;script&gt;</h1>" in page
    assert "Parameters: 1,234" in page and "http://localhost/attention?layer=0" in page
    assert "模型" in page  # in the UI language


def test_a_tables_column_is_as_wide_as_its_longest_text_in_the_grids_font_and_its_padding():
    # measured in Chromium with st.dataframe's font (14 px Source Sans) and padding (8 px a side): these need 198, 105
    # and 203 px, and st.dataframe's own sizing gave them 156, 80 and 200 (tests/e2e/test_e2e_clipping.py)
    measured = {"他的朋友明天会看见她的狗吗": 198, "unknown word": 105, "The cat and the dog are friends .": 203}
    for text, need in measured.items():
        assert column_px(["id", text]) >= need
    assert column_px(["special"]) < column_px(["special", "unknown word"])  # the label counts, and the longest text
    assert column_px(["x" * 500]) == MAX_COLUMN_PX and column_px([]) > 0
