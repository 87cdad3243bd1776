"""Model and training settings (frozen, validated) and the app-wide limits."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .errors import ConfigError

# limits, in one place: the app, the command line and the checkpoint loader share them
MAX_TOKENS = 40  # longest sentence, in tokens, accepted for training
MAX_PAIRS = 200  # most sentence pairs in one dataset
MAX_TYPED_CHARS = 400  # longest sentence typed into the app
MAX_DECODE_LEN = 50  # greedy decoding stops here if E never comes
MAX_BEAM_SIZE = 10  # most beams in beam search
MAX_POSITIONS = 128  # rows in the positional-encoding table of models built here
MAX_LEN_LIMIT = 10_000  # largest max_len a config (or a checkpoint) may ask for
MAX_DATA_BYTES = 1_000_000  # largest pairs file accepted
MAX_CHECKPOINT_BYTES = 50_000_000  # largest checkpoint accepted


def _check_positive(obj, names: tuple[str, ...]) -> None:
    for name in names:
        value = getattr(obj, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(f"{name} must be a positive whole number, got {value!r}.")


@dataclass(frozen=True)
class TransformerConfig:
    """Every size of the model; d_k and d_v default to d_model // n_heads."""

    src_vocab_size: int
    tgt_vocab_size: int
    d_model: int = 64  # embedding size
    d_ff: int = 128  # hidden size of the position-wise feed-forward net
    n_heads: int = 4  # attention heads per layer
    n_layers: int = 2  # encoder layers and decoder layers (each)
    d_k: int | None = None  # size of a query/key per head
    d_v: int | None = None  # size of a value per head
    dropout: float = 0.0  # tiny datasets are memorised fastest without it
    max_len: int = MAX_POSITIONS  # longest sequence the positional table covers

    def __post_init__(self) -> None:
        _check_positive(self, ("src_vocab_size", "tgt_vocab_size", "d_model", "d_ff", "n_heads", "n_layers", "max_len"))
        for name in ("d_k", "d_v"):
            if getattr(self, name) is None:
                if self.d_model % self.n_heads:
                    raise ConfigError(
                        f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads}), "
                        f"or give {name} explicitly."
                    )
                object.__setattr__(self, name, self.d_model // self.n_heads)
        _check_positive(self, ("d_k", "d_v"))
        if self.max_len > MAX_LEN_LIMIT:
            raise ConfigError(f"max_len must be at most {MAX_LEN_LIMIT:,}, got {self.max_len:,}.")
        if not isinstance(self.dropout, (int, float)) or not 0.0 <= self.dropout < 1.0:
            raise ConfigError(f"dropout must be at least 0 and below 1, got {self.dropout!r}.")

    def to_dict(self) -> dict:
        """Plain dict for JSON metadata."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> TransformerConfig:
        """Rebuild from to_dict(); unknown or missing fields raise ConfigError."""
        if not isinstance(data, dict):
            raise ConfigError("the model config must be a JSON object.")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ConfigError(f"unknown config field(s): {', '.join(sorted(unknown))}.")
        try:
            return cls(**data)
        except TypeError as exc:
            raise ConfigError(f"incomplete model config: {exc}.") from None


@dataclass(frozen=True)
class TrainConfig:
    """Optimiser settings; the defaults fit up to 50 short pairs in seconds."""

    epochs: int = 60
    lr: float = 3e-3
    batch_size: int = 16
    seed: int = 0
    device: str | None = None  # None: CUDA when available, else CPU

    def __post_init__(self) -> None:
        _check_positive(self, ("epochs", "batch_size"))
        if not isinstance(self.lr, (int, float)) or not 0.0 < self.lr <= 1.0:
            raise ConfigError(f"lr must be above 0 and at most 1, got {self.lr!r}.")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ConfigError(f"seed must be a whole number of at least 0, got {self.seed!r}.")
