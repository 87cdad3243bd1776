"""The command line's corpus, splits and scores: `corpus`, `train --split … --also …` and `evaluate`, in-process."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from transformer.__main__ import main
from transformer.checkpoint import load_checkpoint
from transformer.corpus import PHENOMENA, max_size
from transformer.data import parse_pairs, parse_tagged_pairs, tokenize
from transformer.splits import pairs_sha256

REPO = Path(__file__).resolve().parents[2]
TUTORIAL = str(REPO / "assets" / "pairs.tsv")
MODEL = str(REPO / "assets" / "model.safetensors")
TINY = ["--d-model", "16", "--n-heads", "2", "--d-ff", "32", "--n-layers", "1"]
SCORES = r"loss \d+\.\d{4}, token accuracy \d+\.\d%, exact match \d+\.\d% \(\d+/\d+\), BLEU \d+\.\d, chrF \d+\.\d"


def _run(capsys, *argv) -> tuple[int, str, str]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit:  # argparse's own refusals
        code = exit.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "corpus.tsv"
    assert main(["corpus", "--out", str(path), "--size", "150", "--seed", "2"]) == 0
    return path


@pytest.fixture(scope="module")
def trained(corpus_file, tmp_path_factory):
    """A tiny model trained on the corpus file with a combination split and the tutorial pairs always trained."""
    out = tmp_path_factory.mktemp("model") / "m.safetensors"
    argv = ["train", "--pairs", corpus_file, "--out", out, "--epochs", "2", *TINY, "--holdout", "0.1"]
    argv += ["--split", "combination", "--also", TUTORIAL]
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        assert main([str(a) for a in argv]) == 0
    return out, stdout.getvalue()


def test_corpus_writes_the_tagged_pairs_with_a_header(corpus_file, capsys, tmp_path):
    text = corpus_file.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "source\ttarget\tphenomena\talignment" and len(text.splitlines()) == 151
    pairs, tags = parse_tagged_pairs(text)
    assert pairs[0] == ("我 喜 欢 你", "I love you .") and len(set(pairs)) == 150
    assert all(t and set(t) <= set(PHENOMENA) for t in tags)
    again = tmp_path / "again.tsv"
    code, out, _ = _run(capsys, "corpus", "--out", again, "--size", "150", "--seed", "2")
    assert code == 0 and again.read_text(encoding="utf-8") == text  # the same size and seed: the same file
    assert out.splitlines()[0] == f"wrote 150 pairs (seed 2) to {again}"
    assert re.fullmatch(r"phenomena: agreement \d+, .*", out.splitlines()[1])
    _run(capsys, "corpus", "--out", again, "--size", "150", "--seed", "3")
    assert again.read_text(encoding="utf-8") != text


def test_train_with_a_split_reports_it_and_both_parts_with_bleu_and_chrf(trained, corpus_file):
    out_path, out = trained
    lines = out.splitlines()
    assert re.match(r"^\d+ pairs \(\+\d+ held out\), ", lines[0])
    kept, held = map(int, re.match(r"^(\d+) pairs \(\+(\d+) held out\)", lines[0]).groups())
    assert kept + held == 150 + 50  # the corpus file and the tutorial pairs
    assert re.match(
        rf"^combination split: {kept - 50} pairs trained on, {held} held out \(pairings never trained", lines[1]
    )
    assert re.fullmatch(rf"done: {SCORES}; held out: {SCORES}, \d+\.\d s", lines[-2]), lines[-2]
    summary = load_checkpoint(out_path).summary
    pairs = parse_pairs(corpus_file.read_bytes())
    data = summary.data
    assert data.data_sha256 == pairs_sha256(pairs) and data.always_trained == 50
    assert data.split.kind == "combination" and data.split.holdout == 0.1
    assert len(data.holdout_rows) == held and data.split.held_out
    tutorial = {tuple(tokenize(s)) for s, _ in parse_pairs(Path(TUTORIAL).read_bytes())}
    assert not {tuple(tokenize(pairs[i][0])) for i in data.holdout_rows} & tutorial  # --also is never held out
    assert set(summary.scores.parts) == {"train", "holdout"} and summary.scores.get("all", "holdout")
    assert summary.scores.get("all", "train").pairs == kept


def test_evaluate_scores_the_training_file_by_phenomenon_and_part(trained, corpus_file, capsys):
    out_path, _ = trained
    held = len(load_checkpoint(out_path).summary.data.holdout_rows)
    code, out, err = _run(capsys, "evaluate", "--model", out_path, "--pairs", corpus_file)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        f"150 pairs: the model was trained on this file, {150 - held} of them trained on and {held} held out "
        "(the rows its checkpoint records)"
    )
    assert lines[1].split() == ["phenomenon", "part", "pairs", "exact", "token", "acc.", "BLEU", "chrF"]
    assert lines[2].split()[:4] == ["all", "trained", "on", str(150 - held)]
    assert lines[3].split()[:3] == ["held", "out", str(held)]
    named = [line.split()[0] for line in lines[2:] if not line.startswith(" ")]
    assert named[0] == "all" and named[1:] == [p for p in PHENOMENA if p in named]


def test_evaluate_on_another_file_scores_it_as_one_part(trained, capsys):
    out_path, _ = trained
    code, out, _ = _run(capsys, "evaluate", "--model", out_path, "--pairs", TUTORIAL)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("50 pairs, scored as one part: the model was not trained on this file")
    assert lines[1] == "(no phenomena column: one row for all the pairs)"
    assert lines[3].split()[:3] == ["all", "all", "50"] and len(lines) == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["corpus", "--out", "{dir}/c.tsv", "--size", "0"], f"--size must be from 1 to {max_size():,}"),
        (["corpus", "--out", "{dir}/c.tsv", "--size", "99999999"], "(every pair the grammar makes), got 99,999,999."),
        (["corpus", "--out", "{dir}/c.tsv", "--seed", "-1"], "--seed must be from 0 to 2,147,483,647, got -1."),
        (["corpus", "--out", "{dir}/nowhere/c.tsv"], "the folder {dir}/nowhere does not exist: create it, or choose"),
        (["corpus", "--out", "{dir}"], "--out {dir} is a folder: give a file name, such as {dir}/corpus.tsv."),
        (["corpus", "--out", "{dir}/c.tsv", "--size", "many"], "argument --size: invalid int value: 'many'"),
        (["corpus"], "the following arguments are required: --out"),
        (
            ["train", "--pairs", "{dir}/three.tsv", "--out", "{dir}/m", "--split", "word"],
            "--split word needs --holdout",
        ),
        (
            ["train", "--pairs", "{dir}/three.tsv", "--out", "{dir}/m", "--split", "length", "--holdout", "0.3"],
            "every target has 2 tokens: a length split needs sentences of different lengths.",
        ),
        (
            ["train", "--pairs", "{dir}/three.tsv", "--out", "{dir}/m", "--split", "shuffled", "--holdout", "0.3"],
            "argument --split: invalid choice: 'shuffled'",
        ),
        (["train", "--pairs", "{dir}/three.tsv", "--out", "{dir}/m", "--also", "{dir}/none.tsv"], "cannot read"),
        (["evaluate", "--model", "{dir}/none.safetensors", "--pairs", "{dir}/three.tsv"], "cannot read"),
        (["evaluate", "--model", MODEL, "--pairs", "{dir}/eleven.tsv"], "11 columns, more than the 10"),
        (["evaluate", "--model", MODEL, "--pairs", "{dir}/three.tsv", "--columns", "1,3"], "has 2 columns, so"),
        (["train", "--pairs", "{dir}/three.tsv", "--out", "{dir}/m", "--columns", "2,2"], "--columns 2,2: the source"),
        (["train", "--pairs", "{dir}/three.tsv", "--out", "{dir}/m", "--columns", "2"], "--columns: give two"),
        (["evaluate", "--model", MODEL], "the following arguments are required: --pairs"),
    ],
    ids=[
        "size-0",
        "size-huge",
        "seed-negative",
        "out-in-a-missing-folder",
        "out-a-folder",
        "size-not-a-number",
        "corpus-without-out",
        "split-without-holdout",
        "length-split-of-one-length",
        "unknown-split",
        "also-missing",
        "evaluate-missing-model",
        "evaluate-eleven-columns",
        "evaluate-columns-out-of-range",
        "train-the-same-column-twice",
        "train-one-column-number",
        "evaluate-without-pairs",
    ],
)
def test_bad_input_gives_one_line_and_exit_2(tmp_path, capsys, argv, message):
    (tmp_path / "three.tsv").write_text("我\tI .\n你\tYou .\n他\tHe .\n", encoding="utf-8")
    (tmp_path / "eleven.tsv").write_text("我\tI .\t" + "\t".join("abcdefghi") + "\n", encoding="utf-8")
    code, out, err = _run(capsys, *(a.format(dir=tmp_path) for a in argv))
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: "), err
    assert message.format(dir=tmp_path) in err
    assert not (tmp_path / "m").exists() and not (tmp_path / "c.tsv").exists()


@pytest.mark.slow
def test_a_length_split_records_the_rows_it_set_aside_and_evaluate_scores_them_apart(corpus_file, tmp_path, capsys):
    """A length split sets aside the rows between its two cuts (longer on one side only): the checkpoint records them,
    so evaluate never counts them as trained on."""
    out = tmp_path / "m.safetensors"
    code, _, err = _run(capsys, "train", "--pairs", corpus_file, "--out", out, "--epochs", "1", *TINY,
                        "--holdout", "0.2", "--split", "length")  # fmt: skip
    assert code == 0, err
    summary = load_checkpoint(out).summary
    held, aside = summary.data.holdout_rows, summary.data.set_aside_rows
    assert held and aside and not set(held) & set(aside)
    code, text, err = _run(capsys, "evaluate", "--model", out, "--pairs", corpus_file)
    assert code == 0, err
    lines = text.splitlines()
    trained = 150 - len(held) - len(aside)
    assert lines[0] == (
        f"150 pairs: the model was trained on this file, {trained} of them trained on and {len(held)} held out, "
        f"{len(aside)} set aside (neither trained on nor held out) (the rows its checkpoint records)"
    )
    assert [line.split()[:4] for line in lines[2:5]] == [
        ["all", "trained", "on", str(trained)],
        ["held", "out", str(len(held)), lines[3].split()[3]],
        ["set", "aside", str(len(aside)), lines[4].split()[3]],
    ]
