"""The training processes when the server goes: a child whose pipe to the server has closed ends without a traceback
in the server's log, and a server killed with SIGKILL leaves no process behind. Real processes (a short-lived parent
stands for the server); each test takes a second or two, most of it a fresh process importing torch."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GONE_WITHIN_S = 5.0  # the bound: no process of a killed server is left after this

# a training process started as the job's thread starts it, whose pipe to the server has closed: one that writes first
# (no runs: it reports its evaluation at once), and one that reads first (it looks for a Stop before its epoch)
CHILD_LOSES_ITS_PIPE = """
import multiprocessing
from transformer import TrainConfig, Translator
from jobs.worker import RunSpec, child_main

pairs = [("我 喜 欢 你", "I love you .")]
tiny = Translator.create(pairs, d_model=8, n_heads=2, d_ff=16, n_layers=1)
spec = RunSpec(tiny, pairs, TrainConfig(epochs=2), [], 0, [])
for specs in ([], [spec]):
    server, child = multiprocessing.Pipe()
    server.close()  # the server's end, as when the server has stopped
    process = multiprocessing.get_context("fork").Process(target=child_main, args=(child, specs, None, 0))
    process.start()
    process.join()
    print(process.exitcode)
"""

# a server's fork server (the real one's first module, which ties the processes together) and one training process
SERVER = """
import multiprocessing
import time

context = multiprocessing.get_context("forkserver")
context.set_forkserver_preload(["jobs.fork_server"])
training = context.Process(target=time.sleep, args=(60,), daemon=True)
training.start()
print(training.pid, flush=True)
time.sleep(60)
"""


@pytest.mark.slow
def test_a_training_process_whose_server_has_gone_ends_without_a_traceback():
    done = subprocess.run(
        [sys.executable, "-c", CHILD_LOSES_ITS_PIPE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "0"]  # each ended at its first message, as a process that had nothing to do
    assert not [word for word in ("Traceback", "BrokenPipeError", "EOFError") if word in done.stderr], done.stderr


def _parents() -> dict[int, int]:
    """Each live process (not a zombie) → its parent."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # it has just ended
                continue
            state, parent = stat.rsplit(")", 1)[1].split()[:2]  # after "pid (name)"
            if state != "Z":
                found[int(entry.name)] = int(parent)
    return found


def _descendants(pid: int) -> set[int]:
    parents, found, todo = _parents(), set(), [pid]
    while todo:
        children = {child for child, parent in parents.items() if parent == todo[-1]}
        todo.pop()
        todo += children - found
        found |= children
    return found


@pytest.mark.slow
def test_a_server_killed_with_sigkill_leaves_no_process_behind():
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    left: set[int] = set()
    try:
        ready, _, _ = select.select([server.stdout], [], [], 120)  # the fork server imports torch first
        assert ready, "the server did not start its training process"
        training = int(server.stdout.readline())
        left = _descendants(server.pid)
        assert training in left and len(left) >= 3  # the fork server, multiprocessing's resource tracker, the training
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        deadline = time.monotonic() + GONE_WITHIN_S
        while left and time.monotonic() < deadline:
            left &= set(_parents())
            time.sleep(0.02)
        assert not left, f"processes of the killed server still running after {GONE_WITHIN_S} s: {sorted(left)}"
        assert "Traceback" not in server.stderr.read()
    finally:  # whatever the test found left
        server.kill()
        for pid in left | _descendants(server.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_tied_model_crosses_the_pipe_tied():
    """A model of the paper's recipe (projection tied to the target embeddings) comes back from a job's child with one
    matrix, not two copies."""
    import torch

    from jobs.worker import pack, unpack
    from transformer import Translator

    translator = Translator.create([("我 喜 欢 你", "I love you .")], tie_output=True, d_model=8, n_heads=2, d_ff=8)
    back = unpack(pack(translator))
    assert back.model.projection.weight is back.model.decoder.tgt_emb.weight
    assert torch.equal(back.model.projection.weight, translator.model.projection.weight)
