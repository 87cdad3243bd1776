"""Per-tab session state: the sentence pairs, the current model, settings that survive page switches."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st
import torch
from streamlit.runtime.pages_manager import PagesManager

from transformer import TrainConfig, TransformerConfig, Translator
from transformer.checkpoint import load_checkpoint
from transformer.data import parse_pairs
from transformer.model import AttentionMaps
from transformer.store import fingerprint
from transformer.translator import Evaluation

ROOT = Path(__file__).resolve().parents[1]
BUNDLED_PAIRS = ROOT / "assets" / "pairs.tsv"
BUNDLED_MODEL = ROOT / "assets" / "model.safetensors"

_ids = itertools.count(1)
CACHE_SIZE = 32  # derived values of one kind (translations, attention maps, …) kept per model
CACHE_SIZES = {"trace": 4, "trace_json": 2}  # kinds with large values: a trace of the largest model holds ~16 MB


@dataclass
class CurrentModel:
    """The model this tab works with, where it came from, and values derived from it (cached per model)."""

    translator: Translator
    source: str  # "bundled", "trained", "uploaded" or "published" (opened from the model store by a link)
    snapshots: list[tuple[int, AttentionMaps]] = field(default_factory=list)  # recorded during training
    snapshot_pairs: list[tuple[str, str]] = field(default_factory=list)  # the pairs of the snapshots, in batch order
    evaluations: dict[str, Evaluation] = field(default_factory=dict)  # "train" / "holdout" after training here
    trained_on: tuple[tuple[str, str], ...] | None = None  # the dataset it was trained on, when known
    name: str = ""  # the checkpoint's file name, for an uploaded model; the name it was published under
    published: str = ""  # the day it was published (2026-11-25), for a model opened from the store
    id: int = field(default_factory=lambda: next(_ids))
    cache: dict[str, dict] = field(default_factory=dict)  # kind → {key: value}

    def cached(self, key: tuple, compute):
        """compute() once per model and key; keys are (kind, …), and beyond CACHE_SIZES[kind] (else CACHE_SIZE)
        values of one kind the oldest is dropped."""
        store = self.cache.setdefault(key[0], {})
        if key not in store:
            store[key] = compute()
            if len(store) > CACHE_SIZES.get(key[0], CACHE_SIZE):
                del store[next(iter(store))]
        return store[key]

    @property
    def fingerprint(self) -> str:
        """16 hex digits that change with any weight, vocabulary entry or size of the model (transformer.store)."""
        return self.cached(("fingerprint",), lambda: fingerprint(self.translator))

    @property
    def results(self) -> list[tuple[str, str, str, bool]] | None:
        """The exact-match table of the training pairs, after training here."""
        return self.evaluations["train"].results if "train" in self.evaluations else None


# model-size and training defaults shown on the Train page; they fit the bundled data in seconds
_model_defaults = TransformerConfig(1, 1)
_train_defaults = TrainConfig()
SETTINGS = {
    "d_model": _model_defaults.d_model,
    "n_heads": _model_defaults.n_heads,
    "d_ff": _model_defaults.d_ff,
    "n_layers": _model_defaults.n_layers,
    "dropout": _model_defaults.dropout,
    "lr": _train_defaults.lr,
    "epochs": _train_defaults.epochs,
    "batch_size": _train_defaults.batch_size,
    "seed": _train_defaults.seed,
    "tokenizer": "auto",
    "holdout": 0.0,  # share of the pairs held out of training
}


# keys of page widgets whose values survive page switches (never used for buttons or uploaders)
PAGE_WIDGET_PREFIXES = (
    *("pe_", "mask_", "attn_", "dec_", "pick_", "inside_", "lab_", "data_"),
    *("new_source", "new_target"),
)


@st.cache_resource
def bundled_checkpoint_bytes() -> bytes:
    """The bundled checkpoint's bytes, read once per server (each tab loads its own model from them)."""
    return BUNDLED_MODEL.read_bytes()


@st.cache_data
def bundled_pairs() -> list[tuple[str, str]]:
    """The bundled dataset."""
    return parse_pairs(BUNDLED_PAIRS.read_bytes(), BUNDLED_PAIRS.name)


def bundled_model() -> CurrentModel:
    """A fresh copy of the bundled model for this tab."""
    return CurrentModel(load_checkpoint(bundled_checkpoint_bytes()), "bundled", trained_on=tuple(bundled_pairs()))


def default_language() -> str:
    """'zh' when the browser prefers Chinese, else 'en'."""
    locale = getattr(st.context, "locale", None) or st.context.headers.get("Accept-Language", "") or ""
    return "zh" if locale.lower().startswith("zh") else "en"


def init_session() -> None:
    """Fill session state on a tab's first run and keep widget values alive across page switches."""
    torch.set_num_threads(1)  # this run's thread: page work is small, and training jobs share the cores
    ss = st.session_state
    if "model" not in ss:
        ss.model = bundled_model()
    if "pairs" not in ss:
        ss.pairs = list(bundled_pairs())
    ss.setdefault("editor_version", 0)
    ss.setdefault("editor_base", list(ss.pairs))
    ss.setdefault("lang", default_language())
    for key, value in SETTINGS.items():
        ss.setdefault(key, value)
    # widgets that are not drawn on a run lose their state; writing the values back keeps them
    for key in list(ss.keys()):
        if key in SETTINGS or key == "lang" or key.startswith(PAGE_WIDGET_PREFIXES):
            ss[key] = ss[key]


def init_app_session() -> None:
    """init_session for app.py, which runs before the page and tells page_setup it need not repeat it."""
    init_session()
    st.session_state._initialised_by_app = True


def page_setup() -> str:
    """First lines of every page: make sure the session is initialised, return the UI language.

    app.py has normally done this already. But when the first request of a new server names a page (a link to a
    view), Streamlit has not yet seen app.py call st.navigation, so it runs the page script alone, in its old
    multipage mode (a pages/ folder exists), without our sidebar and layout, for every session until someone
    opens the app's root. Then the page switches that mode off and runs again through app.py.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False  # what st.navigation in app.py would have set
        st.rerun()
    if not st.session_state.pop("_initialised_by_app", False):
        init_session()
    return lang()


def lang() -> str:
    """The UI language of this tab."""
    return st.session_state.get("lang", "en")


def current() -> CurrentModel:
    """The current model of this tab."""
    return st.session_state.model


def set_model(model: CurrentModel) -> None:
    """Make model the current one."""
    st.session_state.model = model


def set_pairs(pairs: list[tuple[str, str]]) -> None:
    """Replace the sentence pairs (from outside the editor) and start a fresh editor over them."""
    st.session_state.pairs = list(pairs)
    st.session_state.editor_base = list(pairs)
    st.session_state.editor_version += 1


def apply_editor_changes(pairs: list[tuple[str, str]], changes: dict) -> list[tuple[str, str]]:
    """The pairs after st.data_editor's edited_rows / added_rows / deleted_rows are applied."""
    rows = [list(p) for p in pairs]
    for index, edits in changes.get("edited_rows", {}).items():
        if int(index) >= len(rows):  # edits of added rows arrive in added_rows
            continue
        for column, value in edits.items():
            rows[int(index)][0 if column == "source" else 1] = "" if value is None else str(value)
    deleted = set(changes.get("deleted_rows", []))
    rows = [r for i, r in enumerate(rows) if i not in deleted]
    for added in changes.get("added_rows", []):
        rows.append([str(added.get("source") or ""), str(added.get("target") or "")])
    return [(s, t) for s, t in rows]
