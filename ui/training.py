"""This tab's training jobs: start one (a training, the bundled model's replay), and take its result when it ends; and
the server's one job queue (jobs.queue, which never imports Streamlit)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import streamlit as st

from jobs.queue import Job, JobQueue, Run, training_slots
from transformer import TrainConfig
from transformer.alignment import spread
from transformer.lab import Until
from transformer.plan import TrainingPlan
from transformer.splits import Split
from transformer.text import markdown
from transformer.train import SNAPSHOT_PAIRS
from transformer.words import GOLD_TOKENIZER

from .compat import server_running, session_alive, session_id
from .data_columns import data_credit
from .datasets import bundled_pairs
from .gold import FileGold, file_gold
from .i18n import t
from .model_cache import CurrentModel, bundled_training
from .session import current, lang, set_model

JOB_TITLES = {"train": "job.title.train", "replay": "job.title.replay", "lab": "job.title.lab"}  # by Job.kind
RUN_LABELS = {"baseline": "job.run.baseline", "variant": "job.run.variant"}  # by Run.name, when a job has two
JOB_ENDS = {  # (Job.state, Job.kind) → the toast when a job ends
    ("done", "train"): "job.done.train",
    ("stopped", "train"): "job.stopped.train",
    ("done", "replay"): "job.done.replay",
    ("stopped", "replay"): "job.stopped.replay",
    ("done", "lab"): "job.done.lab",
    ("stopped", "lab"): "job.stopped.lab",
}

SNAPSHOTS = 20  # attention snapshots recorded over a training (plus the first and last epoch)
# how often a queued or running job's progress redraws itself: each redraw costs the tab's browser about 0.05 s
# of CPU and a redrawn chart 0.1 s more, which on a shared machine the trainings pay (docs/performance.md)
REFRESH_SECONDS = 1.0
SERVER_REFRESH_SECONDS = 5.0  # how often a tab with no job of its own redraws the server's counts while others train
LIVE_CHART = {"staticPlot": True}  # a chart redrawn every second: no hover layers or mode bar to rebuild


@st.cache_resource
def job_queue() -> JobQueue:
    """The server's one job queue (shared by every tab; each job holds only its own tab's models). A tab that has gone
    has its job cancelled; the fork server of the training processes starts at once in a running server, not under
    AppTest, where a test process would pay for an import it never uses."""
    return JobQueue(training_slots(), session_alive, warm=server_running())


def current_job() -> Job | None:
    """This tab's job, running or finished but not yet taken."""
    ss = st.session_state
    handed = job_queue().handed(session_id())
    if handed is not None:  # submitted by a callback that a rerun cut short before it could store the job (_submit)
        ss.job = handed
        job_queue().stored(handed)
    return ss.get("job")


def snapshot_rows(n: int) -> list[int]:
    """Up to SNAPSHOT_PAIRS pair indexes spread over n pairs, the first one included."""
    if n <= SNAPSHOT_PAIRS:
        return list(range(n))
    return sorted({round(i * (n - 1) / (SNAPSHOT_PAIRS - 1)) for i in range(SNAPSHOT_PAIRS)})


def _check_free() -> None:
    """First of a start_*: a tab keeps to one job."""
    if current_job() is not None:
        raise RuntimeError("this tab already has a job: stop it or wait for it first")


def _submit(job: Job) -> Job:
    """Queue job as this tab's. Called from a button's callback, where any use of session state is a point at which
    a newer rerun (the learner already on another page) stops the callback: from queue.submit on, the job is the
    tab's all the same (current_job finds it)."""
    queue = job_queue()
    queue.submit(job)
    st.session_state.job = job
    queue.stored(job)
    return job


def file_training_gold(found: FileGold | None, plan: TrainingPlan) -> list | None:
    """The gold a training on a loaded file measures its alignment on: the file's links of the plan's training pairs
    (links of words, read at the word level whatever the tokenizer: transformer.words), spread as the corpus's are
    (transformer.alignment.spread); None without a file's alignment column, when the training's process looks for
    the corpus's own."""
    if found is None:
        return None
    return spread([(pair, found.golds[pair]) for pair in plan.train_pairs if pair in found.golds])


def _gold_of(plan: TrainingPlan) -> list | None:
    """file_training_gold of the tab's loaded file, its links of words."""
    return file_training_gold(file_gold(GOLD_TOKENIZER), plan)


def start_training(
    pairs: list[tuple[str, str]],
    tokenizer: str,
    sizes: dict,
    cfg: TrainConfig,
    split: Split | None,
    holdout: float,
    also: list[tuple[str, str]] = (),
    dataset: list[tuple[str, str]] | None = None,
) -> Job:
    """Queue a training of a new model on pairs, then on also (ui.datasets.split_source), as this tab's job, holding out
    the split's rows of pairs (that fraction of them; split None: none); dataset is the table (default: pairs)."""
    _check_free()
    plan = TrainingPlan.from_split(pairs, split, holdout, tokenizer, sizes, cfg, also)  # the job builds the model
    credited, credits = data_credit(dataset or pairs)
    if credited:  # a file's attribution, which its licence asks to keep (CC-BY: the authors, each row's)
        plan = replace(plan, data=replace(plan.data, data_credit=credited, credits=credits))
    every = max(1, cfg.epochs // SNAPSHOTS)
    run = Run("model", plan, plan.train_pairs, cfg, plan.held_pairs, every, snapshot_rows(len(plan.train_pairs)))
    run.gold = _gold_of(plan)
    table = pairs if dataset is None else dataset
    return _submit(Job("train", session_id(), [run], payload={"dataset": tuple(table)}))


def start_finetune(plan: TrainingPlan, name: str, dataset: list[tuple[str, str]]) -> Job:
    """Queue a fine-tuning (TrainingPlan.continuing of the current model) as this tab's job: the job's process gets
    the model as weight bytes (jobs.worker.crossing) and trains its own copy, the shared one is never changed; name
    is what the result is called, dataset the table it trained on."""
    _check_free()
    if credited := data_credit(dataset):
        plan = replace(plan, data=replace(plan.data, data_credit=credited))
    cfg = plan.config
    every = max(1, cfg.epochs // SNAPSHOTS)
    run = Run("model", plan, plan.train_pairs, cfg, plan.held_pairs, every, snapshot_rows(len(plan.train_pairs)))
    run.gold = _gold_of(plan)
    return _submit(Job("train", session_id(), [run], payload={"dataset": tuple(dataset), "name": name}))


def start_replay() -> Job:
    """Queue a replay of the bundled model's training (same data, settings and seed), recording attention snapshots.

    Training is deterministic for a seed, so the replay rebuilds the bundled model and shows how its attention formed.
    """
    _check_free()
    bundled = current().translator
    cfg = bundled.summary.train_config
    sizes = {k: v for k, v in bundled.config.to_dict().items() if not k.endswith("vocab_size")}
    pairs, held = bundled_training()
    plan = TrainingPlan(pairs, held, bundled.tokenizer, sizes, cfg, bundled.summary.data)  # as its checkpoint has it
    run = Run("model", plan, pairs, cfg, held, max(1, cfg.epochs // SNAPSHOTS), snapshot_rows(len(pairs)))
    return _submit(Job("replay", session_id(), [run]))


def _take_training(job: Job) -> None:
    run = job.runs[0]
    summary = run.translator.summary  # written by the job (transformer.plan.finish)
    snapshot_pairs = [run.pairs[i] for i in run.snapshot_pairs]
    source = "bundled" if job.kind == "replay" else "trained"
    # the replay's dataset is the bundled model's (as ui.model_cache.bundled_model)
    dataset = tuple(bundled_pairs()) if job.kind == "replay" else job.payload["dataset"]
    name = job.payload.get("name", "")  # a fine-tuning's: the model it went on from, trained further
    set_model(CurrentModel(run.translator, source, run.snapshots, snapshot_pairs, run.evaluations, dataset, name))
    st.session_state.last_training = {
        "kind": job.kind,
        "stopped": job.state == "stopped",
        "epochs": summary.epochs,
        "seconds": summary.seconds,
        "before": run.before,  # a fine-tuning's scores before it (TrainingPlan.before), else None
    }


@dataclass
class LabResult:
    """A finished lab experiment: the baseline and the variant (each a model the tab can make current), the pairs
    they trained on and those held out, and whether the job was stopped before the end."""

    experiment: str  # a ready-made experiment's name (transformer.lab.EXPERIMENTS), or "custom"
    baseline: CurrentModel
    variant: CurrentModel
    train_pairs: list[tuple[str, str]]
    held_pairs: list[tuple[str, str]]
    stopped: bool = False
    until: Until | None = None  # how long it trained: until the baseline had learned (transformer.lab.Until)


def start_lab(
    experiment: str,
    pairs: list[tuple[str, str]],
    switches: dict,
    sizes: dict,
    cfg: TrainConfig,
    tokenizer: str,
    holdout_rows: list[int],
    configs: tuple[TrainConfig, TrainConfig] | None = None,
) -> Job:
    """Queue a lab experiment as this tab's job: the standard model and the variant, trained side by side (each with
    its own settings when configs, (baseline's, variant's), are given: an experiment on the training itself) for
    cfg.epochs, and on until the baseline has learned (transformer.lab.Until.of)."""
    _check_free()
    until = Until.of(cfg.epochs)
    plan = TrainingPlan.from_rows(pairs, holdout_rows, tokenizer, sizes, cfg)  # the job builds the two models
    every = max(1, cfg.epochs // SNAPSHOTS)
    snap = snapshot_rows(len(plan.train_pairs))
    both = [replace(c, epochs=until.last) for c in configs or (cfg, cfg)]  # the job ends when the baseline learned
    gold = _gold_of(plan)
    runs = [
        Run(
            name,
            replace(plan, sizes=s, config=c),
            plan.train_pairs,
            c,
            plan.held_pairs,
            every,
            snap,
            until=u,
            gold=gold,
        )
        for name, s, c, u in (("baseline", sizes, both[0], until), ("variant", {**sizes, **switches}, both[1], None))
    ]
    return _submit(Job("lab", session_id(), runs, payload={"experiment": experiment, "until": until}))


def run_goal(job: Job, run: Run) -> int:
    """The epochs a run's progress counts to: its settings' epochs, or in a Lab job that trains until its baseline
    has learned, the epoch of the next stopping test (Until.goal)."""
    until = job.payload.get("until")
    return run.config.epochs if until is None else until.goal(len(run.records))


def _take_lab(job: Job) -> None:
    models = []
    for run in job.runs:
        label = f"{job.payload['experiment']}: {run.name}"
        snapshot_pairs = [run.pairs[i] for i in run.snapshot_pairs]
        models.append(
            CurrentModel(
                run.translator, "trained", run.snapshots, snapshot_pairs, run.evaluations, tuple(run.pairs), label
            )
        )
    baseline, variant = models
    stopped = job.state == "stopped"
    first = job.runs[0]
    experiment, until = job.payload["experiment"], job.payload.get("until")
    st.session_state.lab = LabResult(experiment, baseline, variant, first.pairs, first.holdout, stopped, until)


# what taking a finished job means, by kind
TAKERS: dict[str, Callable[[Job], None]] = {"train": _take_training, "replay": _take_training, "lab": _take_lab}


def take_result(job: Job) -> None:
    """Once, in this tab: make a finished job's result current and say so with a toast."""
    if job.collected:
        return
    job.collected = True
    st.session_state.job = None
    L = lang()
    if job.state == "failed":
        st.session_state.last_training = {"kind": job.kind, "failed": job.error}
        st.session_state.pending_toast = (t("job.failed", L, error=markdown(job.error)), ":material/error:")
    elif job.state in ("done", "stopped"):
        TAKERS[job.kind](job)
        epochs = max((r.last.epoch for r in job.runs if r.last), default=0)
        message = t(JOB_ENDS[job.state, job.kind], L, epochs=epochs)
        icon = ":material/check_circle:" if job.state == "done" else ":material/stop_circle:"
        st.session_state.pending_toast = (message, icon)


def live_job(kind: str, L: str) -> Job | None:
    """In a live fragment: this tab's running job of this kind, or None when there is nothing to redraw (no such job;
    one still queued, whose place in line is shown instead; a finished one, whose result is taken before a rerun)."""
    job = current_job()
    if job is None or job.kind != kind:
        return None
    if job.finished:
        take_result(job)
        st.rerun()
    if job.state == "queued":  # its place in line only: no empty charts to redraw every second
        st.info(t("job.queued", L, place=job_queue().position(job), running=job_queue().busy()[0]))
        return None
    return job


def live_fragment(kind: str):
    """Decorator: draw(job) as a fragment redrawn every REFRESH_SECONDS while this tab's job of this kind runs
    (live_job; the fragment keeps draw's name)."""

    def decorate(draw: Callable[[Job], None]) -> Callable[[], None]:
        @st.fragment(run_every=REFRESH_SECONDS)
        @functools.wraps(draw)
        def live() -> None:
            job = live_job(kind, lang())
            if job is not None:
                draw(job)

        return live

    return decorate


def phase_text(job: Job, L: str) -> str | None:
    """What a running job is doing when the learner waits on it: the epoch it finishes after Stop (how long it has
    taken, and how long an epoch takes), then the evaluation; None while it simply trains."""
    elapsed = f"{max(0.0, time.monotonic() - job.phase_since):.0f}"
    if job.phase == "evaluating":
        return t("job.stopping_evaluating" if job.stop_requested else "job.evaluating", L, elapsed=elapsed)
    if not job.stop_requested:
        return None
    if job.phase != "epoch":
        return t("job.stopping", L)
    seconds = job.epoch_seconds()
    if seconds is None:
        return t("job.stopping_first", L, epoch=job.phase_epoch)
    return t("job.stopping_epoch", L, epoch=job.phase_epoch, elapsed=elapsed, seconds=f"{max(seconds, 1):.0f}")


def show_pending_toast() -> None:
    """The toast of a job taken in the previous run (a toast sent just before a rerun would be lost)."""
    if st.session_state.get("pending_toast"):
        text, icon = st.session_state.pop("pending_toast")
        st.toast(text, icon=icon)
