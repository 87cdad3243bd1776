"""One chart per screen: in the presenter view, a second sidebar switch that shows the page's charts one at a time,
each as wide as the main area and as tall as fits a 1280 × 720 screen, under its title and one sentence that says
what to look at, with ← and → (buttons at the top of the screen, and the keyboard's arrows when focus is not in a
field) to step through them, wrapping from the last to the first.

Every chart is still drawn on every run, so every page works as before (a click on a chart, its CSV, the lesson
sheet): ui.export.chart draws each one in a container of its own (`slide`), and the end of the run (`one_chart_nav`,
called by app.py once the page has been drawn, when the number of charts is known) draws the buttons, "3 / 7", and
the rule that hides every other chart's container. The step is kept per page in session state, so it survives reruns
and page switches; a step drawn anew scrolls its chart into view."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator

import streamlit as st

from transformer.text import markdown

from .i18n import t
from .presenter import presenting

KEY = "one_chart"  # the switch's key in session state
AT = "one_chart_at"  # page (its URL path) → the index of the chart on show
DRAWN = "one_chart_drawn"  # this run's charts, their keys in the order they are drawn
MOVED = "one_chart_moved"  # set when the step changed: this run scrolls the chart into view
SLIDE = "one_chart_c_"  # each chart's container key: SLIDE + the chart's key
NAV = "one_chart_nav"
SHOWN = "one_chart_shown"  # this run's chart on show, from 1, for the link (None when the mode is off)
FROM_LINK = "one_chart_from_link"  # the chart a link asked for, from 0, until the page's first nav takes it
LINK_PARAM = "chart"  # ?present=1&chart=3 in a link: one chart per screen, on the page's third chart
SLIDE_PX = 500  # a chart's least height on its own screen: 720 px less the header, its title and sentence

# what to look at, by chart: the first pattern that matches the start of a chart's key names its sentence
SENTENCES = (
    ("pe_lines", "one.pe_lines"),
    ("pe_heatmap", "one.pe_heatmap"),
    ("pe_similarity", "one.pe_similarity"),
    ("pe_distance", "one.pe_distance"),
    ("emb_projection", "one.embeddings"),
    ("mask_fig_", "one.mask"),
    ("mask_scores", "one.mask_scores"),
    ("mask_masked", "one.mask_masked"),
    ("mask_weights", "one.mask_weights"),
    ("diagram_inside", "one.diagram"),
    ("inside_fig_", "one.inside_step"),
    ("fig_inside_step", "one.inside_step"),
    ("cellmap_inside", "one.cell_map"),
    ("softmax_row_inside", "one.softmax_row"),
    ("click_attn_chart_lines", "one.lines"),
    ("attn_epoch_chart_lines", "one.lines"),
    ("attn_epoch_chart", "one.attention"),
    ("click_attn_chart", "one.attention"),
    ("click_attn_stat", "one.stat_grid"),
    ("click_attn_patterns", "one.patterns"),
    ("attn_aer_grid", "one.aer_grid"),
    ("choose_topk", "one.topk"),
    ("dec_topk", "one.topk"),
    ("dec_cross", "one.cross"),
    ("dec_beam_tree", "one.beam"),
    ("dec_sampling", "one.sampling"),
    ("history_chart", "one.history"),
    ("lr_chart", "one.lr"),
    ("aer_chart", "one.aer_curve"),
    ("chart_lab_aer", "one.aer_curve"),
    ("chart_lab_curves", "one.lab_curves"),
    ("chart_lab_scores", "one.lab_scores"),
    ("chart_lab_peaks", "one.lab_peaks"),
    ("chart_lab_attention", "one.attention"),
    ("data_lengths_chart", "one.lengths"),
    ("data_top_", "one.top_tokens"),
)

# ← and → step through the charts, unless focus is in a field or a control that takes the arrows itself (a slider,
# radio buttons, a list, a table); installed once per browser tab, it clicks the buttons one_chart_nav draws
KEYS_SCRIPT = """<script>
(() => {
  if (window.oneChartKeys) return;
  window.oneChartKeys = true;
  const own = 'input, textarea, select, [contenteditable="true"], [role="slider"], [role="radio"], [role="tab"], ' +
    '[role="listbox"], [role="option"], [role="combobox"], [role="grid"], [role="menu"], [data-testid="stDataFrame"]';
  document.addEventListener('keydown', event => {
    if (!['ArrowLeft', 'ArrowRight'].includes(event.key) || event.defaultPrevented) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target instanceof Element && event.target.closest(own)) return;
    const which = event.key === 'ArrowLeft' ? 'prev' : 'next';
    const button = document.querySelector(`.st-key-one_chart_${which} button`);
    if (!button) return;
    event.preventDefault();
    button.click();
  });
})();
</script>"""

# once the run is over and the charts are drawn: the chart on show scrolled to the top of the screen (drawn only when
# the step changed)
SCROLL_SCRIPT = """<script>
(async () => {
  const sleep = ms => new Promise(done => setTimeout(done, ms));
  const app = () => document.querySelector('[data-testid="stApp"]');
  for (const until = Date.now() + 10000; Date.now() < until; await sleep(100)) {
    if (!app() || app().dataset.testScriptState === "running") continue;
    const slide = document.querySelector(%(slide)s);
    const drawn = slide && [...slide.querySelectorAll('[data-testid="stPlotlyChart"]')]
      .every(chart => chart.querySelector('.main-svg'));  // the charts above it drawn too: no shift after it
    if (drawn && slide.getBoundingClientRect().height > 0) { slide.scrollIntoView({block: "start"}); return; }
  }
})();
</script>"""


def take_one_chart_link(params) -> None:
    """On a tab's first run (ui.links.take_link_globals): `chart=N` with `present=1` turns the mode on at chart N (a
    number the page does not have: its first chart)."""
    text = params.get(LINK_PARAM, "")
    if params.get("present") == "1" and text.isascii() and text.isdigit() and len(text) <= 3:
        st.session_state[KEY] = True
        st.session_state[FROM_LINK] = int(text) - 1


def link_one_chart(values: dict[str, str]) -> None:
    """The mode's link value (ui.links.settle_view): the chart on show, while the mode is on."""
    shown = st.session_state.get(SHOWN)
    if shown is not None:
        values[LINK_PARAM] = str(shown)


def one_chart_on() -> bool:
    """Whether this tab shows one chart per screen (only ever in the presenter view)."""
    return presenting() and bool(st.session_state.get(KEY, False))


def _moved() -> None:
    """The switch's callback: turned on, the chart on show is scrolled into view."""
    st.session_state[MOVED] = True


def one_chart_switch(L: str) -> None:
    """The sidebar's second switch, under the presenter view's, while that view is on."""
    if presenting():
        st.toggle(t("one.switch", L), key=KEY, help=t("one.help", L), on_change=_moved, persist_state="session")


def start_run() -> None:
    """Before the page is drawn (app.py): no chart drawn yet."""
    st.session_state[DRAWN] = []


def _class(key: str) -> str:
    """A chart's container key, as a CSS class name can hold it."""
    return SLIDE + re.sub(r"[^A-Za-z0-9_-]", "_", key)


def sentence_key(key: str) -> str:
    """The string that says what to look at in the chart of this key (one.default for a chart not listed)."""
    return next((words for start, words in SENTENCES if key.startswith(start)), "one.default")


@contextlib.contextmanager
def slide(key: str, title: str, L: str) -> Iterator[None]:
    """Around a chart (ui.export.chart): in the one-chart mode, a container of its own, under its title and the
    sentence that says what to look at; otherwise nothing."""
    if not one_chart_on():
        yield
        return
    drawn = st.session_state.setdefault(DRAWN, [])
    if key not in drawn:
        drawn.append(key)
    with st.container(key=_class(key)):
        st.markdown(f"**{markdown(title)}**")
        st.caption(t(sentence_key(key), L))
        yield


def _step(page: str, by: int, count: int) -> None:
    """A button's callback: the next (by = 1) or previous (by = −1) chart of the page, wrapping at the ends."""
    at = st.session_state.setdefault(AT, {})
    at[page] = (at.get(page, 0) + by) % count
    st.session_state[MOVED] = True


def one_chart_nav(page: str, L: str) -> None:
    """After the page (app.py): ← "3 / 7" → at the top of the screen, the rule that shows only the chart on show, and
    the arrow keys; nothing when the mode is off or the page drew no chart."""
    drawn = st.session_state.get(DRAWN, [])
    st.session_state[SHOWN] = None
    if not one_chart_on() or not drawn:
        st.session_state.pop(MOVED, None)
        return
    at = st.session_state.setdefault(AT, {})
    asked = st.session_state.pop(FROM_LINK, None)
    if asked is not None:
        at[page] = asked if 0 <= asked < len(drawn) else 0
    shown = at[page] = at.get(page, 0) % len(drawn)
    st.session_state[SHOWN] = shown + 1
    current = _class(drawn[shown])
    css = f"""<style>
[data-testid="stMain"] [class*="st-key-{SLIDE}"]:not(.st-key-{current}) {{display: none;}}
[data-testid="stMain"] .st-key-{current} {{scroll-margin-top: 5rem;}}
[data-testid="stMain"] [class*="st-key-{SLIDE}"] [data-testid="stMarkdownContainer"] strong {{font-size: 1.6rem;}}
.st-key-{NAV} {{position: fixed; top: 0.6rem; left: 50%; transform: translateX(-50%); z-index: 999991;
  width: auto !important; background: #fff; border-radius: 0.5rem; padding: 0 0.5rem;}}
.st-key-{NAV} p {{font-size: 1.3rem !important; margin: 0; white-space: nowrap;}}
.st-key-{NAV} button:focus-visible {{outline: 3px solid #1f6feb; outline-offset: 2px;}}
</style>"""
    with st.container(key=NAV, horizontal=True, vertical_alignment="center", gap="small"):
        args = (page, -1, len(drawn))
        st.button(t("one.prev", L), key="one_chart_prev", on_click=_step, args=args)
        st.markdown(t("one.position", L, n=shown + 1, of=len(drawn)))
        args = (page, 1, len(drawn))
        st.button(t("one.next", L), key="one_chart_next", on_click=_step, args=args)
    st.html(css + KEYS_SCRIPT, unsafe_allow_javascript=True, width="content")
    if st.session_state.pop(MOVED, False):
        script = SCROLL_SCRIPT % {"slide": json.dumps(f".st-key-{current}")}
        st.html(f"<!-- {current} -->" + script, unsafe_allow_javascript=True, width="content")
