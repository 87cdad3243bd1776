"""A job's training runs in a child process, one per job, forked from a process that has already imported torch.

Why not in the server's own threads: a tiny model spends most of its time in Python, so trainings in threads of one
process take turns holding the GIL. On 2 cores, four bundled trainings at once took 10.8 s in threads against 2.1 s
for one alone (5×), and 4.5 s in processes (2.2×); and a page run in the server waited for the GIL as well.

The job's thread in the server (jobs.queue) starts the child and reads from a pipe, epoch by epoch, what the learner
sees; Stop is a message that the child reads between epochs, a cancelled job's child is killed. Models cross the pipe
as safetensors bytes plus their plain settings; the messages are pickled, but only ever between this server and its
own children (a checkpoint from a user is never unpickled: transformer.checkpoint). A job alone on the server may
train a large model on more than one torch thread (transformer.train.intra_op_threads); when another job starts
beside it, a message tells its child to go down to one.

This module does not import Streamlit: the fork server imports it once, and every child starts from that.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import torch
from safetensors.torch import load as load_tensors
from safetensors.torch import save as save_tensors

from transformer import TrainConfig, Translator
from transformer.alignment import gold_sample
from transformer.data import Vocab
from transformer.lab import Until, ended_early, may_stop
from transformer.model import Transformer
from transformer.plan import Before, TrainingPlan, finish
from transformer.summary import DataRecord, TrainingSummary
from transformer.train import EpochRecord, train
from transformer.translator import Evaluation

# the fork server imports these once, so each child, a fork of it, starts training in milliseconds: this module
# (torch and the model), torch._dynamo (which torch.optim imports on first use), and what keeps the children from
# running the server's main module again (jobs.fork_server says why)
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["jobs.fork_server", __name__, "torch._dynamo"])
POLL_SECONDS = 0.05  # how often the job's thread looks for news while the child trains
STOP = b"stop"
ONE_THREAD = b"one thread"  # another training now shares the cores
# what the child's end of the pipe raises once the server's end has closed: on a write, and on a read (a message
# seen by poll() that turns out to be the end of the pipe)
SERVER_GONE = (BrokenPipeError, ConnectionResetError, EOFError)


def start_fork_server() -> None:
    """Start the fork server now (importing torch there takes seconds) rather than on the first Train."""
    from multiprocessing import forkserver

    forkserver.ensure_running()


def fork_server_ready(timeout: float) -> bool:
    """Wait, at most timeout seconds, until the fork server has imported what it preloads; whether it has.

    The fork server forks a child only once its imports are done, so one child that does nothing is the signal. Its
    start blocks until then, without a timeout of its own: it runs in a thread that is given up on after timeout."""
    start_fork_server()
    done = threading.Event()

    def fork_one() -> None:
        child = _CONTEXT.Process(target=os.getpid, name="fork server ready", daemon=True)
        child.start()  # returns once the fork server has forked it: after its imports
        child.join()
        done.set()

    threading.Thread(target=fork_one, name="fork server ready", daemon=True).start()
    return done.wait(timeout)


@dataclass
class RunSpec:
    """What a child needs to train one run: the model as plain values and bytes (or the plan of a new one), the data
    and the settings."""

    translator: dict | TrainingPlan
    pairs: list[tuple[str, str]]
    config: TrainConfig
    holdout: list[tuple[str, str]]
    snapshot_every: int
    snapshot_pairs: list[int]
    until: Until | None = None  # a Lab baseline's: every run ends once this one has learned (transformer.lab.Until)
    gold: list | None = None  # (pair, Gold) each epoch's AER is measured on; None: the corpus's own (gold_sample)


@dataclass
class RunResult:
    """What a finished (or stopped) run sends back: the trained model (pack, the summary and weights included) and the
    evaluations."""

    model: dict
    evaluations: dict
    before: Before | None = None  # a fine-tuning's: what the model knew before it (TrainingPlan.before)

    @property
    def weights(self) -> bytes:
        return self.model["weights"]

    @property
    def summary(self) -> TrainingSummary:
        return self.model["summary"]


def evaluate_run(
    translator: Translator, pairs: list, holdout: list, data: DataRecord | None = None, seed: int = 0
) -> dict[str, Evaluation]:
    """The evaluations of a trained run ("train", and "holdout" when pairs were held out), its summary written by
    transformer.plan.finish (the score table of both parts by phenomenon, as a checkpoint keeps it, and data, what the
    plan records about the data; many training pairs scored on a sample drawn with seed), ready to cross the pipe: the
    table is in the summary, so the scores of every pair need not cross it."""
    evaluations = finish(translator, pairs, holdout, data, seed)
    return {part: dataclasses.replace(evaluation, scored=[]) for part, evaluation in evaluations.items()}


def pack(translator: Translator) -> dict:
    """A translator as values that cross a pipe without tensors: settings, vocabularies, summary, weight bytes."""
    return {
        "config": translator.config,
        "src": translator.src_vocab.itos,
        "tgt": translator.tgt_vocab.itos,
        "specials": translator.tgt_vocab.specials,  # P, S, E, or a model's own (Marian's </s>, <pad>)
        "tokenizer": translator.tokenizer,
        "summary": translator.summary,
        "weights": weights(translator),
    }


def unpack(packed: dict) -> Translator:
    with torch.random.fork_rng(devices=[]):  # the weights are loaded: no other model's seeded build is disturbed
        model = Transformer(packed["config"])
    src, tgt = (Vocab(packed[side], packed["specials"]) for side in ("src", "tgt"))
    translator = Translator(model, src, tgt, packed["tokenizer"], packed["summary"])
    load_weights(translator, packed["weights"])
    return translator


def _model(spec: RunSpec) -> Translator:
    """The run's model in the child: built from its plan, or unpacked; a fine-tuning's, the model it goes on from,
    unpacked here (its weights crossed the pipe as bytes, _crossing): a copy that is the child's own to train."""
    plan = spec.translator
    if not isinstance(plan, TrainingPlan):
        return unpack(plan)
    if isinstance(plan.base, dict):
        return plan.start(unpack(plan.base))
    return plan.build()


def crossing(plan: TrainingPlan) -> TrainingPlan:
    """A plan as it crosses to a job's child: a fine-tuning's model packed (settings, vocabularies, weight bytes),
    never its torch objects pickled."""
    return replace(plan, base=pack(plan.base)) if isinstance(plan.base, Translator) else plan


def weights(translator: Translator) -> bytes:
    return save_tensors({k: v.detach().contiguous() for k, v in translator.model.saved_tensors().items()})


def load_weights(translator: Translator, data: bytes) -> None:
    translator.model.load_saved_tensors(load_tensors(data))


def _send(conn, message: tuple) -> None:
    conn.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))


def child_main(conn, specs: list[RunSpec], threads: int | None, niceness: int) -> None:
    """In the child: train the runs one epoch each in turn, send every record, the torch threads in use when they
    change, then the results, or why it failed; and what it is doing (the epoch it starts, then the evaluation), which
    is what a learner who pressed Stop waits for. When the server has gone, it ends quietly at its next message."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux, or not allowed: normal priority
        os.setpriority(os.PRIO_PROCESS, 0, niceness)  # page runs in the server go first
    # the fork server runs on torch's default threads (one per core); a training sets its own at its first epoch, but
    # a Stop before that would evaluate on the default, several times slower when other work shares the cores
    torch.set_num_threads(threads or 1)
    try:
        translators = [_model(spec) for spec in specs]
        befores = [  # a fine-tuning's model scored before it trains, on the pairs finish scores after
            s.translator.before(t) if isinstance(s.translator, TrainingPlan) and s.translator.fine_tuning else None
            for t, s in zip(translators, specs)
        ]
        configs = [dataclasses.replace(s.config, threads=threads or s.config.threads) for s in specs]
        golds = [
            s.gold if s.gold is not None else gold_sample(s.pairs, t.tokenizer) for t, s in zip(translators, specs)
        ]
        epochs = [
            (i, train(t, s.pairs, cfg, s.snapshot_every, s.snapshot_pairs, s.holdout or None, gold))
            for i, (t, s, cfg, gold) in enumerate(zip(translators, specs, configs, golds))
        ]
        one_thread, threads_sent, epoch, last = False, 0, 0, max(s.config.epochs for s in specs)
        while epochs:
            if conn.poll():
                if conn.recv_bytes() == STOP:
                    break
                one_thread = True
            epoch += 1
            if epoch <= last:
                _send(conn, ("phase", "epoch", epoch))
            for i, iterator in list(epochs):
                record = next(iterator, None)  # the first one sets the training's threads
                if one_thread:
                    torch.set_num_threads(1)
                if torch.get_num_threads() != threads_sent:
                    threads_sent = torch.get_num_threads()
                    _send(conn, ("threads", threads_sent))
                if record is None:
                    epochs.remove((i, iterator))
                else:
                    _send(conn, ("epoch", i, record))
            if epochs and epochs[0][0] == 0 and may_stop(specs[0].until, epoch, translators[0], specs[0].pairs):
                for translator in translators:  # the baseline has learned: both end here, as many epochs each
                    ended_early(translator)
                break
        _send(conn, ("phase", "evaluating", min(epoch, last)))
        results = []
        for translator, spec, before in zip(translators, specs, befores):
            data = spec.translator.data if isinstance(spec.translator, TrainingPlan) else None
            evaluations = evaluate_run(translator, spec.pairs, spec.holdout, data, spec.config.seed)
            results.append(RunResult(pack(translator), evaluations, before))
        _send(conn, ("done", results))
    except SERVER_GONE:  # stopped or killed while this process trained: there is no one to tell, and no traceback
        pass  # for the server's log (this process writes to its terminal)
    except Exception as exc:  # the server shows it on the tab; the tab keeps its current model
        with contextlib.suppress(*SERVER_GONE):
            _send(conn, ("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


class TrainingFailed(RuntimeError):
    """The training raised (the message names the error), or its process ended without a word (killed, out of
    memory)."""


def _ended(process) -> TrainingFailed:
    """The failure of a training process that ended without a word, saying how it ended (once it has)."""
    process.join(timeout=5)  # its pipe closes a moment before its exit status is known
    code = process.exitcode
    if code is not None and code < 0:
        how = f"stopped by the signal {signal.Signals(-code).name}"  # SIGKILL: often the system out of memory
    else:
        how = f"exit code {code}"
    return TrainingFailed(f"the training process ended unexpectedly ({how})")


def train_in_child(
    specs: Sequence[RunSpec],
    threads: int | None,
    niceness: int,
    on_record: Callable[[int, EpochRecord], None],
    stop: Callable[[], bool],
    cancelled: Callable[[], bool],
    on_start: Callable[[int], None] = lambda pid: None,
    shared: Callable[[], bool] = lambda: False,
    on_threads: Callable[[int], None] = lambda n: None,
    on_phase: Callable[[str, int], None] = lambda name, epoch: None,
) -> list[RunResult] | None:
    """Train specs in a new child process and wait for it: on_start(its pid), then on_phase("epoch", n) as epoch n
    starts, on_record(run index, record) after every epoch, on_threads(n) when the child's torch threads change, and
    on_phase("evaluating", n) when training is over; when stop() turns true the child ends after its epoch and sends
    what it has; when shared() does, the child goes down to one thread; when cancelled() does, the child is killed
    and None is returned. Raises TrainingFailed when the training failed."""
    parent, child = _CONTEXT.Pipe()
    process = _CONTEXT.Process(target=child_main, args=(child, list(specs), threads, niceness), daemon=True)
    process.start()
    child.close()
    on_start(process.pid)
    stop_sent = one_thread_sent = False
    try:
        while True:
            if cancelled():
                return None
            if stop() and not stop_sent:
                parent.send_bytes(STOP)
                stop_sent = True
            if shared() and not one_thread_sent:
                parent.send_bytes(ONE_THREAD)
                one_thread_sent = True
            if not parent.poll(POLL_SECONDS):
                if not process.is_alive() and not parent.poll():
                    raise _ended(process)
                continue
            try:
                message: Any = pickle.loads(parent.recv_bytes())
            except EOFError as exc:
                raise _ended(process) from exc
            if message[0] == "epoch":
                on_record(message[1], message[2])
            elif message[0] == "threads":
                on_threads(message[1])
            elif message[0] == "phase":
                on_phase(message[1], message[2])
            elif message[0] == "done":
                return message[1]
            else:
                raise TrainingFailed(message[1])
    finally:
        if process.is_alive():
            process.kill()
        process.join(timeout=5)
        parent.close()
