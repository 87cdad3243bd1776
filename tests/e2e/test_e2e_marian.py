"""A real translator in a real browser (issue 40, done when): a saved tiny Marian folder is opened from the Train page,
drawn on Attention, Inside the model and the beam tree, fine-tuned for one epoch on the learner's pairs with its
scores before and after, downloaded from the Train page as a checkpoint that holds it whole, and published; its link
opens the published model in a fresh browser.

The folder is built offline in the test (tests/transformer/marian_folder.py): a random MarianMTModel and two
SentencePiece models trained on a few sentences, as save_pretrained writes them.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.helpers import (
    TRAIN_TIMEOUT,
    alert,
    copied_link,
    expect,
    go_to,
    heatmap_z,
    no_exception,
    open_app,
    press_epochs,
    settled,
    share_section,
    sidebar,
    widget,
)
from tests.e2e.test_e2e_store import publish

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def marian_folder(tmp_path_factory):
    from tests.transformer.marian_folder import write_marian_folder

    folder = tmp_path_factory.mktemp("marian") / "tiny-marian"
    write_marian_folder(folder)
    return folder


def _upload_pairs(page, tmp_path) -> None:
    """On the Data page, the learner's own pairs: the sentences the tiny model's pieces were learned from."""
    from tests.transformer.marian_folder import SOURCES, TARGETS

    path = tmp_path / "our-pairs.tsv"
    path.write_text("".join(f"{s}\t{t}\n" for s, t in zip(SOURCES, TARGETS)), encoding="utf-8")
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Upload pairs")
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    expect(alert(page, "Success", f"Loaded {len(SOURCES)} pairs from our-pairs.tsv.")).to_be_visible()
    settled(page)


def _open_folder(page, folder) -> None:
    """On the Train page, type the folder into the field that opens a real translator."""
    go_to(page, "train")
    box = page.get_by_role("textbox", name=re.compile(r"^Open a real translator"))
    box.fill(str(folder))
    page.get_by_role("button", name="Open", exact=True).click()
    expect(alert(page, "Success", f"Opened {folder}; it is now the current model")).to_be_visible()
    expect(sidebar(page)).to_contain_text(f"opened ({folder})")
    settled(page)


def _drawn(page, selector: str) -> None:
    """A chart of the page is drawn: visible, with data."""
    chart = page.locator(f"{selector}:not([data-stale='true']) .js-plotly-plot").first
    expect(chart).to_be_visible()
    chart.scroll_into_view_if_needed()
    expect(chart.locator(".main-svg").first).to_be_visible()
    no_exception(page)


def _pages_drawn(page) -> None:
    """Attention (its heatmap), Inside the model (the diagram and an attention map) and Decoding's beam tree."""
    go_to(page, "attention")
    chart = page.locator(".st-key-click_attn_chart:not([data-stale='true']) .js-plotly-plot")
    expect(chart).to_have_count(1)
    assert heatmap_z(chart), "the attention map has no cells"
    no_exception(page)
    go_to(page, "inside")
    _drawn(page, '[class*="st-key-diagram_inside"]')
    _drawn(page, '[class*="st-key-cellmap_inside"]')
    go_to(page, "decoding")
    page.get_by_role("radio", name="beam search").check(force=True)
    settled(page)
    tree = page.locator(".st-key-dec_beam_tree .js-plotly-plot")
    expect(tree).to_have_count(1)
    tree.scroll_into_view_if_needed()
    expect(tree.locator(".annotation-text").first).to_be_visible()  # the tree's tokens
    no_exception(page)


def _fine_tune_one_epoch(page) -> None:
    """Continue training the opened model for one epoch; its scores before and after once the job has finished."""
    go_to(page, "train")
    page.get_by_role("switch", name="Continue training the current model").check(force=True)
    epochs = widget(page, "stSlider", "epochs").get_by_role("slider")
    expect(epochs).to_have_attribute("min", "1")  # the switch's run has drawn the slider of a fine-tuning
    settled(page)
    assert press_epochs(page, "Home") == "1"
    page.get_by_role("button", name="Train", exact=True).click()
    line = page.get_by_text(
        re.compile(r"^Before and after on the .+: exact match .+ → .+, BLEU .+ → .+, chrF .+ → .+\.")
    )
    expect(line).to_be_visible(timeout=TRAIN_TIMEOUT)
    settled(page)
    expect(sidebar(page)).to_contain_text("trained further")
    no_exception(page)


def _downloaded(page, folder, tmp_path) -> None:
    """The Train page's download is a checkpoint of this app that holds the fine-tuned Marian model whole: its
    SentencePiece models, its vocabulary and the one epoch it trained."""
    from transformer.checkpoint import load_checkpoint
    from transformer.opening import open_model

    button = page.get_by_role("button", name="Download the current model")
    button.scroll_into_view_if_needed()
    with page.expect_download() as download:
        button.click()
    path = tmp_path / "downloaded.safetensors"
    download.value.save_as(path)
    model = load_checkpoint(path)
    assert model.summary.epochs == 1
    assert model.tokenizer.source_model == (folder / "source.spm").read_bytes()
    assert model.tgt_vocab == open_model(folder).tgt_vocab


def test_a_saved_marian_folder_is_drawn_fine_tuned_and_published(new_page, marian_folder, tmp_path):
    teacher = new_page()
    _upload_pairs(teacher, tmp_path)
    _open_folder(teacher, marian_folder)
    _pages_drawn(teacher)
    _fine_tune_one_epoch(teacher)
    _downloaded(teacher, marian_folder, tmp_path)

    key = publish(teacher, "Tiny Marian, fine-tuned")
    assert re.fullmatch(r"[0-9a-f]{16}", key)
    link = copied_link(teacher)
    assert f"model={key}" in link

    student = new_page(own_browser=True)  # the link in a fresh browser: a new session that has the bundled model
    open_app(student, link)
    today = time.strftime("%Y-%m-%d", time.gmtime())
    expect(alert(student, "Info", f"This tab now uses the model this link was made with ({key}")).to_be_visible()
    expect(sidebar(student)).to_contain_text(f"From: published {today}, Tiny Marian, fine-tuned")
    expect(share_section(student).get_by_role("button", name=f"Published · {key}")).to_be_disabled()
    no_exception(student)
