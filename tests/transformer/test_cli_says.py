"""The command line says what it did (issue 41): a split far from the share asked, --steps against the epoch limit
and beside --epochs, a model read the other way round, the file's own line numbers, ASCII digits, short error lines
that name the file and the line, Tatoeba files of any language and their credits whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from transformer.__main__ import main
from transformer.checkpoint import load_checkpoint

REPO = Path(__file__).resolve().parents[2]
MODEL = REPO / "assets" / "model.safetensors"
TUTORIAL = REPO / "assets" / "pairs.tsv"
FIXTURES = REPO / "tests" / "fixtures"
TINY = ["--d-model", "8", "--n-heads", "2", "--d-ff", "8", "--n-layers", "1"]
HUGE = ["--d-model", "4096", "--d-ff", "16384", "--n-heads", "8", "--n-layers", "6"]  # refused before training


def _run(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # the parser's refusals: one line, exit 2
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "corpus.tsv"
    assert main(["corpus", "--out", str(path)]) == 0  # the 2,000 pairs the bundled model was trained on
    return path


def test_a_length_split_far_from_the_share_asked_is_said(corpus, tmp_path, capsys):
    code, out, err = _run(
        capsys, "train", "--pairs", corpus, "--also", TUTORIAL, "--split", "length", "--holdout", "0.1",
        "--epochs", "1", *TINY, "--out", tmp_path / "m.safetensors",
    )  # fmt: skip
    assert code == 0, err
    (warning,) = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert warning.startswith("warning: --split length --holdout 0.1 holds out 4 of the 2,000 pairs (0.2%)")
    assert "not the 10% asked for" in warning


def test_a_random_split_that_meets_its_share_says_nothing_of_it(tmp_path, capsys):
    code, out, err = _run(
        capsys, "train", "--pairs", TUTORIAL, "--holdout", "0.1", "--epochs", "1", *TINY, "--out", tmp_path / "m"
    )
    assert code == 0 and "warning: --split" not in err, err


def test_steps_past_the_epoch_limit_are_said_before_anything_trains(tmp_path, capsys):
    code, out, err = _run(
        capsys, "train", "--pairs", TUTORIAL, "--steps", 10**12, *HUGE, "--out", tmp_path / "m.safetensors"
    )
    assert code == 2 and "more than the 50,000,000 a checkpoint may have" in err  # stopped before training
    assert "note: --steps 1000000000000: 5,000 epochs of 4 steps (20,000 steps)." in err
    assert (
        "warning: --steps 1000000000000 would take more than the 5,000 epochs one training may have: it trains 5,000 "
        "epochs (20,000 steps) and stops." in err
    )


def test_epochs_beside_steps_is_said_to_be_ignored(tmp_path, capsys):
    code, out, err = _run(
        capsys, "train", "--pairs", TUTORIAL, "--steps", "3", "--epochs", "100", *TINY, "--out", tmp_path / "m"
    )
    assert code == 0, err
    assert "note: --steps 3: 1 epoch of 4 steps (4 steps); --epochs 100 is ignored, as --steps sets the epochs." in err
    assert load_checkpoint(tmp_path / "m").summary.epochs == 1
    code, out, err = _run(capsys, "train", "--pairs", TUTORIAL, "--steps", "8", *TINY, "--out", tmp_path / "m")
    assert "note: --steps 8: 2 epochs of 4 steps (8 steps)." in err and "ignored" not in err


def test_evaluate_says_when_the_direction_is_reversed(corpus, capsys):
    code, out, err = _run(capsys, "evaluate", "--model", MODEL, "--pairs", TUTORIAL, "--columns", "2,1")
    assert code == 0
    assert err.startswith(
        f"warning: the direction is reversed: the model translates column 1 → column 2 of {TUTORIAL}, not column 2 → "
        "column 1 (its vocabularies know 100% of the tokens read that way against 0% this way): give --columns 1,2"
    )
    assert "not trained on this file" not in out
    code, out, err = _run(capsys, "evaluate", "--model", MODEL, "--pairs", corpus, "--columns", "2,1")
    assert "(it was trained on this file the other way round)" in err
    code, out, err = _run(capsys, "evaluate", "--model", MODEL, "--pairs", TUTORIAL)
    assert code == 0 and "reversed" not in err + out


def test_align_takes_columns_and_names_the_files_lines(tmp_path, capsys):
    pairs = tmp_path / "turned.tsv"
    pairs.write_text("target\tsource\nI love you .\t我爱你\ncats\n", encoding="utf-8")
    code, out, err = _run(capsys, "align", "--model", MODEL, "--pairs", pairs, "--method", "average")
    assert code == 2 and err == (
        f"error: {pairs}, line 3: its source or target is missing (columns 2 and 1): every row needs both, as each "
        "gets one line of links; fill it in or delete it.\n"
    )
    text = "english\tchinese\talignment\nI love you .\t我爱你\t0-0 1-1 2-2 ٣-3\nHe is happy .\t他很开心\t0-0\n"
    pairs.write_text(text, encoding="utf-8")
    code, out, err = _run(
        capsys, "align", "--model", MODEL, "--pairs", pairs, "--columns", "2,1", "--method", "average"
    )
    assert code == 0 and len(out.splitlines()) == 2, err
    assert err.startswith(f"{pairs}, line 2: the alignment link '٣-3' is not in i-j (sure) or i?j (possible) notation")
    assert "Write its numbers in ASCII digits 0-9, not '٣'." in err


def test_a_run_names_the_files_lines_from_the_left_out_rows_to_the_refused_one(tmp_path, capsys):
    pairs = tmp_path / "pairs.tsv"
    rows = ["source\ttarget", "我\tI", "你\tyou", "他\t", "\the", "她\tshe", "", "我们\twe", "猫\t" + "cat " * 50]
    pairs.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = _run(capsys, "train", "--pairs", pairs, "--out", tmp_path / "m", *TINY)
    assert code == 2
    assert err.splitlines() == [
        f"note: {pairs}, lines 4, 5: no source or no target; left out.",
        f"error: {pairs}, line 9: the target is longer than 40 tokens: shorten it.",
    ]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["evaluate", "--model", MODEL, "--pairs", TUTORIAL, "--columns", "٢,١"],
            "column numbers are written in ASCII",
        ),
        (
            ["evaluate", "--model", MODEL, "--pairs", TUTORIAL, "--columns", "²,1"],
            "column numbers are written in ASCII",
        ),
        (
            ["evaluate", "--model", MODEL, "--pairs", TUTORIAL, "--columns", "２,1"],
            "column numbers are written in ASCII",
        ),
        (["train", "--pairs", TUTORIAL, "--out", "m", "--epochs", "٥"], "--epochs: write numbers in ASCII digits"),
        (["align", "--model", MODEL, "--pairs", TUTORIAL, "--layer", "１"], "--layer: write numbers in ASCII digits"),
        (["trace", "--model", MODEL, "--pad-source", "٣", "我"], "whole number of at least 0 in ASCII digits"),
    ],
    ids=["arabic-indic", "superscript", "full-width", "epochs", "layer", "pad"],
)
def test_numbers_are_ascii_digits_only_with_a_clear_line(capsys, argv, said):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and said in err, err
    assert "invalid" not in err


def test_an_error_line_repeats_at_most_a_few_hundred_characters_of_the_users_text(tmp_path, capsys):
    long_name = tmp_path / ("m" * 250) / ("x" * 250) / ("y" * 250 + ".safetensors")
    code, out, err = _run(capsys, "evaluate", "--model", long_name, "--pairs", TUTORIAL)
    assert code == 2 and err.count("\n") == 1 and len(err) <= 620, len(err)
    code, out, err = _run(capsys, "trace", "--model", MODEL, "--pad-source", "9" * 4000, "我")
    assert code == 2 and len(err) < 400, len(err)
    for argv in (["translate", "--model", MODEL, "--beam"], ["corpus", "--out", tmp_path / "c.tsv", "--size"]):
        code, out, err = _run(capsys, *argv, "9" * 4000, *(["我"] if argv[0] == "translate" else []))
        assert code == 2 and err.count("\n") == 1 and "a number of at most 40 characters" in err and len(err) < 200


def test_a_header_without_a_target_names_the_file_and_its_line(tmp_path, capsys):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("\nsource\tphenomena\n我\tnegation\n", encoding="utf-8")
    code, out, err = _run(capsys, "train", "--pairs", pairs, "--out", tmp_path / "m")
    assert code == 2 and err.startswith(f"error: {pairs}, line 2: a pairs file needs a source column and a target")


def test_a_file_without_any_whole_row_names_the_file_and_its_lines(tmp_path, capsys):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("source\ttarget\tnotes\n\tx\tn\n\ty\tn\n", encoding="utf-8")
    code, out, err = _run(capsys, "train", "--pairs", pairs, "--out", tmp_path / "m")
    assert code == 2 and err == (
        f"error: {pairs}, lines 2, 3: no row has both a source (column 1) and a target (column 2): fill them in, or "
        "choose other columns with --columns.\n"
    )


@pytest.mark.parametrize(
    ("name", "language", "first"), [("fra-eng.txt", "French", "Bonjour"), ("deu-eng.txt", "German", "Hallo")]
)
def test_a_tatoeba_file_of_any_language_trains_into_english_and_keeps_its_credits(
    tmp_path, capsys, name, language, first
):
    model = tmp_path / "m.safetensors"
    code, out, err = _run(capsys, "train", "--pairs", FIXTURES / name, "--epochs", "1", *TINY, "--out", model)
    assert code == 0, err
    assert err.startswith(
        f"note: {FIXTURES / name}: a Tatoeba file (English, {language}, attribution): read column 2 ({language}) → "
        "column 1 (English); --columns 1,2 reads it the other way."
    )
    translator = load_checkpoint(model)
    assert first in translator.src_vocab.stoi and "Hello" in translator.tgt_vocab.stoi
    credits = translator.summary.data.credits
    assert len(credits.rows) == 45 and credits.licence == "CC-BY 2.0 (France) Attribution: tatoeba.org"
    code, out, err = _run(capsys, "credits", "--model", model)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "data: CC-BY 2.0 (France) Attribution: tatoeba.org (45 pairs)"
    assert lines[1].startswith("6 contributors: ")
    assert lines[2] == "line\tsentence 1\tcontributor 1\tsentence 2\tcontributor 2" and len(lines) == 3 + 45
    row = (FIXTURES / name).read_text(encoding="utf-8").splitlines()[0]
    line, n1, who1, n2, who2 = lines[3].split("\t")
    assert line == "1" and row.endswith(f"{n1} ({who1}) & {n2} ({who2})")


def test_credits_of_a_model_without_them_says_so(capsys):
    code, out, err = _run(capsys, "credits", "--model", MODEL)
    assert code == 0 and "records no sentence numbers or contributors" in out
