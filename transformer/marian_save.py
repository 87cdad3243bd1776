"""A Marian model trained further, saved as a Marian folder: the folder it was opened from, its files as they were
(config.json, source.spm, target.spm, vocab.json, the tokenizer's settings), with model.safetensors written from
the trained weights under Marian's names (transformer.marian.marian_names), so the result opens again wherever the
original did (`--model`, the app, and MarianMTModel.from_pretrained).

A checkpoint of this app holds a Marian model too (transformer.checkpoint_spm), but only within the project's limits
(50 MB, 30,000 pieces): a real opus-mt model is shared as a folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import torch

from .errors import DataError
from .marian import marian_names
from .translator import Translator

WEIGHTS = "model.safetensors"
MAX_COPIED_BYTES = 50_000_000  # a file of the folder copied beside the weights (the .spm, vocab.json: a few MB)


def save_marian_folder(translator: Translator, opened_from: str | Path, out: str | Path) -> None:
    """Write translator (a Marian model, opened from the folder opened_from) as the Marian folder out: every file of
    opened_from but its weights, copied, and model.safetensors from translator's weights. out must not exist yet, or
    be an empty folder (DataError otherwise)."""
    from safetensors.torch import save_file

    source, out = Path(opened_from), Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise DataError(f"{out} exists: give a new folder for the model trained further.")
    out.mkdir(parents=False, exist_ok=True)
    for path in sorted(source.iterdir()):
        weights = path.suffix in (".safetensors", ".bin", ".h5")  # written below from the trained model
        if path.is_file() and not path.name.startswith(".") and not weights and path.stat().st_size <= MAX_COPIED_BYTES:
            shutil.copyfile(path, out / path.name)
    state = translator.model.saved_tensors()
    tensors = {}
    for ours, theirs in marian_names(translator.config).items():
        tensor = state[ours].detach().to("cpu", torch.float32).contiguous()
        tensors[theirs] = tensor.unsqueeze(0) if theirs == "final_logits_bias" else tensor  # Marian's (1, V)
    save_file(tensors, str(out / WEIGHTS), metadata={"format": "pt"})
