"""Positional encoding: the sinusoidal table the model adds to every token embedding."""

import pandas as pd
import streamlit as st

from transformer.config import MAX_POSITIONS
from transformer.model import positional_encoding_table, wavelengths
from ui.i18n import t
from ui.state import current, page_setup
from ui.widgets import computed_by, warn_if_data_changed
from viz.positional import pe_heatmap_figure, pe_lines_figure, pe_similarity_figure

L = page_setup()
ss = st.session_state
model = current()
model_d = model.translator.config.d_model

st.title(t("pe.title", L))
st.markdown(t("pe.intro", L))
warn_if_data_changed(L)
st.latex(
    r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right) \qquad "
    r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)"
)

ss.setdefault("pe_d_model", model_d)
ss.setdefault("pe_positions", 50)
c1, c2 = st.columns(2)
d_model = c1.select_slider(
    "d_model",
    sorted({4, 8, 16, 32, 64, 128, 256, 512, model_d, ss.pe_d_model}),
    key="pe_d_model",
    help=t("pe.d_model_help", L, d=model_d),
)
positions = c2.slider(t("pe.positions", L), 2, MAX_POSITIONS, key="pe_positions")

if d_model == model_d:
    table = model.translator.model.encoder.pos_emb.pe[:positions]  # the model's own buffer
    computed_by("model.encoder.pos_emb.pe ← transformer.model.positional_encoding_table", L)
else:
    table = positional_encoding_table(positions, d_model)
    computed_by("transformer.model.positional_encoding_table", L)
    st.info(t("pe.not_model", L, d=model_d))

defaults = sorted(
    {0, 1, min(2, d_model - 1), min(3, d_model - 1), d_model // 2, d_model // 2 + 1, d_model - 2, d_model - 1}
    & set(range(d_model))
)
if "pe_dims" not in ss or any(d >= d_model for d in ss.pe_dims):
    ss.pe_dims = defaults
dims = st.multiselect(
    t("pe.dims", L),
    list(range(d_model)),
    key="pe_dims",
    format_func=lambda d: f"{d} ({'sin' if d % 2 == 0 else 'cos'})",
)

st.subheader(t("pe.lines", L))
st.markdown(t("pe.lines_intro", L))
st.plotly_chart(
    pe_lines_figure(
        table, dims, position_label=t("pe.position", L), value_label=t("pe.value", L), dim_label=t("pe.dim", L)
    ),
    key="pe_lines",
)

c1, c2 = st.columns(2, gap="large")
with c1:
    st.subheader(t("pe.heatmap", L))
    st.markdown(t("pe.heatmap_intro", L))
    st.plotly_chart(
        pe_heatmap_figure(
            table, position_label=t("pe.position", L), dim_label=t("pe.dimension", L), value_label=t("pe.value", L)
        ),
        key="pe_heatmap",
    )
with c2:
    st.subheader(t("pe.similarity", L))
    st.markdown(t("pe.similarity_intro", L))
    st.latex(r"\mathrm{sim}(p, q) = PE_p \cdot PE_q")
    st.plotly_chart(
        pe_similarity_figure(table, position_label=t("pe.position", L), value_label=t("pe.dot", L)), key="pe_similarity"
    )

st.subheader(t("pe.wavelengths", L))
st.markdown(t("pe.wavelengths_intro", L))
st.dataframe(
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
