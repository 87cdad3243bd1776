"""More bad input for the command line, run in-process (tests/transformer/test_cli.py runs the real
`python -m transformer`)."""

import contextlib
import os
import random
import re
from pathlib import Path

import pytest

from transformer import TrainConfig, Translator, train
from transformer.__main__ import _parser, main
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.config import MAX_DATA_BYTES, MAX_PAIRS, MAX_SEED, MAX_TOKEN_CHARS, MAX_TOKENS

TINY = ["--d-model", "8", "--n-heads", "2", "--d-ff", "8", "--n-layers", "1"]


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("我\t" + "word " * (MAX_TOKENS + 1) + "\n", f"line 1: the target is longer than {MAX_TOKENS} tokens"),
        ("我\tI\n" * (MAX_PAIRS + 1), "line 50001: more than 50,000 sentence pairs"),
        ("我\t" + "w" * (MAX_TOKEN_CHARS + 1) + "\n", f"a token longer than {MAX_TOKEN_CHARS} characters"),
        ("我\tI\n你\ty\x00u\n", "line 2: holds a NUL byte"),
        ("我\tI\n\n你\t\x1b[31myou\n", "line 3: the invisible control character \\x1b"),
        ("我\tI\n你\t" + "x" * 131_073 + "\n", "line 2: cannot be read as TSV (tab) (field larger than field limit"),
        ('我,"I\nlove"\n', "line 2: a sentence holds the control character \\x0a"),
        (
            "".join(f"我\t{' '.join(f'w{i + j}' for j in range(MAX_TOKENS))}\n" for i in range(0, 30_000, MAX_TOKENS)),
            "the target sentences have 30,000 distinct tokens, more than the 29,996 a vocabulary holds",
        ),
    ],
    ids=[
        *("too-long-row", "too-many-rows", "too-long-token", "nul", "escape", "huge-field", "line-break-in-a-cell"),
        "too-many-tokens",
    ],
)
def test_train_refuses_bad_rows_with_one_line(tmp_path, capsys, content, message):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(content, encoding="utf-8")
    code, out, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(tmp_path / "m.safetensors"))
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "m.safetensors").exists()


def test_train_reads_a_csv_with_header(tmp_path, capsys):
    pairs = tmp_path / "pairs.csv"
    pairs.write_text('source,target\n我 喜 欢 你,I love you .\n你 好,"Hello, you ."\n', encoding="utf-8")
    out_path = tmp_path / "csv.safetensors"
    code, out, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(out_path), "--epochs", "3", *TINY)
    assert code == 0, err
    assert out.startswith("2 pairs,")  # the header is not a pair
    assert "exact match" in out.splitlines()[-2]
    assert out_path.exists()


def test_train_leaves_out_rows_without_a_target_or_swapped_and_names_their_lines(tmp_path, capsys):
    pairs = tmp_path / "pairs.tsv"
    rows = ["我 喜 欢 你\tI love you .", "你好\t", "Hello .\t你 好", "他 好\tHe is well .", "我 喜 欢 你\tI love you ."]
    pairs.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(tmp_path / "m"), "--epochs", "1", *TINY)
    assert code == 0, err
    assert out.startswith("3 pairs,")  # the rest of the file is kept
    assert [line for line in err.splitlines() if not line.startswith("under-trained: ")] == [
        f"note: {pairs}, line 2: no source or no target; left out.",
        f"note: {pairs}, line 3: swapped, Chinese in the English column; left out.",
        f"note: {pairs}: 1 row(s) repeat an earlier pair.",
    ]


def test_train_and_evaluate_read_a_tatoeba_file_chinese_to_english_or_as_columns_say(tmp_path, capsys):
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "everyday_cmn_eng.txt"
    pairs = tmp_path / "cmn-eng.txt"
    pairs.write_bytes(b"".join(fixture.read_bytes().splitlines(keepends=True)[:12]))
    model = tmp_path / "m.safetensors"
    code, out, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(model), "--epochs", "1", *TINY)
    assert code == 0 and err.count("\n") == 2, err
    assert err.startswith(f"note: {pairs}: a Tatoeba file (English, Mandarin Chinese, attribution): read column 2 ")
    assert err.splitlines()[1].startswith("under-trained: ")  # 1 epoch: it says so
    translator = load_checkpoint(model)
    assert "你" in translator.src_vocab.stoi and "Hi" in translator.tgt_vocab.stoi  # Chinese → English
    assert translator.summary.data.data_credit == "CC-BY 2.0 (France) Attribution: example.org (12 pairs)"
    code, out, err = _run(capsys, "evaluate", "--model", str(model), "--pairs", str(pairs))
    assert code == 0 and "the model was trained on this file" in out, err
    code, out, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(model), "--columns", "1,2", *TINY)
    assert code == 0, err
    assert "Hi" in load_checkpoint(model).src_vocab.stoi  # English → Chinese, as asked
    code, out, err = _run(capsys, "evaluate", "--model", str(model), "--pairs", str(pairs), "--columns", "1,4")
    assert (
        code == 2
        and err == f"error: --columns 1,4: {pairs} has 3 columns, so choose two different columns from 1 to 3.\n"
    )


def test_translate_refuses_a_file_that_is_not_a_checkpoint_with_one_line(tmp_path, capsys):
    model = tmp_path / "random.safetensors"
    model.write_bytes(random.Random(0).randbytes(3000))
    code, out, err = _run(capsys, "translate", "--model", str(model), "我")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and "not a .safetensors checkpoint" in err and err.count("\n") == 1


def test_train_refuses_a_pairs_file_over_the_size_limit(tmp_path, capsys):
    pairs = tmp_path / "big.tsv"
    pairs.write_bytes(b"a\tb\n" * (MAX_DATA_BYTES // 4 + 1))
    code, _, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(tmp_path / "m.safetensors"))
    assert code == 2 and "larger than 15,000,000 bytes" in err and err.count("\n") == 1


def test_translate_with_a_missing_model_file(tmp_path, capsys):
    code, out, err = _run(capsys, "translate", "--model", str(tmp_path / "nope.safetensors"), "我喜欢你")
    assert code == 2 and out == "" and "cannot read" in err and "No such file" in err and err.count("\n") == 1


def test_train_reads_a_file_with_carriage_returns_only(tmp_path, capsys):
    pairs = tmp_path / "mac.tsv"
    pairs.write_bytes("source\ttarget\r我 喜 欢 你\tI love you .\r你 好\thello\r".encode())
    out_path = tmp_path / "m.safetensors"
    code, out, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(out_path), "--epochs", "1", *TINY)
    assert code == 0, err
    assert out.startswith("2 pairs,") and out_path.exists()


def test_train_refuses_a_folder_as_the_pairs_file(tmp_path, capsys):
    code, _, err = _run(capsys, "train", "--pairs", str(tmp_path), "--out", str(tmp_path / "m.safetensors"))
    assert code == 2 and "is a folder, not a file" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("{tmp}", "error: --out {tmp} is a folder: give a file name, such as {tmp}/model.safetensors."),
        (
            "{tmp}/missing/m.safetensors",
            "error: --out {tmp}/missing/m.safetensors: the folder {tmp}/missing does not exist: create it, or choose "
            "another.",
        ),
    ],
    ids=["a-folder", "in-a-missing-folder"],
)
def test_train_checks_where_it_will_write_before_training(tmp_path, capsys, out, message):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("我 喜 欢 你\tI love you .\n", encoding="utf-8")
    out, message = out.format(tmp=tmp_path), message.format(tmp=tmp_path)
    code, printed, err = _run(capsys, "train", "--pairs", str(pairs), "--out", out, "--epochs", "5000", *TINY)
    assert (code, printed, err) == (2, "", message + "\n")  # not a line of training before it: nothing trained


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_train_refuses_a_folder_it_may_not_write_in_before_training(tmp_path, capsys):
    pairs, locked = tmp_path / "pairs.tsv", tmp_path / "locked"
    pairs.write_text("我 喜 欢 你\tI love you .\n", encoding="utf-8")
    locked.mkdir(mode=0o500)
    code, printed, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(locked / "m.safetensors"))
    assert code == 2 and printed == "" and "cannot be written (permission denied)" in err


@pytest.mark.parametrize("command", ["train", "translate", "trace", "align"])
def test_every_option_in_help_has_a_description_and_its_default(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    shown = "".join(capsys.readouterr().out.split())  # the help as printed, without its spaces and line breaks
    parser = next(a for a in _parser()._actions if a.dest == "command").choices[command]
    for action in parser._actions:
        if action.dest == "help":
            continue
        assert action.help and len(action.help) > 10, action.dest
        described = action.help.replace("%(default)s", str(action.default))
        assert "".join(described.split()) in shown, action.dest
        if not action.option_strings or action.nargs == 0:  # a sentence, or a switch (off unless given)
            continue
        if action.required:
            assert action.help.endswith("; required"), action.dest
        else:
            assert "(default: " in action.help or "default: " in action.help, action.dest
            if action.default is not None:  # the default printed is the value the option really has
                assert f"default: {action.default}" in described, action.dest


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--seed", "1180591620717411303424"], f"seed must be at most {MAX_SEED:,}"),
        (["--seed", str(MAX_SEED + 1)], f"seed must be at most {MAX_SEED:,}"),
        (["--batch-size", "10" * 20], "batch_size must be at most 200"),
        (["--epochs", "10" * 20], "epochs must be at most 5,000"),
        (["--d-model", "10" * 20], "d_model must be at most 4,096"),
        (["--d-ff", "100000"], "d_ff must be at most 16,384"),
        (["--n-layers", "25"], "n_layers must be at most 24"),
        (["--n-heads", "3", "--d-model", "64"], "use one of --n-heads 1, 2, 4, 8, 16, 32, 64, or another --d-model"),
        (["--n-heads", "100", "--d-model", "64"], "use one of --n-heads 1, 2, 4, 8, 16, 32, 64, or another --d-model"),
        (["--lr", "nan"], "lr must be"),
        (["--dropout", "inf"], "dropout must be"),
        (
            ["--d-model", "1024", "--d-ff", "4096", "--n-layers", "4", "--n-heads", "8"],
            "whose checkpoint would take up to",
        ),
    ],
    ids=[
        "seed-huge",
        "seed-one-too-many",
        "batch-size-huge",
        "epochs-huge",
        "d-model-huge",
        "d-ff",
        "n-layers",
        "n-heads-3",
        "n-heads-100",
        "lr-nan",
        "dropout-inf",
        "checkpoint-too-large",
    ],
)
def test_train_refuses_bad_sizes_before_training_with_one_line(tmp_path, capsys, flags, message):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("我 喜 欢 你\tI love you .\n", encoding="utf-8")
    code, out, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(tmp_path / "m.safetensors"), *flags)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: "), err
    assert message in err, err
    assert not (tmp_path / "m.safetensors").exists()


def test_the_checkpoint_size_refusal_says_why(tmp_path, capsys):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("我 喜 欢 你\tI love you .\n", encoding="utf-8")
    flags = ["--d-model", "1024", "--d-ff", "4096", "--n-layers", "4", "--n-heads", "8"]
    _, _, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(tmp_path / "m.safetensors"), *flags)
    assert "more than the 50,000,000 a checkpoint may have: choose a smaller --d-model, --d-ff or --n-layers." in err


def test_translate_shows_escape_sequences_from_the_vocabulary_as_text(tmp_path, capsys):
    """A checkpoint's tokens (and unknown words typed by the user) are printed with control characters made
    visible: the terminal shows the characters of \\x1b[2J instead of clearing the screen."""
    pairs = [("我", "\x1b[2J \x1b]0;pwned\x07")]
    translator = Translator.create(pairs, "whitespace", d_model=16, n_heads=2, d_ff=16, n_layers=1)
    for _ in train(translator, pairs, TrainConfig(epochs=40)):
        pass
    assert translator.translate("我").tokens == ["\x1b[2J", "\x1b]0;pwned\x07"]
    model = tmp_path / "escape.safetensors"
    save_checkpoint(translator, model)
    code, out, err = _run(capsys, "translate", "--model", str(model), "--steps", "我 \x1b[31m")
    assert code == 0, err
    assert "\x1b" not in out + err and "\x07" not in out
    assert out.splitlines()[0] == "\\x1b[2J \\x1b]0;pwned\\x07"
    assert "→ \\x1b[2J" in out
    assert "\\x1b[31m" in err  # the unknown word


def test_train_with_a_held_out_part_reports_both_parts_and_saves_the_switches(tmp_path, capsys):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"我 {w}\tI {w} .\n" for w in "一二三四五六七八九十"), encoding="utf-8")
    out_path = tmp_path / "m.safetensors"
    argv = ["train", "--pairs", str(pairs), "--out", str(out_path), "--epochs", "3", *TINY, "--holdout", "0.3"]
    code, out, err = _run(capsys, *argv, "--no-look-ahead-mask", "--pe", "learned", "--norm", "pre", "--no-scale")
    assert code == 0, err
    assert "7 pairs (+3 held out)" in out
    assert "variant: look_ahead_mask=False, pe=learned, scale=False, norm=pre" in out
    done = out.splitlines()[-2]
    pattern = (
        r"^done: loss \d+\.\d{4}, token accuracy \d+\.\d%, exact match \d+\.\d% \(\d/7\), BLEU \d+\.\d, chrF \d+\.\d; "
        r"held out: loss \d+\.\d{4}, token accuracy \d+\.\d%, exact match \d+\.\d% \(\d/3\), BLEU \d+\.\d, "
        r"chrF \d+\.\d, \d+\.\d s$"
    )
    assert re.match(pattern, done), done
    loaded = load_checkpoint(out_path)
    assert loaded.config.variant == {"look_ahead_mask": False, "pe": "learned", "scale": False, "norm": "pre"}
    assert len(loaded.summary.data.holdout_rows) == 3 and 0 <= loaded.summary.holdout_exact_match <= 1
    assert len(loaded.src_vocab) < 4 + 1 + 10  # built from the 7 training pairs only: nothing of the held-out leaks


def test_train_past_the_sample_size_says_its_training_figures_are_a_samples_and_scores_every_held_out_pair(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr("transformer.plan.TRAIN_SAMPLE", 4)  # 7 training pairs: more than the sample
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"我 {w}\tI {w} .\n" for w in "一二三四五六七八九十"), encoding="utf-8")
    out_path = tmp_path / "m.safetensors"
    code, out, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(out_path), "--epochs", "1", *TINY,
                          "--holdout", "0.3")  # fmt: skip
    assert code == 0, err
    assert re.match(
        r"^done: scored on a sample of 4 of the 7 training pairs: loss \d+\.\d{4}, token accuracy \d+\.\d%, exact "
        r"match \d+\.\d% \(\d/4\), BLEU \d+\.\d, chrF \d+\.\d; held out: .* exact match \d+\.\d% \(\d/3\)",
        out.splitlines()[-2],
    ), out
    assert load_checkpoint(out_path).summary.sampled == (4, 7)


def test_train_without_a_held_out_part_prints_the_one_part_line(tmp_path, capsys):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("我 喜 欢 你\tI love you .\n", encoding="utf-8")
    code, out, _ = _run(capsys, "train", "--pairs", str(pairs), "--out", str(tmp_path / "m"), "--epochs", "2", *TINY)
    assert code == 0
    assert re.match(
        r"^done: loss \d+\.\d{4}, token accuracy \d+\.\d%, exact match \d+\.\d% \(\d/1\), BLEU \d+\.\d, "
        r"chrF \d+\.\d, \d+\.\d s$",
        out.splitlines()[-2],
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--holdout", "1.5"], "held-out fraction must be at least 0 and below 1, got 1.5"),
        (["--holdout", "0.99"], "leaves nothing to train on"),
        (["--pe", "rotary"], "argument --pe: invalid choice: 'rotary'"),
        (["--norm", "both"], "argument --norm: invalid choice: 'both'"),
        (["--label-smoothing", "-0.1"], "--label-smoothing must be a number from 0 to 0.5"),  # the paper's recipe
        (["--label-smoothing", "nan"], "--label-smoothing must be a number from 0 to 0.5"),
        (["--warmup", "0"], "--warmup must be a whole number of steps from 1"),
        (["--steps", "0"], "--steps must be a positive whole number"),
    ],
)
def test_bad_holdout_switch_and_recipe_values_give_one_line_and_write_nothing(tmp_path, capsys, argv, message):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("我\tI\n你\tyou\n", encoding="utf-8")
    with pytest.raises(SystemExit) if argv[0] in ("--pe", "--norm") else contextlib.nullcontext():
        code, _, err = _run(capsys, "train", "--pairs", str(pairs), "--out", str(tmp_path / "m"), *TINY, *argv)
        assert code == 2 and message in err and err.count("\n") == 1
    if argv[0] in ("--pe", "--norm"):
        assert message in capsys.readouterr().err
    assert not (tmp_path / "m").exists()  # nothing written


BAD_INPUT = {
    # name: (a pairs file to train on, extra train flags) or (None, a whole command; {dir} is the work folder)
    "missing-file": (None, ["train", "--pairs", "{dir}/nowhere.tsv", "--out", "{dir}/missing-file.safetensors"]),
    "empty-file": ("", None),
    "n-heads-3": ("我 喜 欢 你\tI love you .\n", ["--n-heads", "3", "--d-model", "16"]),
    "epochs-0": ("我 喜 欢 你\tI love you .\n", ["--epochs", "0"]),
    "lr-negative": ("我 喜 欢 你\tI love you .\n", ["--lr", "-1"]),
    "epochs-not-a-number": ("我 喜 欢 你\tI love you .\n", ["--epochs", "ten"]),
    "model-dev-zero": (None, ["translate", "--model", "/dev/zero", "我"]),
    "pairs-fifo": (None, ["train", "--pairs", "{dir}/fifo", "--out", "{dir}/pairs-fifo.safetensors"]),
    "model-fifo": (None, ["translate", "--model", "{dir}/fifo", "我"]),
}


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("missing-file", "nowhere.tsv"),
        ("empty-file", "empty"),
        ("n-heads-3", "use one of --n-heads 1, 2, 4, 8, 16,"),
        ("epochs-0", "epochs"),
        ("lr-negative", "lr"),
        ("epochs-not-a-number", "ten"),
        ("model-dev-zero", "/dev/zero is a device, not a file"),
        ("pairs-fifo", "fifo is a pipe (fifo), not a file"),
        ("model-fifo", "fifo is a pipe (fifo), not a file"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, case, words):
    os.mkfifo(tmp_path / "fifo")  # no process ever writes to it
    content, args = BAD_INPUT[case]
    if content is not None:
        pairs = tmp_path / f"{case}.tsv"
        pairs.write_text(content, encoding="utf-8")
        args = ["train", "--pairs", pairs, "--out", tmp_path / f"{case}.safetensors", *TINY, *(args or [])]
    try:
        code = main([str(a).format(dir=tmp_path) for a in args])
    except SystemExit as exit:  # argparse's own refusals
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err
    assert not (tmp_path / f"{case}.safetensors").exists()
