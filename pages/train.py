"""Train: choose the model's sizes and the optimiser's settings, train in the background while watching the loss,
see how the model does on the pairs it trained on and on held-out pairs, save or load a checkpoint."""

import functools
from dataclasses import replace

import pandas as pd
import streamlit as st

from jobs.queue import Job
from transformer import TrainConfig, TransformerConfig
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.checkpoint_spm import over_checkpoint_limits
from transformer.config import MAX_CHECKPOINT_BYTES, MAX_SEED, heads_dividing, model_sizes
from transformer.data import unseen_words
from transformer.errors import DataError, TransformerError
from transformer.plan import TrainingPlan
from transformer.splits import SPLITS, share_met, split_pairs
from transformer.text import markdown, visible
from transformer.text import plotly as plotly_text
from ui.alignment_curve import alignment_section
from ui.datasets import SETTINGS, always_trained, split_source
from ui.export import caption, chart, file_name, hint, metric, section, sheet_settings, table, text
from ui.finetune import before_after, fine_tuned_name, finetune_plan, kept_lines
from ui.i18n import t, word_list
from ui.messages import error_text
from ui.model_cache import (
    CacheKind,
    CurrentModel,
    bundled_model,
    bundled_split_differences,
    bundled_training,
    trained_on_table,
)
from ui.opened import open_field
from ui.presses import TRAINING_SETTINGS, press, pressed, settings
from ui.published import SOURCES
from ui.recipe_panel import recipe_panel, steps_line, under_trained_line
from ui.session import (
    chosen_tokenizer,
    current,
    end_page,
    page_setup,
    pairs_summary,
    session_memo,
    set_model,
    usable_pairs,
)
from ui.tables import MARKS, mark, score_frame
from ui.training import LIVE_CHART, current_job, job_queue, live_fragment, phase_text, start_finetune, start_training
from ui.view_state import Param, choose_labelled, choose_one, keep_in_range, keep_option
from ui.widgets import curve_labels, metric_row, model_size, page_header, results_table
from viz.training import learning_rate_figure, loss_accuracy_figure

L = page_setup()
ss = st.session_state

VIEW = {  # the link parameters of this page's view
    "d_model": Param("d_model", "int"),
    "n_heads": Param("n_heads", "int"),
    "d_ff": Param("d_ff", "int"),
    "n_layers": Param("n_layers", "int"),
    "dropout": Param("dropout", "float"),
    "lr": Param("lr", "float"),
    "epochs": Param("epochs", "int"),
    "batch_size": Param("batch_size", "int"),
    "seed": Param("seed", "int"),
    "holdout": Param("holdout", "float"),
    "split": Param("split"),
    "label_smoothing": Param("label_smoothing", "float"),
    "warmup": Param("warmup", "int"),
    **{key: Param(key, "bool") for key in ("warmup_on", "paper_adam", "emb_scale", "tie_output")},
}
page_header(L, "train", "train.title", "train.intro", VIEW, paper=t("train.intro_paper", L))

HEAD_CHOICES = (1, 2, 4, 8, 16)
D_MODELS, D_FFS = (8, 16, 32, 64, 128, 256), (16, 32, 64, 128, 256, 512, 1024)
LRS, BATCH_SIZES = (1e-4, 3e-4, 1e-3, 2e-3, 3e-3, 1e-2), (1, 2, 4, 8, 16, 32, 64)
HOLDOUT_CHOICES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
UNSEEN_NAMED = 10  # unseen held-out words named; the rest are counted
SPLIT_LABELS = {kind: f"split.{kind}" for kind in SPLITS}  # the radio's labels; a test checks the family against SPLITS
pairs = [(s, g) for s, g in ss.pairs if s.strip() and g.strip()]
errors = pairs_summary().errors
job = current_job()

# --- settings -------------------------------------------------------------------------------------------
defaults = SETTINGS
for key, options in (("d_model", D_MODELS), ("d_ff", D_FFS), ("lr", LRS), ("batch_size", BATCH_SIZES)):
    keep_option(key, options, defaults[key])
keep_in_range("n_layers", 1, 6, defaults["n_layers"])
keep_in_range("dropout", 0.0, 0.5, defaults["dropout"])
keep_in_range("epochs", 1 if ss.get("from_current") else 5, 400, defaults["epochs"])  # a fine-tuning: from 1
keep_in_range("seed", 0, MAX_SEED, defaults["seed"])
heads = heads_dividing(ss.d_model, HEAD_CHOICES)
keep_option("n_heads", HEAD_CHOICES, defaults["n_heads"])
if ss.n_heads not in heads:
    fixed = max(h for h in heads if h <= ss.n_heads)
    text(t("train.heads_adjusted", L, old=ss.n_heads, new=fixed, d_model=ss.d_model), "info")
    ss.n_heads = fixed
from_current = st.toggle(  # fine-tuning: the current model goes on training (ui.finetune)
    t("train.from_current", L), key="from_current", persist_state="session", help=t("help.from_current", L)
)
c1, c2 = st.columns(2, gap="large")
with c1:
    hint(f"**{t('train.model_settings', L)}**", "markdown")
    off = from_current  # a model trained further keeps its sizes
    st.select_slider(
        "d_model", D_MODELS, key="d_model", persist_state="session", help=t("help.d_model", L), disabled=off
    )
    st.select_slider(
        "n_heads",
        heads,
        key="n_heads",
        persist_state="session",
        help=t("help.n_heads", L, d_model=ss.d_model),
        disabled=off,
    )
    st.select_slider("d_ff", D_FFS, key="d_ff", persist_state="session", help=t("help.d_ff", L), disabled=off)
    st.slider("n_layers", 1, 6, key="n_layers", persist_state="session", help=t("help.n_layers", L), disabled=off)
    st.slider(
        "dropout", 0.0, 0.5, step=0.05, key="dropout", persist_state="session", help=t("help.dropout", L), disabled=off
    )
with c2:
    hint(f"**{t('train.train_settings', L)}**", "markdown")
    st.select_slider(
        t("train.lr", L), LRS, key="lr", persist_state="session", help=t("help.lr", L), format_func=lambda v: f"{v:g}"
    )
    low = 1 if from_current else 5  # a fine-tuning may be one epoch; a training from scratch takes more
    st.slider(t("train.epochs", L), low, 400, step=low, key="epochs", persist_state="session", help=t("help.epochs", L))
    st.select_slider(
        t("train.batch_size", L), BATCH_SIZES, key="batch_size", persist_state="session", help=t("help.batch_size", L)
    )
    st.number_input(
        t("train.seed", L), 0, MAX_SEED, step=1, key="seed", persist_state="session", help=t("help.seed", L)
    )
    holdout = choose_one(
        st.select_slider,
        t("train.holdout", L),
        HOLDOUT_CHOICES,
        key="holdout",
        default=0.0,
        format_func=lambda f: f"{f:.0%}",
        help=t("help.holdout", L),
    )
    kind = choose_labelled(
        st.radio, t("train.split", L), SPLIT_LABELS, L, key="split", default="random", keep_labels=True, horizontal=True
    )
    text(t(f"split_def.{kind}", L), "caption")


def _setting_text(key: str, value) -> str:
    label = {"epochs": t("train.epochs", L), "lr": t("train.lr", L), "batch_size": t("train.batch_size", L)}
    label["holdout"] = t("train.holdout", L)
    label["dropout"] = "dropout"  # the slider's own name, in both languages
    shown = f"{value:.0%}" if key == "holdout" else f"{value:g}"
    return f"{label[key]} {shown}"


note = ss.get("recipe_note")
if note is not None:  # the dataset's recipe, applied when the learner chose the dataset
    dataset, applied, kept = note
    name = t(f"data.dataset.{dataset}", L)
    applied = {k: v for k, v in applied.items() if ss.get(k) == v}  # said while the values are still the recipe's
    kept = {k: v for k, v in kept.items() if ss.get(k) == v[0]}
    if applied:
        items = word_list((_setting_text(k, v) for k, v in applied.items()), L)
        key = "train.recipe_own" if dataset == "own" else "train.recipe"  # own pairs: fitted by steps
        text(t(key, L, dataset=name, items=items, n=f"{len(pairs):,}"), "info")
    if kept:
        items = word_list((_setting_text(k, v[0]) for k, v in kept.items()), L)
        recipe = word_list((_setting_text(k, v[1]) for k, v in kept.items()), L)
        text(t("train.recipe_kept", L, dataset=name, items=items, recipe=recipe), "info")


def _split(pairs: list, kind: str, fraction: float, seed: int, tokenizer=None):
    """The split of the pairs (transformer.splits) as the bundled model's was made (ui.datasets.split_source: the
    corpus's own rows, the tutorial pairs trained besides), once per table and settings: (split, None) or (None, the
    error); tokenizer: the one the pairs are read with (default: the chosen one)."""
    rows, also = split_source(pairs)
    always = also or always_trained()
    tokenizer = chosen_tokenizer() if tokenizer is None else tokenizer

    def split():
        try:
            return split_pairs(rows, kind, fraction, seed, tokenizer, always), None
        except DataError as exc:
            return None, exc

    return session_memo("train_split", (kind, fraction, seed, tokenizer, len(always), len(rows), pairs), split)


def _plan(pairs: list, split, holdout: float, sizes: dict, epochs: int) -> TrainingPlan:
    """The plan Train would start (ui.training.start_training): its pairs, and its tokenizer learned from them alone,
    once per table, split and settings."""
    tokenizer = chosen_tokenizer()

    def plan() -> TrainingPlan:
        rows, also = split_source(pairs) if split is not None else (pairs, [])
        return TrainingPlan.from_split(rows, split, holdout, tokenizer, sizes, TrainConfig(epochs=epochs), also)

    return session_memo("train_plan", (tokenizer, pairs, split, holdout, sizes, epochs), plan)


def _against_bundled(pairs: list, kind: str, fraction: float, seed: int, twice: int) -> str:
    """The bundled model's split (its held-out and trained pairs as many; `twice` tutorial pairs the corpus also holds
    are trained on twice, as its were), or the settings by which this one differs from it."""
    differences = bundled_split_differences(pairs, kind, fraction, seed)
    if not differences:
        return t("train.split_bundled", L, twice=twice)
    labels = {"corpus_size": "data.corpus_size", "corpus_seed": "data.corpus_seed", "holdout": "train.holdout"}
    labels.update(split="train.split", seed="train.seed", tokenizer="data.tokenizer", table="train.split_table")
    shown = {"holdout": lambda v: f"{v:.0%}", "split": lambda v: t(f"split.{v}", L)}
    number = lambda v: f"{v:,}" if isinstance(v, int) else str(v)  # noqa: E731
    items = [
        t(
            "train.split_setting",
            L,
            label=t(labels[what], L),
            now=shown.get(what, number)(now),
            bundled=shown.get(what, number)(then),
        )
        for what, now, then in differences
    ]
    return t("train.split_differs", L, items=word_list(items, L))


held_guess = round(holdout * len(pairs)) if holdout else 0  # the split below holds out about this many
train_count = max(1, len(pairs) - held_guess)
recipe_model, recipe_train, recipe_ok = recipe_panel(
    L, int(ss.epochs) * -(-train_count // int(ss.batch_size)), ss.d_model
)
sizes = model_sizes(ss, dropout=True)
sizes.update({k: v for k, v in recipe_model.items() if v})  # only when on: the model's config stays the seeds'
sheet_settings(
    L,
    [
        *sizes.items(),
        (t("train.lr", L), f"{ss.lr:g}"),
        (t("train.epochs", L), ss.epochs),
        (t("train.batch_size", L), ss.batch_size),
        (t("train.seed", L), ss.seed),
        (t("train.holdout", L), f"{ss.holdout:.0%}"),
        (t("train.split", L), t(f"split.{kind}", L)),
        (t("train.label_smoothing", L), f"{ss.label_smoothing:g}"),
        (t("train.warmup", L), ss.warmup if ss.warmup_on else "–"),
        (t("train.paper_adam", L), "✓" if ss.paper_adam else "–"),
    ],
)
held: list[int] = []
split, refused = None, None
too_large = None  # what the model would be when its checkpoint would be refused
plan = None
if pairs:
    if holdout:
        split, refused = _split(
            pairs, kind, holdout, int(ss.seed), current().translator.tokenizer if from_current else None
        )
        held = split.held if split is not None else []
    if from_current:  # the current model, trained further: its vocabularies and sizes
        plan = finetune_plan(current(), pairs, split, holdout, int(ss.epochs))
    else:  # the model Train would build, and its vocabularies
        plan = _plan(pairs, split, holdout, sizes, int(ss.epochs))
    try:
        model_config = plan.model_config()
    except TransformerError:  # more distinct tokens than a vocabulary holds: listed with the data's errors
        model_config = None
    if model_config is not None:
        counts = model_size(model_config)  # as the sidebar gives them once it is trained
        text(t("train.param_count", L, pairs=f"{len(pairs):,}", **counts))
        if from_current:
            kept_lines(L, current(), plan)
        size = plan.oversized()
        if size is not None:
            too_large = dict(**counts, mb=f"{size[1] / 1e6:,.0f}")
    if refused is not None:
        text(t("train.split_refused", L, reason=markdown(error_text(refused, L))), "error")
    elif holdout:
        rows, also = split_source(pairs)  # the split is of rows; the pairs set aside are not trained on
        line = t("train.split_made", L, held=f"{len(held):,}", kept=f"{len(split.train) + len(also):,}")
        if split.kind == "length":
            line += " " + t("train.split_what.length", L, src=split.cuts[0], tgt=split.cuts[1])
            line += " " + t("train.split_aside", L, n=f"{len(split.set_aside):,}") if split.set_aside else ""
        elif split.held_out:
            items = word_list([markdown(x) for x in split.held_out[:UNSEEN_NAMED]], L)
            what = t("train.split_tokens", L, items=items) if split.unit == "token" else None  # no lexicon: tokens
            line += " " + (what or t(f"train.split_what.{split.kind}", L, items=items))
        if not share_met(split, len(rows), holdout):
            line += " " + t("train.split_share", L, asked=f"{holdout:.0%}", got=f"{len(held) / len(rows):.1%}")
        if always_trained():
            line += " " + t("train.split_always", L, n=len(always_trained()))
        if ss.get("data_dataset") == "corpus":  # the bundled model's split, or what differs from it
            line += " " + _against_bundled(pairs, kind, holdout, int(ss.seed), len(rows) + len(also) - len(pairs))
        text(line, "caption")
    else:
        text(t("train.holdout_none", L, n=len(pairs)), "caption")
    text(steps_line(L, int(ss.epochs), max(1, len(pairs) - len(held)), int(ss.batch_size)), "caption")

# --- training ---------------------------------------------------------------------------------------------


def train(
    pairs: list[tuple[str, str]], tokenizer: str, sizes: dict, cfg: TrainConfig, split, holdout: float, further=None
) -> None:
    """Start the training (Train's press, ui.presses): further: the plan of a fine-tuning of the current model."""
    if current_job() is None and further is not None:  # the current model, trained further
        ss.last_training = None
        start_finetune(replace(further, config=cfg), fine_tuned_name(L, current()), pairs)
    elif current_job() is None:
        ss.last_training = None
        rows, also = split_source(pairs) if split is not None else (pairs, [])
        start_training(rows, tokenizer, sizes, cfg, split, holdout, also, dataset=pairs)


b1, b2, _ = st.columns([2, 2, 6])
cannot_train = (
    bool(errors) or not pairs or job is not None or len(held) >= len(pairs) or too_large is not None or bool(refused)
) or not recipe_ok
extra = recipe_train if recipe_ok else {}
cfg = TrainConfig(epochs=ss.epochs, lr=ss.lr, batch_size=ss.batch_size, seed=int(ss.seed), **extra)
# split: rows of split_source(pairs); the plan of a fine-tuning when the current model goes on training
training = (pairs, chosen_tokenizer(), sizes, cfg, split, holdout, plan if from_current else None)
b1.button(
    t("train.train", L),
    type="primary",
    disabled=cannot_train,
    key="train_button",
    on_click=press,
    args=("train", "train", settings(TRAINING_SETTINGS), train, *training),
    width="stretch",
)
if pressed("train") and not cannot_train:  # pressed while this page still drew a changed setting
    train(*training)
    st.rerun()
b2.button(
    t("train.stop", L),
    key="stop_button",
    disabled=job is None or job.stop_requested,
    on_click=job_queue().stop,
    args=(job,),
    width="stretch",
)
if errors:
    text(t("train.fix_data", L, n=len(errors)), "error")
elif too_large is not None:
    text(t("train.too_large", L, limit=f"{MAX_CHECKPOINT_BYTES / 1e6:,.0f}", **too_large), "error")
elif job is not None and job.kind != "train":
    text(t("train.busy", L), "info")


def _figure(history, title: str = ""):
    return loss_accuracy_figure(history, curve_labels(L), title)


def history_title(model, epochs: int) -> str:
    """Whose curve the chart shows: the bundled model, one trained here or an uploaded one, on how many pairs, and
    whether those are the pairs in the table now."""
    n = len(model.trained_on or ())
    name = plotly_text(model.name) if model.name else ""  # user text, shown literally in the chart's title
    if model.source == "uploaded":
        return t("train.history_uploaded", L, name=name, epochs=epochs)
    if model.source == "bundled":  # trained on the corpus less its held-out rows and on the bundled pairs
        trained, held = bundled_training()
        bundled = model.translator.summary.data.always_trained
        title = t("train.history_bundled", L, corpus=len(trained) - bundled, bundled=bundled, epochs=epochs)
        if held:
            title += " · " + t("train.history_held", L, n=len(held))
    else:
        title = t("train.history_trained", L, name=f" ({name})" if name else "", n=n, epochs=epochs)
    if not trained_on_table(model, usable_pairs()):
        title += " · " + t("train.history_other_data", L)
    return title


STANDARD_D_MODEL = TransformerConfig(1, 1).d_model


@live_fragment("train")
def live_training(job: Job) -> None:
    """The running training's progress and loss curve, redrawn every second (the page itself does not rerun)."""
    run = job.runs[0]
    last = run.last
    line = (
        t("job.waiting", L)
        if last is None
        else t(
            "train.progress",
            L,
            epoch=last.epoch,
            epochs=run.config.epochs,
            loss=f"{last.loss:.4f}",
            acc=f"{last.accuracy:.0%}",
        )
        + (t("train.progress_aer", L, aer=f"{last.aer:.2f}") if last.aer is not None else "")
    )
    if last is not None and last.lr is not None:  # the rate of the epoch's last step, as the schedule set it
        line += " · " + t("train.progress_lr", L, lr=f"{last.lr:.3g}")
    st.progress(len(run.records) / run.config.epochs, text=line)
    phase = phase_text(job, L)
    if phase:
        hint(phase)
    st.plotly_chart(
        _figure(list(run.records)), key="live_chart", config=LIVE_CHART
    )  # redrawn while training: not in the lesson sheet
    if run.config.warmup is not None and last is not None:  # a schedule: the rate so far, step by step
        model = run.translator  # a plan until the job has built and trained it
        planned = isinstance(model, TrainingPlan)
        d_model = model.sizes.get("d_model", STANDARD_D_MODEL) if planned else model.config.d_model
        rate = functools.partial(run.config.learning_rate, d_model)
        figure = learning_rate_figure(list(run.records), rate, t("train.lr", L), t("train.step", L))
        st.plotly_chart(figure, key="live_lr_chart", config=LIVE_CHART)


if job is not None and job.kind == "train":
    live_training()
    end_page()  # the results below belong to the model that was current before this training

# --- results ----------------------------------------------------------------------------------------------
model = current()
summary = model.translator.summary
sampled = summary.sampled  # (scored, of) when the training pairs were scored on a sample (transformer.plan)
info = ss.get("last_training") or {}
section(t("train.results", L), drawn=False)  # the page shows them under its settings
if info.get("kind") == "train" and "failed" in info:
    text(t("train.failed", L, error=markdown(info["failed"])), "error")
elif model.source == "trained" and info.get("kind") == "train":
    if info["stopped"]:
        text(t("train.stopped", L, epochs=info["epochs"]), "warning")
    else:
        text(t("train.done", L, epochs=info["epochs"], seconds=f"{info['seconds']:.1f}"), "success")
    if info.get("before") is not None:  # a fine-tuning: what the model knew, and what the pairs added
        before_after(L, info["before"], model)
    if model.results is not None:  # a training that ended under-trained says so, and what to change
        trained = model.evaluations["train"]
        said = under_trained_line(L, summary, trained.exact_match, sampled[1] if sampled else trained.total)
        if said:
            text(said, "warning")


def _of_pairs(evaluation, sampled: bool = False) -> str:
    """What an exact-match figure counts: "1,837 of 1,838 pairs" (of a sample: "4,901 of 5,000 sampled pairs")."""
    key = "train.of_sample" if sampled else "train.of_pairs"
    return t(key, L, exact=f"{evaluation.exact:,}", total=f"{evaluation.total:,}")


def _score_table(model: CurrentModel) -> None:
    """The model's scores by phenomenon and part, as its training (here, or the checkpoint's) recorded them."""
    summary = model.translator.summary
    scores = summary.scores
    if scores is None:
        return
    section(t("train.scores", L))
    text(t("train.scores_intro", L))
    if sample := summary.sampled:
        text(t("train.sampled", L, scored=f"{sample[0]:,}", of=f"{sample[1]:,}"))
    made = summary.data.split
    if made and "holdout" in scores.parts:
        kind = t(f"split.{made.kind}", L)
        text(t("train.scores_split", L, kind=kind, share=f"{made.holdout:.0%}", seed=made.seed))
        text(t(f"split_def.{made.kind}", L), "caption")
    elif "holdout" not in scores.parts:
        text(t("train.scores_no_split", L), "caption")
    table(score_frame(scores, L), hide_index=True, width="stretch", key="scores_table")


if summary.history:
    title = history_title(model, summary.epochs or len(summary.history))
    chart(  # built once per model and title, not on every rerun
        model.cached((CacheKind.HISTORY_FIGURE, title, L), lambda: _figure(summary.history, title)),
        "history_chart",
        file_name("training", f"{summary.epochs}-epochs", "loss-accuracy"),
        caption(
            t("train.loss", L) + " / " + t("train.accuracy", L),
            t(
                "sidebar.source",
                L,
                source=t(SOURCES[model.source], L) + (f" ({visible(model.name)})" if model.name else ""),
            ),
            t("sidebar.epochs", L, n=summary.epochs),
        ),
    )
    if any(h.holdout_loss is not None for h in summary.history):
        text(t("train.held_curves", L), "caption")
    alignment_section([("", summary.history)], "aer_chart", "training", L, trained=model.source == "trained")
    if any(h.lr is not None for h in summary.history):  # the learning rate of every step, as the schedule set it
        run_cfg = summary.train_config or TrainConfig()
        d_model = model.translator.config.d_model
        chart(
            model.cached(
                (CacheKind.LR_FIGURE, L),
                lambda: learning_rate_figure(
                    summary.history,
                    lambda step: run_cfg.learning_rate(d_model, step),
                    t("train.lr", L),
                    t("train.step", L),
                ),
            ),
            "lr_chart",
            file_name("training", f"{summary.steps}-steps", "learning-rate"),
            caption(t("train.lr_chart", L)),
        )
_score_table(model)
if model.results is not None:
    train_eval, held_eval = model.evaluations["train"], model.evaluations.get("holdout")
    metrics = [(t("train.exact", L), f"{train_eval.exact_match:.1%}", _of_pairs(train_eval, bool(sampled)))]
    if held_eval:
        metrics.append((t("train.exact_held", L), f"{held_eval.exact_match:.1%}", _of_pairs(held_eval)))
    loss = summary.loss if summary.loss is not None else float("nan")
    metrics.append((t("train.final_loss", L), f"{loss:.4f}", None))
    metrics.append((t("train.time", L), f"{summary.seconds:.1f} s", None))
    for cell, shown in zip(metric_row(metrics), metrics):  # each as wide as its texts: st.columns cut them
        with cell:
            metric(*shown)
    if held_eval:  # at the score table's precision
        shares = dict(train_acc=train_eval.token_accuracy, held_acc=held_eval.token_accuracy)
        shares |= dict(train_exact=train_eval.exact_match, held_exact=held_eval.exact_match)
        text(t("train.compare", L, **{key: f"{share:.1%}" for key, share in shares.items()}))
        tr = model.translator
        held_pairs = [(s, g) for s, g, *_ in held_eval.results]
        unseen = model.cached(
            (CacheKind.UNSEEN,), lambda: unseen_words(held_pairs, tr.src_vocab, tr.tgt_vocab, tr.tokenizer)
        )
        for key, counts in (("train.unseen_source", unseen.source), ("train.unseen_target", unseen.target)):
            if counts:
                named = [f"{markdown(w)} ×{n}" for w, n in counts.most_common(UNSEEN_NAMED)]
                words = word_list(named + (["…"] if len(counts) > UNSEEN_NAMED else []), L)
                facts = dict(n=sum(counts.values()), unreachable=unseen.unreachable, total=unseen.total)
                text(t(key, L, words=words, **facts), "info")
    columns = [t("data.source", L), t("train.reference", L), t("train.output", L), MARKS]
    parts = [(held_eval, t("train.part_held", L))] if held_eval else []  # held-out rows first: the ones to discuss
    parts.append((train_eval, t("train.part_train", L)))
    rows = [  # and in each part its errors first
        (s, g, out, mark(ok), *([part] if held_eval else []))
        for evaluation, part in parts
        for s, g, out, ok in sorted(evaluation.results, key=lambda result: result[3])
    ]
    if held_eval:  # one more column says which part each pair belongs to
        columns.append(t("train.part", L))
    if sampled:  # the training rows are the sample's
        text(t("train.sampled_rows", L, scored=f"{train_eval.total:,}", of=f"{sampled[1]:,}"), "caption")
    verdicts = [MARKS, *([t("train.part", L)] if held_eval else [])]  # what a reader looks for first
    results_table(pd.DataFrame(rows, columns=columns), verdicts, "results_table", L)

# --- checkpoints ------------------------------------------------------------------------------------------
section(t("ckpt.title", L))
text(t("ckpt.intro", L))
c1, c2, c3 = st.columns(3, gap="large")
with c1:
    if (figures := over_checkpoint_limits(model.translator)) is not None:  # a pretrained model too large
        text(t("error.store_model_not_a_checkpoint", L, **figures), "caption")
    else:
        data = model.cached((CacheKind.CHECKPOINT,), lambda: save_checkpoint(model.translator))
        st.download_button(
            t("ckpt.download", L),
            data,
            file_name="transformer.safetensors",
            mime="application/octet-stream",
            key="download_model",
            on_click="ignore",
            width="stretch",
        )
with c2:
    upload = st.file_uploader(
        t("ckpt.upload", L, mb=MAX_CHECKPOINT_BYTES // 1_000_000), type=["safetensors"], key="model_upload"
    )
    if upload is not None and upload.file_id != ss.get("model_upload_done"):
        ss.model_upload_done = upload.file_id
        name = markdown(upload.name)
        warnings: list[str] = []
        try:
            loaded = load_checkpoint(upload.getvalue(), warnings)
        except TransformerError as exc:
            ss.ckpt_message = ("error", t("ckpt.rejected", L, name=name, reason=markdown(str(exc))), model.id)
        else:
            uploaded = CurrentModel(loaded, "uploaded", name=upload.name)
            set_model(uploaded)
            ss.ckpt_message = ("success", t("ckpt.loaded", L, name=name), uploaded.id)
            ss.ckpt_warnings = (uploaded.id, warnings)  # shown while this model is the current one
        st.rerun()
    warned_id, warnings = ss.get("ckpt_warnings", (None, []))
    for warning in warnings if warned_id == model.id else []:
        text(markdown(warning), "warning")
with c3:
    if st.button(t("ckpt.bundled", L), key="bundled_button", width="stretch", disabled=model.source == "bundled"):
        set_model(bundled_model())
        ss.ckpt_message = ("success", t("ckpt.bundled_back", L), current().id)
        st.rerun()
open_field(L)  # a Marian folder or hf:NAME (ui.opened)
message = ss.get("ckpt_message")
if message and message[2] == model.id:  # said about the model that is still current
    kind, said, _ = message
    text(said, "error" if kind == "error" else "success")
