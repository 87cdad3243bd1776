"""What the first session of a new server would otherwise pay for, done when the server starts (serve.py).

Streamlit imports what app.py imports on the first script run of the first session, not when the server starts:
that session waited for torch, pandas, pyarrow, plotly's figure classes, our three packages, the bundled model and
the start of the training processes' fork server. warm_up() does all of that before the server takes its first
request, so the first session is drawn as fast as any later one.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import time

NOT_HERE = {"ui.fork_server"}  # imported by the fork server of the training processes only (it says why)


def our_modules() -> list[str]:
    """Every module of the app's packages (transformer, viz, ui) that the server itself imports."""
    names = []
    for package in ("transformer", "viz", "ui"):
        path = importlib.import_module(package).__path__
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(path) if not m.name.startswith("_")]
    return [name for name in names if name not in NOT_HERE]


def warm_up() -> dict[str, float]:
    """Import what the pages use, build one figure of each kind, load the bundled model and start the fork server;
    return the seconds each part took."""
    seconds = {}
    start = time.perf_counter()
    for name in ("torch", "pandas", "pyarrow", "plotly.graph_objects", "plotly.io", *our_modules()):
        importlib.import_module(name)
    seconds["imports"] = time.perf_counter() - start

    start = time.perf_counter()
    import plotly.graph_objects as go
    import plotly.io

    # plotly loads each trace type's validators when it is first used: a heatmap, a scatter and a bar, to JSON
    plotly.io.to_json(go.Figure([go.Heatmap(z=[[0.0]]), go.Scatter(x=[0], y=[0]), go.Bar(x=[0], y=[0])]))
    seconds["figures"] = time.perf_counter() - start

    start = time.perf_counter()
    from ui.jobs import job_queue
    from ui.state import bundled_model

    # Streamlit's caches warn that no session is running, which is the point here
    quiet = logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        bundled_model()  # the checkpoint's bytes and the pairs, cached for every session
        job_queue()  # starts the fork server of the training processes
    finally:
        quiet.setLevel(level)
    seconds["model and queue"] = time.perf_counter() - start
    return seconds
