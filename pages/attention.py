"""Attention: every layer's and head's attention weights, and how they formed during training."""

import streamlit as st

from transformer.errors import TransformerError
from transformer.text import markdown, visible
from ui.i18n import error_text, t
from ui.state import current, page_setup
from ui.training import current_job, start_replay
from ui.widgets import (
    computed_by,
    keep_option,
    model_cached,
    pad_positions,
    sentence_picker,
    warn_if_data_changed,
    warn_unknown,
)
from viz.attention import attention_figure, attention_grid_figure

L = page_setup()
ss = st.session_state
model = current()
translator = model.translator
cfg = translator.config

st.title(t("attn.title", L))
st.markdown(t("attn.intro", L))
warn_if_data_changed(L)
st.latex(r"\mathrm{head}_h = \mathrm{softmax}\!\left(\frac{Q W^Q_h (K W^K_h)^\top}{\sqrt{d_k}} + M\right) V W^V_h")

source, target = sentence_picker(L, "attn")
KINDS = ("enc_self", "dec_self", "dec_enc")
c1, c2, c3, c4 = st.columns([3, 2, 3, 2])
ss.setdefault("attn_kind", "dec_enc")
kind = c1.radio(t("attn.kind", L), KINDS, key="attn_kind", format_func=lambda k: t(f"attn.{k}", L))
ss.attn_layer = min(ss.get("attn_layer", cfg.n_layers - 1), cfg.n_layers - 1)
layer = c2.selectbox(t("attn.layer", L), range(cfg.n_layers), key="attn_layer", format_func=lambda i: f"{i + 1}")
ss.setdefault("attn_heads", "one")
heads = c3.radio(
    t("attn.heads", L),
    ("one", "grid", "average"),
    key="attn_heads",
    horizontal=True,
    format_func=lambda m: t(f"attn.heads_{m}", L),
)
ss.attn_head = min(ss.get("attn_head", 0), cfg.n_heads - 1)
head = c4.selectbox(
    t("attn.head", L), range(cfg.n_heads), key="attn_head", format_func=lambda i: f"{i + 1}", disabled=heads != "one"
)
greedy = True
if target is not None and kind != "enc_self":
    ss.setdefault("attn_greedy", False)
    greedy = st.toggle(t("attn.greedy", L), key="attn_greedy", help=t("attn.greedy_help", L))
elif target is None:
    st.caption(t("attn.typed_greedy", L))

try:
    view = model_cached(
        ("inspect", source, None if greedy else target, 0, 0),
        lambda: translator.inspect(source, None if greedy else target),
    )
except TransformerError as exc:
    st.error(error_text(exc, L))
    st.stop()
warn_unknown(view.unknown, L)


def show(maps, rows_src: list[str], rows_tgt: list[str], key: str) -> None:
    """The chosen kind, layer and head(s) of one AttentionMaps."""
    attn = getattr(maps, f"{kind}_attns")[layer][0]  # (H, Lq, Lk)
    rows, cols = {"enc_self": (rows_src, rows_src), "dec_self": (rows_tgt, rows_tgt), "dec_enc": (rows_tgt, rows_src)}[
        kind
    ]
    common = dict(
        row_label=t(f"attn.rows_{kind}", L),
        col_label=t(f"attn.cols_{kind}", L),
        value_label=t("fig.weight", L),
        pad_rows=pad_positions(rows),
        pad_cols=pad_positions(cols),
        pad_label=t("fig.padding", L),
        pad_note=t("fig.pad_note", L),
    )
    title = t(f"attn.{kind}", L) + " · " + t("attn.layer", L) + f" {layer + 1}"
    if heads == "grid":
        fig = attention_grid_figure(attn, rows, cols, head_label=t("attn.head", L), title=title, **common)
    elif heads == "average":
        fig = attention_figure(attn.mean(0), rows, cols, title=f"{title} · {t('attn.heads_average', L)}", **common)
    else:
        fig = attention_figure(attn[head], rows, cols, title=f"{title} · {t('attn.head', L)} {head + 1}", **common)
    st.plotly_chart(fig, key=key)


c1, c2 = st.columns([3, 2], gap="large")
with c1:
    show(view.maps, view.src_tokens, view.dec_tokens, "attn_chart")
    computed_by("Translator.inspect → Transformer(enc_inputs, dec_inputs, return_attn=True)", L)
with c2:
    st.markdown(t(f"attn.{kind}_explain", L))
    st.markdown(t("attn.read", L))

st.header(t("attn.training", L))
job = current_job()
if model.snapshots:
    recorded = model.snapshot_pairs
    chosen = (source, target) if (source, target) in recorded else recorded[0]
    keep_option("attn_film_pair", recorded, chosen)
    pair = st.selectbox(
        t("attn.film_pair", L),
        recorded,
        key="attn_film_pair",
        format_func=lambda p: f"{visible(p[0])}  →  {visible(p[1])}",
        help=t("attn.film_pair_help", L, n=len(recorded)),
    )
    b = recorded.index(pair)
    batch = translator.make_batch([pair])
    src_tokens = translator.src_vocab.decode(batch.enc_inputs[0])
    dec_tokens = translator.tgt_vocab.decode(batch.dec_inputs[0])
    st.markdown(t("attn.training_intro", L, source=markdown(pair[0]), target=markdown(pair[1])))
    epochs = [e for e, _ in model.snapshots]
    keep_option("attn_epoch", epochs, epochs[-1])
    epoch = st.select_slider(t("attn.epoch", L), epochs, key="attn_epoch")
    one = dict(model.snapshots)[epoch].pair(b, len(src_tokens), len(dec_tokens))  # without the batch's padding
    show(one, src_tokens, dec_tokens, "attn_epoch_chart")
    computed_by("transformer.train.train(..., snapshot_every=N, snapshot_pairs=…) → EpochRecord.snapshot", L)
elif job is not None and job.kind == "replay":
    st.info(t("attn.replaying", L))
elif model.source == "bundled":
    st.markdown(t("attn.replay_intro", L))
    if st.button(t("attn.replay", L), key="replay_button", disabled=job is not None):
        start_replay()
        st.rerun()
else:
    st.info(t("attn.no_snapshots", L))
