"""What the checkpoint tests share: the parts of safetensors bytes, a checkpoint with its config changed, and the
assertion that a load is refused with a readable one-line CheckpointError."""

from __future__ import annotations

import json
import struct

import pytest
import torch
from safetensors.torch import load as st_load
from safetensors.torch import save as st_save

from transformer.checkpoint import load_checkpoint
from transformer.errors import CheckpointError


def parts(data: bytes) -> tuple[dict[str, torch.Tensor], dict[str, str]]:
    """The tensors and the metadata of safetensors bytes."""
    (size,) = struct.unpack("<Q", data[:8])
    return st_load(data), json.loads(data[8 : 8 + size])["__metadata__"]


def with_config(data: bytes, **changes) -> bytes:
    """The same checkpoint with its config's fields changed."""
    tensors, metadata = parts(data)
    metadata["config"] = json.dumps({**json.loads(metadata["config"]), **changes})
    return st_save(tensors, metadata=metadata)


def refused(source, match: str | None = None) -> str:
    """Assert that loading source raises CheckpointError with a readable message; return the message."""
    with pytest.raises(CheckpointError) as info:
        load_checkpoint(source)
    message = str(info.value)
    assert len(message) > 20 and "\n" not in message
    if match is not None:
        assert match in message, message
    return message
