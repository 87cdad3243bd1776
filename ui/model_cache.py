"""The current model of a tab and the values derived from it, cached by kind: each kind of value is named once
(CacheKind) with how many of it a model keeps, and the bundled model's values are computed once per server for every
tab (SharedCache). Also the models tabs only read, one read-only copy per process (the bundled model, a published
model opened by a link: shared_translator), and the pairs the bundled model was trained on."""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

import streamlit as st

from transformer import Translator, corpus
from transformer.checkpoint import load_checkpoint
from transformer.model import AttentionMaps
from transformer.opening import open_model
from transformer.splits import pairs_sha256
from transformer.store import fingerprint
from transformer.translator import Evaluation

from .datasets import ROOT, SETTINGS, bundled_pairs, corpus_choice, corpus_dataset

BUNDLED_MODEL = ROOT / "assets" / "model.safetensors"

_ids = itertools.count(1)
SHARED_MODELS = 4  # models opened read-only (published, pretrained) kept per process besides the bundled one
CACHE_SIZE = 32  # derived values of one kind (translations, attention maps, …) kept per model
SHARED_CACHE_SCALE = 4  # the bundled model's values serve every tab of the server: 4 × the size of each kind


class CacheKind(Enum):
    """What a value derived from a model is, the first item of its cache key, with how many values of it one model
    keeps (the one used longest ago goes first): CACHE_SIZE, fewer for the kinds with large values (a trace of the
    largest model holds ~16 MB; the figures of the views last seen). A kind is per_tab when a page changes its values
    in place: each tab keeps its own, even of the bundled model (pages/attention.py moves the frame of the
    head-patterns figure to the open head: viz.attention.frame_head)."""

    FINGERPRINT = "fingerprint"
    CHECKPOINT = "checkpoint"
    INSPECT = "inspect"  # translator.inspect: the maps of one pair
    TRACE = "trace", 4
    TRACE_JSON = "trace_json", 2
    INSIDE_FIGURE = "inside_figure", 8  # a step of the largest model: a heatmap of up to 128 × 128 cells
    MASK_FIGURE = "mask_figure", 10  # the five masks of two views
    MASK_EFFECT = "mask_effect", 6
    PE_HEATMAP = "pe_heatmap", 4  # up to 512 dimensions of 128 positions
    PE_SIMILARITY = "pe_similarity", 4
    PE_LINES = "pe_lines", 8
    PE_DISTANCE = "pe_distance", 4
    EMBEDDINGS = "embeddings"
    EMBEDDINGS_FIGURE = "embeddings_figure"
    ATTN_FIGURE = "attn_figure", 8
    LINES_FIGURE = "lines_figure", 8  # the line view beside an attention map
    MAPS_JSON = "maps_json"
    TRANSLATE_ONE_MORE = "translate_one_more"
    HEADS = "heads"  # a study of every head over the pairs
    HEADS_STAT_FIGURE = "heads_stat_figure", 8
    HEADS_FIGURE = "heads_figure", CACHE_SIZE, True
    GOLD_PAIRS = "gold_pairs"
    AER_TABLE = "aer_table"
    AER_GRID_FIGURE = "aer_grid_figure"
    AER_FLOOR = "aer_floor"
    TRANSLATE = "translate"  # greedy decoding
    FORCED = "forced"  # greedy decoding with a forced prefix
    DEC_TOPK = "dec_topk"
    DEC_CROSS = "dec_cross"
    BEAM = "beam"
    BEAM_VS_GREEDY = "beam_vs_greedy"
    SAMPLE = "sample"
    TEACHER = "teacher"
    HISTORY_FIGURE = "history_figure", 2
    LR_FIGURE = "lr_figure"
    UNSEEN = "unseen"
    LAB_EVALUATE = "lab_evaluate"
    LAB_EVALUATE_HELD = "lab_evaluate_held"
    LAB_EVIDENCE = "lab_evidence"

    def __init__(self, label: str, size: int = CACHE_SIZE, per_tab: bool = False):
        self.size = size
        self.per_tab = per_tab


def kind_of(key: tuple) -> CacheKind:
    """The kind a cache key starts with; anything else raises (a typo must not fall back to some default size)."""
    kind = key[0] if key else None
    if not isinstance(kind, CacheKind):
        raise TypeError(f"a cache key starts with its kind, one of ui.model_cache.CacheKind, not {kind!r}")
    return kind


@dataclass
class CurrentModel:
    """The model this tab works with, where it came from, and values derived from it (cached per model)."""

    translator: Translator
    source: str  # "bundled", "trained", "uploaded", "published" (opened from the model store by a link) or "opened"
    # (a Marian folder or hf:NAME, shared read-only by every tab of the process: opened_model)
    snapshots: list[tuple[int, AttentionMaps]] = field(default_factory=list)  # recorded during training
    snapshot_pairs: list[tuple[str, str]] = field(default_factory=list)  # the pairs of the snapshots, in batch order
    evaluations: dict[str, Evaluation] = field(default_factory=dict)  # "train" / "holdout" after training here
    trained_on: tuple[tuple[str, str], ...] | None = None  # the dataset it was trained on, when known
    name: str = ""  # the checkpoint's file name, for an uploaded model; the name it was published under; what opened it
    published: str = ""  # the day it was published (2026-11-25), for a model opened from the store
    id: int = field(default_factory=lambda: next(_ids))
    cache: dict[CacheKind, dict] = field(default_factory=dict)  # kind → {key: value}
    shared: bool = False  # the bundled model as loaded (bundled_model): its derived values are the same in every tab

    def _shared_cache(self) -> SharedCache | None:
        """The process's cache of this model's derived values when every tab reads the same model: the bundled one
        (bundled_cache), or one opened read-only for every tab (shared_translator: an opened Marian model, a
        published one); None for a tab's own model."""
        if self.shared:
            return bundled_cache()
        return shared_cache_of(self.translator) if self.source in ("opened", "published") else None

    def cached(self, key: tuple, compute):
        """compute() once per model and key; keys are (CacheKind, …), and beyond the kind's size values of one kind
        the one used longest ago is dropped. A model every tab reads has its values computed once per server and
        shared by every tab (_shared_cache), but for the kinds a page changes in place (per_tab)."""
        if not kind_of(key).per_tab and (cache := self._shared_cache()) is not None:
            return _cached(cache.values, key, compute, SHARED_CACHE_SCALE, cache.lock)
        return _cached(self.cache, key, compute)

    def values(self, kind: CacheKind) -> dict:
        """The values of one kind cached for this model, key → value, the one used last at the end."""
        if not kind_of((kind,)).per_tab and (cache := self._shared_cache()) is not None:
            with cache.lock:
                return dict(cache.values.get(kind, {}))
        return dict(self.cache.get(kind_of((kind,)), {}))

    @property
    def fingerprint(self) -> str:
        """16 hex digits that change with any weight, vocabulary entry or size of the model (transformer.store)."""
        return self.cached((CacheKind.FINGERPRINT,), lambda: fingerprint(self.translator))

    @property
    def results(self) -> list[tuple[str, str, str, bool]] | None:
        """The exact-match table of the training pairs, after training here."""
        return self.evaluations["train"].results if "train" in self.evaluations else None


def _cached(cache: dict[CacheKind, dict], key: tuple, compute, scale: int = 1, lock=None):
    """cache[kind][key], computed first if need be (outside the lock: another tab's values stay readable meanwhile);
    beyond scale × the kind's size values of one kind the one used longest ago is dropped."""
    kind = kind_of(key)
    lock = lock or contextlib.nullcontext()
    with lock:
        values = cache.setdefault(kind, {})
        if key in values:
            values[key] = values.pop(key)  # used last: dropped last
            return values[key]
    value = compute()
    with lock:
        value = values.setdefault(key, value)  # a tab that computed it at the same time keeps the first one
        while len(values) > scale * kind.size:
            del values[next(iter(values))]
    return value


@dataclass
class SharedCache:
    """Values derived from the bundled model, kind → {key: value}, for every tab of the server; lock guards values."""

    values: dict[CacheKind, dict] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


@st.cache_resource
def bundled_cache() -> SharedCache:
    """The server's one cache of the bundled model's derived values: the first learner to open a view of it computes
    it (an Attention page's head statistics over 200 pairs, its figures), every later one finds it."""
    return SharedCache()


@st.cache_resource
def bundled_checkpoint_bytes() -> bytes:
    """The bundled checkpoint's bytes, read once per server (each tab loads its own model from them)."""
    return BUNDLED_MODEL.read_bytes()


@st.cache_resource
def _bundled_training() -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    data = _bundled_translator().summary.data
    pairs = [(p.source, p.target) for p in corpus.generate(corpus.DEFAULT_SIZE, corpus.DEFAULT_SEED)]
    if data.data_sha256 != pairs_sha256(pairs):  # a test checks that they agree
        raise RuntimeError("the bundled checkpoint was not trained on the default corpus")
    held = set(data.holdout_rows)
    trained = [p for i, p in enumerate(pairs) if i not in held] + bundled_pairs()
    return tuple(trained), tuple(pairs[i] for i in sorted(held))


def bundled_training() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The pairs the bundled model was trained on and those it held out: the default corpus without the held-out rows
    its checkpoint records, then the bundled dataset (`python -m transformer train --pairs corpus.tsv --also
    assets/pairs.tsv …`, README)."""
    trained, held = _bundled_training()
    return list(trained), list(held)


def bundled_split_differences(pairs: list[tuple[str, str]], kind: str, fraction: float, seed: int) -> list[tuple]:
    """What makes a split of pairs on the Train page differ from the bundled model's: (what, here, bundled) for the
    corpus's size and seed, the share held out, the split kind, the seed and the tokenization (which groups the rows
    of one source), and ("table", …) when the table is not the corpus dataset; [] when it is the bundled model's."""
    bundled = _bundled_translator()
    made = bundled.summary.data.split
    size, corpus_seed = corpus_choice()
    wanted = [
        ("corpus_size", size, corpus.DEFAULT_SIZE),
        ("corpus_seed", corpus_seed, corpus.DEFAULT_SEED),
        ("holdout", fraction, made.holdout if made else None),
        ("split", kind, made.kind if made else None),
        ("seed", seed, made.seed if made else None),
        ("tokenizer", st.session_state.get("tokenizer", SETTINGS["tokenizer"]), bundled.tokenizer),
    ]
    found = [item for item in wanted if item[1] != item[2]]
    if st.session_state.get("data_dataset") != "corpus" or list(pairs) != corpus_dataset(size, corpus_seed):
        found.append(("table", len(pairs), len(corpus_dataset(corpus.DEFAULT_SIZE, corpus.DEFAULT_SEED))))
    return found


def trained_on_table(model: CurrentModel, pairs: list[tuple[str, str]]) -> bool:
    """Whether the model was trained on this table (when that is known): the bundled model on the tutorial pairs and
    on the default corpus dataset (its held-out rows are held out of the table's training, as the Train page says)."""
    if model.trained_on is None or model.trained_on == tuple(pairs):
        return True
    default = corpus_dataset(corpus.DEFAULT_SIZE, corpus.DEFAULT_SEED)
    return model.source == "bundled" and list(pairs) == default


@st.cache_resource
def _bundled_translator() -> Translator:
    """The bundled checkpoint, loaded once per server and read by every tab (Translator.share: read-only)."""
    return load_checkpoint(bundled_checkpoint_bytes()).share()


def bundled_model() -> CurrentModel:
    """The bundled model for this tab: the one read-only copy every tab of the process shares (a tab that trains makes
    a model of its own). It was trained on the corpus and on the bundled dataset, the table a tab starts with: once
    the learner changes that table, the pages say the data changed since training."""
    return CurrentModel(_bundled_translator(), "bundled", trained_on=tuple(bundled_pairs()), shared=True)


@dataclass
class SharedModels:
    """Models tabs only read, key → read-only Translator, the one opened longest ago dropped beyond SHARED_MODELS (the
    tabs that hold it keep it); lock guards models."""

    models: dict[tuple, Translator] = field(default_factory=dict)
    caches: dict[tuple, SharedCache] = field(default_factory=dict)  # key → its derived values, for every tab
    lock: threading.Lock = field(default_factory=threading.Lock)


@st.cache_resource
def shared_models() -> SharedModels:
    """The process's one table of models opened read-only for every tab."""
    return SharedModels()


def shared_translator(key: tuple, load: Callable[[], Translator | None]) -> Translator | None:
    """The process's one read-only copy of the model key names (a published model's hash, a folder's path and
    fingerprint): load() once, made read-only (Translator.share), then the same object for every tab. A load that
    finds nothing (None) or raises is not kept, so a later open tries again."""
    table = shared_models()
    with table.lock:
        if key in table.models:
            table.models[key] = table.models.pop(key)  # opened last: dropped last
            return table.models[key]
    translator = load()
    if translator is None:
        return None
    translator.share()
    with table.lock:
        translator = table.models.setdefault(key, translator)  # a tab that loaded it at the same time keeps the first
        table.caches.setdefault(key, SharedCache())
        while len(table.models) > SHARED_MODELS:
            dropped = next(iter(table.models))
            del table.models[dropped], table.caches[dropped]
    return translator


def shared_cache_of(translator: Translator) -> SharedCache | None:
    """The cache every tab shares for a model of the shared table (shared_translator); None once it was dropped from
    the table (its tabs go on with caches of their own)."""
    table = shared_models()
    with table.lock:
        return next((table.caches[k] for k, model in table.models.items() if model is translator), None)


def opened_model(spec: str) -> CurrentModel:
    """The Marian model spec names (a folder on the server, or hf:NAME, downloaded into the Hugging Face cache the
    first time) as this tab's model: the process's one read-only translator (shared_translator, never deep-copied),
    whose derived values every tab shares (shared_cache_of). A refusal (TransformerError) is not kept: the next try
    reads the files again."""
    spec = spec.strip()
    return CurrentModel(shared_translator(("opened", spec), lambda: open_model(spec)), "opened", name=spec)
