"""axe-core in the real browser: what it finds on every page of the app, in English and Chinese.

`python -m tests.e2e.accessibility` starts the app, walks every page in both languages (as it opens, then with
every expander open) and prints axe-core's violations per page, language and rule with their impact;
`--repo PATH` audits another checkout (e.g. an older commit in a throwaway worktree).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from tests.e2e.helpers import NAV, PAGE_SLUGS, TITLES, expect, go_to, open_app, settled, sidebar
from ui.strings import STRINGS

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # the browser tests are skipped (or fail under CI) without Playwright anyway
    Axe = None

SERIOUS = ("serious", "critical")
LOCALES = {"en": "en-US", "zh": "zh-CN"}
DECODING_STRATEGIES = ("greedy", "beam", "sample", "choose", "teacher")  # pages/decoding.py STRATEGIES


def charts_drawn(page) -> None:
    """Wait until every plotly chart on the page has drawn its SVG (plotly draws after the script run). The charts
    are counted anew at every check: a chart replaced by a later run is not waited on, a new one is."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
                   .every(chart => chart.querySelector('.main-svg') !== null)""",
        timeout=60_000,
    )


def open_expanders(page) -> None:
    """Open every closed expander (sidebar and page) the way a learner does: a click on its summary."""
    closed = page.locator('[data-testid="stExpander"] details:not([open]) > summary')
    for _ in range(closed.count()):
        closed.first.click()
    expect(closed).to_have_count(0)
    settled(page)


def violations(page) -> list[dict]:
    """axe-core's violations on the page as drawn now: [{id, impact, help, nodes: [{target, html, summary}]}]."""
    return Axe().run(page).response["violations"]


def describe(found: list[dict], limit: int = 6) -> str:
    """One line per violation and up to `limit` of its elements: what a failing test prints."""
    lines = []
    for v in found:
        lines.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])} element(s)): {v['help']}")
        for node in v["nodes"][:limit]:
            summary = " ".join((node.get("failureSummary") or "").split())[:220]
            lines.append(f"    {' > '.join(map(str, node['target']))}: {node['html'][:160]}  {summary}")
    return "\n".join(lines)


def _choose_strategy(page, lang: str, strategy: str) -> None:
    """Pick a decoding strategy with the Decoding page's radio."""
    radio = page.get_by_role("radiogroup", name=STRINGS["dec.strategy"][lang], exact=True)
    radio.get_by_text(STRINGS[f"dec.s_{strategy}"][lang], exact=True).click()
    expect(radio.get_by_role("radio", name=STRINGS[f"dec.s_{strategy}"][lang], exact=True)).to_be_checked()
    settled(page)


def _choose_dataset(page, lang: str, dataset: str) -> None:
    """Pick a dataset with the Data page's radio and wait until its table is drawn."""
    radio = page.get_by_role("radiogroup", name=STRINGS["data.dataset"][lang], exact=True)
    radio.get_by_text(STRINGS[f"data.dataset.{dataset}"][lang], exact=True).click()
    expect(radio.get_by_role("radio", name=STRINGS[f"data.dataset.{dataset}"][lang], exact=True)).to_be_checked()
    settled(page)
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    charts_drawn(page)


def _open_link_popover(page, lang: str) -> None:
    """Open the sidebar's "Link to this view" popover (inside the Share and export expander, opened already)."""
    sidebar(page).get_by_role("button", name=STRINGS["link.copy"][lang]).click()
    expect(page.get_by_test_id("stPopoverBody").get_by_test_id("stCode")).to_be_visible()


def walk(page, lang: str):
    """Yield (page slug, view, violations) for every page as it opens and with every expander open, the Decoding
    page with each of its strategies, and the sidebar's link popover; `page` is open in `lang` already."""
    for slug in PAGE_SLUGS:
        go_to(page, slug, lang)
        charts_drawn(page)
        yield slug, "as opened", violations(page)
        open_expanders(page)
        charts_drawn(page)
        yield slug, "expanders open", violations(page)
        if slug == "data":
            _open_link_popover(page, lang)
            yield slug, "link popover open", violations(page)
            page.keyboard.press("Escape")
            expect(page.get_by_test_id("stPopoverBody")).to_have_count(0)
            # the corpus a tab starts on is a read-only paged table; the tutorial pairs are the data editor
            _choose_dataset(page, lang, "tutorial")
            yield slug, "tutorial pairs", violations(page)
            _choose_dataset(page, lang, "corpus")
        if slug == "decoding":
            for strategy in DECODING_STRATEGIES[1:]:
                _choose_strategy(page, lang, strategy)
                charts_drawn(page)
                yield slug, strategy, violations(page)
            _choose_strategy(page, lang, DECODING_STRATEGIES[0])


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.e2e.helpers import VIEWPORT
    from tests.e2e.server import CHROMIUM, CHROMIUM_ARGS, streamlit_server

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=None, help="the checkout to audit (default: this one)")
    parser.add_argument("--details", action="store_true", help="list the elements of every violation too")
    args = parser.parse_args()
    server_args = {} if args.repo is None else {"repo": args.repo.resolve()}
    totals: Counter = Counter()
    with sync_playwright() as playwright, streamlit_server(**server_args) as server:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        print(f"{'language':<9}{'page':<21}{'view':<18}rule (impact): elements")
        for lang in ("en", "zh"):
            context = browser.new_context(viewport=VIEWPORT, locale=LOCALES[lang])
            context.set_default_timeout(60_000)
            page = context.new_page()
            open_app(page, server.url)
            expect(sidebar(page).get_by_text(NAV[lang][0], exact=True)).to_be_visible()
            for slug, view, found in walk(page, lang):
                title = TITLES["en"][PAGE_SLUGS.index(slug)][:20]
                rules = ", ".join(f"{v['id']} ({v['impact']}): {len(v['nodes'])}" for v in found) or "none"
                print(f"{lang:<9}{title:<21}{view:<18}{rules}", flush=True)
                if args.details and found:
                    print(describe(found, limit=20))
                for v in found:
                    totals[(v["id"], v["impact"])] += len(v["nodes"])
            context.close()
        browser.close()
    print("\nelements per rule over every page, language and view:")
    for (rule, impact), n in sorted(totals.items(), key=lambda kv: (-SERIOUS.count(kv[0][1]), kv[0])):
        print(f"  {rule} ({impact}): {n}")
    impacts = ("critical", "serious", "moderate", "minor")
    print("by impact: " + ", ".join(f"{i} {sum(n for (_, got), n in totals.items() if got == i)}" for i in impacts))


if __name__ == "__main__":
    main()
