"""The docs name only tests that exist: every `tests/….py::test_…` in docs/*.md and README.md is a real test."""

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
CITED = re.compile(r"(tests/[\w/]+\.py)::(test_\w+)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_test_a_document_cites_exists(doc):
    missing = []
    for path, name in set(CITED.findall(doc.read_text(encoding="utf-8"))):
        source = REPO / path
        if not source.exists() or not re.search(rf"^def {name}\(", source.read_text(encoding="utf-8"), re.M):
            missing.append(f"{path}::{name}")
    assert not missing, f"{doc.name} cites tests that do not exist: {sorted(missing)}"
