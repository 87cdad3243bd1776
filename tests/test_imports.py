"""No two modules of the app import each other, not even through a late import inside a function: two modules that
do are a sign that a third should own what they share. And the layers hold: the jobs never import Streamlit, plotly
or the app; deploy/ never imports the app. The imports are read from the source (ast), not run."""

import ast
from pathlib import Path

import pytest

from tests import source

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("transformer", "jobs", "ui", "viz", "pages", "deploy")
SCRIPTS = ("app.py", "serve.py")


def module_files() -> dict[str, Path]:
    """Every module of the app by dotted name (a package by its own name, from its __init__.py)."""
    files = {path.stem: ROOT / path for path in map(Path, SCRIPTS)}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def imported(name: str, path: Path, modules: set[str]) -> set[str]:
    """The app's modules that the module `name` (its source at path) imports anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in source.nodes(path):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            base = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:  # `from package import module` imports the module; else a name of base
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return (found & modules) - {name}


def libraries(path: Path) -> set[str]:
    """The top-level names of what a module imports by absolute name, anywhere in its code (relative imports: none)."""
    found = set()
    for node in source.nodes(path):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def import_graph() -> dict[str, set[str]]:
    """Module → the app's modules it imports."""
    files = module_files()
    return {name: imported(name, path, set(files)) for name, path in files.items()}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """The app's import graph, read once for the tests that only read it."""
    return import_graph()


def test_the_import_reader_sees_late_relative_and_package_imports(tmp_path):
    source = tmp_path / "links.py"
    source.write_text(
        "from .state import lang\n\ndef f():\n    from .widgets import keep\n    from transformer import data\n"
    )
    modules = {"ui.state", "ui.widgets", "transformer", "transformer.data", "ui.links"}
    assert imported("ui.links", source, modules) == {"ui.state", "ui.widgets", "transformer.data"}
    package = tmp_path / "__init__.py"
    package.write_text("from . import greedy\nfrom .beam import beam_search\nfrom ..config import X\n")
    modules = {"transformer.decoding", "transformer.decoding.greedy", "transformer.decoding.beam", "transformer.config"}
    assert imported("transformer.decoding", package, modules) == modules - {"transformer.decoding"}


def test_the_graph_covers_every_package_and_script(graph):
    assert {"app", "serve", "ui.links", "ui.view_state", "transformer.model", "viz.common", "jobs.queue"} <= set(graph)
    assert {"jobs.worker", "jobs.fork_server", "jobs.slots", "deploy.classroom"} <= set(graph)
    assert "ui.view_state" in graph["ui.links"]


def test_no_two_modules_import_each_other(graph):
    pairs = sorted({tuple(sorted((a, b))) for a, targets in graph.items() for b in targets if a in graph.get(b, ())})
    assert pairs == [], f"modules that import each other: {pairs}"


APP = ("ui", "pages", "app", "serve")  # the Streamlit app: its helpers, its pages, its scripts


def _app_modules(names: set[str]) -> list[str]:
    return sorted(n for n in names if n.split(".")[0] in APP)


def test_the_layer_reader_sees_libraries_and_the_app(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "import plotly.graph_objects as go\n\ndef f():\n    from streamlit import cache\n    from . import x\n"
    )
    assert libraries(module) == {"plotly", "streamlit"}
    assert _app_modules({"ui.slots", "ui", "pages.train", "jobs.slots", "transformer.store"}) == [
        "pages.train",
        "ui",
        "ui.slots",
    ]


@pytest.mark.parametrize("name", sorted(n for n in module_files() if n.split(".")[0] == "jobs"))
def test_the_jobs_import_neither_streamlit_nor_plotly_nor_the_app(graph, name):
    assert libraries(module_files()[name]) & {"streamlit", "plotly"} == set()
    assert _app_modules(graph[name]) == []


@pytest.mark.parametrize("name", sorted(n for n in module_files() if n.split(".")[0] == "deploy"))
def test_deploy_imports_nothing_of_the_app(graph, name):
    """The classroom script checks the training-slots setting and names the model store (jobs, transformer); it starts
    the app as processes and never imports it."""
    assert _app_modules(graph[name]) == []
