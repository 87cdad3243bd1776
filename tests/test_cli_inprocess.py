"""More bad input for the command line, run in-process (tests/test_cli.py runs the real `python -m transformer`)."""

import pytest

from transformer.__main__ import main
from transformer.config import MAX_DATA_BYTES, MAX_PAIRS, MAX_TOKENS


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("我\t" + "word " * (MAX_TOKENS + 1) + "\n", f"row 1: the target is longer than {MAX_TOKENS} tokens"),
        ("我\tI\n" * (MAX_PAIRS + 1), f"more than the {MAX_PAIRS} allowed"),
    ],
    ids=["too-long-row", "too-many-rows"],
)
def test_train_refuses_bad_rows_with_one_line(tmp_path, capsys, content, message):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(content, encoding="utf-8")
    code, out, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(tmp_path / "m.safetensors"))
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "m.safetensors").exists()


def test_train_refuses_a_pairs_file_over_the_size_limit(tmp_path, capsys):
    pairs = tmp_path / "big.tsv"
    pairs.write_bytes(b"a\tb\n" * (MAX_DATA_BYTES // 4 + 1))
    code, _, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(tmp_path / "m.safetensors"))
    assert code == 2 and "larger than 1,000,000 bytes" in err and err.count("\n") == 1


def test_translate_with_a_missing_model_file(tmp_path, capsys):
    code, out, err = _run(capsys, "translate", "--model", str(tmp_path / "nope.safetensors"), "我喜欢你")
    assert code == 2 and out == "" and "cannot read" in err and "No such file" in err and err.count("\n") == 1
