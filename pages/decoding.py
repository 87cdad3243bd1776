"""Decoding step by step: greedy, beam search, sampling, choosing the next word yourself, teacher forcing."""

import pandas as pd
import streamlit as st

from transformer.comparisons import beam_against_greedy
from transformer.config import MAX_BEAM_SIZE, MAX_DECODE_LEN, MAX_STUDY_PAIRS, MAX_TYPED_CHARS
from transformer.decoding import (
    against_greedy,
    beam_search,
    can_output,
    forced_decode,
    greedy_hypothesis,
    n_outputs,
    output_ids,
    sample,
    teacher_forcing_vs_free_running,
)
from transformer.errors import TransformerError
from transformer.text import markdown as md
from ui.export import caption, chart, file_name, for_sentence, formula, section, table, text
from ui.i18n import t
from ui.messages import error_text
from ui.model_cache import CacheKind
from ui.session import current, end_page, page_setup, usable_pairs
from ui.tables import mark
from ui.view_state import (
    Param,
    choose_labelled,
    choose_number,
    choose_numbered,
    choose_one,
    cut,
    keep_in_range,
    picker,
    replaced,
)
from ui.widgets import (
    computed_by,
    model_cached,
    page_header,
    sentence_picker,
    unknown_marked,
    warn_if_data_changed,
    warn_unknown,
    wide_chart_box,
    wrapping_row,
)
from viz.attention import source_attention_figure
from viz.common import CHOSEN_COLOR
from viz.decoding import FORCED_COLOR, TOPK_PX, beam_tree_figure, sampling_figure, topk_figure

STRATEGIES = {  # a strategy: its name
    "greedy": "dec.s_greedy",
    "beam": "dec.s_beam",
    "sample": "dec.s_sample",
    "choose": "dec.s_choose",
    "teacher": "dec.s_teacher",
}
VERDICTS = {  # BeamAgainstGreedy.case: what the search did with greedy's path
    "same": "dec.beam_same",
    "tie": "dec.beam_tie",
    "better": "dec.beam_better",
    "pruned": "dec.beam_pruned",
    "stopped": "dec.beam_stopped",
}
MAX_SAMPLES = 6  # samples shown side by side
MAX_ALPHA = 2.0  # largest length penalty on the slider

L = page_setup()
ss = st.session_state
model = current()
translator = model.translator
cfg = translator.config
tgt_vocab = translator.tgt_vocab

VIEW = {  # the link parameters of this page's view
    **picker("dec"),
    "strategy": Param("dec_strategy"),
    "step": Param("dec_step", "int"),
    "forced": Param("dec_prefix", "ints"),
    "k": Param("dec_k", "int"),
    "layer": Param("dec_layer", "index"),
    "beam": Param("dec_beam_size", "int"),
    "alpha": Param("dec_alpha", "float"),
    "temperature": Param("dec_temperature", "float"),
    "top_k": Param("dec_top_k", "int"),
    "top_p": Param("dec_top_p", "float"),
    "seed": Param("dec_seed", "int"),
    "samples": Param("dec_samples", "int"),
    "sample": Param("dec_sample_pick", "int"),
    "sample_step": Param("dec_sample_step", "int"),
    "reference": Param("dec_reference"),
}
page_header(L, "decoding", "dec.title", "dec.intro", VIEW)
warn_if_data_changed(L)

source, reference = sentence_picker(L, "dec")
strategy = choose_labelled(st.radio, t("dec.strategy", L), STRATEGIES, L, key="dec_strategy", horizontal=True)
try:
    enc_input, src_tokens, unknown = translator.encode_source(source)
except TransformerError as exc:
    text(error_text(exc, L), "error")
    end_page()
warn_unknown(unknown, L)
# the source as typed, unknown words marked, for the attention axis (the model reads them as <unk>)
src_labels = unknown_marked(src_tokens, enc_input[0], translator.src_vocab.unk_id)
ref_tokens = translator.target_tokens(reference) if reference is not None else None
if ref_tokens is not None:  # a dataset pair's reference may use words the model's target vocabulary lacks
    ref_ids, ref_unknown = tgt_vocab.encode(ref_tokens)
    ref_labels = unknown_marked(ref_tokens, ref_ids, tgt_vocab.unk_id)
    warn_unknown(ref_unknown, L, "dec.ref_unknown")

# a new sentence starts at step 1 without forced tokens (a link's step and tokens are kept); a new model keeps the step
# (made valid where it is drawn) but not the forced tokens: they are ids in another model's vocabulary
made_for = ss.get("dec_for", (model.id, source))
if made_for[1] != source:
    ss.dec_step, ss.dec_prefix = 1, []
elif made_for[0] != model.id and ss.get("dec_prefix"):
    replaced("dec_prefix", ss.dec_prefix, [])
    ss.dec_prefix = []
ss.dec_for = (model.id, source)
forced = output_ids(ss.get("dec_prefix", []), tgt_vocab)  # tokens decoding never outputs are never forced either
if forced != ss.get("dec_prefix"):
    replaced("dec_prefix", ss.get("dec_prefix"), forced)
if len(forced) > MAX_DECODE_LEN:  # decoding stops there: the tokens after it could never be shown
    cut("dec_prefix", len(forced), MAX_DECODE_LEN)
ss.dec_prefix = forced[:MAX_DECODE_LEN]
sentence = for_sentence(L, source, reference)
section(f"{t('dec.strategy', L)}: {t(STRATEGIES[strategy], L)}", drawn=False)  # the page says it with its radio


def badges(tokens: list[str], color: str = "gray") -> str:
    """Tokens as markdown badges, each shown literally."""
    return " ".join(f":{color}-badge[{md(tok)}]" for tok in tokens)


def reference_mark(tokens: list[str]) -> str:
    """✓ when tokens are the reference translation, ✗ when not, nothing for a typed sentence."""
    if ref_tokens is None:
        return ""
    return mark(tokens == ref_tokens)


def step_navigation(n_steps: int, key: str = "dec_step", buttons=("prev_step", "next_step")) -> int:
    """Previous / slider / Next over n_steps steps sharing st.session_state[key]; returns the 1-based step."""
    keep_in_range(key, 1, n_steps, 1)

    def move(delta: int) -> None:
        ss[key] = min(max(ss[key] + delta, 1), n_steps)

    c1, c2, c3 = st.columns([1, 6, 1], vertical_alignment="bottom")
    c1.button(t("dec.prev", L), on_click=move, args=(-1,), disabled=ss[key] <= 1, key=buttons[0], width="stretch")
    if n_steps > 1:
        c2.slider(t("dec.step", L), 1, n_steps, key=key, persist_state="session")
    c3.button(t("dec.next", L), on_click=move, args=(1,), disabled=ss[key] >= n_steps, key=buttons[1], width="stretch")
    return ss[key]


def overridden(step) -> bool:
    """True when the learner forced a token other than the model's own choice at this step."""
    return step.forced and step.token_id != int(step.probs.argmax())


# ---------------------------------------------------------------- greedy, and choosing the next word yourself


def force(step_number: int, token_id: int, result) -> None:
    """Force token_id at step_number, keep the tokens chosen before it, continue greedily; show the next step."""
    if not can_output(token_id, tgt_vocab):
        ss.dec_force_refused = True
        return
    ss.dec_prefix = [s.token_id for s in result.steps[: step_number - 1]] + [token_id]
    ss.dec_step = step_number + 1


def force_from_chart(step_number: int, result) -> None:
    """on_select of the top-k chart: force the token of the clicked bar."""
    points = ss.choose_topk.selection.points
    if points:
        force(step_number, int(points[0]["customdata"][2]), result)


# the cross-attention chart's labels: its argument → string key
CROSS_LABELS = {"head": "attn.head", "average": "attn.heads_average", "value": "fig.weight", "source": "data.source"}


def step_view(result, choose: bool, result_key: tuple) -> None:
    """One step of greedy (or forced-then-greedy) decoding: input, next-token bars, cross-attention, output; result is
    the model's cached value under result_key (its figures are cached beside it, by step and view)."""
    steps = result.steps
    step_number = step_navigation(len(steps))
    step = steps[step_number - 1]
    forced_here = overridden(step)
    text(t("dec.at_step", L, t=step.step, n=len(steps)))
    chosen_badge = badges([step.token], "violet" if forced_here else "red")
    text(f"{t('dec.input', L)} &nbsp; {badges(step.dec_input)} &nbsp; → &nbsp; {chosen_badge}")
    if forced_here:
        text(t("dec.forced_note", L, model=md(tgt_vocab.itos[int(step.probs.argmax())])), "caption")
    c1, c2 = wrapping_row([TOPK_PX, TOPK_PX])  # side by side in a wide window, the bars at their own width
    with c1:
        section(t("dec.probs", L))
        k = choose_number(st.slider, t("dec.k", L), 2, min(15, len(tgt_vocab)), key="dec_k", default=5)
        figure = model_cached(
            (CacheKind.DEC_TOPK, *result_key, step.step, k, L),
            lambda: topk_figure(
                step.probs,
                tgt_vocab.itos,
                step.token_id,
                k=k,
                prob_label=t("dec.probability", L),
                token_label=t("vocab.token", L),
                chosen_label=t("dec.forced" if forced_here else "dec.chosen", L),
                chosen_color=FORCED_COLOR if forced_here else CHOSEN_COLOR,
            ),
        )
        at_step = caption(
            t("dec.step_n", L, t=step.step, n=len(steps)), f"{t('dec.input', L)} {' '.join(step.dec_input)}"
        )
        about = caption(t("dec.probs", L), at_step, sentence)
        if choose:
            chart(
                figure,
                "choose_topk",
                file_name("next-token", "step", step.step, "forced" if forced_here else ""),
                about,
                on_select=lambda: force_from_chart(step.step, result),
                selection_mode="points",
            )
            force_controls(step, result)
        else:
            chart(figure, "dec_topk", file_name("next-token", "step", step.step), about)
        function = "transformer.decoding.forced_decode" if choose else "transformer.decoding.greedy_decode"
        computed_by(f"{function} → DecodeStep.probs", L)
    with c2:
        section(t("dec.cross", L))
        layer = choose_numbered(
            st.selectbox,
            t("attn.layer", L),
            cfg.n_layers,
            key="dec_layer",
            default=cfg.n_layers - 1,
        )
        newest = step.dec_enc_attns[layer][:, -1, :]  # (H, Ls): the newest position's row in every head
        words = {f"{k}_label": t(key, L) for k, key in CROSS_LABELS.items()}
        cross = model_cached(
            (CacheKind.DEC_CROSS, *result_key, step.step, layer, L),
            lambda: source_attention_figure(newest, src_labels, **words),
        )
        chart(
            cross,
            "dec_cross",
            file_name("cross-attention", "step", step.step, f"layer-{layer + 1}"),
            caption(t("dec.cross", L), at_step, f"{t('attn.layer', L)} {layer + 1}", sentence),
        )
        computed_by("DecodeStep.dec_enc_attns", L)
        text(t("dec.cross_explain", L, token=badges(step.dec_input[-1:])))

    section(t("dec.output", L))
    shown = [s for s in steps[:step_number] if s.token_id != tgt_vocab.eos_id]
    output = " ".join(badges([s.token], "violet" if overridden(s) else "blue") for s in shown)
    text(output or "–")
    if step_number == len(steps):
        reason = t("dec.stop_eos", L) if result.stop_reason == "eos" else t("dec.stop_max", L, n=len(steps))
        text(t("dec.final", L, text=md(translator.detokenize(result.tokens)) or "–", reason=reason), "success")
        if ref_tokens is not None:
            text(t("dec.reference", L, ref=md(" ".join(ref_labels)), mark=reference_mark(result.tokens)))


def force_controls(step, result) -> None:
    """The keyboard way to force a token: a list of the step's tokens, most probable first, and a button."""
    if ss.pop("dec_force_refused", False):
        text(t("dec.force_refused", L), "warning")
    order = [int(i) for i in step.probs.argsort(descending=True, stable=True) if can_output(int(i), tgt_vocab)]
    if ss.get("dec_force_for") != (ss.dec_for, tuple(ss.dec_prefix), step.step):
        ss.dec_force_for, ss.dec_force_pick = (ss.dec_for, tuple(ss.dec_prefix), step.step), step.token_id
    choose_one(
        st.selectbox,
        t("dec.force_pick", L),
        order,
        key="dec_force_pick",
        default=step.token_id,
        format_func=lambda i: f"{tgt_vocab.itos[i]}  ·  {float(step.probs[i]):.3f}",
    )
    c1, c2 = st.columns(2)
    c1.button(
        t("dec.force", L),
        key="force_token",
        on_click=lambda: force(step.step, ss.dec_force_pick, result),
        width="stretch",
    )
    c2.button(
        t("dec.force_clear", L),
        key="clear_forced",
        on_click=lambda: ss.update(dec_prefix=[], dec_step=1),
        disabled=not ss.dec_prefix,
        width="stretch",
    )


def greedy_section() -> None:
    formula(r"y_t = \mathop{\mathrm{arg\,max}}_{w}\; P(w \mid X, S, y_1, \dots, y_{t-1})")
    text(t("dec.greedy_formula", L), "caption")
    key = (CacheKind.TRANSLATE, source)
    step_view(model_cached(key, lambda: translator.translate(source)), False, key)


def choose_section() -> None:
    text(t("dec.choose_intro", L))
    prefix = tuple(ss.dec_prefix)
    key = (CacheKind.FORCED, source, prefix)
    step_view(model_cached(key, lambda: forced_decode(translator.model, enc_input, tgt_vocab, list(prefix))), True, key)


# ---------------------------------------------------------------- beam search


def beam_section() -> None:
    text(t("dec.beam_intro", L))
    formula(r"s(Y) = \frac{\log P(Y \mid X)}{lp(Y)}, \qquad lp(Y) = \left(\frac{5 + |Y|}{6}\right)^{\alpha}")
    text(t("dec.beam_formula", L), "caption")
    c1, c2 = st.columns(2)
    beam_size = choose_number(c1.slider, t("dec.beam_size", L), 1, MAX_BEAM_SIZE, key="dec_beam_size", default=4)
    alpha = choose_number(
        c2.slider,
        t("dec.alpha", L),
        0.0,
        MAX_ALPHA,
        key="dec_alpha",
        default=0.6,
        step=0.1,
        help=t("dec.alpha_help", L),
    )
    alpha = round(alpha, 2)
    result = model_cached(
        (CacheKind.BEAM, source, beam_size, alpha),
        lambda: beam_search(translator.model, enc_input, tgt_vocab, beam_size, alpha),
    )
    greedy = greedy_hypothesis(model_cached((CacheKind.TRANSLATE, source), lambda: translator.translate(source)), alpha)
    beam_tree(result, beam_size, alpha)
    n_best(result, greedy, beam_size)
    beam_on_dataset(beam_size, alpha)


def beam_tree(result, beam_size: int, alpha: float) -> None:
    """The search as a tree: every candidate of every step, kept, finished or pruned, the best path marked."""
    section(t("dec.beam_tree", L))
    best = result.best
    tree = beam_tree_figure(
        result.steps,
        best_path=best.tokens + ([tgt_vocab.itos[tgt_vocab.eos_id]] if best.finished else []),
        step_label=t("dec.step", L),
        log_prob_label=t("dec.log_prob", L),
        kept_label=t("dec.kept", L),
        finished_label=t("dec.finished", L),
        pruned_label=t("dec.pruned", L),
        best_label=t("dec.best", L),
    )
    with wide_chart_box("dec_beam_tree", tree.layout.width):  # whole tokens: a long tree scrolls sideways
        chart(
            tree,
            "dec_beam_tree",
            file_name("beam-search", f"beam-{beam_size}", f"alpha-{alpha}"),
            caption(t("dec.beam_tree", L), f"K = {beam_size}", f"α = {alpha}", sentence),
        )
    computed_by("transformer.decoding.beam_search → BeamSearch.steps", L)


def n_best(result, greedy, beam_size: int) -> None:
    """The search's hypotheses ranked, and what it did with greedy's path."""
    section(t("dec.nbest", L))
    best = result.best
    rows = [
        {
            t("dec.rank", L): rank,
            t("dec.translation", L): translator.detokenize(h.tokens) or "–",
            t("dec.log_prob", L): round(h.log_prob, 4),
            t("dec.score", L): round(h.score, 4),
            t("dec.ends", L): t("dec.ends_eos" if h.finished else "dec.ends_cap", L),
            **({t("dec.matches", L): reference_mark(h.tokens)} if ref_tokens is not None else {}),
        }
        for rank, h in enumerate(result.hypotheses, start=1)
    ]
    table(pd.DataFrame(rows), hide_index=True, key="nbest_table")
    verdict = against_greedy(result, greedy, tgt_vocab)  # what the search did with greedy's path, from its record
    text(
        t(
            VERDICTS[verdict.case],
            L,
            greedy=md(translator.detokenize(greedy.tokens)) or "–",
            greedy_score=f"{greedy.score:.4f}",
            beam=md(translator.detokenize(best.tokens)) or "–",
            beam_score=f"{best.score:.4f}",
            step=verdict.path.step,
            k=beam_size,
        ),
        "info",
    )


def beam_on_dataset(beam_size: int, alpha: float) -> None:
    """Greedy against beam search on the dataset's pairs, behind a toggle: a table, and how often each is right."""
    section(t("dec.beam_data", L))
    every = usable_pairs()
    pairs = every[:MAX_STUDY_PAIRS]  # beam search on each, in this page's run
    if not pairs:
        text(t("dec.beam_data_none", L), "caption")
        return
    ss.setdefault("dec_beam_table", False)
    toggle = "dec.beam_data_toggle_first" if len(every) > len(pairs) else "dec.beam_data_toggle"
    if not st.toggle(t(toggle, L, n=len(pairs), total=len(every)), key="dec_beam_table", persist_state="session"):
        return
    sources = [src for src, _ in pairs]
    try:
        compared = model_cached(
            (CacheKind.BEAM_VS_GREEDY, tuple(pairs), beam_size, alpha),
            lambda: beam_against_greedy(translator, sources, beam_size, alpha),
        )
    except TransformerError as exc:
        text(error_text(exc, L), "error")
        return
    refs = [translator.target_tokens(tgt) for _, tgt in pairs]
    rows = []
    for (src, tgt), ref, row in zip(pairs, refs, compared):
        rows.append(
            {
                t("data.source", L): src,
                t("dec.ref_col", L): tgt,
                t("dec.greedy_col", L): translator.detokenize(row.greedy.tokens),
                t("dec.greedy_score", L): round(row.greedy.score, 4),
                t("dec.beam_col", L): translator.detokenize(row.beam.tokens),
                t("dec.beam_score", L): round(row.beam.score, 4),
                t("dec.greedy_ok", L): mark(row.greedy.tokens == ref),
                t("dec.beam_ok", L): mark(row.beam.tokens == ref),
            }
        )
    wins = sum(row.beam_wins for row in compared)
    greedy_ok = sum(row.greedy.tokens == ref for row, ref in zip(compared, refs))
    beam_ok = sum(row.beam.tokens == ref for row, ref in zip(compared, refs))
    text(t("dec.beam_data_summary", L, wins=wins, n=len(rows), greedy_ok=greedy_ok, beam_ok=beam_ok))
    table(pd.DataFrame(rows), hide_index=True, key="beam_vs_greedy_table")
    computed_by("transformer.comparisons.beam_against_greedy → decoding.beam_vs_greedy", L)


# ---------------------------------------------------------------- sampling


def sample_section() -> None:
    text(t("dec.sample_intro", L))
    formula(r"P_T(w) = \frac{\exp(z_w / T)}{\sum_{v} \exp(z_v / T)}")
    n_allowed = n_outputs(tgt_vocab)
    c1, c2, c3 = st.columns(3)
    temperature = choose_number(
        c1.slider, t("dec.temperature", L), 0.1, 3.0, key="dec_temperature", default=1.0, step=0.1
    )
    top_k = choose_number(
        c2.slider, t("dec.top_k", L), 0, n_allowed, key="dec_top_k", default=0, help=t("dec.top_k_help", L)
    )
    top_p = choose_number(
        c3.slider, t("dec.top_p", L), 0.05, 1.0, key="dec_top_p", default=1.0, step=0.05, help=t("dec.top_p_help", L)
    )
    c1, c2 = st.columns(2)
    seed = choose_number(c1.number_input, t("dec.seed", L), 0, 1_000_000, key="dec_seed", default=0, step=1)
    n = choose_number(c2.slider, t("dec.samples", L), 1, MAX_SAMPLES, key="dec_samples", default=3)
    temperature, top_p = round(temperature, 2), round(top_p, 2)
    settings = (temperature, top_k, top_p)
    samples = model_cached(
        (CacheKind.SAMPLE, source, settings, seed, n),
        lambda: [sample(translator.model, enc_input, tgt_vocab, *settings, seed=seed + i) for i in range(n)],
    )

    section(t("dec.samples_title", L))
    columns = st.columns(n)
    for column, result in zip(columns, samples):
        with column.container(border=True):
            text(t("dec.seed_n", L, seed=result.seed), "caption")
            text(f"**{md(translator.detokenize(result.tokens)) or '–'}** {reference_mark(result.tokens)}")
            text(t("dec.sample_log_prob", L, value=f"{result.log_prob:.3f}"), "caption")

    section(t("dec.sample_steps", L))
    pick = choose_one(
        st.selectbox,
        t("dec.sample_pick", L),
        list(range(n)),
        key="dec_sample_pick",
        default=0,
        format_func=lambda i: t("dec.seed_n", L, seed=seed + i),
    )
    result = samples[pick]
    step_number = step_navigation(len(result.steps), "dec_sample_step", ("prev_sample_step", "next_sample_step"))
    step = result.steps[step_number - 1]
    text(f"{t('dec.input', L)} &nbsp; {badges(step.dec_input)} &nbsp; → &nbsp; {badges([step.token], 'red')}")
    k = choose_number(st.slider, t("dec.k", L), 2, min(15, len(tgt_vocab)), key="dec_k", default=5)
    chart(
        sampling_figure(
            step.probs,
            step.tempered,
            step.final,
            tgt_vocab.itos,
            step.token_id,
            k=k,
            model_label=t("dec.dist_model", L),
            tempered_label=t("dec.dist_tempered", L, t=temperature),
            final_label=t("dec.dist_final", L, k=top_k or "–", p=top_p),
            prob_label=t("dec.probability", L),
            token_label=t("vocab.token", L),
            chosen_label=t("dec.drawn", L),
        ),
        "dec_sampling",
        file_name("sampling", f"t-{temperature}", f"top-k-{top_k or 0}", f"top-p-{top_p}", "step", step_number),
        caption(
            t("dec.probs", L),
            t("dec.seed_n", L, seed=result.seed),
            t("dec.step_n", L, t=step_number, n=len(result.steps)),
            f"T = {temperature}",
            f"top-k {top_k or '–'}",
            f"top-p {top_p}",
            sentence,
        ),
    )
    computed_by("transformer.decoding.sample → SampleStep.probs / tempered / final", L)


# ---------------------------------------------------------------- teacher forcing vs free running


def teacher_section() -> None:
    text(t("dec.teacher_intro", L))
    typed = reference
    if typed is None:
        ss.setdefault("dec_reference", "")
        typed = st.text_input(
            t("dec.reference_typed", L), key="dec_reference", persist_state="session", max_chars=MAX_TYPED_CHARS
        )
        if not typed.strip():
            text(t("dec.reference_needed", L), "info")
            return
    words = translator.target_tokens(typed)
    ids, unknown_ref = tgt_vocab.encode(words)
    if reference is None:  # a dataset pair's unknown words are named at the top already
        warn_unknown(unknown_ref, L, "dec.ref_unknown")
    try:
        result = model_cached(
            (CacheKind.TEACHER, source, tuple(ids)),
            lambda: teacher_forcing_vs_free_running(translator.model, enc_input, tgt_vocab, ids),
        )
    except TransformerError as exc:
        text(error_text(exc, L), "error")
        return
    shown = [*unknown_marked(words, ids, tgt_vocab.unk_id), tgt_vocab.itos[tgt_vocab.eos_id]]
    rows = []
    for row in result.rows:
        i = row.position - 1
        if result.parted_at is None or row.position < result.parted_at:
            agree = mark(True)
        elif row.position == result.parted_at:
            agree = t("dec.parted", L)
        else:
            agree = "…"
        rows.append(
            {
                t("dec.position", L): row.position,
                t("dec.ref_token", L): shown[i] if i < len(shown) else "",
                t("dec.teacher_prob", L): None if row.teacher_prob is None else round(row.teacher_prob, 4),
                t("dec.teacher_choice", L): row.teacher_choice or "",
                t("dec.free_choice", L): row.free_choice or "",
                t("dec.agree", L): agree,
            }
        )
    if result.parted_at is None:
        text(t("dec.never_parted", L), "success")
    else:
        row = result.rows[result.parted_at - 1]
        text(
            t(
                "dec.parted_at",
                L,
                position=row.position,
                free=md(row.free_choice or "–"),
                ref=md(shown[row.position - 1] if row.reference is not None else "–"),
            ),
            "warning",
        )
    parted = None if result.parted_at is None else result.parted_at - 1  # its row in the table
    table(pd.DataFrame(rows), highlight=parted, highlight_color="#fde2e1", hide_index=True, key="teacher_table")
    computed_by("transformer.decoding.teacher_forcing_vs_free_running", L)


{
    "greedy": greedy_section,
    "beam": beam_section,
    "sample": sample_section,
    "choose": choose_section,
    "teacher": teacher_section,
}[strategy]()
