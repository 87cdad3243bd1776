"""Fine-tuning (issue 40 §5): a plan that goes on from a model that exists (TrainingPlan.continuing), `train --from`
on the command line, and the model crossing to a job's process as weight bytes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from jobs.worker import RunSpec, _model, crossing
from tests.conftest import TINY
from transformer import TrainConfig, Translator
from transformer.__main__ import main
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.data import parse_pairs
from transformer.plan import TrainingPlan
from transformer.splits import split_pairs

REPO = Path(__file__).parents[2]
PAIRS = parse_pairs((REPO / "assets" / "pairs.tsv").read_bytes())
NEW = [("我 喜 欢 斑 马", "I like zebras ."), ("斑 马 很 好", "zebras are good .")]  # 斑, 马, zebras: not in it


@pytest.fixture(scope="module")
def base() -> Translator:
    """A tiny model trained a little on the bundled pairs, shared read-only as the app's tabs share one."""
    plan = TrainingPlan.from_rows(PAIRS, [], sizes=TINY, config=TrainConfig(epochs=3, seed=1))
    translator = plan.build()
    for _ in plan.train(translator):
        pass
    return translator.share()


def _weights(translator: Translator) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in translator.model.state_dict().items()}


def test_a_plan_from_an_existing_translator_changes_its_own_copy_and_keeps_vocabularies_and_sizes(base):
    before = _weights(base)
    split = split_pairs(PAIRS + NEW, "random", 0.2, 0, base.tokenizer)
    plan = TrainingPlan.continuing(base, PAIRS + NEW, split, 0.2, TrainConfig(epochs=2, lr=1e-2))
    assert plan.fine_tuning and plan.model_config() == base.config and plan.vocabs() == (base.src_vocab, base.tgt_vocab)
    assert plan.unknown_tokens() == (4, 2)  # 斑 马 twice each in the sources; zebras twice in the targets
    assert plan.oversized() is None
    tuned = plan.build()
    assert tuned.model is not base.model and not tuned.model.read_only and tuned.summary.epochs == 0
    was = plan.before(tuned)
    assert was.part == "holdout" and was.scores.pairs == len(plan.held_pairs) and was.after(tuned) is None
    records = list(plan.train(tuned))
    assert [r.epoch for r in records] == [1, 2]  # its own history, begun anew
    plan.finish(tuned)
    after = was.after(tuned)
    assert after is not None and after.pairs == was.scores.pairs and 0 <= after.bleu <= 100
    changed = [k for k, v in _weights(tuned).items() if not torch.equal(v, before[k])]
    assert changed  # trained
    assert all(torch.equal(v, before[k]) for k, v in _weights(base).items())  # the shared model is untouched
    assert tuned.src_vocab.itos == base.src_vocab.itos and tuned.tgt_vocab.itos == base.tgt_vocab.itos
    assert tuned.config == base.config and tuned.tokenizer == base.tokenizer


def test_a_fine_tuning_crosses_to_a_jobs_process_as_bytes_and_is_the_same_model_there(base):
    plan = TrainingPlan.continuing(base, PAIRS, None, 0.0, TrainConfig(epochs=1))
    crossed = crossing(plan)
    assert isinstance(crossed.base, dict) and isinstance(crossed.base["weights"], bytes)
    assert not any(isinstance(v, torch.Tensor | torch.nn.Module) for v in crossed.base.values())
    there = _model(RunSpec(crossed, plan.train_pairs, plan.config, [], 0, []))
    assert there.summary.epochs == 0 and not there.model.read_only
    assert all(torch.equal(v, base.model.state_dict()[k]) for k, v in there.model.state_dict().items())
    assert there.src_vocab.itos == base.src_vocab.itos


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.slow  # a training of seconds, or a Marian folder built
def test_train_from_a_checkpoint_prints_before_and_after_and_saves_a_model_with_its_vocabularies(
    base, tmp_path, capsys
):
    model, pairs, out_path = tmp_path / "base.safetensors", tmp_path / "pairs.tsv", tmp_path / "tuned.safetensors"
    save_checkpoint(base, model)
    pairs.write_text("".join(f"{s}\t{t}\n" for s, t in PAIRS + NEW), encoding="utf-8")
    argv = ["train", "--from", str(model), "--pairs", str(pairs), "--out", str(out_path), "--epochs", "2"]
    code, out, err = _run(capsys, *argv, "--holdout", "0.2", "--lr", "0.01")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"training {model} further: 42 pairs (+10 held out), ")
    assert lines[0].endswith(": 4 source and 2 target tokens of the pairs are not in them and are read as unknown")
    (before,) = [line for line in lines if line.startswith("before: held out: exact match ")]
    (after,) = [line for line in lines if line.startswith("after: held out: exact match ")]
    assert re.fullmatch(r"before: held out: exact match [\d.]+% \(\d+/10\), BLEU [\d.]+, chrF [\d.]+", before)
    assert after.endswith(f"(before: {before.removeprefix('before: held out: ')})")
    assert lines.index(before) < lines.index(after) and lines[-1] == f"saved {out_path}"
    saved = load_checkpoint(out_path)
    assert saved.src_vocab.itos == base.src_vocab.itos and saved.tgt_vocab.itos == base.tgt_vocab.itos
    assert saved.config == base.config and saved.summary.epochs == 2
    assert saved.summary.scores is not None and saved.summary.holdout_exact_match is not None


def test_train_from_refuses_flags_that_would_reshape_the_model_in_one_line(base, tmp_path, capsys):
    model, out_path = tmp_path / "base.safetensors", tmp_path / "tuned.safetensors"
    save_checkpoint(base, model)
    pairs = REPO / "assets" / "pairs.tsv"
    argv = ["train", "--from", str(model), "--pairs", str(pairs), "--out", str(out_path)]
    code, out, err = _run(capsys, *argv, "--d-model", "32", "--tokenizer", "char", "--no-residual")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error: --d-model, --tokenizer, --no-residual: a model trained further with --from keeps")
    assert not out_path.exists()


@pytest.mark.slow  # a training of seconds, or a Marian folder built
def test_train_from_a_marian_folder_saves_a_marian_folder_that_opens_again_with_its_vocabulary(tmp_path, capsys):
    pytest.importorskip("transformers")
    from tests.transformer.marian_folder import SOURCES, TARGETS, write_marian_folder
    from transformer.opening import open_model

    folder, out_folder, pairs = tmp_path / "tiny-marian", tmp_path / "tuned", tmp_path / "pairs.tsv"
    write_marian_folder(folder)
    pairs.write_text("".join(f"{s}\t{t}\n" for s, t in zip(SOURCES, TARGETS)), encoding="utf-8")
    argv = ["train", "--from", str(folder), "--pairs", str(pairs), "--out", str(out_folder), "--epochs", "3"]
    code, out, err = _run(capsys, *argv, "--holdout", "0.25", "--lr", "0.003")
    assert code == 0, err
    assert out.startswith(f"training {folder} further: 6 pairs (+2 held out), ")
    assert re.search(r"^before: held out: exact match [\d.]+% \(\d/2\), BLEU [\d.]+, chrF [\d.]+$", out, re.M)
    assert re.search(r"^after: held out: exact match [\d.]+% \(\d/2\), BLEU [\d.]+, chrF [\d.]+ \(before: ", out, re.M)
    assert out.endswith(f"saved {out_folder}\n")
    base, tuned = open_model(folder), open_model(out_folder)
    assert tuned.src_vocab.itos == base.src_vocab.itos and tuned.config == base.config
    changed = [k for k, v in tuned.model.state_dict().items() if not torch.equal(v, base.model.state_dict()[k])]
    assert changed
    assert sorted(p.name for p in out_folder.iterdir()) == sorted(p.name for p in folder.iterdir())
    # Hugging Face opens the folder too, and computes the same logits as the project's model of it
    transformers = pytest.importorskip("transformers")
    reference = transformers.MarianMTModel.from_pretrained(out_folder).eval()
    enc = torch.tensor([[3, 4, 5, 0]])
    dec = torch.tensor([[reference.config.decoder_start_token_id, 6, 7]])
    with torch.no_grad():
        theirs = reference(input_ids=enc, decoder_input_ids=dec).logits
        ours, _ = tuned.model(enc, dec)
    assert torch.allclose(ours, theirs, atol=1e-4)


@pytest.mark.slow  # a training of seconds, or a Marian folder built
def test_train_from_a_marian_folder_refuses_an_out_that_exists_before_training(tmp_path, capsys):
    pytest.importorskip("transformers")
    from tests.transformer.marian_folder import write_marian_folder

    folder = tmp_path / "tiny-marian"
    write_marian_folder(folder)
    capsys.readouterr()  # what writing the folder printed
    pairs = REPO / "assets" / "pairs.tsv"
    code, out, err = _run(capsys, "train", "--from", str(folder), "--pairs", str(pairs), "--out", str(pairs))
    assert code == 2 and out == "" and err.count("\n") == 1 and "is saved as a new folder" in err
