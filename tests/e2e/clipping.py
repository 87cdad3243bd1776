"""Does a plotly chart keep its text inside its own area? A check for any page that shows plotly charts: the app
in Streamlit, or a lesson sheet opened from file://.

For every drawn text of a chart (titles, tick labels, axis titles, legend, colour bar, annotations, the text on
bars, cells and points) it measures the text's box as the browser drew it, rotated labels included, and finds

- text that sticks out of the chart's SVG (the chart cuts it off),
- text that a clip path of the plot cuts (e.g. a label past the end of an axis),
- two labels (tick labels, axis and chart titles, legend entries, colour-bar text, annotations) that overlap.

Text drawn on the data (a heatmap's numbers, a bar's value) is checked against the chart and its clip paths, and
for overlaps only when asked (data_text=True), since a number in a cell may well sit on the cell's tick mark.

    from tests.e2e.clipping import assert_text_fits
    assert_text_fits(page)                     # every visible plotly chart of the page
    assert_text_fits(page.locator(".st-key-dec_beam_tree .js-plotly-plot"), data_text=True)
"""

from __future__ import annotations

from dataclasses import dataclass

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import Locator, Page
except ImportError:  # conftest skips (or fails under CI) every browser test then
    Locator = Page = None
    PlaywrightError = Exception

TOLERANCE_PX = 1.0  # boxes may touch or share this much without counting as cut or overlapping

# Runs in the page on one plotly div. Waits (animation frame by frame, at most `wait` ms) until the chart has drawn
# text and that text stops moving, since plotly redraws once or twice while it works out automatic margins, then
# measures.
_MEASURE = r"""
async (el, [tolerance, dataText, wait]) => {
    const frame = () => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    const shown = t => {
        if (!t.textContent.trim()) return false;
        for (let e = t; e && e !== el; e = e.parentElement) {
            const s = getComputedStyle(e);
            if (s.display === "none" || s.visibility === "hidden" || parseFloat(s.opacity) === 0) return false;
        }
        const b = t.getBBox();
        return b.width > 0 && b.height > 0;
    };
    // the four corners of an SVG element's own box (x, y, width, height in its user space) on the screen
    const corners = (node, b) => {
        const m = node.getScreenCTM();
        return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]].map(
            ([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    };
    const texts = () => [...el.querySelectorAll("svg.main-svg text")].filter(
        t => !t.closest(".hoverlayer") && shown(t));
    const signature = () => JSON.stringify(texts().map(t => {
        const r = t.getBoundingClientRect();
        return [t.textContent, Math.round(r.x), Math.round(r.y), Math.round(r.width)];
    }));
    const start = performance.now();
    // a chart replaced by a later run before it drew its SVG is measured again, not waited on until the time is up
    while (!el.querySelector("svg.main-svg") && performance.now() - start < wait && el.isConnected) await frame();
    if (!el.isConnected) return {replaced: true};
    if (!el.querySelector("svg.main-svg")) return {title: "", texts: 0, settled: false, problems: []};
    // plotly draws the SVG first and its text after, a frame or more later: until some text is drawn, keep waiting
    let before = null, now = signature();
    while ((now !== before || now === "[]") && performance.now() - start < wait && el.isConnected) {
        await frame();
        before = now;
        now = signature();
    }
    if (!el.isConnected) return {replaced: true};  // a later run of the page drew a new chart in its place
    const kind = t => {
        const g = t.parentElement, cls = (g && g.getAttribute("class")) || "", own = t.getAttribute("class") || "";
        if (/(^|\s)[xy]\d*tick(\s|$)/.test(cls)) return "tick label";
        if (t.closest(".colorbar")) return "colour bar";
        if (/^(x|y)\d*title$/.test(own)) return "axis title";
        if (own.startsWith("gtitle")) return "chart title";
        if (t.closest(".legend")) return "legend";
        if (t.closest(".annotation")) return "annotation";
        return "data text";
    };
    const overlapping = (a, b) => {  // separating axes of two convex quadrilaterals, with the tolerance
        for (const poly of [a, b]) {
            for (let i = 0; i < 4; i++) {
                const [x0, y0] = poly[i], [x1, y1] = poly[(i + 1) % 4];
                const len = Math.hypot(x1 - x0, y1 - y0);
                if (len < 1e-6) continue;
                const nx = (y0 - y1) / len, ny = (x1 - x0) / len;
                const pa = a.map(([x, y]) => x * nx + y * ny), pb = b.map(([x, y]) => x * nx + y * ny);
                if (Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb))
                    <= tolerance) return false;
            }
        }
        return true;
    };
    const inside = (poly, box) => poly.every(([x, y]) => x >= box.left - tolerance && x <= box.right + tolerance
        && y >= box.top - tolerance && y <= box.bottom + tolerance);
    const svg = el.querySelector("svg.main-svg").getBoundingClientRect();
    const round = p => p.map(([x, y]) => [Math.round(x - svg.left), Math.round(y - svg.top)]);
    const items = texts().map(t => ({node: t, text: t.textContent.trim(), kind: kind(t),
                                     poly: corners(t, t.getBBox())}));
    const problems = [];
    for (const item of items) {
        if (!inside(item.poly, svg)) {
            problems.push({problem: "outside the chart", kind: item.kind, text: item.text, at: round(item.poly),
                           chart: [Math.round(svg.width), Math.round(svg.height)]});
            continue;
        }
        for (let e = item.node; e && e !== el; e = e.parentElement) {  // a clip path of the plot cuts it
            const url = e.getAttribute && e.getAttribute("clip-path");
            const id = url && (url.match(/url\(["']?#([^"')]+)["']?\)/) || [])[1];
            const rect = id && el.querySelector(`clipPath[id="${CSS.escape(id)}"] rect`);
            if (!rect) continue;
            const box = corners(e, {x: +rect.getAttribute("x") || 0, y: +rect.getAttribute("y") || 0,
                                    width: +rect.getAttribute("width"), height: +rect.getAttribute("height")});
            const xs = box.map(p => p[0]), ys = box.map(p => p[1]);
            const area = {left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys)};
            if (!inside(item.poly, area)) {
                problems.push({problem: "cut by the plot area", kind: item.kind, text: item.text, at: round(item.poly),
                               area: round([[area.left, area.top], [area.right, area.bottom]])});
            }
            break;
        }
    }
    const labels = items.filter(i => dataText || i.kind !== "data text");
    for (let i = 0; i < labels.length; i++) {
        for (let j = i + 1; j < labels.length; j++) {
            if (overlapping(labels[i].poly, labels[j].poly)) {
                problems.push({problem: "overlap", kind: `${labels[i].kind} / ${labels[j].kind}`,
                               text: `${labels[i].text} / ${labels[j].text}`,
                               at: [round(labels[i].poly), round(labels[j].poly)]});
            }
        }
    }
    const title = el.querySelector(".gtitle");  // a title of several lines: its lines, with a space between
    const lines = title ? [...title.querySelectorAll("tspan.line")].map(t => t.textContent) : [];
    return {title: lines.length ? lines.join(" ") : title ? title.textContent : "", texts: items.length,
            settled: now === before, problems};
}
"""


class Replaced(Exception):
    """The chart being measured left the page: a later run of the page drew a new one in its place."""


@dataclass(frozen=True)
class TextProblem:
    """One text of one chart that is cut off or overlaps another."""

    chart: str  # the chart's title, else its position on the page and the Streamlit key of its container
    problem: str  # "outside the chart", "cut by the plot area" or "overlap"
    kind: str  # tick label, axis title, chart title, legend, colour bar, annotation, data text (two for an overlap)
    text: str
    where: list  # the text's corners in px from the chart's top left corner

    def __str__(self) -> str:
        return f"{self.chart}: {self.kind} {self.text!r} {self.problem} at {self.where}"


def _name(chart: Locator, index: int, title: str) -> str:
    key = chart.evaluate(
        "el => { const c = el.closest('[class*=\"st-key-\"]');"
        " return c ? [...c.classList].find(k => k.startsWith('st-key-')).slice(7) : ''; }"
    )
    return " · ".join(part for part in (f"chart {index + 1}", key, title) if part)


def chart_text_problems(chart: Locator, data_text: bool = False, index: int = 0, wait_ms: int = 20_000) -> list:
    """Every text of one plotly chart (the .js-plotly-plot div) that is cut off or overlaps another label, measured
    once its text is drawn and still (wait_ms at most: a busy machine took over 5 s to draw a chart's text)."""
    found = chart.evaluate(_MEASURE, [TOLERANCE_PX, data_text, wait_ms])
    if found.get("replaced"):
        raise Replaced(f"chart {index + 1} was replaced while it was measured")
    name = _name(chart, index, found["title"])
    if not found["texts"]:
        return [TextProblem(name, "no text drawn", "chart", "", [])]
    return [TextProblem(name, p["problem"], p["kind"], p["text"], p["at"]) for p in found["problems"]]


def text_problems(scope: Page | Locator, data_text: bool = False) -> list:
    """The problems of every visible plotly chart in scope (a page, or a part of one), in page order."""
    charts = scope.locator(".js-plotly-plot")
    problems = []
    for index in range(charts.count()):
        for attempt in range(3):  # Streamlit may replace a chart's element while it is being measured
            chart = charts.nth(index)
            try:
                if chart.is_visible():  # not in a closed expander or another tab
                    chart.scroll_into_view_if_needed(timeout=5_000)
                    problems += chart_text_problems(chart, data_text, index)
                break
            except (PlaywrightError, Replaced):
                if attempt == 2:
                    raise
    return problems


def assert_text_fits(scope: Page | Locator, data_text: bool = False, where: str = "") -> int:
    """Fail with every problem found when a chart in scope cuts off text or overlaps labels; return how many charts
    were checked (so a caller can tell that there were some)."""
    charts = scope.locator(".js-plotly-plot") if not _is_chart(scope) else None
    problems = text_problems(scope, data_text) if charts is not None else chart_text_problems(scope, data_text)
    listed = "\n".join(f"  {p}" for p in problems)
    assert not problems, f"charts {where} cut off or overlap their text:\n{listed}"
    if charts is None:
        return 1
    return sum(1 for i in range(charts.count()) if charts.nth(i).is_visible())


def _is_chart(scope) -> bool:
    return isinstance(scope, Locator) and scope.evaluate("el => el.classList.contains('js-plotly-plot')")
