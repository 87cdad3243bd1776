"""The app's source files as syntax trees, parsed and walked once per test process: several test files read the same
pages and modules (imports, strings, widgets, literals)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the file's tree (ast.walk's order)."""
    return tuple(ast.walk(tree(path)))
