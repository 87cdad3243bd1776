"""The presenter view: a sidebar switch (and `present=1` in a link) that enlarges the page's text and every chart's
fonts for a projector, with the sidebar collapsed when it starts and every chart as wide as the main area (columns of
charts stacked). The charts are enlarged where they are drawn (ui.export.chart, with
viz.presenter.presenter_figure); the text by PRESENTER_CSS, the app's own constant rule, drawn once per run while the
view is on. The switch's value lives in session state (persist_state), so it survives page switches and reruns; a link
made while it is on carries `present=1` (ui.links)."""

from __future__ import annotations

import streamlit as st

from viz.presenter import PRESENTER_SCALE

from .i18n import t

KEY = "presenter"  # the switch's key in session state
LINK_PARAM = "present"  # ?present=1 in a link turns the view on
TURNED_ON = "presenter_turned_on"  # set when the view has just been turned on; the next run collapses the sidebar

# st.set_page_config's initial_sidebar_state collapses the sidebar only in a browser that never moved it by hand:
# Streamlit's frontend keeps the learner's last click on the sidebar's arrow in localStorage and prefers it. So each
# time the view is turned on, when that stored click says "open", this script (drawn in the same run, after the page
# config has been applied) collapses the sidebar with its own button, and forgets the stored clicks, so the next
# visit's sidebar follows the page config again. It acts as it is drawn, never later: a click the learner makes once
# the run is over stays theirs. Only the run after the turning-on draws it, so each turning-on runs it anew.
COLLAPSE_SCRIPT = """<script>
(() => {
  const stored = Object.keys(localStorage).filter(k => k.startsWith("stSidebarCollapsed-"));
  if (!stored.some(k => localStorage.getItem(k) === "false")) return;
  const bar = document.querySelector('[data-testid="stSidebar"]');
  const button = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
  if (bar && bar.dataset.collapsed !== "true" && button) button.click();
  Object.keys(localStorage).filter(k => k.startsWith("stSidebarCollapsed-")).forEach(k => localStorage.removeItem(k));
})();
</script>"""

# the main area's running text, captions, widget labels, code and formulas, larger; headings are large already, and
# the sidebar keeps its size (a teacher reads it, the room does not)
PRESENTER_CSS = """<style>
[data-testid="stMain"] [data-testid="stMarkdownContainer"] :is(p, li, td, th) {font-size: 1.3rem; line-height: 1.5;}
[data-testid="stMain"] [data-testid="stCaptionContainer"],
[data-testid="stMain"] [data-testid="stCaptionContainer"] p {font-size: 1.1rem;}
[data-testid="stMain"] [data-testid="stWidgetLabel"] p {font-size: 1.15rem;}
[data-testid="stMain"] [data-testid="stCode"] code {font-size: 1.05rem;}
[data-testid="stMain"] .katex-display .katex {font-size: 1.5em;}
[data-testid="stMain"] [data-testid="stMetricValue"] {font-size: 2.6rem;}
[data-testid="stMain"] [data-testid="stHorizontalBlock"]:has([data-testid="stPlotlyChart"]) {flex-direction: column;}
[data-testid="stMain"] [data-testid="stHorizontalBlock"]:has([data-testid="stPlotlyChart"]) > [data-testid="stColumn"]
  {width: 100% !important; flex: 1 1 auto !important; min-width: 100%;}
</style>"""


def presenting() -> bool:
    """Whether this tab shows the presenter view."""
    return bool(st.session_state.get(KEY, False))


def sidebar_state() -> str:
    """The sidebar's state for st.set_page_config: collapsed in the presenter view (the switch on, or a link with
    `present=1` opening), so the charts have the room's whole screen; the teacher opens it with its arrow."""
    return "collapsed" if presenting() or st.query_params.get(LINK_PARAM) == "1" else "auto"


def presenter_px(px: int) -> int:
    """A chart's width in px, PRESENTER_SCALE times wider in the presenter view (so its cells have room for larger
    numbers); as given otherwise."""
    return int(px * PRESENTER_SCALE) if presenting() else px


def take_presenter_link(params) -> None:
    """On a tab's first run (ui.links.take_link_globals): `present=1` in the link turns the presenter view on."""
    if params.get(LINK_PARAM) == "1":
        st.session_state[KEY] = True
        _turned_on()


def _turned_on() -> None:
    """The switch's callback (and a link's): when the view has just been turned on, the sidebar is to collapse."""
    if presenting():
        st.session_state[TURNED_ON] = True


def link_presenter(values: dict[str, str]) -> None:
    """The view's link values (ui.links.settle_view): `present=1` while the presenter view is on."""
    if presenting():
        values[LINK_PARAM] = "1"


def presenter_switch(L: str) -> None:
    """The sidebar's switch, and while it is on, the rule that enlarges the page's text (drawn once per run)."""
    st.toggle(
        t("presenter.switch", L), key=KEY, help=t("presenter.help", L), on_change=_turned_on, persist_state="session"
    )
    if presenting():
        st.html(PRESENTER_CSS, width="content")
        if st.session_state.pop(TURNED_ON, False):
            st.html(COLLAPSE_SCRIPT, unsafe_allow_javascript=True, width="content")
