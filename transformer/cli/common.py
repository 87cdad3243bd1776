"""What the commands of `python -m transformer` share: the one-line error rule (of the parser, and of a command that
fails), reading a pairs file, and checking that a file can be written before any work."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

from ..columns import TakenPairs, infer_roles, read_file, take_pairs, with_columns
from ..config import MAX_DATA_BYTES
from ..data import check_pairs
from ..errors import DataError, TransformerError
from ..files import read_limited
from ..text import ECHO_CHARS, echo, visible

INTERRUPTED = 130  # exit status after Ctrl-C, as a shell reports a command ended by SIGINT (128 + 2)
PIPE_CLOSED = 141  # exit status when the reader of the output has gone (`… | head`), 128 + SIGPIPE
PARSER_MESSAGE_CHARS = 2 * ECHO_CHARS  # the most of a parser's message shown (its words and the value it quotes)
_COLUMN = re.compile(r"\s*([0-9]{1,9})\s*")  # ASCII digits (int() would take ٣ and ², or fail on 5,000)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr, with exit status 2 and no usage dump."""

    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        # argparse's message repeats the value refused, whole: cut, as every message that repeats a user's text
        sys.stderr.write(f"error: {echo(message, PARSER_MESSAGE_CHARS)} (see --help)\n")
        sys.exit(2)


def required_file(parser: argparse.ArgumentParser, flag: str, text: str) -> None:
    """Add a required flag naming a FILE; its help is text, then "; required"."""
    parser.add_argument(flag, required=True, type=Path, metavar="FILE", help=f"{text}; required")


def add_model(parser: argparse.ArgumentParser) -> None:
    """The required --model flag of a command that reads a model: a checkpoint, a Marian folder or hf:NAME
    (transformer.opening)."""
    parser.add_argument(
        "--model",
        required=True,
        metavar="MODEL",
        help="a .safetensors checkpoint of this app; or a Marian (opus-mt) folder as save_pretrained writes it "
        "(config.json, model.safetensors, source.spm, target.spm, vocab.json); or hf:NAME, such as "
        "hf:Helsinki-NLP/opus-mt-zh-en, downloaded once into the Hugging Face cache; required",
    )


def add_numbers(parser: argparse.ArgumentParser, *flags: tuple[str, type, object, str, str]) -> None:
    """Add number flags, each (flag, type, default, metavar, text), in this order; each help is text, then its
    default."""
    for flag, kind, default, metavar, text in flags:
        parser.add_argument(flag, type=kind, default=default, metavar=metavar, help=f"{text} (default: %(default)s)")


def run_command(command: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    """Run one command and give its exit status (the command's own, else 0): bad input is one line on stderr and 2;
    Ctrl-C and a closed output pipe end it quietly, as they end other command-line tools."""
    try:
        status = command(args)
        sys.stdout.flush()  # a reader that has gone shows here, not in the interpreter's last flush
    except TransformerError as exc:
        print(f"error: {visible(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # nothing is written before training ends, so nothing is half-written
        return INTERRUPTED
    except BrokenPipeError:
        _discard_output()
        return PIPE_CLOSED
    return status or 0


def _discard_output() -> None:
    """Send what is left in stdout's buffer nowhere, so that exiting does not fail on the closed pipe again."""
    with contextlib.suppress(OSError, ValueError):  # stdout is not a file (a test's capture): nothing to redirect
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def column_numbers(text: str) -> tuple[int, int]:
    """The --columns S,T value: two 1-based column numbers of ASCII digits (argparse shows the refusal as one line,
    with the text cut)."""
    numbers = [_COLUMN.fullmatch(part) for part in text.split(",")]
    if len(numbers) != 2 or None in numbers:
        raise argparse.ArgumentTypeError(
            f"give two column numbers, source then target, such as 2,1 (got {echo(text, 40)!r})"
        )
    return int(numbers[0][1]), int(numbers[1][1])


def add_columns(parser: argparse.ArgumentParser) -> None:
    """The --columns S,T flag of a command that reads a pairs file."""
    parser.add_argument(
        "--columns",
        type=column_numbers,
        metavar="S,T",
        help="the 1-based columns of the source and the target sentences, up to 10 columns (default: 1,2; for a "
        "Tatoeba/Anki file of English, Chinese and an attribution, 2,1: Chinese to English)",
    )


def read_table(path: Path, columns: tuple[int, int] | None = None) -> TakenPairs:
    """The pairs of a file in the columns chosen (default: those infer_roles gives), with what was left out: rows
    without a source or target, and rows whose columns look swapped, are named on stderr and not used."""
    data = read_limited(path, MAX_DATA_BYTES, "a pairs file (UTF-8 CSV or TSV)", DataError)
    found = read_file(data, str(path))
    roles = infer_roles(found)
    if columns is not None:
        roles = with_columns(roles, *columns, name=str(path))
    taken = take_pairs(found, roles)
    if not taken.pairs:
        raise DataError(f"{path} has no row with both a source and a target in the columns chosen.")
    for reason, what in (
        ("empty", "have no source or no target"),
        ("swapped", "look swapped (Chinese in the English column)"),
    ):
        lines = taken.lines_of(reason)
        if lines:
            shown = ", ".join(map(str, lines[:10])) + (f" and {len(lines) - 10:,} more" if len(lines) > 10 else "")
            print(f"note: {visible(str(path))}: line(s) {shown} {what}; they were left out.", file=sys.stderr)
    if taken.duplicates:
        print(f"note: {visible(str(path))}: {taken.duplicates:,} row(s) repeat an earlier pair.", file=sys.stderr)
    return taken


def refuse_bad_rows(path: Path, pairs: list[tuple[str, str]], tokenizer) -> None:
    """Refuse the file at the first error check_pairs finds with this tokenizer (a mode, or a learned one)."""
    errors = [p for p in check_pairs(pairs, tokenizer) if p.severity == "error"]
    if errors:
        raise TransformerError(f"{path}, {errors[0].message()}")


def checked_pairs(path: Path, tokenizer, columns: tuple[int, int] | None = None) -> TakenPairs:
    """read_table of a file whose pairs check_pairs finds no error in (else its first error, as one line)."""
    taken = read_table(path, columns)
    refuse_bad_rows(path, taken.pairs, tokenizer)
    return taken


def read_pairs(
    path: Path, tokenizer, columns: tuple[int, int] | None = None
) -> tuple[list[tuple[str, str]], list[tuple[str, ...]]]:
    """The pairs of a file and each one's phenomena tags (empty when the file has none); bad rows are refused."""
    taken = checked_pairs(path, tokenizer, columns)
    return taken.pairs, taken.tags


def check_writable(path: Path, flag: str, example: str = "model.safetensors") -> None:
    """Before any work: a file can be written at path (not a folder; its folder exists and may be written in)."""
    if path.is_dir():
        raise TransformerError(f"{flag} {path} is a folder: give a file name, such as {path / example}.")
    folder = path.parent
    if not folder.is_dir():
        raise TransformerError(f"{flag} {path}: the folder {folder} does not exist: create it, or choose another.")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise TransformerError(f"{flag} {path}: this file cannot be written (permission denied): choose another.")
