"""A hostile checkpoint uploaded in one tab never freezes the app for the other tabs of its process (issue 43 §1).

The loader's old JSON check was quadratic on a quote followed by escaped quotes and held the interpreter lock, so one
upload stopped every session of the server. Here one learner uploads such a header of the largest size a header may
have, and another learner, on the same server, keeps switching pages until the first one is told the file was not
loaded: each switch must show the new page's title within SWITCH_MS."""

from __future__ import annotations

import re
from itertools import cycle

from playwright.sync_api import expect

from tests.e2e.helpers import NAV, PAGE_SLUGS, TITLES, alert, go_to, no_exception, settled, sidebar
from tests.transformer.hostile_json import HOSTILE_HEADERS, QUADRATIC, header_file

SWITCH_MS = 2_000  # the most a page switch may take while another tab's upload is judged
WAIT_MS = 5 * SWITCH_MS  # how long a switch is waited for before the test fails (a frozen server never shows it)
MIN_SWITCHES = 6  # switches made at least, before and after the upload is refused
MAX_SWITCHES = 60  # the upload is refused long before this many (else the test fails)
PAGES = ("masks", "positional_encoding", "data")  # pages a learner reads, their titles drawn first
# the browser's own clock: from the click on a page's link to the first frame whose title is that page's (Playwright's
# wait for a link to be clickable takes seconds of its own on a machine that other work shares)
CLOCK = """() => {
    window.switchWanted = null;
    document.addEventListener("click", (event) => {
        if (event.target.closest('[data-testid="stSidebarNav"] a')) {
            window.switchClicked = performance.now();
            window.switchShown = null;
        }
    }, true);
    new MutationObserver(() => {
        const title = document.querySelector("h1");
        if (window.switchShown === null && title && title.textContent.trim() === window.switchWanted) {
            window.switchShown = performance.now();
        }
    }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _switch(page, slug: str) -> float:
    """Click a page in the sidebar; the seconds from the click until its title shows (failing after WAIT_MS)."""
    index = PAGE_SLUGS.index(slug)
    link = sidebar(page).get_by_role("link", name=re.compile(rf"^\W*{re.escape(NAV['en'][index])}$"))
    page.evaluate("title => { window.switchWanted = title; }", TITLES["en"][index])
    link.click()
    expect(page.locator("h1").first).to_have_text(TITLES["en"][index], timeout=WAIT_MS)
    return page.evaluate("() => (window.switchShown - window.switchClicked) / 1000")


def test_a_hostile_checkpoint_upload_leaves_another_tab_switching_pages(new_page, tmp_path):
    path = tmp_path / "hostile.safetensors"
    path.write_bytes(header_file(HOSTILE_HEADERS[QUADRATIC]))  # ~19.5 MB: the largest header the loader reads
    uploader = new_page()
    go_to(uploader, "train")
    reader = new_page()  # another learner, on the same server process, who has read each page once
    for slug in PAGES:
        go_to(reader, slug)
    reader.evaluate(CLOCK)

    refused = alert(uploader, "Error", "hostile.safetensors was not loaded")
    uploader.get_by_test_id("stFileUploader").filter(has_text="Load a checkpoint").get_by_test_id(
        "stFileUploaderDropzoneInput"
    ).set_input_files(str(path))
    times: list[float] = []
    pages = cycle(PAGES)  # the last is open: the first switch goes elsewhere
    before = None  # switches made before the refusal showed: while the file was sent and judged
    while len(times) < MIN_SWITCHES or before is None:
        assert len(times) < MAX_SWITCHES, f"the upload was not judged while {len(times)} page switches were made"
        times.append(_switch(reader, next(pages)))
        if before is None and refused.is_visible():
            before = len(times)
    expect(refused).to_contain_text("the checkpoint header is not valid JSON")
    said = f"page switches (s), the first {before} before the refusal showed: {' '.join(f'{t:.2f}' for t in times)}"
    print(said)
    assert max(times) < SWITCH_MS / 1000, said
    settled(reader)
    no_exception(reader)
    no_exception(uploader)
