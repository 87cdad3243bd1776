"""Positional encoding: the table the model adds to every token embedding (sinusoidal, learned, or none), and the
learned token embeddings themselves."""

import pandas as pd
import streamlit as st
import torch

from transformer.config import MAX_POSITIONS
from transformer.embeddings import CLASS_ORDER, neighbours, study_embeddings
from transformer.model import (
    pe_similarity_by_distance,
    positional_encoding,
    positional_encoding_table,
    rising_distances,
    wavelengths,
)
from transformer.text import markdown
from ui.export import caption, chart, file_name, formula, section, sheet_settings, table, text
from ui.i18n import sentences, t
from ui.model_cache import CacheKind
from ui.session import current, page_setup, pairs_summary
from ui.view_state import Param, choose_labelled, choose_number, choose_one, choose_several
from ui.widgets import computed_by, model_cached, page_header, warn_if_data_changed
from viz.embeddings import embedding_figure
from viz.positional import pe_distance_figure, pe_heatmap_figure, pe_lines_figure, pe_similarity_figure

D_MODELS = (4, 8, 16, 32, 64, 128, 256, 512)  # the d_model values offered besides the model's own
SAMPLES_PER_POSITION = 10  # points per position on the continuous curves
RISES_NAMED = 10  # distances named in the similarity sentence before "…"

L = page_setup()
ss = st.session_state
model = current()
cfg = model.translator.config
model_d, max_len, kind = cfg.d_model, cfg.max_len, cfg.pe

VIEW = {  # the link parameters of this page's view
    "d_model": Param("pe_d_model", "int"),
    "positions": Param("pe_positions", "int"),
    "dims": Param("pe_dims", "ints"),
    "table": Param("pe_source"),
    "emb": Param("emb_side"),  # the learned embeddings: which side, and the token whose neighbours are listed
    "token": Param("emb_token"),
}
page_header(L, "positional_encoding", "pe.title", "pe.intro", VIEW)
warn_if_data_changed(L)
formula(
    r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right) \qquad "
    r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"
)
if kind == "none":
    text(t("pe.none", L), "warning")
elif kind == "learned":
    text(t("pe.learned", L), "info")


def spread_dims(d_model: int) -> list[int]:
    """Dimensions to draw by default: the two fastest, the next pair, a middle pair and the two slowest."""
    half = d_model // 2
    return sorted({0, 1, 2, 3, half, half + 1, d_model - 2, d_model - 1} & set(range(d_model)))


shown_id, shown_d = ss.get("pe_model", (model.id, model_d))
if shown_id != model.id and ss.get("pe_d_model") == shown_d:  # the last model's own table: now this model's own
    ss.pe_d_model = model_d
ss.pe_model = (model.id, model_d)
c1, c2 = st.columns(2)
d_options = sorted({*D_MODELS, model_d})
d_model = choose_one(
    c1.select_slider, "d_model", d_options, key="pe_d_model", default=model_d, help=t("pe.d_model_help", L, d=model_d)
)
positions = choose_number(c2.slider, t("pe.positions", L), 2, MAX_POSITIONS, key="pe_positions", default=50)

own = d_model == model_d and kind != "none"  # the model's own table is on show (else the formula, for comparison)
source = "model" if own else "formula"
source_words = {  # which table is shown
    "model": "pe.source_model",
    "encoder": "pe.source_encoder",
    "decoder": "pe.source_decoder",
    "formula": "pe.source_formula",
}
if own and kind == "learned":  # encoder and decoder each learned a table; the formula is there to compare
    sources = {s: source_words[s] for s in ("encoder", "decoder", "formula")}
    source = choose_labelled(
        st.radio, t("pe.source", L), sources, L, key="pe_source", default="encoder", horizontal=True
    )
if d_model != model_d:
    text(t("pe.not_model", L, d=model_d), "info")

n = positions
if source != "formula" and positions > max_len:
    n = max_len
    text(t("pe.max_len", L, max_len=max_len, positions=positions, last=max_len - 1), "warning")
if source == "formula":
    pe_table = positional_encoding_table(n, d_model)  # (n, D)
    computed_by("transformer.model.positional_encoding_table", L)
elif source == "model":  # the sinusoidal buffer (the decoder's is the same)
    pe_table = model.translator.model.encoder.pos_emb.table()[:n]  # (n, D)
    computed_by("model.encoder.pos_emb.table() ← transformer.model.positional_encoding_table", L)
else:
    pe_table = getattr(model.translator.model, source).pos_emb.table()[:n]  # (n, D)
    computed_by(f"model.{source}.pos_emb.table() (nn.Parameter)", L)
sinusoidal = source == "formula" or kind == "sinusoidal"

if ss.get("pe_dims_for", d_model) != d_model:  # a new d_model: spread the dimensions over it again
    ss.pe_dims = spread_dims(d_model)
ss.pe_dims_for = d_model
dims = choose_several(
    st.multiselect,
    t("pe.dims", L),
    list(range(d_model)),
    key="pe_dims",
    default=spread_dims(d_model),
    format_func=lambda d: f"{d} ({'sin' if d % 2 == 0 else 'cos'})",
)

shown = caption(t(source_words[source], L), f"d_model {d_model}", t("pe.shown_positions", L, last=n - 1))
view = (source, d_model, n, L)  # what the charts below show: each is built once per model and view
table_name = (source, f"d_model-{d_model}")  # the charts' file names: positional-encoding-<source>-d_model-<d>-…


def view_chart(key: tuple, draw, chart_id: str, name: tuple[str, ...], chart_caption: str) -> None:
    """A chart of this view: key (its cache kind, then what else it depends on) with the view names the figure in
    the model cache, draw builds it on a miss; it downloads as positional-encoding-<name…>."""
    kind, *more = key
    figure = model_cached((kind, *view, *more), draw)
    chart(figure, chart_id, file_name("positional-encoding", *name), caption=chart_caption)


sheet_settings(
    L, [("d_model", d_model), (t("pe.positions", L), positions), (t("pe.source", L), t(source_words[source], L))]
)
section(t("pe.lines", L))
text(t("pe.lines_intro", L) + " " + t("pe.lines_dots" if sinusoidal else "pe.lines_learned", L))
curve = {}
if sinusoidal:
    curve_positions = torch.linspace(0, n - 1, (n - 1) * SAMPLES_PER_POSITION + 1)  # (S,)
    curve = dict(curve=positional_encoding(curve_positions, d_model), curve_positions=curve_positions.tolist())
view_chart(
    (CacheKind.PE_LINES, tuple(dims)),
    lambda: pe_lines_figure(
        pe_table,
        dims,
        position_label=t("pe.position", L),
        value_label=t("pe.value", L),
        dim_label=t("pe.dim", L),
        **curve,
    ),
    "pe_lines",
    (*table_name, "dims"),
    caption(t("pe.lines", L), shown, f"{t('pe.dims', L)}: {', '.join(map(str, dims)) or '–'}"),
)
if sinusoidal:
    computed_by("transformer.model.positional_encoding", L)

c1, c2 = st.columns(2, gap="large")
with c1:
    section(t("pe.heatmap", L))
    text(t("pe.heatmap_intro", L))
    view_chart(
        (CacheKind.PE_HEATMAP,),
        lambda: pe_heatmap_figure(
            pe_table,
            position_label=t("pe.position", L),
            dim_label=t("pe.dimension", L),
            value_label=t("pe.value", L),
        ),
        "pe_heatmap",
        (*table_name, "table"),
        caption(t("pe.heatmap", L), shown),
    )
with c2:
    section(t("pe.similarity", L))
    formula(r"\mathrm{sim}(p, q) = PE_p \cdot PE_q\,")
    if sinusoidal:
        similarity = pe_similarity_by_distance(d_model, n)  # (n,)
        rises = rising_distances(similarity)
        named = ", ".join(str(k) for k in rises[:RISES_NAMED]) + (", …" if len(rises) > RISES_NAMED else "")
        text(
            t("pe.similarity_intro", L, top=f"{float(similarity[0]):g}")
            + " "
            + (
                t("pe.similarity_rises", L, d=d_model, rises=named, count=len(rises), last=n - 1)
                if rises
                else t("pe.similarity_falls", L, last=n - 1)
            )
            + (" " + t("pe.similarity_odd", L) if d_model % 2 else "")
        )
    else:
        text(t("pe.similarity_learned", L))
    view_chart(
        (CacheKind.PE_SIMILARITY,),
        lambda: pe_similarity_figure(pe_table, position_label=t("pe.position", L), value_label=t("pe.dot", L)),
        "pe_similarity",
        (*table_name, "similarity"),
        caption(t("pe.similarity", L), shown),
    )
    if sinusoidal:
        view_chart(
            (CacheKind.PE_DISTANCE,),
            lambda: pe_distance_figure(
                similarity,
                rises,
                distance_label=t("pe.distance", L),
                value_label=t("pe.dot", L),
                rise_label=t("pe.rises_again", L),
            ),
            "pe_distance",
            (f"d_model-{d_model}", "similarity-by-distance"),  # the formula's, whatever the table on show
            caption(
                t("pe.similarity", L), t("pe.distance", L), f"d_model {d_model}", t("pe.shown_positions", L, last=n - 1)
            ),
        )
        computed_by("transformer.model.pe_similarity_by_distance, transformer.model.rising_distances", L)

section(t("pe.wavelengths", L))
text(t("pe.wavelengths_intro", L))
table(
    pd.DataFrame(
        [
            (i, f"{2 * i}, {2 * i + 1}" if 2 * i + 1 < d_model else f"{2 * i}", f"{w:,.1f}")
            for i, w in enumerate(wavelengths(d_model))
        ],
        columns=["i", t("pe.pair_dims", L), t("pe.wavelength", L)],
    ),
    hide_index=True,
    height=min(400, 35 * (d_model // 2 + 2)),
)


# ---------------------------------------------------------------- the learned embeddings (issue 30 §8)
EMB_SIDES = {"source": "emb.side_source", "target": "emb.side_target"}
CLASS_KEYS = {  # transformer.embeddings.CLASS_ORDER: each class's words
    "pronoun": "emb.class_pronoun",
    "noun": "emb.class_noun",
    "verb": "emb.class_verb",
    "adjective": "emb.class_adjective",
    "number": "emb.class_number",
    "measure word": "emb.class_measure",
    "time word": "emb.class_time",
    "function word": "emb.class_function",
    "punctuation": "emb.class_punctuation",
    "several": "emb.class_several",
    "other": "emb.class_other",
}
VERDICT_KEYS = {"clear": "emb.verdict_clear", "partly": "emb.verdict_partly", "no": "emb.verdict_no"}
NEIGHBOURS = 8  # nearest tokens listed

section(t("emb.title", L))
formula(r"\cos(e_a, e_b) = \frac{e_a \cdot e_b}{\lVert e_a \rVert\,\lVert e_b \rVert}")
text(t("emb.intro", L))
side = choose_labelled(st.radio, t("emb.side", L), EMB_SIDES, L, key="emb_side", horizontal=True)
emb = model_cached((CacheKind.EMBEDDINGS, side), lambda: study_embeddings(model.translator, side))
names = {c: t(CLASS_KEYS[c], L) for c in CLASS_ORDER}
token = choose_one(st.selectbox, t("emb.token", L), emb.tokens, key="emb_token", help=t("emb.token_help", L))
chosen = emb.tokens.index(token)
near = neighbours(emb.weights, chosen, NEIGHBOURS)
side_words = t(EMB_SIDES[side], L)
in_data = pairs_summary()  # how often each token occurs in the tab's pairs: the most frequent are labelled first
counts = tuple((in_data.src_counts if side == "source" else in_data.tgt_counts).get(tok, 0) for tok in emb.tokens)
chart(
    model_cached(
        (CacheKind.EMBEDDINGS_FIGURE, side, chosen, counts, L),
        lambda: embedding_figure(
            emb.projection.xy,
            emb.tokens,
            emb.classes,
            names,
            title=caption(t("emb.title", L), side_words),
            x_label=t("emb.axis", L, n=1, share=f"{100 * emb.projection.explained[0]:.1f}"),
            y_label=t("emb.axis", L, n=2, share=f"{100 * emb.projection.explained[1]:.1f}"),
            chosen=chosen,
            near=[j for j, _ in near],
            near_name=t("emb.nearest", L, n=len(near)),
            counts=counts,
        ),
    ),
    "emb_projection",
    file_name("embeddings", side),
    caption=caption(t("emb.title", L), side_words),
)
computed_by("transformer.embeddings.study_embeddings → pca_2d (torch.linalg.svd), separation", L)
found = emb.separation
kept = f"{100 * emb.projection.kept:.0f}"
said = [t("emb.picture_keeps" if emb.projection.keeps_most else "emb.picture_loses", L, kept=kept, d=cfg.d_model)]
if found is None:
    said.insert(0, t("emb.no_classes", L))
else:
    values = dict(agree=found.agree, n=found.tokens, share=f"{100 * found.share:.0f}", reached=f"{found.reached:,}")
    said.insert(0, t(VERDICT_KEYS[found.verdict], L, side=side_words, chance=f"{100 * found.chance:.0f}", **values))
    if found.best is not None and found.verdict != "no":  # a class apart from the rest, where the classes separate
        best, agree, n = found.best
        said.insert(1, t("emb.best_class", L, kind=names.get(best, best), agree=agree, n=n))
text(sentences(said, L))
table(
    pd.DataFrame(
        [(emb.tokens[j], names.get(emb.classes[j], emb.classes[j]), round(c, 3)) for j, c in near],
        columns=[t("emb.col_token", L), t("emb.col_class", L), t("emb.col_cosine", L)],
    ),
    hide_index=True,
)
text(
    t("emb.neighbours_caption", L, n=len(near), token=markdown(token), kind=names.get(emb.classes[chosen], "")),
    "caption",
)
