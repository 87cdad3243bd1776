"""One copy per process (issue 40 §6): the models tabs only read (the bundled model, a published model opened by a
link) are one read-only object every tab shares; a model a tab trains is its own."""

from __future__ import annotations

import pytest
import torch

from tests.apptest_helpers import finish_job, open_app, open_link
from tests.conftest import TINY
from transformer import Translator
from transformer.config import TrainConfig
from transformer.store import ModelStore, fingerprint
from transformer.train import train
from ui.datasets import bundled_pairs
from ui.model_cache import SHARED_MODELS, CacheKind, CurrentModel, bundled_model, shared_translator

ATTN = "pages/attention.py"


def weights(translator: Translator) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in translator.model.state_dict().items()}


def test_two_tabs_get_the_same_read_only_bundled_model():
    first, second = open_app(), open_app()
    assert not first.exception and not second.exception
    shared = first.session_state["model"].translator
    assert second.session_state["model"].translator is shared is bundled_model().translator
    model = shared.model
    assert not model.training and not any(p.requires_grad for p in model.parameters())
    with pytest.raises(RuntimeError, match="shared read-only"):
        model.train()
    model.eval()  # what every reader does: allowed
    assert model.num_parameters() > 0  # frozen parameters are still the model's


def test_training_a_copy_in_one_tab_leaves_the_shared_model_of_the_others_untouched():
    shared = bundled_model().translator
    before = weights(shared)
    mine = shared.own_copy()
    assert mine.model is not shared.model and mine.src_vocab is shared.src_vocab
    records = list(train(mine, bundled_pairs()[:8], TrainConfig(epochs=2, lr=0.01)))
    assert len(records) == 2
    changed = weights(mine)
    assert any(not torch.equal(changed[k], before[k]) for k in before)  # the copy learned…
    assert all(torch.equal(v, before[k]) for k, v in weights(bundled_model().translator).items())  # …the rest did not
    assert not shared.model.training and not any(p.requires_grad for p in shared.model.parameters())


@pytest.mark.slow
def test_a_tab_that_trains_gets_its_own_model_and_another_tab_keeps_the_shared_one():
    trainer, reader = open_app(data_dataset="tutorial"), open_app()
    shared = reader.session_state["model"].translator
    before = weights(shared)
    trainer.switch_page("pages/train.py").run()
    for key, value in {**TINY, "epochs": 3}.items():
        (trainer.slider if key in ("n_layers", "epochs") else trainer.select_slider)(key=key).set_value(value).run()
    trainer.button(key="train_button").click().run()
    finish_job(trainer)
    assert trainer.session_state["model"].source == "trained"
    assert trainer.session_state["model"].translator.model is not shared.model
    reader.run()
    assert reader.session_state["model"].translator is shared
    assert all(torch.equal(v, before[k]) for k, v in weights(shared).items())


def test_two_tabs_on_a_link_share_the_published_model(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE", str(tmp_path / "store"))
    published = Translator.create([("我爱你", "I love you")], seed=5, **TINY)
    entry, _ = ModelStore.from_env().publish(published)
    query = {"model": entry.hash}
    first, second = open_link(ATTN, query), open_link(ATTN, query)
    assert not first.exception and not second.exception
    a, b = first.session_state["model"], second.session_state["model"]
    assert a.source == b.source == "published" and a.fingerprint == fingerprint(published)
    assert a.translator is b.translator and a.translator.model.read_only


def test_the_shared_table_loads_once_keeps_no_failure_and_is_bounded():
    loads = []

    def load(seed):
        loads.append(seed)
        return Translator.create([("你好", "hello")], seed=seed, d_model=8, n_heads=1, d_ff=16, n_layers=1)

    first = shared_translator(("test", "a"), lambda: load(1))
    assert shared_translator(("test", "a"), lambda: load(2)) is first and loads == [1]
    assert first.model.read_only and not first.model.training
    assert shared_translator(("test", "gone"), lambda: None) is None
    assert shared_translator(("test", "gone"), lambda: load(3)) is not None  # a miss is not remembered
    for k in range(SHARED_MODELS):
        shared_translator(("test", "other", k), lambda k=k: load(10 + k))
    assert shared_translator(("test", "a"), lambda: load(4)) is not first  # dropped beyond SHARED_MODELS: loaded again


def test_tabs_on_one_shared_model_compute_its_derived_values_once():
    translator = shared_translator(("test", "caches"), lambda: Translator.create([("你好", "hello")], seed=7, **TINY))
    first, second = (CurrentModel(translator, "opened", name="a folder") for _ in range(2))
    computed = []
    assert first.cached((CacheKind.HEADS, "pairs"), lambda: computed.append(1) or "study") == "study"
    assert second.cached((CacheKind.HEADS, "pairs"), lambda: computed.append(2) or "again") == "study"
    assert computed == [1]  # the second tab found the first tab's value
    own = CurrentModel(translator.own_copy(), "trained")  # a tab's own model keeps its own values
    assert own.cached((CacheKind.HEADS, "pairs"), lambda: "its own") == "its own"
