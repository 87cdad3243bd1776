"""The training summary is a type (transformer.summary.TrainingSummary), not a dict read by string keys: outside the
checkpoint module, which alone turns it into JSON and back, the app reads its fields as attributes. The reads are
found in the source (ast), not run."""

from __future__ import annotations

import ast
from pathlib import Path

from tests import source

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("transformer", "ui", "viz", "pages", "deploy", "jobs", "benchmarks")
SCRIPTS = ("app.py", "serve.py")
OWNER = ROOT / "transformer" / "checkpoint.py"  # the one module that reads and writes the summary's JSON
MAX_KEY_READS = 3  # issue 39's target


def app_files() -> list[Path]:
    """Every Python file of the app but the checkpoint module."""
    files = [ROOT / name for name in SCRIPTS]
    for package in PACKAGES:
        files += sorted((ROOT / package).rglob("*.py"))
    return [path for path in files if path.exists() and path != OWNER]


def _is_summary(node: ast.AST, names: set[str]) -> bool:
    """Whether node is a summary: `….summary`, a name `summary`, or a name bound to a summary or to one of its parts."""
    if isinstance(node, ast.Attribute):
        return node.attr == "summary"
    return isinstance(node, ast.Name) and (node.id == "summary" or node.id in names)


def _key_read(node: ast.AST, names: set[str]) -> ast.AST | None:
    """The summary (or part of one) that node reads by key: `s[key]`, `s.get(key…)`, `s.setdefault(key…)`,
    `s.pop(key…)` or `key in s`; None when node is none of these."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return node.value
    call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args
    if call and node.func.attr in ("get", "setdefault", "pop"):
        return node.func.value
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        return node.comparators[0]
    return None


def summary_key_reads(path: Path) -> list[int]:
    """The lines of path that read a training summary, or a part of one, by key. A name assigned a summary or a key
    read of one (`made = summary.get("split")`) is a summary too, so its own key reads count."""
    nodes = source.nodes(path)
    names: set[str] = set()
    for _ in range(3):  # names bound to names bound to a summary
        for node in nodes:
            pairs = []
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                pairs = [(node.targets[0], node.value)]
                if isinstance(node.targets[0], ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs = list(zip(node.targets[0].elts, node.value.elts))
            elif isinstance(node, (ast.For, ast.comprehension)) and _key_read(node.iter, names) is not None:
                pairs = [(node.target, node.iter)]  # an item of a summary's list: a history record
            for name, bound in pairs:
                if isinstance(name, ast.Name) and _is_summary(_root(bound), names):
                    names.add(name.id)
    found = []
    for node in nodes:
        read = _key_read(node, names)
        if read is not None and _is_summary(_root(read), names):
            found.append(node.lineno)
    return sorted(found)


def _root(node: ast.AST) -> ast.AST:
    """The summary under a chain of key reads and `or {}` defaults: `s.get("split", {}).get("kind")` → s."""
    while True:
        if isinstance(node, ast.BoolOp):
            node = node.values[0]
            continue
        inner = _key_read(node, set())
        if inner is None or isinstance(node, ast.Compare):
            return node
        node = inner


def test_the_reader_finds_every_kind_of_key_read(tmp_path):
    path = tmp_path / "page.py"
    path.write_text(
        "summary = model.translator.summary\n"
        "a = summary['history']\n"
        "b = model.translator.summary.get('epochs', 0)\n"
        "c = 'loss' in summary\n"
        "made = run.summary.get('split') or {}\n"
        "d = made['kind']\n"
        "e = (x.summary.get('train_config') or {}).get('seed', 0)\n"
        "for h in summary['history']:\n    h['loss']\n"
        "f = summary.epochs\n"  # an attribute: the typed way
        "g = other['history']\n"  # not a summary
    )
    assert summary_key_reads(path) == [2, 3, 4, 5, 6, 7, 7, 8, 9]


def test_the_summary_is_read_by_attribute_outside_the_checkpoint_module():
    found = {str(path.relative_to(ROOT)): lines for path in app_files() if (lines := summary_key_reads(path))}
    assert sum(map(len, found.values())) <= MAX_KEY_READS, found
