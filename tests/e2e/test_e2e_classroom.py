"""A classroom on more than one process: deploy/classroom.py starts 3 app processes behind nginx on loopback;
6 learners open the app, 4 of them train at once while the other 2 work, and every learner stays on its process.

What the app shows is read through the small helpers below, so a change of UI wording is fixed in one place.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import time
from collections import Counter

import pytest

from deploy.classroom import COOKIE, DeployError, classroom, find_nginx
from tests.e2e.helpers import (
    REPO,
    TIMEOUT,
    alert,
    expect,
    go_to,
    heatmap_z,
    no_exception,
    open_app,
    press_slider,
    screenshot,
    settled,
    sidebar,
    sidebar_value,
    widget,
)

pytestmark = pytest.mark.e2e

ARTIFACTS = REPO / "test-artifacts"
VIEWPORT = {"width": 1280, "height": 900}
DATA, TRAIN, ATTENTION = "data", "train", "attention"
D_MODEL_OPTIONS = ["8", "16", "32", "64", "128", "256"]  # the Train page's d_model choices
TRAINERS_D_MODEL = ["16", "32", "8", "128"]  # one per training learner; the bundled model has d_model 64
CLASS_TIMEOUT = 300_000  # ms: four trainings share 2 cores with the other learners, maybe one after another


# --- the app, in a learner's terms ----------------------------------------------------------------------------
def set_d_model(page, value: str) -> str:
    """On the Train page, move the d_model slider to `value`; return the "N parameters" the page then shows."""
    line = page.get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(r"^[\d,]+ parameters · "))
    expect(line).to_have_count(1)
    now = widget(page, "stSlider", "d_model").get_by_role("slider").get_attribute("aria-valuetext")
    steps = D_MODEL_OPTIONS.index(value) - D_MODEL_OPTIONS.index(now)
    for _ in range(abs(steps)):  # one step at a time: each changes the count, so each redraw can be waited for
        before = line.inner_text()
        press_slider(page, "d_model", "ArrowRight" if steps > 0 else "ArrowLeft")
        expect(line).not_to_have_text(before)
        settled(page)
    assert widget(page, "stSlider", "d_model").get_by_role("slider").get_attribute("aria-valuetext") == value
    return line.inner_text().split(" parameters", 1)[0].strip()


def start_training(page) -> None:
    """Press Train on the Train page (the default 60 epochs)."""
    page.get_by_role("button", name="Train", exact=True).click()


def wait_for_training(page) -> None:
    """Wait on the Train page until the training has ended with its success box."""
    done = alert(page, "Success", re.compile(r"Trained 60 epochs in [\d.]+ s\."))
    expect(done).to_be_visible(timeout=CLASS_TIMEOUT)
    settled(page)
    no_exception(page)


def expect_own_model(page, parameters: str) -> None:
    """The sidebar describes the model this learner trained: 60 epochs here, with its own parameter count."""
    expect(sidebar(page)).to_contain_text("From: trained here")
    assert sidebar_value(page, "Parameters:") == parameters
    assert sidebar_value(page, "Epochs trained:") == "60"


def upload_pairs(page, path) -> None:
    """On the Data page, upload a pairs file (replacing the table) and wait for its success box."""
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Upload pairs")
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    expect(alert(page, "Success", f"Loaded 3 pairs from {path.name}.")).to_be_visible()
    settled(page)


def download_pairs(page) -> list[str]:
    """On the Data page, download the table as TSV; its lines."""
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the table (TSV)").click()
    return download.value.path().read_text(encoding="utf-8").splitlines()


def to_attention(page) -> None:
    """Switch to the Attention page and wait until its heatmap is drawn."""
    go_to(page, ATTENTION)
    heatmap_z(page.locator(".js-plotly-plot").first)


def to_data(page) -> None:
    """Switch to the Data page and wait until its tables are drawn."""
    go_to(page, DATA)
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()


def switch_pages(page) -> None:
    """Data → Attention → Data, each page fully drawn."""
    to_attention(page)
    to_data(page)


# --- the classroom ---------------------------------------------------------------------------------------------
def free_ports(n: int) -> list[int]:
    """n distinct ports that are free on 127.0.0.1 right now."""
    sockets = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@pytest.fixture(scope="module")
def room(browser_available):
    """deploy/classroom.py's classroom: 3 app processes behind nginx, all on loopback, stopped afterwards."""
    try:
        find_nginx()
    except DeployError as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"the classroom test cannot run under CI: {exc}", pytrace=False)
        pytest.skip(f"classroom test skipped: {exc}")
    port, *app_ports = free_ports(4)
    run_dir = ARTIFACTS / "classroom"  # nginx.conf, access.log and one log per app process stay for a look
    shutil.rmtree(run_dir, ignore_errors=True)
    try:
        with classroom(app_ports, port, "127.0.0.1", run_dir) as running:
            yield running
    except DeployError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture
def open_learner(browser, room, request):
    """open_learner() → a new learner: a fresh browser context on the classroom's URL, its first page drawn."""
    contexts = []

    def make():
        context = browser.new_context(viewport=VIEWPORT, locale="en-US", accept_downloads=True)
        context.set_default_timeout(TIMEOUT)
        contexts.append(context)
        page = context.new_page()
        open_app(page, room.url)
        return page

    yield make
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for i, context in enumerate(contexts):
        if failed:
            for page in context.pages:  # none when the test closed the context already
                with contextlib.suppress(Exception):  # the page may be gone; the test's own error matters more
                    screenshot(page, f"classroom-learner-{i}", ARTIFACTS / "failures", wait=False)
        context.close()


def process_of(page) -> str:
    """The app process ("IP:PORT") nginx keeps this learner on: the value of its sticky cookie."""
    values = [c["value"] for c in page.context.cookies() if c["name"] == COOKIE]
    assert len(values) == 1, f"expected one {COOKIE} cookie, got {values}"
    return values[0]


def access_log(room, websockets: int) -> list[dict]:
    """nginx's access log (one JSON object per request), once it lists `websockets` closed websockets."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        lines = room.access_log.read_text(encoding="utf-8").splitlines() if room.access_log.exists() else []
        entries = [json.loads(line) for line in lines]
        if sum(e["uri"] == "/_stcore/stream" for e in entries) >= websockets or time.monotonic() > deadline:
            return entries
        time.sleep(0.2)


def test_six_learners_on_three_processes_each_keep_their_own_session(room, open_learner, tmp_path):
    # learners arrive one after another; nginx's round-robin puts two on each process and a cookie keeps them
    learners = [open_learner() for _ in range(6)]
    processes = [process_of(page) for page in learners]
    assert Counter(processes) == Counter({backend: 2 for backend in room.backends})
    trainers, idle = learners[:4], learners[4:]
    assert set(processes[:4]) == set(room.backends)  # every process trains, one of them two models at once
    bundled = sidebar_value(idle[0], "Parameters:")

    # four learners choose different sizes, then train at the same time
    parameters = {}
    for page, d_model in zip(trainers, TRAINERS_D_MODEL):
        go_to(page, TRAIN)
        parameters[page] = set_d_model(page, d_model)
    assert len({bundled, *parameters.values()}) == 5, parameters
    for page in trainers:
        start_training(page)

    # meanwhile the two others switch pages, upload a pairs file and download the table: the upload and the
    # download are plain HTTP requests that only the process holding the learner's session can answer
    pairs = (REPO / "assets" / "pairs.tsv").read_text(encoding="utf-8").splitlines()[:4]
    for i, page in enumerate(idle):
        switch_pages(page)
        path = tmp_path / f"class-{i}.tsv"
        path.write_text("\n".join(pairs) + "\n", encoding="utf-8")
        upload_pairs(page, path)
        expect(page.get_by_test_id("stMetricValue").first).to_have_text("3")
        assert download_pairs(page) == pairs
        switch_pages(page)
        expect(page.get_by_test_id("stMetricValue").first).to_have_text("3")  # still this learner's table
        expect(sidebar(page)).to_contain_text("From: bundled")
        no_exception(page)

    # each trainer's session keeps the model it trained, on every page
    for page in trainers:
        wait_for_training(page)
        expect_own_model(page, parameters[page])
    for page in trainers:
        for slug in (ATTENTION, DATA, TRAIN):
            go_to(page, slug)
            no_exception(page)
            expect_own_model(page, parameters[page])
    for page in idle:
        assert sidebar_value(page, "Parameters:") == bundled

    # nginx logs a websocket when it closes: close the learners, then read where every request went
    for page in learners:
        page.context.close()
    entries = access_log(room, websockets=6)
    streams = [e for e in entries if e["uri"] == "/_stcore/stream"]
    assert len(streams) >= 6, f"{len(streams)} websockets in {room.access_log}"
    assert {e["upstream"] for e in streams} == set(room.backends)  # the sessions spread over all 3 processes
    for e in entries:
        if e["cookie"] in room.backends:  # every request of a learner went to that learner's process
            assert e["upstream"] == e["cookie"], e
    for e in entries:  # only a learner's first page load comes without the cookie (and the start's health check)
        assert e["cookie"] or e["uri"] in ("/", "/_stcore/health"), e
    for e in streams:
        assert e["status"] == 101 and e["cookie"] in room.backends, e
    uploads = [e for e in entries if e["uri"].startswith("/_stcore/upload_file/") and e["method"] == "PUT"]
    media = [e for e in entries if e["uri"].startswith("/media/")]
    assert len(uploads) >= 2 and len(media) >= 2, (uploads, media)
    for e in uploads + media:
        assert 200 <= e["status"] < 300 and e["cookie"] in room.backends, e
