"""Widgets several pages share: the sentence picker and the note naming the package function behind a chart."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from transformer.config import MAX_TYPED_CHARS
from transformer.data import PAD, usable
from transformer.text import markdown, visible

from .export import text
from .i18n import LANGUAGES, t, word_list
from .links import replaced
from .state import current, trained_on_table


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
    """keep_option for a choice drawn with translated labels (t(labels[option])): a value that is one of
    those labels in any language (what a radio can hold after a language switch) becomes its option again."""
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


def sentence_picker(L: str, key: str) -> tuple[str, str | None]:
    """A dataset pair or a typed source sentence → (source, reference target, or None for a typed sentence)."""
    ss = st.session_state
    pairs = usable_pairs()
    modes = ["dataset", "typed"] if pairs else ["typed"]
    key = f"pick_{key}"
    if ss.get(f"{key}_mode") not in modes:
        ss[f"{key}_mode"] = modes[0]
    mode = st.radio(
        t("pick.mode", L),
        modes,
        key=f"{key}_mode",
        persist_state="session",
        horizontal=True,
        format_func=lambda m: t({"dataset": "pick.dataset", "typed": "pick.typed"}[m], L),
    )
    if mode == "dataset":
        if f"{key}_pair" not in ss or ss[f"{key}_pair"] >= len(pairs):  # the tutorial example, whatever the dataset
            tutorial = [i for i, (s, _) in enumerate(pairs) if "".join(s.split()) == "我喜欢你"]
            ss[f"{key}_pair"] = tutorial[0] if tutorial else 0
        index = st.selectbox(
            t("pick.pair", L),
            range(len(pairs)),
            key=f"{key}_pair",
            persist_state="session",
            format_func=lambda i: f"{visible(pairs[i][0])}  →  {visible(pairs[i][1])}",
        )
        return pairs[index]
    ss.setdefault(f"{key}_text", "我 喜 欢 你")
    text = st.text_input(
        t("pick.typed", L),
        key=f"{key}_text",
        persist_state="session",
        max_chars=MAX_TYPED_CHARS,
        help=t("pick.typed_help", L, n=MAX_TYPED_CHARS),
    )
    return text, None


def usable_pairs() -> list[tuple[str, str]]:
    """The dataset's pairs with both sides typed (what training uses)."""
    return [(s, g) for s, g in st.session_state.pairs if usable(s, g)]


def warn_if_data_changed(L: str) -> None:
    """On a looking-inside page: say so when the sentence pairs changed after the current model was trained."""
    if not trained_on_table(current(), usable_pairs()):
        text(t("data.changed_since_training", L), "warning")


def warn_unknown(unknown: list[str], L: str) -> None:
    """Flag source words the model's vocabulary does not know (they are read as <unk>)."""
    if unknown:
        text(t("pick.unknown", L, words=word_list((markdown(w) for w in dict.fromkeys(unknown)), L)), "warning")


def computed_by(names: str, L: str) -> None:
    """A caption naming the package function(s) that computed what is shown."""
    text(t("computed_by", L, names=names), "caption")


def wrapping_row(widths: Sequence[int], gap: str = "medium") -> list:
    """Containers side by side, widths[i] px wide each, that wrap onto the next line when the window is too narrow for
    them all (st.columns would squeeze them instead, and a chart too narrow for its labels cuts or overlaps them)."""
    with st.container(horizontal=True, gap=gap):
        return [st.container(width=int(w)) for w in widths]


def model_cached(key, compute):
    """compute() once per current model and key (a per-tab cache that goes away with the model)."""
    return current().cached(key, compute)


def pad_positions(tokens: list[str]) -> list[int]:
    """Indexes of the padding token P (a word typed as "P" is read as <unk>, so P here is always padding)."""
    return [i for i, tok in enumerate(tokens) if tok == PAD]


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


# multi-head attention as the Attention page writes it
ATTENTION_FORMULA = (
    r"\mathrm{head}_h = \mathrm{softmax}\!\left(\frac{Q W^Q_h (K W^K_h)^\top}{\sqrt{d_k}} + M\right) V W^V_h\,"
)


def attention_axes(L: str, kind: str, src_tokens: list[str], dec_tokens: list[str], rows_dec: list[str]):
    """(row labels, column labels, and the labelling arguments of viz.attention's figures) of one kind of map:
    encoder rows and columns are source tokens; decoder rows are rows_dec ("input → predicts")."""
    rows, cols, row_tokens, col_tokens = {
        "enc_self": (src_tokens, src_tokens, src_tokens, src_tokens),
        "dec_self": (rows_dec, dec_tokens, dec_tokens, dec_tokens),
        "dec_enc": (rows_dec, src_tokens, dec_tokens, src_tokens),
    }[kind]
    labels = dict(
        row_label=t(f"attn.rows_{kind}", L),
        col_label=t(f"attn.cols_{kind}", L),
        value_label=t("fig.weight", L),
        pad_rows=pad_positions(row_tokens),
        pad_cols=pad_positions(col_tokens),
        pad_label=t("fig.padding", L),
        pad_note=t("fig.pad_note", L),
    )
    return rows, cols, labels
