"""Deep links, URL ⇄ view spec: each page's view (sentence, kind, layer, head, step, …) lives in the URL's query
string, so a link opens the same view in a fresh tab. A link also names the model it was made with (name and
fingerprint): a model published to the server's store is opened from it (ui.published), and otherwise the page warns
when the tab's current model is another one.

Values from a link are never trusted: each is read as its declared kind (ui.view_state.Param), a value that cannot be
read falls back to the default, and a value the current model or data does not allow is replaced when its widget is
drawn (ui.view_state.keep_option / keep_in_range); either way the page says which values were replaced. A kept value
that a new model cannot take (after a training, a loaded checkpoint, …) is replaced and named in the same way.

The query string is written when the page has drawn everything (settle_view, at the end of the run), so it holds the
values the page settled on, including those one widget derives from another. Layers and heads are numbered from 1, as
the pages show them; links made before that (without LINK_VERSION's parameter) numbered them from 0 and still open
the view they were made on. The sidebar's link to the view is drawn by ui.share.
"""

from __future__ import annotations

import os
from urllib.parse import urlencode, urlsplit

import streamlit as st

from transformer.store import is_model_hash, same_model
from transformer.text import markdown

from .export import set_sheet_link, start_page
from .i18n import LANGUAGES, t
from .model_cache import CurrentModel
from .one_chart import link_one_chart, take_one_chart_link
from .presenter import link_presenter, take_presenter_link
from .published import bad_link_model, link_model_notice, link_store_text, open_link_model
from .session import current, lang, usable_pairs
from .view_state import (
    LINK_VERSION,
    MAX_VALUE_CHARS,
    VERSION,
    Param,
    begin_view,
    end_view,
    link_text,
    link_value,
    notice,
)


def model_fingerprint(model: CurrentModel) -> str:
    """16 hex digits that change with any weight, vocabulary entry or size of the model (transformer.store); links
    made before models could be published carry its first 8."""
    return model.fingerprint


def model_label(model: CurrentModel) -> str:
    """The model's name in a link: its file name when uploaded, else where it came from."""
    return model.name or model.source


def _current_values(params: dict[str, Param]) -> dict[str, str]:
    """The page's view as link text; a picker contributes its pair (by source) or its typed text, whichever is used."""
    ss = st.session_state
    values = {}
    for name, param in params.items():
        if param.kind == "pair":
            base = param.key[: -len("_pair")]
            pairs, index = usable_pairs(), ss.get(param.key)
            if ss.get(f"{base}_mode") == "dataset" and isinstance(index, int) and 0 <= index < len(pairs):
                values[name] = pairs[index][0]
        elif param.key.endswith("_text") and ss.get(param.key[: -len("_text")] + "_mode") != "typed":
            continue
        else:
            text = link_text(ss.get(param.key), param.kind)
            if text is not None:
                values[name] = text
    return values


def take_link_globals() -> None:
    """In app.py, before the sidebar: the language and the model a link names (once per tab, on its first run); a
    model published to the store is opened as the tab's current model."""
    ss = st.session_state
    if ss.get("_link_globals_read"):
        return
    ss._link_globals_read = True
    params = st.query_params
    if params.get("lang") in LANGUAGES:
        ss.lang = params["lang"]
    take_presenter_link(params)
    take_one_chart_link(params)
    model = params.get("model", "")
    if model and not is_model_hash(model):  # checked before the store builds any file name from it
        bad_link_model(model)
        model = ""
    ss._link_model = (model, params.get("model_name", "")[:MAX_VALUE_CHARS])
    if model:
        open_link_model(model)


def link_view(page: str, title: str, params: dict[str, Param]) -> None:
    """First call of a page after its title: take a link's values on the tab's first run, warn when the link was made
    with another model, start the page's lesson sheet, and say which kept values a new model cannot take. The view is
    written to the URL when the run ends (settle_view)."""
    ss = st.session_state
    begin_view(page, title, params)
    first = not ss.get("_link_read")
    ss._link_read = True
    ss._from_link = {}
    if first and st.query_params:
        version = st.query_params.get(VERSION, "1")
        for name, param in params.items():
            if name not in st.query_params:
                continue
            text = st.query_params[name]
            try:
                value = link_value(text, param.kind, version)
            except ValueError:
                notice(f"{markdown(name)}={markdown(text[:60])} → {t('link.default', lang())}")
                continue
            if param.kind == "pair":
                _take_pair(param.key, value)
            else:
                ss[param.key] = value
                ss._from_link[param.key] = (name, text)
    bad_model = link_model_notice(page, first)
    if bad_model:
        notice(bad_model)
    _warn_other_model(ss)
    start_page(page, title, shareable_link(link_to_this_view()))


def settle_view() -> bool:
    """When the page has drawn everything (app.py, at the end of the run): write the view it settled on to the URL
    and give the lesson sheet the link to it; False if the page did not get as far as link_view."""
    params = end_view()
    if params is None:
        return False
    values = _current_values(params)
    values[VERSION] = LINK_VERSION
    model = current()
    values.update(lang=lang(), model=model_fingerprint(model), model_name=model_label(model))
    link_presenter(values)
    link_one_chart(values)
    st.query_params.from_dict(values)
    set_sheet_link(shareable_link(link_to_this_view()))
    return True


def _take_pair(key: str, source: str) -> None:
    """A picker's pair from a link, found by its source sentence; not in this tab's data: typed instead."""
    ss = st.session_state
    pairs = usable_pairs()
    found = next((i for i, (s, _) in enumerate(pairs) if s == source), None)
    base = key[: -len("_pair")]
    if found is None:
        ss[f"{base}_mode"], ss[f"{base}_text"] = "typed", source
        notice(t("link.pair_missing", lang(), source=markdown(source[:80])))
    else:
        ss[f"{base}_mode"], ss[key] = "dataset", found


def _warn_other_model(ss) -> None:
    fingerprint, name = ss.get("_link_model", ("", ""))
    model = current()
    if fingerprint and not same_model(fingerprint, model_fingerprint(model)):
        st.warning(
            link_store_text(lang())
            + t(
                "link.other_model",
                lang(),
                name=markdown(name or "?"),
                hash=markdown(fingerprint),
                current=markdown(model_label(model)),
                current_hash=model_fingerprint(model),
            )
        )


PUBLIC_URL_ENV = "PLAYGROUND_PUBLIC_URL"  # the address learners open (deploy/classroom.py sets it from --address)


def public_url(environ=None) -> str | None:
    """The address learners can open, from PLAYGROUND_PUBLIC_URL (an http(s) URL, its trailing "/" dropped); None when
    it is unset or not such a URL: the server alone cannot know an address other machines reach."""
    value = (os.environ if environ is None else environ).get(PUBLIC_URL_ENV, "").strip()
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return value.rstrip("/")


def shareable_link(view_url: str, environ=None) -> str:
    """The link to a view that learners can open: its path and query on the public address; "" when there is none
    (a sheet then says how the teacher shares the view)."""
    base = public_url(environ)
    if base is None:
        return ""
    parts = urlsplit(view_url)
    return base + (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def link_to_this_view() -> str:
    """The full URL of the current view (as the address bar shows it)."""
    base = st.context.url or ""
    query = urlencode(st.query_params.to_dict())
    return f"{base}?{query}" if query else base
