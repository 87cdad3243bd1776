"""Headers crafted to make the loader's JSON checks slow, each as large as a header may be: every one is refused or
accepted in linear time. The check it replaced took 112 s on a 60 kB header (a quote, then escaped quotes), and the
app's upload, the Lab and the model store share the loader, so one such file froze a process for every learner on it.

The bound here is CPU seconds, four times the 0.5 s the loader is held to (benchmarks/hostile_headers.py prints the
wall-clock figures): loose enough for a slow or busy machine, and far below what a quadratic check takes."""

from __future__ import annotations

import json

import pytest
from safetensors.torch import save as st_save

from tests.transformer.checkpoints import parts, refused
from tests.transformer.hostile_json import (
    FIELD_PATTERNS,
    FIELD_SIZE,
    FIELDS,
    HOSTILE_HEADERS,
    field_file,
    header_file,
    seconds_to_load,
)
from transformer.checkpoint import MAX_HEADER_BYTES, load_checkpoint

CPU_SECONDS = 2.0


@pytest.mark.parametrize("name", list(HOSTILE_HEADERS))
def test_a_hostile_header_of_the_largest_size_is_judged_in_linear_time(name):
    data = header_file(HOSTILE_HEADERS[name])
    assert len(data) <= MAX_HEADER_BYTES + 8
    seconds = seconds_to_load(data)
    assert seconds < CPU_SECONDS, f"{name}: {seconds:.2f} CPU seconds"
    refused(data)  # none of them is a checkpoint, and each is told so in one line


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("name", FIELD_PATTERNS)
def test_a_hostile_metadata_field_is_judged_in_linear_time(field, name):
    data = field_file(field, HOSTILE_HEADERS[name][:FIELD_SIZE])
    assert len(data) <= MAX_HEADER_BYTES + 8  # judged as JSON, not refused for its size
    seconds = seconds_to_load(data)
    assert seconds < CPU_SECONDS, f"{field} = {name}: {seconds:.2f} CPU seconds"


def test_the_reported_file_is_refused_as_not_json():
    header = '"' + '\\"' * 100_000
    refused(header_file(header), "not valid JSON")


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
    refused(header_file(text), words)


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
