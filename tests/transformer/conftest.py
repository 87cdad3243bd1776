"""Fixtures of the package's tests."""

from __future__ import annotations

import pytest

from transformer.checkpoint import save_checkpoint


@pytest.fixture(scope="module")
def ckpt(trained_seed) -> bytes:
    """The checkpoint of the model trained on the seed pair, as bytes."""
    return save_checkpoint(trained_seed)
