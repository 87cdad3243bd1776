"""The attention kinds are written once, in transformer.model.ATTENTION_KINDS: the app (ui/, viz/, pages/) names a kind
through the table, not by spelling it. Read from the source (ast): every string literal that is a kind's name, or the
name of one of its AttentionMaps fields or attention modules, counts (docstrings and longer texts do not)."""

import ast
import re
from pathlib import Path

from tests import source
from transformer.model import ATTENTION_KINDS

ROOT = Path(__file__).resolve().parents[1]
APP = ("ui", "viz", "pages")
MAX_LITERALS = 3  # issue 39: at most this many kind names spelled out in the app (36 before the table, 0 after)
NAMES = "|".join(map(re.escape, ATTENTION_KINDS))
KIND_LITERAL = re.compile(rf"(?:{NAMES})(?:_attns|_scores|_attn)?")  # dec_enc, dec_enc_attns, dec_enc_attn


def kind_literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal in the file that spells a kind."""
    return [
        (node.lineno, node.value)
        for node in source.nodes(path)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and KIND_LITERAL.fullmatch(node.value)
    ]


def test_the_counter_sees_a_kind_in_a_tuple_a_dict_key_a_comparison_and_a_field_name(tmp_path):
    code = tmp_path / "page.py"
    code.write_text(
        '"""Draws dec_enc."""\n'
        'KINDS = ("enc_self", "dec_self")\n'
        'rows = {"dec_enc": 1}\n'
        'if kind == "dec_self":\n'
        '    attn = getattr(maps, "enc_self_attns")\n'
        'label = f"attn.{kind}"  # a template, not a kind\n'
        'mask = "dec_self_attn_mask"  # a mask\'s name, not a kind\n'
    )
    found = [(2, "enc_self"), (2, "dec_self"), (3, "dec_enc"), (4, "dec_self"), (5, "enc_self_attns")]
    assert kind_literals(code) == found


def test_the_app_names_the_attention_kinds_through_their_table():
    found = {
        f"{path.relative_to(ROOT)}:{line}": text
        for folder in APP
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, text in kind_literals(path)
    }
    assert len(found) <= MAX_LITERALS, found
