"""A new learner in a real browser picks the corpus on the Data page, trains with a held-out split on the Train page,
and sees the held-out scores (issue 19 §3, §5): kept short with a small corpus."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import (
    TRAIN_TIMEOUT,
    alert,
    expect,
    go_to,
    no_exception,
    press_epochs,
    settled,
    widget,
)
from transformer import corpus

pytestmark = pytest.mark.e2e

SIZE = 200  # corpus pairs: with the corpus's recipe this trains in seconds


def test_a_new_learner_trains_on_the_corpus_with_a_held_out_split_and_sees_the_held_out_scores(page):
    # --- Data: a new tab starts on the corpus the bundled model learned from; made smaller here
    expect(
        alert(page, "Info", re.compile(r"The bundled model, .* was trained on the corpus \(2,000 pairs"))
    ).to_be_visible()
    expect(page.get_by_test_id("stRadio").get_by_role("radio", name="Corpus", exact=True)).to_be_checked()
    expect(
        page.get_by_text(re.compile(rf"^{corpus.DEFAULT_SIZE:,} pairs written by this project's grammar"))
    ).to_be_visible()
    size = widget(page, "stNumberInput", "Corpus pairs").locator("input")
    expect(size).to_have_value(f"{corpus.DEFAULT_SIZE:,}".replace(",", ""))
    size.fill(str(SIZE))
    size.press("Enter")
    expect(page.get_by_text(re.compile(rf"^{SIZE} pairs written by this project's grammar"))).to_be_visible()
    settled(page)  # the new size's run has started (its text is drawn): now it has ended, its stale elements gone
    expect(page.get_by_role("heading", name="Phenomena")).to_be_visible()

    # --- Train: the corpus's recipe, the new-combination split, train
    go_to(page, "train")
    expect(alert(page, "Info", re.compile(r"^Training settings follow the Corpus recipe"))).to_be_visible()
    page.get_by_test_id("stRadio").get_by_text("new combination", exact=True).click()
    settled(page)
    expect(page.get_by_text(re.compile(r"^Held-out sentences pair a subject with a verb"))).to_be_visible()
    made = page.get_by_text(re.compile(r"^\d+ pairs held out, \d+ trained on .* Pairings never trained on: "))
    expect(made).to_be_visible()
    held = int(made.inner_text().split(" ", 1)[0])
    press_epochs(page, "Home")  # 5 epochs: enough to see the table, short for the test
    page.get_by_role("button", name="Train", exact=True).click()
    done = alert(page, "Success", re.compile(r"^Trained \d+ epochs"))
    expect(done).to_be_visible(timeout=TRAIN_TIMEOUT)
    settled(page)
    no_exception(page)

    # --- the score table: the held-out rows of this split
    expect(page.get_by_text("Split: new combination, 10% held out (seed 0).")).to_be_visible()
    scores = page.get_by_test_id("stDataFrame").filter(has_text="chrF")
    expect(scores).to_have_count(1)
    expect(scores).to_contain_text("held out")
    expect(scores).to_contain_text(re.compile(rf"/{held}\)"))  # the exact-match count of every held-out pair
