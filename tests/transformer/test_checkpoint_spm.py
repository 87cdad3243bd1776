"""A Marian model in a checkpoint of this app (issue 40 §5): its SentencePiece models and special tokens travel with
its weights, it translates the same after the round trip and after publishing, a damaged or hostile SentencePiece
part is one CheckpointError, and an ordinary model's checkpoint is as it was."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import torch
from safetensors.torch import save as st_save

from tests.transformer.checkpoints import parts, refused
from tests.transformer.marian_folder import SOURCES, write_marian_folder
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.checkpoint_spm import over_checkpoint_limits
from transformer.config import MAX_VOCAB_SIZE
from transformer.data import Vocab
from transformer.errors import StoreError
from transformer.model import Transformer
from transformer.opening import open_model
from transformer.spm import MAX_SPM_BYTES
from transformer.store import ModelStore, fingerprint
from transformer.translator import Translator

REPO = Path(__file__).resolve().parents[2]
SOURCE = "sentencepiece.source"


@pytest.fixture(scope="module")
def marian(tmp_path_factory):
    folder = tmp_path_factory.mktemp("marian") / "tiny-marian"
    write_marian_folder(folder)
    return open_model(folder)


@pytest.fixture(scope="module")
def data(marian) -> bytes:
    return save_checkpoint(marian)


def _same_translations(a, b) -> None:
    for source in SOURCES[:3]:
        first, second = a.translate(source), b.translate(source)
        assert first.tokens == second.tokens
        logits = [torch.log(step.probs) for step in first.steps], [torch.log(step.probs) for step in second.steps]
        assert all(torch.allclose(x, y, atol=1e-5) for x, y in zip(*logits))


def test_a_marian_model_round_trips_with_its_pieces_specials_and_translations(marian, data):
    loaded = load_checkpoint(data)
    assert loaded.tokenizer.source_model == marian.tokenizer.source_model
    assert loaded.tokenizer.target_model == marian.tokenizer.target_model
    assert loaded.src_vocab == marian.src_vocab and loaded.tgt_vocab.specials == marian.tgt_vocab.specials
    assert loaded.config == marian.config
    assert loaded.encode_source(SOURCES[1])[1] == marian.encode_source(SOURCES[1])[1]  # ending with </s>, as Marian
    _same_translations(marian, loaded)
    assert save_checkpoint(loaded) == data  # the same bytes again: the same fingerprint, the same link


def test_the_pieces_are_bytes_beside_the_weights_and_the_header_stays_small(marian, data):
    tensors, metadata = parts(data)
    assert tensors[SOURCE].dtype == torch.uint8 and tensors[SOURCE].numpy().tobytes() == marian.tokenizer.source_model
    assert json.loads(metadata["specials"]) == {"pad": "<pad>", "bos": "<pad>", "eos": "</s>", "unk": "<unk>"}
    header = int.from_bytes(data[:8], "little")
    assert header < 20_000 < len(marian.tokenizer.source_model)


def test_an_ordinary_checkpoint_is_as_it_was(trained_seed):
    bundled = load_checkpoint(REPO / "assets" / "model.safetensors")  # an older checkpoint still loads
    for translator in (bundled, trained_seed):
        data = save_checkpoint(translator)
        tensors, metadata = parts(data)
        assert set(metadata) == {"format", "format_version", "config", "src_vocab", "tgt_vocab", "tokenizer", "summary"}
        assert metadata["format_version"] == "1" and all(t.dtype == torch.float32 for t in tensors.values())
        assert load_checkpoint(data).translate("我 爱 你").tokens == translator.translate("我 爱 你").tokens


def _with(data: bytes, **tensors) -> bytes:
    saved, metadata = parts(data)
    return st_save({**saved, **tensors}, metadata=metadata)


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        (lambda t: t[: len(t) // 2].clone(), "the checkpoint's source SentencePiece model cannot be read"),  # truncated
        (
            lambda t: torch.randint(0, 256, (5000,), dtype=torch.uint8, generator=torch.Generator().manual_seed(0)),
            "the checkpoint's source SentencePiece model cannot be read",
        ),
        (lambda t: t.float(), "must be bytes"),  # wrong dtype
        (lambda t: t.view(1, -1).clone(), "not one row"),  # wrong shape
        (lambda t: torch.zeros(0, dtype=torch.uint8), "not one row"),  # empty
    ],
    ids=["truncated", "garbage", "float32", "two-dimensional", "empty"],
)
def test_a_damaged_sentencepiece_model_is_one_line(data, bad, match):
    saved, _ = parts(data)
    refused(_with(data, **{SOURCE: bad(saved[SOURCE])}), match)


def test_a_sentencepiece_model_over_its_limit_is_refused_before_it_is_read(data):
    refused(_with(data, **{SOURCE: torch.zeros(MAX_SPM_BYTES + 1, dtype=torch.uint8)}), "not one row of 1 to")


def test_pieces_without_their_tokenizer_or_a_tokenizer_without_its_pieces_is_refused(data, trained_seed):
    saved, metadata = parts(data)
    del saved[SOURCE]
    refused(st_save(saved, metadata=metadata), "do not match its tokenizer")
    ordinary = save_checkpoint(trained_seed)
    refused(_with(ordinary, **{SOURCE: parts(data)[0][SOURCE]}), "do not match its tokenizer")


@pytest.mark.parametrize(
    "specials",
    [
        None,
        "[]",
        json.dumps({"pad": "<pad>", "bos": "<pad>", "eos": "</s>"}),
        json.dumps(dict.fromkeys(("pad", "bos", "eos", "unk"), "nope")),
    ],
    ids=["missing", "a list", "no unk", "not in the vocabulary"],
)
def test_wrong_special_tokens_are_refused(data, specials):
    saved, metadata = parts(data)
    if specials is None:
        del metadata["specials"]
    else:
        metadata["specials"] = specials
    refused(st_save(saved, metadata=metadata), "special")


def test_a_published_marian_model_opens_and_translates_the_same(marian, tmp_path):
    store = ModelStore(tmp_path / "store")
    entry, new = store.publish(marian, "tiny marian")
    assert new and entry.hash == fingerprint(marian)
    published, _ = store.open(entry.hash)
    _same_translations(marian, published)


def test_a_pretrained_model_over_a_checkpoints_limits_is_refused_by_its_sizes(marian, tmp_path):
    assert over_checkpoint_limits(marian) is None
    size = MAX_VOCAB_SIZE + 1  # a real model's vocabulary, larger than a checkpoint of this app holds
    itos = marian.tgt_vocab.itos + tuple(f"▁x{i}" for i in range(size - len(marian.tgt_vocab)))
    vocab = Vocab(itos, marian.tgt_vocab.specials)
    cfg = dataclasses.replace(marian.config, src_vocab_size=size, tgt_vocab_size=size)
    large = Translator(Transformer(cfg), vocab, vocab, marian.tokenizer)
    figures = over_checkpoint_limits(large)
    assert figures["vocab"] == f"{size:,}" and figures["vocab_limit"] == f"{MAX_VOCAB_SIZE:,}"
    with pytest.raises(StoreError) as refusal:
        ModelStore(tmp_path / "store").publish(large)
    assert refusal.value.code == "store_model_not_a_checkpoint" and f"{size:,} pieces" in str(refusal.value)
    assert not (tmp_path / "store").exists() or not any((tmp_path / "store").iterdir())


def test_the_fingerprint_tells_models_that_split_text_differently(marian):
    tokenizer = marian.tokenizer
    swapped = dataclasses.replace(tokenizer, source_model=tokenizer.target_model, target_model=tokenizer.source_model)
    assert tokenizer.source_model != tokenizer.target_model  # the folder's two sides are learned apart
    other = dataclasses.replace(marian, tokenizer=swapped)
    assert fingerprint(other) != fingerprint(marian)  # same weights and vocabulary, other pieces: another link
    assert fingerprint(dataclasses.replace(marian, tokenizer=dataclasses.replace(tokenizer))) == fingerprint(marian)
