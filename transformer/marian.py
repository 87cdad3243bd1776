"""A Marian (opus-mt) model as the project's own Transformer: its config.json read and checked, its weights from
model.safetensors renamed into our modules. torch and safetensors only; Hugging Face's `transformers` is the tests'
reference, never imported here.

A Marian model is the paper's architecture with a few choices of its own, each one of TransformerConfig's options:
post-norm, the √d_model embedding scale, one vocabulary for both sides (the source embedding, the target embedding
and the output projection are one matrix), swish in the feed-forward net, a bias on every projection, a bias on the
logits (final_logits_bias), the sinusoidal table laid out in halves (sines, then cosines), and the decoder starting
from the <pad> token (pad_id and decoder_start_id are Marian's ids: the vocabulary's last id; E is </s>, id 0).

    model, config = marian_transformer("opus-mt-zh-en/")   # the folder save_pretrained writes
    config["eos_token_id"]                                 # what the vocabulary side reads from config.json

The tokenizer side (source.spm, target.spm, vocab.json) is not read here.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import torch

from .config import MAX_LEN_LIMIT, MAX_PRETRAINED_PARAMETERS, TransformerConfig
from .errors import ConfigError, DataError
from .files import read_limited
from .model import Transformer, parameter_count

CONFIG_NAME, WEIGHTS_NAME, PICKLED_WEIGHTS_NAME = "config.json", "model.safetensors", "pytorch_model.bin"
MAX_CONFIG_BYTES = 1_000_000  # a Marian config.json is ~1.5 kB (its id2label may make it a few kB)
# the weights file: every parameter in float32, and room for its header and the tensors a file may hold besides ours
# (the positional tables some older files keep, a separate lm_head)
MAX_WEIGHTS_BYTES = 4 * MAX_PRETRAINED_PARAMETERS + 100_000_000
ARCHITECTURE = "MarianMTModel"
ACTIVATIONS = {"swish": "swish", "silu": "swish", "relu": "relu", "gelu": "gelu"}  # Hugging Face's name → ours
# flags of older Marian/BART configs that Hugging Face's MarianMTModel does not follow: a config that sets one to
# anything but Marian's value describes another model
NOT_MARIAN = {
    "normalize_before": False,  # pre-norm
    "normalize_embedding": False,  # a LayerNorm on the embeddings (BART's layernorm_embedding)
    "add_final_layer_norm": False,  # a LayerNorm after the last layer (mBART)
    "static_position_embeddings": True,  # a learned positional table
    "add_bias_logits": False,
}
CONVERT = "MarianMTModel.from_pretrained(folder).save_pretrained(folder)"  # transformers writes model.safetensors
_DTYPES = (torch.float32, torch.float16, torch.bfloat16)


def read_marian_config(folder: str | Path) -> dict:
    """The folder's config.json as a dict, refused (DataError) when it is missing, too large or not a JSON object."""
    path = Path(folder) / CONFIG_NAME
    if not path.exists():
        raise DataError(
            f"{folder} has no {CONFIG_NAME}: give the folder that MarianMTModel.save_pretrained writes "
            f"({CONFIG_NAME}, {WEIGHTS_NAME}, source.spm, target.spm, vocab.json)."
        )
    text = read_limited(path, MAX_CONFIG_BYTES, f"a model's {CONFIG_NAME}", DataError)
    try:
        config = json.loads(text)
    except (ValueError, RecursionError):
        raise DataError(f"{path} is not valid JSON: the model folder is damaged.") from None
    if not isinstance(config, dict):
        raise DataError(f"{path} is not a JSON object: the model folder is damaged.")
    return config


def _whole(config: dict, name: str) -> int:
    value = config.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"this Marian config.json's {name} is not a whole number ({value!r:.40}).")
    return value


def marian_transformer_config(config: dict) -> TransformerConfig:
    """The TransformerConfig of a Marian config.json (parsed): another architecture, a Marian variant the project's
    model cannot be (different encoder and decoder sizes, two vocabularies), or a model of more than
    MAX_PRETRAINED_PARAMETERS parameters is refused with a ConfigError of one line that says why."""
    kind, architectures = config.get("model_type"), config.get("architectures", [ARCHITECTURE])
    architectures = architectures if isinstance(architectures, list) else []
    if kind != "marian" or ARCHITECTURE not in architectures:
        named = kind if isinstance(kind, str) else ", ".join(map(str, architectures))
        raise ConfigError(
            f"this is a {named[:40]!s} model, not a Marian translator (model_type marian, {ARCHITECTURE}): "
            "only Marian (opus-mt) models open here."
        )
    for name, marian in NOT_MARIAN.items():
        if name in config and config[name] != marian:
            raise ConfigError(f"this config.json sets {name} to {config[name]!r:.20}; a Marian model has {marian}.")
    for enc, dec in (("encoder_attention_heads", "decoder_attention_heads"), ("encoder_ffn_dim", "decoder_ffn_dim")):
        if _whole(config, enc) != _whole(config, dec):
            raise ConfigError(f"this model's {enc} and {dec} differ; the project's model has one of each for both.")
    vocab = _whole(config, "vocab_size")
    if config.get("decoder_vocab_size") not in (None, vocab) or config.get("share_encoder_decoder_embeddings") is False:
        raise ConfigError("this Marian model has two vocabularies; only models with one shared vocabulary open here.")
    activation = config.get("activation_function", "swish")
    if activation not in ACTIVATIONS:
        raise ConfigError(f"this model's activation {activation!r:.30} is none of {', '.join(ACTIVATIONS)}.")
    dropout = config.get("dropout", 0.0)
    try:
        cfg = TransformerConfig(
            src_vocab_size=vocab,
            tgt_vocab_size=vocab,
            d_model=_whole(config, "d_model"),
            d_ff=_whole(config, "encoder_ffn_dim"),
            n_heads=_whole(config, "encoder_attention_heads"),
            n_layers=_whole(config, "encoder_layers"),
            n_dec_layers=_whole(config, "decoder_layers"),
            dropout=float(dropout) if isinstance(dropout, (int, float)) and not isinstance(dropout, bool) else -1.0,
            max_len=min(_whole(config, "max_position_embeddings"), MAX_LEN_LIMIT),
            emb_scale=config.get("scale_embedding", False) is True,
            tie_output=config.get("tie_word_embeddings", True) is not False,
            activation=ACTIVATIONS[activation],
            logits_bias=True,
            share_embeddings=True,
            pe_layout="halves",
            pad_id=_whole(config, "pad_token_id"),
            decoder_start_id=_whole(config, "decoder_start_token_id"),
        )
    except ConfigError as exc:
        raise ConfigError(f"this Marian model does not fit the project's model: {exc}") from None
    _whole(config, "eos_token_id")  # the vocabulary side stops there
    if (n := parameter_count(cfg)) > MAX_PRETRAINED_PARAMETERS:
        raise ConfigError(
            f"this model has {n:,} parameters, more than the {MAX_PRETRAINED_PARAMETERS:,} a model opened here may "
            "have: choose a smaller one (opus-mt models have some 77 million)."
        )
    return cfg


def marian_names(cfg: TransformerConfig) -> dict[str, str]:
    """Our tensor name → Marian's (as model.safetensors names it), for every tensor our model stores."""
    names = {"encoder.src_emb.weight": "model.shared.weight", "logits_bias": "final_logits_bias"}
    if not cfg.tie_output:
        names["projection.weight"] = "lm_head.weight"
    attention = {"W_Q": "q_proj", "W_K": "k_proj", "W_V": "v_proj", "fc": "out_proj"}
    for side, n_layers, sublayers in (
        ("encoder", cfg.n_layers, {"enc_self_attn": "self_attn"}),
        ("decoder", cfg.decoder_layers, {"dec_self_attn": "self_attn", "dec_enc_attn": "encoder_attn"}),
    ):
        norms = ("self_attn_layer_norm", "final_layer_norm")
        if side == "decoder":
            norms = ("self_attn_layer_norm", "encoder_attn_layer_norm", "final_layer_norm")
        for i in range(n_layers):
            ours, theirs = f"{side}.layers.{i}", f"model.{side}.layers.{i}"
            for part in ("weight", "bias"):
                for sublayer, marian in sublayers.items():
                    for projection, marian_projection in attention.items():
                        names[f"{ours}.{sublayer}.{projection}.{part}"] = (
                            f"{theirs}.{marian}.{marian_projection}.{part}"
                        )
                for fc in ("fc1", "fc2"):
                    names[f"{ours}.pos_ffn.{fc}.{part}"] = f"{theirs}.{fc}.{part}"
                for k, norm in enumerate(norms, start=1):
                    names[f"{ours}.norm{k}.{part}"] = f"{theirs}.{norm}.{part}"
    return names


def _weights_path(folder: Path) -> Path:
    """The folder's model.safetensors: a regular file within MAX_WEIGHTS_BYTES; a folder with only pickled weights is
    refused with the command that converts them."""
    path = folder / WEIGHTS_NAME
    if not path.exists():
        if (folder / PICKLED_WEIGHTS_NAME).exists():
            raise DataError(
                f"{folder} has its weights only as {PICKLED_WEIGHTS_NAME}, which would need unpickling (it can run "
                f"code): convert them once to {WEIGHTS_NAME} where transformers is installed, with {CONVERT}."
            )
        raise DataError(f"{folder} has no {WEIGHTS_NAME}: give the folder that save_pretrained writes.")
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise DataError(f"{path} is not a file: give the folder that save_pretrained writes.")
    if info.st_size > MAX_WEIGHTS_BYTES:
        raise DataError(f"{path} is larger than {MAX_WEIGHTS_BYTES:,} bytes, the limit for a model opened here.")
    return path


def load_marian_weights(model: Transformer, path: str | Path) -> None:
    """Copy the tensors of a Marian model.safetensors into model (of marian_transformer_config), by name
    (marian_names); a tensor missing, of another shape or dtype, or not finite is refused with a DataError."""
    from safetensors import SafetensorError, safe_open

    names, state = marian_names(model.config), model.saved_tensors()
    try:
        with safe_open(str(path), framework="pt") as file:
            present = set(file.keys())
            missing = [theirs for theirs in names.values() if theirs not in present]
            if missing:
                raise DataError(f"{path} lacks {len(missing)} tensor(s) of this model, e.g. {missing[0][:80]}.")
            with torch.no_grad():
                for ours, theirs in names.items():
                    tensor = file.get_tensor(theirs)
                    expected = state[ours].shape
                    if tensor.dtype not in _DTYPES or tensor.numel() != expected.numel():
                        raise DataError(
                            f"{path}: {theirs} is {tensor.dtype} of shape {list(tensor.shape)}, "
                            f"this model wants {list(expected)} floats."
                        )
                    tensor = tensor.reshape(expected).float()  # final_logits_bias (1, V) → (V,)
                    if not torch.isfinite(tensor).all():
                        raise DataError(f"{path}: {theirs} holds NaN or infinity.")
                    state[ours].copy_(tensor)
    except SafetensorError as exc:
        raise DataError(f"{path} is not a readable .safetensors file: {str(exc)[:120]}.") from None


def marian_transformer(folder: str | Path) -> tuple[Transformer, dict]:
    """The project's Transformer holding the Marian model in folder (as MarianMTModel.save_pretrained writes it), in
    eval mode, and its config.json as a dict (eos_token_id, pad_token_id, decoder_start_token_id, … for the
    vocabulary side). Another architecture, a model over the parameter limit, pickled weights or a damaged file are
    refused with one line (ConfigError or DataError, both TransformerError)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataError(f"{folder} is not a folder: give the folder of a Marian model (config.json, the weights, …).")
    config = read_marian_config(folder)
    cfg = marian_transformer_config(config)
    path = _weights_path(folder)
    model = Transformer(cfg)
    load_marian_weights(model, path)
    return model.eval(), config
