"""A SentencePiece tokenizer (a Marian model's, opened or trained further) in a checkpoint of this app.

Its two models' bytes are two 1-D uint8 tensors beside the weights (TENSORS: binary, so the header stays small
and the bytes are read without a decoder), and its vocabulary's special tokens one JSON field of the metadata
("specials": pad, bos, eos, unk). A checkpoint of any other tokenizer has neither, so its bytes are as before.
Loading checks each tensor's dtype, shape and size in the header (check_entry) before anything is read, then
lets sentencepiece parse the bytes (a damaged or hostile model is one CheckpointError).
"""

from __future__ import annotations

from .config import MAX_CHECKPOINT_BYTES, MAX_VOCAB_SIZE, check_project_sizes
from .data import Specials
from .errors import CheckpointError, ConfigError, DataError
from .spm import MAX_SPM_BYTES

TENSORS = {"sentencepiece.source": "source_model", "sentencepiece.target": "target_model"}  # name: field
SPM_DTYPE = "U8"
_ROLES = ("pad", "bos", "eos", "unk")


def is_sentencepiece(tokenizer: object) -> bool:
    """Whether tokenizer is a SentencePiece tokenizer (transformer.spm), without importing sentencepiece."""
    return getattr(tokenizer, "name", None) == "sentencepiece"


def model_bytes(tokenizer: object) -> int:
    """The bytes a checkpoint spends on tokenizer's models (0 for any other tokenizer)."""
    return len(tokenizer.source_model) + len(tokenizer.target_model) if is_sentencepiece(tokenizer) else 0


def over_checkpoint_limits(translator) -> dict[str, str] | None:
    """None when a checkpoint of this app can hold translator; else the figures that say why not, from the sizes
    alone (a pretrained model's weights over MAX_CHECKPOINT_BYTES, or a size over SIZE_LIMITS such as its
    vocabulary over MAX_VOCAB_SIZE): size, limit, vocab, vocab_limit, as the message shows them."""
    from .model import buffer_count, parameter_count

    cfg = translator.config
    size = 4 * (parameter_count(cfg) + buffer_count(cfg)) + model_bytes(translator.tokenizer)
    try:
        check_project_sizes(cfg)
    except ConfigError:
        pass
    else:
        if size <= MAX_CHECKPOINT_BYTES:
            return None
    vocab = max(cfg.src_vocab_size, cfg.tgt_vocab_size)
    return {
        "size": f"{size:,}",
        "limit": f"{MAX_CHECKPOINT_BYTES:,}",
        "vocab": f"{vocab:,}",
        "vocab_limit": f"{MAX_VOCAB_SIZE:,}",
    }


def add_fields(translator, tensors: dict, metadata: dict[str, str]) -> tuple[dict, dict[str, str]]:
    """A checkpoint's tensors and metadata, with what a SentencePiece tokenizer adds when translator has one: its two
    models' bytes as uint8 tensors, its vocabulary's special tokens as the "specials" field."""
    import json

    import torch

    tokenizer, specials = translator.tokenizer, translator.tgt_vocab.specials
    if not is_sentencepiece(tokenizer):
        return tensors, metadata
    models = {
        name: torch.frombuffer(bytearray(getattr(tokenizer, f)), dtype=torch.uint8) for name, f in TENSORS.items()
    }
    roles = json.dumps({role: getattr(specials, role) for role in _ROLES}, ensure_ascii=False)
    return tensors | models, metadata | {"specials": roles}


def check_entry(name: str, dtype: object, shape: object) -> None:
    """CheckpointError unless the header's entry of a SentencePiece model is one row of at most MAX_SPM_BYTES
    bytes."""
    if dtype != SPM_DTYPE:
        raise CheckpointError(f"the checkpoint's {name} has dtype {str(dtype)[:20]!r}; it must be bytes ({SPM_DTYPE}).")
    if not (isinstance(shape, list) and len(shape) == 1 and type(shape[0]) is int and 0 < shape[0] <= MAX_SPM_BYTES):
        raise CheckpointError(
            f"the checkpoint's {name} is not one row of 1 to {MAX_SPM_BYTES:,} bytes: the file is damaged."
        )


def check_names(names, spm: bool) -> None:
    """CheckpointError unless the checkpoint's tensor names hold both models' bytes when its tokenizer is
    SentencePiece (spm), and neither otherwise."""
    if set(TENSORS) & set(names) != (set(TENSORS) if spm else set()):
        raise CheckpointError("the checkpoint's SentencePiece models do not match its tokenizer: the file is damaged.")


def specials_of(value: object) -> Specials:
    """The Specials of a checkpoint's "specials" field (parsed JSON): pad, bos, eos and unk, each a token."""
    if not (
        isinstance(value, dict) and set(value) == set(_ROLES) and all(isinstance(v, str) and v for v in value.values())
    ):
        raise CheckpointError("the checkpoint's special tokens are not pad, bos, eos and unk, each a token.")
    return Specials(**value, reserved=())


def read_tokenizer(tensors: dict):
    """The SentencePiece tokenizer of the checkpoint's tensors (their entries checked by check_entry); a model
    sentencepiece cannot parse is a CheckpointError."""
    from .spm import SentencePiece

    models = {field: tensors[name].numpy().tobytes() for name, field in TENSORS.items()}
    try:
        return SentencePiece(**models)
    except DataError as exc:
        raise CheckpointError(f"the checkpoint's {str(exc).removeprefix('the ')}") from None  # its source model …
