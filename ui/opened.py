"""The Train page's field that opens a real translator: a Marian (opus-mt) folder on the server or hf:NAME, held once
per server process and shared read-only by the tabs that open it (ui.model_cache.opened_model)."""

from __future__ import annotations

import streamlit as st

from transformer.errors import TransformerError
from transformer.opening import is_marian_spec
from transformer.text import markdown

from .i18n import t
from .model_cache import opened_model
from .session import current, set_model

MAX_SPEC_CHARS = 500  # a folder's path or hf:ORG/NAME


def open_field(L: str) -> None:
    """A text field and an Open button; the model opened becomes the tab's, or the one-line reason it was not."""
    with st.form("open_marian", border=False, enter_to_submit=True):
        spec = st.text_input(
            t("ckpt.open", L),
            key="open_spec",
            max_chars=MAX_SPEC_CHARS,
            placeholder="hf:ORG/NAME",
            persist_state="session",
        )
        pressed = st.form_submit_button(t("ckpt.open_button", L))
    if not pressed or not spec.strip():
        return
    ss, name = st.session_state, markdown(spec.strip())
    if not is_marian_spec(spec.strip()):
        ss.ckpt_message = ("error", t("ckpt.rejected", L, name=name, reason=t("ckpt.not_marian", L)), current().id)
        st.rerun()
    try:
        with st.spinner(t("ckpt.opening", L, name=name)):
            model = opened_model(spec)
    except TransformerError as exc:
        ss.ckpt_message = ("error", t("ckpt.rejected", L, name=name, reason=markdown(str(exc))), current().id)
    else:
        set_model(model)
        ss.ckpt_message = ("success", t("ckpt.opened", L, name=name), model.id)
    st.rerun()
