"""A random model of opus-mt-zh-en's exact shape as a Marian folder (what MarianMTModel.save_pretrained and
MarianTokenizer.save_pretrained write), built offline for the Marian benchmarks, and what they share: the five
sentences, one core kept busy, the machine's load.

The folder: config.json of opus-mt-zh-en's sizes (65,001 tokens, d_model 512, 6 + 6 layers, 8 heads, ffn 2,048, swish,
one shared tied vocabulary), model.safetensors of a random MarianMTModel of that config, two tiny SentencePiece
models trained on a few everyday sentences (source.spm, target.spm) and vocab.json in Marian's layout (</s> 0,
<unk> 1, both models' pieces, filler pieces up to 65,000, <pad> last). Built once into FOLDER (some 20 s) and reused.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

FOLDER = Path(tempfile.gettempdir()) / "playground-benchmarks" / "opus-mt-zh-en-shape"
MARIAN_ZH_EN = dict(  # opus-mt-zh-en's config.json, the fields that size the model
    vocab_size=65001,
    d_model=512,
    encoder_layers=6,
    decoder_layers=6,
    encoder_attention_heads=8,
    decoder_attention_heads=8,
    encoder_ffn_dim=2048,
    decoder_ffn_dim=2048,
    max_position_embeddings=512,
    activation_function="swish",
    dropout=0.1,
    scale_embedding=True,
    static_position_embeddings=True,
    normalize_before=False,
    share_encoder_decoder_embeddings=True,
    tie_word_embeddings=True,
    pad_token_id=65000,
    decoder_start_token_id=65000,
    eos_token_id=0,
    forced_eos_token_id=0,
    architectures=["MarianMTModel"],
    model_type="marian",
)
SENTENCES = ["我喜欢你。", "你好吗？", "他是我的朋友。", "我们明天去学校。", "今天天气很好。"]
TRAIN_SOURCES = SENTENCES + ["她喜欢读书和写字。", "这本书很有意思。", "请给我一杯茶。", "我有一只猫和一只狗。"]
TRAIN_TARGETS = [
    "I love you.",
    "How are you?",
    "He is my friend.",
    "We go to school tomorrow.",
    "The weather is nice today.",
    "She likes reading and writing.",
    "This book is very interesting.",
    "Please give me a cup of tea.",
    "I have a cat and a dog.",
]


def marian_folder(folder: Path = FOLDER) -> Path:
    """The folder of the random opus-mt-zh-en-shaped model, built there first when it is not (seed 0)."""
    if (folder / "model.safetensors").exists() and (folder / "vocab.json").exists():
        return folder
    import torch
    import transformers

    from tests.transformer.marian_folder import spm_model, write_tokenizer_files

    folder.mkdir(parents=True, exist_ok=True)
    size = MARIAN_ZH_EN["vocab_size"]
    vocab = write_tokenizer_files(folder, spm_model(TRAIN_SOURCES, 80), spm_model(TRAIN_TARGETS, 80), size)
    assert len(vocab) == size
    torch.manual_seed(0)
    model = transformers.MarianMTModel(transformers.MarianConfig(**MARIAN_ZH_EN))
    model.save_pretrained(folder)  # model.safetensors, config.json, generation_config.json
    return folder


def load() -> str:
    """The load averages (1, 5, 15 minutes) and the cores, as `uptime` says them."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


@contextlib.contextmanager
def busy_core(busy: bool):
    """Another core kept busy (a Python loop in a process of its own) while inside, when busy; else nothing."""
    if not busy:
        yield
        return
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()
