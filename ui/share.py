"""The sidebar's Share and export block: a link to this view (ui.links), Publish this model (ui.published), the image
format of chart downloads, and the page's lesson sheet (ui.export)."""

from __future__ import annotations

import streamlit as st

from transformer.store import Entry

from .credits import credit_lines
from .export import IMAGE_FORMATS, lesson_sheet_button
from .i18n import t
from .links import link_to_this_view, model_fingerprint
from .model_cache import CurrentModel
from .published import origin, publish_section, published_entry
from .session import current, lang
from .view_state import choose_one


def share_sidebar() -> None:
    """In app.py, after the page and settle_view: Share and export in the sidebar, with the link to the view."""
    with st.sidebar:
        share_and_export(lang(), current())


def share_and_export(L: str, model: CurrentModel) -> None:
    """A link to this view, Publish this model, the image format of chart downloads, and the page's lesson sheet."""
    entry, problem = published_entry(model)
    with st.expander(t("export.title", L), icon=":material/share:"):
        with st.popover(t("link.copy", L), icon=":material/link:", width="stretch"):
            st.caption(t("link.copy_help", L) + " " + t("link.carries_model" if entry else "link.lacks_model", L))
            st.code(link_to_this_view(), language=None, wrap_lines=True)
        publish_section(L, model, entry, problem)
        choose_one(
            st.radio,
            t("export.format", L),
            IMAGE_FORMATS,
            key="chart_format",
            default="png",
            horizontal=True,
            format_func=str.upper,
            help=t("export.format_help", L),
        )
        summary = model_summary(L, model, entry)
        lesson_sheet_button(summary)


def model_summary(L: str, model: CurrentModel, entry: Entry | None = None) -> list[str]:
    """The current model in a few plain lines (for the lesson sheet); a published one (entry) by its published name."""
    translator, summary = model.translator, model.translator.summary
    variant = ", ".join(f"{k}={v}" for k, v in translator.config.variant.items()) or t("export.paper", L)
    cfg = translator.config
    return [
        t("sidebar.source", L, source=origin(L, model, entry)),
        t("sidebar.params", L, n=f"{translator.model.num_parameters():,}"),
        f"d_model {cfg.d_model} · d_ff {cfg.d_ff} · n_heads {cfg.n_heads} · n_layers {cfg.n_layers} · {variant}",
        t("sidebar.vocab", L, src=len(translator.src_vocab), tgt=len(translator.tgt_vocab)),
        t("sidebar.epochs", L, n=summary.epochs),
        t("sidebar.loss", L, loss="–" if summary.loss is None else f"{summary.loss:.4f}"),
        t("export.fingerprint", L, hash=model_fingerprint(model)),
        *credit_lines(L, summary.data),  # its licence, and its authors whole (CC-BY)
    ]
