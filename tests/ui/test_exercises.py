"""The lesson sheet's exercises (ui/exercises.py) and what the sheet says around its figures (issue 32 §1): every
answer is read off the numbers the figure draws, a question with two answers at the stated precision is not asked,
captions name the sentence without P, S and E, and a published model is named by its published name."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from transformer.store import Entry
from transformer.summary import EpochRecord
from ui.exercises import MAX_QUESTIONS, MIN_QUESTIONS, SHEET_QUESTIONS, exercises, figure_exercises, number
from ui.export import for_sentence
from viz.attention import attention_figure
from viz.masks import mask_effect_figures, mask_figure
from viz.training import loss_accuracy_figure

ROWS, COLS = ["S → I", "I → love", "love → E"], ["我", "爱", "E"]


def _attention(z) -> go.Figure:
    return attention_figure(np.array(z, dtype=float), ROWS, COLS, title="layer 2 · head 1")


def test_a_maps_questions_ask_a_printed_value_which_column_and_why_its_row_adds_up_to_1():
    fig = _attention([[0.5, 0.3, 0.2], [0.1, 0.83, 0.07], [0.3, 0.3, 0.4]])
    first, second, why = figure_exercises(3, fig, "en")
    assert first.question == "Figure 3: in the row “I → love”, which column holds the largest value, and what is it?"
    assert (first.answer, first.kind) == ("“爱”: 0.83", "read")  # the most peaked row first
    assert second.question == "Figure 3: in the row “S → I”, which column holds the largest value?"
    assert (second.answer, second.kind) == ("“我”: 0.50", "find")
    assert why.question == "Figure 3: why do the numbers in the row “I → love” add up to 1?" and why.kind == "why"
    assert "(0.10 + 0.83 + 0.07 = 1.00, to rounding)" in why.answer  # the row as its cells print it
    zh = figure_exercises(3, fig, "zh")
    assert zh[0].question == "图 3：在“I → love”这一行中，哪一列的数值最大？是多少？" and zh[0].answer == "“爱”：0.83"
    assert zh[2].question == "图 3：为什么“I → love”这一行的数加起来等于 1？"


def test_a_map_whose_rows_do_not_add_up_to_1_asks_no_why_and_a_map_without_numbers_asks_no_value():
    scores = _attention([[1.5, 0.3, 0.2], [0.1, 2.83, 0.07], [0.3, 0.3, 0.4]])  # scores, not weights
    assert [q.kind for q in figure_exercises(1, scores, "en")] == ["read", "find"]
    unprinted = go.Figure(go.Heatmap(z=[[0.2, 0.59, 0.21], [0.1, 0.3, 0.6]], x=COLS, y=ROWS[:2]))  # a thumbnail
    questions = figure_exercises(1, unprinted, "en")
    assert [q.kind for q in questions] == ["find", "find"]
    assert all("what is it" not in q.question and "darkest" in q.question for q in questions)
    assert questions[0].answer.endswith("0.60")  # the key still gives it


def test_a_row_whose_two_largest_cells_read_alike_or_that_is_only_special_tokens_asks_nothing():
    fig = _attention([[0.1, 0.1, 0.8], [0.451, 0.449, 0.1], [0.2, 0.3, 0.5]])
    rows = [q.question for q in figure_exercises(1, fig, "en") if q.kind != "why"]
    assert len(rows) == 2 and not any("I → love" in q for q in rows)  # 0.45 and 0.45: two answers
    only_specials = attention_figure(np.array([[0.1, 0.9]]), ["S"], ["我", "E"])
    assert figure_exercises(1, only_specials, "en") == []


def test_a_mask_question_asks_which_cells_a_row_blocks_and_why():
    look_ahead = np.triu(np.ones((4, 4), dtype=bool), k=1)  # True = blocked
    tokens = ["S", "I", "love", "you"]
    marked, why = figure_exercises(2, mask_figure(look_ahead, tokens, tokens), "en")
    assert marked.question == "Figure 2: in the row “I”, which columns are marked “blocked”?"  # S is left out
    assert marked.answer == "“love”, “you”"
    assert why.question == "Figure 2: why are the cells after the diagonal blocked in the row “I”?"
    assert why.answer.startswith("They are the words after it (“love”, “you”)")
    zh, zh_why = figure_exercises(2, mask_figure(look_ahead, tokens, tokens, blocked_label="屏蔽"), "zh")
    assert zh.answer == "“love”、“you”" and zh_why.answer.startswith("它们是后面的词（“love”、“you”）")
    padding = np.zeros((3, 3), dtype=bool)
    padding[:, 2] = True  # the key P blocked in every row
    src = ["我", "你", "P"]
    _, pad_why = figure_exercises(1, mask_figure(padding, src, src), "en")
    assert pad_why.question == "Figure 1: why is the column “P” blocked in the row “我”?"
    assert pad_why.answer.startswith("P is padding")
    odd = np.zeros((3, 3), dtype=bool)
    odd[1, 0] = True  # neither padding nor look-ahead: no why
    assert [q.kind for q in figure_exercises(1, mask_figure(odd, src, src), "en")] == ["mask"]
    masked = mask_effect_figures(np.arange(16.0).reshape(4, 4), look_ahead, np.eye(4), tokens, tokens)[1]
    assert any(e.answer == "“love”, “you”" for e in figure_exercises(1, masked, "en"))  # the −∞ overlay too
    assert figure_exercises(1, mask_figure(None, tokens, tokens), "en") == []  # nothing blocked: nothing to ask


def test_a_lines_question_asks_where_it_ends_up_and_why_the_loss_falls_or_the_held_out_loss_is_above():
    history = [EpochRecord(e, loss, acc, None) for e, loss, acc in [(1, 2.9, 0.4), (2, 0.8, 1.0), (3, 0.1, 1.0)]]
    questions = figure_exercises(1, loss_accuracy_figure(history), "en")
    loss, why = questions  # 100% twice: no single highest point of the accuracy, so it asks nothing
    assert loss.question == "Figure 1: at which epoch is the line “loss” lowest?" and loss.kind == "find"
    assert loss.answer == "epoch 3: 0.10"
    assert why.question == "Figure 1: why does the line “loss” fall?"
    assert why.answer.endswith("2.90 at epoch 1, 0.10 at epoch 3.")
    held = [EpochRecord(e, loss, 0.5, None, holdout_loss=h) for e, loss, h in [(1, 2.9, 3.0), (2, 0.8, 1.2)]]
    (*_, held_why) = figure_exercises(1, loss_accuracy_figure(held), "en")
    assert held_why.question == "Figure 1: why is the held-out loss above the training loss at epoch 2?"
    assert held_why.answer.endswith("(1.20 against 0.80).")
    below = [EpochRecord(e, loss, 0.5, None, holdout_loss=h) for e, loss, h in [(1, 2.9, 3.0), (2, 0.8, 0.7)]]
    whys = [q.question for q in figure_exercises(1, loss_accuracy_figure(below), "en") if q.kind == "why"]
    assert whys == ["Figure 1: why does the line “loss” fall?"]  # held-out below: that why is not asked


def test_a_small_value_keeps_two_significant_digits_and_never_reads_0():
    assert number(0.0044) == "0.0044" and number(0.0437) == "0.044" and number(0.5) == "0.50"
    assert number(0) == "0.00" and number(-0.00012) == "-0.00012" and number(916, whole=True) == "916"
    rate = go.Figure(go.Scatter(x=[10, 810, 1600], y=[0.0001, 0.0044, 0.0031], name="learning rate", mode="lines"))
    (peak,) = figure_exercises(1, rate, "en")
    assert peak.answer == "x 810: 0.0044"  # it was "0.00"


def test_the_best_head_is_the_one_with_the_lowest_error_rate_not_the_layer_average():
    from viz.alignment import aer_grid_figure

    aer = [[0.49, 0.52, 0.39, 0.46, 0.41], [0.38, 0.32, 0.33, 0.37, 0.28]]  # the averages (last column) lowest
    (best,) = figure_exercises(4, aer_grid_figure(aer), "en")
    assert best.question == "Figure 4: which head is best, with the lowest AER, and what is its AER?"
    assert (best.answer, best.kind) == ("layer 2 · head 2: 0.32", "best")  # not “largest error rate”, not an average
    (zh,) = figure_exercises(4, aer_grid_figure(aer, "层", "头", "平均", "对齐错误率"), "zh")
    assert (
        zh.question == "图 4：哪个头最好，即对齐错误率最低？它的对齐错误率是多少？" and zh.answer == "层 2 · 头 2：0.32"
    )
    assert figure_exercises(4, aer_grid_figure([[0.3, 0.3, 0.2]]), "en") == []  # two best heads: no one answer


def test_bars_ask_a_value_only_where_they_print_it():
    fig = go.Figure(go.Bar(x=["的", "在", "是"], y=[916, 247, 500]))
    most, least = figure_exercises(2, fig, "en")
    assert (most.answer, least.answer) == ("“的”: 916", "“在”: 247")
    assert most.question == "Figure 2: which bar is the longest?" and most.kind == "find"
    assert figure_exercises(2, go.Figure(go.Bar(x=["a", "b"], y=[3, 3])), "en") == []
    printed = go.Figure(go.Bar(x=["I", "me", "we"], y=[0.99, 0.0001, 0.00002], text=["0.990", "0.000", "0.000"]))
    (read,) = figure_exercises(1, printed, "en")  # the two smallest print alike: only the largest is asked
    assert read.question == "Figure 1: which bar has the largest value, and what is it?"
    assert read.answer == "“I”: 0.990"


def test_a_sheet_asks_a_why_first_and_questions_of_at_least_three_kinds_in_figure_order():
    same = _attention([[0.1, 0.2, 0.7], [0.1, 0.83, 0.07], [0.3, 0.3, 0.4]])
    bars = go.Figure(go.Bar(x=["a", "b"], y=[1, 5]))
    asked = exercises([(1, same), (2, bars), (3, same), (4, same)], "en")
    assert MIN_QUESTIONS <= len(asked) <= MAX_QUESTIONS
    assert {q.kind for q in asked} == {"read", "find", "why"} and [q.figure for q in asked] == sorted(
        q.figure for q in asked
    )
    assert not any(q.figure in (3, 4) for q in asked)  # figures 3 and 4 would repeat figure 1's answers
    many = exercises([(n, go.Figure(go.Bar(x=["a", "b"], y=[n, 9 + n]))) for n in range(1, 9)], "en")
    assert len(many) == SHEET_QUESTIONS and [q.figure for q in many] == [1, 2, 3, 4]  # each figure once first
    vocab = (
        "Vocabularies",
        ["id", "token", "special"],
        [["0", "P", "padding"], ["1", "S", "start"], ["2", "E", "end"]],
    )
    with_table = exercises([(1, bars)], "en", [vocab])
    assert [q.kind for q in with_table] == ["find", "find", "why"]
    assert with_table[-1].answer == (
        "They are the special tokens “P” (padding), “S” (start), “E” (end): the first ids are kept for them before any"
        " word, in every vocabulary (ids 0, 1, 2)."
    )
    assert exercises([(1, bars)], "zh", [vocab])[-1].answer.startswith("它们是特殊词元 “P”（padding）、“S”（start）")


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
