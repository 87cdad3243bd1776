"""Fuzzing of what reads a checkpoint a user uploads or names (tests/fuzz.py): its header, each metadata field, the
training summary's fields, a learned tokenizer's JSON, and the model store's names and settings. Each input is loaded
or refused with the project's own error in well under a second, with messages and warnings of one line that repeat
the user's text only cut."""

from __future__ import annotations

import json
import os
import struct
import tempfile

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.fuzz import MAX_MESSAGE_CHARS, json_values, judged, tricky_text, user_text
from transformer.bpe import Bpe
from transformer.checkpoint import SUMMARY_FIELDS, load_checkpoint
from transformer.errors import CheckpointError, DataError, StoreError
from transformer.store import MAX_MODELS_ENV, MAX_NAME_CHARS, ModelStore

# JSON text as a crafted file may hold it: valid JSON, or valid JSON cut, spliced or padded with hostile runs
json_text = st.one_of(
    json_values().map(json.dumps),
    st.tuples(json_values().map(json.dumps), st.integers(0, 200)).map(lambda p: p[0][: p[1]]),
    st.tuples(st.sampled_from(['"', "[", '{"a":', "\\", ",", '"\\"']), st.integers(1, 5_000)).map(
        lambda p: p[0] * p[1]
    ),
    user_text,
)


@given(json_text | json_values().map(lambda v: json.dumps({"__metadata__": v, "w": v})))
@example('"' + '\\"' * 100_000)  # the reported file: quadratic in the check it replaced
@example("\ud800")  # its bytes are not UTF-8 (the test wrote them with the wrong codec)
def test_a_header_is_refused_with_a_checkpoint_error(text):
    raw = text.encode("utf-8", "surrogatepass")  # a lone surrogate: bytes that are not UTF-8
    judged(load_checkpoint, struct.pack("<Q", len(raw)) + raw, errors=CheckpointError)


@given(st.binary(max_size=200), st.integers(0, 2**64 - 1))
def test_any_bytes_are_refused_with_a_checkpoint_error(body, size):
    judged(load_checkpoint, struct.pack("<Q", size) + body, errors=CheckpointError)
    judged(load_checkpoint, body, errors=CheckpointError)


FIELDS = ("format", "format_version", "config", "src_vocab", "tgt_vocab", "tokenizer", "summary", "bpe")


def _with_fields(ckpt: bytes, changes: dict[str, str]) -> bytes:
    """ckpt with metadata fields changed; the header is written here (in ASCII, so that a lone surrogate reaches the
    loader as a crafted file holds it, \\ud800, where the safetensors library would refuse to write it)."""
    (size,) = struct.unpack("<Q", ckpt[:8])
    header = json.loads(ckpt[8 : 8 + size])
    header["__metadata__"] = {**header["__metadata__"], **changes}
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + ckpt[8 + size :]


def _loaded_or_refused(data: bytes) -> list[str]:
    """Load data; the warnings it gave (each one line, cut), or [] when it was refused with a CheckpointError."""
    warnings: list[str] = []
    result = judged(load_checkpoint, data, warnings, errors=CheckpointError)
    for warning in warnings:
        assert "\n" not in warning and len(warning) <= MAX_MESSAGE_CHARS, warning[:300]
    return [] if isinstance(result, CheckpointError) else warnings


@given(st.sampled_from(FIELDS), json_text, st.booleans())
@example("format_version", "x" * 100_000, False)  # was repeated whole in the refusal
@example("tokenizer", "\x1b" * 50_000, False)
@example("format", "\ud800", False)  # a lone surrogate, as JSON's escape
@example(
    "config", '{"src_vocab_size": 8, "tgt_vocab_size": 8, "pe": "' + "x" * 100_000 + '"}', False
)  # the config's refusal repeated it whole
def test_each_metadata_field_is_read_or_refused(ckpt, field, text, as_bpe):
    changes = {field: text}
    if as_bpe and field != "tokenizer":
        changes["tokenizer"] = "bpe"
    _loaded_or_refused(_with_fields(ckpt, changes))


summary_fields = st.sampled_from(sorted(SUMMARY_FIELDS)) | tricky_text


@given(st.dictionaries(summary_fields, json_values(), max_size=6))
@example({"x" * 50_000: 1})  # an unknown field's name was repeated whole in its warning
@example({"history": [{"epoch": 1, "loss": 1.0, "accuracy": 2}] * 1_000})
def test_a_training_summary_keeps_its_good_fields_and_names_the_others(ckpt, summary):
    warnings = _loaded_or_refused(_with_fields(ckpt, {"summary": json.dumps(summary)}))
    assert len(warnings) <= len(summary)


# ---------------------------------------------------------------- a learned tokenizer (the checkpoint's "bpe")

piece = st.text(st.sampled_from("ab▁我P S E\x00\ud800\u2028"), min_size=0, max_size=4) | tricky_text


@st.composite
def bpe_dicts(draw) -> object:
    """An object shaped as Bpe.to_dict() gives it, each part perhaps wrong: pieces, merges of pieces, a size, a
    version (or none)."""
    pieces = draw(st.lists(piece, max_size=12))
    merge = st.tuples(st.sampled_from(pieces or ["a"]), st.sampled_from(pieces or ["b"])).map(" ".join)
    version = draw(st.sampled_from([{}, {"version": 1}, {"version": 2}]) | st.builds(dict, version=json_values()))
    return {
        "vocab_size": draw(st.integers(-2, 40_000) | json_values()),
        "pieces": pieces,
        "merges": draw(st.lists(merge | tricky_text, max_size=len(pieces) + 1)),
        **version,
    }


@given(bpe_dicts() | json_values(), user_text)
@example({"vocab_size": 1, "pieces": [], "merges": []}, "0")  # split into "0", "0": the library's ▁ was unknown
@example({"vocab_size": 10**4_000, "pieces": [], "merges": []}, "")  # its 4,001 digits were repeated whole
def test_a_learned_tokenizer_is_rebuilt_or_refused_and_then_splits_any_text(data, text):
    bpe = judged(Bpe.from_dict, data, errors=DataError)
    if isinstance(bpe, Bpe):
        pieces = judged(bpe.split, text)
        assert all(isinstance(p, str) and p for p in pieces)
        if "\u2581" not in text:  # ▁ in a sentence joins back as a space
            assert bpe.join(pieces) == " ".join(text.split())


# ---------------------------------------------------------------- the model store: a link's name, its settings


@pytest.fixture(scope="module")
def store(trained_seed) -> ModelStore:
    """A store holding the seed model."""
    store = ModelStore(tempfile.mkdtemp(prefix="fuzz-store-"))
    store.publish(trained_seed, "seed")
    return store


@given(user_text | st.text("0123456789abcdefABCDEF", min_size=7, max_size=17))
def test_a_model_named_by_a_link_is_found_or_refused_with_a_store_error(store, name):
    judged(store.find, name, errors=StoreError)
    judged(store.open, name, errors=StoreError)


@given(st.binary(max_size=5_000) | json_values().map(lambda v: json.dumps({"name": v}).encode()))
def test_a_published_models_name_file_is_read_or_ignored(store, data):
    (entry,) = store.entries()
    with open(os.path.join(store.folder, entry.hash + ".json"), "wb") as file:
        file.write(data)
    (read,) = judged(store.entries)
    assert isinstance(read.name, str) and len(read.name) <= MAX_NAME_CHARS


@given(user_text | st.integers().map(str))
def test_the_store_settings_are_numbers_or_refused_with_a_store_error(text):
    store = judged(
        ModelStore.from_env, {MAX_MODELS_ENV: text, "PLAYGROUND_MODEL_STORE": "/nonexistent"}, errors=StoreError
    )
    if isinstance(store, ModelStore):
        assert store.max_models >= 1


@pytest.fixture(scope="module")
def marian_parts(tmp_path_factory):
    """A tiny Marian model's checkpoint, as tensors and metadata (its SentencePiece models among the tensors)."""
    from tests.transformer.checkpoints import parts
    from tests.transformer.marian_folder import write_marian_folder
    from transformer.checkpoint import save_checkpoint
    from transformer.opening import open_model

    folder = tmp_path_factory.mktemp("marian") / "tiny-marian"
    write_marian_folder(folder)
    return parts(save_checkpoint(open_model(folder)))


@given(st.binary(max_size=4_000), st.sampled_from(["sentencepiece.source", "sentencepiece.target"]), json_text)
@example(b"\0", "sentencepiece.source", "\ud800")  # a lone surrogate, which safetensors itself would refuse to write
def test_crafted_sentencepiece_parts_are_refused_or_loaded(marian_parts, model, name, specials):
    """Any bytes as either SentencePiece model, and any text as the special tokens: loaded, or one CheckpointError."""
    import torch
    from safetensors.torch import save as st_save

    tensors, metadata = marian_parts
    crafted = dict(tensors) | {name: torch.frombuffer(bytearray(model or b"\0"), dtype=torch.uint8)}
    data = st_save(crafted, metadata)
    for ckpt in (data, _with_fields(data, {"specials": specials})):
        judged(load_checkpoint, ckpt, errors=CheckpointError)
