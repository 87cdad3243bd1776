"""A learner's own real sentences in a real browser (issue 29): a Tatoeba-format file uploaded on the Data page, its
columns recognised with their roles and its attribution credited, the direction swapped, BPE subword pieces chosen and
shown, the paper's recipe picked on the Train page, a short training of a small model, and its translation joined back
into text on the Decoding page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.helpers import TRAIN_TIMEOUT, alert, expect, go_to, no_exception, press_slider, settled
from transformer.bpe import DEFAULT_BPE_VOCAB_SIZE, learn_bpe
from transformer.checkpoint import load_checkpoint
from ui.tables import piece_splits

pytestmark = pytest.mark.e2e

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "everyday_cmn_eng.txt"
ROWS = 30  # the 30-line file
CREDIT = "CC-BY 2.0 (France) Attribution: example.org"
BPE = "bpe: subword pieces learned from the data (byte-pair encoding, as in the paper)"


def test_a_tatoeba_file_swapped_trained_with_bpe_and_the_papers_recipe_translates_into_joined_text(page, tmp_path):
    rows = FIXTURE.read_text(encoding="utf-8").splitlines()[:ROWS]
    path = tmp_path / "cmn-eng.txt"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    pairs = [tuple(row.split("\t")[:2]) for row in rows]  # English → Chinese, once swapped

    # --- Data: the tab starts on the corpus, whose columns are shown as a file's, with where its pairs come from
    expect(page.get_by_text(re.compile(r"^Columns of the corpus \(4 columns"))).to_be_visible()
    corpus = page.get_by_test_id("stTable").filter(has=page.locator("th", has_text="4 · alignment (gold links)"))
    expect(corpus.locator("tbody tr").first).to_contain_text("0-0 1-1 2-1 3-2")  # the gold links of 我 喜 欢 你
    expect(
        page.get_by_text(re.compile(r"^Data: this project's grammar, transformer\.corpus \(2,000 pairs\)"))
    ).to_be_visible()

    # --- Data: the file is recognised, read Chinese → English, its columns' roles shown and its attribution credited
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Upload pairs")
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    expect(alert(page, "Success", f"Loaded {ROWS} pairs from cmn-eng.txt.")).to_be_visible()
    expect(alert(page, "Info", "Recognised by its attribution column: a Tatoeba/Anki download")).to_be_visible()
    settled(page)
    roles = [page.get_by_role("combobox", name=f"Column {n}", exact=True) for n in (1, 2, 3)]
    for box, role in zip(roles, ("target", "source", "attribution")):
        expect(box).to_have_value(role)
    credit = page.get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(r"^Data: "))
    expect(credit).to_have_text(f"Data: {CREDIT} ({ROWS} pairs)")
    direction = "Translating column {} ({}) → column {} ({})."
    english, chinese = "English", "Mandarin Chinese"
    expect(page.get_by_text(direction.format(2, chinese, 1, english))).to_be_visible()

    # --- the other direction: English → Chinese, with one click
    page.get_by_role("button", name="⇄ Swap direction").click()
    expect(page.get_by_text(direction.format(1, english, 2, chinese))).to_be_visible()
    settled(page)
    for box, role in zip(roles, ("source", "target", "attribution")):
        expect(box).to_have_value(role)
    expect(credit).to_have_text(f"Data: {CREDIT} ({ROWS} pairs)")  # the swap keeps the credit

    # --- subword pieces: how words split, and the piece vocabulary
    tokenization = page.get_by_role("combobox", name="Tokenization", exact=True)
    tokenization.click()  # as a keyboard user picks it: the options narrowed to one by typing, then Enter
    tokenization.fill("bpe:")
    expect(page.get_by_role("option")).to_have_text([BPE])
    tokenization.press("Enter")
    expect(tokenization).to_have_value(BPE)
    settled(page)
    expect(page.get_by_role("heading", name="Subword pieces")).to_be_visible()
    expect(page.get_by_text("How words split into pieces")).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Piece vocabulary \(\d+ pieces\)$"))).to_be_visible()
    # the grid is a canvas; its hidden accessibility table holds the header and the rows in view: the first word the
    # pieces learned from the table's pairs split, as transformer.bpe splits it
    splits = page.get_by_test_id("stDataFrame").filter(has=page.locator("th", has_text="pieces"))
    word, pieces, _ = piece_splits(learn_bpe(pairs, DEFAULT_BPE_VOCAB_SIZE), pairs, "en", 1).iloc[0]
    expect(splits.locator('tr[aria-rowindex="2"] td').nth(0)).to_have_text(word)
    expect(splits.locator('tr[aria-rowindex="2"] td').nth(1)).to_have_text(pieces)
    no_exception(page)

    # --- Train: a small model (d_model 32, d_ff 64, one layer), the paper's recipe in one click, the steps recipe of
    # the learner's own pairs (a few seconds)
    go_to(page, "train")
    assert press_slider(page, "d_model", "ArrowLeft") == "32"
    assert press_slider(page, "d_ff", "ArrowLeft") == "64"
    assert press_slider(page, "n_layers", "ArrowLeft") == "1"
    page.get_by_role("button", name="Use the paper's recipe").click()
    expect(page.get_by_text("Every item of the paper's training recipe is on.")).to_be_visible()
    settled(page)
    epochs = widget_value(page, "epochs")
    page.get_by_role("button", name="Train", exact=True).click()
    expect(alert(page, "Success", re.compile(rf"Trained {epochs} epochs in [\d.]+ s\."))).to_be_visible(
        timeout=TRAIN_TIMEOUT
    )
    settled(page)
    no_exception(page)
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download the current model").click()
    translator = load_checkpoint(download_info.value.path().read_bytes())
    assert translator.tokenizer.name == "bpe" and translator.summary.data.data_credit == f"{CREDIT} ({ROWS} pairs)"

    # --- Decoding: the table's first pair, English → Chinese, stepped to the end: its pieces joined into text
    go_to(page, "decoding")
    expect(page.get_by_role("combobox", name="Pair", exact=True)).to_have_value(re.compile(r"^Hi\.\s+→\s+你好"))
    press_slider(page, "step", "End")
    pieces = translator.translate("Hi.").tokens
    joined = translator.detokenize(pieces)
    assert "▁" not in joined and joined != " ".join(pieces), pieces  # pieces are marked; the text is not
    expect(alert(page, "Success", f"Translation: {joined} — ")).to_be_visible()
    no_exception(page)


def widget_value(page, label: str) -> str:
    """The value a slider shows (its thumb's aria-valuetext)."""
    thumb = page.get_by_test_id("stSlider").filter(has=page.get_by_text(label, exact=True)).get_by_role("slider")
    return thumb.get_attribute("aria-valuetext") or thumb.get_attribute("aria-valuenow") or ""
