"""The architecture diagram, the beam tree and the top-k bars, pinned: every trace, shape, annotation and layout
value the builders set (plotly's template left out), for several models and searches. Written before those builders
were split into smaller functions, so that the split is shown to draw the same figures.

After a deliberate change of a figure: `python -m tests.viz.test_viz_pinned_figures` writes the pins again.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import torch

from tests.conftest import PAIRS20
from tests.transformer.test_trace import PAIR, _translator
from transformer import Translator
from transformer.decoding import beam_search
from transformer.trace import trace_sentence
from viz.decoding import beam_tree_figure, topk_figure
from viz.trace import architecture_figure

PINS = Path(__file__).resolve().parents[1] / "fixtures" / "figure_pins.json"
DIAGRAMS = {  # a model's switches, and the figure's arguments
    "paper": ({}, dict(selected=5, layer=1)),
    "pre-norm, a title": ({"norm": "pre"}, dict(selected=0, title="Inside", encoder_label="编码器")),
    "no residual, no norm": ({"residual": False, "norm": "none"}, dict(selected=12, layer=0, masked=[])),
    "no masks, no positions": ({"look_ahead_mask": False, "pad_mask": False, "pe": "none"}, dict(selected=3)),
}
SEARCHES = {  # seed, output weights, beam size, α, cap; the figure's arguments
    "three beams": ((3, 5, 3, 0.0, 6), dict()),
    "long tokens, α": ((4, 7, 4, 0.6, 6), dict(title="Beam", pruned_label="剪枝", more_label="+{n}")),
    "one beam": ((5, 2, 1, 0.0, 4), dict(best_path=None)),
    "ten steps": ((6, 3, 2, 0.0, 10), dict()),
}


def _drawn(fig) -> dict:
    """What a builder set: the figure as a dict, without plotly's template."""
    drawn = fig.to_plotly_json()
    drawn["layout"] = {k: v for k, v in drawn["layout"].items() if k != "template"}
    return json.loads(json.dumps(drawn, default=str))


def _random(seed: int, weights: int, cap: int) -> Translator:
    """random_translator's model, with room for cap steps."""
    translator = Translator.create(
        list(PAIRS20), seed=seed, max_len=cap + 1, d_model=16, n_heads=2, d_ff=32, n_layers=1
    )
    with torch.no_grad():
        weight = translator.model.projection.weight
        weight.copy_(2 * torch.randn(weight.shape, generator=torch.Generator().manual_seed(weights)))
    return translator


def record() -> dict:
    """Every pinned figure, by name."""
    out = {}
    for name, (switches, args) in DIAGRAMS.items():
        trace = trace_sentence(_translator(**switches), *PAIR)
        labels = [f"{b.kind} {b.side}" for b in trace.blocks]
        fig = architecture_figure(trace.blocks, labels, [b.sizes for b in trace.blocks], n_layers=2, **args)
        out[f"diagram: {name}"] = _drawn(fig)
    for name, ((seed, weights, k, alpha, cap), args) in SEARCHES.items():
        translator = _random(seed, weights, cap)
        enc = translator.encode_source("我喜欢音乐")[0]
        search = beam_search(translator.model, enc, translator.tgt_vocab, k, alpha, cap)
        steps = [  # log-probabilities to 3 decimals: the same figure on any machine
            dataclasses.replace(
                s,
                beam_log_probs=[round(p, 3) for p in s.beam_log_probs],
                candidates=[dataclasses.replace(c, log_prob=round(c.log_prob, 3)) for c in s.candidates],
            )
            for s in search.steps
        ]
        if name == "long tokens, α":
            steps = [
                dataclasses.replace(s, candidates=[dataclasses.replace(c, token=c.token * 9) for c in s.candidates])
                for s in steps
            ]
        best = search.best.tokens + (["E"] if search.best.finished else [])
        out[f"beam tree: {name}"] = _drawn(beam_tree_figure(steps, **{"best_path": best, **args}))
    probs = torch.tensor([0.02, 0.4, 0.05, 0.3, 0.1, 0.08, 0.05])
    itos = ["P", "S", "E", "<unk>", "a rather long token", "猫", "."]
    out["top-k: the chosen among them"] = _drawn(topk_figure(probs, itos, chosen_id=3, k=4, title="Next"))
    out["top-k: the chosen below them"] = _drawn(topk_figure(probs, itos, chosen_id=6, k=3, chosen_label="选"))
    return out


def test_the_architecture_diagram_and_the_beam_tree_are_drawn_as_pinned():
    pinned = json.loads(PINS.read_text(encoding="utf-8"))
    now = record()
    assert pinned.keys() == now.keys()
    for name in pinned:
        assert now[name] == pinned[name], name


if __name__ == "__main__":
    PINS.write_text(json.dumps(record(), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
