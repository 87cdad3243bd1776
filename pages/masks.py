"""Masks: which positions each query may not look at, and what a mask does to the attention scores."""

import streamlit as st

from transformer.errors import TransformerError
from transformer.masks import (
    get_attn_pad_mask,
    get_attn_subsequence_mask,
    get_dec_enc_attn_mask,
    get_dec_self_attn_mask,
)
from ui.i18n import error_text, t
from ui.state import current, page_setup
from ui.widgets import computed_by, model_cached, pad_positions, sentence_picker, warn_if_data_changed, warn_unknown
from viz.attention import attention_figure
from viz.masks import mask_figure, score_figure

L = page_setup()
ss = st.session_state
model = current()
translator = model.translator

st.title(t("masks.title", L))
st.markdown(t("masks.intro", L))
warn_if_data_changed(L)

c1, c2 = st.columns([3, 2], gap="large")
with c1:
    source, target = sentence_picker(L, "masks")
with c2:
    ss.setdefault("mask_src_pad", 1)
    ss.setdefault("mask_tgt_pad", 1)
    src_pad = st.slider(t("masks.src_pad", L), 0, 4, key="mask_src_pad", help=t("masks.pad_help", L))
    tgt_pad = st.slider(t("masks.tgt_pad", L), 0, 4, key="mask_tgt_pad", help=t("masks.pad_help", L))
if target is None:
    st.caption(t("masks.greedy_target", L))

try:
    view = model_cached(
        ("inspect", source, target, src_pad, tgt_pad), lambda: translator.inspect(source, target, src_pad, tgt_pad)
    )
except TransformerError as exc:
    st.error(error_text(exc, L))
    st.stop()
warn_unknown(view.unknown, L)
enc, dec = view.enc_inputs, view.dec_inputs  # (1, Ls), (1, Lt)
src, tgt = view.src_tokens, view.dec_tokens
st.code(
    f"enc_inputs = {enc.tolist()}   # {' '.join(src)}\ndec_inputs = {dec.tolist()}   # {' '.join(tgt)}",
    language="python",
)

labels = dict(
    blocked_label=t("masks.blocked", L),
    allowed_label=t("masks.allowed", L),
    row_label=t("fig.query", L),
    col_label=t("fig.key", L),
)
masks = {
    "enc_pad": (get_attn_pad_mask(enc, enc)[0], src, src, "get_attn_pad_mask(enc_inputs, enc_inputs)"),
    "subsequent": (get_attn_subsequence_mask(dec)[0], tgt, tgt, "get_attn_subsequence_mask(dec_inputs)"),
    "dec_pad": (get_attn_pad_mask(dec, dec)[0], tgt, tgt, "get_attn_pad_mask(dec_inputs, dec_inputs)"),
    "dec_self": (get_dec_self_attn_mask(dec)[0], tgt, tgt, "get_dec_self_attn_mask(dec_inputs)"),
    "dec_enc": (get_dec_enc_attn_mask(dec, enc)[0], tgt, src, "get_dec_enc_attn_mask(dec_inputs, enc_inputs)"),
}
st.info(t("masks.legend", L))
for row in (("enc_pad", "subsequent"), ("dec_pad", "dec_self"), ("dec_enc",)):
    columns = st.columns(2, gap="large")
    for col, name in zip(columns, row):
        mask, rows, cols, call = masks[name]
        with col:
            st.subheader(t(f"masks.{name}", L))
            st.markdown(t(f"masks.{name}_intro", L))
            st.plotly_chart(
                mask_figure(mask, rows, cols, title=t("masks.shape", L, q=len(rows), k=len(cols)), **labels),
                key=f"mask_fig_{name}",
            )
            computed_by(f"transformer.masks.{call}", L)

st.header(t("masks.effect", L))
st.markdown(t("masks.effect_intro", L))
blocked, allowed = t("masks.blocked", L), t("masks.allowed", L)
st.latex(
    r"\mathrm{Attention}(Q,K,V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}} + M\right)V,"
    r"\qquad M_{ij} = \begin{cases}-\infty & \text{" + blocked + r"}\\ 0 & \text{" + allowed + r"}\end{cases}"
)
kinds = {"enc_self": ("enc_self", "enc_pad"), "dec_self": ("dec_self", "dec_self"), "dec_enc": ("dec_enc", "dec_enc")}
c1, c2, c3 = st.columns(3)
ss.setdefault("mask_kind", "dec_self")
kind = c1.radio(t("attn.kind", L), list(kinds), key="mask_kind", format_func=lambda k: t(f"attn.{k}", L))
n_layers, n_heads = translator.config.n_layers, translator.config.n_heads
ss.mask_layer = min(ss.get("mask_layer", 0), n_layers - 1)
ss.mask_head = min(ss.get("mask_head", 0), n_heads - 1)
layer = c2.selectbox(t("attn.layer", L), range(n_layers), key="mask_layer", format_func=lambda i: f"{i + 1}")
head = c3.selectbox(t("attn.head", L), range(n_heads), key="mask_head", format_func=lambda i: f"{i + 1}")

prefix, mask_name = kinds[kind]
mask, rows, cols, _ = masks[mask_name]
scores = getattr(view.maps, f"{prefix}_scores")[layer][0, head]  # (Lq, Lk)
weights = getattr(view.maps, f"{prefix}_attns")[layer][0, head]  # (Lq, Lk)
axis = dict(row_label=t("fig.query", L), col_label=t("fig.key", L))
c1, c2, c3 = st.columns(3)
with c1:
    st.markdown(f"**1. {t('masks.scaled', L)}**")
    st.latex(r"\frac{QK^\top}{\sqrt{d_k}}")
    st.plotly_chart(score_figure(scores, rows, cols, value_label=t("masks.score", L), **axis), key="mask_scores")
with c2:
    st.markdown(f"**2. {t('masks.masked', L)}**")
    st.latex(r"\frac{QK^\top}{\sqrt{d_k}} + M")
    st.plotly_chart(
        score_figure(
            scores, rows, cols, value_label=t("masks.score", L), mask=mask, blocked_label=t("masks.blocked", L), **axis
        ),
        key="mask_masked",
    )
with c3:
    st.markdown(f"**3. {t('masks.softmax', L)}**")
    st.latex(r"\mathrm{softmax}(\cdot)")
    st.plotly_chart(
        attention_figure(
            weights,
            rows,
            cols,
            value_label=t("fig.weight", L),
            pad_rows=pad_positions(rows),
            pad_cols=pad_positions(cols),
            pad_label=t("fig.padding", L),
            pad_note=t("fig.pad_note", L),
            **axis,
        ),
        key="mask_weights",
    )
computed_by("transformer.model.scaled_dot_product_attention (Transformer(..., return_attn=True))", L)
st.markdown(t("masks.effect_outro", L))
