"""What the app runs in the learner's browser besides Streamlit: the page's language, and the chart pages' parts loaded
while the first page is read.

The language: Streamlit's page says <html lang="en"> whatever it shows, so a screen reader would read the Chinese UI
with an English voice; the page's language follows the UI language instead.

The parts: Streamlit's frontend loads some of its components lazily, the first time a page of the tab shows one:
st.plotly_chart (`React.lazy(() => import("./PlotlyChart.<hash>.js"))`, one 4.7 MB module with plotly.js inside),
st.latex (KaTeX, its module and fonts), st.toggle, the italic font. The first page (Data) shows none of them (its
summary's charts are Vega-Lite), so the learner's first chart page paid for all of that after the click: fetching and
compiling plotly.js (about 1.3 s on a 2-core machine), React's first render of each lazy component, and plotly's first
drawing (its code not yet optimised by the browser). Once the first page has drawn and the browser is idle, PARTS_SCRIPT
clicks the hidden button of lazy_parts(), a fragment: its run (the fragment alone, so nothing the learner is doing is
disturbed) draws one of each, out of sight and out of the accessibility tree, and the next full run removes them. The
tab's first chart page then draws like any later one: on 2026-11-26 the switch to Attention took 0.38–0.41 s of
the browser's main thread instead of 0.72 s (medians of 5 new tabs, load 4–6). Loading only plotly.js's module,
as this did before, saved its fetch but not the rest. Then <html data-chart-library="loaded"> says the parts are ready.
"""

from __future__ import annotations

import json

import plotly.graph_objects as go
import streamlit as st

from ui.i18n import t
from ui.widgets import ATTENTION_FORMULA

HTML_LANG = {"en": "en", "zh": "zh-CN"}  # BCP 47 tags of the UI languages

LANGUAGE = """<script>document.documentElement.lang = "%(lang)s";</script>"""

PARTS = "lazy_parts"  # the key of lazy_parts()'s container, and so its CSS class (st-key-lazy_parts)

# runs once per tab (a rerun draws the same element, which React keeps; a language switch draws it anew, and the
# flag stops a second run): after the first page has drawn (the script run over, no skeletons left, then the page
# unchanged for half a second, or 5 s at most: lazily loaded widgets such as the data editor draw after the run), when
# the browser is idle, click lazy_parts()'s button and wait until its chart and formula are drawn; three tries of
# 10 s at most (a click while another run starts may be taken by that run); then mark <html data-chart-library>
PARTS_SCRIPT = """<script type="module">
if (!window.playgroundLazyParts) {
  const drawn = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return app && app.dataset.testScriptState === "notRunning" && !document.querySelector('[data-testid="stSkeleton"]');
  };
  const sleep = ms => new Promise(done => setTimeout(done, ms));
  const still = ms => new Promise(done => {
    let timer = setTimeout(stop, ms);
    const watch = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(stop, ms); });
    function stop() { watch.disconnect(); done(); }
    watch.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  });
  const idle = () => new Promise(done =>
    window.requestIdleCallback ? requestIdleCallback(done, {timeout: 2000}) : setTimeout(done, 200));
  const parts = () => document.querySelector(".st-key-%(key)s");
  const ready = () => Boolean(parts() && parts().querySelector(".main-svg") && parts().querySelector(".katex"));
  window.playgroundLazyParts = (async () => {
    while (!drawn()) await sleep(100);
    await Promise.race([still(500), sleep(5000)]);
    await idle();
    for (let attempt = 0; attempt < 3 && !ready(); attempt++) {
      const button = parts() && parts().querySelector("button");
      if (button) button.click();
      for (const until = Date.now() + 10000; !ready() && Date.now() < until; ) await sleep(100);
    }
    document.documentElement.dataset.chartLibrary = ready() ? "loaded" : "failed";
  })().catch(() => { document.documentElement.dataset.chartLibrary = "failed"; });
}
</script>
<style>/* out of sight, out of the accessibility tree, and no scrolling region (the formula fits, axe-core checks) */
.st-key-%(key)s {position: absolute; left: -10000px; top: 0; width: 1000px; visibility: hidden; pointer-events: none;}
.st-key-%(key)s .katex-display {overflow: visible;}
</style>"""


# Streamlit's file uploader writes its own texts in English whatever the page's language ("Upload" on its button,
# "8MB per file • CSV, TSV, TXT" under it; st.file_uploader has no parameter for them): its instructions are hidden
# (the label of every uploader of the app says the file types and the limit, in the UI language) and its button says
# the app's word, in its text (CSS) and as its accessible name (aria-label: CSS content is not reliably part of it)
UPLOADER_CSS = """<style>
[data-testid="stFileUploaderDropzoneInstructions"] {display: none;}
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] {display: none;}
[data-testid="stFileUploaderDropzone"] button span[data-has-shortcut]::after {content: %(upload)s; margin-left: .5rem;}
</style>
<script>
window.playgroundUploadLabel = %(upload)s;
window.playgroundUploadNames = window.playgroundUploadNames || (() => {
  const name = () => document.querySelectorAll('[data-testid="stFileUploaderDropzone"] button').forEach(button => {
    if (button.closest('[data-testid="stFileChip"]')) return;  // a chosen file's remove button keeps its own name
    if (button.getAttribute("aria-label") !== window.playgroundUploadLabel) {
      button.setAttribute("aria-label", window.playgroundUploadLabel);
    }
  });
  new MutationObserver(name).observe(document.body, {subtree: true, childList: true});
  return name;
})();
window.playgroundUploadNames();
</script>"""


# the file uploader's other English texts (Streamlit 1.67's frontend, no parameter for them either), as regular
# expressions of the whole text, and the key of each one's words: the overlay while a file is dragged over it, the file
# input's accessible name, and a refused file's chip (its message, its "Error:", its buttons' names and title). In a UI
# language other than English, UPLOADER_WORDS rewrites each where it appears in an uploader or a tooltip, as the text
# is drawn (tests/ui/test_browser.py checks the texts are still the pinned Streamlit's)
UPLOADER_TEXTS = (
    (r"^Drag and drop (?:a file|files|directories) here$", "browser.drop_here"),
    (r"^file upload$", "browser.file_input"),
    (r"^File must be (.+?) ?or smaller\.$", "browser.too_large"),
    (r"^(.+) files are not allowed\.$", "browser.wrong_type"),
    (r"^File size is too small\.$", "browser.too_small"),
    (r"^Only one file is allowed\.$", "browser.one_file"),
    (r"^Unexpected error\. Please try again\.$", "browser.unexpected"),
    (r"^Error:$", "browser.error"),
    (r"^Remove (.+)$", "browser.remove"),
    (r"^Cancel upload of (.+)$", "browser.cancel"),
    (r"^Click to retry upload$", "browser.retry"),
)

# rewrites, in the nodes React adds or changes, the texts and the aria-label and title attributes that are one of the
# rules' English texts: only in a file uploader or a tooltip (a refused file's message shows in one); a rewritten text
# matches no rule, so a rewrite never triggers another
UPLOADER_WORDS = """<script>
window.playgroundUploaderRules = %(rules)s.map(([pattern, words]) => [new RegExp(pattern), words]);
window.playgroundUploaderWords = window.playgroundUploaderWords || (() => {
  const PLACES = '[data-testid="stFileUploader"], [data-baseweb="tooltip"], [role="tooltip"]';
  const say = text => {
    for (const [pattern, words] of window.playgroundUploaderRules)
      if (pattern.test(text.trim())) return text.trim().replace(pattern, words);
    return null;
  };
  const inPlace = element => element && (element.closest(PLACES) || element.querySelector(PLACES));
  const rewrite = node => {
    const element = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
    if (!element || element.nodeType !== Node.ELEMENT_NODE || !inPlace(element)) return;
    for (const each of [element, ...element.querySelectorAll("[aria-label], [title]")])
      for (const name of ["aria-label", "title"]) {
        const said = each.hasAttribute(name) && say(each.getAttribute(name));
        if (said) each.setAttribute(name, said);
      }
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const said = say(text.data);
      if (said !== null) text.data = said;
    }
  };
  new MutationObserver(records => records.forEach(record =>
    record.type === "childList" ? record.addedNodes.forEach(rewrite) : rewrite(record.target)
  )).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true,
                             attributeFilter: ["aria-label", "title"]});
  return () => document.querySelectorAll(PLACES).forEach(rewrite);
})();
window.playgroundUploaderWords();
</script>"""


# two things axe-core finds in Streamlit's own markup (1.67), which no parameter changes, put right as they are drawn:
# - the drop zone of a file uploader is <section role="presentation" tabindex="-1" aria-label="…">: a presentational
#   element that is focusable and named contradicts itself (presentation-role-conflict); it is a group, named by the
#   uploader's label, which is what a screen reader should say of it
# - the accessible table glide-data-grid keeps for st.dataframe and st.data_editor has an empty header over its first
#   column (the row numbers, or the row markers of an editor) (empty-table-header); it gets the word "row", as text
#   (axe-core and screen readers read a header's text; an aria-label is not that). The header stays empty in React's
#   own tree, so React never replaces the word
A11Y_FIXES = """<script>
window.playgroundRowHeader = %(row)s;
window.playgroundA11yFixes = window.playgroundA11yFixes || (() => {
  const fix = () => {
    document.querySelectorAll('[data-testid="stFileUploaderDropzone"][role="presentation"]')
      .forEach(zone => zone.setAttribute("role", "group"));
    document.querySelectorAll('[data-testid="data-grid-canvas"] th[role="columnheader"]').forEach(th => {
      if (!th.textContent.trim()) {
        const word = document.createElement("span");
        word.className = "playground-row-header";
        word.textContent = window.playgroundRowHeader;
        th.appendChild(word);
      }
    });
  };
  let queued = false;  // once a frame at most, however many changes React makes in it
  const soon = () => { if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; fix(); }); } };
  new MutationObserver(soon).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                     attributeFilter: ["role"]});
  return fix;
})();
window.playgroundA11yFixes();
</script>"""


def uploader_rules(lang: str) -> list[tuple[str, str]]:
    """The uploader's English texts (regular expressions) and their words in lang, as a JavaScript replacement ($1:
    the file's size, type or name); none in English."""
    if lang == "en":
        return []
    return [(pattern, t(key, lang, value="$1")) for pattern, key in UPLOADER_TEXTS]


def uploader_css(lang: str) -> str:
    """UPLOADER_CSS with the upload button's word in the UI language lang (a CSS string), and the script that says
    the uploader's other texts in lang (UPLOADER_WORDS)."""
    css = UPLOADER_CSS % {"upload": json.dumps(t("browser.upload", lang), ensure_ascii=False)}
    return css + UPLOADER_WORDS % {"rules": json.dumps(uploader_rules(lang), ensure_ascii=False)}


def browser_scripts(lang: str) -> None:
    """Draw the scripts (in the sidebar, as one element that takes no room): the page's language is the UI language
    `lang`, and the chart pages' parts are drawn once the first page has; the file uploaders' texts in `lang`; and
    A11Y_FIXES, what axe-core finds in Streamlit's own markup put right."""
    scripts = LANGUAGE % {"lang": HTML_LANG[lang]} + PARTS_SCRIPT % {"key": PARTS} + uploader_css(lang)
    scripts += A11Y_FIXES % {"row": json.dumps(t("table.row", lang), ensure_ascii=False)}
    with st.sidebar:
        st.html(scripts, unsafe_allow_javascript=True, width="content")


@st.fragment
def lazy_parts(lang: str) -> None:
    """A hidden button (called last on every run, so it comes after the page's own charts): when PARTS_SCRIPT clicks
    it, this fragment's run draws, out of sight, one of each part of Streamlit's frontend that the chart pages load on
    first use (a plotly heatmap and scatter, a KaTeX formula, a toggle, italic text)."""
    label = t("browser.parts", lang)
    with st.container(key=PARTS):
        if st.button(label, key="lazy_parts_button"):
            figure = go.Figure([go.Heatmap(z=[[0.0, 1.0], [1.0, 0.0]]), go.Scatter(x=[0, 1], y=[0, 1], mode="markers")])
            st.plotly_chart(figure, key="lazy_parts_chart", height=150, config={"displayModeBar": False})
            st.latex(ATTENTION_FORMULA)  # KaTeX's fonts for it load with it (its tall parentheses have their own)
            st.toggle(label, key="lazy_parts_toggle", persist_state="session")
            st.markdown(f"*{label}*")
