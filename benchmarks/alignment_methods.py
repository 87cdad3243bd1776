"""docs/alignment.md's figures: every method of reading alignment from the bundled model (each head, each layer's
average, value norms, saliency) scored against the hand-checked gold of tests/fixtures/aligned_pairs.tsv, as the
`align` command scores them; then the two forms of gradient × input saliency, the length ‖g ⊙ e‖₂ that
transformer.alignment uses and the dot product Σ_d g_d·e_d, as an absolute value and signed.

    .venv/bin/python benchmarks/alignment_methods.py
"""

from __future__ import annotations

import argparse

import _root  # noqa: F401  (the checkout on sys.path)
import torch

from transformer import alignment
from transformer.alignment import Method, aer_table, align, read_gold, score_links
from transformer.checkpoint import load_checkpoint
from transformer.data import PAD_ID

ROOT = _root.ROOT
GOLD = ROOT / "tests" / "fixtures" / "aligned_pairs.tsv"


def dot_saliency(signed: bool):
    """alignment._saliency with Σ_d g_d·e_d in place of the length (signed, or its absolute value)."""

    def saliency(logits, dec_outputs, embeddings):
        log_p = torch.log_softmax(logits.float(), dim=-1).gather(-1, dec_outputs[..., None])[..., 0]
        real = dec_outputs.ne(PAD_ID)
        rows = []
        for j in range(log_p.size(1)):
            if not real[:, j].any():
                rows.append(torch.zeros(embeddings.shape[:2]))
                continue
            (grad,) = torch.autograd.grad(log_p[:, j][real[:, j]].sum(), embeddings, retain_graph=True)
            dot = (grad * embeddings).sum(-1)
            rows.append(dot if signed else dot.abs())
        return torch.stack(rows, dim=1)

    return saliency


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    torch.set_num_threads(1)
    translator = load_checkpoint(ROOT / "assets" / "model.safetensors")
    rows = [line.split("\t") for line in GOLD.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    pairs, cells = [(r[0], r[1]) for r in rows], [r[2] for r in rows]
    golds, problems = read_gold(pairs, cells, translator.tokenizer)
    assert not problems, problems
    print(f"AER on {len(pairs)} pairs (bundled model), each method:")
    for row in aer_table(translator, pairs, golds):
        m, score = row.method, row.score
        where = f"layer {m.layer + 1}" if m.layer is not None else "whole model"
        head = f" head {m.head + 1}" if m.head is not None else ""
        print(
            f"  {m.name:<9} {where}{head}: AER {score.aer:.3f}",
            f"(precision {score.precision:.2f}, recall {score.recall:.2f})",
        )
    length = alignment._saliency
    forms = {"length ‖g ⊙ e‖": length, "dot product, absolute |Σ g·e|": dot_saliency(False)}
    forms["dot product, signed Σ g·e"] = dot_saliency(True)
    print(f"saliency AER on {len(pairs)} pairs (bundled model):")
    for name, form in forms.items():
        alignment._saliency = form
        try:
            score = score_links(align(translator, pairs, Method("saliency")), golds)
        finally:
            alignment._saliency = length
        print(f"  {name}: AER {score.aer:.3f} (precision {score.precision:.2f}, recall {score.recall:.2f})")


if __name__ == "__main__":
    main()
