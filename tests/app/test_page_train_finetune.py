"""The Train page continues training the current model (issue 40 §5) through AppTest: the sizes fixed, the tokens the
model lacks counted, one training through the job queue, the scores before and after, and the result published."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from tests.apptest_helpers import finish_job, open_app, texts
from tests.conftest import TINY
from transformer import TrainConfig
from transformer.data import parse_pairs
from transformer.plan import TrainingPlan
from transformer.store import ModelStore, fingerprint
from ui.model_cache import CurrentModel

pytestmark = pytest.mark.slow  # trainings through the job queue

TRAIN = "pages/train.py"
PAIRS = parse_pairs((Path(__file__).resolve().parents[2] / "assets" / "pairs.tsv").read_bytes())
NEW = [("我 喜 欢 斑 马", "I like zebras ."), ("斑 马 很 好", "zebras are good .")]


@pytest.fixture
def store(tmp_path, monkeypatch) -> ModelStore:
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE", str(tmp_path / "store"))
    return ModelStore.from_env()


def _lesson_model() -> CurrentModel:
    """An uploaded tiny model, trained a little on the bundled pairs and shared read-only (as an opened one is)."""
    plan = TrainingPlan.from_rows(PAIRS, [], sizes=TINY, config=TrainConfig(epochs=3, seed=2))
    translator = plan.build()
    for _ in plan.train(translator):
        pass
    return CurrentModel(translator.share(), "uploaded", name="lesson.safetensors")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_train_page_continues_training_the_current_model_and_shows_before_and_after(store, lang):
    base = _lesson_model()
    weights = {k: v.clone() for k, v in base.translator.model.state_dict().items()}
    at = open_app(lang, page=TRAIN, model=base, pairs=PAIRS + NEW)
    assert not at.exception
    toggle = at.toggle(key="from_current")
    assert toggle.label == ("Continue training the current model" if lang == "en" else "继续训练当前模型")
    toggle.set_value(True).run()
    assert all(at.select_slider(key=k).disabled for k in ("d_model", "n_heads", "d_ff"))
    assert at.slider(key="n_layers").disabled and at.slider(key="dropout").disabled
    shown = " ".join(texts(at, "caption") + texts(at, "info"))
    if lang == "en":
        assert "The sizes are the current model's (uploaded (lesson.safetensors))" in shown
        assert "4 source and 2 target tokens of these pairs are not in the model's vocabularies" in shown
    else:
        assert "有 4 个源语言词元和 2 个目标语言词元不在模型的词表里" in shown
    at.select_slider(key="holdout").set_value(0.2).run()
    at.slider(key="epochs").set_value(5).run()
    at.button(key="train_button").click().run()
    finish_job(at)
    assert not at.exception
    model = at.session_state["model"]
    assert model.source == "trained" and model.translator.summary.epochs == 5
    assert model.translator.src_vocab.itos == base.translator.src_vocab.itos
    assert model.translator.config == base.translator.config
    assert all(torch.equal(v, weights[k]) for k, v in base.translator.model.state_dict().items())  # shared: untouched
    (line,) = [m for m in texts(at, "markdown") if "BLEU" in m and "→" in m]
    if lang == "en":
        pattern = (
            r"\*\*Before and after\*\* on the 10 held-out pairs: exact match [\d.]+% → [\d.]+%, "
            r"BLEU [\d.]+ → [\d.]+, chrF [\d.]+ → [\d.]+\."
        )
        assert re.fullmatch(pattern, line)
        assert model.name == "uploaded (lesson.safetensors), trained further"
    else:
        assert line.startswith("**训练前后**（10 个留出句子对）：完全匹配率 ")
    after = model.translator.summary.scores.get("all", "holdout")
    assert f"{after.exact_match:.1%}" in line.split("→")[1] and f"{after.chrf:.1f}" in line.split("→")[-1]
    # the result publishes and links like any model
    at.button(key="publish").click().run()
    assert store.find(fingerprint(model.translator)) is not None
    assert at.button(key="publish_done").label.endswith(fingerprint(model.translator))


def test_an_opened_marian_model_is_trained_further_on_the_train_page_and_published(store, tmp_path):
    pytest.importorskip("transformers")
    from tests.transformer.marian_folder import SOURCES, TARGETS, write_marian_folder

    folder = tmp_path / "tiny-marian"
    write_marian_folder(folder)
    at = open_app(page=TRAIN, pairs=list(zip(SOURCES, TARGETS)))
    at.text_input(key="open_spec").input(str(folder))
    at.button[[b.label for b in at.button].index("Open")].click().run()
    opened = at.session_state["model"]
    assert opened.source == "opened"
    weights = {k: v.clone() for k, v in opened.translator.model.state_dict().items()}
    at.toggle(key="from_current").set_value(True).run()
    assert at.select_slider(key="d_model").disabled
    assert any(f"The sizes are the current model's (opened ({folder}))" in c for c in texts(at, "caption"))
    at.select_slider(key="holdout").set_value(0.2).run()
    at.slider(key="epochs").set_value(1).run()  # a fine-tuning may be one epoch
    at.button(key="train_button").click().run()
    finish_job(at)
    assert not at.exception
    model = at.session_state["model"]
    assert model.source == "trained" and model.translator.summary.epochs == 1
    assert (
        model.translator.tgt_vocab.itos == opened.translator.tgt_vocab.itos
        and model.translator.tgt_vocab.itos[-1] == "<pad>"
    )
    assert model.name == f"opened ({folder}), trained further"
    assert all(torch.equal(v, weights[k]) for k, v in opened.translator.model.state_dict().items())
    (line,) = [m for m in texts(at, "markdown") if "→" in m and "BLEU" in m]
    assert line.startswith("**Before and after** on the 2 held-out pairs: exact match ")
    assert not any("cannot be published or downloaded" in c for c in texts(at, "caption"))  # a tiny one fits
    # the result publishes and links like any model, and opens from the store translating as it did
    at.button(key="publish").click().run()
    assert not texts(at, "error")
    key = fingerprint(model.translator)
    assert at.button(key="publish_done").label.endswith(key)
    published, _ = store.open(key)
    for source in SOURCES[:3]:
        assert published.translate(source).tokens == model.translator.translate(source).tokens


def test_epochs_go_back_to_steps_of_five_when_training_from_scratch_again():
    at = open_app(page=TRAIN)
    at.toggle(key="from_current").set_value(True).run()
    at.slider(key="epochs").set_value(3).run()
    assert at.slider(key="epochs").min == 1 and at.slider(key="epochs").value == 3
    at.toggle(key="from_current").set_value(False).run()
    assert not at.exception
    assert at.slider(key="epochs").min == 5 and at.slider(key="epochs").value == 5
