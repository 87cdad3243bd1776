"""A training on a loaded file's pairs measures its alignment on the file's own gold (issue 30 §4 and §7): the file's
links of the training pairs, spread as the corpus's are, reach the training's process and each epoch's record."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading

import torch

from jobs.worker import RunSpec, child_main
from tests.conftest import TINY
from transformer import TrainConfig
from transformer.alignment import ALIGN_PAIRS, parse_links
from transformer.plan import TrainingPlan
from ui.gold import FileGold
from ui.training import file_training_gold

FILE_PAIRS = [("谢谢你", "Thank you ."), ("我很好", "I am fine ."), ("你好", "Hello .")]  # none the corpus's
GOLDS = {FILE_PAIRS[0]: parse_links("0-0 1-0 2-1", 3, 3), FILE_PAIRS[1]: parse_links("0-0 1?1 2-2", 3, 4)}


def _plan(pairs, tokenizer="auto") -> TrainingPlan:
    return TrainingPlan.from_rows(pairs, [], tokenizer, TINY, TrainConfig(epochs=2, batch_size=4, threads=1))


def test_the_files_gold_of_the_training_pairs_is_spread_and_none_without_a_file():
    found = FileGold("mine.tsv", GOLDS, 3, [])
    assert file_training_gold(found, _plan(FILE_PAIRS)) == [(p, GOLDS[p]) for p in FILE_PAIRS[:2]]
    many = {(f"{i}", "x"): GOLDS[FILE_PAIRS[0]] for i in range(200)}
    picked = file_training_gold(FileGold("big.tsv", many, 200, []), _plan(list(many)))
    assert len(picked) == ALIGN_PAIRS and picked[0][0] == ("0", "x") and picked[-1][0] == ("199", "x")
    assert file_training_gold(None, _plan(FILE_PAIRS)) is None  # no alignment column: the corpus's own, if any
    # links of words, so a model of pieces is measured on them too (before: None under a learned tokenizer)
    assert file_training_gold(found, _plan(FILE_PAIRS, "bpe")) == [(p, GOLDS[p]) for p in FILE_PAIRS[:2]]


def _records(spec: RunSpec) -> list:
    """The epoch records a training process sends for spec, run here (its pipe read as the job's thread reads it)."""
    server, child = multiprocessing.Pipe()
    threads, niceness = torch.get_num_threads(), os.getpriority(os.PRIO_PROCESS, 0)  # child_main sets both: kept
    worker = threading.Thread(target=child_main, args=(child, [spec], 1, niceness))
    worker.start()
    records = []
    while True:
        message = pickle.loads(server.recv_bytes())
        if message[0] == "epoch":
            records.append(message[2])
        if message[0] in ("done", "failed"):
            break
    worker.join()
    torch.set_num_threads(threads)
    return records


def test_the_training_process_measures_each_epoch_on_the_gold_it_is_given():
    plan = _plan(FILE_PAIRS)
    given = RunSpec(
        plan, plan.train_pairs, plan.config, [], 0, [], gold=file_training_gold(FileGold("f", GOLDS, 3, []), plan)
    )
    assert [r.aer is not None for r in _records(given)] == [True, True]
    alone = RunSpec(plan, plan.train_pairs, plan.config, [], 0, [])  # no file: the corpus has none of these pairs
    assert [r.aer for r in _records(alone)] == [None, None]
