"""Data: the sentence pairs, how they are tokenized, the vocabularies and the make_data tensors."""

import pandas as pd
import streamlit as st

from transformer.config import MAX_DATA_BYTES
from transformer.data import SPECIALS, TOKENIZERS, Problem, check_pairs, find_control, format_pairs, parse_pairs
from transformer.errors import DataError
from transformer.text import visible
from ui.i18n import problem_text, t
from ui.state import apply_editor_changes, page_setup, set_pairs
from ui.tables import make_data_tables, token_preview, vocab_table

L = page_setup()
ss = st.session_state

st.title(t("data.title", L))
st.markdown(t("data.intro", L))


def _apply_edits(key: str) -> None:
    # the editor keeps its own list of changes against the table it was drawn with (editor_base)
    ss.pairs = apply_editor_changes(ss.editor_base, ss[key])


def _add_pair() -> None:
    src, tgt = ss.new_source.strip(), ss.new_target.strip()
    if not src or not tgt:
        ss.add_error = t("data.add_both", L)
        return
    control = find_control(src + tgt)
    if control is not None:  # the row it would be, refused with the message the table would show for it
        ss.add_error = problem_text(Problem("control", len(ss.pairs) + 1, visible(control)), L)
        return
    ss.add_error = None
    set_pairs([*ss.pairs, (src, tgt)])
    ss.new_source = ss.new_target = ""


left, right = st.columns([3, 2], gap="large")
with left:
    st.selectbox(t("data.tokenizer", L), TOKENIZERS, key="tokenizer", format_func=lambda m: t(f"tokenizer.{m}", L))
    editor_key = f"editor_{ss.editor_version}"
    if editor_key not in ss and ss.editor_base != ss.pairs:  # back on this page: the old editor's changes are
        set_pairs(ss.pairs)  # in the pairs already, so a new editor starts from them
        editor_key = f"editor_{ss.editor_version}"
    st.data_editor(
        pd.DataFrame(ss.editor_base, columns=["source", "target"], index=range(1, len(ss.editor_base) + 1)),
        key=editor_key,
        num_rows="dynamic",
        width="stretch",
        hide_index=False,
        on_change=_apply_edits,
        args=(editor_key,),
        column_config={
            "source": st.column_config.TextColumn(t("data.source", L), width="medium"),
            "target": st.column_config.TextColumn(t("data.target", L), width="medium"),
        },
    )
    with st.container(border=True):
        st.markdown(f"**{t('data.add_pair', L)}**")
        c1, c2, c3 = st.columns([4, 4, 2], vertical_alignment="bottom")
        c1.text_input(t("data.source", L), key="new_source", placeholder="我 喜 欢 你")
        c2.text_input(t("data.target", L), key="new_target", placeholder="I love you .")
        c3.button(t("data.add", L), on_click=_add_pair, key="add_pair", width="stretch")
        if ss.get("add_error"):
            st.error(ss.add_error)

with right:
    problems = check_pairs(ss.pairs, ss.tokenizer)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    st.metric(t("data.pairs", L), len(ss.pairs))
    if errors:
        st.error(t("data.errors", L) + "\n\n" + "\n".join(f"- {problem_text(p, L)}" for p in errors))
    if warnings:
        st.warning("\n".join(f"- {problem_text(p, L)}" for p in warnings))
    if not problems:
        st.success(t("data.ok", L))

    st.subheader(t("data.file", L))
    mode = st.radio(
        t("data.upload_mode", L),
        ["replace", "append"],
        horizontal=True,
        format_func=lambda m: t(f"data.upload_{m}", L),
        key="upload_mode",
    )
    upload = st.file_uploader(
        t("data.upload", L, mb=MAX_DATA_BYTES // 1_000_000),
        type=["csv", "tsv", "txt"],
        key="pairs_upload",
        max_upload_size=max(1, MAX_DATA_BYTES // 1_000_000),
    )
    if upload is not None and upload.file_id != ss.get("pairs_upload_done"):
        ss.pairs_upload_done = upload.file_id
        try:
            loaded = parse_pairs(upload.getvalue(), upload.name)
        except DataError as exc:
            ss.upload_message = ("error", t("data.upload_failed", L, name=upload.name, reason=str(exc)))
        else:
            set_pairs(loaded if mode == "replace" else [*ss.pairs, *loaded])
            ss.upload_message = ("success", t("data.upload_ok", L, n=len(loaded), name=upload.name))
        st.rerun()
    if ss.get("upload_message"):
        kind, text = ss.upload_message
        (st.error if kind == "error" else st.success)(text)
    st.download_button(
        t("data.download", L),
        format_pairs(ss.pairs).encode("utf-8"),
        file_name="pairs.tsv",
        mime="text/tab-separated-values",
        key="download_pairs",
    )

valid = [(s, g) for s, g in ss.pairs if s.strip() and g.strip()]
st.header(t("data.tokens", L))
st.markdown(t("data.tokens_intro", L, mode=t(f"tokenizer.{ss.tokenizer}", L)))
st.dataframe(token_preview(valid, ss.tokenizer, L), width="stretch", hide_index=True)

st.header(t("data.vocab", L))
st.markdown(t("data.vocab_intro", L, specials=", ".join(f"`{s}`" for s in SPECIALS)))
src_table, tgt_table = vocab_table(valid, ss.tokenizer, L)
c1, c2 = st.columns(2)
c1.markdown(f"**{t('data.src_vocab', L, n=len(src_table))}**")
c1.dataframe(src_table, hide_index=True, width="stretch", height=300)
c2.markdown(f"**{t('data.tgt_vocab', L, n=len(tgt_table))}**")
c2.dataframe(tgt_table, hide_index=True, width="stretch", height=300)

st.header("make_data")
st.markdown(t("data.make_data_intro", L))
if valid:
    n = 1
    if len(valid) > 1:  # a slider needs two different ends
        n = st.slider(t("data.first_pairs", L), 1, min(5, len(valid)), min(2, len(valid)), key="make_data_rows")
    for name, ids, tokens in make_data_tables(valid[:n], ss.tokenizer):
        st.markdown(f"`{name}` — {t(f'data.{name}', L)}")
        c1, c2 = st.columns(2)
        c1.code(repr(ids), language="python")
        c2.dataframe(tokens, hide_index=True, width="stretch")
