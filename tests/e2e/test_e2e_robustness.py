"""Hostile or unlucky use in a real browser: two sessions training at once, Stop in mid-training, a very long
typed sentence, a garbage pairs file."""

from __future__ import annotations

import re

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg

from tests.e2e.helpers import (
    REPO,
    TRAIN_TIMEOUT,
    alert,
    expect,
    go_to,
    no_exception,
    plotly_data,
    press_epochs,
    press_slider,
    screenshot,
    settled,
    sidebar,
    sidebar_value,
    switch_language,
    typed_sentence_box,
    use_tutorial_pairs,
)

pytestmark = pytest.mark.e2e

PROGRESS = re.compile(r"epoch (\d+)/(\d+) · loss")


def _param_count(page) -> str:
    """The "**N parameters** · …" line of the Train page: the size of the model the settings describe."""
    line = page.get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(r"^[\d,]+ parameters · "))
    expect(line).to_have_count(1)
    return line.inner_text().split(" parameters", 1)[0].strip()


def test_two_sessions_train_different_models_at_the_same_time(new_page):
    first, second = new_page(), new_page()
    for page in (first, second):
        use_tutorial_pairs(page)  # 60 epochs of seconds
        go_to(page, "train")
    default_size = _param_count(second)
    assert press_slider(second, "d_model", "ArrowLeft") == "32"  # the first keeps d_model 64
    expect(second.get_by_text(re.compile(r"^[\d,]+ parameters$"))).not_to_have_text(default_size + " parameters")
    sizes = {page: _param_count(page) for page in (first, second)}
    assert sizes[first] == default_size != sizes[second]

    first.get_by_role("button", name="Train", exact=True).click()
    expect(first.get_by_test_id("stMain").get_by_test_id("stProgress")).to_be_visible()  # the first is training…
    second.get_by_role("button", name="Train", exact=True).click()  # …when the second starts
    for page in (first, second):
        expect(alert(page, "Success", "Trained 60 epochs")).to_be_visible(timeout=TRAIN_TIMEOUT)
        settled(page)
        no_exception(page)

    # each session keeps its own model: the next page's sidebar describes the model that session trained
    for page in (first, second):
        go_to(page, "attention")
        expect(sidebar(page)).to_contain_text("From: trained here")
        assert sidebar_value(page, "Parameters:") == sizes[page]
        assert sidebar_value(page, "Epochs trained:") == "60"
    # and a third, new session still has the bundled model
    third = new_page()
    expect(sidebar(third)).to_contain_text("From: bundled")


def test_stop_in_mid_training_keeps_the_partly_trained_model(page):
    _start_a_long_training(page)
    page.get_by_test_id("stMain").get_by_role("button", name="Stop", exact=True).click()

    stopped = alert(page, "Warning", re.compile(r"Training stopped after epoch \d+; the partly trained model"))
    expect(stopped).to_be_visible(timeout=TRAIN_TIMEOUT)
    settled(page)
    no_exception(page)
    epochs = int(re.search(r"after epoch (\d+)", stopped.inner_text()).group(1))
    assert 3 <= epochs < 400
    expect(alert(page, "Success", "Trained")).to_have_count(0)
    exact = page.get_by_test_id("stMetric").filter(has_text="exact-match translations")
    expect(exact).to_be_visible()  # the results of the partly trained model
    curve = plotly_data(page.locator(".js-plotly-plot").first)
    assert max(len(trace["x"]) for trace in curve) == epochs  # the loss curve ends where training stopped
    screenshot(page, "robust-train-stopped")

    go_to(page, "decoding")
    expect(sidebar(page)).to_contain_text("From: trained here")
    assert sidebar_value(page, "Epochs trained:") == str(epochs)
    no_exception(page)


def test_using_the_train_page_during_training_does_not_break_it(page):
    progress = _start_a_long_training(page)
    epoch = int(PROGRESS.search(progress.inner_text()).group(1))
    thumb = page.get_by_test_id("stSlider").filter(has_text="d_model").get_by_role("slider")
    thumb.focus()
    for key in ("ArrowLeft", "ArrowRight", "ArrowLeft", "ArrowRight"):  # a user tries settings while it trains
        thumb.press(key)
    try:
        # training goes on for ten more epochs (or the bug shows an exception box, whichever comes first)
        later = re.compile(rf"epoch ({'|'.join(str(n) for n in range(epoch + 10, 401))})/400")
        exception = page.get_by_test_id("stException")
        expect(exception.or_(progress.filter(has_text=later)).first).to_be_visible(timeout=TRAIN_TIMEOUT)
        no_exception(page)
    finally:
        stop = page.get_by_test_id("stMain").get_by_role("button", name="Stop", exact=True)
        if stop.is_enabled():
            stop.click()
            settled(page)


def test_the_sidebar_describes_the_new_model_as_soon_as_training_ends(page):
    go_to(page, "train")
    assert press_epochs(page, "Home") == "5"
    page.get_by_role("button", name="Train", exact=True).click()
    expect(alert(page, "Success", "Trained 5 epochs")).to_be_visible(timeout=TRAIN_TIMEOUT)
    settled(page)
    # with no click from the learner (a stale sidebar stayed stale until one); no time limit here: a loaded machine
    # may take a few seconds, and speed is measured by benchmarks/app_latency.py, not by a test
    expect(sidebar(page)).to_contain_text("From: trained here")
    expect(page.get_by_test_id("stMain").get_by_role("button", name="Stop", exact=True)).to_be_disabled()


def test_a_very_long_typed_sentence_on_the_decoding_page(page):
    box = typed_sentence_box(page)
    settled(page)

    # a 450-character paste: the box (max_chars=400) refuses it whole and keeps what it had
    box.fill("")
    page.keyboard.insert_text("我" * 450)
    expect(box).to_have_value("")
    # 400 CJK characters are 400 tokens, more than the model's 128 positions: the app says so, no traceback
    page.keyboard.insert_text("我" * 400)
    expect(box).to_have_value("我" * 400)
    box.press("Enter")
    expect(alert(page, "Error", re.compile(r"400 tokens.*at most 128"))).to_be_visible()
    settled(page)
    no_exception(page)
    expect(page.get_by_role("button", name="Next ▶")).to_have_count(0)
    screenshot(page, "robust-decoding-400-characters")

    # a long sentence that still fits (120 tokens) decodes, step by step to the end
    box.fill("我喜欢猫" * 30)
    box.press("Enter")
    step_slider = page.get_by_test_id("stSlider").filter(has_text="step").get_by_role("slider")
    expect(step_slider).to_be_visible()
    expect(alert(page, "Error", "tokens")).to_have_count(0)
    settled(page)
    step_slider.focus()
    step_slider.press("End")
    expect(page.get_by_role("button", name="Next ▶")).to_be_disabled()
    expect(alert(page, "Success", "Translation:")).to_be_visible()
    settled(page)
    no_exception(page)
    screenshot(page, "robust-decoding-120-tokens")


def test_an_unknown_word_and_an_empty_sentence_on_the_decoding_page(page):
    box = typed_sentence_box(page)
    settled(page)

    box.fill("我喜欢龙")  # 龙 is not in the bundled model's vocabulary
    box.press("Enter")
    unknown = alert(page, "Warning", "Not in the model's vocabulary")
    expect(unknown).to_contain_text("龙")
    expect(unknown).to_contain_text("Translation still runs.")
    expect(page.get_by_role("button", name="Next ▶")).to_be_visible()
    settled(page)
    no_exception(page)

    box.fill("")
    box.press("Enter")
    expect(alert(page, "Error", "The sentence is empty: type a sentence to translate.")).to_be_visible()
    expect(page.get_by_role("button", name="Next ▶")).to_have_count(0)
    settled(page)
    no_exception(page)
    switch_language(page, "zh")  # the same message in Chinese
    expect(alert(page, "Error", "句子是空的：请输入要翻译的句子。")).to_be_visible()
    no_exception(page)


BAD_PAIRS_FILES = [
    # (file name, content, what the message says after "<name> was not loaded: ")
    ("garbage.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8, "is not UTF-8 text"),
    ("gbk.tsv", "我喜欢你\tI love you .\n".encode("gbk"), "is not UTF-8 text"),
    ("nul.tsv", "我\tI\n".encode() + b"\x00\x01\x02", "is not a text file"),
    ("eleven.csv", b"a,b\n" + b"a,b,c,d,e,f,g,h,i,j,k" + b"\n", "line 2: 11 columns, more than the 10 a pairs file"),
    ("blank.tsv", b"\n \n\t\n", "is empty"),
    ("header.tsv", b"source\ttarget\n", "has a header but no sentence pairs"),
    ("escape.tsv", "我\tI\n你\t\x1b[31myou\n".encode(), "line 2: the invisible control character \\x1b cannot be"),
    (
        "many.tsv",
        "".join(f"词{i}\tword{i}\n" for i in range(50_001)).encode(),
        "line 50001: more than 50,000 sentence pairs",
    ),
]
# over the uploader's 15 MB limit the browser refuses the file itself, and the app never receives it
TOO_BIG = ("big.tsv", b"a\tb\n" * 3_750_001)


def test_bad_pairs_files_are_refused_and_the_table_is_kept(page, tmp_path):
    use_tutorial_pairs(page)  # a table to compare row for row
    bundled = (REPO / "assets" / "pairs.tsv").read_text(encoding="utf-8").splitlines()
    assert bundled[0] == "source\ttarget"
    count = page.get_by_test_id("stMetricValue").first
    expect(count).to_have_text(str(len(bundled) - 1))
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Upload pairs")
    for name, content, reason in BAD_PAIRS_FILES:
        (tmp_path / name).write_bytes(content)
        uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(tmp_path / name))
        error = alert(page, "Error", f"{name} was not loaded")
        expect(error).to_be_visible()
        expect(error).to_contain_text(reason)
        expect(error).to_contain_text("Your table is unchanged.")
        settled(page)
        no_exception(page)
        expect(count).to_have_text(str(len(bundled) - 1))
        if name == "garbage.csv":
            screenshot(page, "robust-data-garbage-file")
    name, content = TOO_BIG
    (tmp_path / name).write_bytes(content)
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(tmp_path / name))
    expect(uploader).to_contain_text("File must be 15.0MB or smaller.")
    no_exception(page)
    expect(count).to_have_text(str(len(bundled) - 1))
    expect(alert(page, "Success", "All pairs are ready for training.")).to_be_visible()
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download the table (TSV)").click()
    table = download_info.value.path().read_text(encoding="utf-8").splitlines()
    assert table == bundled  # the table is still the bundled data, row for row


def test_bad_rows_are_listed_on_the_data_page_and_block_training(page, tmp_path):
    too_long = " ".join(["词"] * 41)
    rows = ["我 喜 欢 你\tI love you .", "我喜欢你\tI love you.", "你好\t", "P 我\tI", f"{too_long}\tok"]
    path = tmp_path / "problems.tsv"
    path.write_text("source\ttarget\n" + "\n".join(rows) + "\n", encoding="utf-8")
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Upload pairs")
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    expect(alert(page, "Success", "Loaded 4 pairs from problems.tsv; 1 rows were left out")).to_be_visible()
    settled(page)
    left_out = "1 rows have no source or no target in the columns chosen and were left out: line 4."
    expect(page.get_by_test_id("stAlertContentWarning").filter(has_text=left_out)).to_be_visible()
    errors = alert(page, "Error", "Fix these before training:")
    expect(errors).to_contain_text("row 4: the source is longer than 40 tokens. Shorten it.")
    warnings = page.get_by_test_id("stAlertContentWarning").filter(has_text="this pair appears")  # the table's box
    expect(warnings).to_contain_text(
        "row 1: this pair appears 2 times in the table (the same tokens); every copy is trained."
    )
    expect(warnings).to_contain_text("row 3: the token “P” is reserved for the model and is read as an unknown word.")
    no_exception(page)
    screenshot(page, "robust-data-bad-rows")

    go_to(page, "train")
    expect(alert(page, "Error", "The data has 1 problem(s): fix them on the Data page first.")).to_be_visible()
    expect(page.get_by_role("button", name="Train", exact=True)).to_be_disabled()
    no_exception(page)

    # more rows than allowed: a file of 49,997 added to the 4 rows (a file of more than 50,000 is refused when read);
    # its rows are distinct, of few distinct tokens (digits), so that the vocabulary stays within its limit
    go_to(page, "data")
    path = tmp_path / "more.tsv"
    path.write_text(
        "".join(f"词 {' '.join(str(i))}\tword {' '.join(str(i))}\n" for i in range(49_997)), encoding="utf-8"
    )
    page.get_by_role("radio", name="is added to the table").check(force=True)
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    expect(alert(page, "Success", "Loaded 49,997 pairs from more.tsv.")).to_be_visible()
    too_many = "There are 50,001 pairs, more than the 50,000 allowed. Replace the table with a smaller file, or restore"
    expect(alert(page, "Error", too_many)).to_be_visible()
    settled(page)
    no_exception(page)
    go_to(page, "train")
    expect(page.get_by_role("button", name="Train", exact=True)).to_be_disabled()


def test_n_heads_that_does_not_divide_a_new_d_model_is_adjusted_with_a_note(page):
    go_to(page, "train")
    assert press_slider(page, "n_heads", "End") == "16"
    assert press_slider(page, "d_model", "Home") == "8"
    expect(alert(page, "Info", "n_heads 16 does not divide d_model 8, so it is now 8.")).to_be_visible()
    n_heads = page.get_by_test_id("stSlider").filter(has_text="n_heads").get_by_role("slider")
    expect(n_heads).to_have_attribute("aria-valuetext", "8")
    settled(page)
    no_exception(page)


def _start_a_long_training(page):
    """Train with 400 epochs from the Train page; return the progress bar once a few epochs are done."""
    go_to(page, "train")
    assert press_epochs(page, "End") == "400"
    expect(page).to_have_url(re.compile(r"[?&]epochs=400(&|$)"))  # the server has it: Train trains 400 epochs
    page.get_by_role("button", name="Train", exact=True).click()
    progress = page.get_by_test_id("stMain").get_by_test_id("stProgress")
    expect(progress).to_contain_text(re.compile(r"epoch ([3-9]|\d\d+)/400 · loss"), timeout=TRAIN_TIMEOUT)
    return progress


def _sidebar_epoch(page) -> int:
    """The epoch the sidebar's job progress shows (English or Chinese)."""
    bar = sidebar(page).get_by_test_id("stProgress")
    expect(bar).to_contain_text(re.compile(r"(epoch |第 )\d+/"))
    return int(re.search(r"(?:epoch |第 )(\d+)/", bar.inner_text()).group(1))


def _wait_for_sidebar_epoch(page, at_least: int, timeout_ms: int = 30_000) -> None:
    """Wait until the sidebar's job progress shows epoch `at_least` or later (English or Chinese)."""
    page.wait_for_function(
        """(atLeast) => {
            const bar = document.querySelector('[data-testid="stSidebar"] [data-testid="stProgress"]');
            const m = bar && bar.innerText.match(/(?:epoch |第 )(\\d+)\\//);
            return m !== null && Number(m[1]) >= atLeast;
        }""",
        arg=at_least,
        timeout=timeout_ms,
    )


def test_training_goes_on_while_the_learner_visits_other_pages_and_switches_language(page):
    go_to(page, "train")
    assert press_epochs(page, "End") == "400"
    expect(page).to_have_url(re.compile(r"[?&]epochs=400(&|$)"))  # the server has it: Train trains 400 epochs
    page.get_by_role("button", name="Train", exact=True).click()
    go_to(page, "attention")  # the learner leaves the Train page while it trains
    expect(sidebar(page).get_by_test_id("stProgress")).to_contain_text(re.compile(r"epoch \d+/400 · loss"))
    first = _sidebar_epoch(page)
    go_to(page, "positional_encoding")
    switch_language(page, "zh")
    # the sidebar redraws itself with the job's progress, in Chinese, on whatever page the learner is
    expect(sidebar(page).get_by_test_id("stProgress")).to_contain_text(re.compile(r"第 \d+/400 轮 · 损失"))
    _wait_for_sidebar_epoch(page, first + 5)  # it went on meanwhile
    sidebar(page).get_by_role("button", name="停止", exact=True).click()  # Stop, from the sidebar of another page
    stopped = page.get_by_test_id("stToast").filter(has_text=re.compile(r"训练在第 \d+ 轮后停止"))
    expect(stopped).to_be_visible(timeout=TRAIN_TIMEOUT)
    epochs = int(re.search(r"第 (\d+) 轮", stopped.inner_text()).group(1))
    assert first < epochs < 400
    expect(sidebar(page)).to_contain_text(f"已训练轮数：{epochs}")  # the partly trained model is the current model
    expect(sidebar(page)).to_contain_text("来源：本页训练")
    expect(page.locator("h1").first).to_have_text("位置编码")  # the learner stayed where they were
    no_exception(page)


def test_a_closed_tab_stops_training_within_seconds(new_page):
    learner, watcher = new_page(), new_page()
    _start_a_long_training(learner)
    go_to(watcher, "positional_encoding")
    busy = sidebar(watcher).get_by_text(re.compile(r"^On this server: 1 training"))
    expect(busy).to_be_visible()
    learner.close()  # the tab goes away in mid-training
    # nothing trains for nobody, and the watcher's sidebar says so by itself, without a click (issue 20 §5)
    expect(busy).to_have_count(0, timeout=20_000)


class _LateRun:
    """Between the app's server and one page, as on a slow line or a busy server: once armed, the run the page asks for
    next reaches the page only after the page has sent a timer's run of a fragment (the sidebar's job status): that
    run leaves with the values the page held before the first one arrived."""

    def __init__(self, page) -> None:
        self.armed = self.holding = False
        self.held: list = []
        self.fragment_runs_sent_early = 0
        page.route_web_socket(re.compile(r"/_stcore/stream$"), self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()

        def from_page(message) -> None:
            server.send(message)
            sent = BackMsg.FromString(message if isinstance(message, bytes) else message.encode())
            if sent.WhichOneof("type") != "rerun_script":
                return
            if self.holding and sent.rerun_script.fragment_id:  # the timer's run has left: the first may arrive now
                self.fragment_runs_sent_early += 1
                self.holding = False
                for held in self.held:
                    ws.send(held)
                self.held.clear()
            elif self.armed and not sent.rerun_script.fragment_id:
                self.armed, self.holding = False, True

        def from_server(message) -> None:
            if self.holding:
                self.held.append(message)
            else:
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)


def test_an_upload_keeps_its_table_when_the_job_status_timer_sends_older_values(new_page, tmp_path):
    # while another learner trains, the sidebar's job status reruns every few seconds and sends the value of every
    # widget; here one of those runs leaves the page before the upload's run has arrived, with the dataset "Corpus"
    trainer = new_page()
    go_to(trainer, "train")
    trainer.get_by_role("button", name="Train", exact=True).click()  # the corpus: long enough for the test
    expect(sidebar(trainer).get_by_text(re.compile(r"epoch \d+/\d+"))).to_be_visible(timeout=TRAIN_TIMEOUT)
    line: list[_LateRun] = []
    page = new_page(before_opening=lambda p: line.append(_LateRun(p)))  # the first page, Data, while the other trains
    path = tmp_path / "three.tsv"
    path.write_text("\n".join((REPO / "assets" / "pairs.tsv").read_text(encoding="utf-8").splitlines()[:4]) + "\n")
    line[0].armed = True
    page.get_by_test_id("stFileUploader").filter(has_text="Upload pairs").get_by_test_id(
        "stFileUploaderDropzoneInput"
    ).set_input_files(str(path))
    expect(alert(page, "Success", "Loaded 3 pairs from three.tsv.")).to_be_visible()
    assert line[0].fragment_runs_sent_early == 1  # the timer's run did leave before the upload's run arrived
    for slug in ("attention", "data"):  # at once, before the timer's next run
        go_to(page, slug)
    expect(page.get_by_test_id("stMetricValue").first).to_have_text("3")  # the learner's table, not the corpus
    expect(page.get_by_role("radio", name="Your own")).to_be_checked()
    no_exception(page)
