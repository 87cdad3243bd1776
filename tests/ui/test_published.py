"""Publishing a model and opening a link's model in the app (issue 22), through Streamlit's AppTest: the Publish
button, a fresh tab opened on the link, a model that is not in the store, a hostile or damaged one, and the way back
to the learner's own model."""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

import pytest

from tests.apptest_helpers import open_app, open_link, opened_page, texts
from tests.conftest import TINY
from transformer import Translator, checkpoint
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.data import parse_pairs
from transformer.store import ModelStore, fingerprint
from ui.model_cache import CurrentModel

ATTN = "pages/attention.py"
PAIRS = parse_pairs((Path(__file__).resolve().parents[2] / "assets" / "pairs.tsv").read_bytes())
TODAY = time.strftime("%Y-%m-%d", time.gmtime())


def tiny(seed: int) -> Translator:
    return Translator.create(PAIRS, seed=seed, **TINY)


@pytest.fixture
def store(tmp_path, monkeypatch) -> ModelStore:
    """The app's model store, in a folder of this test."""
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE", str(tmp_path / "store"))
    return ModelStore.from_env()


def sidebar_text(at) -> str:
    return " ".join(m.value for m in at.sidebar.markdown).replace("\\", "")


def test_publish_then_a_fresh_tab_on_the_link_has_the_same_model_and_view(store):
    mine = tiny(3)
    at = open_app(page=ATTN, model=CurrentModel(mine, "uploaded", name="lesson.safetensors"))
    at.selectbox(key="attn_head").set_value(1).run()
    assert at.button(key="publish").label == "Publish this model"
    at.text_input(key="publish_name").input("Lesson 3: colours").run()
    at.button(key="publish").click().run()
    key = fingerprint(mine)
    done = at.button(key="publish_done")
    assert done.label == f"Published · {key}" and done.disabled
    assert texts(at, "success") == [f"Published as {key}: the link to this view now opens this model in any browser."]
    query = dict(at.query_params)
    assert query["model"] == key

    fresh = open_link(ATTN, query)  # another tab: its own session, which starts with the bundled model
    assert not fresh.exception
    model = fresh.session_state["model"]
    assert model.source == "published" and model.fingerprint == key
    assert f"From: published {TODAY}, Lesson 3: colours" in sidebar_text(fresh)
    assert texts(fresh, "info")[0] == (
        f"This tab now uses the model this link was made with ({key}, published {TODAY}, Lesson 3: colours)."
    )
    assert not [w for w in texts(fresh, "warning") if "This link was made with" in w]
    assert fresh.selectbox(key="attn_head").value == 1 and fresh.selectbox(key="attn_layer").value == 1
    assert dict(fresh.query_params)["model"] == key
    assert fresh.button(key="publish_done").label == f"Published · {key}"
    assert store.find(key).name == "Lesson 3: colours"


def test_publishing_the_same_model_from_another_tab_stores_nothing_new(store):
    store.publish(tiny(3), "first")
    at = open_app(page=ATTN, model=CurrentModel(tiny(3), "trained"))
    assert at.button(key="publish_done").label == f"Published · {fingerprint(tiny(3))}"  # known to the store
    assert len(store.entries()) == 1 and store.entries()[0].name == "first"


def test_an_old_link_with_8_digits_still_names_the_model():
    bundled = opened_page().session_state["model"].fingerprint
    fresh = open_link(ATTN, {"model": bundled[:8], "model_name": "bundled", "head": "1"})
    assert not fresh.exception and not texts(fresh, "warning")  # the tab's own model: nothing to say
    assert dict(fresh.query_params)["model"] == bundled  # written back with all 16 digits


def test_a_link_whose_model_is_not_in_the_store_says_so_and_keeps_the_warning(store):
    key = store.publish(tiny(4), "gone soon")[0].hash
    store.remove(key)  # as evicted
    for link_hash in (key, "0123456789abcdef", key[:8]):
        fresh = open_link(ATTN, {"model": link_hash, "model_name": "mine", "head": "1"})
        assert not fresh.exception and fresh.session_state["model"].source == "bundled"
        warning = next(w for w in texts(fresh, "warning") if "This link was made with" in w)
        assert warning.startswith(
            "That model is not in this server's model store: it was never published, or it was removed to make room. "
            f"This link was made with the model “mine” ({link_hash}); this tab's current model is “bundled”"
        )


HOSTILE = ["../outside", "../../../../etc/passwd", "/etc/passwd", "a" * 10_000, "０１２３４５６７", "0123abcd/.."]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_model_in_a_link_is_refused_with_a_notice_and_no_file_is_touched(store, tmp_path, text):
    store.publish(tiny(5))
    outside = tmp_path / "outside.safetensors"
    outside.write_bytes(save_checkpoint(tiny(6)))
    os.utime(outside, (1e9, 1e9))
    before = sorted((p.name, p.stat().st_mtime) for p in store.folder.iterdir())
    fresh = open_link(ATTN, {"model": text, "head": "1"})
    assert not fresh.exception and fresh.session_state["model"].source == "bundled"
    notice = " ".join(texts(fresh, "warning"))
    assert "Some values in this link do not fit here and were replaced: model=" in notice
    assert "→ this tab's model" in notice and len(notice) < 400
    assert sorted((p.name, p.stat().st_mtime) for p in store.folder.iterdir()) == before
    assert (outside.stat().st_mtime, outside.stat().st_atime) == (1e9, 1e9)


def test_a_damaged_published_model_is_refused_with_a_message_and_not_served_again(store):
    key = store.publish(tiny(5), "broken")[0].hash
    path = store.folder / f"{key}.safetensors"
    path.write_bytes(path.read_bytes()[:1000])  # truncated
    fresh = open_link(ATTN, {"model": key, "model_name": "broken"})
    assert not fresh.exception and fresh.session_state["model"].source == "bundled"
    warning = next(w for w in texts(fresh, "warning") if "This link was made with" in w)
    assert warning.startswith(
        f"That model could not be opened from this server's model store: the published model {key} is damaged ("
    )
    assert "it was set aside and will not be opened again" in warning
    again = open_link(ATTN, {"model": key, "model_name": "broken"})
    assert " ".join(texts(again, "warning")).startswith("That model is not in this server's model store")


def test_a_damaged_model_in_a_read_only_store_is_said_to_be_damaged_on_every_visit_and_read_once(store, monkeypatch):
    key = store.publish(tiny(5), "broken")[0].hash
    path = store.folder / f"{key}.safetensors"
    path.write_bytes(path.read_bytes()[:1000])  # truncated
    reads = []
    monkeypatch.setattr(checkpoint, "load_checkpoint", lambda data: reads.append(1) or load_checkpoint(data))

    def read_only(*args, **kwargs):  # as on a store mounted read-only (chmod does not stop root)
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(os, "replace", read_only)
    for visit in range(2):
        fresh = open_link(ATTN, {"model": key, "model_name": "broken"})
        assert not fresh.exception and fresh.session_state["model"].source == "bundled"
        warning = next(w for w in texts(fresh, "warning") if "This link was made with" in w)
        assert warning.startswith(
            f"That model could not be opened from this server's model store: the published model {key} is damaged ("
        ), visit
        assert (
            "and the model store would not let it be set aside (Read-only file system): it will not be opened, and "
            f"whoever runs the server should delete {key}.safetensors from the store."
        ) in warning
        assert "cannot be used" not in warning
    assert reads == [1]  # the second visit did not read it again


def test_a_links_model_replaces_the_learners_own_only_with_a_notice_and_they_can_go_back(store):
    key = store.publish(tiny(7), "teacher's")[0].hash
    own = CurrentModel(tiny(8), "trained")
    at = open_app(page=None, model=own)  # the tab has a model of its own when it reads the link
    at.query_params["model"] = key
    at.session_state["_link_globals_read"] = False
    at.switch_page(ATTN).run()
    assert at.session_state["model"].fingerprint == key
    assert texts(at, "info")[0].endswith(
        "Your own model (trained here) is kept: “Back to your model” in the sidebar brings it back."
    )
    back = at.button(key="back_to_own_model")
    assert back.label == "Back to your model (trained here)"
    back.click().run()
    assert at.session_state["model"] is own
    assert not [b for b in at.button if b.key == "back_to_own_model"]
    assert "From: trained here" in sidebar_text(at)


def test_publishing_is_refused_with_a_message_when_the_model_or_the_store_is_over_its_limit(store, monkeypatch):
    store.publish(tiny(9))  # opened within the hour: never evicted
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE_MODELS", "1")
    at = open_app(page=ATTN, model=CurrentModel(tiny(10), "trained"))
    at.button(key="publish").click().run()
    assert texts(at, "error")[0].startswith("The model store is full (1 models, ")
    assert at.button(key="publish").label == "Publish this model" and len(store.entries()) == 1
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE_MODELS", "many")
    at.run()
    assert texts(at, "error")[0] == (
        "The server's setting PLAYGROUND_MODEL_STORE_MODELS is not a whole number of at least 1: whoever runs the "
        "server should fix it."
    )
    assert at.button(key="publish").disabled
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE_MODELS", "5")
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE_BYTES", "1000")
    at.run()
    at.button(key="publish").click().run()
    size = len(save_checkpoint(tiny(10)))
    assert texts(at, "error")[0] == (
        f"This model's checkpoint is {size:,} bytes, more than the 1,000 the model store takes: it cannot be "
        "published. Download it from the Train page and share the file instead."
    )
    blocked = store.folder / "not a folder"
    blocked.write_text("")
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE", str(blocked / "store"))
    at.run()
    assert texts(at, "error")[0] == (
        f"The model store at {blocked / 'store'} cannot be used (Not a directory): whoever runs the server should "
        "set PLAYGROUND_MODEL_STORE to a folder it can write."
    )
    assert at.button(key="publish").disabled


def test_a_published_name_is_shown_as_text(store):
    key = store.publish(tiny(11), "**bold** $x$ <b>y</b> \x1b[31m")[0].hash
    fresh = open_link(ATTN, {"model": key})
    source = next(m.value for m in fresh.sidebar.markdown if m.value.startswith("- From:"))
    assert r"\*\*bold\*\* \$x\$ \<b\>y\<\/b\> \\x1b\[31m" in source.split("\n")[0]
    assert "\x1b" not in " ".join(texts(fresh, "info"))


def test_the_name_typed_for_one_model_is_cleared_when_another_becomes_the_current_one(store):
    at = open_app(page=ATTN, model=CurrentModel(tiny(3), "uploaded", name="lesson.safetensors"))
    at.text_input(key="publish_name").input("Lesson 5: word order").run()
    at.selectbox(key="attn_head").set_value(1).run()  # other clicks keep it
    assert at.text_input(key="publish_name").value == "Lesson 5: word order"
    at.session_state["model"] = CurrentModel(tiny(4), "trained")  # a new training, or the bundled model restored
    at.run()
    assert at.text_input(key="publish_name").value == ""
    at.button(key="publish").click().run()
    assert store.find(fingerprint(at.session_state["model"].translator)).name != "Lesson 5: word order"


def test_a_published_model_carries_its_datas_credits_whole_to_the_tab_that_opens_it(store):
    from dataclasses import replace

    from transformer.columns import infer_roles, read_file, take_pairs
    from transformer.credits import credits_of
    from transformer.summary import DataRecord

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "fra-eng.txt"
    found = read_file(fixture.read_bytes(), "fra-eng.txt")
    taken = take_pairs(found, infer_roles(found))
    credits = credits_of(taken.extra["attribution"], taken.lines)
    mine = Translator.create(taken.pairs, seed=0, **TINY)
    data = DataRecord(data_credit="CC-BY 2.0 (France) Attribution: tatoeba.org (45 pairs)", credits=credits)
    mine.summary = replace(mine.summary, data=data)
    at = open_app(page=ATTN, model=CurrentModel(mine, "trained"))
    at.button(key="publish").click().run()
    fresh = open_link(ATTN, dict(at.query_params))
    assert fresh.session_state["model"].translator.summary.data.credits == credits
    captions = [c.value.replace("\\", "") for c in fresh.sidebar.caption]
    assert "Data: CC-BY 2.0 (France) Attribution: tatoeba.org (45 pairs)" in captions
    assert any(c.startswith("Sentences by 6 contributors (CC-BY asks for the authors): ") for c in captions)
    assert any(
        c.startswith("Sentence numbers and contributors by file line: 1: #1204 (amy_w) & #450036") for c in captions
    )
