"""The sidebar every page shares: the language switch, the current model at a glance, and this tab's job."""

import streamlit as st

from transformer.text import markdown

from .i18n import LANGUAGES, t
from .jobs import REFRESH_SECONDS, job_queue
from .published import back_button, origin
from .state import current, lang
from .training import current_job, show_pending_toast, take_result


def draw_sidebar() -> None:
    """Language switch, a summary of the current model, and the live state of this tab's job."""
    show_pending_toast()
    with st.sidebar:
        st.radio("🌐", options=list(LANGUAGES), format_func=LANGUAGES.get, key="lang", horizontal=True)
        L = lang()
        model = current()
        translator, summary = model.translator, model.translator.summary
        st.subheader(t("sidebar.model", L))
        source = markdown(origin(L, model))
        st.markdown(
            "\n".join(
                f"- {line}"
                for line in (
                    t("sidebar.source", L, source=source),
                    t("sidebar.params", L, n=f"{translator.model.num_parameters():,}"),
                    t("sidebar.vocab", L, src=len(translator.src_vocab), tgt=len(translator.tgt_vocab)),
                    t("sidebar.epochs", L, n=summary.get("epochs", 0)),
                    t("sidebar.loss", L, loss=f"{summary['loss']:.4f}" if "loss" in summary else "–"),
                )
            )
        )
        back_button(L)
        running, waiting = job_queue().busy()
        if running or waiting:
            st.caption(t("sidebar.server", L, running=running, waiting=waiting))
        job = current_job()
        st.fragment(job_status, run_every=REFRESH_SECONDS if job else None)()


def job_status() -> None:
    """Queued (with its place), training (epoch n/N, loss) with Stop; a finished job's result is taken at once."""
    job = current_job()
    if job is None:
        return
    if job.finished:
        take_result(job)
        st.rerun()  # the whole page: it shows the new model from now on
    L = lang()
    queue = job_queue()
    st.subheader(t(f"job.title.{job.kind}", L))
    if job.state == "queued":
        running, waiting = queue.busy()
        st.info(t("job.queued", L, place=queue.position(job), running=running))
    else:
        for run in job.runs:
            last = run.last
            label = t(f"job.run.{run.name}", L) if len(job.runs) > 1 else ""
            text = (
                t("job.waiting", L)
                if last is None
                else t("job.progress", L, epoch=last.epoch, epochs=run.config.epochs, loss=f"{last.loss:.4f}")
            )
            st.progress(len(run.records) / run.config.epochs, text=f"{label}{text}")
    if job.stop_requested:
        st.caption(t("job.stopping", L))
    else:
        st.button(t("train.stop", L), key="job_stop", on_click=queue.stop, args=(job,), width="stretch")
