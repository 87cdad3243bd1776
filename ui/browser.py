"""Two scripts the app runs in the learner's browser: the page's language, and the chart library loaded early.

The language: Streamlit's page says <html lang="en"> whatever it shows, so a screen reader would read the Chinese UI
with an English voice; the page's language follows the UI language instead.

The chart library, loaded while the learner reads the first page, so that the first chart page draws at once.
Streamlit's frontend draws st.plotly_chart with a component that it imports lazily, the first time a page of the tab
shows a plotly chart: `React.lazy(() => import("./PlotlyChart.<hash>.js"))` in static/js/index.<hash>.js, one 4.7 MB
module with plotly.js inside, which the browser fetches, compiles and runs (about 1.3 s on a 2-core machine). The
first page (Data) has no plotly chart (its summary's charts are Vega-Lite, a small module), so the learner's first
chart page paid for it after the click. CHART_LIBRARY imports the same module by the same URL once the first page has
drawn and the browser is idle: the module is then in the tab's module map, and Streamlit's own lazy import finds it
there. Nothing of Streamlit's is changed; the file
name is read from the installed package, and without such a file this script is left out.
"""

from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st

HTML_LANG = {"en": "en", "zh": "zh-CN"}  # BCP 47 tags of the UI languages

LANGUAGE = """<script>document.documentElement.lang = "%(lang)s";</script>"""

# runs once per tab (a rerun draws the same element, which React keeps; a language switch draws it anew, and the
# flag stops a second import): after the first page has drawn (the script run over, no skeletons left, then the page
# unchanged for half a second, or 5 s at most: lazily loaded widgets such as the data editor draw after the run), when
# the browser is idle, import the module; then mark <html data-chart-library>
CHART_LIBRARY = """<script type="module">
if (!window.playgroundChartLibrary) {
  const entry = document.querySelector('script[type="module"][src*="static/js/index."]');
  const url = new URL("%(module)s", entry ? entry.src : document.baseURI + "static/js/");
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
  window.playgroundChartLibrary = (async () => {
    while (!drawn()) await sleep(100);
    await Promise.race([still(500), sleep(5000)]);
    await idle();
    await import(url.href);
    document.documentElement.dataset.chartLibrary = "loaded";
  })().catch(() => { document.documentElement.dataset.chartLibrary = "failed"; });
}
</script>"""


@functools.cache
def chart_module() -> str | None:
    """The file name of the frontend module that draws plotly charts (e.g. PlotlyChart.D9Z0_fxz.js), or None."""
    folder = Path(st.__file__).parent / "static" / "static" / "js"
    found = sorted(folder.glob("PlotlyChart.*.js"))
    return found[0].name if len(found) == 1 else None


def browser_scripts(lang: str) -> None:
    """Draw both scripts (in the sidebar, as one element that takes no room): the page's language is the UI language
    `lang`, and the chart library loads once the first page has drawn."""
    module = chart_module()
    scripts = LANGUAGE % {"lang": HTML_LANG[lang]} + (CHART_LIBRARY % {"module": module} if module else "")
    with st.sidebar:
        st.html(scripts, unsafe_allow_javascript=True, width="content")
