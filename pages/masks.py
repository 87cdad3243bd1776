"""Masks: which positions each query may not look at, and what a mask does to the attention scores."""

from functools import partial

import streamlit as st

from transformer.masks import get_attn_pad_mask, get_attn_subsequence_mask
from transformer.model import DEC_ENC, DEC_SELF
from ui.export import caption, chart, code, file_name, for_sentence, formula, section, sheet_settings, text
from ui.i18n import t
from ui.model_cache import CacheKind
from ui.session import current, page_setup
from ui.view_state import Param, choose_numbered, padded_picker
from ui.widgets import (
    computed_by,
    kind_picker,
    model_cached,
    model_cached_or_end,
    padded_sentence,
    page_header,
    warn_if_data_changed,
    warn_unknown,
    wrapping_row,
)
from viz.masks import mask_effect_figures, mask_figure

MASK_PX = 440  # one mask and its explanation
EFFECT_PX, EFFECT_HEADING_PX = 300, 130  # one of the three steps of "what a mask does", and its heading

L = page_setup()
translator = current().translator
cfg = translator.config

VIEW = {  # the link parameters of this page's view
    **padded_picker("masks", "mask"),
    "kind": Param("mask_kind"),
    "layer": Param("mask_layer", "index"),
    "head": Param("mask_head", "index"),
}
page_header(L, "masks", "masks.title", "masks.intro", VIEW)
warn_if_data_changed(L)
switched_off = [name for name in ("pad_mask", "look_ahead_mask") if not getattr(cfg, name)]
off_words = {"pad_mask": "masks.pad_mask_off", "look_ahead_mask": "masks.look_ahead_mask_off"}
for name in switched_off:
    text(t(off_words[name], L), "warning")

pad_labels = (t("masks.src_pad", L), t("masks.tgt_pad", L), t("masks.pad_help", L), t("masks.greedy_target", L))
source, target, src_pad, tgt_pad = padded_sentence(L, "masks", "mask", pad_labels)
view = model_cached_or_end(
    L,
    (CacheKind.INSPECT, source, target, src_pad, tgt_pad),
    lambda: translator.inspect(source, target, src_pad, tgt_pad),
)
warn_unknown(view.unknown, L)
enc, dec = view.enc_inputs, view.dec_inputs  # (1, Ls), (1, Lt)
src, tgt = view.src_tokens, view.dec_tokens
sheet_settings(L, [(t("masks.src_pad", L), src_pad), (t("masks.tgt_pad", L), tgt_pad)])
code(
    f"enc_inputs = {enc.tolist()}   # {' '.join(src)}\ndec_inputs = {dec.tolist()}   # {' '.join(tgt)}",
    language=None,  # plain text: Streamlit's grey for Python comments (3.5:1) is too faint for the tokens
)
# the tokens of the grids, padding and start included: this page teaches them
sentence = for_sentence(L, " ".join(src), " ".join(tgt), specials=True)

labels = dict(
    blocked_label=t("masks.blocked", L),
    allowed_label=t("masks.allowed", L),
    row_label=t("fig.query", L),
    col_label=t("fig.key", L),
)


def kind_mask(kind):
    """The mask of one attention kind as this model applies it (a switch that is off leaves its part out), (Lq, Lk),
    with its query and key tokens; None: nothing blocked."""
    mask = kind.mask(cfg, enc, dec)  # (1, Lq, Lk) or None
    return (None if mask is None else mask[0], *kind.sides(src, tgt))


# the masks this model really applies: a switch that is off leaves its mask out (None: nothing blocked)
masks = {  # name: (mask, query tokens, key tokens, what computed it, the switches it needs)
    "enc_pad": (
        get_attn_pad_mask(enc, enc)[0] if cfg.pad_mask else None,
        src,
        src,
        "transformer.masks.get_attn_pad_mask(enc_inputs, enc_inputs)",
        ("pad_mask",),
    ),
    "subsequent": (
        get_attn_subsequence_mask(dec)[0] if cfg.look_ahead_mask else None,
        tgt,
        tgt,
        "transformer.masks.get_attn_subsequence_mask(dec_inputs)",
        ("look_ahead_mask",),
    ),
    "dec_pad": (
        get_attn_pad_mask(dec, dec)[0] if cfg.pad_mask else None,
        tgt,
        tgt,
        "transformer.masks.get_attn_pad_mask(dec_inputs, dec_inputs)",
        ("pad_mask",),
    ),
    **{  # a kind's whole mask: its parts together
        kind.name: (
            *kind_mask(kind),
            f"transformer.model.ATTENTION_KINDS[{kind.name!r}].mask(cfg, enc_inputs, dec_inputs)",
            kind.masks,
        )
        for kind in (DEC_SELF, DEC_ENC)
    },
}
words = {  # each mask: its title and what it blocks
    "enc_pad": ("masks.enc_pad", "masks.enc_pad_intro"),
    "subsequent": ("masks.subsequent", "masks.subsequent_intro"),
    "dec_pad": ("masks.dec_pad", "masks.dec_pad_intro"),
    DEC_SELF.name: ("masks.dec_self", "masks.dec_self_intro"),
    DEC_ENC.name: ("masks.dec_enc", "masks.dec_enc_intro"),
}
section(t("masks.all", L))
text(t("masks.legend", L), "info")
# each mask wide enough for its labels: two side by side in a wide window, one under the other in a narrow one
for col, name in zip(wrapping_row([MASK_PX] * len(masks)), masks):
    mask, rows, cols, call, needs = masks[name]
    off = [switch for switch in needs if switch in switched_off]
    title_key, intro_key = words[name]
    with col:
        section(t(title_key, L), 3)
        text(t(intro_key, L))
        title = t("masks.shape", L, q=len(rows), k=len(cols))
        chart(  # each figure built once per model and view, as the Attention page's: a rerun draws the same one
            model_cached(
                (CacheKind.MASK_FIGURE, name, source, target, src_pad, tgt_pad, L),
                partial(mask_figure, mask, rows, cols, title=title, **labels),
            ),
            f"mask_fig_{name}",
            file_name("mask", name),
            caption=caption(t(title_key, L), t("masks.shape", L, q=len(rows), k=len(cols)), sentence),
        )
        if off:
            text(t("masks.not_used", L, switches=", ".join(f"`{switch} = False`" for switch in off)), "caption")
        else:
            computed_by(call, L)

section(t("masks.effect", L))
text(t("masks.effect_intro", L))
blocked, allowed = t("masks.blocked", L), t("masks.allowed", L)
formula(
    r"\mathrm{Attention}(Q,K,V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}} + M\right)V,"
    r"\qquad M_{ij} = \begin{cases}-\infty & \text{" + blocked + r"}\\ 0 & \text{" + allowed + r"}\end{cases}"
)
c1, c2, c3 = st.columns(3)
kind = kind_picker(c1.radio, L, "mask_kind", default=DEC_SELF)
n_layers, n_heads = cfg.n_layers, cfg.n_heads
layer = choose_numbered(c2.selectbox, t("attn.layer", L), n_layers, key="mask_layer")
head = choose_numbered(c3.selectbox, t("attn.head", L), n_heads, key="mask_head")

mask, rows, cols = kind_mask(kind)
if mask is None:
    text(t("masks.no_mask_here", L), "info")
scores = view.maps.scores_of(kind)[layer][0, head]  # (Lq, Lk)
weights = view.maps.of(kind)[layer][0, head]  # (Lq, Lk)
figures = model_cached(
    (CacheKind.MASK_EFFECT, source, target, src_pad, tgt_pad, kind.name, layer, head, L),
    lambda: mask_effect_figures(
        scores,
        mask,
        weights,
        rows,
        cols,
        score_label=t("masks.score", L),
        weight_label=t("fig.weight", L),
        blocked_label=t("masks.blocked", L),
        row_label=t("fig.query", L),
        col_label=t("fig.key", L),
    ),
)
steps = (
    ("masks.scaled", r"\frac{QK^\top}{\sqrt{d_k}}", "mask_scores"),
    ("masks.masked", r"\frac{QK^\top}{\sqrt{d_k}} + M", "mask_masked"),
    ("masks.softmax", r"\mathrm{softmax}(\cdot)", "mask_weights"),
)
# in a row when the window is wide enough, else two and one; every heading as tall, so the grids line up
for i, (col, (name, latex, key), fig) in enumerate(zip(wrapping_row([EFFECT_PX] * 3, "small"), steps, figures), 1):
    with col:
        with st.container(height=EFFECT_HEADING_PX, border=False):
            text(f"**{i}. {t(name, L)}**")
            formula(latex)
        where = caption(
            t(name, L), t(kind.label, L), f"{t('attn.layer', L)} {layer + 1}", f"{t('attn.head', L)} {head + 1}"
        )
        chart(
            fig,
            key,
            file_name(name.replace(".", "-"), kind.name, f"layer-{layer + 1}", f"head-{head + 1}"),
            caption(where, sentence),
        )
computed_by("transformer.model.scaled_dot_product_attention (Transformer(..., return_attn=True))", L)
text(t("masks.effect_outro", L))
