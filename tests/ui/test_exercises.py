"""The lesson sheet's exercises (ui/exercises.py) and what the sheet says around its figures (issue 32 §1): every
answer is read off the numbers the figure draws, a question with two answers at the stated precision is not asked,
captions name the sentence without P, S and E, and a published model is named by its published name."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from transformer.store import Entry
from transformer.summary import EpochRecord
from ui.exercises import MAX_QUESTIONS, exercises, figure_exercises
from ui.export import for_sentence
from viz.attention import attention_figure
from viz.masks import mask_effect_figures, mask_figure
from viz.training import loss_accuracy_figure

ROWS, COLS = ["S → I", "I → love", "love → E"], ["我", "爱", "E"]


def _attention(z) -> go.Figure:
    return attention_figure(np.array(z, dtype=float), ROWS, COLS, title="layer 2 · head 1")


def test_a_maps_question_names_a_row_and_its_answer_is_the_rows_largest_cell():
    fig = _attention([[0.5, 0.3, 0.2], [0.1, 0.83, 0.07], [0.3, 0.3, 0.4]])
    first, second = figure_exercises(3, fig, "en")
    assert first.question == "Figure 3: in the row “I → love”, which column holds the largest value, and what is it?"
    assert first.answer == "“爱”: 0.83" and second.answer == "“我”: 0.50"  # the most peaked rows first
    (zh, _) = figure_exercises(3, fig, "zh")
    assert zh.question == "图 3：在“I → love”这一行中，哪一列的数值最大？是多少？" and zh.answer == "“爱”：0.83"


def test_a_row_whose_two_largest_cells_read_alike_or_that_is_only_special_tokens_asks_nothing():
    fig = _attention([[0.1, 0.1, 0.8], [0.451, 0.449, 0.1], [0.2, 0.3, 0.5]])
    rows = [q.question for q in figure_exercises(1, fig, "en")]
    assert len(rows) == 2 and not any("I → love" in q for q in rows)  # 0.45 and 0.45: two answers
    only_specials = attention_figure(np.array([[0.1, 0.9]]), ["S"], ["我", "E"])
    assert figure_exercises(1, only_specials, "en") == []


def test_a_mask_question_asks_which_cells_a_row_blocks_in_the_row_that_blocks_most():
    look_ahead = np.triu(np.ones((4, 4), dtype=bool), k=1)  # True = blocked
    tokens = ["S", "I", "love", "you"]
    (q,) = figure_exercises(2, mask_figure(look_ahead, tokens, tokens), "en")
    assert q.question == "Figure 2: in the row “I”, which columns are marked “blocked”?"  # S is left out
    assert q.answer == "“love”, “you”"
    (zh,) = figure_exercises(2, mask_figure(look_ahead, tokens, tokens, blocked_label="屏蔽"), "zh")
    assert zh.answer == "“love”、“you”"
    masked = mask_effect_figures(np.arange(16.0).reshape(4, 4), look_ahead, np.eye(4), tokens, tokens)[1]
    assert any(e.answer == "“love”, “you”" for e in figure_exercises(1, masked, "en"))  # the −∞ overlay too
    assert figure_exercises(1, mask_figure(None, tokens, tokens), "en") == []  # nothing blocked: nothing to ask


def test_a_lines_question_follows_where_it_ends_up_and_a_tied_extreme_asks_for_its_last_point():
    history = [EpochRecord(e, loss, acc, None) for e, loss, acc in [(1, 2.9, 0.4), (2, 0.8, 1.0), (3, 0.1, 1.0)]]
    loss, accuracy = figure_exercises(1, loss_accuracy_figure(history), "en")
    assert loss.question == "Figure 1: where is the line “loss” lowest? Give its epoch and its value."
    assert loss.answer == "epoch 3: 0.10"
    assert "at its last point (epoch 3)" in accuracy.question  # 1.00 twice: no single highest point
    assert accuracy.answer == "100.0%"  # as the axis reads it
    wave = go.Figure(go.Scatter(x=[0.0, 0.5, 1.0], y=[0.1, 0.2, 0.9], name="dim 0 (sin)", mode="lines"))
    (last,) = figure_exercises(1, wave, "en")
    assert last.answer == "x 1: 0.90"  # a coordinate as the axis writes it, not 1.00


def test_a_bar_charts_questions_and_whole_counts_without_decimals():
    fig = go.Figure(go.Bar(x=["的", "在", "是"], y=[916, 247, 500]))
    most, least = figure_exercises(2, fig, "en")
    assert (most.answer, least.answer) == ("“的”: 916", "“在”: 247")
    assert figure_exercises(2, go.Figure(go.Bar(x=["a", "b"], y=[3, 3])), "en") == []


def test_a_sheet_asks_at_most_five_in_figure_order_one_per_figure_first_and_no_answer_twice():
    same = _attention([[0.1, 0.2, 0.7], [0.1, 0.83, 0.07], [0.3, 0.3, 0.4]])
    bars = go.Figure(go.Bar(x=["a", "b"], y=[1, 5]))
    asked = exercises([(1, same), (2, bars), (3, same), (4, same)], "en")
    assert [q.figure for q in asked] == [1, 1, 2, 2]  # figures 3 and 4 would repeat figure 1's answers
    many = exercises([(n, go.Figure(go.Bar(x=["a", "b"], y=[n, 9 + n]))) for n in range(1, 9)], "en")
    assert len(many) == MAX_QUESTIONS and [q.figure for q in many] == [1, 2, 3, 4, 5]


def test_captions_name_the_sentence_without_special_tokens_unless_the_page_teaches_them():
    assert for_sentence("en", "我 喜 欢 你 P", "S His cat will E") == "for “我 喜 欢 你” → “His cat will”"
    assert for_sentence("zh", "P 你 好") == "句子“你 好”"
    assert for_sentence("en", "我 P", "S I", specials=True) == "for “我 P” → “S I”"


def test_the_sheets_model_line_names_a_published_model_by_its_published_name():
    from transformer import Translator
    from ui.model_cache import CurrentModel
    from ui.share import model_summary

    model = CurrentModel(Translator.create([("你", "you")], d_model=8, n_heads=2, d_ff=8, n_layers=1), "trained")
    assert model_summary("en", model)[0] == "From: trained here"
    entry = Entry("ab12", 1, 0.0, published="2026-11-27T10:00:00Z", name="Lesson 5: word order")
    assert model_summary("en", model, entry)[0] == "From: published 2026-11-27, Lesson 5: word order"
    assert model_summary("zh", model, entry)[0].endswith("发布于 2026-11-27，Lesson 5: word order")


def test_a_drawing_asks_nothing_and_a_sheet_short_of_questions_asks_about_its_tables():
    tree = go.Figure(go.Scatter(x=[0, 1, 2], y=[0, 2, 1], name="best hypothesis", mode="lines"))
    tree.update_yaxes(visible=False)  # a beam tree's heights place its boxes: no value to read
    assert figure_exercises(1, tree, "en") == []
    columns = ["rank", "translation", "log-probability"]
    rows = [["1", "I love you .", "-0.0260"], ["2", "I like you .", "-3.9120"], ["3", "I love you", "-5.0000"]]
    (asked,) = exercises([(1, tree)], "en", [("The n best translations", columns, rows)])
    question = "which translation has the largest log-probability, and what is it?"  # never the rank: it numbers rows
    assert asked.question == f"In the table under “The n best translations”: {question}"
    assert (asked.figure, asked.answer) == (0, "“I love you .”: -0.0260")
    ties = [["1", "a", "-1.0"], ["2", "b", "-1.0"]]
    assert exercises([(1, tree)], "en", [("t", columns, ties)]) == []
