"""Attention: every layer's and head's attention weights, what each head does, and how attention formed in training."""

from dataclasses import dataclass

import streamlit as st

from transformer.alignment import aer_table, findings, floor_score, score_map
from transformer.config import MAX_DECODE_LEN, MAX_STUDY_PAIRS, SALIENCY_MAX_PARAMS
from transformer.errors import TransformerError
from transformer.heads import SHARES, HeadStudy, study_heads, study_maps, with_alignment
from transformer.model import DEC_ENC, ENC_SELF, AttentionKind
from transformer.text import markdown, visible
from transformer.words import GOLD_TOKENIZER
from ui import word_level
from ui.attention_lines import LINES_PX, line_view
from ui.chart_keys import cell_twin, head_twin, new_click, toggled
from ui.export import caption, chart, file_name, for_sentence, formula, hint, maps_json, section, table, text
from ui.gold import file_gold, gold_pairs, golds_of, problem_lines
from ui.i18n import sentences, t
from ui.messages import error_text
from ui.model_cache import CacheKind
from ui.session import current, page_setup, usable_pairs
from ui.tables import head_stats_frame
from ui.training import current_job, start_replay
from ui.view_state import Param, choose_labelled, choose_numbered, choose_one, keep_option, picker, replaced
from ui.widgets import (
    ATTENTION_FORMULA,
    attention_axes,
    computed_by,
    kind_picker,
    model_cached,
    model_cached_or_end,
    page_header,
    pair_text,
    sentence_picker,
    warn_if_data_changed,
    warn_unknown,
    wrapping_row,
)
from viz.alignment import aer_grid_figure, aer_matrix, best_cell, gold_links_layer
from viz.attention import attention_figure, attention_grid_figure, decoder_row_labels, frame_head
from viz.heads import clicked_head, head_patterns_figure, head_stat_figure
from viz.layers import clicked_cell

MAP_PX = 560  # one attention map, the line view beside it

L = page_setup()
ss = st.session_state
model = current()
translator = model.translator
cfg = translator.config

HEAD_MODES = {"one": "attn.heads_one", "grid": "attn.heads_grid", "average": "attn.heads_average"}  # mode: its words
STATISTICS = ("entropy_bits", *(s for s in SHARES if s != "alignment"))  # table columns; alignment when marked
SCOPES = {
    "dataset": ("attn.scope_dataset", "attn.patterns_dataset", "attn.patterns_dataset_paper"),
    "sentence": ("attn.scope_sentence", "attn.patterns_sentence", "attn.patterns_sentence_paper"),
}
# elements that report clicks (a selection is an event, not a value kept across pages)
CHART, TABLE, PATTERNS, STAT_GRID = "click_attn_chart", "click_attn_table", "click_attn_patterns", "click_attn_stat"


def open_head(layer: int, head: int) -> None:
    """Show (layer, head) alone in the heatmap at the top: what a click in the head statistics asks for."""
    if 0 <= layer < cfg.n_layers and 0 <= head < cfg.n_heads:
        ss.attn_layer, ss.attn_head, ss.attn_heads = layer, head, "one"
        st.toast(t("attn.opened", L, layer=layer + 1, head=head + 1))


# a row of the statistics table, or a head in its charts, selected on the last run opens that head
rows_selected = list(((ss.get(TABLE) or {}).get("selection") or {}).get("rows") or [])
if new_click(TABLE, rows_selected[0] if rows_selected else None):
    open_head(*divmod(rows_selected[0], cfg.n_heads))  # the table lists the heads layer by layer
for clicked_key in (PATTERNS, STAT_GRID):
    picked = clicked_head((ss.get(clicked_key) or {}).get("selection"))
    if new_click(clicked_key, picked):
        open_head(*picked)

VIEW = {  # the link parameters of this page's view
    **picker("attn"),
    "kind": Param("attn_kind"),
    "layer": Param("attn_layer", "index"),
    "heads": Param("attn_heads"),
    "head": Param("attn_head", "index"),
    "greedy": Param("attn_greedy", "bool"),
    "scope": Param("attn_scope"),
    "stat": Param("attn_stat"),
    "epoch": Param("attn_epoch", "int"),
    "marks": Param("attn_marks", "marks"),  # hand marks, as source-first links i-j
    "level": Param("attn_level"),  # words or pieces (ui.word_level)
}
page_header(L, "attention", "attn.title", "attn.intro", VIEW)
warn_if_data_changed(L)
formula(ATTENTION_FORMULA)

source, target = sentence_picker(L, "attn")
c1, c2, c3, c4 = st.columns([3, 2, 3, 2])
kind = kind_picker(c1.radio, L, "attn_kind")
layer = choose_numbered(c2.selectbox, t("attn.layer", L), cfg.n_layers, key="attn_layer", default=cfg.n_layers - 1)
heads = choose_labelled(c3.radio, t("attn.heads", L), HEAD_MODES, L, key="attn_heads", default="one", horizontal=True)
head = choose_numbered(
    c4.selectbox,
    t("attn.head", L),
    cfg.n_heads,
    key="attn_head",
    disabled=heads != "one",
)
if target is None:
    text(t("attn.typed_greedy", L), "caption")
elif kind != ENC_SELF:  # the encoder reads the source only: the toggle would change nothing there
    keep_option("attn_greedy", (False, True), False)
    st.toggle(t("attn.greedy", L), key="attn_greedy", persist_state="session", help=t("attn.greedy_help", L))
reference = None if target is None or ss.get("attn_greedy", False) else target  # None: the model's greedy output

view = model_cached_or_end(
    L, (CacheKind.INSPECT, source, reference, 0, 0), lambda: translator.inspect(source, reference)
)
warn_unknown(view.unknown, L)


def predicted_tokens() -> list[str]:
    """What each decoder position of the view predicts: the reference's next token, or the model's own."""
    if reference is not None:
        return translator.tgt_vocab.decode(translator.make_batch([(source, reference)]).dec_outputs[0])
    # one token more than the view's greedy output: the last position's choice (E, or the word after the cap)
    out = model_cached(
        (CacheKind.TRANSLATE_ONE_MORE, source),
        lambda: translator.translate(source, MAX_DECODE_LEN + 1, return_attn=False),
    )
    end = translator.tgt_vocab.itos[translator.tgt_vocab.eos_id]  # E, or a model's own (Marian's </s>)
    following = out.tokens + ([end] if out.stop_reason == "eos" else [])
    return [following[i] if i < len(following) else "?" for i in range(len(view.dec_tokens))]


dec_rows = decoder_row_labels(view.dec_tokens, predicted_tokens())  # "S → I", "I → love", …


def cell_words(m) -> str:
    """A cell (row, column) of the encoder–decoder map in words: the row's "input → predicts" ↔ the source token."""
    return f"{visible(dec_rows[m[0]])}  ↔  {visible(view.src_tokens[m[1]])}"


words = word_level.pair_words(translator, source, reference)  # pieces and words; None for the model's own output
level = word_level.choose_level(L, words, st, horizontal=True) if kind == DEC_ENC else "pieces"
by_words = level == "words" and not words.same  # the map's pieces grouped into words (no marks on it)

# alignment marks: (decoder row, source column) cells of this sentence's encoder–decoder attention
sentence = (source, reference)
mark_cells = [(i, j) for i in range(len(view.dec_tokens)) for j in range(len(view.src_tokens))]
if ss.get("_attn_marks_for", sentence) != sentence:
    ss.attn_marks = []  # marks belong to the sentence they were made on
ss._attn_marks_for = sentence
clicked = clicked_cell((ss.get(CHART) or {}).get("selection"))
if new_click(CHART, clicked):
    ss.attn_marks = toggled(ss.get("attn_marks", []), clicked)
allowed = set(mark_cells)
kept_marks = [tuple(m) for m in ss.get("attn_marks", [])]
if any(m not in allowed for m in kept_marks):  # off this sentence (a link's, or kept from another model): said
    replaced("attn_marks", kept_marks, [m for m in kept_marks if m in allowed])
ss.attn_marks = [m for m in kept_marks if m in allowed]


def show(
    maps, src_tokens, dec_tokens, rows_dec, key: str, view: tuple, marks=(), clickable=False, when: str = "", gold=None
) -> None:
    """The chosen kind, layer and head(s) of one AttentionMaps (`view` names them: the sentence, or the pair and epoch
    of a snapshot); decoder rows labelled rows_dec ("input → predicts"); `when` (e.g. "epoch 40") ends the title;
    gold links (transformer.alignment.Gold) are drawn over one encoder–decoder map."""
    which = {"grid": t("attn.heads_grid", L), "average": t("attn.heads_average", L)}.get(
        heads, f"{t('attn.head', L)} {head + 1}"
    )
    title = caption(t(kind.label, L), t("attn.layer", L) + f" {layer + 1}", which, when)

    def figure():
        attn = maps.of(kind)[layer][0]  # (H, Lq, Lk)
        rows, cols, labels = attention_axes(L, kind, src_tokens, dec_tokens, rows_dec)
        common = dict(**labels, marks=marks)
        if heads == "grid":
            return attention_grid_figure(attn, rows, cols, head_label=t("attn.head", L), title=title, **common)
        shown = attn.mean(0) if heads == "average" else attn[head]  # (Lq, Lk)
        fig = attention_figure(shown, rows, cols, title=title, clickable=clickable, **common)
        if gold is not None:
            labels = dict(sure_label=t("attn.gold_sure", L), possible_label=t("attn.gold_possible", L))
            gold_links_layer(fig, gold.sure, gold.possible, **labels)
        return fig

    # built once per model and view: a page switch or a click elsewhere on the page redraws the same figure
    fig = model_cached(
        (CacheKind.ATTN_FIGURE, key, *view, kind.name, layer, heads, head, tuple(marks), clickable, title, gold, L),
        figure,
    )
    shown = {"grid": "all-heads", "average": "average"}.get(heads, f"head-{head + 1}")
    name = file_name("attention", kind.name, f"layer-{layer + 1}", shown, "training" if key != CHART else "")
    about = caption(title, for_sentence(L, " ".join(src_tokens), " ".join(dec_tokens)))
    # the matrix, and beside it (under all heads, which take the width) the same weights as lines
    c1, c2 = [st.container(), st.container()] if heads == "grid" else wrapping_row([MAP_PX, LINES_PX])
    with c1:
        if clickable and heads != "grid":
            ss[f"_{key}_drawn"] = tuple(marks)
            chart(fig, key, name, about, on_select="rerun", selection_mode="points")
        else:
            chart(fig, key, name, about)
    with c2:
        axes = attention_axes(L, kind, src_tokens, dec_tokens, rows_dec)[:2]
        sentence_words = for_sentence(L, " ".join(src_tokens), " ".join(dec_tokens))
        line_view(L, key, view, kind, maps.of(kind)[layer][0], axes, (heads, layer, head), title, sentence_words, gold)


def explain() -> None:
    """What the chosen kind shows, and what the decoder row labels mean."""
    text(t(f"attn.{kind.name}_explain", L))
    if kind.queries == "tgt":  # decoder rows: teacher-forced or greedy
        text(t("attn.rows_teacher" if reference is not None else "attn.rows_greedy", L))
    text(t("attn.read", L), paper="")  # the hover: nothing on paper


marking = kind == DEC_ENC
main_chart = dict(marks=ss.attn_marks if marking and not by_words else (), clickable=marking and not by_words)
# the gold links of this pair (they index words), over one encoder–decoder map (teacher-forced on the reference)
gold = golds_of([(source, reference)], GOLD_TOKENIZER)[0] if marking and heads != "grid" and level == "words" else None
main_chart["gold"] = gold


def gold_score() -> None:
    """Precision and recall of the links of the map shown, against the gold links drawn over it."""
    attn = view.maps.of(DEC_ENC)[layer][0]  # (H, Lt, Ls)
    shown = attn.mean(0) if heads == "average" else attn[head]  # (Lt, Ls)
    got = score_map(shown, gold, words.source, words.target)  # links of words (transformer.words)
    values = dict(precision=f"{100 * (got.precision or 0):.0f}", recall=f"{100 * (got.recall or 0):.0f}")
    text(t("attn.gold_shown", L, aer=f"{got.aer:.2f}", **values), "caption")


drawn = word_level.word_view(view.maps, words) if by_words else (view.maps, view.src_tokens, view.dec_tokens, dec_rows)
show(*drawn, CHART, (*sentence, level), **main_chart)
computed_by("Translator.inspect → Transformer(enc_inputs, dec_inputs, return_attn=True)", L)
word_level.say_level(L, level, words)
if gold is not None:
    gold_score()
explain()
if marking and heads != "grid":
    hint(t("attn.click_to_mark", L), "info")
if main_chart["clickable"] and heads != "grid":  # the keyboard's way to mark, next after the chart a click marks
    cell_twin(L, "attn_mark_cell", mark_cells, ss.attn_marks, cell_words)

st.download_button(
    t("attn.download_maps", L),
    data=model_cached(
        (CacheKind.MAPS_JSON, source, reference), lambda: maps_json(view.src_tokens, view.dec_tokens, view.maps)
    ),
    file_name=file_name("attention-maps", source[:40]) + ".json",
    mime="application/json",
    key="download_maps",
    on_click="ignore",
    icon=":material/download:",
)


# ---------------------------------------------------------------- which head does what (issue 13.3)
def clear_marks() -> None:
    """The Clear marks button (a callback: it runs before the marks widget is drawn)."""
    ss.attn_marks = []


@dataclass(frozen=True)
class Studied:
    """The heads measured over one scope: the study, the scope, the data it read (a cache key) and its caption."""

    study: HeadStudy
    scope: str  # "dataset" or "sentence"
    key: tuple
    caption: str


def head_statistics(
    view, sentence: tuple, dec_rows: list[str], kind: AttentionKind, chosen, cells: list | None
) -> None:
    """Every head of the kind measured over the dataset or this sentence: a table and two clickable charts. chosen:
    the (layer, head) open at the top, or None; cells: the cells the learner may mark (encoder–decoder only), or
    None."""
    section(t("attn.stats", L))
    kind_words = t(kind.label, L)
    text(t("attn.stats_intro", L, kind=kind_words), paper=t("attn.stats_intro_paper", L, kind=kind_words))
    studied = head_study(view, sentence)
    if studied is None:
        return
    stats = studied.study.stats[kind.name]
    columns = [c for c in STATISTICS if any(getattr(s, c) is not None for s in stats)]
    if cells is not None:
        aligned = marks_section(view, dec_rows, cells, stats, studied.scope)
        if aligned is not None:
            stats, columns = aligned, [*columns, "alignment"]
    names = {c: t(f"attn.stat_{c}", L) for c in columns}
    helps = {c: t(f"attn.help_{c}", L, perfect=f"{stats[0].previous_perfect:.2f}") for c in columns}  # computed
    stats_table(stats, columns, names, helps, chosen)
    g1, g2 = st.columns([3, 2], gap="large")
    with g1:
        stat_grid(stats, columns, names, kind, studied, chosen, sentence)
    with g2:
        text(f"**{t('attn.stats_explain', L)}**")
        text("\n".join(f"- **{names[c]}**: {helps[c]}" for c in columns))
    head_patterns(studied, kind, view, dec_rows, chosen)


def head_study(view, sentence: tuple) -> Studied | None:
    """The scope picker (the dataset's first pairs, or this sentence) and every head measured over it; None, with
    the error said, when the pairs cannot be read."""
    every = usable_pairs()
    pairs = every[:MAX_STUDY_PAIRS]  # the maps of all of them are held at once
    scopes = {s: SCOPES[s][0] for s in (("dataset", "sentence") if pairs else ("sentence",))}  # the first: the default
    if "dataset" in scopes and len(every) > len(pairs):
        scopes["dataset"] = "attn.scope_dataset_first"
    counts = dict(n=len(pairs), total=len(every))
    scope = choose_labelled(st.radio, t("attn.scope", L), scopes, L, key="attn_scope", values=counts, horizontal=True)
    data_key = ("dataset", tuple(pairs)) if scope == "dataset" else ("sentence", *sentence)
    scope_text = t(SCOPES[scope][0], L, n=len(pairs))
    if scope == "sentence":
        scope_text = caption(scope_text, for_sentence(L, " ".join(view.src_tokens), " ".join(view.dec_tokens)))
    try:
        if scope == "dataset":
            study = model_cached((CacheKind.HEADS, *data_key), lambda: study_heads(translator, pairs))
        else:
            study = model_cached(
                (CacheKind.HEADS, *data_key),
                lambda: study_maps(view.maps, view.enc_inputs, view.dec_inputs, translator.tgt_vocab),
            )
    except TransformerError as exc:
        text(error_text(exc, L), "error")
        return None
    return Studied(study, scope, data_key, scope_text)


def marks_section(view, dec_rows: list[str], cells: list, stats: list, scope: str) -> list | None:
    """The word pairs the learner marks on this sentence; stats with each head's share of attention on them, or None
    while none is marked."""
    text(t("attn.marks_intro", L), paper=t("attn.marks_intro_paper", L))
    m1, m2 = st.columns([5, 1], vertical_alignment="bottom")
    m1.multiselect(
        t("attn.marks", L),
        cells,
        key="attn_marks",
        persist_state="session",
        format_func=cell_words,
        help=t("attn.marks_help", L),
        placeholder=t("attn.marks_placeholder", L),
    )
    m2.button(t("attn.marks_clear", L), key="clear_marks_button", on_click=clear_marks, disabled=not ss.attn_marks)
    if not ss.attn_marks:
        return None
    if scope == "dataset":
        text(t("attn.marks_sentence", L), "caption")
    return with_alignment(stats, view.maps, view.enc_inputs, view.dec_inputs, translator.tgt_vocab, ss.attn_marks)


def stats_table(stats: list, columns: list[str], names: dict, helps: dict, chosen) -> None:
    """The statistics as a table, a row per head, the open head's row selected; clicking a row opens its head."""
    frame = head_stats_frame(stats, columns, names, L)  # row r is head r % n_heads of layer r // n_heads
    config = {names[c]: st.column_config.NumberColumn(names[c], help=helps[c], format="%.3f") for c in columns}
    row = chosen[0] * cfg.n_heads + chosen[1] if chosen is not None else None
    ss[TABLE] = {"selection": {"rows": [] if row is None else [row], "columns": [], "cells": []}}  # the open head
    ss[f"_{TABLE}_seen"] = (row, None)
    table(
        frame,
        precision=3,
        repeat=2,
        key=TABLE,
        on_select="rerun",
        selection_mode="single-row",
        hide_index=True,
        column_config=config,
    )
    text(t("attn.stats_queries", L, n=stats[0].queries), "caption")
    computed_by("transformer.heads.study_heads / study_maps → head_stats, mean_patterns", L)


def stat_grid(
    stats: list, columns: list[str], names: dict, kind: AttentionKind, studied: Studied, chosen, sentence
) -> None:
    """One statistic of every head as a grid of layers by heads, the open head framed; clicking a cell opens it."""
    statistic = choose_one(
        st.selectbox,
        t("attn.stat_pick", L),
        columns,
        key="attn_stat",
        default="alignment" if "alignment" in columns else kind.statistic,
        format_func=names.get,
    )
    grid = model_cached(  # the study's statistics, with the alignment of the marks on this sentence
        (CacheKind.HEADS_STAT_FIGURE, *studied.key, kind.name, statistic, chosen, sentence, tuple(ss.attn_marks), L),
        lambda: head_stat_figure(
            stats,
            statistic,
            layer_label=t("attn.layer", L),
            head_label=t("attn.head", L),
            value_label=names[statistic],
            chosen=chosen,
        ),
    )
    chart(
        grid,
        STAT_GRID,
        file_name("head-statistics", kind.name, statistic, studied.scope),
        caption(t("attn.stat_grid_caption", L, stat=names[statistic], kind=t(kind.label, L)), studied.caption),
        on_select="rerun",
        selection_mode="points",
    )
    hint(t("attn.stat_grid_help", L))
    head_twin(L, t("keys.open_head_grid", L), "attn_open_head_stat", (cfg.n_layers, cfg.n_heads), chosen, open_head)


def head_patterns(studied: Studied, kind: AttentionKind, view, dec_rows: list[str], chosen) -> None:
    """Every head's mean attention map, the open head framed; clicking a map opens its head."""
    section(t("attn.patterns", L), 3)
    text(t(SCOPES[studied.scope][1], L), paper=t(SCOPES[studied.scope][2], L))
    if studied.scope == "sentence":
        rows, cols, _ = attention_axes(L, kind, view.src_tokens, view.dec_tokens, dec_rows)
    else:
        rows = cols = None  # a mean over sentences: positions, not one sentence's tokens
    patterns = model_cached(
        (CacheKind.HEADS_FIGURE, *studied.key, kind.name, L),
        lambda: head_patterns_figure(
            studied.study.patterns[kind.name],
            rows,
            cols,
            layer_label=t("attn.layer", L),
            head_label=t("attn.head", L),
            value_label=t("fig.weight", L),
            row_label=t(f"attn.rows_{kind.name}", L),
            col_label=t(f"attn.cols_{kind.name}", L),
        ),
    )
    frame_head(patterns, chosen)  # the cached figure, its frame moved to the open head
    chart(
        patterns,
        PATTERNS,
        file_name("head-patterns", kind.name, studied.scope),
        caption(t("attn.patterns", L), t(kind.label, L), studied.caption),
        on_select="rerun",
        selection_mode="points",
    )
    head_twin(L, t("keys.open_head_maps", L), "attn_open_head_maps", (cfg.n_layers, cfg.n_heads), chosen, open_head)


open_head_at = (layer, head) if heads == "one" else None
head_statistics(view, sentence, dec_rows, kind, open_head_at, mark_cells if marking else None)


# ---------------------------------------------------------------- which head aligns the words? (issue 30 §6)
METHOD_KEYS = {  # transformer.config.ALIGN_METHODS: each one's words
    "attention": "attn.method_attention",
    "average": "attn.method_average",
    "norm": "attn.method_norm",
    "saliency": "attn.method_saliency",
}
AVERAGE_KEYS = {  # the last layer's average against the best head (transformer.alignment.compare)
    "better": "attn.aligns_average_better",
    "worse": "attn.aligns_average_worse",
    "same": "attn.aligns_average_same",
}


def which_head_aligns() -> None:
    """The alignment error rate of every encoder–decoder head and layer average on the dataset's gold links, the best
    one framed, and what the figures say of attention as alignment."""
    section(t("attn.aligns", L))
    text(t("attn.aligns_intro", L))
    pairs = usable_pairs()[:MAX_STUDY_PAIRS]
    from_file = file_gold(GOLD_TOKENIZER)  # links of words, whatever pieces the model reads
    if from_file is not None:  # a teacher's own links: where they come from, and the cells that could not be read
        counts = dict(n=f"{len(from_file.golds):,}", total=f"{from_file.pairs:,}")
        text(t("gold.from_file", L, name=markdown(from_file.name), **counts), "caption")
        for line in problem_lines(from_file, L):
            text(line, "warning")

    # the corpus's links are the same for the same pairs on every run; a loaded file's are read once per file
    with_gold, kept = (
        gold_pairs(translator, pairs)
        if from_file is not None
        else model_cached((CacheKind.GOLD_PAIRS, tuple(pairs)), lambda: gold_pairs(translator, pairs))
    )
    if not kept:
        text(t("attn.aligns_no_gold", L), "info")
        return
    if len(kept) < with_gold:  # a model with a short max_len: the pairs it cannot read are left out, and said
        text(t("attn.aligns_too_long", L, n=f"{with_gold - len(kept):,}", max_len=cfg.max_len), "caption")
    n_params = sum(p.numel() for p in translator.model.parameters())
    if not (salient := n_params <= SALIENCY_MAX_PARAMS):  # minutes of backward passes in a page's run: said, left out
        text(t("attn.saliency_left_out", L, n=f"{n_params:,}", limit=f"{SALIENCY_MAX_PARAMS:,}"), "caption")
    scores = model_cached(
        (CacheKind.AER_TABLE, kept, salient), lambda: aer_table(translator, *zip(*kept), saliency=salient)
    )
    by = {(s.method.layer, s.method.head): s.score.aer for s in scores if s.method.name in ("attention", "average")}
    z = aer_matrix(by, cfg.n_layers, cfg.n_heads)
    names = dict(layer_label=t("attn.layer", L), head_label=t("attn.head", L), average_label=t("attn.heads_average", L))
    fig = model_cached(
        (CacheKind.AER_GRID_FIGURE, kept, L),
        lambda: aer_grid_figure(z, **names, value_label=t("attn.aligns_aer", L), best=best_cell(z)),
    )
    chart(fig, "attn_aer_grid", file_name("alignment-error-rate"), t("attn.aligns_caption", L, n=len(kept)))
    found = findings(scores, cfg)
    if found is not None:  # the floor of one link per target word, where the pieces are the words (else None)
        floor = model_cached(
            (CacheKind.AER_FLOOR, kept),
            lambda: floor_score([p for p, _ in kept], [g for _, g in kept], translator.tokenizer),
        )
        said = [t("attn.aligns_floor", L, floor=f"{floor.aer:.2f}")] if floor is not None else []
        text(sentences([*finding_sentences(found), *said], L))
    computed_by("transformer.alignment.aer_table → alignment_weights, links_of, score_links", L)


def method_words(method) -> str:
    """A method of transformer.alignment in this page's words, layers and heads counted from 1."""
    where = dict(layer=(method.layer or 0) + 1, head=(method.head or 0) + 1)
    if method.name == "norm" and method.head is None:
        return t("attn.method_norm_layer", L, **where)
    return t(METHOD_KEYS[method.name], L, **where)


def finding_sentences(found) -> list[str]:
    """What the AER table says, its wording chosen by its figures."""
    head, average = found.best_head, found.last_average
    return [
        t(
            "attn.aligns_best_head",
            L,
            method=method_words(head.method),
            aer=f"{head.score.aer:.2f}",
            precision=f"{100 * (head.score.precision or 0):.0f}",
            recall=f"{100 * (head.score.recall or 0):.0f}",
        ),
        t(AVERAGE_KEYS[found.average_vs_head], L, layer=cfg.n_layers, aer=f"{average.score.aer:.2f}"),
        t(
            "attn.aligns_others",
            L,
            norm=method_words(found.best_norm.method),
            norm_aer=f"{found.best_norm.score.aer:.2f}",
            saliency=f"{found.saliency.score.aer:.2f}",
        ),
        t(
            "attn.aligns_overall",
            L,
            method=method_words(found.best_overall.method),
            aer=f"{found.best_overall.score.aer:.2f}",
        ),
    ]


if kind == DEC_ENC:
    which_head_aligns()

# ---------------------------------------------------------------- the training film strip
section(t("attn.training", L))
job = current_job()
if model.snapshots:
    recorded = model.snapshot_pairs
    top = (source, target)
    if ss.get("_attn_film_top") != top:  # the pair at the top changed: follow it when it was recorded
        ss._attn_film_top = top
        if top in recorded:
            ss.attn_film_pair = top
    keep_option("attn_film_pair", recorded, top if top in recorded else recorded[0])
    if top not in recorded:
        listed = "\n".join(f"- {markdown(s)} → {markdown(g)}" for s, g in recorded)
        text(t("attn.film_not_recorded", L, n=len(recorded), pairs="\n" + listed), "info")
    pair = st.selectbox(
        t("attn.film_pair", L),
        recorded,
        key="attn_film_pair",
        persist_state="session",
        format_func=pair_text,
        help=t("attn.film_pair_help", L, n=len(recorded)),
    )
    b = recorded.index(pair)
    batch = translator.make_batch([pair])
    src_tokens = translator.src_vocab.decode(batch.enc_inputs[0])
    dec_tokens = translator.tgt_vocab.decode(batch.dec_inputs[0])
    film_rows = decoder_row_labels(dec_tokens, translator.tgt_vocab.decode(batch.dec_outputs[0]))
    text(t("attn.training_intro", L, source=markdown(pair[0]), target=markdown(pair[1])))
    epochs = [e for e, _ in model.snapshots]
    epoch = choose_one(st.select_slider, t("attn.epoch", L), epochs, key="attn_epoch", default=epochs[-1])
    one = dict(model.snapshots)[epoch].pair(b, len(src_tokens), len(dec_tokens))  # without the batch's padding
    show(
        one,
        src_tokens,
        dec_tokens,
        film_rows,
        "attn_epoch_chart",
        (pair, epoch),
        when=t("attn.during_training", L, epoch=epoch),
    )
    computed_by("transformer.train.train(..., snapshot_every=N, snapshot_pairs=…) → EpochRecord.snapshot", L)
elif job is not None and job.kind == "replay":
    text(t("attn.replaying", L), "info")
elif model.source == "bundled":
    text(t("attn.replay_intro", L))
    if st.button(t("attn.replay", L), key="replay_button", disabled=job is not None):
        start_replay()
        st.rerun()
else:
    text(t("attn.no_snapshots", L), "info")
