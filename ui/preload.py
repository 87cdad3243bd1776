"""Load the chart library while the learner reads the first page, so that the first chart page draws at once.

Streamlit's frontend draws st.plotly_chart with a component that it imports lazily, the first time a page of the tab
shows a plotly chart: `React.lazy(() => import("./PlotlyChart.<hash>.js"))` in static/js/index.<hash>.js, one 4.7 MB
module with plotly.js inside, which the browser fetches, compiles and runs (about 1.3 s on a 2-core machine). The
first page (Data) has no chart, so the learner's first chart page paid for it after the click. The script below
imports the same module by the same URL once the first page has drawn and the browser is idle: the module is then
in the tab's module map, and Streamlit's own lazy import finds it there. Nothing of Streamlit's is changed; the file
name is read from the installed package, and without such a file nothing is drawn.
"""

from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st

# runs once per tab (a rerun draws the same element, which React keeps): after the first page has drawn (the script
# run over, no skeletons left), when the browser is idle, import the module; then mark <html data-chart-library>
SCRIPT = """<script type="module">
if (!window.playgroundChartLibrary) {
  const entry = document.querySelector('script[type="module"][src*="static/js/index."]');
  const url = new URL("%(module)s", entry ? entry.src : document.baseURI + "static/js/");
  const drawn = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return app && app.dataset.testScriptState === "notRunning" && !document.querySelector('[data-testid="stSkeleton"]');
  };
  const idle = () => new Promise(done =>
    window.requestIdleCallback ? requestIdleCallback(done, {timeout: 2000}) : setTimeout(done, 200));
  window.playgroundChartLibrary = (async () => {
    while (!drawn()) await new Promise(done => setTimeout(done, 100));
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


def preload_chart_library() -> None:
    """Draw (in the sidebar, taking no room) the script that loads the chart library once the first page has drawn."""
    module = chart_module()
    if module is None:
        return
    with st.sidebar:
        st.html(SCRIPT % {"module": module}, unsafe_allow_javascript=True, width="content")
