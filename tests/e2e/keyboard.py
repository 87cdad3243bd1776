"""The keyboard in the real browser: which controls of a page's main area a learner reaches by pressing Tab.

`python -m tests.e2e.keyboard` starts the app, walks every page by Tab (every expander open) and prints, per page,
the main area's controls and how many of them Tab reached, then the ones it missed; `--repo PATH` measures another
checkout (e.g. main in a throwaway worktree, for a before / after figure).

A control is an element a user acts on (a button, a link, a field, a slider, a tab, a data grid…) that is drawn and
enabled; the radios of one group, and the tabs of one tab list, are one control, since Tab enters such a group once
and the arrow keys move inside it. A chart a click acts on is a control too: the keyboard reaches it when Tab reaches
its twin, the control beside it that does what the click does (TWINS).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tests.e2e.accessibility import _choose_strategy, charts_drawn, open_expanders
from tests.e2e.helpers import LAZY_PARTS, NAV, PAGE_SLUGS, TITLES, expect, go_to, open_app, settled, sidebar

# the pages walked: each as it opens, and the Decoding page again with "choose each token", whose chart a click acts on
WALKS = [*((slug, None) for slug in PAGE_SLUGS), ("decoding", "choose")]
MAX_TABS = 400  # presses per walk: more than any page has controls, so a walk ends by coming round again

# every control of the main area, each marked with its number (data-kb), and a group's members with the group's
CONTROLS = """lazy => {
    const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex], '
        + '[role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=slider], [role=tab], '
        + '[role=combobox], [role=textbox], [role=spinbutton], [contenteditable=true]';
    const main = document.querySelector('[data-testid="stMain"]');
    const shown = el => {
        if (el.closest(lazy) || el.closest('[aria-hidden=true]') || el.closest('[inert]')) return false;
        if (el.disabled || el.getAttribute('aria-disabled') === 'true') return false;
        if (el.tabIndex < 0 && !el.matches('[role=radio], [role=tab]')) return false;  // a part of a widget
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        return box.width > 0 && box.height > 0 && style.visibility !== 'hidden';
    };
    const names = [];
    document.querySelectorAll('[data-kb]').forEach(el => el.removeAttribute('data-kb'));
    for (const el of main.querySelectorAll(selector)) {
        if (!shown(el) || el.parentElement.closest('[data-kb]')) continue;  // a control inside a control is the same
        const group = el.matches('[role=radio], input[type=radio]') ? el.closest('[role=radiogroup]')
            : el.matches('[role=tab]') ? el.closest('[role=tablist]') : null;
        if (group && group.hasAttribute('data-kb')) {
            el.setAttribute('data-kb', group.getAttribute('data-kb'));
            continue;
        }
        const n = String(names.length);
        (group || el).setAttribute('data-kb', n);
        el.setAttribute('data-kb', n);
        const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].innerText)
            || el.innerText || el.getAttribute('title') || el.getAttribute('data-testid') || '';
        names.push(`${el.tagName.toLowerCase()}${el.getAttribute('role') ? '[' + el.getAttribute('role') + ']' : ''}`
            + ` "${label.trim().split('\\n')[0].slice(0, 50)}"`);
    }
    // a chart a click acts on (Streamlit's on_select: plotly's clickmode selects) is a control of its own: the
    // keyboard reaches it through its twin, the control beside it that does what a click does (TWINS)
    for (const chart of main.querySelectorAll('[data-testid="stPlotlyChart"]')) {
        const plot = chart.querySelector('.js-plotly-plot');
        if (chart.closest(lazy) || !plot || !plot._fullLayout || !String(plot._fullLayout.clickmode).includes('select'))
            continue;
        const box = chart.closest('[class*="st-key-"]');
        const key = box ? [...box.classList].find(c => c.startsWith('st-key-')).slice(7) : '';
        names.push(`chart "${key}"`);
    }
    return names;
}"""

# the control number of the focused element (its own, or of the control it lies in), or null
FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const control = el.closest('[data-kb]');
    return control ? control.getAttribute('data-kb') : 'outside';
}"""

FOCUSED_ELEMENT = "() => document.activeElement"

# the chart a click acts on (its key, or the start of a key a page makes per view) → the key of the control beside it
# that does the same from the keyboard
TWINS = {
    "click_attn_chart": "attn_mark_cell",  # a cell marked as an alignment
    "click_attn_stat": "attn_open_head_stat",  # a head opened from the statistics grid
    "click_attn_patterns": "attn_open_head_maps",  # a head opened from the mean maps
    "choose_topk": "dec_force_pick",  # the token forced at this step (and the Force button after it)
    "diagram_inside_": "inside_block",  # the block of the architecture diagram gone to
    "cellmap_inside_": "inside_query",  # the cell worked out (and inside_key beside it)
}

# the control number of the element drawn with this key (the control it is, or the first control inside it)
TWIN_CONTROL = """key => {
    const box = document.querySelector(`[data-testid="stMain"] .st-key-${key}`);
    if (!box) return null;
    const control = box.matches('[data-kb]') ? box : box.querySelector('[data-kb]');
    return control ? Number(control.getAttribute('data-kb')) : null;
}"""


def twin_of(chart_key: str) -> str | None:
    """The key of the keyboard twin of the chart drawn with chart_key, or None when it has none."""
    return next((twin for prefix, twin in TWINS.items() if chart_key.startswith(prefix)), None)


def tab_walk(page) -> tuple[list[str], set[int], list[int]]:
    """Press Tab from the top of the document until the focus comes round again → (the main area's controls by
    name, the numbers of those Tab reached, the numbers in the order Tab reached them the first time)."""
    names = page.evaluate(CONTROLS, LAZY_PARTS)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    order: list[int] = []
    seen_elements = []
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        focused = page.evaluate_handle(FOCUSED_ELEMENT)
        if any(page.evaluate("([a, b]) => a === b", [focused, e]) for e in seen_elements[:1]):
            break  # back at the first element focused: the walk came round
        seen_elements.append(focused)
        control = page.evaluate(FOCUSED)
        if control not in (None, "outside") and int(control) not in order:
            order.append(int(control))
    reached = set(order)
    for n, name in enumerate(names):  # a chart is reached when its twin is
        if name.startswith("chart "):
            twin = twin_of(name.split('"')[1])
            if twin is not None and page.evaluate(TWIN_CONTROL, twin) in reached:
                reached.add(n)
    return names, reached, order


def reach(page, slug: str, lang: str = "en", strategy: str | None = None) -> tuple[list[str], set[int], list[int]]:
    """Open the page (the Decoding page with `strategy` chosen, when given), open its expanders, wait for its charts,
    and walk it by Tab (tab_walk's answer)."""
    go_to(page, slug, lang)
    if strategy is not None:
        _choose_strategy(page, lang, strategy)
    charts_drawn(page)
    open_expanders(page)
    charts_drawn(page)
    return tab_walk(page)


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.helpers import VIEWPORT
    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, streamlit_server

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=None, help="the checkout to measure (default: this one)")
    args = parser.parse_args()
    server_args = {} if args.repo is None else {"repo": args.repo.resolve()}
    with sync_playwright() as playwright, streamlit_server(**server_args) as server:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport=VIEWPORT, locale="en-US")
        context.set_default_timeout(60_000)
        page = context.new_page()
        open_app(page, server.url)
        expect(sidebar(page).get_by_text(NAV["en"][0], exact=True)).to_be_visible()
        settled(page)
        for slug, strategy in WALKS:
            names, reached, order = reach(page, slug, strategy=strategy)
            title = TITLES["en"][PAGE_SLUGS.index(slug)] + (f" ({strategy})" if strategy else "")
            in_order = "in page order" if order == sorted(order) else "OUT of page order"
            print(f"{title:<34} Tab reaches {len(reached):>3} of {len(names):>3} controls, {in_order}", flush=True)
            for n, name in enumerate(names):
                if n not in reached:
                    print(f"    missed: {name}")
        browser.close()


if __name__ == "__main__":
    main()
