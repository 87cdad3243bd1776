"""docs/embeddings.md's table: on the bundled model, for each embedding table (source, target), the tokens with a
word class, how many sit next to a token of their own class, the share shuffled classes give, in how many of the
shuffles the share is as high, the class most often next to itself, and the share of the spread the picture's two
principal components keep (transformer.embeddings, as the Positional encoding page shows it).

    .venv/bin/python benchmarks/embeddings_table.py
"""

from __future__ import annotations

import argparse

import _root
import torch

from transformer.checkpoint import load_checkpoint
from transformer.embeddings import SHUFFLES, study_embeddings


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    torch.set_num_threads(1)
    translator = load_checkpoint(_root.ROOT / "assets" / "model.safetensors")
    for side in ("source", "target"):
        study = study_embeddings(translator, side)
        s = study.separation
        kept = sum(study.projection.explained)
        if s is None:
            print(f"{side}: too few classes to tell; the picture keeps {kept:.0%}")
            continue
        best = f"{s.best[0]} best: {s.best[1]} of {s.best[2]}" if s.best else "no class of 3 or more"
        print(
            f"{side}: {s.tokens} tokens with a class, {s.agree} ({s.agree / s.tokens:.0%}) next to their own class, "
            f"shuffled classes {s.chance:.0%}, {s.reached} of {SHUFFLES:,} shuffles as good ({best}); "
            f"verdict: {s.verdict}; the picture keeps {kept:.0%}"
        )


if __name__ == "__main__":
    main()
