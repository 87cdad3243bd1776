"""A pretrained model larger than a checkpoint of this app holds (a real opus-mt model): the Train page says so where
its download would be, and Publish refuses it in the same one line, with both figures; nothing is saved to find out."""

from __future__ import annotations

import dataclasses

import pytest

from tests.apptest_helpers import open_app, texts
from transformer.config import MAX_CHECKPOINT_BYTES, MAX_VOCAB_SIZE
from transformer.data import Vocab
from transformer.model import Transformer
from transformer.opening import open_model
from transformer.store import ModelStore
from transformer.translator import Translator
from ui.model_cache import CurrentModel

SAID = "cannot be published or downloaded here"


@pytest.fixture(scope="module")
def too_large(tmp_path_factory) -> Translator:
    """A tiny Marian model whose vocabulary has grown past MAX_VOCAB_SIZE, as a real opus-mt model's is."""
    pytest.importorskip("transformers")
    from tests.transformer.marian_folder import write_marian_folder

    folder = tmp_path_factory.mktemp("marian") / "tiny-marian"
    write_marian_folder(folder)
    marian = open_model(folder)
    size = MAX_VOCAB_SIZE + 1
    itos = marian.tgt_vocab.itos + tuple(f"▁x{i}" for i in range(size - len(marian.tgt_vocab)))
    vocab = Vocab(itos, marian.tgt_vocab.specials)
    cfg = dataclasses.replace(marian.config, src_vocab_size=size, tgt_vocab_size=size)
    return Translator(Transformer(cfg), vocab, vocab, marian.tokenizer)


def test_the_train_page_and_publish_say_why_a_model_too_large_for_a_checkpoint_stays_a_folder(
    too_large, tmp_path, monkeypatch
):
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE", str(tmp_path / "store"))
    at = open_app(page="pages/train.py", model=CurrentModel(too_large, "opened", name="opened (big)"))
    assert not at.exception
    (caption,) = [c for c in texts(at, "caption") if SAID in c]
    assert f"{MAX_VOCAB_SIZE + 1:,} pieces" in caption and f"{MAX_CHECKPOINT_BYTES:,} bytes" in caption
    at.button(key="publish").click().run()
    assert any(SAID in e and f"{MAX_VOCAB_SIZE + 1:,} pieces" in e for e in texts(at, "error"))
    assert ModelStore.from_env().entries() == []
