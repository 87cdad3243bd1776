"""Greedy decoding step by step: the decoder input so far, the next-token probabilities, where it looked."""

import streamlit as st

from transformer.data import tokenize
from transformer.errors import TransformerError
from ui.i18n import error_text, t
from ui.state import current, page_setup
from ui.widgets import computed_by, model_cached, sentence_picker, warn_unknown
from viz.attention import source_attention_figure
from viz.decoding import topk_figure

L = page_setup()
ss = st.session_state
model = current()
translator = model.translator
cfg = translator.config

st.title(t("dec.title", L))
st.markdown(t("dec.intro", L))
st.latex(r"y_t = \arg\max_{w}\; P(w \mid S, y_1, \dots, y_{t-1}, \text{source})")

source, reference = sentence_picker(L, "dec")
try:
    result = model_cached(("translate", source), lambda: translator.translate(source))
except TransformerError as exc:
    st.error(error_text(exc, L))
    st.stop()
warn_unknown(result.unknown, L)
steps = result.steps

# the step slider and the Previous / Next buttons share one value, reset when the sentence changes
if ss.get("dec_for") != (model.id, source):
    ss.dec_for, ss.dec_step = (model.id, source), 1
ss.dec_step = min(max(ss.get("dec_step", 1), 1), len(steps))


def _move(delta: int) -> None:
    ss.dec_step = min(max(ss.dec_step + delta, 1), len(steps))


c1, c2, c3 = st.columns([1, 6, 1], vertical_alignment="bottom")
c1.button(t("dec.prev", L), on_click=_move, args=(-1,), disabled=ss.dec_step <= 1, key="prev_step", width="stretch")
if len(steps) > 1:
    c2.slider(t("dec.step", L), 1, len(steps), key="dec_step")
c3.button(
    t("dec.next", L), on_click=_move, args=(1,), disabled=ss.dec_step >= len(steps), key="next_step", width="stretch"
)
step = steps[ss.dec_step - 1]
chosen_so_far = [s.token for s in steps[: ss.dec_step]]

st.markdown(t("dec.at_step", L, t=step.step, n=len(steps)))
st.markdown(
    f"{t('dec.input', L)} &nbsp; "
    + " ".join(f"`{tok}`" for tok in step.dec_input)
    + f" &nbsp; → &nbsp; **`{step.token}`**"
)
c1, c2 = st.columns(2, gap="large")
with c1:
    st.subheader(t("dec.probs", L))
    ss.setdefault("dec_k", 5)
    k = st.slider(t("dec.k", L), 2, min(15, len(translator.tgt_vocab)), key="dec_k")
    st.plotly_chart(
        topk_figure(
            step.probs,
            translator.tgt_vocab.itos,
            step.token_id,
            k=k,
            prob_label=t("dec.probability", L),
            token_label=t("vocab.token", L),
            chosen_label=t("dec.chosen", L),
        ),
        key="dec_topk",
    )
    computed_by("transformer.decode.greedy_decode → DecodeStep.probs", L)
with c2:
    st.subheader(t("dec.cross", L))
    ss.dec_layer = min(ss.get("dec_layer", cfg.n_layers - 1), cfg.n_layers - 1)
    layer = st.selectbox(t("attn.layer", L), range(cfg.n_layers), key="dec_layer", format_func=lambda i: f"{i + 1}")
    newest = step.dec_enc_attns[layer][:, -1, :]  # (H, Ls): the newest position's row in every head
    st.plotly_chart(
        source_attention_figure(
            newest,
            translator.src_vocab.decode(translator.src_vocab.encode(result.src_tokens)[0]),
            head_label=t("attn.head", L),
            average_label=t("attn.heads_average", L),
            value_label=t("fig.weight", L),
            source_label=t("data.source", L),
        ),
        key="dec_cross",
    )
    computed_by("transformer.decode.greedy_decode → DecodeStep.dec_enc_attns", L)
    st.markdown(t("dec.cross_explain", L, token=step.dec_input[-1]))

st.subheader(t("dec.output", L))
output = [tok for tok in chosen_so_far if tok != "E"]
st.markdown(" ".join(f"`{tok}`" for tok in output) or "–")
if ss.dec_step == len(steps):
    reason = t("dec.stop_eos", L) if result.stop_reason == "eos" else t("dec.stop_max", L, n=len(steps))
    st.success(t("dec.final", L, text=result.text or "–", reason=reason))
    if reference is not None:
        ref_tokens = tokenize(reference, translator.tokenizer)
        st.markdown(t("dec.reference", L, ref=reference, mark="✓" if result.tokens == ref_tokens else "✗"))
