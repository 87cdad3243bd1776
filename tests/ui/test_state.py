"""What the learner sets survives (issue 20 §3): settings and view values outlive a job and page switches (every input
widget keeps its value while it is not drawn); a new model replaces only the values it cannot take, and says which;
Train starts its job even when the page is left at once; a job says what it does after Stop (§5)."""

from __future__ import annotations

import ast
import time

from jobs.queue import Job, JobQueue, Run
from tests import source
from tests.apptest_helpers import finish_job, open_app, texts
from tests.conftest import PAIRS20, REPO
from transformer import TrainConfig, Translator
from ui.i18n import t
from ui.model_cache import CurrentModel
from ui.session import MEMO_PREFIX
from ui.training import phase_text

TRAIN, MASKS, DEC, ATTN = (f"pages/{p}.py" for p in ("train", "masks", "decoding", "attention"))
SMALL = PAIRS20[:6]


INPUTS = {"slider", "select_slider", "selectbox", "radio", "multiselect", "text_input", "number_input", "toggle"}
INPUTS |= {"checkbox", "text_area", "segmented_control", "pills", "date_input", "time_input", "color_picker"}


def test_every_input_widget_keeps_its_value_while_it_is_not_drawn():
    # Streamlit drops the value of a widget it does not draw, and on a page switch that follows a fragment's rerun
    # (the job's progress, every second) the values of every page but the one left; persist_state="session" keeps
    # them. The browser test tests/e2e/test_e2e_state.py shows the loss without it.
    missing = []
    for path in sorted([*REPO.glob("pages/*.py"), *REPO.glob("ui/*.py"), REPO / "app.py"]):
        for node in source.nodes(path):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in INPUTS:
                keywords = {k.arg: k.value for k in node.keywords}
                persist = keywords.get("persist_state")
                if not (isinstance(persist, ast.Constant) and persist.value == "session"):
                    missing.append(f"{path.relative_to(REPO)}:{node.lineno} st.{node.func.attr}")
    assert missing == []


def test_settings_survive_page_switches_and_a_language_switch():
    at = open_app(page=TRAIN)
    memos = {name: at.session_state[MEMO_PREFIX + name][1] for name in ("usable", "pairs_summary")}
    at.slider(key="epochs").set_value(255).run()
    at.select_slider(key="holdout").set_value(0.2).run()
    at.switch_page(DEC).run()
    at.radio(key="pick_dec_mode").set_value("typed").run()
    at.text_input(key="pick_dec_text").input("我 喜 欢 猫").run()
    at.radio(key="dec_strategy").set_value("beam").run()
    at.switch_page(MASKS).run()
    at.sidebar.radio(key="lang").set_value("zh").run()
    at.switch_page(TRAIN).run()
    assert at.slider(key="epochs").value == 255 and at.select_slider(key="holdout").value == 0.2
    at.switch_page(DEC).run()
    assert at.text_input(key="pick_dec_text").value == "我 喜 欢 猫" and at.radio(key="dec_strategy").value == "beam"
    for name, value in memos.items():  # what the tab worked out once per table (ui.session.session_memo) is found
        assert at.session_state[MEMO_PREFIX + name][1] is value


def test_a_language_switch_sends_every_kept_choice_to_the_browser_in_the_new_language():
    # The browser keeps a choice as its option's text and sends that text back: unless the switch sends the choice
    # anew in Chinese, "is added to the table" is no option any more, shows unchecked, and the next rerun falls back
    # to "replaces the table" (tests/e2e/test_e2e_pages.py shows it in a browser).
    at = open_app(page=DEC)
    at.radio(key="pick_dec_mode").set_value("typed").run()
    at.radio(key="dec_strategy").set_value("beam").run()
    at.sidebar.radio(key="lang").set_value("zh").run()
    assert not at.exception
    for key, value, shown in (("pick_dec_mode", "typed", "pick.typed"), ("dec_strategy", "beam", "dec.s_beam")):
        radio = at.radio(key=key)
        assert (radio.value, radio.proto.set_value, radio.proto.raw_value) == (value, True, t(shown, "zh"))

    at = open_app()
    at.radio(key="data_upload_mode").set_value("append").run()
    at.sidebar.radio(key="lang").set_value("zh").run()
    upload = at.radio(key="data_upload_mode")
    assert (upload.value, upload.proto.set_value, upload.proto.raw_value) == ("append", True, "追加到当前表格")
    at.sidebar.radio(key="lang").set_value("en").run()
    upload = at.radio(key="data_upload_mode")
    assert (upload.value, upload.proto.set_value, upload.proto.raw_value) == ("append", True, "is added to the table")


def test_train_starts_its_job_when_the_learner_leaves_the_page_at_once():
    # the click and the page switch reach the server as one rerun of another page: the Train page never runs it
    at = open_app(page=TRAIN, pairs=list(SMALL), epochs=400)
    at.button(key="train_button").click()
    at.switch_page(MASKS).run()
    assert not at.exception
    job = at.session_state["job"]
    assert job is not None and job.kind == "train" and job.runs[0].config.epochs == 400
    at.session_state.job.stop_requested = True  # as Stop does
    finish_job(at)


def test_settings_and_view_values_survive_a_job_ending_on_another_page():
    at = open_app(page=DEC, pairs=list(SMALL))
    at.radio(key="pick_dec_mode").set_value("typed").run()
    at.text_input(key="pick_dec_text").input("我吃饭").run()
    at.radio(key="dec_strategy").set_value("sample").run()
    at.switch_page(TRAIN).run()
    at.select_slider(key="d_model").set_value(16).run()
    at.slider(key="n_layers").set_value(1).run()
    at.slider(key="epochs").set_value(15).run()
    at.select_slider(key="holdout").set_value(0.2).run()
    at.button(key="train_button").click().run()
    at.switch_page(MASKS).run()
    finish_job(at)  # taken on the Masks page
    assert at.session_state.model.source == "trained"
    at.switch_page(TRAIN).run()
    assert (at.slider(key="epochs").value, at.select_slider(key="holdout").value) == (15, 0.2)
    assert at.select_slider(key="d_model").value == 16 and at.slider(key="n_layers").value == 1
    assert any("Trained 15 epochs" in s for s in texts(at, "success"))
    at.switch_page(DEC).run()
    assert at.text_input(key="pick_dec_text").value == "我吃饭" and at.radio(key="dec_strategy").value == "sample"


def test_a_new_model_replaces_only_the_values_it_cannot_take_and_names_them():
    at = open_app(page=ATTN)  # the bundled model: 2 layers, 4 heads
    at.selectbox(key="attn_layer").set_value(1).run()
    at.selectbox(key="attn_head").set_value(2).run()
    at.radio(key="attn_kind").set_value("enc_self").run()
    one_layer = Translator.create(SMALL, seed=0, d_model=16, n_heads=4, d_ff=32, n_layers=1)
    at.session_state.model = CurrentModel(one_layer, "uploaded", name="one layer")
    at.run()
    assert not at.exception
    assert at.selectbox(key="attn_layer").value == 0  # layer 2 is gone
    assert at.selectbox(key="attn_head").value == 2 and at.radio(key="attn_kind").value == "enc_self"  # kept
    notices = [w for w in texts(at, "warning") if "cannot take" in w]
    assert notices == [
        "The current model cannot take some of the values you had here, so they were replaced: layer=2 → 1."
    ]
    at.run()  # said once, when the model changed
    assert not any("cannot take" in w for w in texts(at, "warning"))
    at.switch_page(MASKS).run()  # another page whose values all fit: nothing to say
    assert not any("cannot take" in w for w in texts(at, "warning"))


def test_the_decoding_step_outlives_a_new_model_but_forced_words_are_named_when_dropped():
    at = open_app(page=DEC, dec_strategy="choose")
    at.selectbox(key="dec_force_pick").set_value(at.session_state["dec_force_pick"] + 1).run()
    at.button(key="force_token").click().run()
    assert at.session_state["dec_prefix"] and at.session_state["dec_step"] == 2
    pairs = [*SMALL, ("我 喜 欢 你", "I love you .")]
    other = Translator.create(pairs, seed=0, d_model=16, n_heads=2, d_ff=32, n_layers=1)
    at.session_state.model = CurrentModel(other, "uploaded", name="other")
    at.run()
    assert not at.exception and at.session_state["dec_prefix"] == []
    assert any("cannot take" in w and "forced=" in w for w in texts(at, "warning"))


def _long_job(epochs: int = 400) -> Job:
    translator = Translator.create(SMALL, seed=0, d_model=16, n_heads=2, d_ff=32, n_layers=1)
    return Job("train", "tab", [Run("model", translator, list(SMALL), TrainConfig(epochs=epochs), list(SMALL[:2]))])


def test_after_stop_a_job_says_which_epoch_it_finishes_then_that_it_evaluates():
    queue, job = JobQueue(slots=1), _long_job()
    phases = []
    set_phase = job.set_phase
    job.set_phase = lambda name, epoch: (phases.append((name, epoch)), set_phase(name, epoch))
    queue.submit(job)
    deadline = time.monotonic() + 60
    while len(job.runs[0].records) < 3:
        assert time.monotonic() < deadline, "fewer than 3 epochs in 60 s"
        time.sleep(0.01)
    assert job.phase == "epoch" and job.phase_epoch >= len(job.runs[0].records)
    assert phase_text(job, "en") is None  # while it simply trains, the progress bar says it all
    queue.stop(job)
    text = phase_text(job, "en")
    if job.phase == "epoch":  # the child has not yet read Stop
        about = f"an epoch takes about {max(job.epoch_seconds(), 1):.0f} s"
        assert text.startswith(f"Stopping: finishing epoch {job.phase_epoch} (") and about in text
    while not job.finished:
        assert time.monotonic() < deadline, "the job did not stop in 60 s"
        time.sleep(0.01)
    assert job.state == "stopped"
    epochs = len(job.runs[0].records)
    # one "epoch" phase per epoch trained, in order, then the evaluation of the epochs trained
    assert phases == [*(("epoch", n) for n in range(1, epochs + 1)), ("evaluating", epochs)]
    job.stop_requested, job.phase = True, "evaluating"
    assert phase_text(job, "en").startswith("Stopping: evaluating the model trained so far")
    assert phase_text(job, "zh").startswith("正在停止：正在评估目前训练到的模型")


def test_a_job_that_ends_by_itself_reports_every_epoch_then_its_evaluation():
    queue, job = JobQueue(slots=1), _long_job(epochs=4)
    phases = []
    set_phase = job.set_phase
    job.set_phase = lambda name, epoch: (phases.append((name, epoch)), set_phase(name, epoch))
    queue.submit(job)
    deadline = time.monotonic() + 60
    while not job.finished:
        assert time.monotonic() < deadline, "the job did not end in 60 s"
        time.sleep(0.01)
    assert job.state == "done"
    assert phases == [("epoch", 1), ("epoch", 2), ("epoch", 3), ("epoch", 4), ("evaluating", 4)]
    assert phase_text(job, "en").startswith("Training done: evaluating the model on its pairs")
