"""Serve the app: `streamlit run serve.py` runs app.py, with the server's imports warmed before its first request.

`streamlit run app.py` works as well, but then the first session of every new server waits while Streamlit
imports torch, pandas and the rest (ui/warmup.py). Here the warm-up runs in Streamlit's own start-up hook (the
lifespan of st.App, which `streamlit run` finds in this file): the server answers once it is done, and its first
session is drawn as fast as any later one.
"""

import asyncio
from contextlib import asynccontextmanager

import streamlit as st
from streamlit.logger import get_logger

try:
    import ui.compat  # noqa: F401  (Streamlit's internals the app uses, checked before the server starts)
except RuntimeError as changed:  # ui.compat.StreamlitChanged: one line naming the tested release, no traceback
    raise SystemExit(str(changed)) from None


@asynccontextmanager
async def warmed(_app):
    """Before the first request: ui.warmup.warm_up(), in a thread (the event loop stays free)."""
    from ui.warmup import warm_up

    seconds = await asyncio.to_thread(warm_up)
    get_logger("serve").info("warmed up: %s", ", ".join(f"{k} {v:.2f} s" for k, v in seconds.items()))
    yield


app = st.App("app.py", lifespan=warmed)
