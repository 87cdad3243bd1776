"""What the first session of a new server would otherwise pay for, done when the server starts (serve.py).

Streamlit imports what app.py imports on the first script run of the first session, not when the server starts, and
fills the caches, compiles the scripts and reads the data on the first run that needs them. That session waited for
torch, pandas, pyarrow, plotly's figure classes and our three packages; for the bundled model and the pairs it was
trained on (bundled_training() generates the 2,000-pair corpus: about 0.8 s); for the corpus dataset a tab may open
on; for Streamlit to compile app.py and the page's script; and it shared the two cores with the training processes'
fork server, started last, which imports torch for seconds. warm_up() does all of that before the server takes its
first request. It starts the fork server first, so that its imports run beside the server's own (at the trainings'
lower priority), and waits for the rest of them at the end: the first session is drawn as fast as any later one.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import pkgutil
import time
from collections.abc import Iterator
from pathlib import Path

from .compat import SCRIPT_RUN_CONTEXT_LOGGER, script_cache

ROOT = Path(__file__).resolve().parents[1]
FORK_SERVER_WAIT_S = 30  # at most, before the server answers anyway (its first Train would then wait for the rest)
NOT_HERE = {"jobs.fork_server"}  # imported by the fork server of the training processes only (it says why)


def our_modules() -> list[str]:
    """Every module of the app's packages (transformer, viz, ui, jobs) that the server itself imports."""
    names = []
    for package in ("transformer", "viz", "ui", "jobs"):
        path = importlib.import_module(package).__path__
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(path) if not m.name.startswith("_")]
    return [name for name in names if name not in NOT_HERE]


def app_scripts() -> list[Path]:
    """The scripts Streamlit runs: app.py and every page."""
    return [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]


@contextlib.contextmanager
def _no_session_warnings() -> Iterator[None]:
    """Streamlit's caches warn that no session is running, which is the point here."""
    quiet = logging.getLogger(SCRIPT_RUN_CONTEXT_LOGGER)
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        yield
    finally:
        quiet.setLevel(level)


def warm_caches() -> None:
    """Fill the server-wide caches a first session reads, through the same functions, and run the bundled model once:
    the checkpoint's bytes, the bundled pairs, the pairs the bundled model was trained on (the Data page says how
    many were held out), the corpus dataset as a tab first shows it (its default size and seed), and the word classes
    the embeddings view colours by."""
    from transformer import corpus
    from transformer.embeddings import corpus_classes
    from ui.datasets import bundled_pairs, corpus_dataset
    from ui.model_cache import bundled_model, bundled_training

    with _no_session_warnings():
        model = bundled_model()
        bundled_training()
        corpus_dataset(corpus.DEFAULT_SIZE, corpus.DEFAULT_SEED)
        corpus_classes()  # every sentence of the grammar read for its links: about 0.2 s
        model.translator.inspect(*bundled_pairs()[0])  # torch's first forward pass in this process


def compile_scripts(cache) -> list[Path]:
    """Compile app.py and every page into Streamlit's script cache (`cache`, a ScriptCache), as the first run of each
    would; return the scripts compiled."""
    scripts = app_scripts()
    for path in scripts:
        cache.get_bytecode(str(path))
    return scripts


def warm_up() -> dict[str, float]:
    """Start the fork server of the training processes, import what the pages use, build one figure of each kind,
    fill the caches, run the bundled model once, compile the scripts and wait until the fork server has imported torch
    (FORK_SERVER_WAIT_S at most); return the seconds each part took."""
    seconds = {}
    start = time.perf_counter()
    from jobs.worker import fork_server_ready, start_fork_server

    # first, so that the fork server imports torch on the other core while this process does the rest (it used to
    # start last, and its imports then took a core from the first session's page; it imports at the trainings'
    # lower priority, jobs.fork_server)
    start_fork_server()
    for name in ("torch", "pandas", "pyarrow", "plotly.graph_objects", "plotly.io", "PIL.Image", *our_modules()):
        importlib.import_module(name)
    seconds["imports"] = time.perf_counter() - start

    start = time.perf_counter()
    import plotly.graph_objects as go
    import plotly.io

    # plotly loads each trace type's validators when it is first used: a heatmap, a scatter and a bar, to JSON
    plotly.io.to_json(go.Figure([go.Heatmap(z=[[0.0]]), go.Scatter(x=[0], y=[0]), go.Bar(x=[0], y=[0])]))
    seconds["figures"] = time.perf_counter() - start

    start = time.perf_counter()
    warm_caches()
    seconds["data and model"] = time.perf_counter() - start

    start = time.perf_counter()
    cache = script_cache()
    if cache is not None:
        compile_scripts(cache)
    seconds["scripts"] = time.perf_counter() - start

    start = time.perf_counter()
    from ui.training import job_queue

    with _no_session_warnings():
        job_queue()
    seconds["queue"] = time.perf_counter() - start

    # last: the fork server's imports ran beside all of the above; what is left of them would otherwise share the
    # cores with the first session's page (a loaded machine's first render was 0.5–0.8 s slower than a later one's)
    start = time.perf_counter()
    if not fork_server_ready(FORK_SERVER_WAIT_S):
        logging.getLogger(__name__).warning(
            "the training processes' fork server is not ready after %s s", FORK_SERVER_WAIT_S
        )
    seconds["fork server"] = time.perf_counter() - start
    return seconds
