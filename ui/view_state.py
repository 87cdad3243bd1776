"""The owner of each page's view state: its view spec (the session-state key, link name and kind of each value, Param),
the clamps that keep a value within what the current model and data allow (keep_option, keep_in_range, …) and the
"values replaced" notices that name a value a link or a new model could not keep.

A page declares its view spec once (ui.links.link_view reads a link into it and writes it back to the URL) and draws
each widget after clamping its kept value here; when a clamp replaces a value that came from this run's link, or one
kept from before the model changed, the notice box at the top of the page says which (replaced, cut). The link text
of each kind of value (link_value, link_text) is defined here too, so that a notice shows a value as its link does.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from transformer.text import markdown

from .i18n import LANGUAGES, t
from .session import current, lang

MAX_VALUE_CHARS = 400  # longest value taken from a link (a typed sentence is at most 400 characters)
VERSION, LINK_VERSION = "v", "2"  # every link says how it numbers layers and heads; without it: from 0 (version 1)
_run = threading.local()  # this script run's notice box and view (each session runs its script in its own thread)


@dataclass(frozen=True)
class Param:
    """One URL parameter of a page's view: the session-state key it sets and how its text is read."""

    key: str
    # "int", "float", "bool", "str", "ints" (comma-separated), "pair" (a picker's pair), "index" (a layer or head:
    # from 0 in session state, from 1 in a link as on the page), or "marks" (hand-marked alignment cells: (decoder
    # row, source column) in session state, source-first links i-j separated by commas in a link, as gold is written)
    kind: str = "str"


def picker(name: str) -> dict[str, Param]:
    """The URL parameters of ui.widgets.sentence_picker(L, name): the mode, the pair (by its source) or the text."""
    return {
        "mode": Param(f"pick_{name}_mode"),
        "pair": Param(f"pick_{name}_pair", "pair"),
        "text": Param(f"pick_{name}_text"),
    }


def padded_picker(name: str, pad_key: str) -> dict[str, Param]:
    """The URL parameters of ui.widgets.padded_sentence(L, name, pad_key, …): the picker's and the two paddings."""
    return {
        **picker(name),
        "src_pad": Param(f"{pad_key}_src_pad", "int"),
        "tgt_pad": Param(f"{pad_key}_tgt_pad", "int"),
    }


def link_value(text: str, kind: str, version: str = LINK_VERSION):
    """The value of a link parameter of this kind, or ValueError in a few words of its own (never the text)."""
    if len(text) > MAX_VALUE_CHARS:
        raise ValueError("too long")
    try:
        return _link_value(text, kind, version)
    except ValueError:  # int() and float() repeat the text in their words
        raise ValueError(f"not a link value of kind {kind}") from None


def _link_value(text: str, kind: str, version: str):
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
    if kind == "marks":
        return [_mark(part) for part in text.split(",") if part]
    return text


def _mark(link: str) -> tuple[int, int]:
    """A hand mark (decoder row j, source column i) from its link text i-j (digits only), or ValueError."""
    i, _, j = link.partition("-")
    if not (i.isdigit() and j.isdigit()):  # isdigit: no sign, no space
        raise ValueError("not an i-j link")
    return int(j), int(i)


def link_text(value, kind: str) -> str | None:
    """A session-state value as link text, or None when it has no place in a link."""
    if value is None:
        return None
    if kind == "bool":
        return "true" if value else "false"
    if kind == "ints":
        return ",".join(str(v) for v in value if isinstance(v, int))
    if kind == "index":
        return str(value + 1) if isinstance(value, int) and not isinstance(value, bool) else None
    if kind == "marks":  # no marks: no parameter, so the link is the one made before marks had one
        return ",".join(f"{i}-{j}" for j, i in sorted(value, key=lambda m: (m[1], m[0]))) or None
    return str(value)


# ---------------------------------------------------------------- this run's view and its notices


def begin_view(page: str, title: str, params: dict[str, Param]) -> None:
    """At the top of a page (ui.links.link_view): the page's notice box, its view spec, and whether a model it may show
    is new since its last run (then kept values that model cannot take are named)."""
    _run.box, _run.lines, _run.params, _run.view = st.empty(), [], params, (page, title)
    shown = _shown_models()
    _run.model_changed = st.session_state.setdefault("_page_models", {}).get(page, shown) != shown


def end_view() -> dict[str, Param] | None:
    """When the page has drawn everything: its view spec (None if it did not get as far as begin_view), remembering
    the models it showed."""
    view, _run.view, _run.model_changed = getattr(_run, "view", None), None, False
    if view is None:
        return None
    st.session_state.setdefault("_page_models", {})[view[0]] = _shown_models()
    return _run.params


def _shown_models() -> tuple:
    """The models a page may show: the current one and a Lab result's two (a new one of these replaces kept values)."""
    lab = st.session_state.get("lab")
    return (current().id, *((lab.baseline.id, lab.variant.id) if lab is not None else ()))


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
    was kept from before the model this page shows changed (keep_option, keep_in_range, …)."""
    said = _said(key, old)
    if said is not None:
        name, kind, shown_old, from_link = said
        shown_new = link_text(new, kind) or t("link.default", lang())  # e.g. no forced tokens
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
        return name, kind, link_text(old, kind), False
    return None


# ---------------------------------------------------------------- clamps: a kept value is always one the widget allows


def keep_option(key: str, options: Sequence, default=None):
    """Before a widget is drawn: reset st.session_state[key] to default (else the first option) unless it is one of
    options, so a value kept from another model or dataset (or read from a link) can never be out of range. Returns
    the value."""
    ss = st.session_state
    if key not in ss or ss[key] not in options:
        new = default if default in options else options[0]
        if key in ss:
            replaced(key, ss[key], new)
        ss[key] = new
    return ss[key]


def keep_choice(key: str, options: Sequence, labels: dict, default=None, **values):
    """keep_option for a choice drawn with translated labels (t(labels[option])): a value that is one of those labels
    in any language (what a radio can hold after a language switch) becomes its option again."""
    ss = st.session_state
    if key in ss and ss[key] not in options:
        for option in options:
            if any(ss[key] == t(labels[option], lang, **values) for lang in LANGUAGES):
                ss[key] = option
                break
    return keep_option(key, options, default)


def keep_in_range(key: str, lo, hi, default=None):
    """Before a slider or number box is drawn: clamp st.session_state[key] into [lo, hi] (default, else lo, when
    unset or not a number). Returns the value."""
    ss = st.session_state
    fallback = lo if default is None else default
    value = ss.get(key, fallback)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        value = fallback
    new = min(max(value, lo), hi)
    if key in ss and ss[key] != new:
        replaced(key, ss[key], new)
    if key not in ss or ss[key] != new:  # set only to change it: a value set here is pushed to the browser
        ss[key] = new
    return ss[key]


def keep_options(key: str, options: Sequence, default: Sequence = ()) -> list:
    """Before a multiselect is drawn: keep the values of st.session_state[key] that are among options (default when
    unset, or when none of its values is left). Returns the kept list."""
    ss = st.session_state
    allowed = set(options)
    chosen = ss.get(key)
    if not isinstance(chosen, (list, tuple)):
        chosen = None
    kept = [v for v in chosen if v in allowed] if chosen is not None else None
    if kept is None or (chosen and not kept):
        kept = [v for v in default if v in allowed]
    if key in ss and list(ss[key] or []) != kept:
        replaced(key, ss[key], kept)
    if key not in ss or ss[key] != kept:  # set only to change it: a value set here is pushed to the browser
        ss[key] = kept
    return kept


# ---------------------------------------------------------------- widgets drawn over their clamped, kept value


def choose_one(
    widget,
    label: str,
    options: Sequence,
    *,
    key: str,
    default=None,
    labels: dict | None = None,
    label_values=None,
    **kw,
):
    """A choice widget (st.radio, st.selectbox, st.select_slider, or a column's) over options, its kept value made one
    of them first (keep_option; keep_choice when `labels` maps each option to the key of its translated label) and
    kept while it is not drawn; returns the chosen option."""
    if labels:
        keep_choice(key, options, labels, default, **(label_values or {}))
    else:
        keep_option(key, options, default)
    return widget(label, options, key=key, persist_state="session", **kw)


def choose_several(widget, label: str, options: Sequence, *, key: str, default: Sequence = (), **kw) -> list:
    """A multiselect (st.multiselect or a column's) over options, its kept values cut to those among them first
    (keep_options) and kept while it is not drawn; returns the chosen options."""
    keep_options(key, options, default)
    return widget(label, options, key=key, persist_state="session", **kw)


def choose_number(widget, label: str, lo, hi, *, key: str, default=None, **kw):
    """A slider or number box (st.slider, st.number_input, or a column's) from lo to hi, its kept value clamped into
    that range first (keep_in_range) and kept while it is not drawn; returns the value."""
    keep_in_range(key, lo, hi, default)
    return widget(label, lo, hi, key=key, persist_state="session", **kw)


def choose_labelled(
    widget, label: str, labels: dict, L: str, *, key: str, default=None, values=None, keep_labels: bool = False, **kw
):
    """choose_one over the options of `labels` (each option → the key of its label; without a default, the first is
    the default), each shown as its label in language L (its placeholders filled from `values`); keep_labels: a kept
    value that is one of those labels in any language becomes its option again (keep_choice). Returns the chosen
    option."""
    values = values or {}
    return choose_one(
        widget,
        label,
        list(labels),
        key=key,
        default=default,
        labels=labels if keep_labels else None,
        label_values=values,
        format_func=lambda option: t(labels[option], L, **values),
        **kw,
    )


def choose_numbered(widget, label: str, count: int, *, key: str, default=0, **kw):
    """choose_one of `count` layers or heads (0 to count - 1 in session state), each shown numbered from 1."""
    return choose_one(
        widget, label, list(range(count)), key=key, default=default, format_func=lambda i: f"{i + 1}", **kw
    )
