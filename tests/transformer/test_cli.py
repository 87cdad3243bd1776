"""The command line as a user runs it: `python -m transformer train|translate …`.

What only a process of its own can show runs as one (`… | head -1` ending quietly, Ctrl-C in mid-training: the exit
status and what the interpreter itself would print); the rest goes through the same main() in-process, with what a
terminal would show of warnings counted on stderr (more bad input in tests/transformer/test_cli_inprocess.py).
Every process pays for importing torch, so both start together in one fixture, the in-process runs go on meanwhile,
and the tests only read the results.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

from transformer.__main__ import main

pytestmark = pytest.mark.slow  # the command line in real processes: each imports torch

REPO = Path(__file__).parents[2]
MODEL = REPO / "assets" / "model.safetensors"
TINY_FLAGS = ["--d-model", "16", "--n-heads", "2", "--d-ff", "32"]
# the warnings Python shows on stderr unless told otherwise (its default filters): every other kind is counted
HIDDEN_BY_DEFAULT = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)


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


def _main(*args: str) -> Run:
    """`python -m transformer args…` through the same main(), in this process and thread: its exit status, what it
    printed, and on stderr also every warning of this thread a terminal would show (other threads of the test process
    are no part of the command)."""
    stdout, stderr, said = io.StringIO(), io.StringIO(), []
    here = threading.get_ident()

    def show(message, category, filename, lineno, file=None, line=None):
        if threading.get_ident() == here and not issubclass(category, HIDDEN_BY_DEFAULT):
            said.append(warnings.formatwarning(message, category, filename, lineno, line))

    with warnings.catch_warnings(), contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        warnings.simplefilter("always")
        warnings.showwarning = show
        code = main(list(map(str, args)))
    return Run(code, stdout.getvalue(), stderr.getvalue() + "".join(said))


def _ctrl_c_after_a_line(process: subprocess.Popen, lines: list[str]) -> None:
    """Read process's first line into lines, then press Ctrl-C."""
    lines.append(process.stdout.readline())
    process.send_signal(signal.SIGINT)


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def runs(work) -> dict[str, Run]:
    (work / "seed.tsv").write_text("我 喜 欢 你\tI love you .\n", encoding="utf-8")
    seed_model = work / "seed.safetensors"
    # `translate … | head -1` once head has its line: the reader has gone before this writes
    pipe_closed = _start("translate", "--model", MODEL, "猫和狗是朋友", "我喜欢猫")
    pipe_closed.stdout.close()
    # Ctrl-C in mid-training: at once after the first line, which is printed just before the first epoch (a thread
    # waits for it while the runs below go on)
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
    first_line = []
    ctrl_c = threading.Thread(target=_ctrl_c_after_a_line, args=(interrupted, first_line))
    ctrl_c.start()
    results = {
        "train": _main("train", "--pairs", work / "seed.tsv", "--out", seed_model, "--epochs", "60", *TINY_FLAGS),
        "dev-zero": _main("train", "--pairs", "/dev/zero", "--out", work / "dev-zero.safetensors"),
    }
    results["translate"] = _main("translate", "--model", seed_model, "我 喜 欢 你", "我喜欢你", "你 爱 我")
    results["steps"] = _main("translate", "--model", seed_model, "--steps", "我 喜 欢 你")
    ctrl_c.join(timeout=120)
    assert first_line[0].startswith("1 pairs,")
    results.update(interrupted=_finish(interrupted), **{"pipe-closed": _finish(pipe_closed)})
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
        r"done: loss \d+\.\d{4}, token accuracy 100\.0%, exact match 100\.0% \(1/1\), BLEU 100\.0, chrF 100\.0, "
        r"\d+\.\d s",
        lines[-2],
    ), lines[-2]
    assert lines[-1].startswith("saved ")
    # nothing on stderr but, when the loss was still falling steeply, the one line that says so (transformer.recipe)
    assert run.stderr == "" or (run.stderr.startswith("under-trained: ") and run.stderr.count("\n") == 1)


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
