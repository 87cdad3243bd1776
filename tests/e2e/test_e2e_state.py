"""What the learner sets survives a background job, in a real browser (issue 20 §3 and §5): the steps a new user took
when the Train form, the Decoding page and the Inside page lost their values, and a Stop on a larger model, which
says what it is doing until the partly trained model is ready."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import (
    NAV,
    PAGE_SLUGS,
    TITLES,
    TRAIN_TIMEOUT,
    alert,
    choose,
    expect,
    go_to,
    link_says,
    no_exception,
    press_epochs,
    press_holdout,
    press_slider,
    settled,
    sidebar,
    use_tutorial_pairs,
    widget,
)

pytestmark = pytest.mark.e2e


def _leave_at_once(page, slug: str) -> None:
    """Click a page in the navigation without waiting for the current run to end, as a quick learner does."""
    index = PAGE_SLUGS.index(slug)
    # by its accessible name, as go_to finds it: the link's text also holds its icon's name (Material Symbols)
    sidebar(page).get_by_role("link", name=re.compile(rf"^\W*{re.escape(NAV['en'][index])}$")).click()
    expect(page.locator("h1").first).to_have_text(TITLES["en"][index])
    settled(page)


def _type_sentence(page, text: str) -> None:
    main = page.get_by_test_id("stMain")
    main.get_by_test_id("stRadio").get_by_text("type a source sentence", exact=True).click()
    settled(page)
    box = main.get_by_role("textbox", name="type a source sentence")
    box.fill(text)
    box.press("Enter")
    settled(page)


def _slider(page, label: str):
    return widget(page, "stSlider", label).get_by_role("slider")


def _checked(page, option: str):
    """The radio button of the main area whose label is `option`."""
    return page.get_by_test_id("stMain").get_by_role("radio", name=option, exact=True)


def _set_decoding_and_inside(page) -> None:
    go_to(page, "decoding")
    _type_sentence(page, "我 喜 欢 猫")
    _checked(page, "beam search").check(force=True)
    link_says(page, "strategy", "beam")
    settled(page)
    go_to(page, "inside")
    _type_sentence(page, "他 喜 欢 你")
    for step in ("2", "3", "4"):  # each click once the step before it is shown: a click during that run may be lost
        page.get_by_role("button", name="Next step ▶").click()
        expect(_slider(page, "step")).to_have_attribute("aria-valuetext", step)
        settled(page)


def _check_decoding(page) -> None:
    go_to(page, "decoding")
    expect(page.get_by_test_id("stMain").get_by_role("textbox", name="type a source sentence")).to_have_value(
        "我 喜 欢 猫"
    )
    expect(_checked(page, "beam search")).to_be_checked()


def test_settings_and_views_survive_a_training_that_ends_on_another_page(page):
    use_tutorial_pairs(page)  # 255 epochs of seconds, and held out from 0 %, as in the issue
    _set_decoding_and_inside(page)
    go_to(page, "lab")
    choose(page, "Experiment", "Your own variant")
    page.get_by_text("divide scores by √d_k", exact=True).click()
    settled(page)
    variant = page.get_by_text(re.compile(r"Variant: scale=False\.$"))
    expect(variant).to_be_visible()

    # the steps: on Train, epochs 255 and 20 % held out, Train, and go to Masks at once
    go_to(page, "train")
    assert press_epochs(page, "End", *["ArrowLeft"] * 29) == "255"
    assert press_holdout(page, "ArrowRight", "ArrowRight") == "20%"  # shown by the server before Train
    page.get_by_role("button", name="Train", exact=True).click()
    _leave_at_once(page, "masks")
    expect(sidebar(page).get_by_test_id("stProgress")).to_contain_text(re.compile(r"epoch \d+/255 · loss"))
    _check_decoding(page)  # a page switch while the job's progress redraws itself

    # when "Training finished" appears, back to Train: the form is as the learner left it
    finished = page.get_by_test_id("stToast").filter(has_text="Training finished after 255 epochs")
    expect(finished).to_be_visible(timeout=TRAIN_TIMEOUT)
    settled(page)
    go_to(page, "train")
    expect(alert(page, "Success", "Trained 255 epochs")).to_be_visible()
    expect(page.get_by_test_id("stMetric").filter(has_text="exact-match, held out")).to_be_visible()
    expect(_slider(page, "epochs")).to_have_attribute("aria-valuetext", "255")
    expect(_slider(page, "held out of training")).to_have_attribute("aria-valuetext", "20%")
    _check_decoding(page)
    go_to(page, "inside")
    expect(page.get_by_test_id("stMain").get_by_role("textbox", name="type a source sentence")).to_have_value(
        "他 喜 欢 你"
    )
    expect(_slider(page, "step")).to_have_attribute("aria-valuetext", "4")  # the new model has as many steps
    go_to(page, "lab")
    expect(page.get_by_role("combobox", name="Experiment", exact=True)).to_have_value("Your own variant")
    expect(variant).to_be_visible()
    expect(page.get_by_text(re.compile(r"255 epochs, learning rate"))).to_be_visible()  # the Lab trains as set
    no_exception(page)


STOPPING = re.compile(r"^Stopping: (finishing epoch \d+ \(\d+ s so far; an epoch takes about \d+ s\)|evaluating)")


def test_stop_on_a_larger_model_says_what_it_does_and_keeps_every_value(page):
    use_tutorial_pairs(page)  # epochs of seconds on this model, not minutes
    go_to(page, "train")
    press_slider(page, "d_model", "End")  # d_model 256 and 6 layers: epochs of seconds, which the learner waits on
    press_slider(page, "n_layers", "End")
    assert press_epochs(page, "End") == "400"
    page.get_by_role("button", name="Train", exact=True).click()
    _leave_at_once(page, "attention")  # the job starts all the same
    choose(page, "head", "3")
    progress = sidebar(page).get_by_test_id("stProgress")
    expect(progress).to_contain_text(re.compile(r"epoch \d+/400 · loss"), timeout=TRAIN_TIMEOUT)
    sidebar(page).get_by_role("button", name="Stop", exact=True).click()
    expect(sidebar(page).get_by_text(STOPPING)).to_be_visible()  # not a bare "Stopping…" for the whole wait
    stopped = page.get_by_test_id("stToast").filter(has_text=re.compile(r"Training stopped after epoch \d+"))
    expect(stopped).to_be_visible(timeout=TRAIN_TIMEOUT)
    settled(page)
    expect(page.locator("h1").first).to_have_text("Attention")  # the learner stayed where they were
    expect(page.get_by_role("combobox", name="head", exact=True)).to_have_value("3")
    go_to(page, "train")
    expect(_slider(page, "d_model")).to_have_attribute("aria-valuetext", "256")
    expect(_slider(page, "n_layers")).to_have_attribute("aria-valuetext", "6")
    expect(_slider(page, "epochs")).to_have_attribute("aria-valuetext", "400")
    no_exception(page)
