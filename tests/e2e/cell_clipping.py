"""Is every text of a metric, a table or any other HTML element, and every cell of an st.dataframe, shown whole? For
the browser tests (tests/e2e/test_e2e_clipping.py).

HTML text (st.metric, st.table, captions): each text node's box, as the browser laid it out (a cut text keeps its full
box, the cut is only painted), must lie inside every element between it and the scope that clips what overflows it
(overflow other than visible), and inside the window's width.

st.dataframe draws on a canvas (glide-data-grid), so its cells are not HTML: the grid's own props (its columns with
their widths, and getCellContent) are read from the React fiber of its canvas, and each cell's text is measured with the
grid's font (canvas measureText) against its column's width less the cell's padding. Rows up to MAX_ROWS are read,
those scrolled out of sight included.

    from tests.e2e.cell_clipping import html_text_problems, grid_cell_problems
    assert not html_text_problems(page.get_by_test_id("stMetric").first)
    assert not grid_cell_problems(page.get_by_test_id("stDataFrame").first)
"""

from __future__ import annotations

TOLERANCE_PX = 1.0
MAX_ROWS = 500

_HTML = r"""
(el, tolerance) => {
    const problems = [], width = document.documentElement.clientWidth;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!node.textContent.trim() || !parent.checkVisibility({visibilityProperty: true, opacityProperty: true}))
            continue;
        if (parent.closest('[data-testid="stIconMaterial"]')) continue;  // an icon's ligature name, drawn as a glyph
        const range = document.createRange();
        range.selectNodeContents(node);
        const text = range.getBoundingClientRect();
        if (!text.width) continue;
        const box = (what, b) => problems.push({text: node.textContent.trim(), cut_by: what,
            text_box: [text.left, text.right, text.top, text.bottom].map(Math.round),
            box: [b.left, b.right, b.top, b.bottom].map(Math.round)});
        if (text.right > width + tolerance) box("the window", {left: 0, right: width, top: 0, bottom: 0});
        for (let a = parent; a; a = a.parentElement) {
            const s = getComputedStyle(a);
            if (s.overflowX !== "visible" || s.overflowY !== "visible") {
                const b = a.getBoundingClientRect();
                const across = s.overflowX !== "visible"
                    && (text.left < b.left - tolerance || text.right > b.right + tolerance);
                const down = s.overflowY !== "visible"
                    && (text.top < b.top - tolerance || text.bottom > b.bottom + tolerance);
                if (across || down) box(a.dataset.testid || a.tagName.toLowerCase(), b);
            }
            if (a === el) break;
        }
    }
    return problems;
}
"""

_GRID = r"""
async (el, [tolerance, maxRows]) => {
    const canvas = el.querySelector('canvas[data-testid="data-grid-canvas"]');
    if (!canvas) return {error: "no grid canvas"};
    const key = Object.keys(canvas).find(k => k.startsWith("__reactFiber"));
    let fiber = key && canvas[key], grid = null;
    for (let i = 0; fiber && i < 100 && !grid; i++, fiber = fiber.return) {
        const p = fiber.memoizedProps;
        if (p && Array.isArray(p.columns) && typeof p.getCellContent === "function" && typeof p.rows === "number")
            grid = p;
    }
    if (!grid) return {error: "the grid's props were not found"};
    const themed = getComputedStyle(el.querySelector('[style*="--gdg-base-font-style"]'));
    const value = name => themed.getPropertyValue(name).trim();
    const family = value("--gdg-font-family"), pad = parseFloat(value("--gdg-cell-horizontal-padding")) || 8;
    const fonts = {cell: `${value("--gdg-base-font-style")} ${family}`,
                   header: `${value("--gdg-header-font-style")} ${family}`};
    await document.fonts.ready;
    const ctx = document.createElement("canvas").getContext("2d");
    const measure = (text, font) => { ctx.font = font; return ctx.measureText(text).width; };
    const problems = [];
    let cells = 0;
    grid.columns.forEach((column, c) => {
        const room = column.width - 2 * pad + tolerance;
        if (column.title && measure(column.title, fonts.header) > column.width - 2 * pad + tolerance)
            problems.push({column: column.title, row: "header", text: column.title, width: column.width});
        for (let r = 0; r < Math.min(grid.rows, maxRows); r++) {
            const cell = grid.getCellContent([c, r]);
            const text = cell && (typeof cell.displayData === "string" ? cell.displayData : null);
            if (!text) continue;
            cells++;
            const need = measure(text, fonts.cell);
            if (need > room) problems.push({column: column.title, row: r, text, need: Math.ceil(need + 2 * pad),
                                            width: column.width});
        }
    });
    return {cells, problems};
}
"""


def html_text_problems(scope) -> list[dict]:
    """Every text in scope (a Playwright locator of one element) that an element inside it, or the window, cuts."""
    return scope.evaluate(_HTML, TOLERANCE_PX)


def grid_cell_problems(scope) -> tuple[int, list[dict]]:
    """(cells read, those cut by their column) of one st.dataframe (its stDataFrame element)."""
    found = scope.evaluate(_GRID, [TOLERANCE_PX, MAX_ROWS])
    assert "error" not in found, found
    return found["cells"], found["problems"]
