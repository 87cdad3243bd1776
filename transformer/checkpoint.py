"""Checkpoints: one .safetensors file with the weights and JSON metadata. Loading never unpickles.

Every file is checked before any tensor is built from it: the 8-byte header length, the JSON header,
each tensor's dtype, shape and byte range, and the metadata (format, config, vocabularies) against the
tensors. Anything else is refused with a CheckpointError that says what is wrong.
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import torch
from safetensors.torch import load as safetensors_load
from safetensors.torch import save as safetensors_save

from .config import MAX_CHECKPOINT_BYTES, TransformerConfig
from .data import TOKENIZERS, Vocab
from .errors import CheckpointError, TransformerError
from .model import Transformer, parameter_count
from .translator import Translator

FORMAT = "transformer-playground"
FORMAT_VERSION = 1
MAX_HEADER_BYTES = 2_000_000
_DTYPE_SIZES = {"F32": 4}  # we only ever write float32


def save_checkpoint(translator: Translator, path: str | Path | None = None) -> bytes:
    """The translator as .safetensors bytes (weights + metadata); also written to path when given."""
    tensors = {k: v.detach().to("cpu", torch.float32).contiguous() for k, v in translator.model.state_dict().items()}
    metadata = {
        "format": FORMAT,
        "format_version": str(FORMAT_VERSION),
        "config": json.dumps(translator.config.to_dict()),
        "src_vocab": json.dumps(list(translator.src_vocab.itos), ensure_ascii=False),
        "tgt_vocab": json.dumps(list(translator.tgt_vocab.itos), ensure_ascii=False),
        "tokenizer": translator.tokenizer,
        "summary": json.dumps(translator.summary, ensure_ascii=False),
    }
    data = safetensors_save(tensors, metadata=metadata)
    if path is not None:
        Path(path).write_bytes(data)
    return data


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
        header = json.loads(data[8 : 8 + size].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise CheckpointError(
            "the checkpoint header is not valid JSON: the file is damaged or not a checkpoint."
        ) from None
    if not isinstance(header, dict):
        raise CheckpointError("the checkpoint header is not a JSON object: the file is damaged or not a checkpoint.")
    body = len(data) - 8 - size
    end = 0
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
            raise CheckpointError(f"tensor {name!r} is described incorrectly in the header.")
        dtype, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
        if dtype not in _DTYPE_SIZES:
            raise CheckpointError(f"tensor {name!r} has dtype {dtype!r}; checkpoints of this app hold float32 only.")
        if not (isinstance(shape, list) and all(isinstance(d, int) and d >= 0 for d in shape)):
            raise CheckpointError(f"tensor {name!r} has an invalid shape {shape!r}.")
        if not (isinstance(offsets, list) and len(offsets) == 2 and all(isinstance(o, int) for o in offsets)):
            raise CheckpointError(f"tensor {name!r} has invalid data offsets.")
        begin, stop = offsets
        if not 0 <= begin <= stop <= body or stop - begin != math.prod(shape) * _DTYPE_SIZES[dtype]:
            raise CheckpointError(f"tensor {name!r} does not fit in the file: the checkpoint is truncated or damaged.")
        end = max(end, stop)
    if end != body:
        raise CheckpointError("the checkpoint's size does not match its header: the file is truncated or damaged.")
    return header


def _json_field(metadata: dict, key: str):
    try:
        return json.loads(metadata[key])
    except KeyError:
        raise CheckpointError(f"the checkpoint metadata lacks {key!r}.") from None
    except (TypeError, json.JSONDecodeError):
        raise CheckpointError(f"the checkpoint metadata field {key!r} is not valid JSON.") from None


def load_checkpoint(source: str | Path | bytes) -> Translator:
    """A Translator from a .safetensors path or bytes; anything else is refused with CheckpointError."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            if path.stat().st_size > MAX_CHECKPOINT_BYTES:
                raise CheckpointError(
                    f"{path.name} is larger than {MAX_CHECKPOINT_BYTES:,} bytes; it is not a checkpoint of this app."
                )
            data = path.read_bytes()
        except OSError as exc:
            raise CheckpointError(f"cannot read {path}: {exc.strerror or exc}.") from None
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
            f"checkpoint format version {metadata.get('format_version')!r} is not supported "
            f"(this app reads {FORMAT_VERSION})."
        )
    try:
        cfg = TransformerConfig.from_dict(_json_field(metadata, "config"))
        src_vocab = Vocab(tuple(_json_field(metadata, "src_vocab")))
        tgt_vocab = Vocab(tuple(_json_field(metadata, "tgt_vocab")))
    except TransformerError as exc:
        raise CheckpointError(f"the checkpoint metadata is invalid: {exc}") from None
    except TypeError:
        raise CheckpointError("the checkpoint vocabularies are not lists of tokens.") from None
    if (len(src_vocab), len(tgt_vocab)) != (cfg.src_vocab_size, cfg.tgt_vocab_size):
        raise CheckpointError("the checkpoint's vocabularies do not match the sizes in its config.")
    tokenizer = metadata.get("tokenizer")
    if tokenizer not in TOKENIZERS:
        raise CheckpointError(f"the checkpoint names an unknown tokenizer {tokenizer!r}.")
    summary = _json_field(metadata, "summary")
    if not isinstance(summary, dict):
        raise CheckpointError("the checkpoint's training summary is not a JSON object.")

    found = {k: tuple(v["shape"]) for k, v in header.items() if k != "__metadata__"}
    largest = MAX_CHECKPOINT_BYTES // 4  # float32 numbers in the largest file we accept
    if parameter_count(cfg) > largest:  # checked before building: a config that lies about sizes allocates little
        raise CheckpointError(
            f"the checkpoint's config describes a model with {parameter_count(cfg):,} parameters, more than a "
            f"checkpoint of at most {MAX_CHECKPOINT_BYTES:,} bytes can hold: the metadata does not match the weights."
        )
    model = Transformer(cfg)
    expected = {k: tuple(v.shape) for k, v in model.state_dict().items()}
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
    if not all(torch.isfinite(t).all() for t in tensors.values()):
        raise CheckpointError("the checkpoint's weights contain NaN or infinity.")
    model.load_state_dict(tensors, strict=True)
    model.eval()
    return Translator(model, src_vocab, tgt_vocab, tokenizer, summary)
