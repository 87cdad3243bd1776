"""A small encoder–decoder Transformer to learn from: data, masks, model, training, greedy decoding, checkpoints.

This package never imports streamlit; the app in app.py and pages/ is a thin UI on top of it.

`import transformer` imports nothing else: each name below is imported from its module on first use (PEP 562), so
the command line's help, `store list` and the classroom script answer without importing torch (seconds).
"""

from __future__ import annotations

import importlib
import sys
import types

_EXPORTS = {  # module → the names the package gives
    "config": ("TrainConfig", "TransformerConfig"),
    "data": ("BOS", "EOS", "PAD", "SPECIALS", "UNK", "Batch", "Vocab", "build_vocabs", "make_data", "tokenize"),
    "decoding": ("DecodeStep", "Translation", "greedy_decode"),
    "errors": ("CheckpointError", "ConfigError", "DataError", "StoreError", "TransformerError"),
    "masks": ("get_attn_pad_mask", "get_attn_subsequence_mask", "get_dec_enc_attn_mask", "get_dec_self_attn_mask"),
    "model": ("AttentionMaps", "Transformer", "positional_encoding_table"),
    "train": ("EpochRecord", "train"),
    "translator": ("Translator",),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_HOME)


def __getattr__(name: str):
    """A name of the package, imported from its module the first time it is asked for."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """The package, whose `train` stays the function: importing the module transformer.train sets the package's
    attribute of that name to the module (the import system does), which would hide the function."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _HOME and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
