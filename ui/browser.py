"""Two scripts the app runs in the learner's browser: the page's language, and the chart library loaded early.

The language: Streamlit's page says <html lang="en"> whatever it shows, so a screen reader would read the Chinese UI
with an English voice; the page's language follows the UI language instead.

The chart library, loaded while the learner reads the first page, so that the first chart page draws at once.
Streamlit's frontend draws st.plotly_chart with a component that it imports lazily, the first time a page of the tab
shows a plotly chart: `React.lazy(() => import("./PlotlyChart.<hash>.js"))` in static/js/index.<hash>.js, one 4.7 MB
module with plotly.js inside, which the browser fetches, compiles and runs (about 1.3 s on a 2-core machine). The
first page (Data) has no chart, so the learner's first chart page paid for it after the click. CHART_LIBRARY
imports the same module by the same URL once the first page has drawn and the browser is idle: the module is then
in the tab's module map, and Streamlit's own lazy import finds it there. Nothing of Streamlit's is changed; the file
name is read from the installed package, and without such a file this script is left out.

Loaded is not yet fast: plotly's first chart in a tab still paid for what plotly and the browser do once (plotly's
style sheet and text measurements, each trace type's first use, compiling the drawing code), about as much again as a
later chart page. So the script then draws one small chart of the kinds the app draws with the same plotly (the
module sets window.Plotly), out of sight in a shadow root, and removes it.
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
# the browser is idle, import the module and draw the first chart; then mark <html data-chart-library>
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
  // the first chart of the tab, out of sight: heatmaps with cell text, subplots, a colour bar, markers, lines,
  // bars and a framed cell, as the app's charts have (no HTML tag in this script's text, such as the hover's extra
  // tag: with one, st.html did not run the script)
  const firstDraw = async Plotly => {
    if (!Plotly || !Plotly.newPlot) return;
    const host = document.createElement("div");
    host.setAttribute("aria-hidden", "true");
    host.style.cssText = "position:fixed;left:-4000px;top:0;width:480px;height:360px;overflow:hidden";
    document.body.appendChild(host);
    const box = host.attachShadow({mode: "open"}).appendChild(document.createElement("div"));
    const cells = [[0.9, 0.1], [0.3, 0.7]];
    try {
      await Plotly.newPlot(box, [
        {type: "heatmap", z: cells, x: ["a", "b"], y: ["c", "d"], text: cells, texttemplate: "%%{text:.2f}",
         colorscale: "Blues", zmin: 0, zmax: 1, hovertemplate: "%%{z:.4f}"},
        {type: "scatter", mode: "markers", x: ["a", "b"], y: ["c", "d"], opacity: 0, hoverinfo: "skip"},
        {type: "heatmap", z: cells, xaxis: "x2", yaxis: "y2", showscale: false, colorscale: "Viridis"},
        {type: "scatter", mode: "lines+markers", x: [1, 2, 3], y: [3, 1, 2], xaxis: "x3", yaxis: "y3"},
        {type: "bar", x: ["e", "f"], y: [2, 1], xaxis: "x3", yaxis: "y3"},
      ], {
        width: 480, height: 360, title: {text: "a"}, font: {family: "sans-serif", size: 12},
        xaxis: {domain: [0, 0.3], automargin: true, tickangle: -30}, yaxis: {automargin: true, autorange: "reversed"},
        xaxis2: {domain: [0.35, 0.6], anchor: "y2"}, yaxis2: {anchor: "x2"},
        xaxis3: {domain: [0.7, 1], anchor: "y3", title: {text: "b"}}, yaxis3: {anchor: "x3"},
        shapes: [{type: "rect", xref: "x", yref: "y", x0: -0.5, x1: 0.5, y0: -0.5, y1: 0.5, line: {color: "red"}}],
        margin: {l: 10, r: 10, t: 30, b: 10},
      }, {displaylogo: false, responsive: false});
    } finally {
      Plotly.purge(box);
      host.remove();
    }
  };
  window.playgroundChartLibrary = (async () => {
    while (!drawn()) await sleep(100);
    await Promise.race([still(500), sleep(5000)]);
    await idle();
    await import(url.href);
    await firstDraw(window.Plotly);
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
