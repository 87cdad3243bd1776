"""No chart clips its own text: every page at 1400 px and 1024 px windows, with the bundled model and with a model
whose tokens are as long as a token may be; and every figure builder drawn outside Streamlit, as a lesson sheet
draws it. Each text of each chart is measured where the browser drew it (tests/e2e/clipping.py)."""

from __future__ import annotations

import re

import plotly
import plotly.io as pio
import pytest

from tests.e2e.chart_catalogue import LONG_LATIN, LONG_PAIRS, figures, long_token_translator
from tests.e2e.clipping import assert_text_fits, text_problems
from tests.e2e.helpers import (
    PAGE_SLUGS,
    alert,
    expect,
    go_to,
    link_says,
    no_exception,
    press_slider,
    settled,
    sidebar,
)
from transformer import TrainConfig
from transformer.checkpoint import save_checkpoint
from transformer.train import train
from viz.decoding import TREE_PX

EFFECT_PX = 300  # pages/masks.py: one of the three steps of "what a mask does"

pytestmark = pytest.mark.e2e

WIDTHS = (1400, 1024)  # the browser windows
# each strategy's radio label, and its value in the page's link
STRATEGIES = {
    "greedy": "greedy",
    "beam search": "beam",
    "sampling": "sample",
    "choose it yourself": "choose",
    "teacher forcing vs free running": "teacher",
}


def _choose_strategy(page, label: str) -> None:
    """Choose a decoding strategy and wait until its run has drawn the page."""
    page.get_by_role("radio", name=label).check(force=True)
    link_says(page, "strategy", STRATEGIES[label])
    settled(page)


def _check(page, where: str) -> int:
    """Every visible chart of the page keeps its text inside it; returns how many were checked."""
    settled(page)
    return assert_text_fits(page, where=where)


def _show_heads(page, choice: str, title: str) -> None:
    """Choose one head or all heads on the Attention page and wait until its map's title says so: the click's run may
    start a moment after the click, and a check made before it would measure the old map as it is replaced."""
    page.get_by_role("radio", name=choice).check(force=True)
    attention_map = page.locator(".st-key-click_attn_chart:not([data-stale='true']) .js-plotly-plot")
    expect(attention_map).to_have_count(1)
    expect(attention_map).to_contain_text(title)
    settled(page)


def _walk(page, width: int) -> dict[str, int]:
    """Every page, and the views that draw other charts, checked at this window width: charts checked per view."""
    page.set_viewport_size({"width": width, "height": 900})
    checked = {}
    for slug in PAGE_SLUGS:
        go_to(page, slug)
        no_exception(page)
        checked[slug] = _check(page, f"on {slug} at {width} px")
        if slug == "attention":  # every head side by side: a chart of its own
            _show_heads(page, "all heads", "· all heads")
            checked["attention, all heads"] = _check(page, f"on attention (all heads) at {width} px")
            _show_heads(page, "one head", "· head ")
        if slug == "decoding":
            for strategy in STRATEGIES:
                _choose_strategy(page, strategy)
                if strategy == "beam search":
                    press_slider(page, "beam size K", "End")  # K = 10, the widest tree
                    link_says(page, "beam", "10")
                checked[f"decoding, {strategy}"] = _check(page, f"on decoding ({strategy}) at {width} px")
            _choose_strategy(page, "greedy")
    return checked


def test_every_chart_of_every_page_keeps_its_text_inside_it(page):
    for width in WIDTHS:  # one tab, its window narrowed: the views are the same, only the room changes
        checked = _walk(page, width)
        assert checked["inside"] >= 3 and checked["decoding, beam search"] >= 1 and checked["attention"] >= 3, checked


@pytest.fixture(scope="module")
def long_token_files(tmp_path_factory):
    """A checkpoint trained (briefly) on pairs whose tokens are as long as a token may be, and those pairs as TSV."""
    folder = tmp_path_factory.mktemp("long-tokens")
    translator = long_token_translator()
    for _ in train(translator, LONG_PAIRS, TrainConfig(epochs=40, seed=0)):
        pass
    checkpoint = folder / "long-tokens.safetensors"
    save_checkpoint(translator, checkpoint)
    pairs = folder / "long-tokens.tsv"
    pairs.write_text("source\ttarget\n" + "".join(f"{s}\t{t}\n" for s, t in LONG_PAIRS), encoding="utf-8")
    return checkpoint, pairs


def _upload(page, label: str, path) -> None:
    uploader = page.get_by_test_id("stFileUploader").filter(has_text=label)
    uploader.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    expect(uploader.get_by_test_id("stFileChipName")).to_have_attribute("title", path.name)  # its text may be cut
    settled(page)


def test_tokens_as_long_as_allowed_stay_inside_every_chart(page, long_token_files):
    checkpoint, pairs = long_token_files
    _upload(page, "Upload pairs", pairs)  # the Data page: the pairs replace the table
    expect(page.get_by_test_id("stMetricValue").first).to_have_text(str(len(LONG_PAIRS)))
    go_to(page, "train")
    _upload(page, "Load a checkpoint", checkpoint)
    expect(alert(page, "Success", f"Loaded {checkpoint.name}")).to_be_visible()
    expect(sidebar(page)).to_contain_text("From: uploaded")
    go_to(page, "inside")  # on the tutorial example, the third pair: the first has the long tokens
    pair = page.get_by_role("combobox", name="Pair", exact=True)
    pair.click()
    page.get_by_role("option", name=re.compile(re.escape(f"{LONG_LATIN} 你"))).click()
    settled(page)
    step = page.locator(".st-key-fig_inside_step .js-plotly-plot")  # the chart before the click may linger a moment
    expect(step.filter(has_text=LONG_LATIN[:8]).first).to_be_visible()  # a long token
    expect(step).to_have_count(1)
    for width in WIDTHS:  # one tab, its window narrowed
        checked = _walk(page, width)
        assert checked["inside"] >= 3 and checked["decoding, beam search"] >= 1, checked


@pytest.fixture(scope="module")
def bare_page(browser):
    """A blank page with plotly.js, as a lesson sheet has it: no Streamlit, no theme."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_content(f"<html><body style='margin:0'><script>{plotly.offline.get_plotlyjs()}</script></body></html>")
    yield page
    context.close()


_DRAW = """async ([width, spec]) => {
    document.body.innerHTML = '<div id="chart"></div>';
    const chart = document.getElementById("chart");
    chart.style.width = width + "px";
    const figure = JSON.parse(spec);
    await Plotly.newPlot(chart, figure.data, figure.layout, {responsive: true});
}"""


# the widths the app draws charts at: a mask-effect step, one of two charts side by side, the page's main column in a
# 1024 px and a 1400 px window (a lesson sheet is about as wide as the last)
NARROWEST = {"mask_scores": EFFECT_PX, "mask_masked": EFFECT_PX, "mask_weights": EFFECT_PX, "beam_tree_4": TREE_PX,
             "beam_tree_10": TREE_PX}  # fmt: skip


@pytest.mark.parametrize("width", [EFFECT_PX, 440, 564, 940])
def test_every_figure_keeps_long_tokens_inside_it_outside_streamlit(bare_page, width):
    problems = []
    for name, fig in figures(long_token_translator()).items():
        if fig.layout.width and fig.layout.width > width or NARROWEST.get(name, 440) > width:
            continue  # never drawn this narrow: the page makes room for it (the diagram, the next-token bars, …)
        bare_page.evaluate(_DRAW, [width, pio.to_json(fig)])
        found = text_problems(bare_page, data_text=name.startswith("beam"))  # the tree's boxes must not meet either
        problems += [f"{name}: {p}" for p in found]
    assert not problems, "\n".join(problems)
