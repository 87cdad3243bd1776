"""The command line, run as a user would: `python -m transformer train|translate …` in a subprocess (a few runs;
the other bad input goes through the same main() in-process, in tests/test_cli_inprocess.py).

Every run pays for importing torch, so all runs of this module start together in one fixture (two phases:
translating needs the trained checkpoint) and the tests only read their results.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).parents[1]
MODEL = REPO / "assets" / "model.safetensors"
TINY_FLAGS = ["--d-model", "16", "--n-heads", "2", "--d-ff", "32"]


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def _start(*args: str, **env: str) -> subprocess.Popen:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONIOENCODING": "utf-8", **env}
    return subprocess.Popen(
        [sys.executable, "-m", "transformer", *map(str, args)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # Ctrl-C acts as in a terminal
    )


def _finish(process: subprocess.Popen) -> Run:
    if process.stdout.closed:  # its reader has gone
        return Run(process.wait(timeout=120), "", process.stderr.read())
    stdout, stderr = process.communicate(timeout=120)
    return Run(process.returncode, stdout, stderr)


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def runs(work) -> dict[str, Run]:
    (work / "seed.tsv").write_text("我 喜 欢 你\tI love you .\n", encoding="utf-8")
    seed_model = work / "seed.safetensors"
    started = {
        "train": _start("train", "--pairs", work / "seed.tsv", "--out", seed_model, "--epochs", "60", *TINY_FLAGS),
        # the rest of the bad input is tested in-process (tests/test_cli_inprocess.py): the same main()
        "dev-zero": _start("train", "--pairs", "/dev/zero", "--out", work / "dev-zero.safetensors"),
    }
    # `translate … | head -1` once head has its line: the reader has gone before this writes
    started["pipe-closed"] = _start("translate", "--model", MODEL, "猫和狗是朋友", "我喜欢猫")
    started["pipe-closed"].stdout.close()
    # Ctrl-C in mid-training (the first line is printed just before the first epoch)
    interrupted = _start(
        "train",
        "--pairs",
        work / "seed.tsv",
        "--out",
        work / "stopped.safetensors",
        "--epochs",
        "5000",
        PYTHONUNBUFFERED="1",
    )
    assert interrupted.stdout.readline().startswith("1 pairs,")
    interrupted.send_signal(signal.SIGINT)
    started["interrupted"] = interrupted
    results = {"train": _finish(started.pop("train"))}
    started["translate"] = _start("translate", "--model", seed_model, "我 喜 欢 你", "我喜欢你", "你 爱 我")
    started["steps"] = _start("translate", "--model", seed_model, "--steps", "我 喜 欢 你")
    results.update({name: _finish(process) for name, process in started.items()})
    return results


def test_train_writes_a_checkpoint_and_reports_progress(runs, work):
    run = runs["train"]
    assert run.returncode == 0, run.stderr
    assert (work / "seed.safetensors").stat().st_size > 1000
    lines = run.stdout.splitlines()
    assert lines[0].startswith("1 pairs,") and "parameters" in lines[0]
    progress = [line for line in lines if line.startswith("epoch")]
    assert len(progress) == 10
    assert re.fullmatch(r"epoch\s+60\s+loss \d+\.\d{4}\s+token accuracy\s+100\.0%", progress[-1])
    assert re.fullmatch(
        r"done: loss \d+\.\d{4}, token accuracy 100\.0%, exact match 100\.0% \(1/1\), \d+\.\d s", lines[-2]
    ), lines[-2]
    assert lines[-1].startswith("saved ")
    assert run.stderr == ""


def test_translate_prints_one_line_per_sentence(runs):
    run = runs["translate"]
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 3
    assert lines[:2] == ["I love you .", "I love you ."]
    for line in lines:
        assert not {"S", "E", "P"} & set(line.split())
    assert "爱" in run.stderr  # the unknown word is reported, not a crash
    assert "Traceback" not in run.stderr


def test_translate_steps_shows_top_three_and_why_it_stopped(runs):
    run = runs["steps"]
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "I love you ."
    steps = [line for line in lines if line.strip().startswith("step")]
    assert [line.split("→")[1].split()[0] for line in steps] == ["I", "love", "you", ".", "E"]
    assert steps[0].strip().startswith("step 1: S →")
    for line in steps:
        assert len(re.findall(r"\d\.\d{3}", line.split("[")[1])) == 3, line
    assert lines[-1].strip() == "stopped: E reached"
    assert len(lines) == 1 + len(steps) + 1


def test_a_device_for_pairs_exits_2_with_one_line_instead_of_reading_forever(runs, work):
    run = runs["dev-zero"]
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("error: ")
    assert "/dev/zero is a device, not a file" in lines[0]
    assert not (work / "dev-zero.safetensors").exists()


def test_a_reader_that_goes_away_ends_translate_quietly(runs):
    run = runs["pipe-closed"]  # as `python -m transformer translate … | head -1` once head has its line
    assert (run.returncode, run.stderr) == (141, "")  # 128 + SIGPIPE, as other tools end; no BrokenPipeError


def test_ctrl_c_in_mid_training_ends_quietly_with_status_130_and_writes_nothing(runs, work):
    run = runs["interrupted"]
    assert (run.returncode, run.stderr) == (130, "")  # no KeyboardInterrupt traceback
    assert "epoch" not in run.stdout and not (work / "stopped.safetensors").exists()
