"""The decoding loop is written once (issue 39 §3): the length cap (`max_len - 1`, the decoder's positions after S) is
computed in one place in the whole package, and only the loop steps the decoder; the strategies are choosers."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "transformer"
DECODING = PACKAGE / "decoding"


def _trees(folder: Path) -> dict[str, ast.Module]:
    """Every module under folder, parsed, by its path from the repository."""
    return {str(p.relative_to(REPO)): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(folder.rglob("*.py"))}


def _is_max_len(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "max_len") or (
        isinstance(node, ast.Attribute) and node.attr == "max_len"
    )


def _caps(tree: ast.Module) -> list[int]:
    """Lines of `max_len - 1`-style expressions (any `….max_len - 1`, or `1 + n > ….max_len`, the same cap)."""
    lines = []
    for node in ast.walk(tree):
        minus_one = isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant) and node.right.value == 1
        if minus_one and isinstance(node.op, ast.Sub) and _is_max_len(node.left):
            lines.append(node.lineno)
        if isinstance(node, ast.Compare) and any(_is_max_len(c) for c in node.comparators):
            left = node.left
            if isinstance(left, ast.BinOp) and isinstance(left.left, ast.Constant) and left.left.value == 1:
                lines.append(node.lineno)
    return lines


def _calls(tree: ast.Module, name: str) -> int:
    """How many calls of a function or method called name."""
    return sum(
        isinstance(n, ast.Call)
        and (
            (isinstance(n.func, ast.Name) and n.func.id == name)
            or (isinstance(n.func, ast.Attribute) and n.func.attr == name)
        )
        for n in ast.walk(tree)
    )


def test_the_decoding_cap_is_written_once_in_the_package():
    caps = {path: lines for path, tree in _trees(PACKAGE).items() if (lines := _caps(tree))}
    assert caps.keys() == {"transformer/decoding/loop.py"} and len(caps["transformer/decoding/loop.py"]) == 1, caps


def test_only_the_loop_steps_the_decoder_and_reads_the_models_length():
    trees = _trees(DECODING)
    stepping = {path for path, tree in trees.items() if _calls(tree, "next_logits")}
    assert stepping == {"transformer/decoding/loop.py"}
    reading = {path for path, tree in trees.items() if "config.max_len" in ast.unparse(tree)}
    assert reading == {"transformer/decoding/loop.py"}


def test_every_strategy_runs_the_loop():
    trees = _trees(DECODING)
    for module, strategies in {"greedy": 2, "sampling": 1, "beam": 2}.items():
        assert _calls(trees[f"transformer/decoding/{module}.py"], "decode_loop") == strategies, module
