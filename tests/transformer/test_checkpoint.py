"""Checkpoints: an exact round trip, and a CheckpointError (never code execution) for everything else."""

from __future__ import annotations

import io
import json
import os
import pickle
import random
import resource
import struct
import zipfile
from contextlib import contextmanager
from pathlib import Path

import pytest
import torch
from safetensors.torch import save as st_save

from tests.transformer.checkpoints import parts, refused, with_config
from transformer import Translator
from transformer.checkpoint import (
    load_checkpoint,
    save_checkpoint,
)
from transformer.errors import CheckpointError
from transformer.summary import TrainingSummary

REPO = Path(__file__).resolve().parents[2]


class _Payload:
    """Unpickling this object creates `marker`: proof that a loader ran code from the file."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "code from the checkpoint ran"))


# ---------------------------------------------------------------- round trip


def test_round_trip_is_exact(trained_seed, tmp_path):
    path = tmp_path / "model.safetensors"
    data = save_checkpoint(trained_seed, path)
    assert path.read_bytes() == data
    loaded = load_checkpoint(path)

    original_state, loaded_state = trained_seed.model.state_dict(), loaded.model.state_dict()
    assert original_state.keys() == loaded_state.keys()
    for name, tensor in original_state.items():
        assert torch.equal(tensor, loaded_state[name]), name
    assert loaded.config == trained_seed.config
    assert loaded.src_vocab == trained_seed.src_vocab
    assert loaded.tgt_vocab == trained_seed.tgt_vocab
    assert loaded.tokenizer == trained_seed.tokenizer
    assert loaded.summary == trained_seed.summary
    assert loaded.summary.epochs == 60 and len(loaded.summary.history) == 60

    for sentence in ("我 喜 欢 你", "你 喜 欢 我", "我 爱 你"):
        a, b = trained_seed.translate(sentence), loaded.translate(sentence)
        assert a.tokens == b.tokens
        assert a.stop_reason == b.stop_reason
        assert a.unknown == b.unknown
        assert len(a.steps) == len(b.steps)
        for sa, sb in zip(a.steps, b.steps):
            assert torch.equal(sa.probs, sb.probs)
    assert loaded.translate("我 喜 欢 你").text == "I love you ."


def test_round_trip_keeps_tokenizer_and_drops_unknown_summary_fields_with_a_warning(pairs20):
    translator = Translator.create(pairs20, "char", d_model=8, n_heads=2, d_ff=8, n_layers=1, dropout=0.1)
    tensors, metadata = parts(save_checkpoint(translator))
    metadata["summary"] = json.dumps({"note": "训练好了 ✓", "exact_match": 0.5}, ensure_ascii=False)
    warnings = []
    loaded = load_checkpoint(st_save(tensors, metadata=metadata), warnings)
    assert loaded.tokenizer == "char"
    assert loaded.src_vocab == translator.src_vocab  # Chinese tokens, unescaped in the file
    assert loaded.summary == TrainingSummary(exact_match=0.5)
    assert warnings == ["the training summary has an unknown field 'note'; it was dropped."]
    assert loaded.config == translator.config
    assert not loaded.model.training


def test_loads_from_bytes_str_path_and_path(ckpt, write_file):
    path = write_file("model.safetensors", ckpt)
    for source in (ckpt, bytearray(ckpt), path, str(path)):
        assert load_checkpoint(source).translate("我 喜 欢 你").text == "I love you ."


# ---------------------------------------------------------------- refusals: no code may run


def test_pickle_renamed_safetensors_is_refused_without_running_it(tmp_path, write_file):
    marker = tmp_path / "pwned.txt"
    data = pickle.dumps({"model": _Payload(marker)})
    pickle.loads(data)  # the payload does work when unpickled ...
    assert marker.exists()
    marker.unlink()
    path = write_file("model.safetensors", data)
    refused(path)
    refused(data)
    assert not marker.exists()  # ... but the loader never unpickles it


def test_torch_save_file_is_refused_without_running_it(tmp_path, write_file):
    marker = tmp_path / "pwned.txt"
    buffer = io.BytesIO()
    torch.save({"weight": torch.ones(2), "payload": _Payload(marker)}, buffer)
    data = buffer.getvalue()
    assert zipfile.is_zipfile(io.BytesIO(data))
    assert not marker.exists()
    refused(write_file("model.safetensors", data))
    assert not marker.exists()


@pytest.mark.parametrize("fraction", [0.0001, 0.01, 0.5, 0.9, 0.9999])
def test_truncated_file_is_refused(ckpt, fraction):
    cut = max(1, int(len(ckpt) * fraction))
    assert cut < len(ckpt)
    refused(ckpt[:cut])


def test_file_cut_just_before_the_end_is_refused(ckpt):
    refused(ckpt[:-1], "truncated")
    refused(ckpt[:8])


def test_extra_bytes_after_the_tensors_are_refused(ckpt):
    refused(ckpt + b"\x00" * 4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_bytes_are_refused(seed):
    refused(random.Random(seed).randbytes(2000))


def test_empty_file_is_refused(write_file):
    refused(b"", "too short")
    refused(write_file("empty.safetensors", b""), "too short")


def test_absurd_header_size_is_refused():
    refused(struct.pack("<Q", 2**62) + b"{}" + b"\x00" * 64, "header size")


def test_header_that_is_not_json_is_refused():
    header = b"not json at all!"
    refused(struct.pack("<Q", len(header)) + header, "JSON")
    header = b"[1, 2, 3]"
    refused(struct.pack("<Q", len(header)) + header, "JSON object")
    header = b"\xff\xfe{}"
    refused(struct.pack("<Q", len(header)) + header, "JSON")


@pytest.mark.parametrize("metadata", [None, {"format": "pt"}, {"format": "transformer-playground-v2"}])
def test_safetensors_file_of_someone_else_is_refused(metadata):
    data = st_save({"weight": torch.ones(3, 4)}, metadata=metadata)
    refused(data, "not saved by this app")


def test_other_format_version_is_refused(ckpt):
    tensors, metadata = parts(ckpt)
    metadata["format_version"] = "2"
    refused(st_save(tensors, metadata=metadata), "version")


def test_config_that_disagrees_with_the_tensors_is_refused(ckpt):
    message = refused(with_config(ckpt, d_model=32, d_ff=64), "do not match its config")
    assert "wrong shape" in message
    refused(with_config(ckpt, n_layers=3), "missing")
    refused(with_config(ckpt, n_layers=1), "unexpected")


def test_invalid_config_is_refused(ckpt):
    refused(with_config(ckpt, n_heads=0), "n_heads")
    refused(with_config(ckpt, dropout=2.0), "dropout")
    refused(with_config(ckpt, colour="red"), "colour")
    tensors, metadata = parts(ckpt)
    metadata["config"] = "{not json"
    refused(st_save(tensors, metadata=metadata), "config")
    del metadata["config"]
    refused(st_save(tensors, metadata=metadata), "config")


def test_vocabulary_size_mismatch_is_refused(ckpt):
    tensors, metadata = parts(ckpt)
    metadata["tgt_vocab"] = json.dumps([*json.loads(metadata["tgt_vocab"]), "extra"])
    refused(st_save(tensors, metadata=metadata), "vocabularies")


def test_vocabulary_without_specials_is_refused(ckpt):
    tensors, metadata = parts(ckpt)
    vocab = json.loads(metadata["src_vocab"])
    metadata["src_vocab"] = json.dumps(["x" if t == "S" else t for t in vocab])
    refused(st_save(tensors, metadata=metadata), "special")


def test_unknown_tokenizer_is_refused(ckpt):
    tensors, metadata = parts(ckpt)
    metadata["tokenizer"] = "wordpiece"
    refused(st_save(tensors, metadata=metadata), "tokenizer")


@pytest.mark.parametrize(
    "convert",
    [lambda t: t.half(), lambda t: t.double(), lambda t: t.bfloat16(), lambda t: t.long()],
    ids=["float16", "float64", "bfloat16", "int64"],
)
def test_wrong_dtype_is_refused(ckpt, convert):
    tensors, metadata = parts(ckpt)
    refused(st_save({k: convert(v) for k, v in tensors.items()}, metadata=metadata), "float32")


def test_one_wrong_dtype_tensor_is_refused(ckpt):
    tensors, metadata = parts(ckpt)
    name = next(iter(tensors))
    tensors[name] = tensors[name].half()
    refused(st_save(tensors, metadata=metadata), name)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_weights_are_refused(ckpt, bad):
    tensors, metadata = parts(ckpt)
    tensors["projection.weight"][0, 0] = bad
    refused(st_save(tensors, metadata=metadata), "NaN")


def test_missing_tensor_is_refused(ckpt):
    tensors, metadata = parts(ckpt)
    del tensors["projection.weight"]
    refused(st_save(tensors, metadata=metadata), "projection.weight")


def test_missing_file_is_refused(tmp_path):
    refused(tmp_path / "nowhere.safetensors", "nowhere.safetensors")
    refused(tmp_path, "is a folder, not a file")


@contextmanager
def _address_space_limit(extra_bytes: int):
    """Cap this process's address space near its current size, so a huge allocation fails fast, not by OOM."""
    with open("/proc/self/status") as status:
        size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = size + extra_bytes if hard == resource.RLIM_INFINITY else min(size + extra_bytes, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux /proc")
@pytest.mark.parametrize("field", ["d_ff", "max_len"])
def test_huge_sizes_in_the_metadata_are_refused_before_allocating(ckpt, field):
    """A 50 KB file whose config claims d_ff or max_len = 10**9 must be refused, not make the loader allocate
    gigabytes (d_ff: the model is built from the config before the tensor shapes are compared; max_len: the
    positional table is not in the file, so nothing bounds it)."""
    data = with_config(ckpt, **{field: 10**9})
    with _address_space_limit(1 << 30):
        try:
            load_checkpoint(data)
        except CheckpointError:
            pass
        except Exception as exc:  # the failure this test reports
            pytest.fail(f"config {field}=10**9 raised {type(exc).__name__} instead of CheckpointError: {exc}"[:300])
        else:
            pytest.fail(f"a checkpoint whose config says {field}=10**9 was accepted")


def test_a_file_over_the_checkpoint_size_limit_is_refused_unread(tmp_path):
    """A 60 MB (sparse) file is refused by its size alone, from a path or as bytes."""
    from transformer.config import MAX_CHECKPOINT_BYTES

    path = tmp_path / "huge.safetensors"
    with open(path, "wb") as f:
        f.truncate(MAX_CHECKPOINT_BYTES + 1)
    with pytest.raises(CheckpointError, match="larger than 50,000,000 bytes"):
        load_checkpoint(path)
    with pytest.raises(CheckpointError, match="larger than 50,000,000 bytes"):
        load_checkpoint(b"\0" * (MAX_CHECKPOINT_BYTES + 1))
