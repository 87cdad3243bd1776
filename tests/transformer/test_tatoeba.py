"""Any Tatoeba download, whatever its languages: recognised by its attribution column, read the other language →
English, its languages named from the file name, and its credit kept whole (each row's sentence numbers and
contributors) through the checkpoint."""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import replace
from pathlib import Path

import pytest

from transformer.checkpoint import load_checkpoint, save_checkpoint, summary_from_dict, summary_to_dict
from transformer.columns import infer_roles, read_file, swap, take_pairs
from transformer.credits import MAX_UNPACKED_BYTES, credits_of, pack, unpack
from transformer.languages import OTHER, codes_in_name, name_of, tatoeba_languages
from transformer.summary import DataRecord, TrainingSummary

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FILES = {"fra-eng.txt": ("fra", "French"), "deu-eng.txt": ("deu", "German")}


def _taken(name: str, as_name: str | None = None):
    found = read_file((FIXTURES / name).read_bytes(), as_name or name)
    return found, take_pairs(found, infer_roles(found))


@pytest.mark.parametrize("name", FILES)
def test_the_french_and_german_fixtures_are_tatoeba_files_of_at_least_40_credited_pairs(name):
    rows = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    assert len(rows) >= 40
    for row in rows:
        english, other, attribution = row.split("\t")
        assert english and other and english != other
        assert attribution.startswith("CC-BY 2.0 (France) Attribution: tatoeba.org #")
        assert " & #" in attribution


@pytest.mark.parametrize("name", FILES)
def test_a_tatoeba_file_of_any_language_is_recognised_and_read_into_english(name):
    found, taken = _taken(name)
    code, language = FILES[name]
    assert found.kind == "tatoeba"
    assert infer_roles(found) == ("target", "source", "attribution")
    first = (FIXTURES / name).read_text(encoding="utf-8").splitlines()[0].split("\t")
    assert taken.pairs[0] == (first[1], first[0])  # the other language → English
    assert taken.codes == (code, "eng")
    assert name_of(taken.codes[0]) == language and name_of("eng") == "English"
    assert taken.languages == ("en", "en")  # both Latin letters: the script does not say which is English
    swapped = take_pairs(found, swap(infer_roles(found)))
    assert swapped.pairs[0] == (first[0], first[1]) and swapped.codes == ("eng", code)


def test_the_chinese_tatoeba_file_is_read_the_same_way_round():
    found, taken = _taken("everyday_cmn_eng.txt", "cmn-eng.txt")
    assert found.kind == "tatoeba" and taken.codes == ("cmn", "eng") and taken.pairs[0] == ("你好。", "Hi.")


def test_a_tatoeba_file_whose_name_names_no_language_says_the_other_language():
    found, taken = _taken("fra-eng.txt", "sentences.txt")
    assert found.kind == "tatoeba" and taken.codes == (OTHER, "eng")
    assert name_of(OTHER) == "the other language" and name_of(OTHER, "zh") == "另一种语言"


def test_language_codes_come_from_the_file_name():
    assert codes_in_name("/data/fra-eng.txt") == ["fra", "eng"]
    assert codes_in_name("deu.txt") == ["deu"]
    assert codes_in_name("pairs.tsv") == []
    assert tatoeba_languages("cmn-eng.txt") == ("eng", "cmn")
    assert tatoeba_languages("eng-spa.txt") == ("eng", "spa")
    assert name_of("fra", "zh") == "法语"


def test_two_latin_columns_without_an_attribution_are_not_a_tatoeba_file():
    found = read_file("Hello.\tBonjour.\nThank you.\tMerci.\n", "fra-eng.txt")
    assert found.kind == "tsv" and infer_roles(found) == ("source", "target")
    assert take_pairs(found, infer_roles(found)).codes == ("", "")


@pytest.mark.parametrize("name", FILES)
def test_every_row_keeps_its_sentence_numbers_and_contributors(name):
    _, taken = _taken(name)
    credits = credits_of(taken.extra["attribution"], taken.lines)
    rows = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    assert len(credits.rows) == len(rows) == len(taken.pairs)
    assert credits.licence == "CC-BY 2.0 (France) Attribution: tatoeba.org"
    for (_, n1, who1, n2, who2), row in zip(credits.table(), rows):
        assert row.endswith(f"{n1} ({who1}) & {n2} ({who2})")
    assert sum(n for _, n in credits.by_contributor()) == 2 * len(rows)
    assert unpack(pack(credits)) == credits


def test_the_credits_survive_a_checkpoint_and_an_old_summary_still_loads():
    _, taken = _taken("fra-eng.txt")
    credits = credits_of(taken.extra["attribution"], taken.lines)
    summary = TrainingSummary(data=DataRecord(data_credit="CC-BY 2.0 (France)", credits=credits))
    as_json = json.loads(json.dumps(summary_to_dict(summary)))
    warnings: list[str] = []
    assert summary_from_dict(as_json, warnings).data.credits == credits and warnings == []
    old = {k: v for k, v in as_json.items() if k != "credits"}
    assert summary_from_dict(old, warnings).data.credits is None and warnings == []


def test_a_model_saved_and_loaded_keeps_its_credits(tmp_path):
    from transformer import Translator

    _, taken = _taken("deu-eng.txt")
    credits = credits_of(taken.extra["attribution"], taken.lines)
    translator = Translator.create(taken.pairs[:5], "auto", 0, d_model=8, d_ff=8, n_heads=2, n_layers=1)
    translator.summary = replace(translator.summary, data=DataRecord(data_credit="x", credits=credits))
    save_checkpoint(translator, tmp_path / "m.safetensors")
    assert load_checkpoint(tmp_path / "m.safetensors").summary.data.credits == credits


def _packed(value) -> str:
    return base64.b64encode(zlib.compress(json.dumps(value).encode())).decode()


@pytest.mark.parametrize(
    "value",
    [
        "not base64!",
        base64.b64encode(b"not zlib").decode(),
        base64.b64encode(zlib.compress(b"\0" * (MAX_UNPACKED_BYTES + 10))).decode(),  # a zlib bomb stops at the bound
        _packed({"licence": "x", "contributors": ["a"], "rows": [[1, 5, 3]]}),  # contributor 3 of 1
        _packed({"licence": "x", "contributors": ["a"], "rows": [[1, 5]]}),
        _packed({"licence": "x", "contributors": ["a\x1b"], "rows": [[1, 5, 0]]}),
        _packed({"licence": "x", "contributors": ["a"], "rows": [[1, -5, 0]]}),
        _packed({"licence": "", "contributors": ["a"], "rows": [[1, 5, 0]]}),
        _packed([1, 2]),
        12,
    ],
    ids=["base64", "zlib", "bomb", "index", "odd", "control", "negative", "no-licence", "list", "number"],
)
def test_hostile_packed_credits_are_dropped_with_a_warning(value):
    assert unpack(value) is None
    warnings: list[str] = []
    assert summary_from_dict({"credits": value}, warnings).data.credits is None
    assert len(warnings) == 1 and "credits" in warnings[0]


def test_a_tatoeba_form_file_with_its_english_second_is_still_read_into_english():
    found = read_file("猫\tcat\tCC-BY 2.0 (France) Attribution: tatoeba.org #1 (a) & #2 (b)\n", "cmn-eng.txt")
    taken = take_pairs(found, infer_roles(found))
    assert found.kind == "tatoeba" and taken.pairs == [("猫", "cat")] and taken.codes == ("cmn", "eng")
