"""A classroom on more than one process: deploy/classroom.py starts 3 app processes behind nginx on loopback, warm
and sharing one model store; 6 learners open the app, 4 of them train at once while the other 2 work, and every
learner stays on its process; a model published on one process opens from its link on another. Then processes die
in mid-lesson: a killed app process is restarted while only its own learners start again on another, and so is a
hung one; a dead backend of --backends sends its learners elsewhere, and a process that keeps dying at once stops the
class with one line.

The tests that keep the classroom running share one (`room`, in this file's order): a killed or hung process is back,
and nginx sends learners to it again, before its test ends. What such a test reads of the classroom's logs is what
was written since it began (`Since`).

What the app shows is read through the small helpers below, so a change of UI wording is fixed in one place.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.classroom import STORE_ENV, Classroom, DeployError, classroom, find_nginx
from deploy.nginx import COOKIE
from tests.conftest import wake
from tests.e2e.helpers import (
    ARTIFACTS,
    REPO,
    TIMEOUT,
    alert,
    call_failed,
    copied_link,
    expect,
    go_to,
    heatmap_z,
    keep_failure_artifacts,
    learners,
    no_exception,
    open_app,
    open_learner,
    press_slider,
    settled,
    sidebar,
    sidebar_value,
    use_tutorial_pairs,
    widget,
)
from tests.e2e.server import streamlit_server
from tests.e2e.test_e2e_store import attention_view, expect_link_model, lesson_model, publish, upload_model
from transformer import corpus
from transformer.data import parse_pairs

pytestmark = pytest.mark.e2e

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


def give_each_a_table(learners, folder: Path) -> None:
    """Each learner uploads a table of its own (3 pairs): state that lives only in its session, on its process."""
    pairs = (REPO / "assets" / "pairs.tsv").read_text(encoding="utf-8").splitlines()[:4]
    for i, page in enumerate(learners):
        path = folder / f"learner-{i}.tsv"
        path.write_text("\n".join(pairs) + "\n", encoding="utf-8")
        upload_pairs(page, path)


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


def need_nginx() -> None:
    """Skip the test without nginx (fail it under CI)."""
    try:
        find_nginx()
    except DeployError as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"the classroom test cannot run under CI: {exc}", pytrace=False)
        pytest.skip(f"classroom test skipped: {exc}")


@contextlib.contextmanager
def a_classroom(name: str, store) -> Iterator[Classroom]:
    """deploy/classroom.py's classroom: 3 app processes behind nginx, all on loopback, stopped afterwards; its
    run folder (nginx.conf, the logs) stays in test-artifacts/NAME for a look."""
    need_nginx()
    port, *app_ports = free_ports(4)
    run_dir = ARTIFACTS / name
    shutil.rmtree(run_dir, ignore_errors=True)
    try:
        with classroom(app_ports, port, "127.0.0.1", run_dir, model_store=store) as running:
            yield running
    except DeployError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="module")
def room(browser_available, tmp_path_factory):
    """One classroom of 3 processes and one model store, for every test of this file that leaves its processes running
    (a killed or a hung one is back before its test ends), in the file's order: the first finds it fresh."""
    with a_classroom("classroom", tmp_path_factory.mktemp("published models")) as running:
        yield running


class Since:
    """What the classroom's logs say from the moment this was made: the lines the supervisor wrote (`said`), and
    nginx's access log entries (`requests`)."""

    def __init__(self, room: Classroom) -> None:
        self.room = room
        self.log_at = self._size(room.log)
        self.access_at = self._size(room.access_log)

    @staticmethod
    def _size(path: Path) -> int:
        return path.stat().st_size if path.exists() else 0

    def said(self) -> str:
        with open(self.room.log, "rb") as log:
            log.seek(self.log_at)
            return log.read().decode("utf-8")

    def requests(self) -> list[dict]:
        if not self.room.access_log.exists():
            return []
        with open(self.room.access_log, "rb") as log:
            log.seek(self.access_at)
            return [json.loads(line) for line in log.read().decode("utf-8").splitlines()]


@pytest.fixture
def new_learner(browser, request):
    """new_learner(url) → a new learner: a fresh browser context (its own cookies) on the classroom's URL, its first
    page drawn; new_learner(url, drawn) calls drawn() as soon as that page is drawn (before the chart pages' parts)."""
    contexts, logs = [], []

    def make(url: str, drawn=None):
        return open_learner(browser, url, contexts, logs, drawn, locale="en-US", accept_downloads=True)

    yield make
    if call_failed(request):
        keep_failure_artifacts("classroom-learner", contexts, logs)
    for context in contexts:
        context.close()


def process_of(page) -> str:
    """The app process ("IP:PORT") nginx keeps this learner on: the value of its sticky cookie."""
    values = [c["value"] for c in page.context.cookies() if c["name"] == COOKIE]
    assert len(values) == 1, f"expected one {COOKIE} cookie, got {values}"
    return values[0]


def access_log(since: Since, websockets: int) -> list[dict]:
    """nginx's access log since `since` (one JSON object per request), once it lists `websockets` closed websockets."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        entries = since.requests()
        if sum(e["uri"] == "/_stcore/stream" for e in entries) >= websockets or time.monotonic() > deadline:
            return entries
        time.sleep(0.2)


def test_a_new_classroom_is_warm_and_every_process_shares_one_model_store(room):
    # ready means warm: every process has already run the app's first page once, before any learner came
    for backend in room.backends:
        assert 'session_events_total{type="connect"} 1' in metrics(backend)
        assert 'cache_type="st_cache_resource"' in metrics(backend)
    # and every process publishes to and opens from the same model store
    assert [environment_of(app)[STORE_ENV] for app in room.apps] == [str(room.model_store)] * 3


def test_six_learners_on_three_processes_each_keep_their_own_session(room, new_learner, tmp_path):
    since = Since(room)
    # learners arrive one after another; nginx's round-robin puts two on each process and a cookie keeps them
    learners = [new_learner(room.url) for _ in range(6)]
    for page in learners[:4]:  # the trainers: the 50 tutorial pairs, 60 epochs of seconds
        use_tutorial_pairs(page)
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
    entries = access_log(since, websockets=6)
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


# --- a process dies in mid-lesson -------------------------------------------------------------------------------
# a fresh session's table: the corpus, then the tutorial pairs it does not hold
_TUTORIAL = parse_pairs((REPO / "assets" / "pairs.tsv").read_bytes(), "pairs.tsv")
_CORPUS = [(p.source, p.target) for p in corpus.generate()]
FRESH_PAIRS = f"{len(_CORPUS) + len(set(_TUTORIAL) - set(_CORPUS)):,}"
FAILOVER_SECONDS = 15  # a learner whose process died has a working page again within this long
# what a learner whose session was lost with its process reads
LOST = re.compile(r"^This tab lost its connection, and the server process that held its session has gone")


def pairs_shown(page):
    """The Data page's count of sentence pairs in this learner's table."""
    return page.get_by_test_id("stMetricValue").first


def environment_of(process) -> dict[str, str]:
    """The environment a running process was started with."""
    raw = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().split("=", 1) for item in raw if b"=" in item)


def wait_until(condition, what: str, seconds: float = 150) -> None:
    """Poll condition() until it holds; fail after `seconds` saying what was awaited."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still waiting after {seconds} s for {what}"
        time.sleep(0.2)


def metrics(backend: str) -> str:
    """The app process's own counters (Streamlit's /_stcore/metrics), asked directly, not through nginx."""
    with urllib.request.urlopen(f"http://{backend}/_stcore/metrics", timeout=10) as response:
        return response.read().decode()


def served_by(room, backend: str) -> str:
    """The process that answers a request through nginx carrying the cookie of `backend` (its new cookie)."""
    request = urllib.request.Request(f"{room.url}/_stcore/health", headers={"Cookie": f"{COOKIE}={backend}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        cookies = [v for k, v in response.headers.items() if k.lower() == "set-cookie" and v.startswith(COOKIE)]
    return cookies[0].split(";")[0].split("=", 1)[1] if cookies else ""


def test_a_model_published_on_one_process_opens_from_its_link_on_another(room, browser, tmp_path):
    """issue 22: the processes share one model store, so a link's model opens on whichever process nginx keeps the
    learner on."""
    key, path = lesson_model(tmp_path, seed=13)
    with learners(browser, "classroom-store", locale="en-US") as learner_at:
        teacher = learner_at(room.url)
        upload_model(teacher, path)
        attention_view(teacher)
        assert publish(teacher, "for the class") == key
        assert (room.model_store / f"{key}.safetensors").is_file()  # in the folder every process was given
        link = copied_link(teacher)
        student = learner_at(room.url)
        for _ in range(3):  # nginx hands new browsers to the processes in turn: find one on another process
            if process_of(student) != process_of(teacher):
                break
            student = learner_at(room.url)
        assert process_of(student) != process_of(teacher)
        open_app(student, link)  # a new session on the student's process, which never saw this model
        assert process_of(student) != process_of(teacher)
        expect_link_model(student, key, "for the class")


def test_a_killed_process_is_restarted_and_only_its_learners_start_again_elsewhere(room, new_learner, tmp_path):
    since = Since(room)
    learners = [new_learner(room.url) for _ in range(4)]  # round-robin: one process gets two
    processes = [process_of(page) for page in learners]
    assert set(processes) == set(room.backends)
    killed = Counter(processes).most_common(1)[0][0]
    hit = [page for page, p in zip(learners, processes) if p == killed]
    spared = [page for page, p in zip(learners, processes) if p != killed]
    assert len(hit) == 2 and len(spared) == 2
    give_each_a_table(learners, tmp_path)  # state that lives only in its session, on its process

    doomed = room.app(killed)
    os.kill(doomed.pid, signal.SIGKILL)  # as the out-of-memory killer does
    killed_at = time.monotonic()

    # its learners see the app again in a fresh session (the bundled table), on a process that answers
    for page in hit:
        expect(pairs_shown(page)).to_have_text(FRESH_PAIRS, timeout=FAILOVER_SECONDS * 1000)
        settled(page, timeout=FAILOVER_SECONDS * 1000)
        expect(page.get_by_text(LOST)).to_be_visible()  # and are told why their table has gone
    assert time.monotonic() - killed_at < FAILOVER_SECONDS
    for page in hit:
        no_exception(page)
        assert process_of(page) in room.backends
        to_attention(page)  # the page works: a page switch draws its chart
        no_exception(page)

    # the others never noticed: their own tables, on their own processes
    for page, process in zip(spared, [p for p in processes if p != killed]):
        switch_pages(page)
        expect(pairs_shown(page)).to_have_text("3")
        assert process_of(page) == process
        no_exception(page)

    # the script has started the process again, warmed it, with the same store, and said so
    wait_until(lambda: room.app(killed).pid != doomed.pid, "a new process")
    wait_until(lambda: f"the app process at {killed} ran its first page" in since.said(), "its warm-up")
    assert environment_of(room.app(killed))[STORE_ENV] == str(room.model_store)
    log = since.said()
    assert f"the app process at {killed} exited (killed by SIGKILL)" in log
    assert f"restarting the app process at {killed} in 1 s" in log  # its first death: the shortest pause
    assert f"the app process at {killed} is back (process {room.app(killed).pid})" in log
    assert room.nginx.poll() is None and all(app.poll() is None for app in room.apps)

    # nginx sends learners to it again: its cookie reaches it, and one of three newcomers lands there
    wait_until(lambda: served_by(room, killed) == killed, "nginx to send its cookie's requests to it again")
    latecomers = [new_learner(room.url) for _ in range(3)]
    assert killed in {process_of(page) for page in latecomers}

    # nginx itself dies: the script starts it again, and every learner reconnects to the session it had
    old_nginx = room.nginx
    os.kill(old_nginx.pid, signal.SIGKILL)
    wait_until(lambda: "nginx is back" in since.said(), "nginx to be back")
    assert room.nginx.pid != old_nginx.pid and "nginx exited (killed by SIGKILL)" in since.said()
    for page in spared:
        settled(page, timeout=60_000)  # reconnected
        switch_pages(page)
        expect(pairs_shown(page)).to_have_text("3")
        expect(page.get_by_text(LOST)).to_have_count(0)  # their session was resumed: nothing was lost
        no_exception(page)


def test_learners_of_a_dead_backend_go_on_on_a_live_one(new_learner, tmp_path):
    """--backends: the app processes run elsewhere and nothing restarts them; nginx must not 502 their learners."""
    need_nginx()
    with (
        streamlit_server(ARTIFACTS / "classroom-backend-1.log") as first,
        streamlit_server(ARTIFACTS / "classroom-backend-2.log") as second,
    ):
        backends = [first.url.removeprefix("http://"), second.url.removeprefix("http://")]
        (port,) = free_ports(1)
        with classroom((), port, "127.0.0.1", ARTIFACTS / "classroom-backends", backends=backends) as room:
            learners = [new_learner(room.url) for _ in range(2)]
            assert [process_of(page) for page in learners] in (backends, backends[::-1])
            for i, page in enumerate(learners):
                path = tmp_path / f"learner-{i}.tsv"
                path.write_text("source\ttarget\n我\tI\n你\tyou\n他\the\n", encoding="utf-8")
                upload_pairs(page, path)
            hit = next(page for page in learners if process_of(page) == backends[0])
            spared = next(page for page in learners if page is not hit)

            os.kill(first.process.pid, signal.SIGKILL)
            killed_at = time.monotonic()
            expect(pairs_shown(hit)).to_have_text(FRESH_PAIRS, timeout=FAILOVER_SECONDS * 1000)
            settled(hit, timeout=FAILOVER_SECONDS * 1000)
            assert time.monotonic() - killed_at < FAILOVER_SECONDS
            assert process_of(hit) == backends[1]  # re-pinned to the live process
            to_attention(hit)
            no_exception(hit)

            switch_pages(spared)
            expect(pairs_shown(spared)).to_have_text("3")
            wait_until(
                lambda: f"the app process at {backends[0]} does not answer" in room.log.read_text(encoding="utf-8"),
                "the script to say so",
                seconds=30,
            )


HUNG_SERVED_SECONDS = 15  # a learner who arrives while a process hangs has a page within this long of the stop
HUNG_REPLACED_SECONDS = 30  # the tab on a hung process shows the app again within this long (default health checks)


def test_a_hung_process_is_replaced_and_its_learners_see_the_app_again(room, new_learner, tmp_path):
    """`kill -STOP` of a process (a deadlock, a swap storm): a newcomer is served by another at once; the supervisor
    kills the hung process, so the websocket of the tab open on it closes, and that tab reconnects to a live process
    and shows the app again in a fresh session, with a message, not a spinner forever; the others keep
    their sessions."""
    since = Since(room)
    learners = [new_learner(room.url) for _ in range(3)]  # round-robin: one on each process
    processes = [process_of(page) for page in learners]
    assert set(processes) == set(room.backends)
    hung, hit, spared = processes[0], learners[0], learners[1:]
    give_each_a_table(learners, tmp_path)

    stopped = room.app(hung)
    os.kill(stopped.pid, signal.SIGSTOP)
    stopped_at = time.monotonic()
    try:
        # the tab on it asks for a page switch that its process never runs
        sidebar(hit).get_by_role("link", name=re.compile(r"^\W*Attention$")).click()
        # a learner who arrives now has a working page from another process: its first page drawn (the chart
        # pages' parts, which the app then draws out of sight for later, are not part of being served)
        drawn = []
        latecomer = new_learner(room.url, drawn=lambda: drawn.append(time.monotonic()))
        assert drawn[0] - stopped_at < HUNG_SERVED_SECONDS
        assert process_of(latecomer) != hung
        no_exception(latecomer)

        # the supervisor kills it: the tab reconnects and shows the app again, in a fresh session
        wait_until(lambda: "hangs" in since.said(), "the script to say so", 30)
        settled(hit, timeout=HUNG_REPLACED_SECONDS * 1000)  # reconnected, the page drawn: no spinner left
        # the page it was on (the click went to the hung process, and was lost with it), with a message saying
        # what happened
        expect(hit.locator("h1").first).to_have_text("Sentence pairs")
        expect(hit.get_by_text(LOST)).to_be_visible()
        no_exception(hit)
        assert process_of(hit) in room.backends
        expect(pairs_shown(hit)).to_have_text(FRESH_PAIRS)  # a fresh session: the corpus, not the learner's table
        to_attention(hit)  # and the page it asked for works now
        no_exception(hit)
    finally:
        wake([stopped])
    wait_until(lambda: f"the app process at {hung} is back" in since.said(), "it back")
    assert f"the app process at {hung} (process {stopped.pid}) hangs: no answer to 3 health checks" in since.said()

    # the others never noticed
    for page, process in zip(spared, processes[1:]):
        switch_pages(page)
        expect(pairs_shown(page)).to_have_text("3")
        assert process_of(page) == process
        no_exception(page)
    # and learners reach the new process again, as they do after a crash: the next test finds the classroom whole
    wait_until(lambda: served_by(room, hung) == hung, "nginx to send its cookie's requests to it again")


def children_of(pid: int) -> list[int]:
    """The processes a process has started and not yet lost (Linux's /proc/PID/task/*/children)."""
    tasks = Path(f"/proc/{pid}/task").iterdir()
    return [int(child) for task in tasks for child in (task / "children").read_text().split()]


def test_a_process_that_keeps_dying_at_once_stops_the_classroom_with_one_line(tmp_path):
    need_nginx()
    port, app_port = free_ports(2)
    run_dir = ARTIFACTS / "classroom-dying"
    shutil.rmtree(run_dir, ignore_errors=True)
    script = subprocess.Popen(
        [
            sys.executable, str(REPO / "deploy" / "classroom.py"), "-n", "1", "--port", str(port),
            "--address", "127.0.0.1", "--first-app-port", str(app_port), "--run-dir", str(run_dir),
            "--model-store", str(tmp_path / "store"),
        ],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert script.stdout.readline().endswith("(warm-up)\n")
        assert script.stdout.readline() == "Classroom ready: 1 app process(es) behind nginx.\n"
        (app,) = [pid for pid in children_of(script.pid) if "streamlit" in Path(f"/proc/{pid}/cmdline").read_text()]
        os.kill(app, signal.SIGKILL)
        wait_until(lambda: app not in children_of(script.pid), "the script to see its app process die", seconds=30)
        # something else takes its port, so every restart ends at once ("Port … is not available")
        with socket.socket() as squatter:
            squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            squatter.bind(("127.0.0.1", app_port))
            squatter.listen()
            out, err = script.communicate(timeout=180)
    finally:
        if script.poll() is None:
            script.kill()
    log = run_dir / f"app-{app_port}.log"
    assert script.returncode == 2
    assert err == (
        f"error: the app process at 127.0.0.1:{app_port} exited (status 1) before it answered: Port {app_port} "
        f"is not available; that is 3 times in a row, see {log}.\n"
    )
    assert f"restarting the app process at 127.0.0.1:{app_port} in 4 s" in out  # the pauses grew: 1, 2, 4 s
    nginx = int((run_dir / "nginx.pid").read_text()) if (run_dir / "nginx.pid").exists() else None
    if nginx is not None:  # nginx removes its pid file when it stops; a stale one must name no live process
        with pytest.raises(ProcessLookupError):
            os.kill(nginx, 0)
