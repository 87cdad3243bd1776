"""Deep links: each page's view (sentence, kind, layer, head, step, …) lives in the URL's query string, so a link
opens the same view in a fresh tab. A link also names the model it was made with (name and fingerprint): a model
published to the server's store is opened from it (ui.published), and otherwise the page warns when the tab's current
model is another one.

Values from a link are never trusted: each is read as its declared kind, a value that cannot be read falls back to
the default, and a value the current model or data does not allow is replaced when its widget is drawn
(ui.widgets.keep_option / keep_in_range); either way the page says which values were replaced. A kept value that a new
model cannot take (after a training, a loaded checkpoint, …) is replaced and named in the same way.

The query string is written when the page has drawn everything (settle_view, at the end of the run), so it holds the
values the page settled on, including those one widget derives from another. Layers and heads are numbered from 1, as
the pages show them; links made before that (without LINK_VERSION's parameter) numbered them from 0 and still open
the view they were made on.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from urllib.parse import urlencode

import streamlit as st

from transformer.store import is_model_hash, same_model
from transformer.text import markdown

from .export import IMAGE_FORMATS, lesson_sheet_button, set_sheet_link, start_page
from .i18n import LANGUAGES, t
from .published import (
    bad_link_model,
    link_model_notice,
    link_store_text,
    open_link_model,
    origin,
    publish_section,
    published_entry,
)
from .state import CurrentModel, current, lang

MAX_VALUE_CHARS = 400  # longest value taken from a link (a typed sentence is at most 400 characters)
VERSION, LINK_VERSION = "v", "2"  # every link says how it numbers layers and heads; without it: from 0 (version 1)
_run = threading.local()  # this script run's notice box and view (each session runs its script in its own thread)


@dataclass(frozen=True)
class Param:
    """One URL parameter of a page's view: the session-state key it sets and how its text is read."""

    key: str
    # "int", "float", "bool", "str", "ints" (comma-separated), "pair" (a picker's pair), or "index" (a layer or head:
    # from 0 in session state, from 1 in a link as on the page)
    kind: str = "str"


def picker(name: str) -> dict[str, Param]:
    """The URL parameters of ui.widgets.sentence_picker(L, name): the mode, the pair (by its source) or the text."""
    return {
        "mode": Param(f"pick_{name}_mode"),
        "pair": Param(f"pick_{name}_pair", "pair"),
        "text": Param(f"pick_{name}_text"),
    }


def model_fingerprint(model: CurrentModel) -> str:
    """16 hex digits that change with any weight, vocabulary entry or size of the model (transformer.store); links
    made before models could be published carry its first 8."""
    return model.fingerprint


def model_label(model: CurrentModel) -> str:
    """The model's name in a link: its file name when uploaded, else where it came from."""
    return model.name or model.source


def _read(text: str, kind: str, version: str = LINK_VERSION):
    """The value of a link parameter, or ValueError."""
    if len(text) > MAX_VALUE_CHARS:
        raise ValueError("too long")
    if kind == "index":
        return int(text) - (1 if version == LINK_VERSION else 0)
    if kind == "int":
        return int(text)
    if kind == "float":
        value = float(text)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("not a finite number")
        return value
    if kind == "bool":
        if text not in ("true", "false"):
            raise ValueError("not true or false")
        return text == "true"
    if kind == "ints":
        return [int(part) for part in text.split(",") if part]
    return text


def _write(value, kind: str) -> str | None:
    """A session-state value as link text, or None when it has no place in a link."""
    if value is None:
        return None
    if kind == "bool":
        return "true" if value else "false"
    if kind == "ints":
        return ",".join(str(v) for v in value if isinstance(v, int))
    if kind == "index":
        return str(value + 1) if isinstance(value, int) and not isinstance(value, bool) else None
    return str(value)


def _current_values(params: dict[str, Param]) -> dict[str, str]:
    """The page's view as link text; a picker contributes its pair (by source) or its typed text, whichever is used."""
    from .widgets import usable_pairs

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
            text = _write(ss.get(param.key), param.kind)
            if text is not None:
                values[name] = text
    return values


def notice(text: str, model: bool = False) -> None:
    """Say, in the notice box at the top of the page, that a value from the link (or, with model=True, a kept value
    the current model cannot take) was replaced."""
    box = getattr(_run, "box", None)
    lines = getattr(_run, "lines", None)
    if box is None or lines is None:
        return
    lines.append((model, text))
    with box.container():
        for key, which in (("link.replaced", False), ("state.replaced", True)):
            found = [text for is_model, text in lines if is_model == which]
            if found:
                st.warning(t(key, lang(), values="; ".join(found)))


def replaced(key: str, old, new) -> None:
    """Called when a widget's kept value is made valid: a notice if the value came from this run's link, or if it
    was kept from before the model this page shows changed (ui.widgets.keep_option, keep_in_range, …)."""
    said = _said(key, old)
    if said is not None:
        name, kind, shown_old, from_link = said
        shown_new = _write(new, kind) or t("link.default", lang())  # e.g. no forced tokens
        text = f"{markdown(name)}={markdown(str(shown_old))[:60]} → {markdown(str(shown_new))[:60]}"
        notice(text, model=not from_link)


def cut(key: str, given: int, kept: int) -> None:
    """Called when a kept list is cut to its first `kept` items: a notice as for replaced()."""
    said = _said(key, None)
    if said is not None:
        notice(t("link.cut", lang(), name=markdown(said[0]), kept=kept, given=given), model=not said[3])


def _said(key: str, old) -> tuple | None:
    """(name, kind, old value as shown, whether it came from the link) of a replaced value the page must name: one
    from this run's link, or one of the page's view values (named as in its link) after the model changed; else
    None (a value with no place in the link is one the page derives, e.g. the block of a step)."""
    ss = st.session_state
    name, kind = next(((n, p.kind) for n, p in getattr(_run, "params", {}).items() if p.key == key), (None, "str"))
    if key in ss.get("_from_link", ()):
        return (*ss["_from_link"][key][:1], kind, ss["_from_link"][key][1], True)
    if name is not None and getattr(_run, "model_changed", False):
        return name, kind, _write(old, kind), False
    return None


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
    _run.box, _run.lines, _run.params, _run.view = st.empty(), [], params, (page, title)
    shown = _shown_models()  # a new model since this page's last run: kept values it cannot take are named
    _run.model_changed = ss.setdefault("_page_models", {}).get(page, shown) != shown
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
                value = _read(text, param.kind, version)
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
    start_page(page, title, link_to_this_view())


def _shown_models() -> tuple:
    """The models a page may show: the current one and a Lab result's two (a new one of these replaces kept values)."""
    lab = st.session_state.get("lab")
    return (current().id, *((lab.baseline.id, lab.variant.id) if lab is not None else ()))


def settle_view() -> None:
    """When the page has drawn everything (app.py, at the end of the run): write the view it settled on to the URL,
    and draw Share and export in the sidebar with the link to it."""
    view, _run.view, _run.model_changed = getattr(_run, "view", None), None, False
    if view is None:  # the page did not get as far as link_view
        return
    page, _ = view
    st.session_state.setdefault("_page_models", {})[page] = _shown_models()
    values = _current_values(_run.params)
    values[VERSION] = LINK_VERSION
    model = current()
    values.update(lang=lang(), model=model_fingerprint(model), model_name=model_label(model))
    st.query_params.from_dict(values)
    set_sheet_link(link_to_this_view())
    with st.sidebar:
        share_and_export(lang(), model)


def _take_pair(key: str, source: str) -> None:
    """A picker's pair from a link, found by its source sentence; not in this tab's data: typed instead."""
    from .widgets import usable_pairs

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


def link_to_this_view() -> str:
    """The full URL of the current view (as the address bar shows it)."""
    base = st.context.url or ""
    query = urlencode(st.query_params.to_dict())
    return f"{base}?{query}" if query else base


def share_and_export(L: str, model: CurrentModel) -> None:
    """A link to this view, Publish this model, the image format of chart downloads, and the page's lesson sheet."""
    from .widgets import keep_option  # widgets reports replaced link values here: imported late, no cycle

    entry, problem = published_entry(model)
    with st.expander(t("export.title", L), icon=":material/share:"):
        with st.popover(t("link.copy", L), icon=":material/link:", width="stretch"):
            st.caption(t("link.copy_help", L) + " " + t("link.carries_model" if entry else "link.lacks_model", L))
            st.code(link_to_this_view(), language=None, wrap_lines=True)
        publish_section(L, model, entry, problem)
        keep_option("chart_format", IMAGE_FORMATS, "png")
        st.radio(
            t("export.format", L),
            IMAGE_FORMATS,
            key="chart_format",
            persist_state="session",
            horizontal=True,
            format_func=str.upper,
            help=t("export.format_help", L),
        )
        summary = model_summary(L, model)
        lesson_sheet_button(summary)


def model_summary(L: str, model: CurrentModel) -> list[str]:
    """The current model in a few plain lines (for the lesson sheet)."""
    translator, summary = model.translator, model.translator.summary
    variant = ", ".join(f"{k}={v}" for k, v in translator.config.variant.items()) or t("export.paper", L)
    cfg = translator.config
    return [
        t("sidebar.source", L, source=origin(L, model)),
        t("sidebar.params", L, n=f"{translator.model.num_parameters():,}"),
        f"d_model {cfg.d_model} · d_ff {cfg.d_ff} · n_heads {cfg.n_heads} · n_layers {cfg.n_layers} · {variant}",
        t("sidebar.vocab", L, src=len(translator.src_vocab), tgt=len(translator.tgt_vocab)),
        t("sidebar.epochs", L, n=summary.get("epochs", 0)),
        t("sidebar.loss", L, loss=f"{summary['loss']:.4f}" if "loss" in summary else "–"),
        t("export.fingerprint", L, hash=model_fingerprint(model)),
    ]
