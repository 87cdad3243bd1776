"""Gold links from a loaded file's alignment column on the Attention page (issue 30 §4 and §6): a teacher's
hand-aligned pairs, none of them the corpus's, get the AER grid and the gold drawn over the map; each bad cell is one
line naming the file's line, and its pair is kept without gold."""

from __future__ import annotations

import numpy as np

from tests.apptest_helpers import chart_spec, open_app, shown, texts
from transformer.alignment import parse_links
from transformer.errors import DataError
from ui.data_columns import load_file
from ui.gold import FileGold, problem_line, problem_lines
from ui.strings import STRINGS

ATTN = "pages/attention.py"
FILE = (
    "source\ttarget\talignment\n"
    "谢谢你\tThank you .\t0-0 1-0 2-1\n"  # 谢谢 → Thank, 你 → you; the full stop unaligned
    "我很好\tI am fine .\t0-0 1?1 2-2\n"
    "他很好\tHe is fine .\t0-0 9-1\n"  # line 4: 9 is past the 3 source tokens
    "她很好\tShe is fine .\t0:0\n"  # line 5: not i-j
).encode()


def test_a_files_alignment_column_is_the_gold_of_the_page_and_its_bad_cells_are_named():
    loaded = load_file(FILE, "mine.tsv")
    at = open_app(page=ATTN, pairs=loaded.taken.pairs, pairs_file=loaded, attn_layer=1, attn_head=2)
    assert not at.exception
    z = np.array(chart_spec(at, "attn_aer_grid")["data"][0]["z"], dtype=float)  # scored on the file's 2 good rows
    assert z.shape == (2, 5) and np.isfinite(z).all()
    (sure,) = [tr for tr in chart_spec(at, "click_attn_chart")["data"] if tr.get("name") == "gold link (sure)"]
    assert sure["meta"]["links"] == [[0, 0], [1, 0], [2, 1]]  # (source i, target j): row j predicts target word j
    assert STRINGS["gold.from_file"]["en"].format(name="mine.tsv", n=2, total=4) in texts(at, "caption")
    warnings = texts(at, "warning")
    assert any(w.startswith("mine.tsv, line 4: the alignment link 9-1 names source token 9") for w in warnings)
    assert any(w.startswith("mine.tsv, line 5: the alignment link 0:0 is not in i-j") for w in warnings)


def test_an_index_of_thousands_of_digits_is_a_warning_naming_its_line_and_the_page_draws():
    data = FILE + ("你好\tHello .\t0-" + "9" * 5_000 + "\n").encode()  # line 6
    loaded = load_file(data, "mine.tsv")
    at = open_app(page=ATTN, pairs=loaded.taken.pairs, pairs_file=loaded, attn_layer=1, attn_head=2)
    assert not at.exception
    (line,) = [w for w in texts(at, "warning") if w.startswith("mine.tsv, line 6:")]
    assert "names target token 99999999999…" in line and len(line) < 400
    assert chart_spec(at, "attn_aer_grid")["data"][0]["z"]  # the file's good rows are still scored


def test_a_bad_cell_is_worded_in_each_language_and_past_five_they_are_counted():
    try:
        parse_links("0-0 1-7", 2, 3, row=1)
    except DataError as exc:
        outside = exc
    zh = shown(problem_line("我的.tsv", 12, outside, "zh"))  # as a reader sees it
    assert zh.startswith("我的.tsv 第 12 行：对齐连线 1-7 指向目标句词元 7，但目标句只有 3 个词元（编号 0 到 2）")
    found = FileGold("a.tsv", {}, 9, [(n, outside) for n in range(2, 9)])
    lines = problem_lines(found, "en")
    assert len(lines) == 6 and lines[-1] == STRINGS["gold.more_problems"]["en"].format(n=2)
