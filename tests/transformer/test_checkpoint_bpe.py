"""A checkpoint carries its BPE tokenizer as checked JSON metadata: an exact round trip, and a crafted tokenizer is
refused with one line."""

from __future__ import annotations

import json

import pytest
from safetensors.torch import save as st_save

from tests.conftest import PAIRS20
from tests.transformer.checkpoints import parts, refused
from transformer.bpe import MARK, MAX_PIECES, Bpe, learn_bpe
from transformer.checkpoint import checkpoint_bytes, load_checkpoint, save_checkpoint
from transformer.translator import Translator

SIZES = dict(d_model=8, n_heads=2, d_ff=8, n_layers=1)


@pytest.fixture(scope="module")
def bpe_ckpt() -> bytes:
    """The checkpoint of an untrained model with a BPE tokenizer (the weights play no part here)."""
    return save_checkpoint(Translator.create(PAIRS20, learn_bpe(PAIRS20, 80), **SIZES))


def test_the_tokenizer_round_trips_and_translates_the_same(bpe_ckpt):
    translator = load_checkpoint(bpe_ckpt)
    assert isinstance(translator.tokenizer, Bpe) and translator.tokenizer == learn_bpe(PAIRS20, 80)
    original = Translator.create(PAIRS20, learn_bpe(PAIRS20, 80), **SIZES)
    assert translator.translate_all(["我吃饭"]) == original.translate_all(["我吃饭"])
    assert save_checkpoint(translator) == bpe_ckpt  # the same bytes again
    _, metadata = parts(bpe_ckpt)
    assert metadata["tokenizer"] == "bpe"
    assert json.loads(metadata["bpe"]).keys() == {"vocab_size", "pieces", "merges", "version"}


def _with_bpe(data: bytes, value) -> bytes:
    tensors, metadata = parts(data)
    if value is None:
        del metadata["bpe"]
    else:
        metadata["bpe"] = value if isinstance(value, str) else json.dumps(value)
    return st_save(tensors, metadata=metadata)


def _changed(data: bytes, **fields) -> dict:
    return {**json.loads(parts(data)[1]["bpe"]), **fields}


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda d: None, "lacks 'bpe'"),
        (lambda d: "{not json", "is not valid JSON"),
        (lambda d: "[" * 50 + "]" * 50, "nested more than"),
        (lambda d: ["pieces"], "an object of vocab_size, pieces, merges and perhaps version"),
        (lambda d: {**_changed(d), "code": "import os"}, "an object of vocab_size, pieces, merges and perhaps version"),
        (lambda d: _changed(d, version=3), "version must be 1 or 2"),
        (lambda d: _changed(d, version="2"), "version must be 1 or 2"),
        (lambda d: _changed(d, vocab_size=0), "from 1 to 16,000"),
        (lambda d: _changed(d, vocab_size="80"), "from 1 to 16,000"),
        (lambda d: _changed(d, pieces="abc"), "must be lists"),
        (lambda d: _changed(d, pieces=[1, 2]), "text of 1 to 32 characters"),
        (lambda d: _changed(d, pieces=["a", "\x1b[31m"]), "\\x1b"),
        (lambda d: _changed(d, pieces=["a", "a"], merges=[]), "the same piece twice"),
        (lambda d: _changed(d, pieces=["x" * 33]), "text of 1 to 32 characters"),
        (lambda d: _changed(d, pieces=[f"p{i}" for i in range(MAX_PIECES + 1)], merges=[]), "at most 29,996 pieces"),
        (lambda d: _changed(d, merges=["a b"] * (len(_changed(d)["pieces"]) + 1)), "more merges than pieces"),
        (lambda d: _changed(d, merges=["zz qq"]), "not in its vocabulary"),
        (lambda d: _changed(d, merges=[["a", "b"]]), "separated by one space"),
        (lambda d: _changed(d, merges=["ab"]), "separated by one space"),
    ],
    ids=[
        *("missing", "not-json", "deep", "list", "extra-field", "version-3", "version-text", "size-0", "size-text"),
        *("pieces-text", "pieces-numbers"),
        *("escape", "twice", "too-long", "too-many", "too-many-merges", "unknown-merge", "merge-list", "merge-glued"),
    ],
)
def test_a_crafted_tokenizer_is_refused_with_one_line(bpe_ckpt, make, words):
    message = refused(_with_bpe(bpe_ckpt, make(bpe_ckpt)), words)
    assert "\x1b" not in message


def test_a_huge_merges_list_is_refused_before_it_is_checked_piece_by_piece(bpe_ckpt):
    merges = [f"{MARK}a b"] * (MAX_PIECES + 1)  # more than any tokenizer may have: counted before any is checked
    refused(_with_bpe(bpe_ckpt, _changed(bpe_ckpt, merges=merges)), "more merges than pieces")


def test_a_bpe_field_beside_another_tokenizer_is_not_read(bpe_ckpt):
    tensors, metadata = parts(bpe_ckpt)
    metadata["tokenizer"], metadata["bpe"] = "auto", "{not json"
    assert load_checkpoint(st_save(tensors, metadata=metadata)).tokenizer == "auto"


def test_the_size_estimate_counts_the_tokenizer():
    bpe = learn_bpe(PAIRS20 * 3, 2_000)
    translator = Translator.create(PAIRS20, bpe, **SIZES)
    data = save_checkpoint(translator)
    cfg, src, tgt = translator.config, translator.src_vocab, translator.tgt_vocab
    with_bpe, without = checkpoint_bytes(cfg, src, tgt, 0, 0, bpe), checkpoint_bytes(cfg, src, tgt, 0, 0)
    assert with_bpe >= len(data) and with_bpe - without >= len(parts(data)[1]["bpe"].encode())
