"""Fuzzing of what reads a user's pairs files, column choices, gold links and command-line arguments (tests/fuzz.py):
each input is accepted or refused with the project's own error, in well under a second, with a message of one line
that repeats the user's text only cut."""

from __future__ import annotations

import contextlib
import io

from hypothesis import example, given
from hypothesis import strategies as st

from tests.fuzz import digits, judged, tricky_text, user_text
from transformer.__main__ import _parser
from transformer.alignment import parse_links, read_gold
from transformer.cli.common import column_numbers
from transformer.cli.recipe_flags import recipe_settings
from transformer.columns import ROLES, assign, check_roles, credit, infer_roles, read_file, take_pairs, with_columns
from transformer.data import check_pairs, parse_aligned_pairs
from transformer.errors import DataError, TransformerError

# ---------------------------------------------------------------- pairs files (Data page upload, --pairs)

cell = st.one_of(tricky_text, st.sampled_from(["我 喜 欢 你", "I love you .", "0-0 1?2", "CC-BY 2.0 (France) #12"]))
rows = st.lists(st.lists(cell, max_size=12), max_size=30)


@st.composite
def pairs_files(draw) -> bytes:
    """A file of rows of cells: tab- or comma-separated, any line end, perhaps quoted, perhaps not UTF-8."""
    separator = draw(st.sampled_from(["\t", ",", ";", " "]))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    quote = draw(st.booleans())
    text = end.join(
        separator.join(f'"{c}"' if quote else c for c in row) for row in draw(rows)
    )  # a quote in a cell is left as it is: the csv module must cope or refuse
    head = draw(st.sampled_from(["", "source\ttarget\n", "\ufeff", "english,chinese,attribution\n"]))
    return (head + text).encode("utf-8", "surrogatepass")  # a lone surrogate: bytes that are not UTF-8


def _read_as_the_data_page_does(data: bytes) -> None:
    found = read_file(data, "upload.tsv")
    roles = infer_roles(found)
    taken = take_pairs(found, roles)
    credit(taken.extra.get("attribution", []))
    check_pairs(taken.pairs)
    taken.tags  # noqa: B018  (the phenomena, split)


@given(st.one_of(pairs_files(), st.binary(max_size=3_000), user_text.map(lambda s: s.encode("utf-8", "surrogatepass"))))
def test_a_pairs_file_is_read_or_refused_with_a_data_error(data):
    judged(_read_as_the_data_page_does, data, errors=DataError)
    judged(parse_aligned_pairs, data, "pairs.tsv", errors=DataError)


# ---------------------------------------------------------------- column picking (the Data page, --columns S,T)


@given(pairs_files(), st.integers(-3, 12) | st.integers(), st.integers(-3, 12) | st.integers())
def test_columns_chosen_by_number_are_taken_or_refused(data, source, target):
    try:
        found = read_file(data, "f.tsv")
    except DataError:
        return
    roles = judged(with_columns, infer_roles(found), source, target, "f.tsv", errors=DataError)
    if not isinstance(roles, DataError):
        check_roles(roles, found.columns)
        assert (roles[source - 1], roles[target - 1]) == ("source", "target")
        judged(take_pairs, found, roles, errors=DataError)


@given(st.lists(st.sampled_from(ROLES) | tricky_text, max_size=12), st.integers(0, 11), st.sampled_from(ROLES))
def test_roles_given_to_columns_are_checked(roles, column, role):
    roles = tuple(roles)
    refused = judged(check_roles, roles, len(roles), errors=DataError)
    if column < len(roles) and refused is None:
        check_roles(assign(roles, column, role), len(roles))  # a valid choice stays valid after any other


@given(user_text | st.tuples(digits, digits).map(",".join))
@example("0" * 1_200)  # was echoed whole
@example("²,1")  # isdigit() took it, int() refused it with Python's own words
@example("1," + "9" * 5_000)  # int() refused it: more than 4,300 digits
def test_the_columns_flag_is_two_numbers_or_a_one_line_refusal(text):
    import argparse

    value = judged(column_numbers, text, errors=(argparse.ArgumentTypeError, ValueError))
    if not isinstance(value, Exception):
        assert len(value) == 2 and all(isinstance(n, int) and n >= 0 for n in value)


# ---------------------------------------------------------------- gold links (an alignment column, align --pairs)

links = st.lists(st.tuples(digits, st.sampled_from("-?"), digits).map("".join) | tricky_text, max_size=12).map(" ".join)


@given(links | user_text, st.integers(0, 60), st.integers(0, 60), st.none() | st.integers(1, 50_000))
@example("\ud7fc" * 1_000, 1, 1, None)  # unassigned: each shown as 6 characters, so a message of 1,201
@example("\x1b" * 300 + "-0", 1, 1, 7)
def test_gold_links_are_read_or_refused_with_a_data_error(text, src_len, tgt_len, row):
    gold = judged(parse_links, text, src_len, tgt_len, row, errors=DataError)
    if not isinstance(gold, DataError):
        assert gold.sure <= gold.possible
        assert all(0 <= i < src_len and 0 <= j < tgt_len for i, j in gold.possible)


@given(st.lists(st.tuples(cell, cell, links | user_text), max_size=8))
def test_a_column_of_gold_links_keeps_every_pair(rows):
    pairs, cells = [(s, t) for s, t, _ in rows], [c for _, _, c in rows]
    golds, problems = judged(read_gold, pairs, cells)
    assert len(golds) == len(pairs)  # a bad cell drops its gold, never its pair
    assert all(isinstance(p, DataError) and len(str(p)) < 1_000 for p in problems)


# ---------------------------------------------------------------- the command line's arguments


PARSER = _parser()  # built once: its first build imports every command


def _parse(argv: list[str]) -> tuple[object, str]:
    """(Namespace or the exit status, stderr) of the command line's parser on argv; a train command's recipe flags
    are then turned into a TrainConfig, as the command does first."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = PARSER.parse_args(argv)
        except SystemExit as exc:
            return exc.code, err.getvalue()
    if args.command == "train":
        recipe_settings(args, 50)
    return args, err.getvalue()


COMMANDS = {  # each command's required arguments, and flags that take a value
    "train": (["--pairs", "p.tsv", "--out", "m.safetensors"], ["--columns", "--epochs", "--d-model", "--n-heads",
              "--dropout", "--lr", "--batch-size", "--seed", "--tokenizer", "--vocab-size", "--holdout", "--split",
              "--pe", "--norm", "--steps", "--label-smoothing", "--warmup", "--adam-beta2", "--adam-eps"]),
    "translate": (["--model", "m.safetensors", "我"], ["--beam", "--length-penalty", "--n-best", "--temperature",
                  "--top-k", "--top-p", "--seed"]),
    "trace": (["--model", "m.safetensors", "我"], ["--target", "--pad-source", "--pad-target"]),
    "align": (["--model", "m.safetensors", "--pairs", "p.tsv"], ["--method", "--layer", "--head"]),
    "corpus": (["--out", "c.tsv"], ["--size", "--seed"]),
    "store": ([], []),
}  # fmt: skip
number = st.one_of(digits, st.sampled_from(["nan", "inf", "-1e999", "1e-999", "-0", "1_0", " 3 ", "0x10"]))


@given(
    st.sampled_from(sorted(COMMANDS)),
    st.lists(st.tuples(st.integers(0, 30), number | user_text), max_size=4),
    st.lists(user_text, max_size=3),
)
@example("store", [], ["\x9a¹" * 5_000])  # argparse's "invalid choice" repeated the 10,000 characters
@example("train", [(1, "9" * 5_000)], [])  # an int of more digits than int() converts
@example("train", [(1, "9" * 875)], [])  # --epochs: TrainConfig repeated the 875 digits whole
@example("train", [(16, "9" * 875)], [])  # --warmup repeated them whole
@example("train", [(14, "9" * 400)], [])  # --steps: epochs_for's float overflowed
def test_command_line_arguments_are_taken_or_refused_in_one_line(command, flags, extra):
    required, valued = COMMANDS[command]
    argv = [command, *required]
    for index, value in flags:
        if valued:
            argv += [valued[index % len(valued)], value]
    argv += extra if command == "store" else []
    parsed = judged(_parse, argv, errors=TransformerError)
    if isinstance(parsed, TransformerError):
        return
    result, stderr = parsed
    if isinstance(result, int):
        assert result == 2
        assert stderr.count("\n") == 1 and stderr.startswith("error: "), stderr[:300]
        assert len(stderr) < 1_000, f"{len(stderr):,} characters: {stderr[:300]}…"
