"""The Train page's panel of the paper's training recipe: one control per item, the one-click preset and the way back
to the seeds' defaults, what differs from the paper, and the sentence that says a training ended under-trained."""

from __future__ import annotations

import math
from dataclasses import replace

import streamlit as st

from transformer import TrainConfig
from transformer.config import MAX_LABEL_SMOOTHING, MAX_WARMUP, PAPER_MODEL, PAPER_TRAIN, TRAIN_BETA2, TRAIN_EPS
from transformer.errors import ConfigError
from transformer.recipe import (
    EXACT_LEARNED,
    advice,
    nothing_learned,
    paper_warmup,
    steadied,
    steps_per_epoch,
    under_trained,
)
from transformer.summary import TrainingSummary

from .export import text
from .i18n import t, word_list
from .view_state import keep_in_range

# the panel's session keys and their defaults: the seeds' settings (TrainConfig's and TransformerConfig's)
_DEFAULTS = TrainConfig()
RECIPE_DEFAULTS = {
    "label_smoothing": _DEFAULTS.label_smoothing,
    "warmup_on": False,
    "warmup": 100,
    "paper_adam": False,
    "emb_scale": False,
    "tie_output": False,
    "warmup_follows": False,  # the warmup is the preset's share of the steps, and follows a change of epochs or steps
}
# each item of the paper's recipe: its words, and whether the settings now are the paper's
ITEMS = {
    "train.item.label_smoothing": lambda ss: ss.label_smoothing == PAPER_TRAIN["label_smoothing"],
    "train.item.warmup_on": lambda ss: bool(ss.warmup_on),
    "train.item.paper_adam": lambda ss: bool(ss.paper_adam),
    "train.item.dropout": lambda ss: ss.dropout == PAPER_MODEL["dropout"],
    "train.item.emb_scale": lambda ss: bool(ss.emb_scale),
    "train.item.tie_output": lambda ss: bool(ss.tie_output),
}


def use_paper_recipe(steps: int) -> None:
    """The preset's on_click: every item of the paper's recipe, the warmup fitted to a training of `steps` steps."""
    ss = st.session_state
    ss.label_smoothing = PAPER_TRAIN["label_smoothing"]
    ss.warmup_on, ss.warmup = True, paper_warmup(steps)
    ss.warmup_follows = True  # until a learner types a warmup of their own
    ss.paper_adam = True
    ss.dropout = PAPER_MODEL["dropout"]
    ss.emb_scale = ss.tie_output = True


def _warmup_typed() -> None:
    """The warmup box's on_change: a warmup the learner chose no longer follows the steps."""
    st.session_state.warmup_follows = False


def use_seed_defaults() -> None:
    """Back to the seeds' settings: every recipe item off, no dropout."""
    ss = st.session_state
    ss.update(RECIPE_DEFAULTS)
    ss.dropout = 0.0


def recipe_panel(L: str, steps: int, d_model: int) -> tuple[dict, dict, bool]:
    """Draw the panel; (model fields, TrainConfig fields, whether the values can be trained with). A bad value is one
    st.error line, and Train waits until it is fixed."""
    ss = st.session_state
    for key, value in RECIPE_DEFAULTS.items():
        ss.setdefault(key, value)
    keep_in_range("warmup", 0, MAX_WARMUP, RECIPE_DEFAULTS["warmup"])  # a link's value never breaks the box
    if ss.warmup_follows and ss.warmup_on:  # the preset's warmup, refitted to the epochs and batch size drawn now
        ss.warmup = paper_warmup(steps)
    eps = ss.label_smoothing
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not math.isfinite(eps):  # from a link
        text(t("train.bad_smoothing_nan", L, value=str(eps)), "error")
        ss.label_smoothing = eps = 0.0
    text(f"**{t('train.recipe_title', L)}**")  # in the lesson sheet too, above the settings it lists
    b1, b2, _ = st.columns([3, 3, 4])
    b1.button(t("train.paper_button", L), key="paper_recipe", on_click=use_paper_recipe, args=(steps,), width="stretch")
    b2.button(t("train.defaults_button", L), key="seed_defaults", on_click=use_seed_defaults, width="stretch")
    c1, c2, c3 = st.columns(3)
    with c1:
        st.number_input(
            t("train.label_smoothing", L), step=0.05, format="%.2f", key="label_smoothing", persist_state="session"
        )
        st.toggle(
            t("train.paper_adam", L),
            key="paper_adam",
            persist_state="session",
            help=t("train.paper_adam_help", L, beta2=f"{TRAIN_BETA2:g}", eps=f"{TRAIN_EPS:g}"),
        )
    with c2:
        st.toggle(t("train.warmup_on", L), key="warmup_on", persist_state="session")
        st.number_input(
            t("train.warmup", L),
            0,
            MAX_WARMUP,
            step=10,
            key="warmup",
            persist_state="session",
            on_change=_warmup_typed,
            disabled=not ss.warmup_on,
        )
    with c3:
        st.toggle(t("train.emb_scale", L), key="emb_scale", persist_state="session")
        st.toggle(t("train.tie_output", L), key="tie_output", persist_state="session")
    train_fields = {"label_smoothing": float(ss.label_smoothing)}
    if ss.warmup_on:
        train_fields["warmup"] = int(ss.warmup)
    if ss.paper_adam:
        train_fields.update(beta2=PAPER_TRAIN["beta2"], eps=PAPER_TRAIN["eps"])
    train_fields = steadied(train_fields)  # the train command's defaults: β2, ε and the rate's decay
    ok = True
    try:
        TrainConfig(**train_fields)
    except ConfigError:
        ok = False
        if not 0 <= ss.label_smoothing <= MAX_LABEL_SMOOTHING:
            text(t("train.bad_smoothing", L, value=f"{ss.label_smoothing:g}", max=f"{MAX_LABEL_SMOOTHING:g}"), "error")
        else:
            text(t("train.bad_warmup", L, value=ss.warmup), "error")
    if ok and ss.warmup_on:
        peak = TrainConfig(warmup=int(ss.warmup)).learning_rate(d_model, int(ss.warmup))
        key = "train.warmup_peak_share" if ss.warmup_follows else "train.warmup_peak"
        text(t(key, L, warmup=ss.warmup, peak=f"{peak:.2g}", steps=f"{steps:,}"), "caption")
    differ = [t(key, L) for key, is_paper in ITEMS.items() if not is_paper(ss)]
    if differ:
        text(t("train.differs", L, items=word_list(differ, L)), "caption")
    else:
        text(t("train.all_paper", L), "caption")
    model_fields = {"emb_scale": bool(ss.emb_scale), "tie_output": bool(ss.tie_output)}
    return model_fields, train_fields, ok


def steps_line(L: str, epochs: int, pairs: int, batch_size: int) -> str:
    """ "N epochs ≈ M steps" for this many training pairs and batch size."""
    per = steps_per_epoch(pairs, batch_size)
    return t("train.steps", L, epochs=epochs, steps=f"{epochs * per:,}", per=per, pairs=f"{pairs:,}", batch=batch_size)


# what to check when no training pair is exact (transformer.recipe.nothing_learned): the learning rate, the recipe
RATE_KEYS = {
    "warmup": "train.rate_warmup",
    "high": "train.rate_high",
    "low": "train.rate_low",
    "usual": "train.rate_usual",
}
RECIPE_KEYS = {"paper": "train.recipe_back", "defaults": "train.recipe_paper"}


def under_trained_line(L: str, summary: TrainingSummary, exact: float, pairs: int) -> str | None:
    """One sentence when the training in summary ended under-trained (transformer.recipe.under_trained), saying what
    to change (with no pair exact, the learning rate and the recipe too); None when it learned."""
    if not summary.history:
        return None
    verdict = under_trained(summary.history, exact)
    if not verdict.under_trained:
        return None
    cfg = summary.train_config or TrainConfig()
    cfg = replace(cfg, epochs=summary.epochs or cfg.epochs)
    tip = advice(verdict, cfg, pairs)
    values = dict(epochs=tip["epochs"], steps=f"{tip['steps']:,}", exact=f"{exact:.0%}", fall=f"{verdict.fall:.0%}")
    values["line"] = f"{EXACT_LEARNED:.0%}"
    if exact == 0:  # nothing learned: more epochs alone may not help
        check = nothing_learned(summary.history, cfg)
        rate = t(RATE_KEYS[check.rate], L, lr=f"{check.lr:.2g}", warmup=check.warmup)
        return t("train.under_nothing", L, **values, rate=rate, recipe=t(RECIPE_KEYS[check.recipe], L))
    key = "train.under_exact" if exact < EXACT_LEARNED else "train.under_falling"
    return t(key, L, **values)
