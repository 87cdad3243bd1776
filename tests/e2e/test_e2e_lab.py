"""The Lab in a real browser: a ready-made experiment trains both models in the background while the learner is on
another page, and the comparison shows the claim checked against this run (issue 11.3)."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import (
    TRAIN_TIMEOUT,
    alert,
    choose,
    copied_link,
    expect,
    go_to,
    no_exception,
    open_app,
    plotly_data,
    screenshot,
    settled,
    sidebar,
)
from transformer.lab import EXPERIMENTS
from transformer.splits import reordered_groups

pytestmark = pytest.mark.e2e


def _run(page, experiment: str) -> None:
    go_to(page, "lab")
    choose(page, "Experiment", experiment)
    settled(page)
    page.get_by_role("button", name="Run the experiment").click()
    # the click's run has started the job (the sidebar shows it) before the test goes anywhere: a page switch sent
    # before that run could replace it, and the click would be lost
    expect(sidebar(page).get_by_role("heading", name="Lab experiment", exact=True)).to_be_visible()


def _results(page):
    verdict = alert(page, "Success", "✓ The claim held in this run.")
    expect(verdict).to_be_visible(timeout=TRAIN_TIMEOUT)
    settled(page)
    no_exception(page)
    return verdict


def test_no_look_ahead_mask_trains_beside_the_baseline_while_the_learner_is_elsewhere(page):
    _run(page, "No look-ahead mask")
    go_to(page, "attention")  # both models go on training: the sidebar shows each one's progress on every page
    expect(sidebar(page)).to_contain_text("Lab experiment")
    epochs = EXPERIMENTS["no_look_ahead"].epochs  # on the corpus by default
    expect(sidebar(page).get_by_text(re.compile(rf"^baseline: epoch \d+/{epochs}"))).to_be_visible()
    expect(sidebar(page).get_by_text(re.compile(rf"^variant: epoch \d+/{epochs}"))).to_be_visible()
    expect(page.get_by_text(f"Lab experiment finished ({epochs} epochs each)")).to_be_visible(timeout=TRAIN_TIMEOUT)
    go_to(page, "lab")
    _results(page)
    measured = page.get_by_text(re.compile(r"^Measured: the variant's teacher-forced token accuracy is"))
    expect(measured).to_contain_text("but its greedy exact match only")
    accuracy, exact = (int(n) for n in re.findall(r"(\d+)%", measured.inner_text())[:2])
    assert accuracy >= 90 and exact <= 30
    scores = page.locator(".js-plotly-plot").nth(2)  # after the curves and the alignment error rate per epoch
    bars = plotly_data(scores)
    assert [b["name"] for b in bars] == ["baseline", "variant"]
    assert bars[1]["y"][0] >= 0.9 and bars[1]["y"][1] <= 0.3  # token accuracy high, exact match low
    screenshot(page, "lab-no-look-ahead")

    page.get_by_role("button", name="Make the variant the current model").click()
    expect(page.get_by_text("The variant is now the current model")).to_be_visible()
    expect(sidebar(page)).to_contain_text("no_look_ahead: variant")


def test_without_positions_a_reordered_sentence_gets_the_same_translation(page):
    _run(page, "No positional encoding")
    _results(page)
    pairs = EXPERIMENTS["no_pe"].corpus_pairs()
    groups = reordered_groups(pairs)
    rows = sum(map(len, groups))
    measured = page.get_by_text(re.compile(rf"^Measured on the {rows} trained pairs whose meaning changes with word"))
    expect(measured).to_contain_text(f"the same translation in {len(groups)} of {len(groups)} groups")
    table = page.get_by_test_id("stDataFrame").first
    for i in groups[0]:  # 我们看见她的猫 / 她的猫看见我们
        expect(table).to_contain_text(pairs[i][0])
    screenshot(page, "lab-no-positions")


def test_a_copied_link_opens_the_same_variant_in_a_new_browser(new_page):
    page = new_page()
    go_to(page, "lab")
    choose(page, "Experiment", "Your own variant")
    page.get_by_text("divide scores by √d_k", exact=True).click()  # the toggle, by its label
    settled(page)
    page.get_by_role("radio", name="pre").check(force=True)
    settled(page)
    expect(page.get_by_text(re.compile(r"Variant: scale=False, norm=pre\.$"))).to_be_visible()
    link = copied_link(page)
    assert "/lab?" in link and "experiment=custom" in link
    other = new_page(own_browser=True)  # a browser of its own: its own session
    open_app(other, link)
    no_exception(other)
    expect(other.get_by_role("combobox", name="Experiment", exact=True)).to_have_value("Your own variant")
    expect(other.get_by_text(re.compile(r"Variant: scale=False, norm=pre\.$"))).to_be_visible()
