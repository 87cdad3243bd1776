"""The line view beside an attention matrix on the Attention page (viz.lines): the same weights as lines from the
query tokens to the key tokens, one head or every head of the layer in its colour, and a select box of the tokens that
highlights one token's lines from the keyboard, as pointing at its bar does."""

from __future__ import annotations

import streamlit as st

from transformer.model import AttentionKind
from viz.lines import KEY, QUERY, attention_lines_figure

from .export import caption, chart, file_name
from .i18n import t
from .model_cache import CacheKind
from .view_state import choose_one
from .widgets import model_cached

LINES_PX = 400  # the line view beside a 560 px map


def token_choice(L: str, key: str, rows: list[str], cols: list[str]) -> tuple[str, int] | None:
    """A select box of every query and key token (and none): the token whose lines the view highlights."""
    options = ["", *(f"q{i}" for i in range(len(rows))), *(f"k{j}" for j in range(len(cols)))]
    words = {QUERY: t("attn.lines_query", L), KEY: t("attn.lines_key", L)}

    def label(option: str) -> str:
        if not option:
            return t("attn.lines_none", L)
        side, index = (QUERY, rows) if option[0] == "q" else (KEY, cols)
        return f"{words[side]}: {index[int(option[1:])]}"

    chosen = choose_one(
        st.selectbox, t("attn.lines_token", L), options, key=key, format_func=label, help=t("attn.lines_help", L)
    )
    return None if not chosen else (QUERY if chosen[0] == "q" else KEY, int(chosen[1:]))


def line_view(
    L: str,
    key: str,
    view: tuple,
    kind: AttentionKind,
    attn,
    axes: tuple[list[str], list[str]],
    shown: tuple[str, int, int],
    title: str,
    about: str,
    gold=None,
) -> None:
    """The line view of one layer's maps attn [H, Lq, Lk] of `kind`: axes = (row labels, column labels) as the matrix
    has them; shown = (heads mode "one", "grid" or "average", layer, head); gold: one pair's gold links
    (transformer.alignment.Gold: source i, target j) drawn over the lines; `view` names the maps for the cache."""
    rows, cols = axes
    heads, layer, head = shown
    chosen = token_choice(L, f"{key}_lines_token", rows, cols)

    def figure():
        weights = attn.mean(0, keepdim=True) if heads == "average" else attn  # (H or 1, Lq, Lk)
        links = [] if gold is None else [(j, i) for i, j in sorted(set(gold.sure) | set(gold.possible))]
        return attention_lines_figure(
            weights,
            rows,
            cols,
            heads=[head] if heads == "one" else None,
            title=title,
            head_label=t("attn.head", L),
            query_label=t("attn.lines_query", L),
            key_label=t("attn.lines_key", L),
            value_label=t("fig.weight", L),
            chosen=chosen,
            gold=links,
            gold_label=t("attn.lines_gold", L),
        )

    fig = model_cached((CacheKind.LINES_FIGURE, key, *view, kind.name, *shown, chosen, gold, title, L), figure)
    mode = {"grid": "all-heads", "average": "average"}.get(heads, f"head-{head + 1}")
    chart(fig, f"{key}_lines", file_name("attention-lines", kind.name, f"layer-{layer + 1}", mode),
          caption(t("attn.lines_title", L), about))  # fmt: skip
