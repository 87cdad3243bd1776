"""The design targets of issue 39 that the code's shape can show, measured on the tree with its own syntax trees."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP_AND_PACKAGES = ("app.py", "serve.py", "pages", "ui", "viz", "transformer", "deploy", "jobs")
LONG = 80  # lines: a function longer than this does more than one thing (its data tables count too)
MOST_LONG = 3  # issue 39's target: at most this many such functions in the app and its packages


def long_functions(*roots: str, tree: Path = ROOT) -> list[str]:
    """`path:name (lines)` of every function (methods and nested ones too) of more than LONG lines, from its first
    decorator to its last line, in the files under roots (those that exist) of tree."""
    found = []
    for root in roots:
        path = tree / root
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                    lines = node.end_lineno - first + 1
                    if lines > LONG:
                        found.append(f"{file.relative_to(tree)}:{node.name} ({lines})")
    return found


def test_the_count_sees_a_long_function_and_passes_a_short_one(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(LONG))
    (tmp_path / "long.py").write_text(f"@decorated\ndef long():\n{body}\n\n\ndef short():\n    return 1\n")
    assert long_functions("long.py", "missing", tree=tmp_path) == [f"long.py:long ({LONG + 2})"]


def test_a_page_draws_in_short_functions():
    """A page reads like a storyboard: what a section computes is in the package, so none of its functions is long."""
    assert long_functions("app.py", "pages") == []


def test_at_most_three_functions_are_long():
    found = long_functions(*APP_AND_PACKAGES)
    assert len(found) <= MOST_LONG, "\n".join(found)
