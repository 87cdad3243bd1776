"""Background training jobs: at most TRAINING_SLOTS at once, in order, each watched by a thread of the server and
trained in a child process of its own (jobs.worker says why).

A page never trains inside its script run. It submits a Job (one per tab) and reads the job's state; the sidebar
shows it on every page and offers Stop. Each job owns its models: nothing trained here is shared between tabs.
A job whose tab has gone (closed or reloaded) for more than ORPHAN_SECONDS is cancelled.

This package never imports Streamlit: the server's one queue, and a tab's side of it, are in ui.training.
"""

from __future__ import annotations

import gc
import itertools
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from transformer import TrainConfig, Translator
from transformer.lab import Until
from transformer.model import AttentionMaps
from transformer.plan import Before, TrainingPlan
from transformer.train import EpochRecord

from .slots import ENV as SLOTS_ENV
from .slots import read_slots
from .worker import RunSpec, TrainingFailed, crossing, load_weights, pack, start_fork_server, train_in_child, unpack

log = logging.getLogger(__name__)

ORPHAN_SECONDS = 4.0  # a job whose tab has been disconnected this long is cancelled
NICENESS = 5  # training processes yield the CPU to page runs (Linux nice value)
_ids = itertools.count(1)
_slot_warnings: set[str] = set()  # each problem with PLAYGROUND_TRAINING_SLOTS is logged once


def training_slots() -> int:
    """How many jobs train at once: PLAYGROUND_TRAINING_SLOTS, else the number of cores; a bad value, or one above
    the cap of jobs.slots, is said once in the server's log (its terminal) and replaced."""
    cores = os.cpu_count() or 1
    slots, problem = read_slots(os.environ.get(SLOTS_ENV), cores, default=cores)
    if problem and problem not in _slot_warnings:
        _slot_warnings.add(problem)
        log.warning("%s; training at most %d at once.", problem, slots)
    return slots


@dataclass
class Run:
    """One training inside a job: what to train, and what it has done so far."""

    name: str  # "model", or "baseline" / "variant" in a lab experiment
    translator: Translator | TrainingPlan  # a plan becomes the trained Translator when the run ends
    pairs: list[tuple[str, str]]
    config: TrainConfig
    holdout: list[tuple[str, str]] = field(default_factory=list)
    snapshot_every: int = 0
    snapshot_pairs: list[int] = field(default_factory=list)
    records: list[EpochRecord] = field(default_factory=list)
    snapshots: list[tuple[int, AttentionMaps]] = field(default_factory=list)
    evaluations: dict = field(default_factory=dict)  # "train" / "holdout" → Translator.evaluate(...) when done
    until: Until | None = None  # a Lab baseline: the job trains until it has learned (transformer.lab.Until)
    before: Before | None = None  # a fine-tuning's scores before it, when it is done (TrainingPlan.before)
    gold: list | None = (
        None  # (pair, Gold) its epochs' AER is measured on; None: the corpus's own, found by its process
    )

    @property
    def last(self) -> EpochRecord | None:
        return self.records[-1] if self.records else None


@dataclass(eq=False)  # a job is itself, not its fields: it lives in sets and is found by identity
class Job:
    """One tab's training work: one run, or two trained side by side (a lab experiment), epoch by epoch."""

    kind: str  # "train", "replay" or "lab"
    owner: str  # the session id of the tab it belongs to
    runs: list[Run]
    state: str = "queued"  # queued → running → done | stopped | failed | cancelled
    error: str = ""
    id: int = field(default_factory=lambda: next(_ids))
    stop_requested: bool = False
    collected: bool = False  # the tab has taken the result
    payload: dict = field(default_factory=dict)  # what the tab needs to take the result (labels, settings, …)
    pid: int = 0  # the process that trains it, once started
    threads: int = 0  # the torch threads that process trains on, once known
    phase: str = ""  # what its process reports doing: "epoch" (training epoch phase_epoch) or "evaluating"
    phase_epoch: int = 0
    phase_since: float = 0.0  # time.monotonic() when the phase began

    @property
    def finished(self) -> bool:
        return self.state in ("done", "stopped", "failed", "cancelled")

    @property
    def epochs_done(self) -> int:
        return sum(len(r.records) for r in self.runs)

    @property
    def epochs_total(self) -> int:
        return sum(r.config.epochs for r in self.runs)

    def set_phase(self, name: str, epoch: int) -> None:
        self.phase, self.phase_epoch, self.phase_since = name, epoch, time.monotonic()

    def epoch_seconds(self) -> float | None:
        """About how long one epoch of every run takes, from the training's own clock; None before the first."""
        if not all(r.last for r in self.runs):
            return None
        return sum(r.last.seconds / r.last.epoch for r in self.runs)


def _warm_up() -> None:
    """Start the fork server of the training processes before anyone presses Train (it imports torch, 2–4 s); then
    move everything imported so far out of the garbage collector's way."""
    start_fork_server()
    gc.freeze()


class JobQueue:
    """First come, first served, at most `slots` jobs training at once, each in its own process. alive(owner) says
    whether a job's tab is still there (default: always); warm: start the training processes' fork server now (in a
    server that will train), not on the first job."""

    def __init__(self, slots: int, alive: Callable[[str], bool] = lambda owner: True, warm: bool = False):
        self.slots, self._alive = slots, alive
        self._lock = threading.Lock()
        self._waiting: deque[Job] = deque()
        self._running: set[Job] = set()
        self._gone_since: dict[str, float] = {}
        self._handed: dict[str, Job] = {}  # owner → the job submitted last, until its tab has stored it
        threading.Thread(target=self._watch, name="job-watchdog", daemon=True).start()
        if warm:
            threading.Thread(target=_warm_up, name="job-warm-up", daemon=True).start()

    def submit(self, job: Job) -> Job:
        """Queue job; it starts as soon as a slot is free (a tab keeps to one job: ui.training checks). The job is
        handed to its owner until the owner says it has stored it (stored)."""
        with self._lock:
            self._waiting.append(job)
            self._handed[job.owner] = job
            self._dispatch()
        return job

    def handed(self, owner: str) -> Job | None:
        """The job submitted for owner that owner has not yet stored, if any."""
        with self._lock:
            return self._handed.get(owner)

    def stored(self, job: Job) -> None:
        """The owner of job has it now."""
        with self._lock:
            if self._handed.get(job.owner) is job:
                del self._handed[job.owner]

    def position(self, job: Job) -> int:
        """1 for the next job to start, 2 for the one after it, …; 0 when job is not waiting."""
        with self._lock:
            return next((i for i, j in enumerate(self._waiting, start=1) if j is job), 0)

    def stop(self, job: Job) -> None:
        """Stop after the current epoch (the models trained so far are kept); a waiting job is simply dropped."""
        with self._lock:
            job.stop_requested = True
            if job in self._waiting:
                self._waiting.remove(job)
                job.state = "stopped"

    def busy(self) -> tuple[int, int]:
        """(jobs training, jobs waiting) on this server."""
        with self._lock:
            return len(self._running), len(self._waiting)

    def _dispatch(self) -> None:  # with the lock held
        while self._waiting and len(self._running) < self.slots:
            job = self._waiting.popleft()
            job.state = "running"
            self._running.add(job)
            threads = None if len(self._running) == 1 else 1  # a job alone may use more threads, if it helps
            threading.Thread(target=self._work, args=(job, threads), name=f"job-{job.id}", daemon=True).start()

    def _work(self, job: Job, threads: int | None) -> None:
        """Train the job in a child process (jobs.worker) and keep its runs up to date from what the child sends."""
        specs = [
            RunSpec(
                crossing(r.translator) if isinstance(r.translator, TrainingPlan) else pack(r.translator),
                *(r.pairs, r.config, r.holdout, r.snapshot_every, r.snapshot_pairs, r.until),
                gold=r.gold,
            )
            for r in job.runs
        ]

        def on_record(index: int, record: EpochRecord) -> None:
            run = job.runs[index]
            run.records.append(record)
            if record.snapshot is not None:
                run.snapshots.append((record.epoch, record.snapshot))

        try:
            results = train_in_child(
                specs,
                threads,
                NICENESS,
                on_record,
                stop=lambda: job.stop_requested,
                cancelled=lambda: job.state == "cancelled",
                on_start=lambda pid: setattr(job, "pid", pid),
                shared=lambda: len(self._running) > 1,
                on_threads=lambda n: setattr(job, "threads", n),
                on_phase=job.set_phase,
            )
            if results is not None and job.state == "running":
                for run, result in zip(job.runs, results):
                    if isinstance(run.translator, TrainingPlan):
                        run.translator = unpack(result.model)
                    else:
                        load_weights(run.translator, result.weights)
                        run.translator.summary = result.summary
                    run.evaluations.update(result.evaluations)
                    run.before = result.before
                job.state = "stopped" if job.stop_requested else "done"
        except Exception as exc:  # a bug, not bad input: the tab shows it and keeps its current model
            log.exception("job %s failed", job.id)
            job.error = str(exc) if isinstance(exc, TrainingFailed) else f"{type(exc).__name__}: {exc}"
            job.state = "failed"
        finally:
            with self._lock:
                self._running.discard(job)
                self._dispatch()

    def _watch(self) -> None:
        """Cancel the jobs of tabs that have gone away."""
        while True:
            time.sleep(0.5)
            with self._lock:
                jobs = [*self._waiting, *self._running]
            now = time.monotonic()
            for job in jobs:
                if self._alive(job.owner):
                    self._gone_since.pop(job.owner, None)
                elif now - self._gone_since.setdefault(job.owner, now) > ORPHAN_SECONDS:
                    with self._lock:
                        if job in self._waiting:
                            self._waiting.remove(job)
                        job.state = "cancelled"  # a running job ends at its next epoch
                        if self._handed.get(job.owner) is job:
                            del self._handed[job.owner]
                    self._gone_since.pop(job.owner, None)
                    log.info("job %s cancelled: its tab has gone", job.id)
