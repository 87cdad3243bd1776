"""Widgets several pages share: the page header, the sentence picker (and its padded form), and the note naming the
package function behind a chart."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from transformer.config import MAX_TYPED_CHARS, TransformerConfig
from transformer.data import PAD
from transformer.errors import TransformerError
from transformer.model import ATTENTION_KINDS, DEC_ENC, AttentionKind, parameter_count
from transformer.text import markdown, visible
from viz.common import text_px
from viz.training import CurveLabels

from .export import hint, table, text
from .i18n import t, word_list
from .links import link_view
from .messages import error_text
from .model_cache import trained_on_table
from .presenter import presenting
from .session import current, end_page, session_memo, usable_pairs
from .tables import results_frame
from .view_state import Param, choose_labelled, choose_number, choose_one


def pair_text(pair: tuple[str, str]) -> str:
    """A sentence pair as a picker lists it: the source, an arrow, the target (hidden characters made visible)."""
    return f"{visible(pair[0])}  →  {visible(pair[1])}"


def pair_texts(pairs: list[tuple[str, str]]) -> list[str]:
    """pair_text of each pair, worked out once per list of pairs (a picker's options are formatted on every run)."""
    return session_memo("pair_texts", (pairs,), lambda: [pair_text(p) for p in pairs])


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
            format_func=pair_texts(pairs).__getitem__,
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


def padded_sentence(
    L: str, name: str, pad_key: str, labels: tuple[str, str, str, str]
) -> tuple[str, str | None, int, int]:
    """The sentence picker beside two sliders of padding added after the source and the target (kept as
    {pad_key}_src_pad and {pad_key}_tgt_pad; labels: the two sliders', their help, and the note under them when the
    sentence is typed, so has no reference target) → (source, reference target or None, source padding, target
    padding)."""
    src_label, tgt_label, help_text, typed_note = labels
    c1, c2 = st.columns([3, 2], gap="large")
    with c1:
        source, target = sentence_picker(L, name)
    with c2:
        src_pad = choose_number(st.slider, src_label, 0, 4, key=f"{pad_key}_src_pad", default=1, help=help_text)
        tgt_pad = choose_number(st.slider, tgt_label, 0, 4, key=f"{pad_key}_tgt_pad", default=1, help=help_text)
    if target is None:
        text(typed_note, "caption")
    return source, target, src_pad, tgt_pad


def warn_if_data_changed(L: str) -> None:
    """On a looking-inside page: say so when the sentence pairs changed after the current model was trained."""
    if not trained_on_table(current(), usable_pairs()):
        text(t("data.changed_since_training", L), "warning")


def warn_unknown(unknown: list[str], L: str, key: str = "pick.unknown") -> None:
    """Flag words the model's vocabulary does not know, each once (source words are read as <unk>; key
    "dec.ref_unknown" says it of a reference's words, which the model can never write)."""
    if unknown:
        text(t(key, L, words=word_list((markdown(w) for w in dict.fromkeys(unknown)), L)), "warning")


def unknown_marked(tokens: list[str], ids, unk_id: int) -> list[str]:
    """Tokens as typed, each that the vocabulary lacks (its id is unk_id) followed by " (?)": how a chart's axis or a
    table shows a word the model reads as <unk>."""
    return [token if int(i) != unk_id else f"{token} (?)" for token, i in zip(tokens, ids)]


def computed_by(names: str, L: str) -> None:
    """A caption naming the package function(s) that computed what is shown (on the sheet's screen, not on its paper:
    a pointer into the code, for whoever reads it in the app)."""
    text(t("computed_by", L, names=names), "source")


def wrapping_row(widths: Sequence[int], gap: str = "medium") -> list:
    """Containers side by side, widths[i] px wide each, that wrap onto the next line when the window is too narrow for
    them all (st.columns would squeeze them instead, and a chart too narrow for its labels cuts or overlaps them). In
    the presenter view, one under the other, each as wide as the main area: a chart takes the room's screen."""
    if presenting():
        return [st.container() for _ in widths]
    with st.container(horizontal=True, gap=gap):
        return [st.container(width=int(w)) for w in widths]


def model_cached(key, compute):
    """compute() once per current model and key (a per-tab cache that goes away with the model)."""
    return current().cached(key, compute)


def model_cached_or_end(L: str, key, compute):
    """model_cached(key, compute); when compute raises a TransformerError, the error is shown and the page ends."""
    try:
        return model_cached(key, compute)
    except TransformerError as exc:
        text(error_text(exc, L), "error")
        end_page()


def pad_positions(tokens: list[str]) -> list[int]:
    """Indexes of the padding token P (a word typed as "P" is read as <unk>, so P here is always padding)."""
    return [i for i, tok in enumerate(tokens) if tok == PAD]


# multi-head attention as the Attention page writes it
ATTENTION_FORMULA = (
    r"\mathrm{head}_h = \mathrm{softmax}\!\left(\frac{Q W^Q_h (K W^K_h)^\top}{\sqrt{d_k}} + M\right) V W^V_h\,"
)


def kind_picker(widget, L: str, key: str, default: AttentionKind = DEC_ENC) -> AttentionKind:
    """A choice of attention kind (st.radio, or a column's), each shown by its label; the session and a link keep the
    kind's name. Returns the chosen kind."""
    labels = {name: kind.label for name, kind in ATTENTION_KINDS.items()}
    return ATTENTION_KINDS[choose_labelled(widget, t("attn.kind", L), labels, L, key=key, default=default.name)]


def curve_labels(L: str) -> CurveLabels:
    """The words of the loss / token-accuracy charts (the Train page's, the Lab's two models side by side)."""
    return CurveLabels(t("train.loss", L), t("train.accuracy", L), t("train.epoch", L), t("train.holdout_suffix", L))


def attention_axes(L: str, kind: AttentionKind, src_tokens: list[str], dec_tokens: list[str], rows_dec: list[str]):
    """(row labels, column labels, and the labelling arguments of viz.attention's figures) of one kind of map:
    encoder rows and columns are source tokens; decoder rows are rows_dec ("input → predicts")."""
    row_tokens, col_tokens = kind.sides(src_tokens, dec_tokens)
    rows, _ = kind.sides(src_tokens, rows_dec)  # a decoder row says what it predicts
    labels = dict(
        row_label=t(f"attn.rows_{kind.name}", L),
        col_label=t(f"attn.cols_{kind.name}", L),
        value_label=t("fig.weight", L),
        pad_rows=pad_positions(row_tokens),
        pad_cols=pad_positions(col_tokens),
        pad_label=t("fig.padding", L),
        pad_note=t("fig.pad_note", L),
    )
    return rows, col_tokens, labels


def page_header(
    L: str, page: str, title_key: str, intro_key: str, view: dict[str, Param], paper: str | None = None
) -> None:
    """The top of a page: its title, its view read from a link (ui.links.link_view, with the view spec `view`) and
    its introduction (on the lesson sheet: its paper form, when given)."""
    title = t(title_key, L)
    st.title(title)
    link_view(page, title, view)
    text(t(intro_key, L), paper=paper)


# a chart that needs more room than the page has: its box scrolls sideways, and the chart keeps at least its own width
# inside it (Streamlit caps an element at its container's width, and plotly then squeezes the chart to that); on a wider
# page it stretches as any chart does. .st-key-<key> is the class Streamlit gives an element drawn with that key
WIDE_CHART_CSS = (
    "<style>.st-key-{box} {{overflow-x: auto;}}"
    " .st-key-{box} .st-key-{chart} {{min-width: {px}px; max-width: none !important;}}</style>"
)


def wide_chart_box(chart_key: str, px: int | None):
    """A container for the chart drawn with chart_key: when px (its figure's own width) is given, the chart is at least
    that wide and the container scrolls it sideways, so the page itself never gets wider."""
    box = st.container(key=f"{chart_key}_box")
    if px:
        box.html(WIDE_CHART_CSS.format(box=f"{chart_key}_box", chart=chart_key, px=int(px)))  # style only: no room
    return box


METRIC_LABEL_PX, METRIC_VALUE_PX = 14, 36  # st.metric's label (and detail) font size, and its value's


def metric_row(metrics: Sequence[tuple[str, str, str | None]]) -> list:
    """Containers side by side for metrics (label, value, detail), each as wide as its texts need (text_px), wrapping
    onto the next line when the window is too narrow: st.columns would squeeze them, and a metric cuts its label."""
    widths = [
        max(text_px(label, METRIC_LABEL_PX), text_px(value, METRIC_VALUE_PX), text_px(detail or "", METRIC_LABEL_PX))
        for label, value, detail in metrics
    ]
    return wrapping_row([w + 8 for w in widths])


def model_size(config: TransformerConfig) -> dict[str, str]:
    """A model's parameters (n) and source / target vocabulary sizes (src, tgt), written with thousands separators:
    the one place the Train page (of the model it would train) and the sidebar (of the current model) take them from,
    so the two agree."""
    return {
        "n": f"{parameter_count(config):,}",
        "src": f"{config.src_vocab_size:,}",
        "tgt": f"{config.tgt_vocab_size:,}",
    }


def results_table(frame, verdicts: list[str], key: str, L: str, **kw) -> None:
    """A table of translations (ui.tables.results_frame: the verdict columns first, long texts cut with "…", nothing
    wider than the page) and, when a text was cut, an expander where a row chosen by its number shows its texts
    whole."""
    shown, cut = results_frame(frame, verdicts)
    table(shown, hide_index=True, width="stretch", key=key, **kw)
    if not cut:
        return
    with st.expander(t("train.whole_texts", L, n=f"{len(cut):,}")):
        first = shown.columns[len(verdicts)]  # the first text (the source), as the table shows it
        shown_as = lambda i: f"{i + 1} · {shown.iloc[i][first]}"  # noqa: E731
        row = choose_one(st.selectbox, t("train.whole_row", L), cut, key=f"{key}_whole", format_func=shown_as)
        whole = frame.iloc[row]
        hint("\n".join(f"- **{markdown(str(c))}**: {markdown(str(whole[c]))}" for c in frame.columns), "markdown")
