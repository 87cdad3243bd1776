"""What a user does and sees in the app, in Playwright terms; every wait is an auto-waiting expect()."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import Locator, Page, expect
except ImportError:  # conftest's browser_available fixture then skips every test (or fails it under CI)
    Locator = Page = expect = None
    PlaywrightError = Exception
else:
    expect.set_options(timeout=30_000)  # generous: two sessions may share the 2 cores with a training run

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
VIEWPORT = {"width": 1280, "height": 900}  # a learner's browser window, unless a test says otherwise
TIMEOUT = 30_000  # ms, for anything that waits on the app
TRAIN_TIMEOUT = 120_000  # ms, for a training run on a busy 2-core machine

# the navigation titles, in the order app.py lists the pages (ui/strings/sidebar.toml nav.*)
NAV = {
    "en": ["Data", "Train", "Positional encoding", "Masks", "Inside the model", "Attention", "Decoding", "Lab"],
    "zh": ["数据", "训练", "位置编码", "掩码", "模型内部", "注意力", "解码", "实验室"],
}
# each page's st.title (ui/strings/ *.title), in the same order
TITLES = {
    "en": [
        "Sentence pairs",
        "Train",
        "Positional encoding",
        "Masks",
        "Inside the model",
        "Attention",
        "Decoding, step by step",
        "Lab: break the model on purpose",
    ],
    "zh": ["句子对", "训练", "位置编码", "掩码", "模型内部", "注意力", "解码，一步一步", "实验室：故意把模型弄坏"],
}
PAGE_SLUGS = ["data", "train", "positional_encoding", "masks", "inside", "attention", "decoding", "lab"]


LAZY_PARTS = ".st-key-lazy_parts"  # ui/browser.py's hidden chart, formula and toggle, drawn as the first page is read


def page_charts(page: Page) -> Locator:
    """The plotly charts of the page itself (the main area's, without ui/browser.py's hidden one)."""
    return page.locator(f'[data-testid="stMain"] [data-testid="stPlotlyChart"]:not({LAZY_PARTS} *)')


def settled(page: Page, timeout: int = TIMEOUT) -> None:
    """Wait until the script run is over and every lazily loaded widget has replaced its skeleton."""
    app = page.locator('[data-testid="stApp"]')
    expect(app).to_have_attribute("data-test-connection-state", "CONNECTED", timeout=timeout)
    expect(app).to_have_attribute("data-test-script-state", "notRunning", timeout=timeout)
    expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=timeout)
    expect(page.locator('[data-testid="stSkeleton"]')).to_have_count(0, timeout=timeout)


def link_says(page: Page, name: str, value: str) -> None:
    """Wait until the page's link holds name=value: the run of the click that chose it has drawn the page (settled
    alone may look before that run has started)."""
    expect(page).to_have_url(re.compile(rf"[?&]{re.escape(name)}={re.escape(value)}(&|$)"))


def open_app(page: Page, url: str, drawn: Callable[[], None] | None = None) -> None:
    """Open the app as a new user does and wait until its first page is fully drawn (then drawn() is called, when
    given), and then, as a learner who reads it, until ui/browser.py has drawn the chart pages' parts out of sight (a
    test acts within milliseconds: its first click would otherwise meet that fragment's run)."""
    page.goto(url)
    expect(page.locator("h1")).to_be_visible(timeout=60_000)  # the first run pays for imports
    settled(page, timeout=60_000)
    if drawn is not None:
        drawn()
    expect(page.locator("html[data-chart-library]")).to_have_count(1, timeout=60_000)
    settled(page)


def use_tutorial_pairs(page: Page) -> None:
    """On the Data page, choose the 50 tutorial pairs (a tab starts on the 2,042-pair corpus): an editable table, and
    trainings of seconds for tests about something else than the data."""
    page.get_by_test_id("stRadio").get_by_text("Tutorial pairs", exact=True).click()
    expect(page.get_by_text(re.compile(r"^The 50 sentence pairs of the seed tutorials"))).to_be_visible()
    settled(page)


def sidebar(page: Page) -> Locator:
    return page.get_by_test_id("stSidebar")


def no_exception(page: Page) -> None:
    """No Streamlit exception box anywhere on the page (now: a box once drawn stays, so no long wait)."""
    expect(page.get_by_test_id("stException")).to_have_count(0, timeout=2_000)


def go_to(page: Page, slug: str, lang: str = "en") -> None:
    """Click a page in the sidebar navigation (by its slug in PAGE_SLUGS, e.g. "attention") and wait for its title."""
    index = PAGE_SLUGS.index(slug)
    # by its accessible name, as a screen reader says it (an icon before the title, if any, aside)
    link = sidebar(page).get_by_role("link", name=re.compile(rf"^\W*{re.escape(NAV[lang][index])}$"))
    expect(link).to_have_count(1)
    link.click()
    expect(page.locator("h1").first).to_have_text(TITLES[lang][index], timeout=TIMEOUT)
    settled(page)


def typed_sentence_box(page: Page) -> Locator:
    """On the Decoding page, choose to type a source sentence; the box to type it in, once visible."""
    go_to(page, "decoding")
    page.get_by_role("radio", name="type a source sentence").check(force=True)
    box = page.get_by_role("textbox", name="type a source sentence")
    expect(box).to_be_visible()
    return box


def switch_language(page: Page, lang: str) -> None:
    """Pick English or 中文 with the sidebar radio."""
    label = {"en": "English", "zh": "中文"}[lang]
    sidebar(page).get_by_test_id("stRadio").get_by_text(label, exact=True).click()
    expect(sidebar(page).get_by_text("Current model" if lang == "en" else "当前模型")).to_be_visible()
    settled(page)


def sidebar_value(page: Page, prefix: str) -> str:
    """The text after `prefix` in the sidebar's model summary, e.g. sidebar_value(page, "Parameters:")."""
    item = sidebar(page).locator("li").filter(has_text=prefix)
    expect(item).to_have_count(1)
    return item.inner_text().split(prefix, 1)[1].strip()


def alert(page: Page, kind: str, text: str | re.Pattern) -> Locator:
    """The st.error / st.warning / st.success / st.info box (kind: Error, Warning, Success, Info) with text."""
    return page.get_by_test_id(f"stAlertContent{kind}").filter(has_text=text)


def widget(page: Page, testid: str, label: str) -> Locator:
    """The widget of one type (stSlider, stSelectbox, …) whose label is exactly `label`."""
    return page.get_by_test_id(testid).filter(has=page.get_by_test_id("stWidgetLabel").get_by_text(label, exact=True))


def press_slider(page: Page, label: str, *keys: str, testid: str = "stSlider") -> str:
    """Focus a slider's thumb, press keys one at a time (each may rerun the app), return the new value text."""
    thumb = widget(page, testid, label).get_by_role("slider")
    for key in keys:
        thumb.focus()
        before = thumb.get_attribute("aria-valuenow")
        thumb.press(key)
        expect(thumb).not_to_have_attribute("aria-valuenow", before or "")
        settled(page)
    return thumb.get_attribute("aria-valuetext") or thumb.get_attribute("aria-valuenow") or ""


def press_epochs(page: Page, *keys: str) -> str:
    """press_slider on the Train page's epochs, then wait until the page's steps line, which the server writes from the
    value it has, says that many epochs: the slider sends its value a moment after it moves, and a Train clicked
    before that trains the old number (a run in two processes trained 40 epochs for 5)."""
    value = press_slider(page, "epochs", *keys)
    expect(page.get_by_text(re.compile(rf"^{re.escape(value)} epochs ≈ "))).to_be_visible()
    settled(page)
    return value


def press_holdout(page: Page, *keys: str) -> str:
    """press_slider on the Train page's "held out of training", then wait until the page's split line, which the
    server writes from the value it has, holds out that share of the pairs (within 5 points): a Train clicked while
    the slider's value is still on its way may be lost."""
    value = press_slider(page, "held out of training", *keys)
    page.wait_for_function(
        """share => [...document.querySelectorAll('[data-testid="stCaptionContainer"]')].some(el => {
            const m = el.textContent.match(/^(\\d+) pairs held out, (\\d+) trained on/);
            return m && Math.abs(m[1] / (+m[1] + +m[2]) - share) < 0.05;
        })""",
        arg=int(value.rstrip("%")) / 100,
    )
    settled(page)
    return value


def choose(page: Page, label: str, option: str) -> None:
    """Pick an option of an st.selectbox (a combobox named by its label)."""
    box = page.get_by_role("combobox", name=label, exact=True)
    box.scroll_into_view_if_needed()
    for _ in range(3):  # a click that lands while the page scrolls to the box may not open its list: click again
        box.click()
        try:
            expect(page.get_by_role("listbox")).to_be_visible(timeout=3_000)
            break
        except AssertionError:
            continue
    page.get_by_role("option", name=option, exact=True).click()
    expect(box).to_have_value(option)
    settled(page)


_PLOTLY_DATA = "el => (Array.isArray(el.data) && el.data.length ? JSON.stringify(el.data) : null)"


def _poll(chart: Locator, script: str, wanted, what: str) -> list:
    """Evaluate `script` on the chart until it gives a value that `wanted` accepts, and return it parsed.

    The locator is resolved afresh on every look: Streamlit may replace a chart's element after a rerun, and a
    handle taken before that would never see the new drawing. Plotly draws a moment after the script run ends,
    so the first look may be early; after TIMEOUT this fails with `what`."""
    expect(chart).to_be_visible()
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        try:
            text = chart.evaluate(script, timeout=2_000)
        except PlaywrightError:  # the element went away between finding it and reading it
            text = None
        if text is not None and wanted(json.loads(text)):
            return json.loads(text)
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} after {TIMEOUT / 1000:.0f} s")
        time.sleep(0.02)


def changed_chart(chart: Locator, before: list) -> list:
    """Wait until the chart's traces differ from `before` and return them; fail when they never do."""
    wanted = json.dumps(before)
    return _poll(chart, _PLOTLY_DATA, lambda data: json.dumps(data) != wanted, "the chart still shows the same data")


def plotly_data(chart: Locator) -> list:
    """The data traces of a plotly chart as drawn in the browser (the `data` property of its div)."""
    return _poll(chart, _PLOTLY_DATA, lambda data: True, "the chart has drawn no data")


_HEATMAP_Z = (
    "el => { const t = (Array.isArray(el.data) ? el.data : []).find(t => t.type === 'heatmap');"
    " return t && t.z ? JSON.stringify(t.z) : null; }"
)


def heatmap_z(chart: Locator) -> list:
    """The z values (one row per query) of the first heatmap trace of a plotly chart."""
    return _poll(chart, _HEATMAP_Z, lambda z: True, "the chart has drawn no heatmap")


def heatmap_z_change(chart: Locator, before: list) -> list:
    """Wait until the chart's heatmap shows z values other than `before` and return them; time out (and fail)
    when it never does."""
    wanted = json.dumps(before)
    return _poll(chart, _HEATMAP_Z, lambda z: json.dumps(z) != wanted, "the heatmap still shows the same values")


def screenshot(page: Page, name: str, folder: Path = SCREENSHOTS, wait: bool = True) -> Path:
    """A full-page PNG: the viewport is made as tall as the main column, then restored.

    Streamlit scrolls inside its main section, not the document, so Playwright's full_page=True alone
    would only capture the first screen.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    size = page.viewport_size
    height = page.get_by_test_id("stMain").evaluate("el => el.scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height), 16_000))})
    try:
        if wait:
            settled(page)
            page.wait_for_load_state("networkidle")
        # two animation frames: the charts have redrawn for the taller window
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        page.screenshot(path=str(path), full_page=True, animations="disabled")
    finally:
        page.set_viewport_size(size)
    return path


def open_expander(expander: Locator) -> Locator:
    """Open a st.expander as a learner does (a click on its title, unless it is open) and wait until it has finished
    opening. Streamlit animates its height for half a second. A button below it moves while the sidebar scrolls it
    into view, and a click whose press and release land on different places is no click: the lesson sheet's
    download was then never asked for."""
    details = expander.locator("details").first
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    expect(details).to_have_attribute("open", "")
    expect(expander.get_by_test_id("stExpanderDetails")).not_to_have_attribute("inert", "")
    details.page.wait_for_function("el => el.getAnimations({subtree: true}).length === 0", arg=details.element_handle())
    return expander


def share_section(page: Page, title: str = "Share and export") -> Locator:
    """Open the sidebar's Share and export section (its title in the page's language)."""
    return open_expander(sidebar(page).get_by_test_id("stExpander").filter(has_text=title))


def copied_link(page: Page) -> str:
    """The link the sidebar offers for this view, as a user copies it."""
    section = share_section(page)
    section.get_by_role("button", name="Link to this view").click()
    code = page.get_by_test_id("stPopoverBody").get_by_test_id("stCode")
    expect(code).to_contain_text("model=")
    link = code.inner_text().strip()
    page.keyboard.press("Escape")
    return link


def record_browser_log(page: Page) -> list[str]:
    """From now on, note with the time what the page's browser side did that a failing test's screenshot cannot show:
    its websockets opening and closing, the runs and requests it sent and what the server answered, console errors
    and warnings, uncaught errors, failed requests and downloads. Attach before the page opens the app (the app's
    websocket opens then); the list grows as the page runs."""
    log: list[str] = []

    def note(text: str | None) -> None:
        if text:
            log.append(f"{time.strftime('%H:%M:%S')} {text}")

    def websocket(ws) -> None:
        note(f"websocket open {ws.url}")
        ws.on("close", lambda _: note(f"websocket closed {ws.url}"))
        ws.on("socketerror", lambda error: note(f"websocket error {error}"))
        ws.on("framesent", lambda payload: note(_sent(payload)))
        ws.on("framereceived", lambda payload: note(_received(payload)))

    page.on("websocket", websocket)
    # a download button's error shows for five seconds only: say it in the console, which the log keeps
    page.add_init_script(
        """new MutationObserver(() => {
            for (const box of document.querySelectorAll('[data-testid="stDownloadButtonError"]:not([data-logged])')) {
                box.dataset.logged = "1";
                console.error("download button says: " + box.innerText);
            }
        }).observe(document, {subtree: true, childList: true});"""
    )
    page.on("console", lambda m: note(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: note(f"page error: {error}"))
    page.on("requestfailed", lambda r: note(f"request failed: {r.url} {r.failure}"))
    page.on("download", lambda d: note(f"download {d.suggested_filename}"))
    page.on("response", lambda r: note(f"{r.status} {r.url}") if r.status >= 400 or "/media/" in r.url else None)
    return log


def _sent(payload) -> str | None:
    """What a message from the page to the server asks for: a run (of the page, or of one fragment), a deferred
    download (the lesson sheet), a stop, a file upload's addresses; None for a heartbeat."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    with contextlib.suppress(Exception):  # a frame that is not a BackMsg is not the log's business
        message = BackMsg.FromString(payload if isinstance(payload, bytes) else payload.encode())
        kind = message.WhichOneof("type")
        if kind == "backend_operation_request":
            request = message.backend_operation_request
            return f"sent request {request.request_id} ({request.WhichOneof('payload')})"
        if kind == "rerun_script":
            return f"sent run (fragment {message.rerun_script.fragment_id or '-'})"
        if kind not in ("app_heartbeat",):
            return f"sent {kind}"
    return None


def _received(payload) -> str | None:
    """What a message from the server says, when it answers a request or starts or ends a run."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if isinstance(payload, str) or len(payload) > 4096:  # answers and run events are small; deltas are not read
        return None
    with contextlib.suppress(Exception):
        message = ForwardMsg.FromString(payload)
        kind = message.WhichOneof("type")
        if kind == "backend_operation_response":
            answer = message.backend_operation_response
            return f"answer to {answer.request_id}: {answer.error_msg or answer.deferred_file.url or '?'}"
        if kind in ("new_session", "script_finished", "session_status_changed", "session_event"):
            return f"received {kind}"
    return None


def write_browser_log(log: list[str], path: Path) -> None:
    """A failing test's browser log (record_browser_log) beside its screenshot."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(log) + "\n", encoding="utf-8")


# --- learners: fresh tabs and browser contexts, and what a failing test leaves behind of them ---------------------
def open_tab(context, url: str, pages: list, logs: list, before_opening=None, drawn=None) -> Page:
    """A new learner in a new tab of `context` (a new Streamlit session: a session is a tab's, not a browser's), kept
    in pages, its browser log recorded into logs, opened on url and idle (open_app; drawn as there);
    before_opening(page) runs before the app is opened. Tabs of one context share its HTTP cache and its compiled
    scripts: a tab opens with about a sixth less work than a new context's first tab."""
    page = context.new_page()
    pages.append(page)
    logs.append(record_browser_log(page))
    if before_opening is not None:  # e.g. a route for the app's websocket, which opens with the app
        before_opening(page)
    open_app(page, url, drawn)
    return page


def open_learner(browser, url: str, contexts: list, logs: list | None = None, drawn=None, **options) -> Page:
    """A new learner in a browser of its own: a fresh browser context (its own cookies: a classroom's nginx keeps a
    learner on one process by a cookie) in VIEWPORT, kept in contexts, its browser log recorded into logs (when
    given), opened on url and idle (open_app; drawn as there)."""
    context = browser.new_context(viewport=VIEWPORT, **options)
    context.set_default_timeout(TIMEOUT)
    contexts.append(context)
    page = context.new_page()
    if logs is not None:
        logs.append(record_browser_log(page))
    open_app(page, url, drawn)
    return page


def call_failed(request) -> bool:
    """Whether the test that requested a fixture failed (its report is kept by conftest's makereport hook)."""
    return getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed


def keep_failure_artifacts(name: str, pages: list, logs: list = ()) -> None:
    """What a failed test leaves in test-artifacts/failures of each of its tabs i: its browser log (when recorded) as
    name-i.log, and a screenshot as name-i.png (pages: tabs, or browser contexts whose tabs are kept)."""
    tabs = [tab for each in pages for tab in (each.pages if hasattr(each, "pages") else [each])]
    for i in range(max(len(tabs), len(logs))):
        if i < len(logs):
            write_browser_log(logs[i], ARTIFACTS / "failures" / f"{name}-{i}.log")
        if i < len(tabs) and not tabs[i].is_closed():  # the test may have closed it already
            with contextlib.suppress(Exception):  # the page may be gone; the test's own error matters more
                screenshot(tabs[i], f"{name}-{i}", ARTIFACTS / "failures", wait=False)


@contextlib.contextmanager
def learners(browser, name: str, **options) -> Iterator[Callable[[str], Page]]:
    """with learners(browser, name) as learner: learner(url) opens a new learner (open_learner); when the block
    fails, the artifacts of every learner are kept under name (keep_failure_artifacts); every context is closed."""
    contexts: list = []
    try:
        yield lambda url: open_learner(browser, url, contexts, **options)
    except Exception:
        keep_failure_artifacts(name, contexts)
        raise
    finally:
        for context in contexts:
            with contextlib.suppress(Exception):
                context.close()
