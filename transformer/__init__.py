"""A small encoder–decoder Transformer to learn from: data, masks, model, training, greedy decoding, checkpoints.

This package never imports streamlit; the app in app.py and pages/ is a thin UI on top of it.
"""

from .config import TrainConfig, TransformerConfig
from .data import BOS, EOS, PAD, SPECIALS, UNK, Batch, Vocab, build_vocabs, make_data, tokenize
from .decoding import DecodeStep, Translation, greedy_decode, greedy_decoder
from .errors import CheckpointError, ConfigError, DataError, StoreError, TransformerError
from .masks import get_attn_pad_mask, get_attn_subsequence_mask, get_dec_enc_attn_mask, get_dec_self_attn_mask
from .model import AttentionMaps, Transformer, positional_encoding_table
from .train import EpochRecord, train
from .translator import Translator

__all__ = [
    "BOS",
    "EOS",
    "PAD",
    "SPECIALS",
    "UNK",
    "AttentionMaps",
    "Batch",
    "CheckpointError",
    "ConfigError",
    "DataError",
    "DecodeStep",
    "EpochRecord",
    "StoreError",
    "TrainConfig",
    "Transformer",
    "TransformerConfig",
    "TransformerError",
    "Translation",
    "Translator",
    "Vocab",
    "build_vocabs",
    "get_attn_pad_mask",
    "get_attn_subsequence_mask",
    "get_dec_enc_attn_mask",
    "get_dec_self_attn_mask",
    "greedy_decode",
    "greedy_decoder",
    "make_data",
    "positional_encoding_table",
    "tokenize",
    "train",
]
