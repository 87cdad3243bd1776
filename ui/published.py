"""Published models in the app: the Publish button, the model a link names opened from the server's model store, and
the way back to the learner's own model. The store itself (files, quota, checks) is transformer.store.

Session state owned here: `_link_store` (what became of the link's model: opened, missing, refused or a bad hash),
`own_model` (the learner's model that a link's model replaced) and `publish_message` (the last Publish's outcome).
"""

from __future__ import annotations

import streamlit as st

from transformer import Translator
from transformer.errors import StoreError
from transformer.store import Entry, ModelStore, same_model
from transformer.text import markdown

from .i18n import t
from .messages import error_text
from .model_cache import CurrentModel, shared_translator
from .session import current, lang, set_model

SOURCES = {  # CurrentModel.source → its words (a published model's date and name: origin)
    "bundled": "source.bundled",
    "trained": "source.trained",
    "uploaded": "source.uploaded",
    "published": "source.published",
    "opened": "source.opened",
}


def model_store() -> ModelStore:
    """The store the server's environment names (PLAYGROUND_MODEL_STORE…); StoreError when a limit is malformed."""
    return ModelStore.from_env()


def origin(L: str, model: CurrentModel, entry: Entry | None = None) -> str:
    """Where the current model came from, as text: "uploaded (mine.safetensors)", "published 2026-11-25, lesson 3";
    a model the store holds (entry: published from this tab, or opened by a link) by its published date and name."""
    if entry is not None:
        key = "source.published_named" if entry.name else "source.published"
        return t(key, L, date=entry.published_date or model.published or "?", name=entry.name)
    if model.source == "published":
        key = "source.published_named" if model.name else "source.published"
        return t(key, L, date=model.published or "?", name=model.name)
    return t(SOURCES[model.source], L) + (f" ({model.name})" if model.name else "")


# ---------------------------------------------------------------- a link's model


def open_link_model(link_hash: str) -> None:
    """On a tab's first run: when the link names a model other than the tab's, open it from the store and make it the
    current model (keeping a model of the learner's own to go back to); else remember why not, for the page to say."""
    ss = st.session_state
    model = current()
    if same_model(link_hash, model.fingerprint):
        return
    try:
        found = _open_shared(link_hash)
    except StoreError as exc:
        ss._link_store = {"state": "refused", "error": exc}
        return
    if found is None:
        ss._link_store = {"state": "missing"}
        return
    translator, entry = found
    opened = CurrentModel(translator, "published", name=entry.name, published=entry.published_date)
    if model.source != "bundled":  # the learner's own (trained, uploaded or opened before): kept to go back to
        ss.own_model = model
    set_model(opened)
    ss._link_store = {"state": "opened", "model_id": opened.id, "hash": entry.hash, "page": None}


def _open_shared(link_hash: str) -> tuple[Translator, Entry] | None:
    """The published model a link names, as the process's one read-only copy every tab that opens it shares, and its
    entry; None when the store does not hold it (StoreError as ModelStore.open)."""
    store = model_store()
    entry = store.find(link_hash)
    if entry is None:
        return None
    opened: list[Entry] = []

    def load() -> Translator | None:
        found = store.open(entry.hash)
        if found is None:
            return None
        opened.append(found[1])
        return found[0]

    translator = shared_translator(("published", str(store.folder), entry.hash), load)
    return None if translator is None else (translator, opened[0] if opened else entry)


def bad_link_model(text: str) -> None:
    """The link's model value is not a fingerprint: nothing is looked up, and the page says so."""
    st.session_state._link_store = {"state": "bad", "text": text[:60]}


def link_model_notice(page: str, first: bool) -> str | None:
    """On a page with a link's view: say that the link's model was opened (on the page the link led to, while it is
    the current model). Returns the bad-hash notice for the link's replaced-values box on the first run, else None."""
    ss, L = st.session_state, lang()
    status = ss.get("_link_store") or {}
    if status.get("state") == "bad":
        return f"model={markdown(status['text'])} → {t('link.this_model', L)}" if first else None
    if status.get("state") == "opened" and current().id == status["model_id"]:
        if status["page"] is None:
            status["page"] = page
        if status["page"] == page:
            text = t("link.opened_model", L, hash=status["hash"], model=markdown(origin(L, current())))
            own = ss.get("own_model")
            if own is not None:
                text += " " + t("link.own_model_kept", L, name=markdown(origin(L, own)))
            st.info(text, icon=":material/cloud_download:")
    return None


def link_store_text(L: str) -> str:
    """Why the link's model is not the tab's, when the store was asked: a sentence before the other-model warning."""
    status = st.session_state.get("_link_store") or {}
    if status.get("state") == "missing":
        return t("link.store_missing", L) + " "
    if status.get("state") == "refused":
        return t("link.store_refused", L, reason=markdown(error_text(status["error"], L))) + " "
    return ""


def back_button(L: str) -> None:
    """In the sidebar, while a link's model replaced one of the learner's own: a button that brings theirs back."""
    ss = st.session_state
    status, own = ss.get("_link_store") or {}, ss.get("own_model")
    if own is None or status.get("state") != "opened" or current().id != status["model_id"]:
        return
    st.button(
        t("store.back", L, name=markdown(origin(L, own))),
        key="back_to_own_model",
        icon=":material/undo:",
        on_click=_go_back,
        width="stretch",
    )


def _go_back() -> None:
    ss = st.session_state
    set_model(ss.pop("own_model"))


# ---------------------------------------------------------------- publishing


def published_entry(model: CurrentModel) -> tuple[Entry | None, str | None]:
    """The store's entry of the model (None when it is not published) and why the store cannot be asked, if so."""
    try:
        return model_store().find(model.fingerprint), None
    except StoreError as exc:
        return None, error_text(exc, lang())


def publish_section(L: str, model: CurrentModel, entry: Entry | None, problem: str | None) -> None:
    """Publish this model (with an optional name), or "Published · HASH" once it is in the store; the outcome."""
    ss = st.session_state
    if entry is not None:
        st.button(
            t("store.published", L, hash=entry.hash),
            key="publish_done",
            icon=":material/cloud_done:",
            disabled=True,
            width="stretch",
            help=t("store.published_help", L, date=entry.published_date or "?"),
        )
    else:
        if ss.get("publish_name_for") != model.id:  # a name typed for another model never labels this one
            ss.publish_name, ss.publish_name_for = "", model.id
        st.text_input(
            t("store.name", L),
            key="publish_name",
            persist_state="session",
            max_chars=80,
            placeholder=model.name,
            help=t("store.name_help", L),
        )
        st.button(
            t("store.publish", L),
            key="publish",
            icon=":material/cloud_upload:",
            on_click=_publish,
            args=(model,),
            disabled=problem is not None,
            width="stretch",
            help=t("store.publish_help", L),
        )
    if problem is not None:
        st.error(markdown(problem))
    message = ss.get("publish_message")
    if message and message[2] == model.id:
        kind, text, _ = message
        (st.error if kind == "error" else st.success)(text)


def _publish(model: CurrentModel) -> None:
    ss, L = st.session_state, lang()
    name = " ".join(str(ss.get("publish_name") or "").split()) or model.name
    try:
        entry, new = model_store().publish(model.translator, name)
    except StoreError as exc:
        ss.publish_message = ("error", markdown(error_text(exc, L)), model.id)
    else:
        ss.publish_message = ("success", t("store.done" if new else "store.already", L, hash=entry.hash), model.id)
