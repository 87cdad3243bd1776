"""The decoding package's own promises: P and S are never outputs of any strategy, a forced decode with nothing
forced is greedy decoding, and the package's modules import one way only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import torch

from transformer import Translator
from transformer.checkpoint import load_checkpoint
from transformer.data import PAD
from transformer.decoding import (
    beam_search,
    beam_search_batch,
    blocked_ids,
    forced_decode,
    greedy_batch,
    greedy_decode,
    output_ids,
    sample,
    teacher_forcing_vs_free_running,
)

REPO = Path(__file__).resolve().parents[2]
TINY = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 1}
SENTENCES = ["我吃饭", "你追她吗", "猫喜欢我"]


@pytest.fixture
def wants_p_and_s(pairs20) -> Translator:
    """An untrained model whose projection gives P and S a logit 1000 above every other token."""
    translator = Translator.create(pairs20, seed=1, max_len=7, **TINY)
    never = blocked_ids(translator.tgt_vocab)

    def favour(module, inputs, logits):
        logits = logits.clone()
        logits[..., never] += 1000.0
        return logits

    translator.model.projection.register_forward_hook(favour)
    return translator


def test_p_and_s_are_the_blocked_ids(pairs20):
    vocab = Translator.create(pairs20, **TINY).tgt_vocab
    assert blocked_ids(vocab) == [vocab.stoi[PAD], vocab.bos_id]
    assert output_ids([vocab.stoi[PAD], vocab.bos_id, vocab.eos_id, len(vocab), -1, "3", 3], vocab) == [vocab.eos_id, 3]


def test_no_strategy_ever_outputs_p_or_s_even_when_the_model_wants_them(wants_p_and_s):
    model, vocab = wants_p_and_s.model, wants_p_and_s.tgt_vocab
    never = {vocab.itos[i] for i in blocked_ids(vocab)}
    encs = [wants_p_and_s.encode_source(s)[0] for s in SENTENCES]
    batch = wants_p_and_s.make_batch([(s, "") for s in SENTENCES]).enc_inputs  # (B, Ls)
    outputs: list[list[str]] = []
    for enc in encs:
        for result in (greedy_decode(model, enc, vocab), forced_decode(model, enc, vocab, [vocab.unk_id])):
            outputs.append(result.tokens)
            assert all(float(step.probs[list(blocked_ids(vocab))].sum()) == 0 for step in result.steps)
            assert not never & {step.token for step in result.steps}
        search = beam_search(model, enc, vocab, beam_size=3)
        outputs += [h.tokens for h in search.hypotheses]
        assert not never & {c.token for step in search.steps for c in step.candidates}
        for temperature in (0.5, 1.0, 1e300):
            drawn = sample(model, enc, vocab, temperature=temperature, seed=3)
            outputs.append(drawn.tokens)
            assert all(float(step.final[list(blocked_ids(vocab))].sum()) == 0 for step in drawn.steps)
        teacher = teacher_forcing_vs_free_running(model, enc, vocab, [vocab.unk_id])
        assert not never & ({row.teacher_choice for row in teacher.rows} | {row.free_choice for row in teacher.rows})
    outputs += [h.tokens for h in greedy_batch(model, batch, vocab)]
    outputs += [h.tokens for h in beam_search_batch(model, batch, vocab, 3)]
    assert outputs and not never & {token for tokens in outputs for token in tokens}


def test_a_forced_decode_with_nothing_forced_is_greedy_decoding():
    bundled = load_checkpoint(REPO / "assets" / "model.safetensors")
    for sentence in SENTENCES:
        enc = bundled.encode_source(sentence)[0]
        greedy = greedy_decode(bundled.model, enc, bundled.tgt_vocab)
        forced = forced_decode(bundled.model, enc, bundled.tgt_vocab, [])
        assert forced.tokens == greedy.tokens and forced.stop_reason == greedy.stop_reason
        assert len(forced.steps) == len(greedy.steps)
        for a, b in zip(forced.steps, greedy.steps):
            assert (a.token_id, a.dec_input, a.forced) == (b.token_id, b.dec_input, False)
            assert torch.equal(a.probs, b.probs)
            assert all(torch.equal(x, y) for x, y in zip(a.dec_enc_attns, b.dec_enc_attns))


def _package_imports() -> dict[str, set[str]]:
    """Each module of transformer/decoding and the package modules it imports (from .x import …)."""
    graph = {}
    for path in (REPO / "transformer" / "decoding").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module}
        graph[path.stem] = found
    return graph


def test_the_decoding_modules_import_in_the_order_docs_architecture_states():
    architecture = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    sentence = re.search(r"Imports inside `transformer/decoding/` go one way, in this order: ([^;]+);", architecture)
    order = re.findall(r"`(\w+)`", sentence.group(1))
    graph = {module: imported for module, imported in _package_imports().items() if module != "__init__"}
    assert sorted(order) == sorted(graph)  # every module named once
    for module, imported in graph.items():
        before = set(order[: order.index(module)])
        assert imported <= before, f"{module} imports {sorted(imported - before)}, named after it"


def test_the_decoding_modules_import_one_way():
    graph = _package_imports()
    assert not graph["greedy"] & {"beam", "sampling", "compare"}  # beam imports greedy, never the other way round
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"an import cycle: {' → '.join((*path, module))}"
        if module not in done:
            for imported in graph.get(module, ()):
                visit(imported, (*path, module))
            done.add(module)

    for module in graph:
        visit(module, ())
