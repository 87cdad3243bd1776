"""Each kind of value cached per model is named once, in ui.model_cache.CacheKind, with its size (issue 39 §4): a key
spelt as a string would raise when the page runs; this finds one on a path no test draws."""

import ast

from tests import source
from tests.conftest import REPO

CACHING = {"cached", "model_cached", "model_cached_or_end", "values"}


def test_no_cache_key_in_the_app_starts_with_a_string():
    found = []
    for path in sorted([*REPO.glob("pages/*.py"), *REPO.glob("ui/*.py")]):
        for node in source.nodes(path):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            args = node.args[1:] if name == "model_cached_or_end" else node.args
            if name not in CACHING or not args:
                continue
            first = args[0].elts[0] if isinstance(args[0], ast.Tuple) and args[0].elts else args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(f"{path.relative_to(REPO)}:{node.lineno} {first.value!r}")
    assert found == []
