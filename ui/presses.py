"""Buttons that start long work (Train, the Lab's Run) with the settings the learner sees when pressing them.

A button's on_click gets the args of the run that drew it. A learner who changes a setting and presses the button
before that change's run has drawn the page again (a fraction of a second; longer on a busy server) would start the
work with the settings before the change: the Lab would run the experiment picked before, Train the old number of
epochs. So the args carry the settings they were made from (`settings`). When those are still the settings sent with
the press, the press starts the work at once, before the page runs, so a page switch right after it keeps it. When
they are not, the press is kept for the page's own run, which reads the new settings and starts the work itself
(`pressed`); a press whose run is on another page (the learner left at once) starts nothing, and a toast says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import streamlit as st

from transformer.config import MODEL_SIZES, SWITCHES
from ui.i18n import t

# what a training's args are made from: the Train page's settings, and the data's
TRAINING_SETTINGS = (
    *MODEL_SIZES,
    *("dropout", "lr", "epochs", "batch_size", "seed", "holdout", "split", "from_current"),
    *("label_smoothing", "paper_adam", "warmup_on", "warmup", "emb_scale", "tie_output"),
    *("pairs", "tokenizer", "bpe_vocab_size", "data_dataset", "data_corpus_size", "data_corpus_seed"),
)
# what the Lab's Run args are made from: its own choices, and the training's settings (a custom variant takes them)
LAB_SETTINGS = ("lab_experiment", "lab_data", *(f"lab_{name}" for name in SWITCHES), *TRAINING_SETTINGS)

BUTTONS = ("train", "lab")  # the buttons that start long work this way, by the name press() is given
_KEPT = "_press_kept"  # (button, page): a press whose args were made from other settings, until that page takes it


def settings(keys: Iterable[str]) -> dict[str, Any]:
    """The values the args about to be drawn are made from: session state's, by key."""
    ss = st.session_state
    return {key: ss.get(key) for key in keys}


def press(button: str, page: str, made_from: dict[str, Any], start: Callable[..., None], *args: Any) -> None:
    """The on_click: start(*args) when the settings are still those the args were made from, else keep the press
    for the run of `page` (the url_path of the page that draws the button)."""
    if settings(made_from) == made_from:
        start(*args)
    else:
        st.session_state[_KEPT] = (button, page)


def take_presses(page: str, lang: str) -> None:
    """Once per run, in app.py, once navigation has chosen the run's page: a kept press whose page this is not started
    nothing; say so. (On its page, it waits for `pressed`, even across a rerun that ends the run before the button.)"""
    ss = st.session_state
    kept = ss.get(_KEPT)
    if kept is not None and kept[1] != page:
        del ss[_KEPT]
        st.toast(t(f"press.lost.{kept[0]}", lang), icon=":material/info:")


def pressed(button: str) -> bool:
    """Whether this run must start the work of `button`: it was pressed while the page was still drawing a change."""
    ss = st.session_state
    kept = ss.get(_KEPT)
    if kept is None or kept[0] != button:
        return False
    del ss[_KEPT]
    return True
