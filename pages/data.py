"""Data: the sentence pairs, how they are tokenized, the vocabularies and the make_data tensors.

Up to EDITABLE_ROWS pairs the table is an editor; a larger one (a corpus from a file) is summarised instead (counts,
sentence lengths, vocabulary sizes, the most frequent tokens) and shown a page at a time, read-only.
"""

import math
from collections import Counter

import pandas as pd
import streamlit as st

from transformer import corpus
from transformer.bpe import Bpe, check_vocab_size
from transformer.config import MAX_BPE_VOCAB_SIZE, MAX_DATA_BYTES, MAX_TOKENS
from transformer.data import (
    SPECIALS,
    TOKENIZERS,
    Problem,
    find_control,
    format_pairs,
    tokenize,
)
from transformer.errors import DataError
from transformer.text import markdown, visible
from ui.data_columns import current_file, draw_columns, keep_file, load_file
from ui.datasets import DATASETS, bundled_pairs, dataset_pairs, pair_tags
from ui.export import column_px, hint, ids, metric, section, sheet_table, table, text, vega_chart
from ui.i18n import t
from ui.messages import error_text, problem_text
from ui.model_cache import bundled_training
from ui.session import (
    apply_editor_changes,
    choose_dataset,
    chosen_tokenizer,
    page_setup,
    pairs_summary,
    session_memo,
    set_pairs,
    usable_pairs,
)
from ui.tables import make_data_tables, piece_splits, piece_vocabulary, token_preview, vocab_tables
from ui.view_state import Param, choose_labelled, choose_number, choose_several, keep_in_range, keep_option
from ui.widgets import metric_row, page_header, pair_text
from viz.data import (
    SOURCE_COLOR,
    TARGET_COLOR,
    length_histogram_figure,
    length_histogram_spec,
    top_tokens_figure,
    top_tokens_spec,
)

MAKE_DATA_WORDS = {"enc_inputs": "data.enc_inputs", "dec_inputs": "data.dec_inputs", "dec_outputs": "data.dec_outputs"}
SHEET_ROWS = 3  # the rows of each of its tables the lesson sheet prints (a sheet is at most 4 A4 pages)
EDITABLE_ROWS = 1_000  # above this many pairs the table is summarised and shown a page at a time, read-only
PAGE_ROWS = 100  # pairs per page of a table too large to edit
TOP_TOKENS = 20  # most frequent tokens shown per side of a large table
PREVIEW_ROWS = 100  # pairs shown in the tokens table; the rest are counted
VOCAB_ROWS = 500  # tokens shown per vocabulary table
PICK_ROWS = 200  # pairs offered for the make_data preview
PROBLEMS_SHOWN = 10  # problems listed per box

L = page_setup()
ss = st.session_state

page_header(
    L,
    "data",
    "data.title",
    "data.intro",
    {"tokenizer": Param("tokenizer"), "vocab_size": Param("bpe_vocab_size", "int")},
)


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


def _say(kind: str, key: str, **values) -> None:
    """A message about the table as it is now; it is shown until the pairs change."""
    ss.pairs_message = (kind, key, values, list(ss.pairs))


def _take_upload() -> None:
    """A file chosen in the uploader, read before the page runs, so that the one run draws the new table."""
    upload = ss.pairs_upload
    if upload is None:  # the file was removed from the uploader: the table stays
        return
    try:
        loaded = load_file(upload.getvalue(), upload.name)  # its columns' roles inferred (ui.data_columns)
        if not loaded.taken.pairs:
            raise DataError(f"{upload.name} has no row with both a source and a target in the columns chosen.")
    except DataError as exc:
        _say("error", "data.upload_failed", name=upload.name, error=exc)
        return
    pairs = loaded.taken.pairs
    if ss.get("data_upload_mode", "replace") == "replace":
        keep_file(loaded)  # its columns can be chosen while the table holds its pairs
        set_pairs(pairs)
    else:
        set_pairs([*ss.pairs, *pairs])
    left_out = len(loaded.taken.skipped)
    key = "data.upload_ok_left_out" if left_out else "data.upload_ok"
    _say("success", key, n=f"{len(pairs):,}", name=upload.name, left_out=f"{left_out:,}")


def _restore_sample_pairs() -> None:
    choose_dataset("tutorial")  # the learner's own pairs are kept: choosing "Your own" brings them back
    _say("success", "data.restored", n=len(ss.pairs))


def _per_table(name: str, compute):
    """compute() once per table, tokenizer and language: the page reruns on every click, and a big table takes a
    while (pairs_summary has checked and counted it once already)."""
    return session_memo(f"data_{name}", (ss.pairs, chosen_tokenizer(), L), compute)


def _listed(problems: list) -> str:
    """At most PROBLEMS_SHOWN problems as a markdown list, the rest counted."""
    lines = [f"- {markdown(problem_text(p, L))}" for p in problems[:PROBLEMS_SHOWN]]
    if len(problems) > PROBLEMS_SHOWN:
        lines.append(f"- {t('data.more_problems', L, n=len(problems) - PROBLEMS_SHOWN)}")
    return "\n".join(lines)


def _pairs_of_different_lengths(pairs: list[tuple[str, str]], tokenizer: str) -> list[tuple[str, str]]:
    """The first pair and the first later one whose source and target lengths both differ from it (else one of
    them does), so make_data has to pad: the default of the make_data preview."""
    lengths = [(len(tokenize(s, tokenizer, "source")), len(tokenize(g, tokenizer, "target"))) for s, g in pairs]
    for both in (True, False):
        for i, (ls, lt) in enumerate(lengths[1:], start=1):
            differ = (ls != lengths[0][0], lt != lengths[0][1])
            if all(differ) if both else any(differ):
                return [pairs[0], pairs[i]]
    return pairs[:2]


def _editor_px(side: int, label: str) -> int:
    """The editor's column of one side (0: source, 1: target) as wide as its longest sentence (it would cut it)."""
    return column_px([t(label, L), *(pair[side] for pair in ss.editor_base)])


def _table_page() -> None:
    """A table too large to edit: one page of PAGE_ROWS pairs, read-only, with its row numbers."""
    pages = math.ceil(len(ss.pairs) / PAGE_ROWS)
    hint(t("data.large", L, n=f"{len(ss.pairs):,}", limit=f"{EDITABLE_ROWS:,}"), "info")
    page = choose_number(
        st.number_input, t("data.table_page", L, pages=f"{pages:,}"), 1, pages, key="data_table_page", default=1, step=1
    )
    first = (page - 1) * PAGE_ROWS
    rows = ss.pairs[first : first + PAGE_ROWS]
    frame = pd.DataFrame(
        rows, columns=[t("data.source", L), t("data.target", L)], index=range(first + 1, first + 1 + len(rows))
    )
    loaded = current_file()
    for role, cells in (loaded.taken.extra if loaded is not None else {}).items():  # e.g. the attribution
        frame[t(f"role.{role}", L)] = cells[first : first + PAGE_ROWS]
    table(  # the page shown, in the sheet too
        frame,
        width="stretch",
        hide_index=False,
        key="data_table_view",
        sheet_rows=SHEET_ROWS,
    )
    text(  # which rows the table (in the sheet too) shows
        t("data.table_rows", L, first=f"{first + 1:,}", last=f"{first + len(rows):,}", total=f"{len(ss.pairs):,}"),
        "caption",
    )


def _summary() -> None:
    """What a large table holds: counts, sentence lengths, vocabulary sizes and the most frequent tokens."""
    summary = pairs_summary()
    section(t("data.summary", L))
    counts = (
        ("data.usable", summary.usable),
        ("data.error_count", len(summary.errors)),
        ("data.warning_count", len(summary.warnings)),
        ("data.src_vocab_size", len(vocabs[0])),
        ("data.tgt_vocab_size", len(vocabs[1])),
    )
    cells = metric_row([(t(key, L), f"{n:,}", None) for key, n in counts])  # st.columns(5) cut their labels
    for cell, (key, n) in zip(cells, counts):
        with cell:
            metric(t(key, L), f"{n:,}")
    sides = dict(source_label=t("data.source", L), target_label=t("data.target", L))
    labels = dict(
        length_label=t("data.length", L), count_label=t("data.sentences", L), title=t("data.lengths_title", L)
    )
    lengths = (summary.src_lengths, summary.tgt_lengths)
    lengths_spec = _per_table("lengths", lambda: length_histogram_spec(*lengths, **labels, **sides))
    vega_chart(lengths_spec, "data_lengths_chart", labels["title"], lambda: length_histogram_figure(lengths_spec))
    text(t("data.lengths_caption", L, n=f"{summary.usable:,}"), "caption")
    tops = (("source", "data.top_source", SOURCE_COLOR), ("target", "data.top_target", TARGET_COLOR))
    for column, (side, title_key, color) in zip(st.columns(2), tops):
        top = summary.most_common(side, TOP_TOKENS)
        title = t(title_key, L, n=len(top))
        bars = dict(count_label=t("data.occurrences", L), title=title, color=color)
        spec = _per_table(
            f"top_{side}", lambda top=top, bars=bars: top_tokens_spec(top, token_label=t("vocab.token", L), **bars)
        )
        with column:
            vega_chart(spec, f"data_top_{side}_chart", title, lambda top=top, bars=bars: top_tokens_figure(top, **bars))


def _new_corpus() -> None:
    ss.corpus_choice = (int(ss.data_corpus_size), int(ss.data_corpus_seed))
    set_pairs(dataset_pairs("corpus"))


def _dataset() -> None:
    """The three datasets, what the chosen one is, and what the bundled model was trained on."""
    st.radio(
        t("data.dataset", L),
        DATASETS,
        key="data_dataset",
        persist_state="session",
        horizontal=True,
        format_func=lambda d: t(f"data.dataset.{d}", L),
        on_change=lambda: choose_dataset(ss.data_dataset),
    )
    name = ss.data_dataset
    if name == "corpus":
        c1, c2, _ = st.columns([2, 2, 4])
        size, seed = ss.get("corpus_choice", (corpus.DEFAULT_SIZE, corpus.DEFAULT_SEED))
        ss.setdefault("data_corpus_size", size)  # the corpus shown, when the boxes were not drawn for a while
        ss.setdefault("data_corpus_seed", seed)
        keep_in_range("data_corpus_size", 1, corpus.max_size(), corpus.DEFAULT_SIZE)
        keep_in_range("data_corpus_seed", 0, 1_000_000, corpus.DEFAULT_SEED)
        help_size = t("help.corpus_size", L, max=f"{corpus.max_size():,}")
        c1.number_input(
            t("data.corpus_size", L),
            1,
            corpus.max_size(),
            step=100,
            key="data_corpus_size",
            persist_state="session",
            help=help_size,
            on_change=_new_corpus,
        )
        c2.number_input(
            t("data.corpus_seed", L),
            0,
            1_000_000,
            step=1,
            key="data_corpus_seed",
            persist_state="session",
            on_change=_new_corpus,
        )
        size = ss.get("corpus_choice", (corpus.DEFAULT_SIZE, 0))[0]
        text(
            t(
                "data.about.corpus",
                L,
                size=f"{size:,}",
                tutorial=len(dataset_pairs("corpus")) - size,
                n=f"{len(ss.pairs):,}",
            ),
            "caption",
        )
    elif name == "own":
        text(t("data.about.own", L, n=f"{len(ss.pairs):,}") if ss.pairs else t("data.about.own_empty", L), "caption")
    else:
        text(t("data.about.tutorial", L, n=len(ss.pairs)), "caption")
    if name != "own":
        text(t("data.free_translation", L), "caption")  # the one pair that says 喜欢 as love
    held = len(bundled_training()[1])
    text(
        t(
            "data.bundled_data",
            L,
            size=f"{corpus.DEFAULT_SIZE:,}",
            seed=corpus.DEFAULT_SEED,
            held=f"{held:,}",
            tutorial=len(bundled_pairs()),
        ),
        "info",
    )


def _tag_counts(tags: list[tuple[str, ...]]) -> tuple[Counter, int]:
    """How many pairs show each phenomenon, and how many pairs are tagged at all."""
    return Counter(tag for pair in tags for tag in pair), sum(bool(pair) for pair in tags)


def _phenomena() -> None:
    """How many pairs show each phenomenon, when the pairs are tagged (corpus sentences)."""
    counts, tagged = _per_table("phenomena", lambda: _tag_counts(pair_tags(ss.pairs)))
    if not tagged:
        return
    section(t("data.phenomena", L))
    text(t("data.phenomena_intro", L, n=f"{tagged:,}", total=f"{len(ss.pairs):,}"))
    rows = [(t(f"phenomenon.{p}", L), counts[p], t(f"phenomenon_what.{p}", L)) for p in corpus.PHENOMENA if counts[p]]
    columns = [t("data.phenomenon", L), t("data.phenomenon_pairs", L), t("data.phenomenon_what", L)]
    table(pd.DataFrame(rows, columns=columns), static=True, hide_index=True, width="stretch", sheet_rows=SHEET_ROWS)


def _vocab_size() -> None:
    """The BPE vocabulary size; a size out of range is one error, and the pieces learned last stay."""
    st.number_input(
        t("data.bpe_vocab_size", L),
        step=100,
        key="bpe_vocab_size",
        persist_state="session",
        help=t("help.bpe_vocab_size", L, max=f"{MAX_BPE_VOCAB_SIZE:,}"),
    )
    try:
        check_vocab_size(ss.bpe_vocab_size)
    except DataError as exc:
        text(error_text(exc, L), "error")
    if any(p.kind == "too_long" for p in problems):  # pieces make longer sentences than words
        text(t("data.bpe_too_long", L, n=MAX_TOKENS), "info")


def _pieces(bpe: Bpe) -> None:
    """How the learned tokenizer splits the table's words into pieces, and its piece vocabulary."""
    section(t("data.bpe", L))
    text(t("data.bpe_intro", L, n=f"{len(bpe.pieces):,}", size=f"{bpe.vocab_size:,}", pairs=f"{len(valid):,}"))
    text(t("data.bpe_presplit", L))  # how sentences, Chinese ones above all, are cut before learning
    c1, c2 = st.columns(2)
    with c1:
        text(f"**{t('data.bpe_splits', L)}**")
        splits = _per_table("bpe_splits", lambda: piece_splits(bpe, valid, L, VOCAB_ROWS))
        if len(splits):
            table(splits, hide_index=True, width="stretch", height=300, key="data_bpe_splits")
        else:
            text(t("data.bpe_no_splits", L), "caption")
    with c2:
        text(f"**{t('data.bpe_vocab', L, n=f'{len(bpe.pieces):,}')}**")
        pieces = _per_table("bpe_vocab", lambda: piece_vocabulary(bpe, L, VOCAB_ROWS))
        table(pieces, hide_index=True, width="stretch", height=300, key="data_bpe_vocab")
        if len(bpe.pieces) > VOCAB_ROWS:
            text(t("data.tokens_shown_first", L, n=VOCAB_ROWS, total=f"{len(bpe.pieces):,}"), "caption")


_dataset()
draw_columns(L)
keep_option("tokenizer", TOKENIZERS, "auto")
tokenizer = chosen_tokenizer()
problems = pairs_summary().problems
valid = usable_pairs()
vocabs, (src_table, tgt_table) = _per_table("vocabs", lambda: vocab_tables(pairs_summary(), L, VOCAB_ROWS, tokenizer))
large = len(ss.pairs) > EDITABLE_ROWS

left, right = st.columns([3, 2], gap="large")
with left:
    st.selectbox(
        t("data.tokenizer", L),
        TOKENIZERS,
        key="tokenizer",
        persist_state="session",
        format_func=lambda m: t(f"tokenizer.{m}", L),
    )
    if ss.tokenizer == Bpe.name:
        _vocab_size()
    if large:
        _table_page()
    else:
        columns = [t("data.source", L), t("data.target", L)]
        sheet_table(pd.DataFrame(ss.pairs, columns=columns), rows=SHEET_ROWS)  # as the editor has it
        hint(t("data.edit_help", L))  # over the editor only: a table too large to edit says it is read-only
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
                "source": st.column_config.TextColumn(t("data.source", L), width=_editor_px(0, "data.source")),
                "target": st.column_config.TextColumn(t("data.target", L), width=_editor_px(1, "data.target")),
            },
        )
    with st.container(border=True):
        hint(f"**{t('data.add_pair', L)}**", "markdown")
        c1, c2, c3 = st.columns([4, 4, 2], vertical_alignment="bottom")
        c1.text_input(t("data.source", L), key="new_source", persist_state="session", placeholder="我 喜 欢 你")
        c2.text_input(t("data.target", L), key="new_target", persist_state="session", placeholder="I love you .")
        c3.button(t("data.add", L), on_click=_add_pair, key="add_pair", width="stretch")
        if ss.get("add_error"):
            hint(ss.add_error, "error")

with right:
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    metric(t("data.pairs", L), f"{len(ss.pairs):,}")
    if errors:
        text(t("data.errors", L) + "\n\n" + _listed(errors), "error")
    if warnings:
        text(_listed(warnings), "warning")
    if not problems:
        text(t("data.ok", L), "success")

    section(t("data.file", L))
    upload_modes = {"replace": "data.upload_replace", "append": "data.upload_append"}
    choose_labelled(
        st.radio, t("data.upload_mode", L), upload_modes, L, key="data_upload_mode", default="replace", horizontal=True
    )
    st.file_uploader(
        t("data.upload", L, mb=MAX_DATA_BYTES // 1_000_000),
        type=["csv", "tsv", "txt"],
        key="pairs_upload",
        max_upload_size=max(1, MAX_DATA_BYTES // 1_000_000),
        on_change=_take_upload,
    )
    message = ss.get("pairs_message")
    if message is not None and message[3] == ss.pairs:  # a message about another state of the table is stale
        kind, key, values, _ = message
        values = dict(values)
        if "name" in values:  # a file name is the user's text
            values["name"] = markdown(values["name"])
        if "error" in values:
            values["reason"] = markdown(error_text(values.pop("error"), L))
        text(t(key, L, **values), "error" if kind == "error" else "success")
    st.download_button(  # built at once: a deferred file would go stale when the page reruns before the click
        t("data.download", L),
        _per_table("download", lambda: format_pairs(ss.pairs).encode("utf-8")),
        file_name="pairs.tsv",
        mime="text/tab-separated-values",
        key="download_pairs",
        on_click="ignore",
    )
    st.button(
        t("data.restore", L),
        key="restore_pairs",
        on_click=_restore_sample_pairs,
        disabled=ss.pairs == bundled_pairs(),
        help=t("data.restore_help", L, n=len(bundled_pairs())),
    )

if large:
    _summary()
_phenomena()

section(t("data.tokens", L))
text(t("data.tokens_intro", L, mode=t(f"tokenizer.{ss.tokenizer}", L)))
table(token_preview(valid[:PREVIEW_ROWS], tokenizer, L), width="stretch", hide_index=True, sheet_rows=SHEET_ROWS)
if len(valid) > PREVIEW_ROWS:
    text(t("data.shown_first", L, n=PREVIEW_ROWS, total=f"{len(valid):,}"), "caption")
if isinstance(tokenizer, Bpe):
    _pieces(tokenizer)

section(t("data.vocab", L))
text(t("data.vocab_intro", L, specials=", ".join(f"`{s}`" for s in SPECIALS)))
c1, c2 = st.columns(2)
for col, vocab_table, vocab, key in (
    (c1, src_table, vocabs[0], "data.src_vocab"),
    (c2, tgt_table, vocabs[1], "data.tgt_vocab"),
):
    with col:
        text(f"**{t(key, L, n=len(vocab))}**")
        table(vocab_table, hide_index=True, width="stretch", height=300, sheet_rows=SHEET_ROWS)
        if len(vocab) > VOCAB_ROWS:
            text(t("data.tokens_shown_first", L, n=VOCAB_ROWS, total=f"{len(vocab):,}"), "caption")

section("make_data")
text(t("data.make_data_intro", L))
if valid:
    offered = list(dict.fromkeys(valid[:PICK_ROWS]))  # distinct pairs: a repeated pair adds nothing to see
    chosen = choose_several(
        st.multiselect,
        t("data.make_data_pairs", L),
        offered,
        key="data_make_data_pairs",
        default=_pairs_of_different_lengths(offered, tokenizer),
        format_func=pair_text,
        help=t("data.make_data_pairs_help", L),
    )
    if len(valid) > PICK_ROWS:
        text(t("data.offered_first", L, n=PICK_ROWS, total=f"{len(valid):,}"), "caption")
    if not chosen:
        text(t("data.make_data_choose", L), "info")
    for name, values, tokens in make_data_tables(chosen, tokenizer, vocabs) if chosen else []:
        text(f"`{name}` — {t(MAKE_DATA_WORDS[name], L)}")
        c1, c2 = st.columns(2)
        with c1:
            ids(values)
        with c2:
            table(tokens, hide_index=True, width="stretch")
