"""Checkpoints: one .safetensors file with the weights and JSON metadata. Loading never unpickles.

Every file is checked before a model is built from it: the 8-byte header length, the JSON header (its size, depth
and number of lists and objects bounded before it is parsed), each tensor's dtype, shape and byte range, the config
(every size within its limit, and parameters + buffers within what a checkpoint of at most MAX_CHECKPOINT_BYTES can
hold, counted from the sizes alone) and the vocabularies. Only then is the model built, its tensors' names and shapes
compared with the file's, and the weights read. Anything wrong is refused with a CheckpointError that says what; a
training summary with wrong fields is loaded without them, with a warning for each.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
import struct
from pathlib import Path

import torch
from safetensors.torch import load as safetensors_load
from safetensors.torch import save as safetensors_save

from . import checkpoint_spm as spm_part
from .bpe import MAX_PIECES, Bpe
from .config import (
    MAX_CHECKPOINT_BYTES,
    MAX_CREDIT_CHARS,
    MAX_EPOCHS,
    MAX_PAIRS,
    MAX_TOKEN_CHARS,
    MAX_VOCAB_SIZE,
    TrainConfig,
    TransformerConfig,
    check_project_sizes,
)
from .corpus import PHENOMENA
from .credits import MAX_PACKED_CHARS, Credits, pack, unpack
from .data import OUR_SPECIALS, TOKENIZERS, Specials, Vocab
from .errors import CheckpointError, DataError, TransformerError
from .files import read_limited
from .model import Transformer, buffer_count, parameter_count
from .scores import ALL, PARTS, ScoreTable
from .splits import SPLITS
from .summary import DataRecord, EpochRecord, SplitRecord, TrainingSummary, TrainScored, recorded_settings
from .text import echo
from .translator import Translator

FORMAT = "transformer-playground"
FORMAT_VERSION = 1
_DTYPE_SIZES = {"F32": 4}  # we only ever write float32
_HISTORY_RECORD_BYTES = 360  # one epoch of the summary's history in the header, every optional field, escaped
_ROW_BYTES = 8  # one held-out row number of the summary ("19999, ")
# the largest header a checkpoint of this app can have: two vocabularies of the largest size whose tokens are
# MAX_TOKEN_CHARS 4-byte characters (or escaped quotes, 4 bytes once the vocabulary's JSON is itself a JSON string),
# a history of MAX_EPOCHS epochs, the row numbers of MAX_PAIRS held-out pairs, a BPE tokenizer of the most pieces
# (each piece once as a piece and once in a merge, "a b"), and 1 MB for the tensor entries, the config and the rest of
# the summary
MAX_HEADER_BYTES = (
    2 * MAX_VOCAB_SIZE * (4 * MAX_TOKEN_CHARS + 6)
    + 2 * MAX_PIECES * (4 * MAX_TOKEN_CHARS + 10)
    + MAX_EPOCHS * _HISTORY_RECORD_BYTES
    + MAX_PAIRS * _ROW_BYTES
    + MAX_PACKED_CHARS
    + 1_000_000
)
_HISTORY_RECORD_SEPARATORS = 40  # one epoch of the summary's history: a comma and a colon per field, all of them
# the most commas and colons a header can hold: one per token of each vocabulary, two per BPE piece (as a piece and in
# a merge) on each side, the history of MAX_EPOCHS epochs, two per pair (its row number and its credit), and 100,000
# for the tensor entries, the config and the rest of the summary. Every JSON value but the first follows one, so this
# bounds the values (and the containers) that parsing can build.
MAX_JSON_SEPARATORS = (
    2 * MAX_VOCAB_SIZE + 4 * MAX_PIECES + MAX_EPOCHS * _HISTORY_RECORD_SEPARATORS + 2 * MAX_PAIRS + 100_000
)
MAX_JSON_DEPTH = 8  # our deepest JSON is 3 levels (summary → history → epoch record)
MAX_JSON_CONTAINERS = 20_000  # lists and objects in one JSON text: ~3 per tensor, 1 per epoch of history
QUOTED_CHARS = 60  # the most of a name or value from the file that a message repeats
MAX_MODEL_NUMBERS = MAX_CHECKPOINT_BYTES // 4  # parameters + buffers of the largest model a checkpoint may describe


_SIZES = ("src_vocab_size", "tgt_vocab_size", "d_model", "d_ff", "n_heads", "d_k", "d_v")


def model_numbers(cfg: TransformerConfig) -> int:
    """The float32 numbers a model of cfg holds in memory: parameters and buffers (nothing is built)."""
    return parameter_count(cfg) + buffer_count(cfg)


def checkpoint_bytes(
    cfg: TransformerConfig,
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    epochs: int,
    held_out: int = 0,
    tokenizer=None,
    credits: Credits | None = None,
) -> int:
    """An upper bound of the size of the checkpoint of a model of cfg with these vocabularies (and tokenizer, when it
    is a learned one, and the data's credits) after epochs epochs of training with held_out pairs held out, from the
    sizes alone (nothing is allocated)."""
    tiny = dict.fromkeys(_SIZES, 1) | {"max_len": 2, "pad_id": 0, "decoder_start_id": None}
    twin = dataclasses.replace(cfg, **tiny)  # the same tensors, each tiny
    tensors = 4 * parameter_count(cfg) + _header_bytes(twin)
    vocabs = sum(2 * len(json.dumps(list(v.itos), ensure_ascii=False).encode()) for v in (src_vocab, tgt_vocab))
    learned = 2 * len(_bpe_json(tokenizer).encode()) if isinstance(tokenizer, Bpe) else spm_part.model_bytes(tokenizer)
    credited = 2 * len(pack(credits)) if credits is not None else 0  # base64: no escapes, twice as a JSON string
    return 8 + tensors + vocabs + learned + credited + epochs * _HISTORY_RECORD_BYTES + held_out * _ROW_BYTES + 10_000


@functools.lru_cache(maxsize=64)
def _header_bytes(twin: TransformerConfig) -> int:
    """An upper bound of what the safetensors header says of each tensor of a model of this structure (its name, dtype,
    shape and offsets), from a model built at size 1 once per structure: the Train page asks on every run."""
    return sum(len(name) + 100 for name in Transformer(twin).saved_tensors())


def fits_in_a_checkpoint(
    cfg: TransformerConfig,
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    epochs: int,
    held_out: int = 0,
    tokenizer=None,
    credits: Credits | None = None,
) -> bool:
    """Whether the loader accepts the checkpoint of such a training (checkpoint_bytes and model_numbers within their
    limits), before anything is built or trained."""
    size = checkpoint_bytes(cfg, src_vocab, tgt_vocab, epochs, held_out, tokenizer, credits)
    return size <= MAX_CHECKPOINT_BYTES and model_numbers(cfg) <= MAX_MODEL_NUMBERS


def checkpoint_too_large(
    cfg: TransformerConfig,
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    epochs: int,
    held_out: int = 0,
    tokenizer=None,
    credits: Credits | None = None,
) -> int | None:
    """The pre-check of a training: None when the loader would accept its checkpoint (fits_in_a_checkpoint), else the
    upper bound of that checkpoint's size in bytes (checkpoint_bytes), for the message that refuses it."""
    if fits_in_a_checkpoint(cfg, src_vocab, tgt_vocab, epochs, held_out, tokenizer, credits):
        return None
    return checkpoint_bytes(cfg, src_vocab, tgt_vocab, epochs, held_out, tokenizer, credits)


def _bpe_json(bpe: Bpe) -> str:
    """A learned tokenizer as a checkpoint's metadata holds it."""
    return json.dumps(bpe.to_dict(), ensure_ascii=False)


def save_checkpoint(translator: Translator, path: str | Path | None = None) -> bytes:
    """The translator as .safetensors bytes (weights + metadata); also written to path when given."""
    saved = translator.model.saved_tensors()  # a tied projection is stored once, as the target embedding
    tensors = {k: v.detach().to("cpu", torch.float32).contiguous() for k, v in saved.items()}
    metadata = {
        "format": FORMAT,
        "format_version": str(FORMAT_VERSION),
        "config": json.dumps(translator.config.to_dict()),
        "src_vocab": json.dumps(list(translator.src_vocab.itos), ensure_ascii=False),
        "tgt_vocab": json.dumps(list(translator.tgt_vocab.itos), ensure_ascii=False),
        "tokenizer": translator.tokenizer if isinstance(translator.tokenizer, str) else translator.tokenizer.name,
        "summary": json.dumps(summary_to_dict(translator.summary), ensure_ascii=False),
    }
    if isinstance(translator.tokenizer, Bpe):
        metadata["bpe"] = _bpe_json(translator.tokenizer)
    tensors, metadata = spm_part.add_fields(translator, tensors, metadata)  # a SentencePiece model's
    data = _sorted_header(safetensors_save(tensors, metadata=metadata))
    if path is not None:
        Path(path).write_bytes(data)
    return data


def _sorted_header(data: bytes) -> bytes:
    """safetensors bytes with their header's keys sorted: the library writes the metadata in a random order, so the
    same model would give other bytes on every save."""
    (size,) = struct.unpack("<Q", data[:8])
    header = json.dumps(json.loads(data[8 : 8 + size]), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    text = header.encode()
    text += b" " * (-len(text) % 8)  # padded to 8 bytes, as the library pads it
    return struct.pack("<Q", len(text)) + text + data[8 + size :]


def _quoted(value: object) -> str:
    """A name or value from the file as a message quotes it: its repr, cut to QUOTED_CHARS (transformer.text.echo)."""
    return echo(repr(value), QUOTED_CHARS)


def _load_json(text: str) -> object:
    """json.loads(text), refused when it holds more values, lists and objects or levels than a checkpoint of this app
    ever has (so that parsing builds no millions of objects and recurses no deeper than that). ValueError says what is
    wrong, as words that follow a subject.

    Counting and parsing are linear in the text and run in C; the walk after them visits at most MAX_JSON_CONTAINERS
    containers: a header of MAX_HEADER_BYTES is refused or accepted in a fraction of a second, whatever it holds. (A
    regular expression that skips strings is quadratic on a quote followed by many escaped quotes.)"""
    if text.count(",") + text.count(":") > MAX_JSON_SEPARATORS:  # inside strings too: a bound, never too low
        raise ValueError(f"holds more than {MAX_JSON_SEPARATORS:,} values")
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"is nested more than {MAX_JSON_DEPTH} levels deep") from None
    except ValueError:  # JSONDecodeError, or a number of more digits than Python converts
        raise ValueError("is not valid JSON") from None
    _check_shape(value)
    return value


def _check_shape(value: object) -> None:
    """ValueError when value holds more than MAX_JSON_CONTAINERS lists and objects or is nested more than
    MAX_JSON_DEPTH levels deep; stops at the first container past either bound."""
    containers, level = 0, [value]
    for _ in range(MAX_JSON_DEPTH + 1):
        level = [item for item in level if isinstance(item, (dict, list))]
        containers += len(level)
        if containers > MAX_JSON_CONTAINERS:
            raise ValueError(f"holds more than {MAX_JSON_CONTAINERS:,} lists and objects")
        if not level:
            return
        level = [child for item in level for child in (item.values() if isinstance(item, dict) else item)]
    raise ValueError(f"is nested more than {MAX_JSON_DEPTH} levels deep")


def _header(data: bytes) -> dict:
    """The JSON header of safetensors bytes, with every tensor's byte range checked against the file."""
    if len(data) < 8:
        raise CheckpointError("the file is too short to be a .safetensors checkpoint.")
    (size,) = struct.unpack("<Q", data[:8])
    if size > MAX_HEADER_BYTES or size > len(data) - 8:
        raise CheckpointError(
            "this is not a .safetensors checkpoint (its header size is impossible): the file may be a pickle, "
            "truncated, or something else. Choose a .safetensors file saved by this app or its command line."
        )
    try:
        header = _load_json(data[8 : 8 + size].decode("utf-8"))
    except UnicodeDecodeError:
        raise CheckpointError(
            "the checkpoint header is not valid JSON: the file is damaged or not a checkpoint."
        ) from None
    except ValueError as exc:
        raise CheckpointError(f"the checkpoint header {exc}: the file is damaged or not a checkpoint.") from None
    if not isinstance(header, dict):
        raise CheckpointError("the checkpoint header is not a JSON object: the file is damaged or not a checkpoint.")
    body = len(data) - 8 - size
    end = 0
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
            raise CheckpointError(f"tensor {_quoted(name)} is described incorrectly in the header.")
        dtype, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
        if name in spm_part.TENSORS:  # a SentencePiece model's bytes
            spm_part.check_entry(name, dtype, shape)
        elif dtype not in _DTYPE_SIZES:
            raise CheckpointError(
                f"tensor {_quoted(name)} has dtype {_quoted(dtype)}; checkpoints of this app hold float32 only."
            )
        if not (isinstance(shape, list) and all(isinstance(d, int) and d >= 0 for d in shape)):
            raise CheckpointError(f"tensor {_quoted(name)} has an invalid shape.")
        if not (isinstance(offsets, list) and len(offsets) == 2 and all(isinstance(o, int) for o in offsets)):
            raise CheckpointError(f"tensor {_quoted(name)} has invalid data offsets.")
        begin, stop = offsets
        if not 0 <= begin <= stop <= body or stop - begin != math.prod(shape) * _DTYPE_SIZES.get(dtype, 1):
            raise CheckpointError(
                f"tensor {_quoted(name)} does not fit in the file: the checkpoint is truncated or damaged."
            )
        end = max(end, stop)
    if end != body:
        raise CheckpointError("the checkpoint's size does not match its header: the file is truncated or damaged.")
    return header


def _json_field(metadata: dict, key: str):
    if key not in metadata:
        raise CheckpointError(f"the checkpoint metadata lacks {key!r}.")
    if not isinstance(metadata[key], str):
        raise CheckpointError(f"the checkpoint metadata field {key!r} is not text.")
    try:
        return _load_json(metadata[key])
    except ValueError as exc:
        raise CheckpointError(f"the checkpoint metadata field {key!r} {exc}.") from None


def _vocab(metadata: dict, key: str, size: int, specials: Specials = OUR_SPECIALS) -> Vocab:
    """The vocabulary in metadata[key]: a list of size distinct non-empty tokens with the special tokens in place."""
    side = {"src_vocab": "source", "tgt_vocab": "target"}[key]
    itos = _json_field(metadata, key)
    if not isinstance(itos, list) or not all(isinstance(token, str) and token for token in itos):
        raise CheckpointError(f"the checkpoint's {side} vocabulary is not a list of tokens (non-empty text).")
    if len(itos) != size:
        raise CheckpointError("the checkpoint's vocabularies do not match the sizes in its config.")
    if any(len(token) > MAX_TOKEN_CHARS for token in itos):
        raise CheckpointError(
            f"the checkpoint's {side} vocabulary has a token longer than {MAX_TOKEN_CHARS} characters, "
            "which this app never makes."
        )
    try:
        return Vocab(tuple(itos), specials)
    except TransformerError as exc:
        raise CheckpointError(f"the checkpoint's {side} vocabulary is invalid: {exc}") from None


def _bpe(metadata: dict) -> Bpe:
    """The learned tokenizer in metadata["bpe"] (its JSON bounded as every field's is, then every piece and merge
    checked by Bpe)."""
    learned = _json_field(metadata, "bpe")
    try:
        return Bpe.from_dict(learned)
    except DataError as exc:
        raise CheckpointError(f"the checkpoint's BPE tokenizer is invalid: {exc}") from None


# ---------------------------------------------------------------- the training summary
# Every field a summary may have, with its check and what the check wants (the words of the warning when a field
# fails it). A new field is one line here.


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _finite(value) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def _fraction(value) -> bool:
    return _finite(value) and 0 <= value <= 1


def _record(value) -> bool:
    """One epoch of the history: every required field, and only known fields, each of the right kind."""
    return (
        isinstance(value, dict)
        and all(name in value for name, (_, required) in HISTORY_FIELDS.items() if required)
        and all(name in HISTORY_FIELDS and HISTORY_FIELDS[name][0](v) for name, v in value.items())
    )


def _history(value) -> bool:
    return isinstance(value, list) and all(_record(r) for r in value)


def _train_config(value) -> bool:
    if not isinstance(value, dict) or "device" in value:  # the device is where it ran, never saved
        return False
    try:
        TrainConfig(**value)
    except (TypeError, TransformerError):
        return False
    return True


def _rows(value) -> bool:
    return isinstance(value, list) and all(_whole(v) for v in value)


MAX_HELD_OUT_ITEMS = 100  # the split's held-out combinations or words a summary keeps (the first ones)
MAX_HELD_OUT_CHARS = 100  # the longest one


def _split(value) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"kind", "holdout", "seed", "held_out"}
        and value["kind"] in SPLITS
        and _fraction(value["holdout"])
        and value["holdout"] < 1
        and _whole(value["seed"])
        and isinstance(value["held_out"], list)
        and len(value["held_out"]) <= MAX_HELD_OUT_ITEMS
        and all(isinstance(v, str) and len(v) <= MAX_HELD_OUT_CHARS for v in value["held_out"])
    )


def _sha256(value) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value) is not None


def _credit(value) -> bool:
    """One line of printable text crediting the data (its licence and source), of at most MAX_CREDIT_CHARS."""
    return isinstance(value, str) and 0 < len(value) <= MAX_CREDIT_CHARS and value.isprintable()


def _train_scored(value) -> bool:
    """How many training pairs were scored (a sample) of how many: 1 ≤ scored ≤ of ≤ the pairs of a dataset and of
    the pairs trained besides (--also), each at most MAX_PAIRS."""
    return (
        isinstance(value, dict)
        and set(value) == {"scored", "of"}
        and _whole(value["scored"])
        and _whole(value["of"])
        and 1 <= value["scored"] <= value["of"] <= 2 * MAX_PAIRS
    )


def _scores(value) -> bool:
    """A score table (transformer.scores) of the known rows and parts only, so its size is bounded."""
    try:
        table = ScoreTable.from_dict(value)
    except (ValueError, TypeError, AttributeError):
        return False
    return set(table.rows) <= {ALL, *PHENOMENA} and set(table.parts) <= {ALL, *PARTS}


HISTORY_FIELDS = {  # name: (check, required)
    "epoch": (_whole, True),
    "loss": (_finite, True),
    "accuracy": (_fraction, True),
    "holdout_loss": (_finite, False),
    "holdout_accuracy": (_fraction, False),
    "seconds": (_finite, False),
    "step": (_whole, False),
    "lr": (_finite, False),
    "aer": (_fraction, False),  # the best cross-attention head's alignment error rate, and that head (from 0)
    "aer_layer": (_whole, False),
    "aer_head": (_whole, False),
}

_WHOLE = (_whole, "a whole number of at least 0")  # (check, what it wants), as SUMMARY_FIELDS holds them
_FINITE = (_finite, "a finite number")
_FRACTION = (_fraction, "a number from 0 to 1")

SUMMARY_FIELDS = {  # name: (check, what it wants); every field is optional
    "epochs": _WHOLE,
    "steps": _WHOLE,
    "loss": _FINITE,
    "accuracy": _FRACTION,
    "seconds": _FINITE,
    "exact_match": _FRACTION,
    "history": (_history, "a list of epoch records (epoch, loss, accuracy; holdout_loss, holdout_accuracy, seconds)"),
    "train_config": (_train_config, "training settings this app accepts"),
    "holdout_exact_match": _FRACTION,
    "holdout_rows": (_rows, "a list of row numbers"),
    "set_aside_rows": (_rows, "a list of row numbers"),
    "split": (_split, "a split (kind, holdout, seed, held_out)"),
    "data_sha256": (_sha256, "a SHA-256 in hexadecimal"),
    "always_trained": _WHOLE,
    "scores": (_scores, "a table of scores by phenomenon and part"),
    "data_credit": (_credit, f"one line of printable text of at most {MAX_CREDIT_CHARS} characters"),
    "train_scored": (_train_scored, f"a count of pairs scored of all (1 ≤ scored ≤ of ≤ {2 * MAX_PAIRS:,})"),
    "credits": (lambda v: unpack(v) is not None, "the data's credits, packed (transformer.credits)"),
}


def _summary(metadata: dict, warnings: list[str]) -> TrainingSummary:
    """The training summary in metadata; one that is not a small JSON object is dropped with a warning."""
    if "summary" not in metadata:
        return TrainingSummary()
    try:
        value = _json_field(metadata, "summary")
    except CheckpointError as exc:
        warnings.append(f"{str(exc)[:-1]}; the training summary was dropped.")
        return TrainingSummary()
    try:
        return summary_from_dict(value, warnings)
    except CheckpointError as exc:
        warnings.append(f"{str(exc)[:-1]}; it was dropped.")
        return TrainingSummary()


def summary_from_dict(value: object, warnings: list[str]) -> TrainingSummary:
    """The TrainingSummary of a checkpoint's summary JSON (parsed): every field checked (SUMMARY_FIELDS), each that is
    unknown or wrong dropped with a warning, the others typed; a field never recorded has its default, so every
    older checkpoint's summary loads. CheckpointError when value is not a JSON object."""
    if not isinstance(value, dict):
        raise CheckpointError("the checkpoint's training summary is not a JSON object.")
    kept = {}
    for name, field_value in value.items():
        if name not in SUMMARY_FIELDS:
            warnings.append(f"the training summary has an unknown field {_quoted(name)}; it was dropped.")
        elif not SUMMARY_FIELDS[name][0](field_value):
            warnings.append(f"the training summary's {name!r} is not {SUMMARY_FIELDS[name][1]}; it was dropped.")
        else:
            kept[name] = _TYPED.get(name, lambda v: v)(field_value)
    data = {name: kept.pop(name) for name in list(kept) if name in _DATA_FIELDS}
    return TrainingSummary(**kept, data=DataRecord(**data))


_DATA_FIELDS = {f.name for f in dataclasses.fields(DataRecord)}
_TYPED = {  # a checked field's JSON value → its type in TrainingSummary (a field not here is kept as it is)
    "history": lambda records: tuple(EpochRecord(**{"seconds": None, **r}) for r in records),
    "train_config": lambda settings: recorded_settings(TrainConfig(**settings)),  # threads: where it ran
    "holdout_rows": tuple,
    "set_aside_rows": tuple,
    "split": lambda made: SplitRecord(made["kind"], made["holdout"], made["seed"], tuple(made["held_out"])),
    "scores": ScoreTable.from_dict,
    "train_scored": lambda made: TrainScored(made["scored"], made["of"]),
    "credits": unpack,
}


def summary_to_dict(summary: TrainingSummary) -> dict:
    """The summary as a checkpoint's JSON holds it: one flat object of the fields that are not at their default
    (an untrained model's is {}), the inverse of summary_from_dict."""
    empty = TrainingSummary()
    values = {f.name: getattr(summary, f.name) for f in dataclasses.fields(summary) if f.name != "data"}
    values |= {name: getattr(summary.data, name) for name in _DATA_FIELDS}
    defaults = {name: getattr(empty, name, getattr(empty.data, name, None)) for name in values}
    return {name: _json_value(value) for name, value in values.items() if value != defaults[name]}


def _json_value(value: object) -> object:
    """A typed field of a summary as JSON values (lists, objects, numbers, text)."""
    if isinstance(value, (TrainConfig, ScoreTable)):
        return value.to_dict()
    if isinstance(value, EpochRecord):  # no snapshot; a figure only when recorded
        figures = ((f.name, getattr(value, f.name)) for f in dataclasses.fields(value) if f.name != "snapshot")
        return {name: figure for name, figure in figures if figure is not None}
    if isinstance(value, SplitRecord):
        return {"kind": value.kind, "holdout": value.holdout, "seed": value.seed, "held_out": list(value.held_out)}
    if isinstance(value, TrainScored):
        return {"scored": value.scored, "of": value.of}
    if isinstance(value, Credits):
        return pack(value)
    if isinstance(value, tuple):
        return [_json_value(item) for item in value]
    return value


# ---------------------------------------------------------------- loading


def load_checkpoint(source: str | Path | bytes, warnings: list[str] | None = None) -> Translator:
    """A Translator from a .safetensors path or bytes; anything else is refused with CheckpointError.

    Summary fields that are unknown or wrong are dropped; a sentence for each is appended to warnings when given.
    """
    warnings = [] if warnings is None else warnings
    if isinstance(source, (str, Path)):
        data = read_limited(source, MAX_CHECKPOINT_BYTES, "a .safetensors checkpoint", CheckpointError)
    else:
        data = bytes(source)
    if len(data) > MAX_CHECKPOINT_BYTES:
        raise CheckpointError(
            f"the file is larger than {MAX_CHECKPOINT_BYTES:,} bytes; it is not a checkpoint of this app."
        )
    header = _header(data)
    metadata = header.get("__metadata__")
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
        raise CheckpointError(
            "this .safetensors file was not saved by this app: its metadata does not name our format."
        )
    if metadata.get("format_version") != str(FORMAT_VERSION):
        raise CheckpointError(
            f"checkpoint format version {_quoted(metadata.get('format_version'))} is not supported "
            f"(this app reads {FORMAT_VERSION})."
        )
    config = _json_field(metadata, "config")
    try:
        cfg = TransformerConfig.from_dict(config)
        check_project_sizes(cfg)  # a pretrained model's larger vocabularies are not a checkpoint's
    except TransformerError as exc:
        raise CheckpointError(f"the checkpoint metadata is invalid: {exc}") from None
    if model_numbers(cfg) > MAX_MODEL_NUMBERS:  # before anything is built: a config that lies allocates nothing
        raise CheckpointError(
            f"the checkpoint's config describes a model of {parameter_count(cfg):,} parameters and "
            f"{buffer_count(cfg):,} numbers of positional tables, more than a checkpoint of at most "
            f"{MAX_CHECKPOINT_BYTES:,} bytes can hold: the metadata does not match the weights."
        )
    tokenizer = metadata.get("tokenizer")
    spm = tokenizer == "sentencepiece"  # a Marian model's: its own special tokens, its models' bytes as tensors
    specials = spm_part.specials_of(_json_field(metadata, "specials")) if spm else OUR_SPECIALS
    src_vocab = _vocab(metadata, "src_vocab", cfg.src_vocab_size, specials)
    tgt_vocab = _vocab(metadata, "tgt_vocab", cfg.tgt_vocab_size, specials)
    if tokenizer not in TOKENIZERS and not spm:
        raise CheckpointError(f"the checkpoint names an unknown tokenizer {_quoted(tokenizer)}.")
    if tokenizer == Bpe.name:
        tokenizer = _bpe(metadata)
    summary = _summary(metadata, warnings)

    found = {k: tuple(v["shape"]) for k, v in header.items() if k != "__metadata__" and k not in spm_part.TENSORS}
    spm_part.check_names(header, spm)  # both models' bytes with a SentencePiece tokenizer, none with another
    model = Transformer(cfg)  # at most MAX_MODEL_NUMBERS numbers, like the tensors of a file of the largest size
    expected = {k: tuple(v.shape) for k, v in model.saved_tensors().items()}
    if expected != found:
        missing, extra = sorted(set(expected) - set(found)), sorted(set(found) - set(expected))
        wrong = sorted(k for k in set(expected) & set(found) if expected[k] != found[k])
        detail = "; ".join(
            f"{label}: {', '.join(names[:3])}{' …' if len(names) > 3 else ''}"
            for label, names in (("missing", missing), ("unexpected", extra), ("wrong shape", wrong))
            if names
        )
        raise CheckpointError(f"the checkpoint's tensors do not match its config ({detail}).")
    try:
        tensors = safetensors_load(data)
    except Exception as exc:  # the safetensors parser's own refusal
        raise CheckpointError(f"the checkpoint could not be read: {exc}.") from None
    tokenizer = spm_part.read_tokenizer({k: tensors.pop(k) for k in spm_part.TENSORS}) if spm else tokenizer
    if not all(torch.isfinite(t).all() for t in tensors.values()):
        raise CheckpointError("the checkpoint's weights contain NaN or infinity.")
    model.load_saved_tensors(tensors)  # names checked above; a tied projection is the embedding again
    model.eval()
    return Translator(model, src_vocab, tgt_vocab, tokenizer, summary)
