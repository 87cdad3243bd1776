"""A restless user: random sequences of page switches, widgets at their extremes, hostile text, a one-pair dataset,
other models (smaller, other architectures), the bundled model and data back — and never an exception.

Every kept widget value must be made valid for the current model and data before its widget is drawn (issue 9.3).
The sequence is random but fixed by SEED; a failure prints the actions that led to it.
"""

from __future__ import annotations

import random

import pytest
from streamlit import config
from streamlit.testing.v1.element_tree import _format_value_for_widget

from tests.apptest_helpers import open_app
from transformer import TrainConfig, Translator, train
from ui.datasets import bundled_pairs
from ui.model_cache import CurrentModel, bundled_model
from ui.strings import STRINGS

SEED, STEPS = 20261122, 60
HOSTILE_TEXT = [
    "",
    "我",
    "我" * 400,
    "$\\rule{3000px}{3000px}$",
    "`a` [link](https://example.com) **b**",
    "<a href='https://example.com'>x</a>",
    "P S E <unk>",
    "😀 \u202e",
]
ONE_PAIR = [("我 喜 欢 你", "I love you .")]
# value names that appear in i18n keys (e.g. "pick.dataset" → "dataset"): candidates for radio and selectbox values
NAMES = sorted({key.rsplit(".", 1)[-1] for key in STRINGS} | {"sinusoidal", "learned", "none", "post", "pre"})


def _models() -> list[tuple[str, Translator]]:
    """Small models unlike the bundled one: fewer layers and heads, a tiny vocabulary, other architectures."""
    models = []
    for name, pairs, sizes in [
        ("tiny vocabulary, 1 layer, 1 head", ONE_PAIR, dict(d_model=8, n_heads=1, d_ff=16, n_layers=1)),
        (
            "no positions, no masks",
            ONE_PAIR * 2,
            dict(d_model=8, n_heads=2, d_ff=16, n_layers=1, pe="none", look_ahead_mask=False, pad_mask=False),
        ),
        (
            "pre-norm, learned positions, 3 layers",
            bundled_pairs()[:6],
            dict(d_model=16, n_heads=4, d_ff=16, n_layers=3, norm="pre", pe="learned"),
        ),
        ("short max_len", ONE_PAIR, dict(d_model=8, n_heads=2, d_ff=16, n_layers=1, max_len=6)),
    ]:
        translator = Translator.create(pairs, **sizes)
        for _ in train(translator, pairs, TrainConfig(epochs=2)):
            pass
        models.append((name, translator))
    return models


def _values(widget, at) -> list:
    """The values behind a selectbox's, radio's or select slider's formatted options, as far as they can be found."""
    pool = [*range(-1, 130), *NAMES, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2]
    pool += [tuple(p) for p in at.session_state["pairs"]] + [tuple(p) for p in bundled_pairs()]
    found = {}  # formatted option → the first candidate of the pool that gives it
    format_func = widget.format_func
    for candidate in pool:  # each formatted once: a sentence picker of the corpus has 2,042 options
        try:
            found.setdefault(_format_value_for_widget(format_func, candidate), candidate)
        except Exception:  # a candidate of the wrong type for this format function
            continue
    return [found[option] for option in widget.options if option in found]


def _widget_action(at, rng: random.Random) -> str | None:
    """Move one random enabled widget of the current page (or sidebar) to an extreme; describe what was done."""
    kinds = ["slider", "select_slider", "selectbox", "radio", "multiselect", "number_input", "text_input", "toggle"]
    widgets = [(kind, w) for kind in kinds for w in getattr(at, kind) if w.key and not w.disabled]
    buttons = [b for b in at.button if b.key and not b.disabled and b.key not in ("train_button", "replay_button")]
    if buttons and rng.random() < 0.2:
        button = rng.choice(buttons)
        button.click()
        return f"click {button.key}"
    if not widgets:
        return None
    kind, w = rng.choice(widgets)
    if kind in ("slider", "number_input"):
        lo, hi = w.min, w.max
        if lo is None or hi is None:
            return None
        value = rng.choice([lo, hi])
        w.set_value(value)
    elif kind == "text_input":
        value = rng.choice(HOSTILE_TEXT)[: w.max_chars or None]
        w.input(value)
    elif kind == "toggle":
        value = not w.value
        w.set_value(value)
    elif kind == "multiselect":
        options = _values(w, at)
        value = rng.choice([[], options, options[:1], options[-1:]])
        w.set_value(value)
    else:
        options = _values(w, at)
        if not options:
            return None
        value = rng.choice([options[0], options[-1], rng.choice(options)])
        w.set_value(value)
    return f"{kind} {w.key} = {str(value)[:40]!r}"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [SEED])
def test_random_use_of_every_page_never_raises(seed):
    from tests.apptest_helpers import PAGES

    config.set_option("client.showErrorDetails", "full")  # the app redacts them; the test wants the traceback
    rng = random.Random(seed)
    models = _models()
    at = open_app()
    log: list[str] = []
    for step in range(STEPS):
        roll = rng.random()
        if roll < 0.25:
            page = rng.choice(PAGES)
            at.switch_page(page)
            log.append(f"go to {page}")
        elif roll < 0.75:
            action = _widget_action(at, rng)
            if action is None:
                continue
            log.append(action)
        elif roll < 0.87:
            name, translator = rng.choice(models)
            at.session_state["model"] = CurrentModel(translator, "uploaded", name=name)
            log.append(f"model: {name}")
        elif roll < 0.91:
            at.session_state["model"] = bundled_model()
            log.append("model: bundled")
        elif roll < 0.95:
            pairs = rng.choice([ONE_PAIR, list(bundled_pairs())])
            at.session_state["pairs"] = pairs
            at.session_state["editor_base"] = pairs
            at.session_state["editor_version"] = at.session_state["editor_version"] + 1
            log.append(f"data: {len(pairs)} pair(s)")
        else:
            lang = rng.choice(["en", "zh"])
            at.sidebar.radio(key="lang").set_value(lang)
            log.append(f"language {lang}")
        at.run()
        if at.exception:
            steps = "\n".join(f"  {i + 1}. {a}" for i, a in enumerate(log))
            trace = at.exception[0].message + "\n" + "\n".join(at.exception[0].stack_trace[-4:])
            pytest.fail(f"step {step + 1} raised an exception after:\n{steps}\n{trace}")
