"""Opening a Marian model: a tiny random Marian folder (tests/transformer/marian_folder.py) through the command line's
translate, trace, align and evaluate, its tokens equal to MarianTokenizer's ids and its greedy translations to
transformers' generate(num_beams=1); hf:NAME read from a Hugging Face cache laid out by the test, offline; and the
one-line refusals. No test needs the network."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from tests.transformer.marian_folder import SOURCES, TARGETS, hf_greedy, hf_tokenizer, transformers, write_marian_folder
from transformer.__main__ import main
from transformer.data import tokenize
from transformer.decoding.loop import length_cap
from transformer.opening import open_model
from transformer.spm import SentencePiece

REPO = Path(__file__).resolve().parents[2]
SENTENCES = [SOURCES[0], SOURCES[5], "他 喜欢 茶 。"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("marian") / "tiny-marian"
    write_marian_folder(path)
    return path


@pytest.fixture(scope="module")
def translator(folder):
    return open_model(folder)


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_pieces_and_ids_are_marian_tokenizers(translator, folder):
    reference = hf_tokenizer(folder)
    for sentence in [*SOURCES, "☃ 我 喜欢 你"]:  # ☃: a piece the vocabulary lacks, read as <unk>
        enc_input, tokens, unknown = translator.encode_source(sentence)
        assert enc_input[0].tolist() == reference(sentence)["input_ids"]
        assert tokens[-1] == "</s>" and tokens[0].startswith("▁")  # the pieces as the model sees them
    assert translator.encode_source("☃ 我")[2] == ["☃"]
    for target in [*TARGETS, "She reads tea."]:
        batch = translator.make_batch([(SOURCES[0], target)])
        assert batch.dec_outputs[0].tolist() == reference(text_target=target)["input_ids"]  # target + </s>
        assert batch.dec_inputs[0, 0] == translator.tgt_vocab.pad_id  # the decoder starts from <pad>
        ids = reference(text_target=target)["input_ids"]
        assert translator.detokenize(translator.target_tokens(target)) == reference.decode(
            ids, skip_special_tokens=True
        )


def test_specials_are_marians_not_the_projects(translator):
    vocab = translator.tgt_vocab
    assert (vocab.itos[vocab.eos_id], vocab.itos[vocab.unk_id], vocab.itos[vocab.pad_id]) == ("</s>", "<unk>", "<pad>")
    assert vocab.eos_id == 0 and vocab.pad_id == vocab.bos_id == len(vocab) - 1
    with pytest.raises(Exception, match="empty"):
        translator.encode_source("   ")


def test_a_sentencepiece_tokenizer_is_told_its_side(translator):
    with pytest.raises(ValueError, match="source"):
        translator.tokenizer.split("I love you.")


def test_a_sentencepiece_tokenizer_pickles_as_its_bytes(translator):
    import pickle

    copy = pickle.loads(pickle.dumps(translator.tokenizer))
    assert isinstance(copy, SentencePiece)
    assert copy.split(SOURCES[1], "source") == translator.tokenizer.split(SOURCES[1], "source")


def test_translate_equals_transformers_greedy_generate(folder, translator, capsys):
    code, out, err = _run(capsys, "translate", "--model", folder, *SENTENCES)
    assert code == 0, err
    cap = length_cap(translator.model, 50)
    expected = []
    for sentence in SENTENCES:
        ids = hf_greedy(folder, sentence, cap)
        ended = ids[-1:] == [translator.tgt_vocab.eos_id]
        expected.append(translator.detokenize(translator.tgt_vocab.decode(ids[:-1] if ended else ids)))
        ours = translator.translate(sentence, return_attn=False)
        assert translator.tgt_vocab.encode(ours.tokens)[0] + [0] * (ours.stop_reason == "eos") == ids
    assert out.splitlines() == expected


def test_translate_steps_and_beam_run_on_marian(folder, capsys):
    code, out, err = _run(capsys, "translate", "--model", folder, "--steps", "--beam", "3", "--n-best", "2", SOURCES[0])
    assert code == 0, err
    assert out.splitlines()[0] == "score\tlog-prob\ttranslation" and "stopped:" in out
    code, out, err = _run(capsys, "translate", "--model", folder, "--sample", "--seed", "3", "--steps", SOURCES[0])
    assert code == 0, err
    assert "step 1: <pad> →" in out  # the decoder's first input is Marian's <pad>


def test_trace_loss_equals_transformers_loss(folder, translator, capsys, tmp_path):
    code, out, err = _run(
        capsys, "trace", "--model", folder, SOURCES[2], "--target", TARGETS[2], "--json", tmp_path / "t.json"
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].endswith("</s>") and lines[1].split()[1] == "<pad>" and lines[2].endswith("</s>")
    loss = float(next(line for line in lines if line.startswith("loss = ")).split("=")[1])
    reference = hf_tokenizer(folder)
    model = transformers.MarianMTModel.from_pretrained(folder).eval()
    batch = reference(SOURCES[2], text_target=TARGETS[2], return_tensors="pt")
    with torch.no_grad():
        expected = float(model(**batch).loss)
    assert loss == pytest.approx(expected, abs=1e-3)  # printed to 4 decimals
    assert json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["dec_tokens"][0] == "<pad>"


def test_trace_with_padding_counts_only_the_real_targets(translator):
    from transformer.trace import trace_sentence

    plain = trace_sentence(translator, SOURCES[2], TARGETS[2])
    padded = trace_sentence(translator, SOURCES[2], TARGETS[2], src_pad=2, tgt_pad=3)
    assert padded.loss == pytest.approx(plain.loss, abs=1e-5)  # padding changes nothing the model reads
    rows = padded.loss_rows()
    assert [r.padded for r in rows] == [False] * (len(rows) - 3) + [True] * 3
    assert not rows[0].padded and rows[0].dec_input == "<pad>"  # the start is read, though it is <pad>


def _pairs_file(tmp_path: Path, gold: bool = False) -> Path:
    path = tmp_path / "pairs.tsv"
    rows = [f"{s}\t{t}" + ("\t\t0-1 1-2" if gold else "") for s, t in zip(SOURCES[:4], TARGETS[:4])]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_align_reads_links_and_aer_of_every_head(folder, translator, capsys, tmp_path):
    code, out, err = _run(capsys, "align", "--model", folder, "--pairs", _pairs_file(tmp_path, gold=True))
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 4
    for line, t in zip(lines, TARGETS):
        words = tokenize(t, "auto")  # the file's own tokens: gold links index words, whatever the pieces
        links = [tuple(map(int, link.split("-"))) for link in line.split()]
        source_words = tokenize(SOURCES[TARGETS.index(t)], "auto")
        assert links and {j for _, j in links} <= set(range(len(words)))  # a word whose pieces look at </s>: none
        assert {i for i, _ in links} <= set(range(len(source_words)))  # </s> is no word of the file
    assert "AER on 4 pairs" in err and "head 2" in err


def test_evaluate_scores_the_pairs(folder, translator, capsys, tmp_path):
    code, out, err = _run(capsys, "evaluate", "--model", folder, "--pairs", _pairs_file(tmp_path))
    assert code == 0, err
    assert out.startswith("4 pairs, scored as one part")
    evaluation = translator.evaluate(list(zip(SOURCES[:4], TARGETS[:4])))
    assert 0.0 <= evaluation.token_accuracy <= 1.0 and math.isfinite(evaluation.loss)
    assert evaluation.total == 4


def test_heads_read_the_start_token_as_the_start(translator):
    from transformer.heads import study_heads

    study = study_heads(translator, list(zip(SOURCES[:3], TARGETS[:3])))
    for stats in study.stats["dec_self"]:
        assert stats.on_S > 0.0  # the first query sees only the start: it is not taken for padding
        assert stats.padding == pytest.approx(0.0, abs=1e-6)


# ---------------------------------------------------------------- hf:NAME through the Hugging Face cache, offline


def _hub_cache(root: Path, folder: Path, name: str = "tiny-org/tiny-marian") -> Path:
    """A Hugging Face cache under root holding folder's files as the hub lays out a download of name."""
    revision = "0123456789abcdef0123456789abcdef01234567"
    repo = root / "hub" / f"models--{name.replace('/', '--')}"
    shutil.copytree(folder, repo / "snapshots" / revision)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(revision)
    return root / "hub"


def _cli(root: Path, *argv) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    env |= {"HF_HUB_OFFLINE": "1", "HF_HOME": str(root / "home"), "HF_HUB_CACHE": str(root / "hub")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "transformer", *map(str, argv)], capture_output=True, text=True, env=env, timeout=300
    )


def test_hf_name_opens_from_the_cache_offline_and_the_runtime_needs_no_transformers(folder, tmp_path, capsys):
    _hub_cache(tmp_path, folder)
    done = _cli(tmp_path, "translate", "--model", "hf:tiny-org/tiny-marian", *SENTENCES[:2])
    assert done.returncode == 0, done.stderr
    assert done.stdout == _run(capsys, "translate", "--model", folder, *SENTENCES[:2])[1]  # the same model
    code = f"import sys; from transformer.opening import open_model; open_model({str(folder)!r}).translate('我'); "
    code += "print('transformers' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert loaded.stdout.strip() == "False", loaded.stderr


def test_a_name_not_in_the_cache_offline_is_one_line_that_names_the_folder(folder, tmp_path):
    _hub_cache(tmp_path, folder)
    done = _cli(tmp_path, "translate", "--model", "hf:tiny-org/not-there", "我")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "not in the Hugging Face cache" in done.stderr and "Marian folder" in done.stderr


@pytest.mark.parametrize("name", ["not a name", "a/b/c", "", "x" * 300])
def test_a_malformed_hub_name_is_one_line(capsys, name):
    code, out, err = _run(capsys, "translate", "--model", f"hf:{name}", "我")
    assert code == 2 and err.count("\n") == 1 and "ORG/NAME" in err


# ---------------------------------------------------------------- one-line refusals of a folder


def _copy(folder: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    return copy


def test_another_architecture_is_one_line(folder, tmp_path, capsys):
    copy = _copy(folder, tmp_path)
    config = json.loads((copy / "config.json").read_text())
    (copy / "config.json").write_text(json.dumps(config | {"model_type": "bert", "architectures": ["BertModel"]}))
    code, out, err = _run(capsys, "translate", "--model", copy, "我")
    assert code == 2 and err.count("\n") == 1 and "not a Marian translator" in err


def test_a_model_over_the_parameter_limit_is_one_line(folder, tmp_path, capsys):
    copy = _copy(folder, tmp_path)
    config = json.loads((copy / "config.json").read_text())
    bigger = {"vocab_size": 250_000, "decoder_vocab_size": 250_000, "d_model": 1024, "encoder_layers": 12}
    bigger |= {"decoder_layers": 12, "encoder_ffn_dim": 4096, "decoder_ffn_dim": 4096}  # some 600M parameters
    (copy / "config.json").write_text(json.dumps(config | bigger))
    code, out, err = _run(capsys, "trace", "--model", copy, "我")
    assert code == 2 and err.count("\n") == 1 and "parameters" in err


@pytest.mark.parametrize("missing", ["vocab.json", "source.spm"])
def test_a_folder_without_its_tokenizer_is_one_line(folder, tmp_path, capsys, missing):
    copy = _copy(folder, tmp_path)
    (copy / missing).unlink()
    code, out, err = _run(capsys, "align", "--model", copy, "--pairs", _pairs_file(tmp_path))
    assert code == 2 and err.count("\n") == 1 and missing in err and "save_pretrained" in err


def test_a_damaged_sentencepiece_model_is_one_line(folder, tmp_path, capsys):
    copy = _copy(folder, tmp_path)
    (copy / "target.spm").write_bytes(b"not a model")
    code, out, err = _run(capsys, "evaluate", "--model", copy, "--pairs", _pairs_file(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "target SentencePiece model" in err


def test_a_marian_translator_crosses_to_a_job_with_its_specials_and_pieces(translator):
    from jobs.worker import pack, unpack

    copy = unpack(pack(translator))
    assert copy.tgt_vocab.specials == translator.tgt_vocab.specials and copy.tgt_vocab.pad_id == translator.pad_id
    assert copy.translate(SOURCES[0], return_attn=False).tokens == translator.translate(SOURCES[0]).tokens


def test_marians_vocabulary_reads_p_s_e_as_pieces_and_the_projects_still_reserves_them():
    from transformer.data import Vocab
    from transformer.spm import marian_vocab

    marian = marian_vocab({"</s>": 0, "<unk>": 1, "E": 2, "S": 3, "▁P": 4, "<pad>": 5}, pad_id=5, eos_id=0)
    assert marian.encode(["E", "S", "▁P", "☃"]) == ([2, 3, 4, 1], ["☃"])
    assert (marian.pad_id, marian.bos_id, marian.eos_id, marian.unk_id) == (5, 5, 0, 1)
    ours = Vocab(("P", "S", "E", "<unk>", "I"))
    assert ours.encode(["E", "I"]) == ([3, 4], ["E"])  # typed as a word, E is an unknown word, as before
    assert (ours.pad_id, ours.bos_id, ours.eos_id, ours.unk_id) == (0, 1, 2, 3)


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"</s>": 0, "<unk>": 2, "<pad>": 3}, "without gaps"),
        ({"</s>": 0, "<pad>": 1}, "<unk>"),
        (["</s>"], "one object"),
    ],
)
def test_a_bad_vocab_json_is_refused_with_what_is_wrong(mapping, message):
    from transformer.errors import DataError
    from transformer.spm import marian_vocab

    with pytest.raises(DataError, match=message):
        marian_vocab(mapping, pad_id=len(mapping) - 1, eos_id=0)
