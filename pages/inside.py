"""Inside the model: one sentence pair through the whole forward pass, block by block, from ids to loss."""

from collections import Counter

import pandas as pd
import streamlit as st

from transformer.text import markdown
from transformer.trace import trace_sentence
from ui.export import (
    caption,
    chart,
    code,
    file_name,
    for_sentence,
    formula,
    hint,
    metric,
    section,
    sheet_settings,
    table,
    text,
)
from ui.i18n import t
from ui.model_cache import CacheKind
from ui.presenter import presenter_px
from ui.session import current, page_setup
from ui.view_state import Param, choose_numbered, choose_one, keep_in_range, keep_option, padded_picker
from ui.widgets import (
    computed_by,
    model_cached,
    model_cached_or_end,
    padded_sentence,
    page_header,
    warn_unknown,
    wrapping_row,
)
from viz.trace import architecture_figure, shows_one_head, softmax_row_figure, step_figure

BLOCK_WORDS = {  # a block's kind (transformer.trace.Block.kind): its name
    "inputs": "inside.block_inputs",
    "outputs": "inside.block_outputs",
    "embedding": "inside.block_embedding",
    "positional_encoding": "inside.block_positional_encoding",
    "masks": "inside.block_masks",
    "self_attention": "inside.block_self_attention",
    "masked_attention": "inside.block_masked_attention",
    "cross_attention": "inside.block_cross_attention",
    "add_norm": "inside.block_add_norm",
    "add": "inside.block_add",
    "norm": "inside.block_norm",
    "feed_forward": "inside.block_feed_forward",
    "final_norm": "inside.block_final_norm",
    "linear": "inside.block_linear",
    "softmax": "inside.block_softmax",
    "loss": "inside.block_loss",
}
STEP_WORDS = {  # a step's kind (transformer.trace.Step.kind): what it does
    "ids": "inside.explain_ids",
    "embedding": "inside.explain_embedding",
    "pe": "inside.explain_pe",
    "positional": "inside.explain_positional",
    "pad_mask": "inside.explain_pad_mask",
    "subsequence_mask": "inside.explain_subsequence_mask",
    "dec_self_attn_mask": "inside.explain_dec_self_attn_mask",
    "Q": "inside.explain_Q",
    "K": "inside.explain_K",
    "V": "inside.explain_V",
    "attn_mask": "inside.explain_attn_mask",
    "scores": "inside.explain_scores",
    "masked_scores": "inside.explain_masked_scores",
    "attn": "inside.explain_attn",
    "context": "inside.explain_context",
    "concat": "inside.explain_concat",
    "attn_output": "inside.explain_attn_output",
    "residual": "inside.explain_residual",
    "layer_norm": "inside.explain_layer_norm",
    "hidden": "inside.explain_hidden",
    "ffn_output": "inside.explain_ffn_output",
    "logits": "inside.explain_logits",
    "probabilities": "inside.explain_probabilities",
    "targets": "inside.explain_targets",
    "cross_entropy": "inside.explain_cross_entropy",
    "loss": "inside.explain_loss",
}
SEED_WORDS = {  # the steps that tutorial 004 (the seed of this app) does otherwise: how it differs
    "pe": "inside.seed_pe",
    "positional": "inside.seed_positional",
    "attn_mask": "inside.seed_attn_mask",
    "masked_scores": "inside.seed_masked_scores",
    "logits": "inside.seed_logits",
}
AXIS_WORDS = {  # an axis's code name (transformer.trace): its name in words, for the charts' axis titles
    "len_q": "inside.axis_len_q",
    "len_k": "inside.axis_len_k",
    "src_len": "inside.axis_src_len",
    "tgt_len": "inside.axis_tgt_len",
    "d_model": "inside.axis_d_model",
    "d_ff": "inside.axis_d_ff",
    "d_k": "inside.axis_d_k",
    "d_v": "inside.axis_d_v",
    "heads·d_k": "inside.axis_heads_d_k",
    "heads·d_v": "inside.axis_heads_d_v",
    "tgt_vocab": "inside.axis_tgt_vocab",
}
CONTROLS_PX = 360  # the walk's controls beside the diagram
CELL_MAP_PX, ARITHMETIC_PX = 380, 520  # the attention map to click, and the arithmetic of the clicked cell
EMPTY = "–"  # a table cell with no number, for a reason the page gives beside it

L = page_setup()
ss = st.session_state
translator = current().translator
cfg = translator.config

VIEW = {  # the link parameters of this page's view
    **padded_picker("inside", "inside"),
    "step": Param("inside_step", "int"),
    "head": Param("inside_head", "index"),
    "attention": Param("inside_attention"),
    "cell_head": Param("inside_cell_head", "index"),
    "query": Param("inside_query", "int"),
    "key": Param("inside_key", "int"),
}
page_header(L, "inside", "inside.title", "inside.intro", VIEW, paper=t("inside.intro_paper", L))

pad_labels = (t("inside.src_pad", L), t("inside.tgt_pad", L), t("inside.pad_help", L), t("inside.greedy_target", L))
source, target, src_pad, tgt_pad = padded_sentence(L, "inside", "inside", pad_labels)
trace = model_cached_or_end(
    L,
    (CacheKind.TRACE, source, target, src_pad, tgt_pad),
    lambda: trace_sentence(translator, source, target, src_pad, tgt_pad),
)
warn_unknown(trace.unknown, L)


def trace_figure(kind: str, *view, build):
    """A chart of this trace built once per model, sentence, padding and view (kind and view name it), as the
    Attention page's: a rerun, or a page switch back, draws the same figure."""
    return model_cached((CacheKind.INSIDE_FIGURE, source, target, src_pad, tgt_pad, kind, *view, L), build)


steps, blocks = trace.steps, trace.blocks
enc, dec = trace.step("enc_inputs", "encoder"), trace.step("dec_inputs", "decoder")
out = trace.step("dec_outputs", "criterion")
st.download_button(
    t("inside.download_trace", L),
    data=model_cached(
        (CacheKind.TRACE_JSON, source, target, src_pad, tgt_pad), trace.to_json
    ),  # eager: a rerun keeps it
    file_name=file_name("trace", source[:40], f"pad-{src_pad}-{tgt_pad}") + ".json",
    mime="application/json",
    key="download_trace",
    on_click="ignore",
    icon=":material/download:",
)
sheet_settings(L, [(t("inside.src_pad", L), src_pad), (t("inside.tgt_pad", L), tgt_pad)])
# as the charts have them: the pass this page follows step by step feeds P, S and E
sentence = for_sentence(L, " ".join(trace.src_tokens), " ".join(trace.dec_tokens), specials=True)
code(
    f"enc_inputs  = {enc.tensor.tolist()}   # {' '.join(trace.src_tokens)}\n"
    f"dec_inputs  = {dec.tensor.tolist()}   # {' '.join(trace.dec_tokens)}\n"
    f"dec_outputs = {out.tensor.tolist()}   # {' '.join(trace.tgt_tokens)}",
    language=None,  # plain text: Streamlit's grey for Python comments (3.5:1) is too faint for the tokens
)

# ---------------------------------------------------------------- the walk: diagram, block list, step slider

side_names = {"encoder": t("inside.encoder", L), "decoder": t("inside.decoder", L)}
labels = [t(BLOCK_WORDS[b.kind], L) for b in blocks]
repeats = Counter((b.side, label) for b, label in zip(blocks, labels))  # e.g. two Add & Norm per encoder layer
seen: Counter = Counter()
block_names = []
for b, label in zip(blocks, labels):
    seen[(b.side, label)] += 1
    number = f" {seen[(b.side, label)]}" if repeats[(b.side, label)] > 1 else ""
    block_names.append(f"{side_names[b.side]} · {label}{number}")

keep_in_range("inside_step", 1, len(steps), 1)
step = steps[ss.inside_step - 1]
if step.layer is not None:
    ss.inside_layer = step.layer


def _go(index: int) -> None:
    ss.inside_step = min(max(index, 0), len(steps) - 1) + 1


def _choose_block() -> None:
    _go(trace.block_step(ss.inside_block, ss.get("inside_layer", 0)))


def _choose_layer() -> None:
    here = steps[ss.inside_step - 1]
    run = blocks[here.block].steps.get(here.layer, [here.index])
    if blocks[here.block].in_layer:
        _go(trace.block_step(here.block, ss.inside_layer, run.index(here.index)))


def _choose_substep() -> None:
    here = steps[ss.inside_step - 1]
    _go(trace.block_step(here.block, here.layer, ss.inside_substep))


def _clicked(key: str) -> None:
    points = ss[key].selection.points if key in ss else []
    if points:
        _go(trace.block_step(blocks[points[0]["point_index"]].index, ss.get("inside_layer", 0)))


section(t("inside.walk", L))
text(t("inside.walk_intro", L))
keep_option("inside_layer", list(range(cfg.n_layers)))
diagram = trace_figure(
    "diagram",
    step.block,
    ss.inside_layer,
    build=lambda: architecture_figure(
        blocks,
        labels,
        [b.sizes for b in blocks],
        selected=step.block,
        n_layers=cfg.n_layers,
        layer=ss.inside_layer,
        encoder_label=t("inside.encoder", L),
        decoder_label=t("inside.decoder", L),
        layers_label=t("inside.n_layers", L),
        layer_label=t("inside.layer_n", L),
        masked=trace.masked_blocks(),
    ),
)
# the controls, and the diagram at its own width (its text is sized to its boxes in px) beside them or, in a narrow
# window, under them: redrawn after every click, it never moves the controls
controls, drawing = wrapping_row([CONTROLS_PX, diagram.layout.width])
with controls:
    ss.inside_block = step.block
    choose_one(
        st.selectbox,
        t("inside.block", L),
        list(range(len(blocks))),
        key="inside_block",
        format_func=lambda i: block_names[i],
        on_change=_choose_block,
    )
    st.selectbox(
        t("inside.layer", L),
        list(range(cfg.n_layers)),
        key="inside_layer",
        persist_state="session",
        format_func=lambda i: f"{i + 1}",
        on_change=_choose_layer,
        help=t("inside.layer_help", L),
    )
    run = blocks[step.block].steps[step.layer]
    ss.inside_substep = run.index(step.index)
    choose_one(
        st.radio,
        t("inside.block_steps", L),
        list(range(len(run))),
        key="inside_substep",
        format_func=lambda i: steps[run[i]].name,
        on_change=_choose_substep,
        horizontal=True,
    )
    b1, b2 = st.columns(2)
    b1.button(
        t("inside.prev", L),
        key="prev_inside",
        on_click=_go,
        args=(step.index - 1,),
        disabled=step.index == 0,
        width="stretch",
    )
    b2.button(
        t("inside.next", L),
        key="next_inside",
        on_click=_go,
        args=(step.index + 1,),
        disabled=step.index == len(steps) - 1,
        width="stretch",
    )
    st.slider(
        t("inside.step", L),
        1,
        len(steps),
        key="inside_step",
        persist_state="session",
        help=t("inside.step_help", L, n=len(steps)),
    )
with drawing:
    diagram_key = f"diagram_inside_{step.block}_{ss.inside_layer}"
    chart(
        diagram,
        diagram_key,
        file_name("transformer-architecture", f"d_model-{cfg.d_model}", f"n_layers-{cfg.n_layers}"),
        caption=caption(
            t("inside.diagram", L), block_names[step.block], t("inside.layer_n", L, layer=ss.inside_layer + 1)
        ),
        on_select=lambda: _clicked(diagram_key),
        selection_mode="points",
    )
    hint(t("inside.click_block", L))

# ---------------------------------------------------------------- the selected step

section(t("inside.step_title", L, i=step.index + 1, n=len(steps), name=step.name, where=step.where), 3)
text(t("inside.shape", L, shape=list(step.shape), axes=", ".join(step.axes)))
if step.code:
    code(step.code)
text(t(STEP_WORDS[step.kind], L))
if step.kind in SEED_WORDS:
    text(t(SEED_WORDS[step.kind], L), "info")

figure_labels = dict(
    value_label=t("inside.value", L),
    head_label=t("inside.head", L),
    blocked_label=t("inside.blocked", L),
    allowed_label=t("inside.allowed", L),
    cap_note=t("inside.cap_note", L),
    vocab=translator.tgt_vocab.itos,
    axis_words={axis: t(key, L) for axis, key in AXIS_WORDS.items()},
)
if shows_one_head(step.shape, step.axes):
    choose_numbered(st.selectbox, t("inside.head", L), cfg.n_heads, key="inside_head")
head = ss.get("inside_head", 0)


def show_step(s, key: str, title: str = "") -> None:
    """One step's tensor as a heatmap (the loss, a single number, as a metric)."""
    if not s.axes:
        metric(s.name, f"{float(s.tensor):.4f}")
        return
    chart(
        trace_figure(
            "step",
            s.index,
            head,
            title,
            build=lambda: step_figure(s.tensor, s.axes, trace.axis_tokens(s), head, title=title, **figure_labels),
        ),
        key,
        file_name("inside", s.where, s.name, f"head-{head + 1}" if "heads" in s.axes else ""),
        caption=caption(
            f"{s.name} · {s.where}", f"{t('inside.head', L)} {head + 1}" if "heads" in s.axes else "", sentence
        ),
    )


inputs = trace.inputs_of(step.index)
if inputs:
    columns = st.columns(len(inputs) + 1, gap="medium")
    for i, (col, s) in enumerate(zip(columns, [*inputs, step])):
        with col:
            went = t("inside.went_in", L) if s is not step else t("inside.came_out", L)
            text(f"**{went}:** `{s.name}` · {list(s.shape)}")
            show_step(s, f"inside_fig_{i}", s.name)
            if step.kind == "layer_norm":
                stats = trace.row_stats(s.index)
                table(
                    pd.DataFrame(
                        {
                            t("inside.token", L): trace.axis_tokens(s)[1],
                            t("inside.mean", L): [m for m, _ in stats],
                            t("inside.std", L): [sd for _, sd in stats],
                        }
                    ),
                    hide_index=True,
                    key=f"stats_inside_{i}",
                )
else:
    show_step(step, "fig_inside_step", step.name)
computed_by("transformer.trace.trace_sentence → Transformer(enc_inputs, dec_inputs, rec=…)", L)

# ---------------------------------------------------------------- the arithmetic of one attention cell

section(t("inside.cell", L))
text(t("inside.cell_intro", L), paper=t("inside.cell_intro_paper", L))
modules = trace.attention_modules()
if step.where in modules and ss.get("inside_cell_for", step.index) != step.index:  # follow the walk into attention
    ss.inside_attention, ss.inside_cell_head = step.where, head
ss.inside_cell_for = step.index


def _module_name(where: str) -> str:
    """An attention module as its box of the diagram names it, with its layer."""
    s = trace.step("attn", where)
    return f"{t(BLOCK_WORDS[blocks[s.block].kind], L)} · {t('inside.layer', L)} {s.layer + 1}"


def choose_position(column, label: str, tokens: list[str], key: str) -> int:
    """A selectbox in column over the positions of tokens, each shown as its index and token."""
    return choose_one(
        column.selectbox, label, list(range(len(tokens))), key=key, format_func=lambda i: f"{i}: {tokens[i]}"
    )


c1, c2, c3, c4 = st.columns([3, 1, 2, 2])
where = choose_one(c1.selectbox, t("inside.attention", L), modules, key="inside_attention", format_func=_module_name)
attn_step = trace.step("attn", where)
q_tokens, k_tokens = trace.axis_tokens(attn_step)[2:]
head = choose_numbered(c2.selectbox, t("inside.head", L), cfg.n_heads, key="inside_cell_head")
query = choose_position(c3, t("inside.query", L), q_tokens, "inside_query")
key = choose_position(c4, t("inside.key", L), k_tokens, "inside_key")
cell = trace.attention_cell(where, head, query, key)


def _cell_clicked(chart_key: str) -> None:
    points = ss[chart_key].selection.points if chart_key in ss else []
    if points:
        ss.inside_query, ss.inside_key = int(points[0]["y"]), int(points[0]["x"])


c1, c2 = wrapping_row([presenter_px(CELL_MAP_PX), ARITHMETIC_PX])  # side by side in a wide window
with c1:
    map_key = f"cellmap_inside_{where}_{head}_{query}_{key}"
    chart(
        trace_figure(
            "cell_map",
            where,
            head,
            query,
            key,
            build=lambda: step_figure(
                attn_step.tensor,
                attn_step.axes,
                trace.axis_tokens(attn_step),
                head,
                title="attn",
                clickable=True,
                highlight=(query, key),
                **figure_labels,
            ),
        ),
        map_key,
        file_name("inside", where, "attn", f"head-{head + 1}"),
        caption=caption(
            f"attn · {where}", f"{t('inside.head', L)} {head + 1}", t("inside.cell_marked", L, i=query, j=key), sentence
        ),
        on_select=lambda: _cell_clicked(map_key),
        selection_mode="points",
    )
    hint(t("inside.click_cell", L))
with c2:
    text(t("inside.cell_pick", L, q=markdown(q_tokens[query]), i=query, k=markdown(k_tokens[key]), j=key, h=head + 1))
    text(t("inside.cell_step1", L))
    table(
        pd.DataFrame({"i": range(len(cell.q)), "q_i": cell.q, "k_i": cell.k, "q_i·k_i": cell.products}),
        hide_index=True,
        key="qk_inside",
    )
    formula(rf"q \cdot k = \sum_i q_i k_i = {cell.dot:.4f}")
    text(t("inside.cell_step2", L) if cfg.scale else t("inside.cell_step2_unscaled", L))
    root = rf"\sqrt{{{len(cell.q)}}}" if cfg.scale else "1"
    formula(rf"s = \frac{{q \cdot k}}{{{root}}} = \frac{{{cell.dot:.4f}}}{{{cell.divisor:.4f}}} = {cell.score:.4f}")
    if not cell.has_mask:
        text(t("inside.cell_no_mask", L))
    elif cell.blocked:
        text(t("inside.cell_blocked", L))
    else:
        text(t("inside.cell_allowed", L))

text(t("inside.cell_step4", L))
c1, c2 = st.columns([3, 2], gap="large")
exp_label = f"e^(s−{cell.shift:.4f})" if cell.shift else "e^s"
with c1:
    table(
        pd.DataFrame(
            {
                "j": range(len(cell.row)),
                t("inside.key", L): k_tokens,
                "s_j": cell.row,
                exp_label: cell.exps,
                t("inside.weight", L): cell.weights,
            }
        ),
        highlight=key,
        repeat=2,
        hide_index=True,
        key="softmax_inside",
    )
    shift = f" - {cell.shift:.4f}" if cell.shift else ""  # only for scores too large for e^s
    formula(
        rf"\mathrm{{attn}}_{{{query},{key}}} = \frac{{e^{{s_{{{key}}}{shift}}}}}{{\sum_j e^{{s_j{shift}}}}} = "
        rf"\frac{{{cell.exps[key]:.4f}}}{{{cell.total:.4f}}} = {cell.weight:.4f}"
    )
with c2:
    chart(
        trace_figure(
            "softmax_row",
            where,
            head,
            query,
            key,
            build=lambda: softmax_row_figure(
                cell.weights,
                k_tokens,
                key,
                [v == float("-inf") for v in cell.row],
                weight_label=t("inside.weight", L),
                key_label=t("inside.key", L),
                blocked_label=t("inside.blocked", L),
            ),
        ),
        "softmax_row_inside",
        file_name("inside", where, "softmax-row", f"query-{query}"),
        caption=caption(t("inside.softmax_row", L, i=query), where, f"{t('inside.head', L)} {head + 1}", sentence),
    )

text(t("inside.cell_step5", L, i=query))
d_v = len(cell.context)
weighted = {"j": [str(j) for j in range(len(cell.values))] + ["Σ"], t("inside.key", L): [*k_tokens, ""]}
weighted[t("inside.weight", L)] = [*cell.weights, sum(cell.weights)]
for i in range(d_v):
    weighted[f"v_j[{i}]"] = [row[i] for row in cell.values] + [float("nan")]  # not summed: empty, said below
for i in range(d_v):
    weighted[f"w_j·v_j[{i}]"] = [row[i] for row in cell.weighted] + [sum(row[i] for row in cell.weighted)]
table(pd.DataFrame(weighted), na_rep=EMPTY, repeat=2, styled=True, hide_index=True, key="weighted_inside")
text(t("inside.cell_sum_row", L, empty=EMPTY), "caption")
text(t("inside.cell_context", L, values=", ".join(f"{v:.4f}" for v in cell.context)))
computed_by("transformer.trace.attention_cell", L)

# ---------------------------------------------------------------- the loss of the sentence

section(t("inside.loss", L))
text(t("inside.loss_intro", L))
rows = trace.loss_rows()
table(
    pd.DataFrame(
        {
            t("inside.position", L): [r.position for r in rows],
            "dec_inputs": [r.dec_input for r in rows],
            "dec_outputs": [r.target for r in rows],
            "p": [r.p for r in rows],
            "−log p": [float("nan") if r.padded else r.nll for r in rows],  # empty: "padding: not counted"
            t("inside.counted", L): [t("inside.padding_excluded", L) if r.padded else "✓" for r in rows],
        }
    ),
    na_rep=EMPTY,
    styled=True,
    hide_index=True,
    key="loss_inside",
)
counted = [r for r in rows if not r.padded]
formula(
    rf"\mathrm{{loss}} = \frac{{1}}{{{len(counted)}}}\sum -\log p = "
    rf"\frac{{{sum(r.nll for r in counted):.4f}}}{{{len(counted)}}} = {trace.loss:.4f}"
)
computed_by("transformer.trace.Trace.loss_rows (nn.CrossEntropyLoss(ignore_index=0))", L)
