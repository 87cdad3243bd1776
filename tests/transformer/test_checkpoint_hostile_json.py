"""Headers crafted to make the loader's JSON checks slow, each as large as a header may be: every one is refused or
accepted in linear time. The check it replaced took 112 s on a 60 kB header (a quote, then escaped quotes), and the
app's upload, the Lab and the model store share the loader, so one such file froze a process for every learner on it.

The bound here is CPU seconds, four times the 0.5 s the loader is held to (benchmarks/hostile_headers.py prints the
wall-clock figures): loose enough for a slow or busy machine, and far below what a quadratic check takes."""

from __future__ import annotations

import contextlib
import json
import struct
import time

import pytest
import torch
from safetensors.torch import save as st_save

from tests.transformer.checkpoints import parts, refused
from transformer.checkpoint import MAX_HEADER_BYTES, load_checkpoint
from transformer.errors import CheckpointError

CPU_SECONDS = 2.0
SIZE = MAX_HEADER_BYTES - 64  # room for the wrapping of a metadata field


def _repeat(head: str, unit: str, tail: str = "") -> str:
    """head + unit repeated + tail, as close to SIZE characters as whole units allow."""
    return head + unit * ((SIZE - len(head) - len(tail)) // len(unit)) + tail


# each a whole header's text, as large as the loader accepts
HOSTILE_HEADERS = {
    "quote-then-escaped-quotes": _repeat('"', '\\"'),  # the reported file, at the size limit
    "escaped-quotes-in-an-object": _repeat('{"x": "', '\\"'),
    "quote-backslash-pairs": _repeat("", '"\\\\'),
    "unterminated-unicode-escapes": _repeat('["', "\\u00"),
    "empty-strings": _repeat("[", '"",', '""]'),
    "strings-of-a-bracket": _repeat("[", '"[",', '""]'),
    "empty-lists": _repeat("[", "[],", "[]]"),
    "numbers": _repeat("[", "1,", "1]"),
    "keys": _repeat("{", '"k":1,', '"k":1}'),
    "opened-lists": _repeat("", "["),
    "opened-objects": _repeat("", '{"a":'),
    "closing-brackets": _repeat("", "]"),
    "one-long-string": _repeat('{"x": "', "a", '"}'),
    "quotes": _repeat("", '"'),
    "backslashes": _repeat('"', "\\"),
}


def _header_file(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def _field_file(field: str, text: str) -> bytes:
    """A checkpoint of a tiny model whose metadata field holds text, every other field right."""
    metadata = {
        "format": "transformer-playground",
        "format_version": "1",
        "config": json.dumps({"src_vocab_size": 4, "tgt_vocab_size": 4, "d_model": 8, "d_ff": 8, "n_heads": 2}),
        "src_vocab": json.dumps(["P", "S", "E", "<unk>"]),
        "tgt_vocab": json.dumps(["P", "S", "E", "<unk>"]),
        "tokenizer": "auto",
        "summary": "{}",
        field: text,
    }
    return st_save({"weight": torch.zeros(1)}, metadata=metadata)


def _cpu_seconds_to_load(data: bytes) -> float:
    start = time.process_time()
    with contextlib.suppress(CheckpointError):
        load_checkpoint(data)
    return time.process_time() - start


@pytest.mark.parametrize("name", list(HOSTILE_HEADERS))
def test_a_hostile_header_of_the_largest_size_is_judged_in_linear_time(name):
    data = _header_file(HOSTILE_HEADERS[name])
    assert len(data) <= MAX_HEADER_BYTES + 8
    seconds = _cpu_seconds_to_load(data)
    assert seconds < CPU_SECONDS, f"{name}: {seconds:.2f} CPU seconds"
    refused(data)  # none of them is a checkpoint, and each is told so in one line


@pytest.mark.parametrize("field", ["summary", "config", "src_vocab", "bpe"])
@pytest.mark.parametrize("name", ["quote-then-escaped-quotes", "empty-strings", "opened-lists", "numbers"])
def test_a_hostile_metadata_field_is_judged_in_linear_time(field, name):
    data = _field_file(field, HOSTILE_HEADERS[name][: SIZE // 2])  # escaped into the header, it may double
    seconds = _cpu_seconds_to_load(data)
    assert seconds < CPU_SECONDS, f"{field} = {name}: {seconds:.2f} CPU seconds"


def test_the_reported_file_is_refused_as_not_json():
    header = '"' + '\\"' * 100_000
    refused(_header_file(header), "not valid JSON")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" + ",".join(["[]"] * 30_000) + "]", "more than 20,000 lists and objects"),
        ("[" + ",".join(["1"] * 600_000) + "]", "values"),
        ("[" * 5_000, "nested more than 8 levels deep"),
        ('{"x": ' * 9 + "1" + "}" * 9, "nested more than 8 levels deep"),
    ],
    ids=["containers", "values", "deep-and-open", "nine-levels"],
)
def test_what_is_refused_is_named(text, words):
    refused(_header_file(text), words)


def test_tokens_of_brackets_quotes_and_separators_still_load(ckpt):
    """The bounds count structure and separators, never too low: a vocabulary token may be '[', '"' or ',', and a
    real checkpoint with such tokens loads with them."""
    tensors, metadata = parts(ckpt)
    tokens = json.loads(metadata["src_vocab"])
    odd = ["[", "{", '"', "\\", '\\"[{', "a:b,c", "]]", "}"][: len(tokens) - 4]  # the specials stay first
    assert len(odd) >= 4
    tokens[4 : 4 + len(odd)] = odd
    metadata["src_vocab"] = json.dumps(tokens)
    loaded = load_checkpoint(st_save(tensors, metadata=metadata))
    assert list(loaded.src_vocab.itos[4 : 4 + len(odd)]) == odd
