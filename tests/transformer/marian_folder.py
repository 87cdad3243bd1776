"""A tiny Marian folder, as MarianMTModel.save_pretrained and MarianTokenizer.save_pretrained write it, built offline:
two SentencePiece models trained on a few sentences (source.spm, target.spm), one vocabulary of both sides' pieces
in Marian's layout (vocab.json: </s> 0, <unk> 1, the pieces, <pad> last), and a random model of that vocabulary
(config.json, model.safetensors). Hugging Face's model and tokenizer, loaded back from the folder, are the
reference."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import torch

transformers = pytest.importorskip("transformers")
sentencepiece = pytest.importorskip("sentencepiece")

SOURCES = [
    "我 喜欢 你 。",
    "你 好 吗 ？",
    "他 是 我 的 朋友 。",
    "我们 明天 去 学校 。",
    "她 喜欢 读书 和 写字 。",
    "今天 天气 很 好 。",
    "这 本 书 很 有意思 。",
    "请 给 我 一 杯 茶 。",
]
TARGETS = [
    "I love you.",
    "How are you?",
    "He is my friend.",
    "We go to school tomorrow.",
    "She likes reading and writing.",
    "The weather is nice today.",
    "This book is very interesting.",
    "Please give me a cup of tea.",
]
MAX_POSITIONS = 64


def spm_model(sentences: list[str], vocab_size: int) -> bytes:
    """The bytes of a unigram SentencePiece model trained on sentences (its own <unk>, <s>, </s> at 0, 1, 2)."""
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences * 4),
        model_writer=model,
        vocab_size=vocab_size,
        model_type="unigram",
        hard_vocab_limit=False,
        character_coverage=1.0,
        minloglevel=2,
    )
    return model.getvalue()


def _pieces(model: bytes) -> list[str]:
    """The model's pieces, without its control tokens."""
    processor = sentencepiece.SentencePieceProcessor(model_proto=model)
    return [processor.id_to_piece(i) for i in range(processor.get_piece_size()) if not processor.is_control(i)]


def write_tokenizer_files(folder: Path, source: bytes, target: bytes, size: int | None = None) -> dict[str, int]:
    """source.spm, target.spm and vocab.json in folder: one vocabulary of both models' pieces in Marian's layout
    (</s> 0, <unk> 1, the pieces, filler pieces ▁w0, ▁w1, … up to size when it is given, <pad> last); it, as a dict."""
    (folder / "source.spm").write_bytes(source)
    (folder / "target.spm").write_bytes(target)
    pieces = [p for p in dict.fromkeys(_pieces(source) + _pieces(target)) if p not in ("<unk>", "</s>", "<pad>")]
    if size is not None:
        known = set(pieces)
        pieces += [p for p in (f"▁w{i}" for i in range(size)) if p not in known][: size - 3 - len(pieces)]
    vocab = {piece: i for i, piece in enumerate(["</s>", "<unk>", *pieces, "<pad>"])}
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False, indent=2), encoding="utf-8")
    return vocab


def write_marian_folder(folder: Path, seed: int = 0, d_model: int = 16, heads: int = 2, layers: int = 2) -> dict:
    """Write a tiny random Marian model and its tokenizer files into folder; its vocab.json as a dict."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab = write_tokenizer_files(folder, spm_model(SOURCES, 60), spm_model(TARGETS, 70))
    pad = len(vocab) - 1
    config = transformers.MarianConfig(
        vocab_size=len(vocab),
        d_model=d_model,
        encoder_layers=layers,
        decoder_layers=layers,
        encoder_attention_heads=heads,
        decoder_attention_heads=heads,
        encoder_ffn_dim=2 * d_model,
        decoder_ffn_dim=2 * d_model,
        max_position_embeddings=MAX_POSITIONS,
        scale_embedding=True,
        pad_token_id=pad,
        decoder_start_token_id=pad,
        eos_token_id=0,
        forced_eos_token_id=0,
    )
    torch.manual_seed(seed)
    model = transformers.MarianMTModel(config)
    with torch.no_grad():  # every weight and bias random, wide enough that the source decides the output
        for name, tensor in model.named_parameters():
            if "embed_positions" in name:
                continue
            spread = 1.0 if "shared" in name else 0.3
            tensor.copy_(torch.randn_like(tensor) * spread + (1.0 if "layer_norm.weight" in name else 0.0))
    model.save_pretrained(folder)
    return vocab


def hf_tokenizer(folder: Path):
    """Hugging Face's MarianTokenizer of the folder (the reference for ids)."""
    return transformers.MarianTokenizer(
        source_spm=str(folder / "source.spm"), target_spm=str(folder / "target.spm"), vocab=str(folder / "vocab.json")
    )


def hf_greedy(folder: Path, sentence: str, max_new_tokens: int) -> list[int]:
    """The output ids (after the start token, up to and with </s>) of transformers' generate(num_beams=1) on the
    sentence, <pad> never chosen (as opus-mt's bad_words_ids), no forced end."""
    model = transformers.MarianMTModel.from_pretrained(folder).eval()
    ids = hf_tokenizer(folder)(sentence, return_tensors="pt")["input_ids"]
    pad = model.config.pad_token_id
    with torch.no_grad():
        out = model.generate(
            ids,
            num_beams=1,
            do_sample=False,
            max_new_tokens=max_new_tokens,
            bad_words_ids=[[pad]],
            forced_eos_token_id=None,
        )
    return out[0, 1:].tolist()
