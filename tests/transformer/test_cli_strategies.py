"""`translate --beam K …` and `translate --sample …` with the bundled checkpoint, run in-process."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from transformer import Translator
from transformer.__main__ import main
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.decoding import beam_search

MODEL = str(Path(__file__).resolve().parents[2] / "assets" / "model.safetensors")
SENTENCES = ["我喜欢猫", "猫喜欢我", "我有一只猫和一只狗", "今天我很好"]  # two bundled, two unseen
N_BEST_LINE = re.compile(r"^(-?\d+\.\d+)\t(-?\d+\.\d+)\t(.+)$")


def _run(capsys, *argv: str) -> tuple[int, list[str], str]:
    code = main(["translate", "--model", MODEL, *argv])
    out = capsys.readouterr()
    return code, out.out.split("\n")[:-1], out.err


def test_beam_1_and_top_k_1_print_what_greedy_prints(capsys):
    _, greedy, _ = _run(capsys, *SENTENCES)
    assert len(greedy) == len(SENTENCES) and greedy[0] == "I like cats ."
    for flags in (["--beam", "1"], ["--sample", "--top-k", "1", "--seed", "7"], ["--sample", "--temperature", "0.01"]):
        code, lines, err = _run(capsys, *flags, *SENTENCES)
        assert code == 0 and lines == greedy, flags
        assert err == ""


def test_n_best_prints_a_header_then_n_lines_of_score_and_log_prob_best_first_then_an_empty_line(capsys):
    code, lines, _ = _run(capsys, "--beam", "4", "--n-best", "3", "--length-penalty", "0.6", *SENTENCES)
    assert code == 0
    assert len(lines) == 5 * len(SENTENCES)
    translator = load_checkpoint(MODEL)
    _, best_only, _ = _run(capsys, "--beam", "4", "--length-penalty", "0.6", *SENTENCES)
    for i, sentence in enumerate(SENTENCES):
        block = lines[5 * i : 5 * i + 5]
        assert block[0] == "score\tlog-prob\ttranslation" and block[4] == ""
        parsed = [N_BEST_LINE.match(line) for line in block[1:4]]
        assert all(parsed), block
        scores, log_probs = ([float(m.group(g)) for m in parsed] for g in (1, 2))
        assert scores == sorted(scores, reverse=True) and len({m.group(3) for m in parsed}) == 3
        assert parsed[0].group(3) == best_only[i]
        enc = translator.encode_source(sentence)[0]
        expected = beam_search(translator.model, enc, translator.tgt_vocab, 4, 0.6, n_best=3).hypotheses
        assert scores == pytest.approx([h.score for h in expected], abs=1e-4)  # the length penalty is applied
        assert log_probs == pytest.approx([h.log_prob for h in expected], abs=1e-4)  # and here it is not
        assert all(lp < score < 0 for lp, score in zip(log_probs, scores))  # lp > 1 for α = 0.6: two numbers
    _, plain, _ = _run(capsys, "--beam", "4", "--n-best", "2", SENTENCES[0])  # α = 0: the score is the log-prob
    assert [N_BEST_LINE.match(line).group(1) for line in plain[1:3]] == [
        N_BEST_LINE.match(line).group(2) for line in plain[1:3]
    ]


@pytest.mark.parametrize("temperature", ["1e-40", "1e-300", "5e-324", "0.01"])
def test_a_tiny_temperature_samples_what_greedy_decoding_gives(capsys, temperature):
    _, greedy, _ = _run(capsys, *SENTENCES)
    code, lines, err = _run(capsys, "--sample", "--temperature", temperature, "--seed", "3", *SENTENCES)
    assert (code, lines, err) == (0, greedy, "")


def test_a_huge_temperature_samples_from_a_flat_distribution(capsys):
    code, lines, err = _run(capsys, "--sample", "--temperature", "1e308", "--steps", "--top-k", "3", SENTENCES[0])
    assert code == 0 and err == ""
    steps = [line for line in lines if line.startswith("  step ")]
    assert steps and all(line.count(" 0.333") == 3 for line in steps), steps  # three tokens left, equally likely


def test_sampling_is_reproducible_for_a_seed(capsys):
    flags = ["--sample", "--temperature", "2", "--top-p", "0.95", *SENTENCES[:2]]
    runs = {seed: _run(capsys, *flags, "--seed", seed)[1] for seed in ("1", "2", "3")}
    assert _run(capsys, *flags, "--seed", "2")[1] == runs["2"]
    assert len({tuple(lines) for lines in runs.values()}) > 1  # hot sampling differs between seeds
    assert all(len(lines) == 2 for lines in runs.values())


@pytest.mark.parametrize(
    "flags",
    [
        ["--steps"],
        ["--steps", "--sample", "--seed", "4"],
        ["--steps", "--beam", "3"],
        ["--steps", "--beam", "3", "--n-best", "2"],
    ],
    ids=["greedy", "sample", "beam", "n-best"],
)
def test_steps_work_with_every_strategy(capsys, flags):
    code, lines, _ = _run(capsys, *flags, "我喜欢猫")
    assert code == 0
    steps = [line for line in lines if line.startswith("  step ")]
    assert steps and steps[0].startswith("  step 1: ")
    stopped = lines[-2 if "--n-best" in flags else -1]
    assert stopped.startswith("  stopped: ")
    if "--beam" in flags:  # the stopping rule, said as it is
        assert stopped in (
            "  stopped: no beam alive could still enter the 3 best hypotheses",
            "  stopped: length cap reached",
        )
    if "--beam" in flags:
        assert all(re.search(r"kept .+ -?\d+\.\d{3}.*finished .* pruned \d+$", line) for line in steps), steps
        assert "I like cats -0." in steps[2]  # the best beam after three steps, with its log-probability
    else:
        assert all(len(re.findall(r"\d\.\d{3}", line.split("[")[1])) == 3 for line in steps), steps


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--beam", "2", "--sample"], "--beam and --sample cannot be used together"),
        (["--n-best", "2"], "--n-best needs --beam"),
        (["--length-penalty", "0.6"], "--length-penalty needs --beam"),
        (["--temperature", "0.5"], "--temperature needs --sample"),
        (["--beam", "3", "--top-k", "2"], "--top-k needs --sample"),
        (["--seed", "1"], "--seed needs --sample"),
        (["--beam", "0"], "beam size must be a whole number from 1 to 10"),
        (["--beam", "11"], "beam size must be a whole number from 1 to 10"),
        (["--beam", "2", "--n-best", "3"], "n-best must be a whole number from 1 to 2"),
        (["--beam", "2", "--length-penalty", "-1"], "length penalty must be a number from 0 to 10"),
        (["--beam", "4", "--length-penalty", "4000"], "length penalty must be a number from 0 to 10"),
        (["--beam", "4", "--length-penalty", "1e400"], "length penalty must be a number from 0 to 10"),
        (["--sample", "--temperature", "0"], "temperature must be a number above 0"),
        (["--sample", "--temperature", "nan"], "temperature must be a number above 0"),
        (["--sample", "--top-k", "-2"], "top-k must be a whole number of at least 0"),
        (["--sample", "--top-p", "1.5"], "top-p must be a number above 0 and at most 1"),
        (["--sample", "--seed", "-1"], "seed must be a whole number from 0 to 2147483647"),
        (["--sample", "--seed", "18446744073709551616"], "seed must be a whole number from 0 to 2147483647"),
        (["--sample", "--temperature", "inf"], "temperature must be a number above 0"),
        (["--beam", "two"], "invalid int value: 'two'"),
    ],
)
def test_bad_combinations_and_values_exit_2_with_one_line(capsys, flags, words):
    try:
        code = main(["translate", "--model", MODEL, *flags, "我喜欢猫"])
    except SystemExit as exc:  # argparse's own errors (not a number) exit from inside
        code = exc.code
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    assert out.err.startswith("error: ") and out.err.count("\n") == 1 and words in out.err, out.err


def test_tokens_are_printed_visibly(tmp_path, capsys):
    pairs = [("我 喜 欢 你", "I \x1b[31m love .")]
    translator = Translator.create(pairs, seed=0, d_model=16, n_heads=2, d_ff=32, n_layers=1)
    escape = translator.tgt_vocab.stoi["\x1b"]
    with torch.no_grad():  # every step prefers the ESC token, so it is printed at every step
        translator.model.projection.weight.zero_()
        translator.model.projection.weight[escape] = 1.0
        translator.model.decoder.layers[-1].norm3.bias.fill_(1.0)
    path = tmp_path / "escape.safetensors"
    save_checkpoint(translator, path)
    for flags in ([], ["--beam", "2", "--n-best", "2"], ["--sample", "--top-k", "1"]):
        code = main(["translate", "--model", str(path), "--steps", *flags, "我 喜 欢 你"])
        out = capsys.readouterr().out
        assert code == 0 and "\x1b" not in out and "\\x1b" in out, flags
