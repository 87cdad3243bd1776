"""The sidebar every page shares: the current model at a glance and the language switch."""

import streamlit as st

from .i18n import LANGUAGES, t
from .state import current, lang


def draw_sidebar() -> None:
    """Language switch and a summary of the current model."""
    with st.sidebar:
        st.radio("🌐", options=list(LANGUAGES), format_func=LANGUAGES.get, key="lang", horizontal=True)
        L = lang()
        model = current()
        translator, summary = model.translator, model.translator.summary
        st.subheader(t("sidebar.model", L))
        st.markdown(
            "\n".join(
                f"- {line}"
                for line in (
                    t("sidebar.source", L, source=t(f"source.{model.source}", L)),
                    t("sidebar.params", L, n=f"{translator.model.num_parameters():,}"),
                    t("sidebar.vocab", L, src=len(translator.src_vocab), tgt=len(translator.tgt_vocab)),
                    t("sidebar.epochs", L, n=summary.get("epochs", 0)),
                    t("sidebar.loss", L, loss=f"{summary['loss']:.4f}" if "loss" in summary else "–"),
                )
            )
        )
