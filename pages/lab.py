"""Lab: take one part of the Transformer away, train the variant beside the standard model on the same data, sizes and
seed (a background job), and compare them with measured evidence; or compare the current model with a checkpoint."""

import math

import pandas as pd
import streamlit as st

from jobs.queue import Job
from transformer import TrainConfig
from transformer.checkpoint import load_checkpoint
from transformer.comparisons import SharedPairs, pairs_both_read, score_bars, translations_side_by_side
from transformer.config import MAX_CHECKPOINT_BYTES, NORM_KINDS, PE_KINDS, SWITCHES, TransformerConfig, model_sizes
from transformer.data import check_pairs
from transformer.errors import TransformerError
from transformer.lab import (
    EXPERIMENTS,
    LOSS_REACHED,
    MIN_PAIRS,
    MIN_REORDERED,
    STANDARD_SIZES,
    Side,
    Until,
    baseline_verdict,
    check_data,
    evidence,
    held_rows,
    higher_measures,
    peak_attention,
    training_of,
)
from transformer.recipe import EXACT_LEARNED
from transformer.text import markdown, plotly, visible
from transformer.train import holdout_split
from ui.alignment_curve import alignment_section
from ui.export import caption, chart, file_name, for_sentence, hint, section, table, text
from ui.i18n import t, word_list
from ui.messages import error_text
from ui.model_cache import CacheKind, CurrentModel
from ui.presses import LAB_SETTINGS, press, pressed, settings
from ui.session import chosen_tokenizer, current, end_page, page_setup, set_model, usable_pairs
from ui.tables import MARKS, mark, score_frame
from ui.training import LIVE_CHART, RUN_LABELS, current_job, live_fragment, phase_text, run_goal, start_lab
from ui.view_state import Param, choose_labelled, choose_numbered, choose_one, keep_option
from ui.widgets import (
    attention_axes,
    curve_labels,
    kind_picker,
    page_header,
    pair_text,
    results_table,
    wrapping_row,
)
from viz.attention import attention_figure, decoder_row_labels
from viz.lab import comparison_curves_figure, peak_figure, scores_figure

L = page_setup()
ss = st.session_state

MODES = {"experiment": "lab.mode.experiment", "checkpoint": "lab.mode.checkpoint"}  # what to compare: its words
EXPERIMENT_LABELS = {name: f"lab.exp.{name}" for name in (*EXPERIMENTS, "custom")}  # the Lab's choices: their words
MAP_PX = 440  # one model's attention map
STANDARD = TransformerConfig(1, 1)
NEEDS = {  # Experiment.needs: what data shows the effect
    "any": "lab.needs.any",
    "many": "lab.needs.many",
    "reordered": "lab.needs.reordered",
    "longer": "lab.needs.longer",
    "combination": "lab.needs.combination",
}
CANNOT = {
    "too_few": "lab.cannot.too_few",
    "no_reordered": "lab.cannot.no_reordered",
    "one_length": "lab.cannot.one_length",
    "no_combination": "lab.cannot.no_combination",
}
CAUSES = {
    "data": "lab.cause.data",
    "epochs": "lab.cause.epochs",
    "memorised": "lab.cause.memorised",
    "seed": "lab.cause.seed",
}
RUNS = {"baseline": "lab.baseline", "variant": "lab.variant"}  # Run.name: a model's label

VIEW = {  # the link parameters of this page's view
    "mode": Param("lab_mode"),
    "experiment": Param("lab_experiment"),
    "data": Param("lab_data"),
    **{name: Param(f"lab_{name}", "str" if name in ("pe", "norm") else "bool") for name in SWITCHES},
    "pair": Param("lab_pair", "int"),
    "kind": Param("lab_kind"),
    "layer": Param("lab_layer", "index"),
    "head": Param("lab_head", "index"),
}
page_header(L, "lab", "lab.title", "lab.intro", VIEW)


def pct(value: float | None) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:.0%}"


def sizes_text(sizes: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sizes.items())


def variant_text(switches: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in switches.items()) or t("export.paper", L)


def variant_training(name: str) -> dict:
    """The training settings a ready-made experiment's variant changes, e.g. label_smoothing=0.1 (its claim says what
    the baseline does instead); empty for a custom variant."""
    if name == "custom":
        return {}
    changed = EXPERIMENTS[name].variant_train
    return {k: f"{v:.3g}" if isinstance(v, float) else v for k, v in changed.items()}


def evaluations_of(model: CurrentModel, pairs: list[tuple[str, str]], held_pairs: list[tuple[str, str]]) -> dict:
    """The model's evaluation on pairs (and on held_pairs, when there are some): the one its training recorded, else
    computed once per model and pairs."""
    recorded = model.evaluations.get("train")
    if recorded is not None and [(s, g) for s, g, *_ in recorded.results] == list(pairs):
        found = model.evaluations
    else:
        found = model.cached(
            (CacheKind.LAB_EVALUATE, tuple(pairs)), lambda: {"train": model.translator.evaluate(pairs)}
        )
    if held_pairs and "holdout" not in found:
        held = model.cached(
            (CacheKind.LAB_EVALUATE_HELD, tuple(held_pairs)), lambda: model.translator.evaluate(held_pairs)
        )
        found = {**found, "holdout": held}
    return found


# --- what to compare ------------------------------------------------------------------------------------------------
mode = choose_labelled(st.radio, t("lab.mode", L), MODES, L, key="lab_mode", default="experiment", horizontal=True)
job = current_job()
pairs = usable_pairs()


DATA_CHOICES = {"corpus": "lab.data.corpus", "table": "lab.data.table"}  # what to train on: its words; default first


@st.cache_data(max_entries=len(EXPERIMENTS))
def lab_corpus(name: str) -> list[tuple[str, str]]:
    """The corpus a ready-made experiment runs on by default."""
    return EXPERIMENTS[name].corpus_pairs()


def use_corpus() -> None:
    ss.lab_data = "corpus"


def choose_experiment() -> None:
    """The experiment picker, its claim and settings, and Run."""
    name = choose_labelled(
        st.selectbox, t("lab.experiment", L), EXPERIMENT_LABELS, L, key="lab_experiment", default="no_look_ahead"
    )
    text(t(f"lab.claim.{name}", L), "info")
    if name == "custom":
        switches = custom_switches()
        sizes = model_sizes(ss)
        cfg = TrainConfig(epochs=ss.epochs, lr=ss.lr, batch_size=ss.batch_size, seed=int(ss.seed))
        held = holdout_split(len(pairs), ss.holdout, seed=cfg.seed)[1] if pairs and ss.holdout else []
    run_pairs, tokenizer, on_corpus = pairs, chosen_tokenizer(), False
    if name != "custom":
        experiment = EXPERIMENTS[name]
        switches, sizes = experiment.switches, {**STANDARD_SIZES, **experiment.sizes}
        text(
            t(NEEDS[experiment.needs], L, min=MIN_PAIRS if experiment.needs == "many" else MIN_REORDERED),
            "caption",
        )
        counts = dict(size=f"{experiment.corpus_size:,}", n=f"{len(pairs):,}")
        data = choose_labelled(
            st.radio,
            t("lab.data", L),
            DATA_CHOICES,
            L,
            key="lab_data",
            values=counts,
            keep_labels=True,
            horizontal=True,
        )
        on_corpus = data == "corpus"
        if on_corpus:
            run_pairs, tokenizer = lab_corpus(name), "auto"
            cfg = experiment.corpus_config(int(ss.seed))
        else:
            cfg = TrainConfig(seed=int(ss.seed))
            check = check_data(experiment, pairs, chosen_tokenizer()) if pairs else None
            if check is not None and not check.ok:  # said before Run, with the corpus one click away
                text(t(CANNOT[check.code], L, **check.values), "warning")
                st.button(t("lab.use_corpus", L), key="lab_use_corpus", on_click=use_corpus)
        held = held_rows(experiment, run_pairs, tokenizer, cfg.seed) if run_pairs else []
    held_text = t("lab.settings_held", L, n=len(held)) if held else ""
    text(
        t(
            "lab.settings",
            L,
            sizes=sizes_text(sizes),
            epochs=cfg.epochs,
            last=Until.of(cfg.epochs).last,
            lr=f"{cfg.lr:g}",
            seed=cfg.seed,
            n=f"{len(run_pairs) - len(held):,}",
            held=held_text,
            variant=variant_text({**switches, **variant_training(name)}),
        ),
        "caption",
    )
    errors = [] if on_corpus else [p for p in check_pairs(ss.pairs, chosen_tokenizer()) if p.severity == "error"]
    changes = bool(switches) or (name != "custom" and EXPERIMENTS[name].changes)
    disabled = job is not None or not run_pairs or bool(errors) or not changes or len(held) >= len(run_pairs)
    configs = EXPERIMENTS[name].configs(cfg) if name != "custom" else None  # an experiment on the training itself
    lab = (name, run_pairs, switches, sizes, cfg, tokenizer, held, configs)
    made_from = settings(LAB_SETTINGS)
    st.button(
        t("lab.run", L),
        type="primary",
        key="run_lab",
        disabled=disabled,
        on_click=press,
        args=("lab", "lab", made_from, run_lab, *lab),
    )
    if pressed("lab") and not disabled:  # pressed while this page still drew a changed choice
        run_lab(*lab)
        st.rerun()
    if errors:
        text(t("lab.fix_data", L), "error")
    elif not run_pairs:
        text(t("lab.no_pairs", L), "warning")
    elif job is not None and job.kind != "lab":
        text(t("lab.busy", L), "info")


def run_lab(
    name: str, pairs: list, switches: dict, sizes: dict, cfg: TrainConfig, tokenizer: str, held: list, configs=None
) -> None:
    """Start the experiment (Run's press, ui.presses)."""
    if current_job() is None:
        start_lab(name, pairs, switches, sizes, cfg, tokenizer, held, configs)


def custom_switches() -> dict:
    """A toggle or choice per switch with its prediction; returns the switches that differ from the standard model."""
    columns = st.columns(3)
    chosen = {}
    for i, name in enumerate(SWITCHES):
        with columns[i % 3]:
            default = getattr(STANDARD, name)
            key = f"lab_{name}"
            if name in ("pe", "norm"):
                kinds = PE_KINDS if name == "pe" else NORM_KINDS
                chosen[name] = choose_one(
                    st.radio, t(f"lab.switch.{name}", L), kinds, key=key, default=default, horizontal=True
                )
            else:
                keep_option(key, (True, False), default)
                chosen[name] = st.toggle(t(f"lab.switch.{name}", L), key=key, persist_state="session")
            text(t(f"lab.predict.{name}", L), "caption")
    switches = {k: v for k, v in chosen.items() if v != getattr(STANDARD, k)}
    if not switches:
        text(t("lab.same_as_baseline", L), "warning")
    return switches


@live_fragment("lab")
def live_lab(job: Job) -> None:
    """Both runs' progress and curves, redrawn every second while the experiment trains."""
    st.caption(t("lab.running", L))
    for run in job.runs:
        last = run.last
        goal = run_goal(job, run)
        line = (
            t("job.waiting", L)
            if last is None
            else t("job.progress", L, epoch=last.epoch, epochs=goal, loss=f"{last.loss:.4f}")
        )
        st.progress(len(run.records) / goal, text=t(RUN_LABELS[run.name], L) + line)
    until = job.payload.get("until")
    if until is not None and len(job.runs[0].records) > until.first:  # its stopping test after `first` failed
        hint(t("lab.training_on", L, first=until.first, last=until.last))
    phase = phase_text(job, L)
    if phase:
        hint(phase)
    sides = [(t(RUNS[run.name], L), list(run.records)) for run in job.runs]
    st.plotly_chart(
        curves(sides), key="chart_lab_live", config=LIVE_CHART
    )  # redrawn while training: not in the lesson sheet


def curves(sides):
    return comparison_curves_figure(sides, curve_labels(L))


# --- the comparison ------------------------------------------------------------------------------------------------
def compare(a: CurrentModel, b: CurrentModel, labels: tuple[str, str], train_pairs: list, held_pairs: list) -> None:
    """Two models side by side: sizes, curves, scores, the same attention map, and translations with ✓/✗."""
    seed = (a.translator.summary.train_config or TrainConfig()).seed
    shared = pairs_both_read((a.translator, b.translator), train_pairs, held_pairs, seed)
    if shared.left_out:
        text(t("lab.too_long", L, n=shared.left_out), "warning")
    if not shared.train:
        return
    for label, model in zip(labels, (a, b)):
        sizes_caption(label, model)
    evals = [evaluations_of(model, shared.train, shared.held) for model in (a, b)]
    both = " / ".join(visible(label) for label in labels)
    curves_section(a, b, labels, both)
    scores_section(labels, evals, shared, both)
    score_tables_section(a, b, labels)
    peaks_section(a, b, labels, both)
    attention_side_by_side(a, b, labels, shared.train + shared.held)
    translations_section(labels, evals, bool(shared.held))


def sizes_caption(label: str, model: CurrentModel) -> None:
    """A model's parameters, sizes and variant, under its label."""
    cfg = model.translator.config
    params = f"{model.translator.model.num_parameters():,}"
    sizes = sizes_text(model_sizes(cfg, dropout=True))
    text(
        t("lab.model_sizes", L, label=markdown(label), params=params, sizes=sizes, variant=variant_text(cfg.variant)),
        "caption",
    )


def curves_section(a: CurrentModel, b: CurrentModel, labels, both: str) -> None:
    """Both models' training curves, and the alignment each formed while training."""
    section(t("lab.curves", L), 3)
    histories = [(label, model.translator.summary.history) for label, model in zip(labels, (a, b))]
    for label, history in histories:
        if not history:
            text(t("lab.no_history", L, label=markdown(label)), "caption")
    if any(h for _, h in histories):
        chart(
            curves(histories),
            "chart_lab_curves",
            file_name("lab", *labels, "curves"),
            caption(t("lab.curves", L), both),
        )
    alignment_section(histories, "chart_lab_aer", "lab", L, trained=mode == "experiment")


def scores_section(labels, evals: list[dict], shared: SharedPairs, both: str) -> None:
    """Both models' token accuracy and exact match, on the training pairs and the held-out ones, as bars."""
    section(t("lab.scores", L), 3)
    text(t("lab.scores_intro", L))
    if shared.sampled:
        text(t("train.sampled", L, scored=f"{len(shared.train):,}", of=f"{shared.every:,}"), "caption")
    metric_labels = {
        "train_acc": t("lab.metric.train_acc", L),
        "train_exact": t("lab.metric.train_exact", L),
        "held_acc": t("lab.metric.held_acc", L),
        "held_exact": t("lab.metric.held_exact", L),
    }
    chart(
        scores_figure(labels, [score_bars(found) for found in evals], metric_labels),
        "chart_lab_scores",
        file_name("lab", *labels, "scores"),
        caption(t("lab.scores", L), both),
    )


def score_tables_section(a: CurrentModel, b: CurrentModel, labels) -> None:
    """Each model's score table by phenomenon, side by side, when its training recorded one."""
    score_tables = [
        (label, m.translator.summary.scores) for label, m in zip(labels, (a, b)) if m.translator.summary.scores
    ]
    if score_tables:
        section(t("train.scores", L), 3)
        text(t("train.scores_intro", L))
        # side by side, each model's table under its name, so a row of one is read beside the same row of the other
        for column, (label, scores), side in zip(st.columns(len(score_tables)), score_tables, ("a", "b")):
            with column:
                hint(f"**{markdown(label)}**", "markdown")
                table(score_frame(scores, L), hide_index=True, width="stretch", key=f"table_lab_scores_{side}")


def peaks_section(a: CurrentModel, b: CurrentModel, labels, both: str) -> None:
    """How peaked each model's attention was, epoch by epoch, when both recorded snapshots."""
    if a.snapshots and b.snapshots:
        section(t("lab.peak", L), 3)
        peaks = [(label, [(e, peak_attention(maps)) for e, maps in m.snapshots]) for label, m in zip(labels, (a, b))]
        fig = peak_figure(peaks, t("train.epoch", L), t("lab.peak_label", L))
        chart(fig, "chart_lab_peaks", file_name("lab", *labels, "attention-peaks"), caption(t("lab.peak", L), both))


def translations_section(labels, evals: list[dict], held: bool) -> None:
    """Every pair with both models' outputs, each marked ✓ or ✗, the held-out part after the training part."""
    section(t("lab.translations", L), 3)
    columns = [t("data.source", L), t("train.reference", L)]
    for label in labels:
        columns += [f"{label}: {t('train.output', L)}", f"{label} {MARKS}"]
    columns.append(t("train.part", L))
    part_labels = {"train": t("train.part_train", L), "holdout": t("train.part_held", L)}
    shown = translations_side_by_side(*evals, ["train", "holdout"] if held else ["train"])
    rows = [
        (s, g, out_a, mark(ok_a), out_b, mark(ok_b), part_labels[part])
        for part, s, g, out_a, ok_a, out_b, ok_b in shown
    ]
    verdicts = [f"{label} {MARKS}" for label in labels] + [t("train.part", L)]
    results_table(pd.DataFrame(rows, columns=columns), verdicts, "table_lab", L, repeat=len(verdicts) + 1)


def attention_side_by_side(a: CurrentModel, b: CurrentModel, labels, pairs: list) -> None:
    """One pair, kind, layer and head, drawn from both models."""
    section(t("lab.attention", L), 3)
    n_layers = min(m.translator.config.n_layers for m in (a, b))
    n_heads = min(m.translator.config.n_heads for m in (a, b))
    c1, c2, c3, c4 = st.columns([4, 3, 1, 1])
    index = choose_one(
        c1.selectbox, t("lab.pair", L), range(len(pairs)), key="lab_pair", format_func=lambda i: pair_text(pairs[i])
    )
    kind = kind_picker(c2.radio, L, "lab_kind")
    layer = choose_numbered(c3.selectbox, t("attn.layer", L), n_layers, key="lab_layer", default=n_layers - 1)
    head = choose_numbered(c4.selectbox, t("attn.head", L), n_heads, key="lab_head")
    source, target = pairs[index]
    # side by side when the window is wide enough for both maps and their labels, else one under the other
    for column, label, model, side in zip(wrapping_row([MAP_PX, MAP_PX]), labels, (a, b), ("a", "b")):
        with column:
            try:
                view = model.cached(
                    (CacheKind.INSPECT, source, target, 0, 0), lambda m=model: m.translator.inspect(source, target)
                )
            except TransformerError as exc:
                text(error_text(exc, L), "error")
                continue
            predicts = model.translator.tgt_vocab.decode(model.translator.make_batch([(source, target)]).dec_outputs[0])
            rows_dec = decoder_row_labels(view.dec_tokens, predicts)
            rows, cols, axis_labels = attention_axes(L, kind, view.src_tokens, view.dec_tokens, rows_dec)
            where = f"{t(kind.label, L)} · {t('attn.layer', L)} {layer + 1} · {t('attn.head', L)} {head + 1}"
            title = f"{plotly(label)} · {where}"
            attn = view.maps.of(kind)[layer][0][head]  # (Lq, Lk)
            fig = attention_figure(attn, rows, cols, title=title, **axis_labels)
            name = file_name("lab", label, "attention", kind.name, f"layer-{layer + 1}", f"head-{head + 1}")
            about = caption(
                visible(label), where, for_sentence(L, " ".join(view.src_tokens), " ".join(view.dec_tokens))
            )
            chart(fig, f"chart_lab_attention_{side}", name, about)


def show_evidence(result) -> None:
    """A ready-made experiment's claim checked against this run's figures."""
    baseline, variant = (
        Side(m.translator, m.translator.summary.history, m.evaluations, m.snapshots, result.train_pairs)
        for m in (result.baseline, result.variant)
    )
    held, facts = result.variant.cached(
        (CacheKind.LAB_EVIDENCE,), lambda: evidence(result.experiment, baseline, variant, result.held_pairs)
    )
    if result.experiment != ss.get("lab_experiment"):  # the claim above is of another experiment
        text(t(f"lab.claim.{result.experiment}", L))
    values = {}
    for key, value in facts.items():
        if key in ("rows", "cause"):
            continue
        if key.endswith(("_acc", "_exact", "_beyond", "_conf")):
            values[key] = pct(value)
        elif key == "lr":
            values[key] = f"{value:.3g}"
        elif key.endswith("_peak"):
            values[key] = f"{value:.2f}"
        elif key.endswith("_loss"):
            values[key] = f"{value:.4f}" if math.isfinite(value) else "–"
        elif key.endswith("_epochs"):
            values[key] = t("lab.never", L) if value is None else str(value)
        else:
            values[key] = str(value)
    key = f"lab.evidence.{result.experiment}"
    if result.experiment == "no_look_ahead" and facts["v_exact"] > 0.3:  # the words fit the numbers
        key = "lab.evidence.no_look_ahead.high"
    if result.experiment == "dropout" and "n_held" not in facts:  # nothing held out: nothing to count
        key = "lab.evidence.dropout.no_held"
    text(t(key, L, threshold=LOSS_REACHED, **values))
    if "rows" in facts:
        columns = [t("lab.group", L), t("data.source", L), t("train.reference", L)]
        columns += [
            f"{t(RUNS[side], L)}: {n}" for side in ("baseline", "variant") for n in (t("train.output", L), MARKS)
        ]
        rows = [(*r[:3], r[3], mark(r[4]), r[5], mark(r[6])) for r in facts["rows"]]
        verdicts = [f"{t(RUNS[side], L)}: {MARKS}" for side in ("baseline", "variant")]
        results_table(pd.DataFrame(rows, columns=columns), verdicts, "table_lab_permuted", L)
    learned = baseline_verdict(baseline)
    if held and not learned.under_trained:
        text(t("lab.held", L), "success")
    elif held:
        text(t("lab.held_unlearned", L), "warning")
    else:  # the advice follows what kept the claim from holding, as the figures say
        text(t("lab.not_held", L) + " " + t(CAUSES[facts.get("cause", "seed")], L), "warning")
    higher_sentence(result)


MEASURE_WORDS = {  # transformer.lab.MEASURES: their words, and why a variant can score higher on them
    "exact_match": ("lab.measure.exact_match", "lab.why.learned"),
    "token_accuracy": ("lab.measure.token_accuracy", "lab.why.learned"),
    "bleu": ("lab.measure.bleu", "lab.why.overlap"),
    "chrf": ("lab.measure.chrf", "lab.why.overlap"),
}


TRAINING_WORDS = {  # transformer.lab.Training.code: its sentence, and how it is shown
    "learned": ("lab.training.learned", "markdown"),
    "learned_later": ("lab.training.learned_later", "markdown"),
    "unlearned_exact": ("lab.training.unlearned_exact", "warning"),
    "unlearned_falling": ("lab.training.unlearned_falling", "warning"),
    "stopped": ("lab.training.stopped", "warning"),
}


def training_sentence(result) -> None:
    """How long the experiment trained and whether its baseline learned (the recipe's stopping test), from the
    baseline's history and its exact match in the table below; said plainly when it did not learn."""
    model = result.baseline
    side = Side(model.translator, model.translator.summary.history, model.evaluations)
    if not side.history or "train" not in side.evaluations:
        return
    found = training_of(side, result.until, result.stopped)
    key, kind = TRAINING_WORDS[found.code]
    values = dict(epochs=found.epochs, first=found.first, last=found.last, exact=f"{found.exact:.1%}")
    values.update(right=f"{found.right:,}", total=f"{found.total:,}")
    text(t(key, L, fall=pct(found.fall), line=pct(EXACT_LEARNED), **values), kind)


def higher_sentence(result) -> None:
    """The measures of the score table on which the variant scores higher than the baseline, and why that does not
    contradict the verdict: one sentence, so the verdict never says what the table beside it does not."""
    tables = [model.translator.summary.scores for model in (result.baseline, result.variant)]
    if None in tables:
        return
    found = higher_measures(*tables)
    if not found:
        return
    parts = {"train": t("train.part_train", L), "holdout": t("train.part_held", L)}
    items = []
    for measure, part, b, v in found:
        percent = measure in ("exact_match", "token_accuracy")  # as the score table shows them
        shown = (f"{b:.1%}", f"{v:.1%}") if percent else (f"{b:.1f}", f"{v:.1f}")
        where = f" ({parts[part]})" if part in parts and len({p for _, p, _, _ in found}) > 1 else ""
        items.append(t("lab.higher_item", L, measure=t(MEASURE_WORDS[measure][0], L) + where, b=shown[0], v=shown[1]))
    whys = dict.fromkeys(MEASURE_WORDS[m][1] for m, *_ in found)  # each reason once, in the order found
    said = t("lab.higher", L, items=word_list(items, L)) + " " + " ".join(t(w, L) for w in whys)
    text(said, "info")


if mode == "experiment":
    choose_experiment()
    if job is not None and job.kind == "lab":
        live_lab()
        end_page()
    result = ss.get("lab")
    if result is not None:
        title = t(f"lab.exp.{result.experiment}", L)
        section(t("lab.results", L, title=title))
        if result.stopped:
            text(t("lab.stopped", L), "warning")
        training_sentence(result)
        if result.experiment != "custom":
            show_evidence(result)
        labels = (t("lab.baseline", L), t("lab.variant", L))
        compare(result.baseline, result.variant, labels, result.train_pairs, result.held_pairs)
        c1, c2, _ = st.columns([4, 4, 2])
        for column, side, label, model in zip(
            (c1, c2), ("baseline", "variant"), labels, (result.baseline, result.variant)
        ):
            if column.button(
                t("lab.use", L, label=label), key=f"use_{side}", disabled=current() is model, width="stretch"
            ):
                set_model(model)
                # shown after the rerun (the sidebar)
                ss.pending_toast = (t("lab.used", L, label=label), ":material/science:")
                st.rerun()
else:
    upload = st.file_uploader(
        t("lab.upload", L, mb=MAX_CHECKPOINT_BYTES // 1_000_000), type=["safetensors"], key="compare_upload"
    )
    if upload is not None and upload.file_id != ss.get("compare_upload_done"):
        ss.compare_upload_done = upload.file_id
        try:
            ss.compare_model = CurrentModel(load_checkpoint(upload.getvalue()), "uploaded", name=upload.name)
            ss.compare_error = None
        except TransformerError as exc:
            ss.compare_error = t("ckpt.rejected", L, name=markdown(upload.name), reason=markdown(str(exc)))
    if ss.get("compare_error"):
        text(ss.compare_error, "error")
    other = ss.get("compare_model")
    if other is None:
        text(t("lab.upload_first", L), "info")
    elif not pairs:
        text(t("lab.no_pairs", L), "warning")
    else:
        text(t("lab.compared", L, name=markdown(other.name)))
        compare(current(), other, (t("lab.current", L), other.name), pairs, [])
