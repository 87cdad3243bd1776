"""Pairs files of many columns: roles from a header or the cells, the Tatoeba format, rows left out, the credit."""

from __future__ import annotations

from pathlib import Path

import pytest

from transformer.columns import (
    assign,
    check_roles,
    credit,
    infer_roles,
    read_file,
    swap,
    take_pairs,
    with_columns,
)
from transformer.data import parse_pairs, summarize_pairs, tokenize
from transformer.errors import DataError

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "everyday_cmn_eng.txt"


def _taken(text: str, roles=None):
    found = read_file(text, "pairs.tsv")
    return take_pairs(found, roles or infer_roles(found))


def test_the_everyday_fixture_is_recognised_as_tatoeba_and_read_chinese_to_english():
    found = read_file(FIXTURE.read_bytes(), FIXTURE.name)
    assert found.kind == "tatoeba" and found.columns == 3 and len(found.rows) >= 150
    roles = infer_roles(found)
    assert roles == ("target", "source", "attribution")
    taken = take_pairs(found, roles)
    assert taken.pairs[0] == ("你好。", "Hi.") and taken.languages == ("zh", "en")
    assert not taken.skipped and taken.duplicates == 0
    assert taken.extra["attribution"][0].startswith("CC-BY 2.0 (France) Attribution: example.org #")
    # the pairs are natural sentences, not the grammar's: most are not in its vocabulary
    assert summarize_pairs(taken.pairs).errors == []
    assert parse_pairs(FIXTURE.read_bytes()) == taken.pairs  # every reader takes the same direction


def test_traditional_and_simplified_characters_are_both_read_as_chinese():
    taken = _taken("Thank you.\t非常感謝。\tCC-BY 2.0 x #123\nThank you.\t非常感谢。\tCC-BY 2.0 x #124\n")
    assert taken.pairs == [("非常感謝。", "Thank you."), ("非常感谢。", "Thank you.")]
    assert tokenize("感謝") == ["感", "謝"] and not taken.skipped
    assert summarize_pairs(taken.pairs).errors == []


def test_rows_with_swapped_columns_are_left_out_by_line_in_chinese_english_data():
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()[:20]
    en, zh, attribution = lines[4].split("\t")
    lines[4] = f"{zh}\t{en}\t{attribution}"  # line 5: Chinese in the English column
    lines[9] = "\t".join([lines[9].split("\t")[0], "", lines[9].split("\t")[2]])  # line 10: no Chinese
    lines.append(lines[2])  # line 21: a repeat of line 3
    taken = _taken("\n".join(lines) + "\n")
    assert taken.lines_of("swapped") == [5] and taken.lines_of("empty") == [10]
    assert taken.duplicates == 1 and len(taken.pairs) == 19 and 5 not in taken.lines


def test_pairs_of_other_languages_have_no_swap_check():
    taken = _taken("Bonjour.\tHello.\nHello.\tBonjour.\n")
    assert taken.pairs == [("Bonjour.", "Hello."), ("Hello.", "Bonjour.")] and not taken.skipped


def test_rows_with_an_empty_chosen_column_are_reported_and_the_rest_kept():
    taken = _taken("我\tI\n你\n\t他\n她\tshe\n")
    assert taken.pairs == [("我", "I"), ("她", "she")] and taken.lines_of("empty") == [2, 3]
    with pytest.raises(DataError, match="pairs, line 2: its source or target is missing"):
        parse_pairs("我\tI\n你\n")


@pytest.mark.parametrize(
    ("text", "roles"),
    [
        ("source\ttarget\tphenomena\n猫\tcat\tnegation\n", ("source", "target", "phenomena")),
        ("target\tattribution\tsource\ncat\tx\t猫\n", ("target", "attribution", "source")),
        ("english\tchinese\n猫\tcat\n", ("source", "target")),
        ("源\t目标\t对齐\t忽略\n猫\tcat\t0-0\tz\n", ("source", "target", "alignment", "ignored")),
        (
            "猫\tcat\t0-0 1?1\tCC-BY 2.0 #12\tnegation\t注\n",
            ("source", "target", "alignment", "attribution", "phenomena", "ignored"),
        ),
    ],
    ids=["header", "header-any-order", "language-header", "chinese-header", "inferred"],
)
def test_roles_are_read_from_a_header_or_inferred_from_the_cells(text, roles):
    found = read_file(text)
    assert infer_roles(found) == roles
    taken = take_pairs(found, roles)
    assert taken.pairs == [("猫", "cat")]


def test_an_alignment_column_is_carried_as_text():
    taken = _taken("我 爱 你\tI love you\t0-0 1-1 2?2\n")
    assert taken.extra["alignment"] == ["0-0 1-1 2?2"]


def test_a_third_column_that_is_neither_tags_nor_attribution_is_ignored_not_read_as_phenomena():
    taken = _taken("猫\tcat\tun chat\n")
    assert "phenomena" not in taken.extra and taken.tags == [()]


def test_assigning_roles_swaps_source_and_target_and_keeps_one_of_each():
    roles = ("source", "target", "attribution", "ignored")
    assert swap(roles) == ("target", "source", "attribution", "ignored")
    assert assign(roles, 3, "source") == ("ignored", "target", "attribution", "source")
    assert assign(roles, 3, "attribution") == ("source", "target", "ignored", "attribution")
    assert assign(roles, 0, "ignored") == roles  # the source cannot be left without a column
    assert with_columns(roles, 2, 1) == swap(roles)
    check_roles(assign(roles, 3, "phenomena"), 4)


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        ((1, 5), "--columns 1,5: pairs.tsv has 4 columns, so choose two different columns from 1 to 4."),
        ((0, 2), "--columns 0,2: pairs.tsv has 4 columns"),
        ((2, 2), "--columns 2,2: the source and the target must be two different columns."),
    ],
)
def test_columns_out_of_range_or_twice_are_one_clear_error(columns, message):
    with pytest.raises(DataError) as info:
        with_columns(("source", "target", "ignored", "ignored"), *columns, name="pairs.tsv")
    assert str(info.value).startswith(message)


def test_the_credit_names_each_attribution_once_with_its_pairs():
    taken = _taken(FIXTURE.read_bytes().decode())
    line = credit(taken.extra["attribution"])
    assert line == f"CC-BY 2.0 (France) Attribution: example.org ({len(taken.pairs):,} pairs)"
    assert credit([]) == "" and len(credit([f"site {i} #1" for i in range(1000)])) < 300
