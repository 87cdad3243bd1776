"""serve.py: `streamlit run serve.py` serves app.py and warms the server's imports before its first request."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from streamlit.web.server.app_discovery import discover_asgi_app

from tests import source
from ui.warmup import our_modules

REPO = Path(__file__).resolve().parents[2]


def test_streamlit_run_finds_the_app_in_serve_py_and_it_serves_app_py():
    found = discover_asgi_app(REPO / "serve.py")
    assert found.is_asgi_app and found.import_string == "serve:app"
    import serve

    assert serve.app.script_path.name == "app.py"


def test_the_warm_up_imports_every_module_of_ours_that_app_py_and_the_pages_import():
    imported = set()
    for path in [REPO / "app.py", *sorted((REPO / "pages").glob("*.py"))]:
        for node in source.nodes(path):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
    ours = {name for name in imported if name.split(".")[0] in ("transformer", "viz", "ui", "jobs") and "." in name}
    assert ours and ours <= set(our_modules())
    assert "jobs.fork_server" not in our_modules()  # the training processes' fork server imports it, nothing else


def test_the_warm_up_fills_the_caches_a_first_session_reads(monkeypatch):
    from transformer import corpus
    from ui.datasets import _corpus_dataset, bundled_pairs, corpus_dataset
    from ui.model_cache import _bundled_training, bundled_training
    from ui.warmup import warm_caches

    _bundled_training.clear()  # the server-wide caches behind bundled_training() and corpus_dataset()
    _corpus_dataset.clear()
    warm_caches()
    generated = []
    real = corpus.generate
    monkeypatch.setattr(corpus, "generate", lambda *args: generated.append(args) or real(*args))
    trained, held = bundled_training()  # what the Data page says the bundled model was trained on
    shown = corpus_dataset(corpus.DEFAULT_SIZE, corpus.DEFAULT_SEED)  # the corpus as a tab first shows it
    assert generated == []  # both came from the caches the warm-up filled
    assert len(trained) + len(held) == corpus.DEFAULT_SIZE + len(bundled_pairs())
    drawn = real(corpus.DEFAULT_SIZE, corpus.DEFAULT_SEED)
    assert shown[: corpus.DEFAULT_SIZE] == [(p.source, p.target) for p in drawn]


def test_the_warm_up_compiles_app_py_and_every_page_it_navigates_to_into_streamlits_script_cache():
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    from ui.warmup import compile_scripts

    cache = ScriptCache()
    compile_scripts(cache)
    source = (REPO / "app.py").read_text(encoding="utf-8")
    pages = {REPO / path for path in re.findall(r'st\.Page\("([^"]+)"', source)}
    assert len(pages) == 8
    compiled = {Path(path) for path in cache._cache}  # what a session's first run of each script finds there
    assert compiled == {REPO / "app.py", *pages}
