"""Entry point: page config, session state, the shared sidebar, and navigation in teaching order."""

import contextlib
from pathlib import Path

import streamlit as st

from ui.browser import browser_scripts, lazy_parts
from ui.compat import (
    keep_fragment_runs_to_their_widgets,
    leave_pages_directory_mode,
    run_sessions_that_could_not_resume,
)
from ui.i18n import t
from ui.links import settle_view, take_link_globals
from ui.one_chart import one_chart_nav, start_run
from ui.presenter import sidebar_state
from ui.presses import take_presses
from ui.reconnect import lost_session_notice, rerun_on_reconnect
from ui.session import PageEnd, init_app_session, lang
from ui.share import share_sidebar
from ui.sidebar import draw_sidebar

ICON = Path(__file__).parent / "assets" / "icon.png"  # the favicon: a 4 × 4 attention map (an emoji needs a font)

if leave_pages_directory_mode():  # the server's first session: its widgets get their lasting ids in a new run
    st.rerun()
keep_fragment_runs_to_their_widgets()  # a timer's run never sets back what the learner's last run set
run_sessions_that_could_not_resume()  # a tab whose process was lost draws its page again, whatever it had asked
st.set_page_config(
    page_title="Transformer playground", page_icon=ICON, layout="wide", initial_sidebar_state=sidebar_state()
)
init_app_session()
take_link_globals()
draw_sidebar()
rerun_on_reconnect()
L = lang()
browser_scripts(L)
lost_session_notice(L)
# icons from the Material Symbols font that Streamlit serves itself: emoji would need an emoji font on the learner's
# machine (without one they are empty boxes), and a material page_icon would be fetched from Google for the favicon
pages = [
    st.Page("pages/data.py", title=t("nav.data", L), icon=":material/table_edit:", default=True),
    st.Page("pages/train.py", title=t("nav.train", L), icon=":material/model_training:"),
    st.Page("pages/positional_encoding.py", title=t("nav.pe", L), icon=":material/waves:"),
    st.Page("pages/masks.py", title=t("nav.masks", L), icon=":material/visibility_off:"),
    st.Page("pages/inside.py", title=t("nav.inside", L), icon=":material/account_tree:"),
    st.Page("pages/attention.py", title=t("nav.attention", L), icon=":material/center_focus_strong:"),
    st.Page("pages/decoding.py", title=t("nav.decoding", L), icon=":material/format_list_numbered:"),
    st.Page("pages/lab.py", title=t("nav.lab", L), icon=":material/science:"),
]
page = st.navigation(pages)
take_presses(page.url_path, L)  # a Train or Run pressed while its page still drew a change (ui.presses)
start_run()  # no chart drawn yet (ui.one_chart)
with contextlib.suppress(PageEnd):  # a page that ends early (ui.session.end_page)
    page.run()
one_chart_nav(page.url_path, L)  # in the one-chart mode: ← 3 / 7 → and only that chart shown
if settle_view():  # the URL, with the values the page settled on
    share_sidebar()  # and Share and export with the link to it
lazy_parts(L)  # last, after the page's own charts
