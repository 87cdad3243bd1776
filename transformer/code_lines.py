"""The line of code behind a recorded step: the model's own source statement, with the recorder's rec(...) taken off.

transformer.trace shows it beside every step of a forward pass, so a learner reads the real code that computed it.
"""

from __future__ import annotations

import ast
import functools
import textwrap


@functools.cache
def _module_ast(filename: str) -> ast.Module | None:
    """The parsed source of one file (parsed once per process), or None when it cannot be read."""
    try:
        with open(filename, encoding="utf-8") as f:
            return ast.parse(f.read(), filename)
    except (OSError, SyntaxError, ValueError):
        return None


@functools.cache
def _source(filename: str) -> str:
    with open(filename, encoding="utf-8") as f:
        return f.read()


def _is_rec_call(node: ast.AST, name: str) -> bool:
    """Whether node is `rec(module, "name", expression)`."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "rec"
        and len(node.args) == 3
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value == name
    )


@functools.cache
def code_line(filename: str, lineno: int, name: str) -> str:
    """The statement at filename:lineno that recorded step `name`, with the rec(...) wrapper taken off.

    `Q = rec(self, "Q", self.W_Q(input_Q)...)` becomes `Q = self.W_Q(input_Q)...`; a recording inside a larger
    expression keeps that expression, with the recorded argument in place of the call. "" when there is no source.
    """
    tree = _module_ast(filename)
    if tree is None:
        return ""
    source = _source(filename)
    simple = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt)
        and not hasattr(node, "body")  # a simple statement, not an if/for/def around one
        and node.lineno <= lineno <= (node.end_lineno or node.lineno)
    ]
    for statement in simple:
        call = next((n for n in ast.walk(statement) if _is_rec_call(n, name)), None)
        if call is None:
            continue
        argument = ast.get_source_segment(source, call.args[2]) or ""
        if isinstance(statement, ast.Assign):
            value = statement.value
            direct = value is call or (isinstance(value, ast.IfExp) and call in (value.body, value.orelse))
            if direct:
                targets = " = ".join(ast.get_source_segment(source, t) or "" for t in statement.targets)
                return f"{targets} = {argument}"
        text = ast.get_source_segment(source, statement) or ""
        wrapped = ast.get_source_segment(source, call) or ""
        return textwrap.dedent(text.replace(wrapped, argument, 1))
    return ""
