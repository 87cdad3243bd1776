"""The sidebar every page shares: the language switch, the current model at a glance, and this tab's job."""

import streamlit as st

from transformer.text import markdown

from .i18n import LANGUAGES, t
from .one_chart import one_chart_switch
from .presenter import presenter_switch
from .published import back_button, origin
from .session import current, lang
from .training import (
    JOB_TITLES,
    REFRESH_SECONDS,
    RUN_LABELS,
    SERVER_REFRESH_SECONDS,
    current_job,
    job_queue,
    phase_text,
    run_goal,
    show_pending_toast,
    take_result,
)
from .widgets import model_size


def draw_sidebar() -> None:
    """Language switch, a summary of the current model, and the live state of this tab's job."""
    show_pending_toast()
    with st.sidebar:
        # a text label in both languages, so a learner finds it whichever language is showing
        label = t("sidebar.language", lang())
        st.radio(
            label,
            options=list(LANGUAGES),
            format_func=LANGUAGES.get,
            key="lang",
            persist_state="session",
            on_change=_retell_choices,
            horizontal=True,
        )
        L = lang()
        presenter_switch(L)  # larger text and charts for a projector (ui.presenter)
        one_chart_switch(L)  # and in it, the page's charts one at a time (ui.one_chart)
        model = current()
        translator, summary = model.translator, model.translator.summary
        st.subheader(t("sidebar.model", L))
        source = markdown(origin(L, model))
        size = model_size(translator.model.config)  # as the Train page gives them for the model it would train
        st.markdown(
            "\n".join(
                f"- {line}"
                for line in (
                    t("sidebar.source", L, source=source),
                    t("sidebar.params", L, n=size["n"]),
                    t("sidebar.vocab", L, src=size["src"], tgt=size["tgt"]),
                    t("sidebar.epochs", L, n=summary.epochs),
                    t("sidebar.loss", L, loss="–" if summary.loss is None else f"{summary.loss:.4f}"),
                )
            )
        )
        # the back button's place is held while it is not drawn (an empty placeholder takes no room), so that the job
        # status after it keeps its fragment id from run to run: a Stop clicked under the id of the run before (the
        # browser's) would otherwise be dropped by ui.compat's fragment-run filter after a run that drew the button
        with st.empty():
            back_button(L)
        # redrawn every second while this tab has a job, every few seconds while only others train
        refresh = REFRESH_SECONDS if current_job() else SERVER_REFRESH_SECONDS if any(job_queue().busy()) else None
        st.fragment(job_status, run_every=refresh)()


def _retell(value) -> bool:
    """Whether a kept value is one _retell_choices sets again: a choice or a typed value (a string, a number, or a
    list or tuple of them). Never a bool (a button's value cannot be set), an upload, or an editor's edits."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (str, int, float)):
        return True
    return isinstance(value, (list, tuple)) and all(_retell(v) for v in value)


def _retell_choices() -> None:
    """The language switch's callback: set every kept value again, so each widget's value is sent to the browser
    anew, in the new language.

    The browser keeps a radio's or a selectbox's choice as the text of its option ("is added to the table") and sends
    that text back with every rerun. After a language switch no option has that text any more: the choice shows as
    unchecked and, on the next rerun, falls back to the first option. A callback runs before the page, while the
    values are still read with the last run's (English) options, and a value set here is sent to the browser with
    the new options' text."""
    ss = st.session_state
    for key in list(ss.keys()):
        if key != "lang" and _retell(ss[key]):
            ss[key] = ss[key]


def job_status() -> None:
    """The server's trainings and waiting jobs; this tab's job: queued (with its place), training (epoch n/N, loss)
    with Stop, then what it does after Stop; a finished job's result is taken at once."""
    L = lang()
    queue = job_queue()
    running, waiting = queue.busy()
    if running or waiting:
        st.caption(t("sidebar.server", L, running=running, waiting=waiting))
    job = current_job()
    if job is None:
        return
    if job.finished:
        take_result(job)
        st.rerun()  # the whole page: it shows the new model from now on
    st.subheader(t(JOB_TITLES[job.kind], L))
    if job.state == "queued":
        running, waiting = queue.busy()
        st.info(t("job.queued", L, place=queue.position(job), running=running))
    else:
        for run in job.runs:
            last = run.last
            label = t(RUN_LABELS[run.name], L) if len(job.runs) > 1 else ""
            text = (
                t("job.waiting", L)
                if last is None
                else t("job.progress", L, epoch=last.epoch, epochs=run_goal(job, run), loss=f"{last.loss:.4f}")
            )
            st.progress(len(run.records) / run_goal(job, run), text=f"{label}{text}")
    phase = phase_text(job, L)
    if phase:
        st.caption(phase)
    if not job.stop_requested:
        st.button(t("train.stop", L), key="job_stop", on_click=queue.stop, args=(job,), width="stretch")
