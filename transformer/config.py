"""Model and training settings (frozen, validated) and the app-wide limits."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .errors import ConfigError
from .text import echo

SHOWN_CHARS = 40  # the most of a refused value a message repeats (a checkpoint's or a flag's may be huge)


def _shown(value: object) -> str:
    """A refused value as a message repeats it: its repr, cut (transformer.text.echo)."""
    return echo(repr(value), SHOWN_CHARS)


# limits, in one place: the app, the command line and the checkpoint loader share them
MAX_TOKENS = 40  # longest sentence, in tokens, accepted for training
MAX_PAIRS = 50_000  # most sentence pairs in one dataset
MAX_COLUMNS = 10  # most columns in a pairs file (transformer.columns)
MAX_CREDIT_CHARS = 300  # longest line crediting a dataset (its attribution) that a checkpoint keeps
MAX_TOKEN_CHARS = 32  # longest token, in characters, accepted for training (bounds a checkpoint's vocabularies)
# most tokens in a vocabulary, the 4 special tokens included (check_pairs refuses data with more on one side): room for
# the English side of MAX_PAIRS long-ish pairs, whose cased words and punctuation run to some 10,000-20,000 distinct
# tokens; Chinese by character stays in the thousands
MAX_VOCAB_SIZE = 30_000
# most pieces a byte-pair-encoding tokenizer may learn (--vocab-size; its pieces and the special tokens fit a
# vocabulary of MAX_VOCAB_SIZE); the paper learns 37,000 from 4.5 million pairs, our datasets are far smaller
MAX_BPE_VOCAB_SIZE = 16_000
MAX_BATCH_SIZE = 200  # most pairs in one training batch (the logits of a batch are batch × 41 × vocabulary floats)
MAX_EPOCHS = 5_000  # most epochs in one training (bounds the history a checkpoint carries)
MAX_SEED = 2**31 - 1  # seeds are 0 … MAX_SEED
MAX_TYPED_CHARS = 400  # longest sentence typed into the app
MAX_DECODE_LEN = 50  # greedy decoding stops here if E never comes
MAX_BEAM_SIZE = 10  # most beams in beam search
MAX_LENGTH_PENALTY = 10.0  # largest length penalty α (the paper uses 0.6; lp(50 tokens) is then 4·10⁹)
MAX_STUDY_PAIRS = 200  # pairs read at once by the app's views of the whole dataset (head statistics, beam vs greedy)
# the largest model whose saliency the Attention page measures on its pairs: one backward pass through the whole model
# per target token of every pair (a real translator's 77M parameters: minutes on a laptop; the command line's align)
SALIENCY_MAX_PARAMS = 5_000_000
MAX_POSITIONS = 128  # rows in the positional-encoding table of models built here
MAX_LEN_LIMIT = 10_000  # largest max_len a config (or a checkpoint) may ask for
MIN_LEN = 2  # smallest max_len: one source token, and S plus one output token in the decoder
# largest pairs file accepted: MAX_PAIRS everyday pairs in the Tatoeba/Anki format (English, Chinese, an attribution
# text) at 300 bytes a line. The 172 lines of tests/fixtures/everyday_cmn_eng.txt take 122 bytes on average and 149 at
# most (the attribution ~80 of them), so this is twice the longest: room for the longer sentences at the end of a
# real cmn-eng.txt (docs/robustness.md)
MAX_DATA_BYTES = 15_000_000
MAX_CHECKPOINT_BYTES = 50_000_000  # largest checkpoint accepted
# pretrained models opened from elsewhere (transformer.marian): a real opus-mt model has a shared vocabulary of some
# 60,000 pieces (opus-mt-zh-en: 65,001) and ~77 million parameters (~300 MB of float32); a checkpoint of this project
# stays within SIZE_LIMITS and MAX_CHECKPOINT_BYTES
MAX_PRETRAINED_VOCAB_SIZE = 256_000  # most tokens in a pretrained model's vocabulary
MAX_PRETRAINED_PARAMETERS = 300_000_000  # most parameters of a pretrained model (1.2 GB of float32)

PE_KINDS = ("sinusoidal", "learned", "none")  # positional encoding: the paper's table, a trained table, nothing
# the sinusoidal table's layout: sin and cos interleaved (the paper: sin at even dimensions, cos at odd ones), or all
# the sines in the first half and the cosines in the second (Marian, Hugging Face's MarianSinusoidalPositionalEmbedding)
PE_LAYOUTS = ("interleaved", "halves")
ACTIVATIONS = ("relu", "swish", "gelu")  # the feed-forward net's nonlinearity: the paper's ReLU, Marian's swish (SiLU)
NORM_KINDS = ("post", "pre", "none")  # LayerNorm after the residual sum (the paper), before each sublayer, or none
ALIGN_METHODS = ("attention", "average", "norm", "saliency")  # how transformer.alignment reads links from a model
SWITCHES = ("look_ahead_mask", "pad_mask", "pe", "scale", "residual", "norm")  # the architecture switches, as named


def _check_positive(obj, names: tuple[str, ...]) -> None:
    for name in names:
        value = getattr(obj, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(f"{name} must be a positive whole number, got {_shown(value)}.")


# the largest value of every size field: no config builds something absurd, however few parameters it has
# (the checkpoint loader also bounds parameters + buffers by MAX_CHECKPOINT_BYTES)
SIZE_LIMITS = {
    "src_vocab_size": MAX_VOCAB_SIZE,
    "tgt_vocab_size": MAX_VOCAB_SIZE,
    "d_model": 4096,
    "d_ff": 16384,
    "n_heads": 64,
    "n_layers": 24,
    "n_dec_layers": 24,
    "d_k": 4096,
    "d_v": 4096,
    "max_len": MAX_LEN_LIMIT,
}
# the largest sizes of a pretrained model (transformer.marian): larger vocabularies, the other sizes as above; its
# parameters are bounded by MAX_PRETRAINED_PARAMETERS
PRETRAINED_SIZE_LIMITS = SIZE_LIMITS | {
    "src_vocab_size": MAX_PRETRAINED_VOCAB_SIZE,
    "tgt_vocab_size": MAX_PRETRAINED_VOCAB_SIZE,
}
TRAIN_LIMITS = {"epochs": MAX_EPOCHS, "batch_size": MAX_BATCH_SIZE, "seed": MAX_SEED}
MODEL_SIZES = ("d_model", "n_heads", "d_ff", "n_layers")  # the sizes a learner chooses, in the Train page's order


def model_sizes(source, dropout: bool = False) -> dict:
    """The model's sizes by name (MODEL_SIZES, then dropout when asked), read from anything that has them as
    attributes: a TransformerConfig, the app's session."""
    return {name: getattr(source, name) for name in (*MODEL_SIZES, *(("dropout",) if dropout else ()))}


def heads_dividing(d_model: int, choices=None) -> list[int]:
    """The head counts that divide d_model (each head then gets d_k = d_model / n_heads): those of choices, or every
    count up to the limit."""
    choices = range(1, SIZE_LIMITS["n_heads"] + 1) if choices is None else choices
    return [h for h in choices if d_model % h == 0]


def _check_at_most(obj, limits: dict[str, int]) -> None:
    for name, limit in limits.items():
        value = getattr(obj, name)
        if isinstance(value, int) and value > limit:
            raise ConfigError(f"{name} must be at most {limit:,}, got {echo(f'{value:,}', SHOWN_CHARS)}.")


def check_project_sizes(cfg) -> None:
    """ConfigError unless every size of cfg is within SIZE_LIMITS: what a model of this project (and its checkpoint)
    may be. A config itself admits a pretrained model's larger vocabularies (PRETRAINED_SIZE_LIMITS)."""
    _check_at_most(cfg, SIZE_LIMITS)


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
    # architecture switches for experiments; the defaults are the paper's architecture (see model.py for the three
    # details that follow the tutorials instead)
    look_ahead_mask: bool = True  # decoder self-attention cannot see later positions
    pad_mask: bool = True  # no query attends to padding
    pe: str = "sinusoidal"  # positional encoding: one of PE_KINDS
    scale: bool = True  # scores are divided by √d_k
    residual: bool = True  # x + sublayer(x) around every sublayer
    norm: str = "post"  # where LayerNorm sits: one of NORM_KINDS
    # two details of the paper's recipe that the tutorials leave out (off by default; see RECIPE_FIELDS)
    emb_scale: bool = False  # the embeddings are multiplied by √d_model
    tie_output: bool = False  # the output projection is the target embedding matrix itself (one tensor)
    # what a pretrained Marian (opus-mt) model needs besides (transformer.marian); the defaults change nothing
    n_dec_layers: int | None = None  # decoder layers, when not as many as the encoder's (None: n_layers)
    activation: str = "relu"  # the feed-forward net's nonlinearity: one of ACTIVATIONS
    logits_bias: bool = False  # a learned bias is added to every logit (Marian's final_logits_bias)
    share_embeddings: bool = False  # one vocabulary for both sides: the source embedding is the target embedding
    pe_layout: str = "interleaved"  # how the sinusoidal table lays out its sines and cosines: one of PE_LAYOUTS
    pad_id: int = 0  # the id of padding, which the masks block (here P, id 0; Marian: its <pad>, the last id)
    decoder_start_id: int | None = None  # the decoder's first input (None: the vocabulary's S; Marian: its <pad>)

    def __post_init__(self) -> None:
        _check_positive(self, ("src_vocab_size", "tgt_vocab_size", "d_model", "d_ff", "n_heads", "n_layers", "max_len"))
        # a checkpoint of this project is held to SIZE_LIMITS by its loader; a pretrained model has larger vocabularies
        _check_at_most(self, PRETRAINED_SIZE_LIMITS)  # d_k, d_v too when given; d_model // n_heads is within d_model's
        if self.n_dec_layers is not None:
            _check_positive(self, ("n_dec_layers",))
        for name in ("d_k", "d_v"):
            if getattr(self, name) is None:
                if self.d_model % self.n_heads:
                    raise ConfigError(
                        f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads}), "
                        f"or give {name} explicitly."
                    )
                object.__setattr__(self, name, self.d_model // self.n_heads)
        _check_positive(self, ("d_k", "d_v"))
        if self.max_len < MIN_LEN:
            raise ConfigError(
                f"max_len must be at least {MIN_LEN}: room for one source token, and for S and one output token."
            )
        if not isinstance(self.dropout, (int, float)) or not 0.0 <= self.dropout < 1.0:
            raise ConfigError(f"dropout must be at least 0 and below 1, got {_shown(self.dropout)}.")
        flags = ("look_ahead_mask", "pad_mask", "scale", "residual", "emb_scale", "tie_output", "logits_bias")
        for name in (*flags, "share_embeddings"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be true or false, got {_shown(getattr(self, name))}.")
        for name, kinds in (
            ("pe", PE_KINDS),
            ("norm", NORM_KINDS),
            ("pe_layout", PE_LAYOUTS),
            ("activation", ACTIVATIONS),
        ):
            if getattr(self, name) not in kinds:
                raise ConfigError(f"{name} must be one of {', '.join(kinds)}, got {_shown(getattr(self, name))}.")
        if self.share_embeddings and self.src_vocab_size != self.tgt_vocab_size:
            raise ConfigError(
                f"shared embeddings need one vocabulary: src_vocab_size ({self.src_vocab_size:,}) and tgt_vocab_size "
                f"({self.tgt_vocab_size:,}) differ."
            )
        smallest = min(self.src_vocab_size, self.tgt_vocab_size)
        for name, size in (("pad_id", smallest), ("decoder_start_id", self.tgt_vocab_size)):
            value = getattr(self, name)
            if value is None and name == "decoder_start_id":
                continue
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
                raise ConfigError(f"{name} must be a token id from 0 to {size - 1:,}, got {_shown(value)}.")

    @property
    def decoder_layers(self) -> int:
        """The decoder's layers: n_dec_layers, or as many as the encoder's."""
        return self.n_layers if self.n_dec_layers is None else self.n_dec_layers

    @property
    def variant(self) -> dict[str, object]:
        """The architecture switches that differ from the defaults, by name (empty for the standard model)."""
        standard = TransformerConfig(1, 1)
        return {name: getattr(self, name) for name in SWITCHES if getattr(self, name) != getattr(standard, name)}

    def to_dict(self) -> dict:
        """Plain dict for JSON metadata; the recipe fields and Marian's only when not at their defaults, so a model
        without them has the same metadata (and fingerprint) as before they existed."""
        data = dataclasses.asdict(self)
        for name in OPTIONAL_FIELDS:
            if data[name] == _MODEL_DEFAULTS[name]:
                del data[name]
        return data

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


# the fields a config's dict leaves out at their defaults: the paper's recipe, then what Marian needs
OPTIONAL_FIELDS = (
    "emb_scale",
    "tie_output",
    "n_dec_layers",
    "activation",
    "logits_bias",
    "share_embeddings",
    "pe_layout",
    "pad_id",
    "decoder_start_id",
)
_MODEL_DEFAULTS = {f.name: f.default for f in dataclasses.fields(TransformerConfig)}

MAX_LABEL_SMOOTHING = 0.5  # largest label smoothing ε (the paper uses 0.1; at ε = 1 the target says nothing)
MAX_WARMUP = 100_000  # most warmup steps (the paper warms up for 4,000 of its 100,000 steps)
# the train command's steps at its constant learning rate before the rate falls as 1/√step (TrainConfig.decay_after):
# a constant 0.003 for the 6,780 steps of its 60 epochs on the corpus made held-out exact match fall from 100 % to 50 %
# at epoch 47 (docs/training.md "Stability"); its trainings of up to 400 steps (the 50 bundled pairs: 240) are unchanged
DECAY_AFTER = 400
# the train command's Adam β2, the paper's: its running mean of squared gradients follows a sudden larger gradient
# within some 50 steps, not 1,000, so one such batch moves each weight by at most ~0.7 lr rather than ~3.2 lr
TRAIN_BETA2 = 0.98
# the train command's Adam ε (torch's: 1e-8): Adam divides each step by √(mean of squared gradients) + ε, so once a
# training has learned its pairs and its gradients are far below ε the steps shrink with them, where at 1e-8 every step
# still moved each weight by about the learning rate (seed 1: held-out exact 100 % → 93.5 % at epoch 48)
TRAIN_EPS = 1e-6


@dataclass(frozen=True)
class TrainConfig:
    """Optimiser settings; the defaults fit up to 50 short pairs in seconds."""

    epochs: int = 60
    lr: float = 3e-3  # Adam's learning rate, constant unless warmup is set
    batch_size: int = 16
    seed: int = 0
    device: str | None = None  # None: CUDA when available, else CPU
    threads: int | None = None  # torch intra-op threads; None: 1 unless the model is large (train.intra_op_threads)
    # the paper's recipe (off by default): label smoothing ε, the warmup schedule, Adam's β2 and ε
    label_smoothing: float = 0.0  # the target's probability 1 − ε, ε spread over the vocabulary (paper: 0.1)
    warmup: int | None = None  # None: the constant lr; else lr = d_model^-0.5 · min(step^-0.5, step · warmup^-1.5)
    beta2: float = 0.999  # Adam's β2 (torch's default; paper: 0.98)
    eps: float = 1e-8  # Adam's ε (torch's default; paper: 1e-9)
    # without warmup: lr for this many steps, then lr · √(decay_after / step), falling as the paper's schedule falls
    # (None: lr throughout, the seeds' and the corpus's recipe). The train command decays after DECAY_AFTER steps
    decay_after: int | None = None

    def __post_init__(self) -> None:
        _check_positive(self, ("epochs", "batch_size"))
        _check_at_most(self, TRAIN_LIMITS)
        if not isinstance(self.lr, (int, float)) or not 0.0 < self.lr <= 1.0:
            raise ConfigError(f"lr must be above 0 and at most 1, got {_shown(self.lr)}.")
        ls = self.label_smoothing
        if not isinstance(ls, (int, float)) or isinstance(ls, bool) or not 0.0 <= ls <= MAX_LABEL_SMOOTHING:
            raise ConfigError(
                f"label smoothing ε must be a number from 0 to {MAX_LABEL_SMOOTHING:g} (the paper uses 0.1), "
                f"got {_shown(ls)}."
            )
        if self.warmup is not None:
            w = self.warmup
            if not isinstance(w, int) or isinstance(w, bool) or not 1 <= w <= MAX_WARMUP:
                raise ConfigError(
                    f"warmup must be a whole number of steps from 1 to {MAX_WARMUP:,} (leave it out for a constant "
                    f"learning rate), got {_shown(w)}."
                )
        if self.decay_after is not None:
            d = self.decay_after
            if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= MAX_WARMUP:
                raise ConfigError(
                    f"decay_after must be a whole number of steps from 1 to {MAX_WARMUP:,} (leave it out for a "
                    f"constant learning rate), got {_shown(d)}."
                )
        if not isinstance(self.beta2, (int, float)) or isinstance(self.beta2, bool) or not 0.0 <= self.beta2 < 1.0:
            raise ConfigError(f"Adam's β2 must be at least 0 and below 1, got {_shown(self.beta2)}.")
        if not isinstance(self.eps, (int, float)) or isinstance(self.eps, bool) or not 0.0 < self.eps <= 1.0:
            raise ConfigError(f"Adam's ε must be above 0 and at most 1, got {_shown(self.eps)}.")
        if not isinstance(self.seed, int) or self.seed < 0:
            raise ConfigError(f"seed must be a whole number of at least 0, got {_shown(self.seed)}.")
        if self.threads is not None:
            _check_positive(self, ("threads",))

    def to_dict(self) -> dict:
        """The settings a summary records (not where it ran); the recipe fields only when they are not the defaults,
        so a training without them records what it recorded before they existed."""
        data = {k: v for k, v in dataclasses.asdict(self).items() if k not in ("device", "threads")}
        for name in RECIPE_TRAIN_FIELDS:
            if data[name] == getattr(_TRAIN_DEFAULTS, name):
                del data[name]
        return data

    def learning_rate(self, d_model: int, step: int) -> float:
        """The learning rate of optimiser step `step` (1, 2, …): lr for decay_after steps then lr · √(decay_after /
        step), or with warmup the paper's schedule d_model^-0.5 · min(step^-0.5, step · warmup^-1.5): rising linearly
        for `warmup` steps, then as 1/√step."""
        if self.warmup is None:
            if self.decay_after is None or step <= self.decay_after:
                return float(self.lr)
            return float(self.lr) * (self.decay_after / step) ** 0.5
        return d_model**-0.5 * min(step**-0.5, step * self.warmup**-1.5)


RECIPE_TRAIN_FIELDS = ("label_smoothing", "warmup", "beta2", "eps", "decay_after")
_TRAIN_DEFAULTS = TrainConfig()
# the paper's recipe (section 5.3-5.4 of "Attention Is All You Need"), field by field: the model's and the
# optimiser's; the warmup is chosen from the number of steps a training takes (transformer.recipe)
PAPER_MODEL = {"dropout": 0.1, "emb_scale": True, "tie_output": True}
PAPER_TRAIN = {"label_smoothing": 0.1, "beta2": 0.98, "eps": 1e-9}
