"""Every decoding strategy's output, pinned: the token ids exactly and the probabilities, scores and attention
within a tolerance, on the bundled (trained) model and on a small seeded model whose distributions hit the length
cap, part beam search from greedy and spread sampling. Written before the strategies became thin loops over one
step, so that refactoring can be shown to change nothing a page draws.

After a deliberate change of behaviour: `python -m tests.transformer.test_decoding_pinned` writes the pins again.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch

from tests.conftest import PAIRS20, random_translator
from transformer import Translator
from transformer.checkpoint import load_checkpoint
from transformer.decoding import (
    beam_search,
    beam_search_batch,
    beam_vs_greedy,
    forced_decode,
    greedy_batch,
    greedy_decode,
    greedy_hypothesis,
    sample,
    teacher_forcing_vs_free_running,
)

REPO = Path(__file__).resolve().parents[2]
PINS = REPO / "tests" / "fixtures" / "decoding_pins.json"
SOURCES = ["我喜欢猫", "你喜欢音乐吗", "他有一只龙"]  # 龙 is unknown
TOP = 4  # the most probable tokens pinned per distribution
TOLERANCE = 1e-4
SAMPLINGS = [
    (1.0, 0, 1.0, 0),
    (0.5, 4, 0.9, 1),
    (2.0, 0, 0.8, 7),
    (1e-300, 0, 1.0, 2),
    (1e300, 3, 1.0, 3),
]  # T, k, p, seed


def _dist(probs: torch.Tensor) -> dict:
    """A distribution's TOP most probable ids (on a tie the lower id first) and their probabilities."""
    order = torch.sort(probs, descending=True, stable=True).indices[:TOP]
    return {"ids": order.tolist(), "p": [float(probs[i]) for i in order]}


def _attn(maps: list[torch.Tensor]) -> list:
    """Per layer: its shape and, per head, the newest row's weights."""
    return [{"shape": list(a.shape), "last": a[:, -1].tolist()} for a in maps]


def _hyp(h) -> dict:
    return {"tokens": h.tokens, "log_prob": h.log_prob, "score": h.score, "finished": h.finished}


def _translation(result) -> dict:
    steps = [
        {
            "step": s.step,
            "dec_input": s.dec_input,
            "token_id": s.token_id,
            "token": s.token,
            "forced": s.forced,
            "probs": _dist(s.probs),
            "chosen": float(s.probs[s.token_id]),
            "dec_self": _attn(s.dec_self_attns),
            "dec_enc": _attn(s.dec_enc_attns),
        }
        for s in result.steps
    ]
    enc = [{"shape": list(a.shape), "sum": float(a.sum())} for a in result.enc_self_attns]
    return {"tokens": result.tokens, "stop": result.stop_reason, "steps": steps, "enc_self": enc}


def _sample(result) -> dict:
    steps = [
        {
            "dec_input": s.dec_input,
            "token_id": s.token_id,
            "probs": _dist(s.probs),
            "tempered": _dist(s.tempered),
            "final": _dist(s.final),
            "kept": int((s.final > 0).sum()),
        }
        for s in result.steps
    ]
    log_prob = result.log_prob if math.isfinite(result.log_prob) else str(result.log_prob)
    return {"tokens": result.tokens, "stop": result.stop_reason, "log_prob": log_prob, "steps": steps}


def _beam(search) -> dict:
    steps = [
        {
            "beams": s.beams,
            "beam_log_probs": s.beam_log_probs,
            "candidates": [[c.parent, c.token_id, c.log_prob, c.status, c.beam] for c in s.candidates],
        }
        for s in search.steps
    ]
    hyps = [_hyp(h) for h in search.hypotheses]
    return {"hypotheses": hyps, "stop": search.stop_reason, "max_len": search.max_len, "steps": steps}


def _models() -> dict[str, Translator]:
    """The bundled model, trained on the corpus; a seeded one-layer model with large random output weights."""
    return {
        "bundled": load_checkpoint(REPO / "assets" / "model.safetensors"),
        "random": random_translator(list(PAIRS20), seed=3, weights=5),
    }


def record() -> dict:
    """Every strategy's output on every model and source, in a form JSON keeps."""
    out: dict = {}
    for name, translator in _models().items():
        model, vocab = translator.model, translator.tgt_vocab
        sources = SOURCES  # an unknown word is encoded as <unk>: every source works on every model
        batch = translator.make_batch([(s, "") for s in sources]).enc_inputs
        pins: dict = {"translate_all": translator.translate_all(sources)}
        for alpha in (0.0, 0.6):
            pins[f"greedy_batch α={alpha}"] = [_hyp(h) for h in greedy_batch(model, batch, vocab, alpha)]
            for k in (1, 3):
                hyps = beam_search_batch(model, batch, vocab, k, alpha)
                pins[f"beam_search_batch k={k} α={alpha}"] = [_hyp(h) for h in hyps]
            pins[f"beam_vs_greedy α={alpha}"] = [
                [_hyp(r.greedy), _hyp(r.beam)] for r in beam_vs_greedy(model, batch, vocab, 2, alpha, max_len=5)
            ]
        pins["greedy_batch max_len=2"] = [_hyp(h) for h in greedy_batch(model, batch, vocab, max_len=2)]
        for source in sources:
            enc = translator.encode_source(source)[0]
            greedy = greedy_decode(model, enc, vocab)
            pins[f"{source} greedy"] = _translation(greedy)
            pins[f"{source} greedy max_len=2"] = _translation(greedy_decode(model, enc, vocab, max_len=2))
            pins[f"{source} greedy no attention"] = _translation(greedy_decode(model, enc, vocab, return_attn=False))
            pins[f"{source} greedy_hypothesis"] = _hyp(greedy_hypothesis(greedy, 0.6))
            pins[f"{source} forced"] = _translation(forced_decode(model, enc, vocab, [vocab.unk_id]))
            pins[f"{source} forced with E"] = _translation(forced_decode(model, enc, vocab, [5, vocab.eos_id, 6]))
            for settings in (
                (1.0, 0, 1.0, 0),
                (0.5, 4, 0.9, 1),
                (2.0, 0, 0.8, 7),
                (1e-300, 0, 1.0, 2),
                (1e300, 3, 1.0, 3),
            ):
                temperature, top_k, top_p, seed = settings
                drawn = sample(model, enc, vocab, temperature, top_k, top_p, seed, max_len=8)
                pins[f"{source} sample {settings}"] = _sample(drawn)
            for k, alpha, n_best, max_len in ((1, 0.0, None, 12), (3, 0.0, None, 12), (4, 0.6, 2, 12), (3, 1.0, 3, 3)):
                search = beam_search(model, enc, vocab, k, alpha, max_len, n_best)
                pins[f"{source} beam k={k} α={alpha} n={n_best} max_len={max_len}"] = _beam(search)
            reference = translator.tgt_vocab.encode(greedy.tokens[:2] + ["."])[0]
            compared = teacher_forcing_vs_free_running(model, enc, vocab, reference)
            rows = [[r.position, r.reference, r.teacher_prob, r.teacher_choice, r.free_choice] for r in compared.rows]
            pins[f"{source} teacher forcing"] = {
                "rows": rows,
                "free": compared.free_tokens,
                "parted": compared.parted_at,
            }
        out[name] = pins
    return out


def _same(pinned, now, where: str) -> None:
    """Equal JSON values: ints, strings and bools exactly, floats within TOLERANCE."""
    if isinstance(pinned, float) or isinstance(now, float):
        assert isinstance(now, (int, float)) and not isinstance(now, bool), where
        assert now == pytest.approx(pinned, abs=TOLERANCE), where
    elif isinstance(pinned, dict):
        assert isinstance(now, dict) and pinned.keys() == now.keys(), where
        for key in pinned:
            _same(pinned[key], now[key], f"{where} / {key}")
    elif isinstance(pinned, list):
        assert isinstance(now, list) and len(pinned) == len(now), f"{where}: {len(now)} items, pinned {len(pinned)}"
        for i, (a, b) in enumerate(zip(pinned, now)):
            _same(a, b, f"{where} [{i}]")
    else:
        assert now == pinned, where


def test_every_strategy_decodes_as_pinned():
    pinned = json.loads(PINS.read_text(encoding="utf-8"))
    now = json.loads(json.dumps(record()))  # through JSON, as the pins went: tuples become lists
    assert pinned.keys() == now.keys()
    for name in pinned:
        _same(pinned[name], now[name], name)


def test_the_pins_cover_both_stops_and_beam_search_parting_from_greedy():
    pins = json.loads(PINS.read_text(encoding="utf-8"))
    stops = {v["stop"] for m in pins.values() for k, v in m.items() if isinstance(v, dict) and "stop" in v}
    assert stops == {"eos", "max_len", "finished"}
    parted = [pair for m in pins.values() for k, v in m.items() if k.startswith("beam_vs_greedy") for pair in v]
    assert any(g["tokens"] != b["tokens"] for g, b in parted)
    samples = [v for m in pins.values() for k, v in m.items() if " sample " in k]
    assert len({tuple(s["tokens"]) for s in samples}) > len(SOURCES)  # the draws differ, not only the sources


def _rounded(value):
    """value with every float rounded to 6 decimals (the pins are compared within TOLERANCE)."""
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    return value


if __name__ == "__main__":
    PINS.write_text(json.dumps(_rounded(record()), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
