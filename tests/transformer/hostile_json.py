"""Hostile JSON for the checkpoint loader, shared by its tests (tests/transformer/test_checkpoint_hostile_json.py),
the fuzzing (tests/transformer/test_fuzz_checkpoint.py), the benchmark (benchmarks/hostile_headers.py) and the
browser test (tests/e2e/test_e2e_hostile_upload.py): headers crafted to make a JSON check slow, each as large as a
header may be, and the checkpoints that carry them (as the whole header, or as one metadata field)."""

from __future__ import annotations

import contextlib
import json
import struct
import time

import torch
from safetensors.torch import save as st_save

from transformer.checkpoint import MAX_HEADER_BYTES, load_checkpoint
from transformer.errors import CheckpointError

SIZE = MAX_HEADER_BYTES - 64  # room for the wrapping of a metadata field
FIELD_SIZE = SIZE // 2 - 4_096  # a field's text: escaped into the header it may double, and the other fields stay
QUADRATIC = "quote-then-escaped-quotes"  # the reported file: a quote, then escaped quotes (the old check's worst)
FIELDS = ("summary", "config", "src_vocab", "bpe")  # metadata fields parsed as JSON
FIELD_PATTERNS = (QUADRATIC, "empty-strings", "opened-lists", "numbers")  # the patterns tried in each field


def _repeat(head: str, unit: str, tail: str = "", size: int = SIZE) -> str:
    """head + unit repeated + tail, as close to size characters as whole units allow."""
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def hostile_headers(size: int = SIZE) -> dict[str, str]:
    """Each pattern's whole header text, of about size characters (the largest the loader accepts by default)."""
    return {
        QUADRATIC: _repeat('"', '\\"', size=size),
        "escaped-quotes-in-an-object": _repeat('{"x": "', '\\"', size=size),
        "quote-backslash-pairs": _repeat("", '"\\\\', size=size),
        "unterminated-unicode-escapes": _repeat('["', "\\u00", size=size),
        "empty-strings": _repeat("[", '"",', '""]', size=size),
        "strings-of-a-bracket": _repeat("[", '"[",', '""]', size=size),
        "empty-lists": _repeat("[", "[],", "[]]", size=size),
        "numbers": _repeat("[", "1,", "1]", size=size),
        "keys": _repeat("{", '"k":1,', '"k":1}', size=size),
        "opened-lists": _repeat("", "[", size=size),
        "opened-objects": _repeat("", '{"a":', size=size),
        "closing-brackets": _repeat("", "]", size=size),
        "one-long-string": _repeat('{"x": "', "a", '"}', size=size),
        "quotes": _repeat("", '"', size=size),
        "backslashes": _repeat('"', "\\", size=size),
    }


HOSTILE_HEADERS = hostile_headers()


def header_file(text: str) -> bytes:
    """safetensors bytes whose header is text and that hold nothing else."""
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def field_file(field: str, text: str) -> bytes:
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


def hostile_fields() -> dict[str, bytes]:
    """'field = pattern' → a checkpoint whose metadata field holds the pattern at FIELD_SIZE characters."""
    return {
        f"{field} = {name}": field_file(field, HOSTILE_HEADERS[name][:FIELD_SIZE])
        for field in FIELDS
        for name in FIELD_PATTERNS
    }


def seconds_to_load(data: bytes, clock=time.process_time) -> float:
    """The seconds (CPU by default) the loader takes to accept or refuse data."""
    start = clock()
    with contextlib.suppress(CheckpointError):
        load_checkpoint(data)
    return clock() - start
