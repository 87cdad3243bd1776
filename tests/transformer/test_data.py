"""Tokenization, vocabularies, make_data, pair checks and the pairs-file parser."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from transformer import BOS, EOS, PAD, SPECIALS, UNK, Vocab, build_vocabs, data, make_data, tokenize
from transformer.config import MAX_DATA_BYTES, MAX_PAIRS, MAX_TOKEN_CHARS, MAX_TOKENS, MAX_VOCAB_SIZE
from transformer.data import (
    Problem,
    check_pairs,
    find_control,
    format_pairs,
    parse_pairs,
    parse_tagged_pairs,
    summarize_pairs,
    unseen_words,
)
from transformer.errors import DataError

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "everyday_cmn_eng.txt"
SEED_SRC = {"P": 0, "我": 1, "喜": 2, "欢": 3, "你": 4}
SEED_TGT = {"P": 0, "I": 1, "love": 2, "you": 3, "S": 4, "E": 5, ".": 6}


# ---------------------------------------------------------------- tokenize


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("我喜欢你", ["我", "喜", "欢", "你"]),
        ("我 喜 欢 你", ["我", "喜", "欢", "你"]),
        ("I love you.", ["I", "love", "you", "."]),
        ("I love you .", ["I", "love", "you", "."]),
        ("我爱Python3!", ["我", "爱", "Python3", "!"]),
        ("他说: hello, 世界", ["他", "说", ":", "hello", ",", "世", "界"]),
        ("don't stop", ["don't", "stop"]),
        ("don’t stop", ["don’t", "stop"]),
        ("  I \t love\n you  ", ["I", "love", "you"]),
        ("", []),
        ("   ", []),
    ],
)
def test_tokenize_auto(text, tokens):
    assert tokenize(text) == tokens
    assert tokenize(text, "auto") == tokens


def test_tokenize_whitespace_splits_on_spaces_only():
    assert tokenize("I love you.", "whitespace") == ["I", "love", "you."]
    assert tokenize("我喜欢你", "whitespace") == ["我喜欢你"]
    assert tokenize(" 我  喜\t欢 你 ", "whitespace") == ["我", "喜", "欢", "你"]


def test_tokenize_char_drops_whitespace():
    assert tokenize("I love", "char") == ["I", "l", "o", "v", "e"]
    assert tokenize("我 喜欢", "char") == ["我", "喜", "欢"]


def test_tokenize_unknown_mode_raises_data_error_naming_the_modes():
    with pytest.raises(DataError, match="sentencepiece") as info:
        tokenize("I love you", "sentencepiece")
    assert "auto" in str(info.value) and "whitespace" in str(info.value) and "char" in str(info.value)
    assert isinstance(info.value, ValueError)


# ---------------------------------------------------------------- Vocab


def test_vocab_build_puts_pad_first_and_has_every_special():
    vocab = Vocab.build([["I", "love", "you", "."], ["you", "love", "me"]])
    assert vocab.itos[0] == PAD
    assert vocab.stoi[PAD] == 0
    for token in SPECIALS:
        assert token in vocab.stoi
    assert vocab.itos[len(SPECIALS) :] == ("I", "love", "you", ".", "me")  # first appearance, no repeats
    assert all(vocab.stoi[t] == i for i, t in enumerate(vocab.itos))
    assert vocab.decode([vocab.stoi["love"], vocab.stoi["me"]]) == ["love", "me"]


def test_vocab_build_does_not_duplicate_specials_typed_in_sentences():
    vocab = Vocab.build([["P", "S", "x", "E"]])
    assert vocab.itos == (*SPECIALS, "x")


def test_build_vocabs_uses_the_tokenizer(seed_pairs):
    src, tgt = build_vocabs(seed_pairs)
    assert src.itos == (*SPECIALS, "我", "喜", "欢", "你")
    assert tgt.itos == (*SPECIALS, "I", "love", "you", ".")
    src_ws, _ = build_vocabs([("我喜欢你", "I love you .")], "whitespace")
    assert src_ws.itos == (*SPECIALS, "我喜欢你")


@pytest.mark.parametrize(
    ("itos", "match"),
    [
        (("S", "P", "E", "<unk>"), "id 0"),
        ((), "id 0"),
        (("P", "S", "E", "<unk>", "x", "x"), "twice"),
        (("P", "S", "x"), "E, <unk>"),
    ],
)
def test_invalid_vocab_is_refused(itos, match):
    with pytest.raises(DataError, match=match):
        Vocab(itos)


def test_from_dict_with_the_seed_dicts_keeps_their_ids():
    src, tgt = Vocab.from_dict(SEED_SRC), Vocab.from_dict(SEED_TGT)
    assert {t: src.stoi[t] for t in SEED_SRC} == SEED_SRC
    assert {t: tgt.stoi[t] for t in SEED_TGT} == SEED_TGT
    assert (tgt.bos_id, tgt.eos_id) == (4, 5)
    assert src.itos[src.unk_id] == UNK and tgt.itos[tgt.unk_id] == UNK  # appended after the given ids
    assert src.unk_id >= len(SEED_SRC) and tgt.unk_id >= len(SEED_TGT)


def test_from_dict_refuses_gaps_in_ids():
    with pytest.raises(DataError, match="without gaps"):
        Vocab.from_dict({"P": 0, "S": 1, "E": 3, "<unk>": 4})


def test_make_data_reproduces_the_seed_tensors():
    batch = make_data(
        [("我 喜 欢 你", "I love you .")], Vocab.from_dict(SEED_SRC), Vocab.from_dict(SEED_TGT), src_len=5, tgt_len=6
    )
    assert batch.enc_inputs.tolist() == [[1, 2, 3, 4, 0]]
    assert batch.dec_inputs.tolist() == [[4, 1, 2, 3, 6, 0]]
    assert batch.dec_outputs.tolist() == [[1, 2, 3, 6, 5, 0]]
    assert all(t.dtype == torch.long for t in batch)


def test_make_data_pads_each_batch_to_its_longest_sentence_with_zero():
    pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "hi"), ("我", "I love cats very much .")]
    src, tgt = build_vocabs(pairs)
    batch = make_data(pairs, src, tgt)
    assert batch.enc_inputs.shape == (3, 4)  # longest source: 4 tokens
    assert batch.dec_inputs.shape == batch.dec_outputs.shape == (3, 7)  # longest target (6) + S or E
    assert batch.enc_inputs[1].tolist()[2:] == [0, 0]
    assert batch.enc_inputs[2].tolist()[1:] == [0, 0, 0]
    hi, bos, eos = tgt.stoi["hi"], tgt.bos_id, tgt.eos_id
    assert batch.dec_inputs[1].tolist() == [bos, hi, 0, 0, 0, 0, 0]
    assert batch.dec_outputs[1].tolist() == [hi, eos, 0, 0, 0, 0, 0]
    assert (batch.dec_inputs[:, 0] == bos).all()
    # src_len / tgt_len only lengthen, never cut
    short = make_data(pairs, src, tgt, src_len=2, tgt_len=2)
    assert short.enc_inputs.shape == (3, 4) and short.dec_inputs.shape == (3, 7)


def test_encode_reports_unknown_words_instead_of_raising():
    vocab = Vocab.build([["我", "喜", "欢", "你"]])
    ids, unknown = vocab.encode(["我", "爱", "你", "们"])
    assert ids == [vocab.stoi["我"], vocab.unk_id, vocab.stoi["你"], vocab.unk_id]
    assert unknown == ["爱", "们"]


def test_special_names_typed_as_words_are_unknown():
    vocab = Vocab.build([["x"]])
    ids, unknown = vocab.encode(["P", "S", "E", "x"])
    assert ids == [vocab.unk_id] * 3 + [vocab.stoi["x"]]
    assert unknown == ["P", "S", "E"]


def test_make_data_maps_unknown_words_to_the_unknown_id():
    src, tgt = build_vocabs([("我 喜 欢 你", "I love you .")])
    batch = make_data([("我 爱 你", "I like you .")], src, tgt)
    assert batch.enc_inputs.tolist() == [[src.stoi["我"], src.unk_id, src.stoi["你"]]]
    assert batch.dec_outputs[0, 1].item() == tgt.unk_id


def test_translate_lists_unknown_words(trained_seed):
    result = trained_seed.translate("我 爱 你 们")
    assert result.unknown == ["爱", "们"]
    assert result.src_tokens == ["我", "爱", "你", "们"]
    assert result.stop_reason in ("eos", "max_len")


# ---------------------------------------------------------------- check_pairs


def _kinds(problems):
    return [(p.kind, p.row, p.severity) for p in problems]


def test_clean_pairs_have_no_problems(bundled_pairs, pairs20):
    assert check_pairs(bundled_pairs) == []
    assert check_pairs(pairs20) == []


def test_no_pairs_is_an_error():
    assert _kinds(check_pairs([])) == [("no_pairs", None, "error")]


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_empty_source_or_target_is_an_error_naming_the_row(blank):
    problems = check_pairs([("我", "I"), (blank, "you"), ("你", blank)])
    assert _kinds(problems) == [("empty_source", 2, "error"), ("empty_target", 3, "error")]
    assert problems[0].message().startswith("row 2:")


def test_sentence_longer_than_max_tokens_is_an_error():
    longest = " ".join(["词"] * MAX_TOKENS)
    assert check_pairs([(longest, "ok")]) == []
    problems = check_pairs([("ok", "word " * (MAX_TOKENS + 1)), (longest + " 词", "ok")])
    assert _kinds(problems) == [("too_long", 1, "error"), ("too_long", 2, "error")]
    assert "target" in problems[0].message() and "source" in problems[1].message()
    assert str(MAX_TOKENS) in problems[0].message()


def test_more_than_max_pairs_is_an_error():
    rows = [("词", "word")] * (MAX_PAIRS + 1)  # one distinct row: checked once, so the test is fast
    assert [p for p in check_pairs(rows[:MAX_PAIRS]) if p.severity == "error"] == []
    problems = [p for p in check_pairs(rows) if p.severity == "error"]
    assert _kinds(problems) == [("too_many_rows", None, "error")]
    assert problems[0].message() == "there are 50,001 pairs, more than the 50,000 allowed: delete some rows."


@pytest.mark.parametrize("side", [0, 1])
def test_more_distinct_tokens_than_a_vocabulary_holds_is_an_error_naming_the_side(side):
    def rows(n):  # n distinct tokens on one side, 40 to a sentence; the other side the same short word
        words = [f"w{i}" for i in range(n)]
        sentences = [" ".join(words[i : i + MAX_TOKENS]) for i in range(0, n, MAX_TOKENS)]
        return [(s, "x") if side == 0 else ("x", s) for s in sentences]

    fitting = MAX_VOCAB_SIZE - len(SPECIALS)
    assert check_pairs(rows(fitting)) == []
    assert len(summarize_pairs(rows(fitting)).vocabs()[side]) == MAX_VOCAB_SIZE
    problems = check_pairs(rows(fitting + 1))
    assert _kinds(problems) == [("too_many_tokens", None, "error")]
    name = ("source", "target")[side]
    assert problems[0].message() == (
        f"the {name} sentences have 29,997 distinct tokens, more than the 29,996 a vocabulary holds besides its 4 "
        "special tokens: use fewer pairs, or choose a tokenization that makes fewer distinct tokens."
    )
    # split into characters, the same sentences make few distinct tokens (but too many tokens for one sentence)
    assert {p.kind for p in check_pairs(rows(fitting + 1), "char")} == {"too_long"}


def test_the_summary_counts_what_the_usable_pairs_hold_tokenizing_each_distinct_row_once(monkeypatch):
    pairs = [("我 喜 欢 你", "I love you ."), ("", "orphan"), ("我喜欢你", "I love you.")]
    pairs += [("我 喜 欢 你", "I love you ."), ("P 猫", "cat cat ."), ("我 喜 欢 你", "I love you .")]
    calls = []
    real = data.tokenize
    monkeypatch.setattr(data, "tokenize", lambda text, mode="auto", side=None: calls.append(text) or real(text, mode))
    summary = summarize_pairs(pairs)
    assert len(calls) == 2 * 4  # four distinct rows as typed
    assert summary.rows == 6 and summary.usable == 5
    assert summary.src_lengths == (4, 4, 4, 2, 4) and summary.tgt_lengths == (4, 4, 4, 3, 4)
    assert summary.src_counts == {"我": 4, "喜": 4, "欢": 4, "你": 4, "P": 1, "猫": 1}
    assert summary.most_common("target", 3) == [(".", 5), ("I", 4), ("love", 4)]
    assert summary.most_common("source", 6) == [("我", 4), ("喜", 4), ("欢", 4), ("你", 4), ("猫", 1)]  # no P
    assert summary.vocabs() == build_vocabs([p for p in pairs if p[0] and p[1]])
    assert list(summary.problems) == check_pairs(pairs)
    assert [p.kind for p in summary.errors] == ["empty_source"]
    assert [p.kind for p in summary.warnings] == ["duplicate", "reserved"]


def test_duplicate_pair_is_one_warning_at_the_first_copy_with_the_number_of_copies():
    problems = check_pairs([("我 喜 欢 你", "I love you ."), ("你", "you"), ("我喜欢你", "I love you.")])
    assert _kinds(problems) == [("duplicate", 1, "warning")]
    assert (
        problems[0].message()
        == "row 1: this pair appears 2 times in the table (the same tokens); every copy is trained."
    )


def test_100000_identical_rows_are_two_problems_not_100000():
    problems = check_pairs([("我 喜 欢 你", "I love you .")] * 100_000)
    assert _kinds(problems) == [("too_many_rows", None, "error"), ("duplicate", 1, "warning")]
    assert problems[1].detail == "100000"


def test_the_problems_of_identical_rows_are_listed_once_at_the_first():
    problems = check_pairs([("我", "I"), ("P", ""), ("P", ""), ("P", "")])
    assert _kinds(problems) == [("empty_target", 2, "error"), ("reserved", 2, "warning"), ("duplicate", 2, "warning")]
    assert problems[2].detail == "3"


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\t", "\n", "\r", "\x1c", "\x7f", "\x85", "\x9b"])
@pytest.mark.parametrize("side", [0, 1])
def test_a_control_character_is_an_error_naming_the_row(char, side):
    row = ["你好", "hello"]
    row[side] = row[side][0] + char + row[side][1:]
    problems = check_pairs([("我", "I"), tuple(row)])
    assert ("control", 2, "error") in _kinds(problems)
    control = next(p for p in problems if p.kind == "control")
    assert control.detail == f"\\x{ord(char):02x}"
    assert control.message().startswith(f"row 2: contains the invisible control character \\x{ord(char):02x}")


def test_a_control_character_that_tokenizes_like_a_space_is_still_found_in_a_later_copy():
    problems = check_pairs([("a b", "x"), ("a\x1cb", "x")])  # \x1c is whitespace to str.split: the same tokens
    assert _kinds(problems) == [("control", 2, "error"), ("duplicate", 1, "warning")]


def test_find_control_finds_only_unicode_control_characters():
    assert find_control("我 喜 欢 你 I love you . \u200b \u2028 ✓") is None
    assert [find_control(c) for c in ("\x00", "\x1f", "\x7f", "\x9f")] == ["\x00", "\x1f", "\x7f", "\x9f"]


def test_a_token_longer_than_max_token_chars_is_an_error_naming_the_side():
    longest = "w" * MAX_TOKEN_CHARS
    assert check_pairs([(longest, longest)], "whitespace") == []
    problems = check_pairs([("我", longest + "w"), (longest + "词", "I")], "whitespace")
    assert _kinds(problems) == [("token_too_long", 1, "error"), ("token_too_long", 2, "error")]
    assert problems[0].message() == (
        f"row 1: the target has a token longer than {MAX_TOKEN_CHARS} characters: shorten it or split it with spaces."
    )
    assert "source" in problems[1].message()
    assert _kinds(check_pairs([("我", "w" * (MAX_TOKEN_CHARS + 1))], "char")) == []  # the char tokenizer splits it


def test_every_problem_kind_has_an_english_message():
    for kind in ("no_pairs", "too_many_rows", "empty_source", "empty_target", "too_long", "token_too_long"):
        assert Problem(kind, 1, "source").message()
    assert Problem("too_many_tokens", None, "source", count=30_000).message()
    for kind in ("control", "duplicate", "reserved"):
        assert Problem(kind, 1, "2").message()


def test_reserved_token_typed_by_a_user_is_a_warning():
    problems = check_pairs([("P 我", "I"), ("你", "Plan B")])
    assert _kinds(problems) == [("reserved", 1, "warning")]
    assert problems[0].detail == PAD
    assert "reserved" in problems[0].message()
    assert _kinds(check_pairs([("我", f"{BOS} {EOS}")])) == [("reserved", 1, "warning")] * 2


def test_errors_come_before_warnings():
    problems = check_pairs([("P", "x"), ("P", "x"), ("", "y")])
    severities = [p.severity for p in problems]
    assert severities == sorted(severities)  # "error" < "warning"
    assert severities[0] == "error" and "warning" in severities


# ---------------------------------------------------------------- parse_pairs / format_pairs


@pytest.mark.parametrize(
    "data",
    [
        "我 喜 欢 你\tI love you .\n你好\tHello .\n",
        "source\ttarget\n我 喜 欢 你\tI love you .\n你好\tHello .\n",
        "我 喜 欢 你,I love you .\n你好,Hello .\n",
        "source,target\n我 喜 欢 你,I love you .\n你好,Hello .\n",
        "Chinese,English\r\n我 喜 欢 你,I love you .\r\n你好,Hello .\r\n",
        "\n我 喜 欢 你\tI love you .\t\n\n 你好 \t Hello . \n\n",
    ],
    ids=["tsv", "tsv-header", "csv", "csv-header", "crlf-header", "blank-lines-trailing-tab"],
)
def test_parse_pairs_reads_tsv_and_csv(data):
    expected = [("我 喜 欢 你", "I love you ."), ("你好", "Hello .")]
    assert parse_pairs(data) == expected
    assert parse_pairs(data.encode("utf-8")) == expected


def test_parse_pairs_strips_a_utf8_bom():
    data = "\ufeffsource\ttarget\n你好\tHello .\n".encode()
    assert parse_pairs(data) == [("你好", "Hello .")]


def test_parse_pairs_reads_quoted_csv_cells_with_commas():
    assert parse_pairs('"你好,世界","Hello, world ."\n') == [("你好,世界", "Hello, world .")]


def test_bundled_pairs_start_with_the_seed_pair(bundled_pairs):
    assert bundled_pairs[0] == ("我 喜 欢 你", "I love you .")
    assert len(bundled_pairs) == 50
    assert all(s and t for s, t in bundled_pairs)


@pytest.mark.parametrize(
    "data",
    ["我喜欢你\tI love you .\n".encode("gbk"), b"\xff\xfe" + "a\tb\n".encode("utf-16-le")],
    ids=["gbk", "utf-16"],
)
def test_non_utf8_bytes_are_a_data_error(data):
    with pytest.raises(DataError, match="UTF-8"):
        parse_pairs(data, "my.tsv")


def test_binary_file_is_a_data_error():
    with pytest.raises(DataError, match="line 2: holds a NUL byte, so it is not a text file"):
        parse_pairs(b"a\tb\n\x00\x01\x02")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("a\tb\nc\td\x1b[31m\n", "pairs.tsv, line 2: the invisible control character \\x1b cannot be part of"),
        ("a\tb\r\n\r\nc\x07\td\n", "pairs.tsv, line 3: the invisible control character \\x07"),
        ("a\tb\rc\x7f\td\r", "pairs.tsv, line 2: the invisible control character \\x7f"),
        ("a\tb\nc\td\x00\n", "pairs.tsv, line 2: holds a NUL byte"),
        ('a,b\n"c\td",e\n', "pairs.tsv, line 2: a sentence holds the control character \\x09"),
        ('a\tb\n"c\nd"\te\n', "pairs.tsv, line 3: a sentence holds the control character \\x0a"),
    ],
    ids=["escape", "bell-after-crlf", "delete-after-cr", "nul", "tab-in-a-csv-cell", "line-break-in-quotes"],
)
def test_a_control_character_in_a_file_is_refused_naming_the_line(data, message):
    with pytest.raises(DataError) as info:
        parse_pairs(data.encode(), "pairs.tsv")
    assert str(info.value).startswith(message), str(info.value)


def test_a_file_with_carriage_returns_only_is_read():
    data = "source\ttarget\r我 喜 欢 你\tI love you .\r\r你好\tHello .\r"
    assert parse_pairs(data.encode()) == [("我 喜 欢 你", "I love you ."), ("你好", "Hello .")]


@pytest.mark.parametrize("size", [131_073, 500_000])
def test_a_cell_larger_than_the_csv_module_reads_is_refused_naming_the_line(size):
    with pytest.raises(DataError, match=r"^pairs\.tsv, line 2: cannot be read as TSV \(tab\) \(field larger"):
        parse_pairs(("a\tb\nc\t" + "x" * size + "\n").encode(), "pairs.tsv")


def test_more_than_max_pairs_rows_in_a_file_are_refused_when_read():
    rows = "".join(f"词{i}\tword{i}\n" for i in range(MAX_PAIRS + 1))
    assert len(parse_pairs("source\ttarget\n" + "".join(rows.splitlines(True)[:MAX_PAIRS]))) == MAX_PAIRS
    with pytest.raises(DataError) as info:
        parse_pairs(("source\ttarget\n" + rows).encode(), "many.tsv")
    assert str(info.value) == (
        "many.tsv, line 50002: more than 50,000 sentence pairs, the most one dataset may have: "
        "split the file or delete some rows."
    )


def test_too_large_file_is_a_data_error():
    with pytest.raises(DataError) as info:
        parse_pairs(b"a\tb\n" * (MAX_DATA_BYTES // 4 + 1), "big.tsv")
    assert str(info.value) == "big.tsv is 15,000,004 bytes; the limit is 15,000,000. Use a smaller file."
    # the largest file fits MAX_PAIRS everyday pairs in the Tatoeba format at twice the fixture's longest line
    longest = max(FIXTURE.read_bytes().splitlines(keepends=True), key=len)
    assert len(longest) == 149 and 2 * len(longest) * MAX_PAIRS <= MAX_DATA_BYTES
    line = longest.rstrip(b"\n") + b" " * (MAX_DATA_BYTES // MAX_PAIRS - len(longest)) + b"\n"  # 300 bytes
    largest = line * MAX_PAIRS
    assert len(largest) == MAX_DATA_BYTES
    pairs = parse_pairs(largest, "big.tsv")
    assert len(pairs) == MAX_PAIRS and pairs[0] == parse_pairs(longest)[0]


@pytest.mark.parametrize("data", [b"", b"\n\n", b"  \r\n \t \n", "\ufeff".encode()])
def test_empty_file_is_a_data_error(data):
    with pytest.raises(DataError, match="empty"):
        parse_pairs(data, "pairs.tsv")


def test_header_without_pairs_is_a_data_error():
    with pytest.raises(DataError, match="no sentence pairs"):
        parse_pairs("source\ttarget\n")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("a\tb\n" + "\t".join("abcdefghijk") + "\n", "line 2: 11 columns, more than the 10 a pairs file may have"),
        ("a,b\n" + ",".join("abcdefghijk") + "\n", "line 2: 11 columns, more than the 10"),
        (
            "just one column\n",
            "line 1: expected at least 2 columns \\(source, target\\) in CSV \\(comma\\) format, found 1",
        ),
    ],
)
def test_wrong_column_count_is_a_data_error(data, message):
    with pytest.raises(DataError, match=message):
        parse_pairs(data, "pairs.txt")


def test_up_to_ten_columns_are_read():
    row = "我\tI\t" + "\t".join("x" * 8) + "\n"
    assert parse_pairs(row) == [("我", "I")]


@pytest.mark.parametrize(
    "data",
    [
        "source\ttarget\tphenomena\n猫\tcat\tagreement possessive\n狗\tdog\t\n鱼\tfish\n",
        '猫,cat,"agreement, possessive"\n狗,dog,\n鱼,fish\n',
        "猫\tcat\t agreement;possessive \t\t\n狗\tdog\n鱼\tfish\t ; \n",
    ],
    ids=["tsv-with-header", "csv-quoted-tags", "tsv-semicolons-and-empty-cells"],
)
def test_a_third_column_of_phenomena_is_read_by_the_tagged_reader_and_ignored_by_parse_pairs(data):
    assert parse_pairs(data) == [("猫", "cat"), ("狗", "dog"), ("鱼", "fish")]
    pairs, tags = parse_tagged_pairs(data)
    assert pairs == parse_pairs(data)
    assert tags == [("agreement", "possessive"), (), ()]


@pytest.mark.parametrize(
    ("data", "line"),
    [
        ("我\tI\n你\n他\the\n", 2),
        ("source\ttarget\n我\tI\n你\n", 3),
        ("我\tI\n\n\n你\n", 4),
    ],
    ids=["plain", "after-header", "after-blank-lines"],
)
def test_wrong_column_count_error_names_the_line_of_the_file(data, line):
    """The message must point at the line a user sees in an editor (header and blank lines count)."""
    with pytest.raises(DataError) as info:
        parse_pairs(data, "pairs.tsv")
    message = str(info.value)
    assert message.startswith("pairs.tsv"), message
    assert f"line {line}:" in message, f"the bad row is on line {line} of the file, but the error says: {message}"


def test_format_pairs_round_trips_through_parse_pairs(pairs20, bundled_pairs):
    tricky = [
        ('他说"你好"', 'He said "hello" .'),
        ("你好,世界", "Hello, world ."),
        ('"引号"开头', '"Quoted" start'),
        ("source", "target"),  # a pair that looks like a header, after the real header
        ("行\u2028分隔", "line\u2029separators"),  # str.splitlines would end a line at these
        ("=1+1", "+SUM(A1)"),  # what a spreadsheet would run as a formula is written as '=1+1, and read back as it was
        ("-1 度", "@me"),
        ("'=x", "''-y"),  # apostrophes before a formula start: one more on the way out, one fewer on the way in
        ("'Tis", "'Tis the season ."),  # an apostrophe before anything else is the text's own, both ways
    ]
    for pairs in (pairs20, bundled_pairs, tricky):
        text = format_pairs(pairs)
        assert text.startswith("source\ttarget\n")
        assert parse_pairs(text) == pairs
        assert parse_pairs(text.encode("utf-8")) == pairs


def test_unseen_held_out_words_are_counted_against_the_training_vocabularies():
    train_pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "Hello .")]
    src_vocab, tgt_vocab = build_vocabs(train_pairs)
    held = [("我 喜 欢 猫", "I love cats ."), ("猫 猫 好", "Hello cats cats ."), ("你 好", "Hello ."), ("P 你", "you")]
    unseen = unseen_words(held, src_vocab, tgt_vocab)
    assert unseen.source == {"猫": 3}  # the typed P is unknown too, but as a reserved token, not an unseen word
    assert unseen.target == {"cats": 3}
    assert (unseen.unreachable, unseen.total) == (2, 4)
    assert [src_vocab.encode(tokenize(s))[0].count(src_vocab.unk_id) for s, _ in held[:3]] == [1, 2, 0]
    nothing = unseen_words(train_pairs, src_vocab, tgt_vocab)
    assert (nothing.source, nothing.target, nothing.unreachable) == ({}, {}, 0)
