"""ui/browser.py: the chart pages' lazily loaded parts, drawn out of sight when the browser asks (its script clicks the
hidden button once the first page is drawn; tests/e2e/test_e2e_first_chart.py checks that side)."""

from __future__ import annotations

import pytest

from tests.apptest_helpers import open_app

PARTS = "lazy_parts"


def _part_ids(at) -> set[str]:
    """The keys of the parts drawn in this run: chart, toggle (a formula and italic text have none)."""
    keys = {el.proto.id.rsplit("-", 1)[-1] for el in at.get("plotly_chart")}
    return keys | {toggle.key for toggle in at.toggle}


@pytest.mark.parametrize(("lang", "label"), [("en", "Chart parts loaded early"), ("zh", "提前加载的图表组件")])
def test_the_button_draws_one_of_each_lazy_part_and_the_next_run_takes_them_away(lang, label):
    at = open_app(lang)  # the Data page, on the corpus: no plotly chart, formula or toggle of its own
    button = at.button(key="lazy_parts_button")
    assert button.label == label
    assert not _part_ids(at) and not at.latex
    button.click().run()
    assert _part_ids(at) == {"lazy_parts_chart", "lazy_parts_toggle"}
    (formula,) = at.latex  # with a fraction, a root and big parentheses: KaTeX's fonts for the pages' formulas
    assert all(part in formula.value for part in (r"\frac", r"\sqrt", r"\left("))
    assert not at.exception
    at.run()  # any next run: a page switch, an edit
    assert not _part_ids(at) and not at.latex
