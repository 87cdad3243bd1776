"""Opening a model by what --model (and the app's model choice) names: a checkpoint of this app (.safetensors), a
Marian folder as `save_pretrained` writes it, or `hf:NAME`, a Marian model of the Hugging Face hub downloaded once
into the Hugging Face cache with `huggingface_hub` (its progress on stderr) and read from there afterwards, offline
too.

A Marian folder becomes a Translator of the project's own model (transformer.marian converts the weights), with the
model's SentencePiece tokenizer and its one vocabulary on both sides (transformer.spm). Whatever cannot be opened is
refused with one line that says why and what to do instead (a TransformerError): no model of that name, offline and
not in the cache, another architecture, a model over the parameter limit, a damaged folder.

open_model is a pure function of what it is given (and of the files it reads): the app may cache its result once per
process and share it read-only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import CheckpointError, DataError, TransformerError
from .files import read_limited

if TYPE_CHECKING:  # torch is imported when a model is opened
    from .translator import Translator

HF_PREFIX = "hf:"
CONFIG, WEIGHTS, SOURCE_SPM, TARGET_SPM, VOCAB = (
    "config.json",
    "model.safetensors",
    "source.spm",
    "target.spm",
    "vocab.json",
)
MARIAN_FILES = (CONFIG, WEIGHTS, SOURCE_SPM, TARGET_SPM, VOCAB)  # what a Marian folder holds (save_pretrained)
FOLDER_HELP = f"a Marian folder as save_pretrained writes it ({', '.join(MARIAN_FILES)})"
MAX_VOCAB_BYTES = 50_000_000  # an opus-mt vocab.json of 65,001 pieces is about 1.3 MB
MAX_NAME_CHARS = 96  # a hub name: ORG/NAME, each at most 96 characters (the hub's own rule, checked here first)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}")
EXAMPLE = "hf:Helsinki-NLP/opus-mt-zh-en"


def open_model(spec: str | Path) -> Translator:
    """The Translator that spec names: hf:NAME (from the Hugging Face cache, downloaded there once), a Marian
    folder, or a checkpoint file of this app; anything else is refused with one line (a TransformerError)."""
    text = str(spec)
    if text.startswith(HF_PREFIX):
        return open_marian(hub_folder(text[len(HF_PREFIX) :]), text)
    path = Path(text)
    if path.is_dir():
        return open_marian(path)
    from .checkpoint import load_checkpoint

    return load_checkpoint(path)


def is_marian_spec(spec: str | Path) -> bool:
    """Whether spec names a Marian model (hf:NAME or a folder) rather than a checkpoint file."""
    text = str(spec)
    return text.startswith(HF_PREFIX) or Path(text).is_dir()


def open_marian(folder: str | Path, shown: str | None = None) -> Translator:
    """The Translator of a Marian folder: the project's model with its weights (transformer.marian), the folder's
    SentencePiece models and its one vocabulary on both sides; shown names it in messages (default: the folder)."""
    from .marian import marian_transformer
    from .spm import MAX_SPM_BYTES, SentencePiece, marian_vocab
    from .translator import Translator

    folder = Path(folder)
    shown = shown or str(folder)
    if not folder.is_dir():
        raise DataError(f"{shown} is not a folder: give {FOLDER_HELP}.")
    missing = [name for name in MARIAN_FILES if not (folder / name).exists()]
    if missing and missing != [WEIGHTS]:  # the converter says what to do about weights kept only pickled
        raise DataError(f"{shown} lacks {', '.join(missing)}: give {FOLDER_HELP}.")
    source = read_limited(folder / SOURCE_SPM, MAX_SPM_BYTES, f"a model's {SOURCE_SPM}", DataError)
    target = read_limited(folder / TARGET_SPM, MAX_SPM_BYTES, f"a model's {TARGET_SPM}", DataError)
    tokenizer = SentencePiece(source, target)
    mapping = _json(folder / VOCAB, shown)
    model, config = marian_transformer(folder)
    vocab = marian_vocab(mapping, config.get("pad_token_id"), config.get("eos_token_id"), model.config.decoder_start_id)
    if len(vocab) != model.config.tgt_vocab_size:
        raise DataError(
            f"{shown}: {VOCAB} has {len(vocab):,} pieces but the model {model.config.tgt_vocab_size:,}: the folder "
            "mixes files of two models."
        )
    return Translator(model, vocab, vocab, tokenizer)


def _json(path: Path, shown: str) -> object:
    text = read_limited(path, MAX_VOCAB_BYTES, f"a model's {path.name}", DataError)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise DataError(f"{shown}: {path.name} is not valid JSON: the model folder is damaged.") from None


def _offline(name: str) -> TransformerError:
    return CheckpointError(
        f"{HF_PREFIX}{name} is not in the Hugging Face cache and the hub cannot be reached (offline?): connect once "
        f"to download it, or give {FOLDER_HELP}."
    )


def hub_folder(name: str) -> Path:
    """The folder of the Marian model NAME in the Hugging Face cache (HF_HOME, HF_HUB_CACHE), its files downloaded
    there first when they are not (progress on stderr): config.json alone first, so that another architecture or a
    model over the limit is refused before its weights are fetched. Offline (HF_HUB_OFFLINE=1, or no network) the
    cache alone is read."""
    if len(name) > 2 * MAX_NAME_CHARS + 1 or not _NAME.fullmatch(name):
        shown = name[:60] + ("…" if len(name) > 60 else "")
        raise CheckpointError(
            f"{HF_PREFIX}{shown!r} is not a model name of the hub: write {HF_PREFIX}ORG/NAME, such as {EXAMPLE}, "
            f"or give {FOLDER_HELP}."
        )
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import (
        GatedRepoError,
        HFValidationError,
        LocalEntryNotFoundError,
        OfflineModeIsEnabled,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    from .marian import marian_transformer_config, read_marian_config

    try:
        folder = Path(snapshot_download(name, allow_patterns=[CONFIG]))
        marian_transformer_config(read_marian_config(folder))  # refused here: no weights are downloaded
        folder = Path(snapshot_download(name, allow_patterns=list(MARIAN_FILES)))
    except GatedRepoError:
        raise CheckpointError(
            f"{HF_PREFIX}{name} is gated on the hub (it needs an account's consent): download it where you may and "
            f"give {FOLDER_HELP}."
        ) from None
    except RepositoryNotFoundError:
        raise CheckpointError(
            f"{HF_PREFIX}{name}: the Hugging Face hub has no model of that name (check its spelling, such as "
            f"{EXAMPLE}), or give {FOLDER_HELP}."
        ) from None
    except RevisionNotFoundError:
        raise CheckpointError(f"{HF_PREFIX}{name} has no main revision on the hub; give {FOLDER_HELP}.") from None
    except HFValidationError:
        raise CheckpointError(
            f"{HF_PREFIX}{name} is not a model name of the hub: write ORG/NAME, such as {EXAMPLE}."
        ) from None
    except (LocalEntryNotFoundError, OfflineModeIsEnabled, ConnectionError, TimeoutError):
        raise _offline(name) from None
    except OSError as exc:  # the cache cannot be written, the disk is full, another network failure
        raise CheckpointError(
            f"{HF_PREFIX}{name} could not be downloaded ({type(exc).__name__}: {str(exc)[:100]}); give {FOLDER_HELP}."
        ) from None
    except Exception as exc:  # the client's network errors (httpx) are not OSErrors
        if type(exc).__module__.split(".")[0] in ("httpx", "httpcore", "requests", "urllib3"):
            raise _offline(name) from None
        raise
    if not (folder / WEIGHTS).exists():
        raise CheckpointError(
            f"{HF_PREFIX}{name} has no {WEIGHTS} on the hub (only older pickled weights, which are not read here): "
            f"convert them once where transformers is installed and give {FOLDER_HELP}."
        )
    return folder
