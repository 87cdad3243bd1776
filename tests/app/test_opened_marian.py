"""A real translator opened in the app: a Marian folder typed on the Train page becomes the tab's model, held once per
server process and shared read-only; a refusal is one line and the model stays as it was."""

from __future__ import annotations

import pytest

from tests.apptest_helpers import PAGES, open_app, shown
from tests.transformer.marian_folder import write_marian_folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("marian") / "tiny-marian"
    write_marian_folder(path)
    return path


def _open(at, spec: str):
    at.text_input(key="open_spec").input(spec)
    at.button[[b.label for b in at.button].index("Open")].click().run()
    return at


def test_a_marian_folder_opens_as_the_tabs_model_shared_by_every_tab(folder):
    first = _open(open_app(page="pages/train.py"), str(folder))
    assert not first.exception
    assert any("it is now the current model" in s.value for s in first.success)
    model = first.session_state["model"]
    assert model.source == "opened" and model.translator.tgt_vocab.itos[-1] == "<pad>"
    assert any(f"opened ({folder})" in shown(m.value) for m in first.sidebar.markdown)
    second = _open(open_app(page="pages/train.py"), f" {folder} ")
    assert second.session_state["model"].translator is model.translator  # one copy per process, never deep-copied


def test_every_page_draws_an_opened_marian_model(folder):
    at = _open(open_app(page="pages/train.py"), str(folder))
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception[0].value)
        assert at.session_state["model"].source == "opened"


def test_a_name_not_in_the_cache_is_one_line_and_the_model_is_unchanged(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    at = _open(open_app(page="pages/train.py"), "hf:tiny-org/not-there")
    assert not at.exception
    (error,) = [e.value for e in at.error]
    assert "not in the Hugging Face cache" in error and "Marian folder" in error and "unchanged" in error
    assert at.session_state["model"].source == "bundled"


def test_a_checkpoint_path_is_sent_to_the_file_box(tmp_path):
    at = _open(open_app(page="pages/train.py"), str(tmp_path / "model.safetensors"))
    (error,) = [e.value for e in at.error]
    assert "load a checkpoint of this app with the file box" in error
