"""A link carries its model (issue 22), in a real browser: a teacher uploads a model, publishes it and copies the link
to a view; a fresh browser opens the link and has the same model and view; so does a browser after the server was
restarted (and, in tests/e2e/test_e2e_classroom.py, a learner whom the classroom's nginx keeps on another app process).

Every server here keeps its published models in a folder of the test (PLAYGROUND_MODEL_STORE), never the user's cache.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.conftest import TINY
from tests.e2e.helpers import (
    ARTIFACTS,
    REPO,
    alert,
    choose,
    copied_link,
    expect,
    go_to,
    heatmap_z,
    learners,
    no_exception,
    open_app,
    settled,
    share_section,
    sidebar,
)
from transformer import Translator
from transformer.checkpoint import save_checkpoint
from transformer.data import parse_pairs
from transformer.store import fingerprint

pytestmark = pytest.mark.e2e

PAIRS = parse_pairs((REPO / "assets" / "pairs.tsv").read_bytes())


def lesson_model(tmp_path, seed: int = 11) -> tuple[str, object]:
    """A small model (not the bundled one) as a checkpoint file, and its fingerprint."""
    translator = Translator.create(PAIRS, seed=seed, **TINY)
    path = tmp_path / "lesson-3.safetensors"
    path.write_bytes(save_checkpoint(translator))
    return fingerprint(translator), path


def upload_model(page, path) -> None:
    """On the Train page, load a checkpoint; it becomes the current model."""
    go_to(page, "train")
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Load a checkpoint")
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    expect(alert(page, "Success", f"Loaded {path.name}; it is now the current model.")).to_be_visible()
    settled(page)


def publish(page, name: str) -> str:
    """Publish the current model under a name from the sidebar; the fingerprint its button then shows."""
    section = share_section(page)
    box = section.get_by_role("textbox", name="Name shown with it (optional)")
    box.fill(name)
    box.press("Enter")
    settled(page)
    section.get_by_role("button", name="Publish this model").click()
    done = section.get_by_role("button", name=re.compile(r"^Published · [0-9a-f]{16}$"))
    expect(done).to_be_visible()
    expect(done).to_be_disabled()
    settled(page)
    return done.inner_text().split("·")[1].strip()


def attention_map(page) -> list:
    """The Attention page's map of head 2 of layer 1, once its title says so (a choice's run starts a moment after
    the choice, and the map drawn before it is replaced)."""
    chart = page.locator(".st-key-click_attn_chart:not([data-stale='true']) .js-plotly-plot")
    expect(chart).to_have_count(1)
    expect(chart).to_contain_text("layer 1 · head 2")
    settled(page)
    return heatmap_z(chart)


def attention_view(page) -> list:
    """On the Attention page, choose head 2 of layer 1; the map it draws."""
    go_to(page, "attention")
    choose(page, "layer", "1")
    choose(page, "head", "2")
    return attention_map(page)


def expect_link_model(page, key: str, name: str) -> None:
    """The page shows the view with the link's model: said at the top and in the sidebar, and in its own URL."""
    today = time.strftime("%Y-%m-%d", time.gmtime())
    expect(alert(page, "Info", f"This tab now uses the model this link was made with ({key}")).to_be_visible()
    expect(sidebar(page)).to_contain_text(f"From: published {today}, {name}")
    expect(page.get_by_role("combobox", name="head", exact=True)).to_have_value("2")
    expect(page.get_by_role("combobox", name="layer", exact=True)).to_have_value("1")
    expect(page.get_by_test_id("stAlertContentWarning").filter(has_text="This link was made with")).to_have_count(0)
    assert f"model={key}" in page.url
    no_exception(page)


def test_a_published_model_opens_from_its_link_in_a_fresh_browser(new_page, tmp_path):
    key, path = lesson_model(tmp_path)
    teacher = new_page()
    upload_model(teacher, path)
    shown = attention_view(teacher)
    link = copied_link(teacher)
    expect(share_section(teacher).get_by_role("button", name="Publish this model")).to_be_visible()
    assert publish(teacher, "Lesson 3") == key
    assert copied_link(teacher) == link and f"model={key}" in link  # the same link: it now carries the model

    student = new_page(own_browser=True)  # a browser of its own: a new session with the bundled model
    open_app(student, link)
    expect_link_model(student, key, "Lesson 3")
    assert attention_map(student) == shown
    expect(share_section(student).get_by_role("button", name=f"Published · {key}")).to_be_disabled()


def test_a_link_to_a_model_never_published_says_so_in_the_browser(new_page, app_url):
    page = new_page()
    open_app(page, f"{app_url}/attention?model=0123456789abcdef&model_name=mine")
    warning = page.get_by_test_id("stAlertContentWarning").filter(has_text="This link was made with the model “mine”")
    expect(warning).to_contain_text("That model is not in this server's model store")
    expect(sidebar(page)).to_contain_text("From: bundled")
    open_app(page, f"{app_url}/attention?model=..%2F..%2Fetc%2Fpasswd&layer=0")
    expect(page.get_by_test_id("stAlertContentWarning").filter(has_text="→ this tab's model")).to_be_visible()
    no_exception(page)


def test_the_store_survives_a_server_restart(browser, tmp_path):
    from tests.e2e.server import streamlit_server

    env = {"PLAYGROUND_MODEL_STORE": str(tmp_path / "store")}
    key, path = lesson_model(tmp_path, seed=12)
    with learners(browser, "store-restart", locale="en-US") as fresh_page:
        with streamlit_server(ARTIFACTS / "store-server-1.log", env) as first:
            teacher = fresh_page(first.url)
            upload_model(teacher, path)
            attention_view(teacher)
            assert publish(teacher, "before the restart") == key
            link = copied_link(teacher)
        assert (tmp_path / "store" / f"{key}.safetensors").is_file()
        with streamlit_server(ARTIFACTS / "store-server-2.log", env) as second:  # a new process, nothing in memory
            student = fresh_page(link.replace(first.url, second.url))
            expect_link_model(student, key, "before the restart")
