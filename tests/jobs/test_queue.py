"""The server's job queue: first come first served, at most `slots` trainings at once, places in line, Stop, jobs of
tabs that have gone are cancelled, a failing job says so. Real trainings of tiny models in real threads; only the
question "is this tab still connected" is answered by the test."""

from __future__ import annotations

import copy
import os
import re
import signal
import sys
import time
import types
from pathlib import Path

import pytest

from jobs import queue as jobs
from jobs.queue import Job, JobQueue, Run
from jobs.worker import evaluate_run
from tests.conftest import PAIRS20
from transformer import TrainConfig, Translator, corpus
from transformer.data import tokenize
from transformer.lab import Until
from transformer.scores import PairScore, table_of
from transformer.translator import teacher_forced
from ui.training import run_goal

PAIRS = [("我 喜 欢 你", "I love you ."), ("你 好", "hello .")]
TINY = dict(d_model=8, n_heads=2, d_ff=16, n_layers=1)


def _job(owner: str, epochs: int = 3, pairs=PAIRS, threads: int | None = None) -> Job:
    run = Run("model", Translator.create(PAIRS, **TINY), pairs, TrainConfig(epochs=epochs, threads=threads))
    return Job("train", owner, [run])


def _wait(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_jobs_run_in_order_at_most_slots_at_once_and_show_their_place():
    queue = JobQueue(slots=1)
    first, second, third = _job("a", epochs=400), _job("b"), _job("c")
    for job in (first, second, third):
        queue.submit(job)
    _wait(lambda: first.state == "running")
    assert (queue.position(first), queue.position(second), queue.position(third)) == (0, 1, 2)
    assert second.state == third.state == "queued" and queue.busy() == (1, 2)
    _wait(lambda: len(first.runs[0].records) > 0)
    queue.stop(first)
    _wait(lambda: third.finished)
    assert [j.state for j in (first, second, third)] == ["stopped", "done", "done"]
    assert 0 < len(first.runs[0].records) < 400  # stopped in mid-training, the epochs so far kept
    assert len(second.runs[0].records) == 3 and "train" in second.runs[0].evaluations
    assert queue.busy() == (0, 0)


def test_a_waiting_job_that_is_stopped_never_trains():
    queue = JobQueue(slots=1)
    running, waiting = _job("a", epochs=400), _job("b")
    queue.submit(running)
    queue.submit(waiting)
    queue.stop(waiting)
    assert waiting.state == "stopped" and queue.position(waiting) == 0
    queue.stop(running)
    _wait(lambda: running.finished)
    assert waiting.runs[0].records == []


@pytest.mark.slow
def test_the_job_of_a_tab_that_has_gone_is_cancelled_within_seconds(monkeypatch):
    monkeypatch.setattr(jobs, "ORPHAN_SECONDS", 0.5)
    connected = {"a": True, "b": True}
    queue = JobQueue(slots=1, alive=lambda owner: connected[owner])
    training, waiting = _job("a", epochs=5000), _job("b", epochs=5000)
    queue.submit(training)
    queue.submit(waiting)
    _wait(lambda: len(training.runs[0].records) > 2)
    connected["a"] = connected["b"] = False  # both tabs closed
    start = time.monotonic()
    _wait(lambda: training.finished and waiting.finished, timeout=15)
    assert training.state == waiting.state == "cancelled"
    assert time.monotonic() - start < 5  # "within a few seconds": nothing trains for nobody
    _wait(lambda: queue.busy() == (0, 0), timeout=2)  # the worker lets go of its slot at the end of its epoch
    assert "train" not in training.runs[0].evaluations


@pytest.mark.slow
def test_a_tab_that_reconnects_in_time_keeps_its_job(monkeypatch):
    monkeypatch.setattr(jobs, "ORPHAN_SECONDS", 2.0)
    connected = {"a": True}
    queue = JobQueue(slots=1, alive=lambda owner: connected[owner])
    job = _job("a", epochs=300)
    queue.submit(job)
    _wait(lambda: len(job.runs[0].records) > 1)
    connected["a"] = False
    time.sleep(0.8)  # a short network blip
    connected["a"] = True
    _wait(lambda: job.finished, timeout=60)
    assert job.state == "done"


def test_a_job_that_fails_says_why_and_frees_its_place():
    queue = JobQueue(slots=1)
    broken, after = _job("a", pairs=[]), _job("b")  # nothing to train on: the training itself raises
    queue.submit(broken)
    queue.submit(after)
    _wait(lambda: after.finished)
    assert broken.state == "failed"
    assert re.fullmatch(r"\w+Error: .+", broken.error)  # the {error} of "Training failed ({error}); …": type and words
    assert after.state == "done"


def test_a_training_process_that_dies_fails_its_job_with_a_message_and_the_queue_goes_on():
    queue = JobQueue(slots=1)
    doomed, after = _job("a", epochs=5000), _job("b")
    queue.submit(doomed)
    queue.submit(after)
    _wait(lambda: len(doomed.runs[0].records) > 0)
    os.kill(doomed.pid, signal.SIGKILL)  # as the kernel's out-of-memory killer would
    _wait(lambda: after.finished)
    assert doomed.state == "failed"
    assert doomed.error == "the training process ended unexpectedly (stopped by the signal SIGKILL)"
    assert after.state == "done" and queue.busy() == (0, 0)


def test_trainings_run_in_processes_of_their_own():
    queue = JobQueue(slots=2)
    first, second = _job("a", epochs=5000), _job("b", epochs=5000)
    queue.submit(first)
    queue.submit(second)
    _wait(lambda: first.runs[0].records and second.runs[0].records)
    assert len({os.getpid(), first.pid, second.pid}) == 3  # so they never wait for each other's GIL
    queue.stop(first)
    queue.stop(second)
    _wait(lambda: first.finished and second.finished)
    assert first.state == second.state == "stopped"
    assert "train" in first.runs[0].evaluations  # a stopped training is evaluated and kept


def test_a_training_alone_on_two_threads_goes_down_to_one_when_another_starts_beside_it():
    queue = JobQueue(slots=2)
    alone = queue.submit(_job("a", epochs=5000, threads=2))  # as a large model alone on free cores would
    _wait(lambda: alone.threads == 2)
    beside = queue.submit(_job("b", epochs=5000))
    _wait(lambda: alone.threads == beside.threads == 1)  # three threads on two cores would slow both down
    for job in (alone, beside):
        queue.stop(job)
    _wait(lambda: alone.finished and beside.finished)


def test_a_lab_job_trains_its_two_runs_side_by_side():
    queue = JobQueue(slots=1)
    baseline = Run("baseline", Translator.create(PAIRS, **TINY), PAIRS, TrainConfig(epochs=4))
    variant = Run("variant", Translator.create(PAIRS, pe="none", **TINY), PAIRS, TrainConfig(epochs=4))
    job = Job("lab", "a", [baseline, variant])
    epochs_seen = []
    queue.submit(job)
    while not job.finished:
        epochs_seen.append((len(baseline.records), len(variant.records)))
        time.sleep(0.001)
    assert job.state == "done" and job.epochs_done == job.epochs_total == 8
    assert all(abs(a - b) <= 1 for a, b in epochs_seen)  # one epoch each in turn: both make progress together


def test_a_lab_job_ends_both_runs_once_its_baseline_has_learned():
    """Both runs planned for 40 epochs; the baseline passes the recipe's stopping test at the third test, after 24
    (transformer.lab.Until: tested after 8 epochs, then every 8): the job ends there, the variant as long."""
    queue = JobQueue(slots=1)
    cfg = TrainConfig(epochs=40, lr=0.03)
    until = Until(8, 8, 40)
    baseline = Run("baseline", Translator.create(PAIRS, **TINY), PAIRS, cfg, until=until)
    variant = Run("variant", Translator.create(PAIRS, scale=False, **TINY), PAIRS, cfg)
    job = queue.submit(Job("lab", "a", [baseline, variant], payload={"until": until}))
    _wait(lambda: job.finished)
    assert job.state == "done" and len(baseline.records) == len(variant.records) == 24
    assert [r.translator.summary.train_config.epochs for r in job.runs] == [24, 24]
    assert run_goal(job, variant) == 24  # what its progress counted to: the test it passed
    assert run_goal(Job("train", "a", [baseline]), baseline) == 40  # a job without the rule: its epochs


@pytest.mark.parametrize(("value", "slots"), [("2", 2), ("0", None), ("many", None), ("", None)])
def test_the_number_of_slots_comes_from_the_environment(monkeypatch, value, slots):
    monkeypatch.setenv("PLAYGROUND_TRAINING_SLOTS", value)
    assert jobs.training_slots() == (slots or jobs.os.cpu_count() or 1)


def test_a_training_process_never_runs_the_page_script_again(tmp_path, monkeypatch):
    """Streamlit puts the running page's script in sys.modules["__main__"]; multiprocessing would run it again in
    every new process (in bare mode, for 0.3 s) unless told not to."""
    ran = tmp_path / "ran"
    script = tmp_path / "page.py"
    script.write_text(f"open({str(ran)!r}, 'a').write('ran')\n", encoding="utf-8")
    page = types.ModuleType("__main__")
    page.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", page)
    job = JobQueue(slots=1).submit(_job("a"))
    _wait(lambda: job.finished)
    assert job.state == "done" and not ran.exists()


def test_the_end_of_a_training_decodes_and_teacher_forces_every_pair_once_for_both_tables(trained20):
    """The exact-match tables (Train page) and the score table (the checkpoint's summary) of a finished training come
    from one greedy decoding and one teacher-forced pass of each pair, and are what each pair alone gives."""
    translator = copy.deepcopy(trained20[0])
    pairs, holdout = PAIRS20[:14], PAIRS20[14:] + [("我吃面", "I eat noodles .")]  # a sentence it never saw
    rows = []
    hook = translator.model.encoder.register_forward_hook(lambda module, args, out: rows.append(out.size(0)))
    evaluations = evaluate_run(translator, pairs, holdout)
    hook.remove()
    assert sum(rows) == 2 * len(pairs + holdout)  # each pair encoded once to decode it and once teacher-forced
    parts = {"train": pairs, "holdout": holdout}
    alone = {}  # part → the PairScore of each pair, from that pair alone: unbatched greedy decoding, one forward pass
    for part, part_pairs in parts.items():
        evaluation, alone[part] = evaluations[part], []
        for (source, target), result in zip(part_pairs, evaluation.results):
            output = translator.translate(source, return_attn=False).tokens
            reference = tokenize(target)
            assert result == (source, target, " ".join(output), output == reference)
            _, accuracy = teacher_forced(translator.model, translator.make_batch([(source, target)]))
            alone[part].append(
                PairScore(source, reference, output, round(accuracy * (len(reference) + 1)), len(reference) + 1)
            )
        assert (evaluation.exact, evaluation.total) == (sum(p.exact for p in alone[part]), len(part_pairs))
        assert (evaluation.loss, evaluation.token_accuracy) == teacher_forced(
            translator.model, translator.make_batch(part_pairs)
        )
    assert 0 < evaluations["train"].exact < len(pairs) or 0 < evaluations["holdout"].exact < len(holdout)  # both kinds
    table = table_of(
        alone["train"] + alone["holdout"],
        corpus.tags_of(pairs + holdout),  # the phenomena the corpus's grammar finds in them
        ["train"] * len(pairs) + ["holdout"] * len(holdout),
    )
    assert translator.summary.scores == table


def _niceness(pid: int) -> int:
    """A process's nice value, from /proc/PID/stat (the 19th field)."""
    with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[16])


def _fork_server() -> int:
    """The pid of this process's fork server (the training processes')."""
    servers = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat, command = (Path(f"/proc/{entry}/{name}").read_text() for name in ("stat", "cmdline"))
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid() and "forkserver" in command:
                servers.append(int(entry))
    assert len(servers) == 1  # this process's fork server
    return servers[0]


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="nice values as Linux has them")
def test_a_new_fork_server_imports_torch_at_lower_priority_and_the_warm_up_waits_for_it():
    from multiprocessing import forkserver

    from jobs import worker

    forkserver._forkserver._stop()  # as on a new server: its fork server has yet to import torch (seconds)
    assert not worker.fork_server_ready(timeout=0.05)  # not ready yet, and the wait gives up when told
    assert worker.fork_server_ready(timeout=120)  # ui.warmup's last step: ready once its imports are done
    assert _niceness(_fork_server()) == max(jobs.NICENESS, _niceness(os.getpid()))  # so the server's pages go first
