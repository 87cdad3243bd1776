"""`python -m transformer align`, run in-process on the bundled model: the links it writes, the AER table it prints
when the pairs have gold links, the best head as the default, and one line on stderr for bad input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from transformer.__main__ import main
from transformer.alignment import Method, align, format_links
from transformer.checkpoint import load_checkpoint
from transformer.data import parse_aligned_pairs

ROOT = Path(__file__).resolve().parents[2]
MODEL = str(ROOT / "assets" / "model.safetensors")  # 2 layers of 4 heads
GOLD_FILE = (
    ROOT / "tests" / "fixtures" / "aligned_pairs.tsv"
)  # 20 pairs (18 the corpus makes) with hand-checked gold links
LINKS = re.compile(r"^(\d+-\d+( \d+-\d+)*)?$")  # one line of links, i-j


def _run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # the parser's own refusals
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def plain(write_file):
    """Three pairs without gold links."""
    rows = "我爱你\tI love you .\n狗喝水\tThe dog drinks water .\n他很开心\tHe is happy .\n"
    return str(write_file("plain.tsv", rows))


def test_with_gold_it_prints_the_aer_table_and_writes_the_best_heads_links(tmp_path, capsys):
    out = tmp_path / "links.txt"
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", str(GOLD_FILE), "--out", str(out))
    assert code == 0 and err == ""
    lines = printed.splitlines()
    assert lines[0] == f"wrote the links of 20 pairs (attention, layer 2 head 3) to {out}"
    assert "AER on 20 pairs with gold links (0 = every link right, lower is better)" in lines
    grid = lines.index("attention: cross-attention weights α")
    assert lines[grid + 1].split() == ["layer", "head", "1", "head", "2", "head", "3", "head", "4", "layer"]
    first, second = (lines[grid + 2].split(), lines[grid + 3].split())
    assert first[0] == "1" and second[0] == "2" and len(first) == len(second) == 6  # 4 heads, then the layer's average
    assert float(second[3]) == min(float(x) for x in first[1:5] + second[1:5])  # head 3 of layer 2: the best head
    assert any(line.startswith("saliency: gradient × input") for line in lines)
    assert any(re.match(r"  average, layer 2 +AER 0\.\d{3}  precision 0\.\d{3}  recall 0\.\d{3}$", x) for x in lines)
    assert lines[-2] == "(the best AER one link per target token can reach against this gold: 0.199, recall 0.748)"
    assert lines[-1] == "(links by the best head: attention, layer 2 head 3)"
    written = out.read_text(encoding="utf-8").splitlines()
    pairs, _, _ = parse_aligned_pairs(GOLD_FILE.read_bytes())
    expected = align(load_checkpoint(MODEL), pairs, Method("attention", 1, 2))
    assert written == [format_links(links) for links in expected]
    assert written[0] == "0-0 1-1 1-3 2-2"  # 我爱你 → I love you . : each target token one link, the "." too


def test_without_out_the_links_go_to_stdout_and_the_table_to_stderr(capsys):
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", str(GOLD_FILE), "--method", "saliency")
    assert code == 0
    assert len(printed.splitlines()) == 20 and all(LINKS.match(line) for line in printed.splitlines())
    assert "AER on 20 pairs" in err and "(links by" not in err  # saliency was asked for: no head to choose


def test_without_gold_there_is_no_table_and_attention_needs_a_head(plain, capsys):
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", plain, "--layer", "2", "--head", "1")
    assert code == 0 and err == "" and len(printed.splitlines()) == 3
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", plain)
    assert (code, printed) == (2, "")
    assert err == (
        "error: --method attention needs --layer and --head when the pairs have no gold links to choose the best head "
        "by.\n"
    )


@pytest.mark.parametrize(
    ("method", "flags"),
    [("average", []), ("average", ["--layer", "1"]), ("norm", []), ("norm", ["--layer", "1", "--head", "3"])],
)
def test_each_method_writes_one_line_of_links_per_pair(plain, capsys, method, flags):
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", plain, "--method", method, *flags)
    assert code == 0 and err == ""
    lines = printed.splitlines()
    assert len(lines) == 3 and all(LINKS.match(line) for line in lines)
    assert [len(line.split()) for line in lines] == [4, 5, 4]  # one link per target token, "." included


def test_a_row_with_bad_gold_is_named_on_one_line_and_kept_without_gold(write_file, capsys):
    pairs = write_file(
        "gold.tsv",
        "source\ttarget\tphenomena\talignment\n"
        "我爱你\tI love you .\t\t0-0 1-1 2-2\n"
        "狗喝水\tThe dog drinks water .\t\t0-1 1~2\n"
        "他很开心\tHe is happy .\t\t0-0 2-2 3-2 9-0\n"
        "我们追猫吗\tDo we chase the cat ?\t\t0-1 1-1 2-2 3-4\n",
    )
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", str(pairs), "--method", "average")
    assert code == 0
    assert err.splitlines()[:2] == [
        f"{pairs}, line 3: the alignment link '1~2' is not in i-j (sure) or i?j (possible) notation, with i a source "
        "and j a target token counted from 0. The pair is kept, without gold links.",
        f"{pairs}, line 4: the alignment link 9-0 names source token 9, but the source has 4 tokens (0 to 3); past "
        "them is padding, which is never linked. The pair is kept, without gold links.",
    ]
    assert "AER on 2 pairs with gold links" in err
    assert len(printed.splitlines()) == 4  # every pair is aligned, with or without gold


def test_an_index_of_thousands_of_digits_is_one_line_and_the_pair_kept(write_file, capsys):
    pairs = write_file("gold.tsv", "source\ttarget\talignment\n我爱你\tI love you .\t0-0 1-" + "9" * 5_000 + "\n")
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", str(pairs), "--method", "average")
    assert code == 0
    (line,) = [line for line in err.splitlines() if "alignment link" in line]
    assert "names target token 99999999999…" in line and "kept, without gold links" in line and len(line) < 400
    assert len(printed.splitlines()) == 1  # the pair is aligned all the same


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--layer", "3", "--head", "1"], "--layer: this model has layers 1 to 2; 3 is not one of them."),
        (["--layer", "1", "--head", "0"], "--head: this model has heads 1 to 4; 0 is not one of them."),
        (["--layer", "1"], "--method attention takes --layer and --head together"),
        (["--method", "saliency", "--layer", "1"], "--method saliency reads the whole model"),
        (["--method", "average", "--head", "2"], "--method average with --head needs --layer too."),
        (["--method", "average", "--layer", "1", "--head", "2"], "--head: the average method does not use a head"),
        (["--method", "glance"], "argument --method: invalid choice: 'glance'"),
        (["--layer", "two"], "argument --layer: invalid int value: 'two'"),
        (["--out", "/nonexistent/links.txt"], "the folder /nonexistent does not exist"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(plain, capsys, flags, words):
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", plain, *flags)
    assert (code, printed) == (2, "")
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err


def test_a_pair_the_model_cannot_read_is_refused_with_one_line(write_file, capsys):
    pairs = write_file("bad.tsv", "我爱你\tI love you .\n狗\t\n")
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", str(pairs), "--method", "saliency")
    assert (code, printed) == (2, "") and err.count("\n") == 1 and "line 2: its source or target is missing" in err


def test_the_table_reads_at_most_max_study_pairs_and_says_so(monkeypatch, capsys):
    monkeypatch.setattr("transformer.cli.align.MAX_STUDY_PAIRS", 5)
    code, printed, err = _run(capsys, "align", "--model", MODEL, "--pairs", str(GOLD_FILE), "--method", "average")
    assert code == 0 and len(printed.splitlines()) == 20  # every pair is aligned
    assert (
        err.splitlines()[0]
        == "AER on the first 5 of the 20 pairs with gold links (0 = every link right, lower is better)"
    )
