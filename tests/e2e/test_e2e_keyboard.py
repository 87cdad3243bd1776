"""Every page by keyboard, in a real browser: Tab reaches every control of the main area, in the order of the page, and
shows where it is; what a click on a chart does (open a head, mark a cell) is done from the keyboard alone."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import expect, go_to, no_exception, settled
from tests.e2e.keyboard import WALKS, reach, twin_of
from tests.e2e.test_e2e_attention import _RED_CELLS, chart, one

pytestmark = pytest.mark.e2e

# the styles that can show focus, of an element and of the boxes around it (a select draws its focus ring around
# the input it holds)
FOCUS_LOOK = """el => {
    const looks = [];
    for (let box = el, n = 0; box && n < 4; box = box.parentElement, n++) {
        const s = getComputedStyle(box);
        looks.push([s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor].join(' '));
    }
    return looks;
}"""
MAX_STEPS = 30  # Tab presses from the control above a chart to its twin: the chart's buttons lie between


@pytest.mark.parametrize(("slug", "strategy"), WALKS, ids=[f"{s}-{k}" if k else s for s, k in WALKS])
def test_tab_reaches_every_control_of_the_main_area_in_page_order(page, slug, strategy):
    names, reached, order = reach(page, slug, strategy=strategy)
    assert names, "the page has controls to reach"
    charts = [name for name in names if name.startswith("chart ")]
    assert all(twin_of(name.split('"')[1]) for name in charts), (
        f"a chart a click acts on has no keyboard twin: {charts}"
    )
    missed = [name for n, name in enumerate(names) if n not in reached]
    assert not missed, f"Tab never reaches {len(missed)} of {len(names)} controls: {missed}"
    assert order == sorted(order), "Tab goes through the controls in another order than the page shows them"


def test_the_focused_control_shows_it(page):
    go_to(page, "attention")
    twin = page.get_by_role("combobox", name="Open a head of this grid", exact=True)
    twin.scroll_into_view_if_needed()
    looks_before = twin.evaluate(FOCUS_LOOK)
    page.get_by_role("combobox", name="Colour the heads by", exact=True).focus()  # above it, the chart between
    for _ in range(MAX_STEPS):  # Tab on, through the chart's own buttons, to the twin
        page.keyboard.press("Tab")
        if twin.evaluate("el => el === document.activeElement"):
            break
    expect(twin).to_be_focused()
    assert twin.evaluate(FOCUS_LOOK) != looks_before  # a ring, an outline or a border colour: something shows it


def pick_by_keyboard(page, label: str, typed: str) -> None:
    """Focus the selectbox named label, type to filter its options, and take the first with Enter."""
    box = page.get_by_role("combobox", name=label, exact=True)
    box.focus()
    page.keyboard.type(typed)
    expect(page.get_by_role("listbox")).to_be_visible()
    page.keyboard.press("Enter")
    settled(page)


def test_the_keyboard_opens_a_head_and_marks_a_cell_as_a_click_does(page):
    go_to(page, "attention")
    big = chart(page, "click_attn_chart")
    expect(big).to_contain_text("layer 2 · head 1")

    # a head of the statistics grid, as test_e2e_attention clicks one of the mean maps
    pick_by_keyboard(page, "Open a head of this grid", "layer 1 · head 3")
    expect(big).to_contain_text("layer 1 · head 3")
    expect(page.get_by_role("combobox", name="layer", exact=True)).to_have_value("1")
    expect(page.get_by_role("combobox", name="head", exact=True)).to_have_value("3")
    expect(page.get_by_role("combobox", name="Open a head of these maps", exact=True)).to_have_value("layer 1 · head 3")

    # mark "I → love" on 喜 (row 1, column 1), as a click on its cell does; the same choice again takes it away
    pick_by_keyboard(page, "Mark or unmark a cell", "I → love  ↔  喜")
    expect(page.get_by_test_id("stMultiSelect")).to_contain_text("I → love")
    assert one(big).evaluate(_RED_CELLS) == [[1, 1]]
    pick_by_keyboard(page, "Mark or unmark a cell", "I → love  ↔  喜")
    expect(page.get_by_test_id("stMultiSelect")).not_to_contain_text("I → love")
    assert one(big).evaluate(_RED_CELLS) == []
    no_exception(page)
