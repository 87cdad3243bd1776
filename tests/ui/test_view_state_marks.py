"""Hand marks as link text (ui.view_state's "marks" kind): source-first links i-j, read back as (decoder row, source
column) cells; no marks give no parameter, so a link made before marks had one is the same link."""

from __future__ import annotations

import pytest

from ui.view_state import link_text, link_value


def test_marks_are_written_source_first_and_read_back_as_cells():
    cells = [(2, 0), (0, 1), (1, 1)]  # (decoder row, source column)
    assert link_text(cells, "marks") == "0-2,1-0,1-1"
    assert link_value("0-2,1-0,1-1", "marks") == [(2, 0), (0, 1), (1, 1)]
    assert link_text([], "marks") is None  # no parameter: the link made before marks had one


@pytest.mark.parametrize("text", ["0-0,x", "0:1", "-1-0", "0-0-0", "1?2", " 1-2"])
def test_a_mark_not_in_i_j_notation_refuses_the_parameter(text):
    with pytest.raises(ValueError):
        link_value(text, "marks")
