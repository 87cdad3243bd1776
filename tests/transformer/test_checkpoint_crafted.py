"""Checkpoints crafted to lie: metadata that asks for gigabytes, nests too deep or disagrees with itself is refused
before anything is built; a wrong summary field is dropped with a warning; every dataset check_pairs accepts loads."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import save as st_save

from tests.transformer.checkpoints import parts, refused, with_config
from transformer import TrainConfig, Translator, train
from transformer.checkpoint import (
    MAX_HELD_OUT_CHARS,
    MAX_HELD_OUT_ITEMS,
    MAX_MODEL_NUMBERS,
    checkpoint_bytes,
    load_checkpoint,
    model_numbers,
    save_checkpoint,
    summary_from_dict,
    summary_to_dict,
)
from transformer.config import (
    MAX_CREDIT_CHARS,
    MAX_EPOCHS,
    MAX_PAIRS,
    MAX_TOKEN_CHARS,
    MAX_TOKENS,
    MAX_VOCAB_SIZE,
    TransformerConfig,
)
from transformer.corpus import PHENOMENA
from transformer.data import SPECIALS, check_pairs
from transformer.model import Transformer, buffer_count, parameter_count
from transformer.summary import TrainingSummary

REPO = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- crafted files: metadata that lies


SPECIAL_VOCAB = ["P", "S", "E", "<unk>"]
TINY_CONFIG = {"src_vocab_size": 4, "tgt_vocab_size": 4, "d_model": 8, "d_ff": 8, "n_heads": 2, "n_layers": 1}


def _crafted(config: dict | None = None, tensors: dict | None = None, **fields) -> bytes:
    """Safetensors bytes in our format whose metadata says anything: a tiny config and vocabularies of the special
    tokens unless given; a field that is not text is written as JSON, text is written as it is."""
    metadata = {
        "format": "transformer-playground",
        "format_version": "1",
        "config": TINY_CONFIG if config is None else config,
        "src_vocab": SPECIAL_VOCAB,
        "tgt_vocab": SPECIAL_VOCAB,
        "tokenizer": "auto",
        "summary": {},
        **fields,
    }
    metadata = {k: v if isinstance(v, str) else json.dumps(v) for k, v in metadata.items()}
    return st_save(tensors or {"weight": torch.zeros(1)}, metadata=metadata)


def _with_summary(data: bytes, summary) -> bytes:
    tensors, metadata = parts(data)
    metadata["summary"] = summary if isinstance(summary, str) else json.dumps(summary)
    return st_save(tensors, metadata=metadata)


def _loads_with_warnings(data: bytes) -> tuple[Translator, list[str]]:
    warnings: list[str] = []
    return load_checkpoint(data, warnings), warnings


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


# Each of these small files describes a model that needs gigabytes, or takes half a minute to build; before the
# loader checked sizes first, the first one took the server to 11.9 GB.
MEMORY_BOMBS = {
    "d_model-100000": (
        dict(d_model=100_000, d_k=1, d_v=1, n_heads=1, d_ff=1, n_layers=1, max_len=10_000),
        "d_model must be at most 4,096",
    ),
    "d_model-290000": (
        dict(d_model=290_000, d_k=1, d_v=1, n_heads=1, d_ff=1, n_layers=1, max_len=2),
        "d_model must be at most 4,096",
    ),
    "n_layers-10000": (dict(n_layers=10_000), "n_layers must be at most 24"),
    "d_ff-10**9": (dict(d_ff=10**9), "d_ff must be at most 16,384"),
    "positional-tables": (  # few parameters, but 2 × 10,000 × 4,096 numbers in the sinusoidal tables
        dict(d_model=4096, d_k=1, d_v=1, n_heads=1, d_ff=1, n_layers=1, max_len=10_000),
        "81,920,000 numbers of positional tables",
    ),
    "near-the-cap": (  # 11.6 M parameters (46 MB) that the file does not hold: built, compared, refused
        dict(d_model=512, d_ff=4096, n_heads=8, n_layers=1),
        "do not match its config",
    ),
}


def _bomb(name: str) -> bytes:
    sizes, _ = MEMORY_BOMBS[name]
    return _crafted({**TINY_CONFIG, **sizes})


@pytest.mark.parametrize("name", list(MEMORY_BOMBS))
def test_a_config_that_needs_too_much_memory_is_refused_before_anything_is_built(name):
    data = _bomb(name)
    assert len(data) < 1000
    refused(data, MEMORY_BOMBS[name][1])


def test_the_near_the_cap_bomb_is_within_the_size_check():
    cfg = TransformerConfig(**{**TINY_CONFIG, **MEMORY_BOMBS["near-the-cap"][0]})
    assert MAX_MODEL_NUMBERS // 2 < model_numbers(cfg) <= MAX_MODEL_NUMBERS  # so only the shape check can stop it


@pytest.mark.slow
def test_the_memory_bombs_stay_under_100_mb(tmp_path):
    """The loader's peak memory on every bomb, in a fresh process (torch allocations are invisible to tracemalloc):
    its peak resident size (VmHWM) after loading them all minus its resident size before the first. (ru_maxrss is
    no use here: Linux carries the parent's peak over into a child it starts.)"""
    paths = []
    for name in MEMORY_BOMBS:
        paths.append(tmp_path / f"{name}.safetensors")
        paths[-1].write_bytes(_bomb(name))
    script = """
import sys
from transformer.checkpoint import load_checkpoint
from transformer.errors import CheckpointError

def status_mb(field):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith(field + ":"))

before = status_mb("VmRSS")
for path in sys.argv[1:]:
    try:
        load_checkpoint(path)
    except CheckpointError:
        pass
    else:
        sys.exit(f"{path} was accepted")
print(before, status_mb("VmHWM"))
"""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    run = subprocess.run(
        [sys.executable, "-c", script, *map(str, paths)], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    before, peak = map(float, run.stdout.split())
    assert peak - before < 100, f"peak {peak:.0f} MB, {before:.0f} MB before loading the bombs"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("config", _deep(10_000)),
        ("src_vocab", _deep(10_000)),
        ("config", '{"a": ' * 9 + "1" + "}" * 9),
    ],
    ids=["config-10000-deep", "vocab-10000-deep", "config-9-deep"],
)
def test_json_nested_too_deep_is_refused(field, value):
    refused(_crafted(**{field: value}), "nested more than 8 levels deep")


def test_a_header_nested_too_deep_or_with_too_many_lists_or_a_huge_number_is_refused():
    for header, words in [
        ('{"x": ' + _deep(10_000) + "}", "nested more than 8 levels deep"),
        ('{"x": [' + ",".join(["[]"] * 30_000) + "]}", "more than 20,000 lists and objects"),
        ('{"x": {"dtype": "F32", "shape": [' + "9" * 5000 + '], "data_offsets": [0, 4]}}', "not valid JSON"),
    ]:
        raw = header.encode()
        refused(struct.pack("<Q", len(raw)) + raw + b"\0" * 4, words)


@pytest.mark.parametrize(
    ("src_vocab", "size", "words"),
    [
        ([*SPECIAL_VOCAB, 5], 5, "not a list of tokens"),
        ([*SPECIAL_VOCAB, None], 5, "not a list of tokens"),
        ([*SPECIAL_VOCAB, ["x"]], 5, "not a list of tokens"),
        ([*SPECIAL_VOCAB, ""], 5, "not a list of tokens"),
        ({"P": 0, "S": 1, "E": 2, "<unk>": 3}, 4, "not a list of tokens"),
        (json.dumps("P S E <unk>"), 4, "not a list of tokens"),
        ([*SPECIAL_VOCAB, "x" * 33], 5, "longer than 32 characters"),
        (["S", "P", "E", "<unk>"], 4, "id 0"),
        ([*SPECIAL_VOCAB, "E"], 5, "twice"),
        (["P", "S", "x", "<unk>"], 4, "lacks the special token(s) E"),
    ],
    ids=["int", "null", "list", "empty", "dict", "string", "too-long", "p-not-first", "e-twice", "no-e"],
)
def test_a_vocabulary_that_is_not_distinct_tokens_with_the_specials_in_place_is_refused(src_vocab, size, words):
    refused(_crafted({**TINY_CONFIG, "src_vocab_size": size}, src_vocab=src_vocab), words)


@pytest.mark.parametrize("max_len", [1, 0])
def test_max_len_without_room_for_a_source_token_and_a_decoding_step_is_refused(ckpt, max_len):
    refused(with_config(ckpt, max_len=max_len), "max_len must be")


def test_the_smallest_max_len_loads_and_translates_one_step(seed_pairs):
    translator = Translator.create(seed_pairs, max_len=2, d_model=8, n_heads=2, d_ff=8, n_layers=1)
    loaded = load_checkpoint(save_checkpoint(translator))
    result = loaded.translate("我")
    assert len(result.steps) == 1


VALID_SUMMARY = {
    "epochs": 2,
    "loss": 0.5,
    "accuracy": 0.75,
    "seconds": 1.25,
    "exact_match": 1.0,
    "history": [
        {"epoch": 1, "loss": 1.0, "accuracy": 0.5},
        {"epoch": 2, "loss": 0.5, "accuracy": 0.75, "holdout_loss": 2.0, "holdout_accuracy": 0.25, "seconds": 1.25},
    ],
    "train_config": {"epochs": 2, "lr": 0.003, "batch_size": 16, "seed": 0},
    "holdout_exact_match": 0.0,
    "holdout_rows": [0, 3],
    "split": {"kind": "combination", "holdout": 0.1, "seed": 0, "held_out": ["猫 + 追"]},
    "data_sha256": "0123456789abcdef" * 4,
    "always_trained": 50,
    "data_credit": "CC-BY 2.0 (France) Attribution: example.org (172 pairs)",
    "train_scored": {"scored": 2, "of": 3},
    "scores": {
        "train": {"all": {"pairs": 2, "exact": 2, "correct": 9, "tokens": 9, "bleu": 100.0, "chrf": 100.0}},
        "holdout": {"negation": {"pairs": 1, "exact": 0, "correct": 3, "tokens": 5, "bleu": 12.5, "chrf": 40.0}},
    },
}


def test_a_summary_with_every_field_right_loads_unchanged_and_without_warnings(ckpt):
    loaded, warnings = _loads_with_warnings(_with_summary(ckpt, VALID_SUMMARY))
    assert summary_to_dict(loaded.summary) == VALID_SUMMARY
    assert warnings == []


def _record(**changes) -> dict:
    return {"epoch": 1, "loss": 1.0, "accuracy": 0.5, **changes}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("loss", "abc"),
        ("loss", None),
        ("loss", float("nan")),
        ("loss", float("inf")),
        ("loss", 10**400),
        ("accuracy", 1.5),
        ("accuracy", -0.1),
        ("exact_match", True),
        ("epochs", -1),
        ("epochs", 2.5),
        ("epochs", True),
        ("seconds", "1"),
        ("history", "abc"),
        ("history", {"epoch": 1}),
        ("history", [_record(), 3]),
        ("history", [_record(loss="abc")]),
        ("history", [_record(accuracy=2)]),
        ("history", [{"epoch": 1, "loss": 1.0}]),
        ("history", [_record(colour="red")]),
        ("history", [_record(holdout_loss=float("nan"))]),
        ("history", [_record(epoch=-1)]),
        ("train_config", "abc"),
        ("train_config", {"epochs": 0}),
        ("train_config", {"seed": 2**80}),
        ("train_config", {"colour": "red"}),
        ("train_config", {"device": "cuda:99"}),
        ("holdout_exact_match", 2),
        ("holdout_rows", ["a"]),
        ("holdout_rows", 3),
        ("split", {"kind": "shuffle", "holdout": 0.1, "seed": 0, "held_out": []}),
        ("split", {"kind": "random", "holdout": 1.0, "seed": 0, "held_out": []}),
        ("split", {"kind": "word", "holdout": 0.1, "seed": 0, "held_out": ["x" * 101]}),
        ("split", {"kind": "word", "holdout": 0.1, "seed": 0, "held_out": ["x"] * 101}),
        ("split", {"kind": "word", "holdout": 0.1, "seed": 0}),
        ("data_sha256", "0123"),
        ("data_sha256", "G" * 64),
        ("always_trained", -1),
        ("data_credit", "x" * 301),
        ("data_credit", "tatoeba.org\x1b[31m"),
        ("data_credit", ""),
        ("data_credit", ["CC-BY"]),
        ("scores", {"train": {"all": {"pairs": 1, "exact": 2, "correct": 0, "tokens": 0, "bleu": 0, "chrf": 0}}}),
        ("scores", {"train": {"all": {"pairs": 1, "exact": 1, "correct": 0, "tokens": 0, "bleu": 0, "chrf": 101}}}),
        ("scores", {"train": {"zebra": {"pairs": 1, "exact": 1, "correct": 0, "tokens": 0, "bleu": 0, "chrf": 1}}}),
        ("scores", {"later": {"all": {"pairs": 1, "exact": 1, "correct": 0, "tokens": 0, "bleu": 0, "chrf": 1}}}),
        ("scores", {"train": []}),
        ("train_scored", {"scored": 0, "of": 3}),
        ("train_scored", {"scored": 4, "of": 3}),
        ("train_scored", {"scored": 2, "of": 2 * MAX_PAIRS + 1}),
        ("train_scored", {"scored": 2.0, "of": 3}),
        ("train_scored", {"scored": 2}),
        ("train_scored", [2, 3]),
        ("colour", "red"),
    ],
)
def test_a_summary_field_that_is_wrong_is_dropped_with_a_warning_and_the_rest_kept(ckpt, field, value):
    loaded, warnings = _loads_with_warnings(_with_summary(ckpt, {**VALID_SUMMARY, field: value}))
    assert summary_to_dict(loaded.summary) == {k: v for k, v in VALID_SUMMARY.items() if k != field}
    assert len(warnings) == 1 and repr(field) in warnings[0] and "dropped" in warnings[0], warnings


@pytest.mark.parametrize(
    "summary",
    ["[1, 2]", '"abc"', "{not json", _deep(10_000), "[" + ",".join(["{}"] * 25_000) + "]"],
    ids=["list", "string", "not-json", "10000-deep", "25000-objects"],
)
def test_a_summary_that_is_not_a_small_json_object_is_dropped_with_a_warning(ckpt, summary):
    loaded, warnings = _loads_with_warnings(_with_summary(ckpt, summary))
    assert loaded.summary == TrainingSummary()
    assert len(warnings) == 1 and "summary" in warnings[0] and "dropped" in warnings[0], warnings
    assert loaded.translate("我 喜 欢 你").text == "I love you ."


def test_warnings_are_only_collected_when_asked_for(ckpt):
    assert load_checkpoint(_with_summary(ckpt, {"loss": "abc"})).summary == TrainingSummary()


def test_the_size_estimates_match_a_built_model(trained_seed):

    for cfg in (
        trained_seed.config,
        TransformerConfig(7, 9, d_model=12, n_heads=3, d_ff=5, n_layers=3, max_len=17),
        TransformerConfig(5, 5, d_model=9, n_heads=2, d_k=3, d_v=7, d_ff=4, n_layers=1, max_len=2),
    ):
        model = Transformer(cfg)
        assert parameter_count(cfg) == sum(p.numel() for p in model.parameters())
        assert buffer_count(cfg) == sum(b.numel() for b in model.buffers())
    estimate = checkpoint_bytes(trained_seed.config, trained_seed.src_vocab, trained_seed.tgt_vocab, 60)
    assert len(save_checkpoint(trained_seed)) <= estimate < len(save_checkpoint(trained_seed)) + 200_000


# ---------------------------------------------------------------- every dataset check_pairs accepts can be loaded


def _largest_dataset(chars: str) -> list[tuple[str, str]]:
    """MAX_PAIRS pairs whose sides each hold MAX_VOCAB_SIZE - 4 distinct tokens (the most check_pairs accepts), each
    MAX_TOKEN_CHARS characters: a distinct first character (4 bytes in UTF-8) and then chars. The first rows hold
    MAX_TOKENS tokens each until every token has appeared; the others one token a side, each row its own pair."""
    distinct = MAX_VOCAB_SIZE - len(SPECIALS)

    def token(side: int, i: int) -> str:
        return chr(0x20000 + side * MAX_VOCAB_SIZE + i % distinct) + (chars * MAX_TOKEN_CHARS)[: MAX_TOKEN_CHARS - 1]

    long_rows = -(-distinct // MAX_TOKENS)
    pairs = [
        tuple(" ".join(token(side, row * MAX_TOKENS + i) for i in range(MAX_TOKENS)) for side in (0, 1))
        for row in range(long_rows)
    ]
    # past `distinct` rows a second source token keeps every pair distinct (a repeated pair would be a warning)
    second = [("" if row < distinct else " " + token(0, row // distinct)) for row in range(MAX_PAIRS)]
    return pairs + [(token(0, row) + second[row], token(1, 7 * row + 1)) for row in range(long_rows, MAX_PAIRS)]


def _largest_summary(n_pairs: int) -> dict:

    long = 0.12345678901234568  # 17 significant digits: the longest a float prints
    record = {
        "loss": 1e-05 + long,
        "accuracy": long,
        "holdout_loss": 1234.123456789012,
        "holdout_accuracy": long,
        "seconds": 12345.12345678901,
    }
    figures = {"bleu": 12.345678901234568, "chrf": 98.76543210987654}
    return {
        "epochs": MAX_EPOCHS,
        "loss": long,
        "accuracy": long,
        "seconds": 12345.12345678901,
        "exact_match": long,
        "history": [{"epoch": epoch, **record} for epoch in range(1, MAX_EPOCHS + 1)],
        "train_config": {"epochs": MAX_EPOCHS, "lr": long, "batch_size": 200, "seed": 2**31 - 1},
        "holdout_exact_match": long,
        "holdout_rows": list(range(n_pairs)),
        "split": {
            "kind": "combination",
            "holdout": long,
            "seed": 2**31 - 1,
            "held_out": ['"\\' * (MAX_HELD_OUT_CHARS // 2)] * MAX_HELD_OUT_ITEMS,  # escaped twice: 4 bytes each
        },
        "data_sha256": "f" * 64,
        "always_trained": n_pairs,
        "data_credit": '"\\' * (MAX_CREDIT_CHARS // 2),  # escaped twice, as split's held_out
        "train_scored": {"scored": n_pairs, "of": 2 * MAX_PAIRS},
        "scores": {
            part: {
                row: {**dict.fromkeys(("pairs", "exact", "correct", "tokens"), n_pairs * 10**6), **figures}
                for row in ("all", *PHENOMENA)
            }
            for part in ("train", "holdout", "all")
        },
    }


@pytest.mark.slow
@pytest.mark.parametrize("chars", ["\U0001f600", '"\\'], ids=["4-byte-characters", "quotes-and-backslashes"])
def test_the_largest_dataset_check_pairs_accepts_makes_a_checkpoint_the_loader_accepts(chars):

    pairs = _largest_dataset(chars)
    assert len(pairs) == MAX_PAIRS and check_pairs(pairs, "whitespace") == []
    translator = Translator.create(pairs, "whitespace", d_model=8, n_heads=1, d_ff=8, n_layers=1)
    assert len(translator.src_vocab) == len(translator.tgt_vocab) == MAX_VOCAB_SIZE
    if chars == "\U0001f600":  # one real epoch (of a few of the longest pairs: the vocabularies are what is large);
        list(train(translator, pairs[:8], TrainConfig(epochs=1)))  # then the longest history a training makes
    largest = _largest_summary(len(pairs))
    translator.summary = summary_from_dict(largest, [])
    warnings: list[str] = []
    loaded = load_checkpoint(save_checkpoint(translator), warnings)
    assert warnings == []
    assert loaded.src_vocab == translator.src_vocab and loaded.tgt_vocab == translator.tgt_vocab
    assert loaded.summary == translator.summary and summary_to_dict(loaded.summary) == largest
