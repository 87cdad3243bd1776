"""serve.py: `streamlit run serve.py` serves app.py and warms the server's imports before its first request."""

from __future__ import annotations

import ast
from pathlib import Path

from streamlit.web.server.app_discovery import discover_asgi_app

from ui.warmup import our_modules

REPO = Path(__file__).resolve().parents[1]


def test_streamlit_run_finds_the_app_in_serve_py_and_it_serves_app_py():
    found = discover_asgi_app(REPO / "serve.py")
    assert found.is_asgi_app and found.import_string == "serve:app"
    import serve

    assert serve.app.script_path.name == "app.py"


def test_the_warm_up_imports_every_module_of_ours_that_app_py_and_the_pages_import():
    imported = set()
    for path in [REPO / "app.py", *sorted((REPO / "pages").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
    ours = {name for name in imported if name.split(".")[0] in ("transformer", "viz", "ui") and "." in name}
    assert ours and ours <= set(our_modules())
    assert "ui.fork_server" not in our_modules()  # the training processes' fork server imports it, nothing else
