"""The command line with subword tokens: `train --tokenizer bpe --vocab-size N`, its bad values as one line and exit 2,
and `translate` / `evaluate` printing joined text (in-process, like tests/transformer/test_cli_inprocess.py)."""

from __future__ import annotations

import pytest

from tests.conftest import PAIRS20
from transformer.__main__ import main
from transformer.bpe import MARK, Bpe, learn_bpe
from transformer.checkpoint import load_checkpoint

TINY = ["--d-model", "16", "--n-heads", "2", "--d-ff", "32", "--n-layers", "1"]


THREE = [("我吃饭", "I eat rice ."), ("他喝茶", "He drinks tea ."), ("你吃面", "You eat noodles .")]


def _run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # the parser's own refusal (its one line is on stderr)
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def pairs_file(tmp_path):
    path = tmp_path / "pairs.tsv"
    path.write_text("".join(f"{s}\t{t}\n" for s, t in PAIRS20), encoding="utf-8")
    return path


def test_train_with_bpe_saves_the_tokenizer_and_translate_prints_joined_text(tmp_path, capsys):
    pairs, out_path = tmp_path / "three.tsv", tmp_path / "m.safetensors"
    pairs.write_text("".join(f"{s}\t{t}\n" for s, t in THREE), encoding="utf-8")
    argv = ["train", "--pairs", str(pairs), "--out", str(out_path), "--tokenizer", "bpe", "--vocab-size", "40"]
    code, out, err = _run(capsys, *argv, "--epochs", "40", "--lr", "0.01", "--batch-size", "3", *TINY)
    assert code == 0, err
    assert "exact match 100.0% (3/3), BLEU 100.0" in out
    translator = load_checkpoint(out_path)
    assert translator.tokenizer == learn_bpe(THREE, 40)
    assert f"BPE pieces: {len(translator.tokenizer.pieces)} learned" in out.splitlines()[0]
    assert len(translator.translate("我吃饭").tokens) > 4  # pieces, which translate joins back into words
    code, out, err = _run(capsys, "translate", "--model", str(out_path), "我吃饭", "他喝茶")
    assert code == 0, err
    assert out.splitlines() == ["I eat rice .", "He drinks tea ."]  # joined back into words: no ▁, no pieces
    code, out, _ = _run(capsys, "translate", "--model", str(out_path), "--beam", "2", "--n-best", "1", "我吃饭")
    assert code == 0 and out.splitlines()[1].endswith("\tI eat rice .")
    code, out, _ = _run(capsys, "translate", "--model", str(out_path), "--beam", "2", "我吃饭")
    assert code == 0 and out == "I eat rice .\n"


def test_bpe_learns_from_the_training_pairs_when_pairs_are_held_out(tmp_path, capsys, pairs_file):
    out_path = tmp_path / "m.safetensors"
    argv = ["train", "--pairs", str(pairs_file), "--out", str(out_path), "--tokenizer", "bpe", "--vocab-size", "90"]
    code, _, err = _run(capsys, *argv, "--epochs", "1", "--holdout", "0.2", *TINY)
    assert code == 0, err
    translator = load_checkpoint(out_path)
    held = set(translator.summary.data.holdout_rows)
    trained = [p for i, p in enumerate(PAIRS20) if i not in held]
    assert isinstance(translator.tokenizer, Bpe) and translator.tokenizer == learn_bpe(trained, 90)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--tokenizer", "bpe", "--vocab-size", "0"], "--vocab-size 0: the BPE vocabulary size must be 1 to 16,000."),
        (["--tokenizer", "bpe", "--vocab-size", "16001"], "--vocab-size 16001: the BPE vocabulary size must be 1 to"),
        (["--tokenizer", "bpe", "--vocab-size", "-5"], "--vocab-size -5: the BPE vocabulary size must be 1 to"),
        (["--tokenizer", "bpe", "--vocab-size", "many"], "argument --vocab-size: invalid int value: 'many'"),
        (["--vocab-size", "100"], "--vocab-size applies to --tokenizer bpe only, not auto"),
        (["--tokenizer", "char", "--vocab-size", "100"], "--vocab-size applies to --tokenizer bpe only, not char"),
    ],
    ids=["zero", "beyond-the-limit", "negative", "not-a-number", "without-bpe", "with-char"],
)
def test_bad_vocabulary_sizes_are_one_line_and_exit_2(tmp_path, capsys, pairs_file, flags, message):
    out_path = tmp_path / "m.safetensors"
    code, out, err = _run(capsys, "train", "--pairs", str(pairs_file), "--out", str(out_path), *flags, *TINY)
    assert code == 2 and message in err and err.count("\n") == 1 and not out
    assert not out_path.exists()


def test_pieces_are_what_the_steps_show(tmp_path, capsys, pairs_file):
    out_path = tmp_path / "m.safetensors"
    argv = ["train", "--pairs", str(pairs_file), "--out", str(out_path), "--tokenizer", "bpe", "--vocab-size", "60"]
    assert _run(capsys, *argv, "--epochs", "1", *TINY)[0] == 0
    code, out, _ = _run(capsys, "translate", "--model", str(out_path), "--steps", "我吃饭")
    assert code == 0 and MARK in out.split("\n", 1)[1]  # the steps list the pieces the model chose, ▁ and all
