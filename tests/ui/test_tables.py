"""A results table (ui.tables.results_frame): the verdicts first, and a runaway output cut with "…" so that the
table fits the page instead of pushing ✓/✗ and "held out" out of sight."""

from __future__ import annotations

import pandas as pd

from ui.export import GRID_TEXT_PX, column_px
from ui.tables import CUT, RESULTS_PX, cut_text, results_frame
from viz.common import text_px

COLUMNS = ["source", "reference", "greedy translation", "✓/✗", "part"]


def frame(*outputs: str) -> pd.DataFrame:
    rows = [("我 喜 欢 你", "I love you .", out, "✗", "held out") for out in outputs]
    return pd.DataFrame(rows, columns=COLUMNS)


def test_runaway_outputs_are_cut_and_the_table_fits_with_its_verdicts_first():
    runaway = "at " * 60, "Se" + "e" * 300, "长" * 120
    shown, cut = results_frame(frame("I love you .", *runaway), ["✓/✗", "part"])
    assert list(shown.columns) == ["✓/✗", "part", "source", "reference", "greedy translation"]
    assert cut == [1, 2, 3]  # the rows whose text was cut, by position
    outputs = list(shown["greedy translation"])
    assert outputs[0] == "I love you ."  # a short text stays whole
    for short, whole in zip(outputs[1:], runaway):
        assert short.endswith(CUT) and whole.startswith(short[:-1].rstrip()) and len(short) < 40
    widths = [column_px([str(c), *map(str, shown[c])]) for c in shown.columns]
    assert sum(widths) <= RESULTS_PX + 5, widths  # every column together: no sideways scrolling


def test_a_text_is_cut_to_the_longest_start_that_fits():
    assert cut_text("short", 200) == "short"
    cut = cut_text("abcdefghij" * 10, 80)
    assert cut.endswith(CUT) and text_px(cut, GRID_TEXT_PX) <= 80
    assert text_px(cut_text("abcdefghij" * 10, 80 + 20), GRID_TEXT_PX) > text_px(cut, GRID_TEXT_PX)  # the longest
    assert cut_text("", 10) == ""
