"""The datasets a tab can choose: the tutorial pairs, the teaching corpus and the learner's own pairs; the recipe
each is trained with, the Train page's defaults, and the built-in datasets' columns as a file's. The pairs are made
once per server; which dataset, corpus and direction a tab has chosen is read from its session state."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from transformer import TrainConfig, TransformerConfig, corpus
from transformer.bpe import DEFAULT_BPE_VOCAB_SIZE
from transformer.config import model_sizes
from transformer.data import PairsSummary, parse_pairs, summarize_pairs
from transformer.recipe import OWN_CONFIG, OWN_STEPS, epochs_for

from .i18n import LANGUAGES, t

ROOT = Path(__file__).resolve().parents[1]
BUNDLED_PAIRS = ROOT / "assets" / "pairs.tsv"

# the datasets the Data page offers: the tutorials' pairs, the corpus (transformer.corpus, with the tutorial pairs, as
# the bundled model was trained), and the learner's own pairs (typed or uploaded), kept while another one is shown. A
# tab starts on the corpus: data a model can learn to translate from, sentences it has never seen included.
DATASETS = ("tutorial", "corpus", "own")
DEFAULT_DATASET = "corpus"
# the columns of the built-in datasets as their files hold them (assets/pairs.tsv; the corpus as `python -m transformer
# corpus` writes it, transformer.corpus.format_corpus): Chinese, English, and the corpus's tags and gold links
DATASET_ROLES = {"tutorial": ("source", "target"), "corpus": ("source", "target", "phenomena", "alignment")}
# the training settings each dataset is trained with unless the learner set their own: the tutorial pairs with
# TrainConfig's defaults, the corpus with transformer.corpus.TRAIN_CONFIG and TRAIN_SIZES' dropout (measured by
# benchmarks/learning.py) and 10 % held out, as the bundled model was trained
RECIPE_KEYS = ("epochs", "lr", "batch_size", "holdout", "dropout")
_train_defaults = TrainConfig()
RECIPES = {
    "tutorial": {
        "epochs": _train_defaults.epochs,
        "lr": _train_defaults.lr,
        "batch_size": _train_defaults.batch_size,
        "holdout": 0.0,
        "dropout": TransformerConfig(1, 1).dropout,
    },
    "corpus": {
        "epochs": corpus.TRAIN_CONFIG.epochs,
        "lr": corpus.TRAIN_CONFIG.lr,
        "batch_size": corpus.TRAIN_CONFIG.batch_size,
        "holdout": 0.1,
        "dropout": corpus.TRAIN_SIZES["dropout"],
    },
}

# model-size and training defaults shown on the Train page: the default dataset's recipe
_model_defaults = TransformerConfig(1, 1)
SETTINGS = {
    **model_sizes(_model_defaults, dropout=True),
    **RECIPES[DEFAULT_DATASET],  # epochs, lr, batch_size, holdout (the share of the pairs held out of training)
    "seed": _train_defaults.seed,
    "tokenizer": "auto",
    "bpe_vocab_size": DEFAULT_BPE_VOCAB_SIZE,  # the pieces a "bpe" tokenizer learns (transformer.bpe)
    "split": "random",  # how the held-out pairs are chosen (transformer.splits.SPLITS)
}

OWN_HOLDOUT = 0.1  # the share of the learner's own pairs held out by their recipe, as the corpus's


def own_recipe(n_pairs: int) -> dict:
    """The recipe of the learner's own pairs: OWN_STEPS optimiser steps (transformer.recipe) at its learning rate and
    batch size, as the epochs that take on this many pairs less the 10 % held out (within the Train page's slider)."""
    batch = OWN_CONFIG.batch_size
    epochs = epochs_for(OWN_STEPS, n_pairs - round(OWN_HOLDOUT * n_pairs), batch)
    return {
        "epochs": min(400, max(5, 5 * round(epochs / 5))),
        "lr": OWN_CONFIG.lr,
        "batch_size": batch,
        "holdout": OWN_HOLDOUT,
        "dropout": TransformerConfig(1, 1).dropout,  # the corpus's dropout is for its 2,000 pairs, not a few dozen
    }


# the datasets below are made once per server and kept as tuples of (source, target) tuples, which no caller can
# change: each call hands out a new list of them (st.cache_data would unpickle a copy of every pair on every call,
# several times in each run of a page on the 2,000-pair corpus)


@st.cache_resource
def _bundled_pairs() -> tuple[tuple[str, str], ...]:
    return tuple(parse_pairs(BUNDLED_PAIRS.read_bytes(), BUNDLED_PAIRS.name))


def bundled_pairs() -> list[tuple[str, str]]:
    """The bundled dataset."""
    return list(_bundled_pairs())


@st.cache_resource(max_entries=4)
def _corpus_dataset(size: int, seed: int) -> tuple[tuple[str, str], ...]:
    pairs = [(p.source, p.target) for p in corpus.generate(size, seed)]
    have = set(pairs)
    return tuple(pairs + [p for p in bundled_pairs() if p not in have])


def corpus_dataset(size: int, seed: int) -> list[tuple[str, str]]:
    """The corpus dataset: size pairs of the grammar drawn with seed, then the tutorial pairs it does not hold (as the
    bundled model was trained: the corpus with assets/pairs.tsv)."""
    return list(_corpus_dataset(size, seed))


def dataset_pairs(name: str) -> list[tuple[str, str]]:
    """The pairs of a dataset as the Data page offers it (the corpus with this tab's size and seed; the tutorial pairs
    and the corpus turned English → Chinese when the learner swapped them, ui.data_columns)."""
    ss = st.session_state
    if name == "own":
        return list(ss.get("own_pairs", []))
    pairs = corpus_dataset(*corpus_choice()) if name == "corpus" else bundled_pairs()
    return [(target, source) for source, target in pairs] if ss.get("data_swapped") else pairs


def corpus_choice() -> tuple[int, int]:
    """The (size, seed) of this tab's corpus dataset (chosen on the Data page)."""
    return st.session_state.get("corpus_choice", (corpus.DEFAULT_SIZE, corpus.DEFAULT_SEED))


def dataset_named(value) -> str | None:
    """The dataset a value names: one of DATASETS, or its label in any language (what the Data page's radio can hold
    after a language switch)."""
    if value in DATASETS:
        return value
    return next((d for d in DATASETS for lang in LANGUAGES if value == t(f"data.dataset.{d}", lang)), None)


def always_trained() -> list[tuple[str, str]]:
    """Pairs no split may hold out: the tutorial pairs beside the corpus (as the bundled model was trained)."""
    return dataset_pairs("tutorial") if st.session_state.get("data_dataset") == "corpus" else []


def split_source(pairs: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(the rows a held-out split is drawn from, the pairs trained on besides them), made as the bundled model's were
    (`train --pairs corpus.tsv --also assets/pairs.tsv`): for the corpus dataset as the Data page makes it, the
    corpus's own rows and every tutorial pair (those the corpus also holds are trained on twice, as the command line
    does), so the same settings give the bundled model's split; for any other table, its rows and nothing besides."""
    if st.session_state.get("data_dataset") == "corpus":
        size, seed = corpus_choice()
        dataset = corpus_dataset(size, seed)  # the corpus's size rows, then the tutorial pairs it does not hold
        if list(pairs) == dataset:
            return dataset[:size], bundled_pairs()
    return list(pairs), []


def pair_tags(pairs: list[tuple[str, str]]) -> list[tuple[str, ...]]:
    """The phenomena of each pair (transformer.corpus.tags_of); those of a dataset as the Data page offers it are
    found once per server."""
    name = st.session_state.get("data_dataset")
    if name in RECIPES and list(pairs) == dataset_pairs(name):
        return list(_dataset_tags(name, tuple(corpus_choice()) if name == "corpus" else ()))
    return corpus.tags_of(pairs)


@st.cache_resource(max_entries=8)
def _dataset_tags(name: str, choice: tuple) -> tuple[tuple[str, ...], ...]:
    """pair_tags of a dataset as the Data page offers it (the corpus of size and seed `choice`), once per server."""
    return tuple(corpus.tags_of(corpus_dataset(*choice) if name == "corpus" else bundled_pairs()))


def offered_summary(pairs: list[tuple[str, str]], tokenizer: str) -> PairsSummary | None:
    """summarize_pairs of pairs when they are a dataset as the Data page offers it (found once per server, for every
    tab), else None."""
    ss = st.session_state
    name = ss.get("data_dataset")
    if name not in RECIPES or pairs != dataset_pairs(name):
        return None
    choice = tuple(corpus_choice()) if name == "corpus" else ()
    return _dataset_summary(name, choice, tokenizer, bool(ss.get("data_swapped")))


@st.cache_resource(max_entries=8)
def _dataset_summary(name: str, choice: tuple, tokenizer: str, swapped: bool = False) -> PairsSummary:
    """summarize_pairs of a dataset as the Data page offers it (the corpus of size and seed `choice`; English →
    Chinese when swapped), once per server."""
    pairs = corpus_dataset(*choice) if name == "corpus" else bundled_pairs()
    return summarize_pairs([(tgt, src) for src, tgt in pairs] if swapped else pairs, tokenizer)


def dataset_rows(name: str, rows: int) -> tuple[tuple[str, ...], list[tuple[str, ...]], int]:
    """(the roles of a built-in dataset's columns, as its file holds them, Chinese first; its first rows' cells; its
    number of rows): the corpus's phenomena and gold links are the grammar's (none for a tutorial pair outside it)."""
    pairs = corpus_dataset(*corpus_choice()) if name == "corpus" else bundled_pairs()
    first = pairs[:rows]
    if name != "corpus":
        return DATASET_ROLES[name], [tuple(pair) for pair in first], len(pairs)
    cells = []
    for (source, target), tags in zip(first, pair_tags(dataset_pairs(name))):  # found once per server
        found = corpus.lookup(source)
        links = found.alignment if found is not None and tags else ""
        cells.append((source, target, " ".join(tags), links))
    return DATASET_ROLES[name], cells, len(pairs)


def dataset_credit(L: str, name: str) -> str:
    """Where a built-in dataset's pairs come from, with how many pairs each source gives, as a file's credit says."""
    tutorial = len(bundled_pairs())
    if name != "corpus":
        return t("data.credit.tutorial", L, n=f"{tutorial:,}")
    size = corpus_choice()[0]
    added = len(corpus_dataset(*corpus_choice())) - size
    return t("data.credit.corpus", L, size=f"{size:,}", tutorial=f"{added:,}")
