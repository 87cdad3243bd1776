"""The UI strings (ui/strings/): every key is defined once, in both languages, and used; every key the code uses is
defined. Keys are found as string literals in the code; the few key families built from a package's own list of kinds
(f"split.{kind}" from transformer.splits.SPLITS) are listed here, each with that list, and checked against it; the keys
a package's table names (the attention kinds' labels) count as used."""

import ast
import re
import tomllib
from functools import cache
from pathlib import Path

import pytest

from tests import source
from transformer import corpus
from transformer.columns import ROLES, SCRIPTS, SKIP_REASONS
from transformer.config import SWITCHES
from transformer.data import SPECIALS, TOKENIZERS
from transformer.heads import SHARES
from transformer.lab import EXPERIMENTS
from transformer.model import ATTENTION_KINDS
from transformer.scores import ALL
from transformer.splits import SPLITS
from ui import strings
from ui.data_columns import ROLE_SOURCES
from ui.datasets import DATASET_ROLES, DATASETS
from ui.i18n import LANGUAGES, sentences
from ui.presses import BUTTONS
from ui.strings import STRINGS

ROOT = Path(__file__).resolve().parents[2]
STRINGS_DIR = ROOT / "ui" / "strings"
CODE = sorted(
    [ROOT / "app.py", ROOT / "serve.py"]
    + [p for folder in ("pages", "ui", "viz") for p in (ROOT / folder).rglob("*.py") if STRINGS_DIR not in p.parents]
)
PREFIXES = {key.split(".")[0] for key in STRINGS}
KEY_SHAPE = re.compile(r"[a-z_]+(\.[A-Za-z0-9_]+)+")

# a key family: the template (each {} is one value) → the package's own list of the values it is built from
FAMILIES = {
    "attn.{}_explain": tuple(ATTENTION_KINDS),
    "attn.rows_{}": tuple(ATTENTION_KINDS),
    "attn.cols_{}": tuple(ATTENTION_KINDS),
    "data.dataset.{}": DATASETS,
    "tokenizer.{}": TOKENIZERS,
    "phenomenon.{}": (ALL, *corpus.PHENOMENA),  # a score table's rows: every pair, then each phenomenon
    "phenomenon_what.{}": corpus.PHENOMENA,
    "special.{}": range(len(SPECIALS)),  # by place: the vocabularies' first ids
    "split.{}": SPLITS,
    "split_def.{}": SPLITS,
    "train.split_what.{}": tuple(s for s in SPLITS if s != "random"),  # a random split names no held-out items
    "lab.exp.{}": (*EXPERIMENTS, "custom"),  # the Lab's choices: each experiment, or your own switches
    "lab.claim.{}": (*EXPERIMENTS, "custom"),
    "lab.evidence.{}": EXPERIMENTS,
    "lab.switch.{}": SWITCHES,  # each architecture switch: its name
    "lab.predict.{}": SWITCHES,  # and what to expect without it
    "attn.stat_{}": ("entropy_bits", *SHARES),  # each column of the head statistics: its name
    "attn.help_{}": ("entropy_bits", *SHARES),  # and what it measures
    "role.{}": ROLES,  # what a column of a pairs file holds
    "data.kind.{}": ROLE_SOURCES,
    "data.left_out.{}": SKIP_REASONS,
    "data.language.{}": (*SCRIPTS, "other"),
    "data.columns_dataset.{}": tuple(DATASET_ROLES),  # the columns of the built-in datasets
    "press.lost.{}": BUTTONS,
}


def template(node: ast.JoinedStr) -> str:
    """An f-string with every {…} replaced by {}: f"attn.{kind}" → "attn.{}"."""
    return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


def is_key_template(text: str) -> bool:
    """Whether a text with {} in it reads as a key family: "split.{}" yes, "_data_{}" or "{} · {}" no."""
    head = text.split("{")[0]
    return "." in head and head.split(".")[0] in PREFIXES and " " not in text


@cache
def code_keys() -> tuple[set[str], dict[str, list[str]], dict[str, list[str]]]:
    """(literals that are defined keys, key-shaped literals that are not defined → where, key templates → where)."""
    used, missing, templates = set(), {}, {}
    for path in CODE:
        where = str(path.relative_to(ROOT))
        parts = {id(v) for node in source.nodes(path) if isinstance(node, ast.JoinedStr) for v in node.values}
        looked_up = {  # the first argument of every t(…) call: a key, whatever its prefix
            id(node.args[0])
            for node in source.nodes(path)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t" and node.args
        }
        for node in source.nodes(path):
            if id(node) in parts:  # the "attn." of f"attn.{kind}": the template is read whole
                continue
            if isinstance(node, ast.JoinedStr):
                text = template(node)
                if is_key_template(text) or id(node) in looked_up:
                    templates.setdefault(text, []).append(where)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if text in STRINGS:
                    used.add(text)
                elif "{}" in text and is_key_template(text):
                    templates.setdefault(text, []).append(where)
                elif id(node) in looked_up or (KEY_SHAPE.fullmatch(text) and text.split(".")[0] in PREFIXES):
                    missing.setdefault(text, []).append(where)
    return used, missing, templates


# the keys a package's table of records names: each attention kind's label
TABLE_KEYS = {kind.label for kind in ATTENTION_KINDS.values()}


def family_keys() -> set[str]:
    """Every key the families build, and the keys the tables name."""
    return {family.format(value) for family, values in FAMILIES.items() for value in values} | TABLE_KEYS


def test_every_key_has_english_and_chinese():
    assert {key: sorted(texts) for key, texts in STRINGS.items() if sorted(texts) != sorted(LANGUAGES)} == {}
    assert [key for key, texts in STRINGS.items() if not all(texts[lang].strip() for lang in LANGUAGES)] == []


def test_no_key_is_defined_twice(tmp_path, monkeypatch):
    """Inside one screen's file tomllib refuses a repeated key; across files the merge does."""
    assert sum(len(strings.read_screen(name)) for name in strings.SCREENS) == len(STRINGS)
    (tmp_path / "twice.toml").write_text('["a.b"]\nen = "A"\nzh = "甲"\n\n["a.b"]\nen = "B"\nzh = "乙"\n')
    monkeypatch.setattr(strings, "HERE", tmp_path)
    with pytest.raises(tomllib.TOMLDecodeError):
        strings.read_screen("twice")


def test_a_key_defined_twice_stops_the_import():
    with pytest.raises(ValueError, match="'a.b' is defined twice: in one.toml and in two.toml"):
        strings.merged({"one": {"a.b": {}}, "two": {"a.b": {}}})


def test_every_screen_file_is_read():
    assert sorted(p.stem for p in STRINGS_DIR.glob("*.toml")) == sorted(strings.SCREENS)


def test_every_key_used_in_the_code_is_defined():
    _, missing, templates = code_keys()
    assert missing == {}
    hidden = {text: where for text, where in templates.items() if text not in FAMILIES}
    assert hidden == {}, "a key built in the code must be a literal, or a family listed in FAMILIES"


def test_every_key_is_used():
    used, _, templates = code_keys()
    assert sorted(set(FAMILIES) - set(templates)) == [], "a family no code builds"
    assert sorted(set(STRINGS) - used - family_keys()) == []


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_family_has_a_key_for_each_kind_and_none_other(family):
    head, tail = family.split("{}")
    keys = {key for key in STRINGS if key.startswith(head) and key.endswith(tail)}
    built = {family.format(value) for value in FAMILIES[family]}
    assert sorted(built - set(STRINGS)) == [], "a kind without its key"
    pattern = re.compile(re.escape(head) + r"[A-Za-z0-9_]+" + re.escape(tail))
    used, _, _ = code_keys()
    orphans = {key for key in keys if pattern.fullmatch(key)} - family_keys() - used
    assert sorted(orphans) == [], "a key of the family without a kind"


def test_every_key_a_table_names_is_defined():
    assert sorted(TABLE_KEYS - set(STRINGS)) == []


def test_sentences_follow_each_other_with_a_space_in_english_and_none_in_chinese():
    assert sentences(["The best head aligns.", "", "Averaging does better."], "en") == (
        "The best head aligns. Averaging does better."
    )
    assert sentences(["最好的注意力头对齐得最好。", "平均更好。"], "zh") == "最好的注意力头对齐得最好。平均更好。"
