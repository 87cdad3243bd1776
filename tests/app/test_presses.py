"""Train and the Lab's Run start what the learner sees when pressing them (ui.presses): a setting changed and the
button pressed before the change's run has drawn the page arrive in one message, as AppTest sends a changed widget
and a click in one run. The button's args are then the previous run's, made from the setting before the change."""

from __future__ import annotations

import pytest

from tests.apptest_helpers import open_app
from tests.conftest import PAIRS20
from ui.presses import LAB_SETTINGS, TRAINING_SETTINGS
from ui.training import job_queue

SMALL = PAIRS20[:8]


def job_of(at):
    return at.session_state.get("job")


@pytest.fixture
def stopped():
    """The jobs a test started, stopped when it ends (a test needs only their settings)."""
    jobs = []
    yield jobs
    for job in jobs:
        if job is not None:
            job_queue().stop(job)


def test_train_pressed_with_a_new_number_of_epochs_trains_that_number(stopped):
    at = open_app(page="pages/train.py", pairs=list(SMALL), holdout=0.0)
    assert at.slider(key="epochs").value != 7
    at.slider(key="epochs").set_value(7)
    at.button(key="train_button").click().run()
    job = job_of(at)
    stopped.append(job)
    assert not at.exception and job is not None and job.kind == "train"
    assert job.runs[0].config.epochs == 7  # the previous run's args said 40


def test_run_pressed_with_a_new_experiment_runs_that_experiment(stopped):
    at = open_app(page="pages/lab.py", pairs=list(SMALL), lab_data="table")
    assert at.selectbox(key="lab_experiment").value == "no_look_ahead"
    at.selectbox(key="lab_experiment").set_value("no_scale")
    at.button(key="run_lab").click().run()
    job = job_of(at)
    stopped.append(job)
    assert not at.exception and job is not None and job.payload["experiment"] == "no_scale"
    assert at.selectbox(key="lab_experiment").value == "no_scale"


def test_a_press_with_unchanged_settings_starts_at_once(stopped):
    """The press's own run starts it before the page runs, so a page switch in that same run keeps it."""
    at = open_app(page="pages/train.py", pairs=list(SMALL), holdout=0.0)
    at.button(key="train_button").click()
    at.switch_page("pages/masks.py").run()
    job = job_of(at)
    stopped.append(job)
    assert not at.exception and job is not None and job.runs[0].config.epochs == at.session_state.epochs
    assert not at.toast


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_press_with_a_changed_setting_and_a_page_switch_starts_nothing_and_says_so(lang):
    at = open_app(lang, page="pages/train.py", pairs=list(SMALL), holdout=0.0)
    at.slider(key="epochs").set_value(7)
    at.button(key="train_button").click()
    at.switch_page("pages/masks.py").run()
    assert not at.exception and job_of(at) is None  # not 40 epochs, which the learner no longer sees
    said = {"en": "Training did not start", "zh": "训练没有开始"}[lang]
    assert [toast.value for toast in at.toast if toast.value.startswith(said)]
    at.switch_page("pages/train.py").run()  # back on Train, the press is not taken again
    assert job_of(at) is None and not at.button(key="train_button").disabled


def input_keys(at) -> set[str]:
    """The keys of the main area's inputs (buttons, uploads, downloads and charts aside)."""
    keys = set()

    def walk(node) -> None:
        children = getattr(node, "children", None)
        for child in children.values() if isinstance(children, dict) else ():
            walk(child)
        kind = type(node).__name__
        if getattr(node, "key", None) and kind not in (
            "Button",
            "DownloadButton",
            "FileUploader",
            "Block",
            "UnknownElement",
        ):
            keys.add(node.key)

    walk(at.main)
    return keys


def test_every_setting_on_the_train_page_is_one_its_press_compares():
    at = open_app(page="pages/train.py", pairs=list(SMALL))
    shown = input_keys(at) - {"open_spec"}  # the field that opens a real translator: not a setting of a training
    assert {"epochs", "holdout", "split", "warmup", "tie_output"} <= shown
    assert shown - set(TRAINING_SETTINGS) == set()


def test_every_choice_of_the_lab_is_one_its_press_compares():
    at = open_app(page="pages/lab.py", pairs=list(SMALL), lab_experiment="custom")
    shown = input_keys(at) - {"lab_mode"}  # experiment or comparison: Run is drawn in one of them only
    assert {"lab_experiment", "lab_pe", "lab_norm"} <= shown
    assert shown - set(LAB_SETTINGS) == set()
