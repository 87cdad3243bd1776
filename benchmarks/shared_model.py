"""Memory per extra tab (issue 40 §6): before, each tab deep-copied the bundled model; now tabs share one copy.

For the bundled model and for a model of 262 MB of weights (d_model 512, 6 + 6 layers, 16,000-token vocabularies),
it opens TABS tabs' models through ui.model_cache in a fresh process, each way, and prints the process's resident
memory (RSS) after the first tab and per extra tab:

    copy    each tab a copy.deepcopy of the loaded model (the code before)
    shared  each tab the one read-only copy (bundled_model, shared_translator)

    .venv/bin/python benchmarks/shared_model.py
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from _root import ROOT

TABS = 5
LARGE = dict(d_model=512, n_heads=8, d_ff=2048, n_layers=6)
LARGE_VOCAB = 16_000


def rss_mb() -> float:
    """This process's resident memory in MB."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def one_run(model: str, mode: str) -> dict:
    """In this process: TABS tabs' models opened one way; RSS after the first and after the last."""
    import copy
    import warnings

    import torch

    warnings.filterwarnings("ignore")  # st.cache_resource outside a running app says so
    torch.set_num_threads(1)
    from transformer import Translator
    from transformer.config import TransformerConfig
    from transformer.data import Vocab
    from transformer.model import Transformer
    from ui.model_cache import _bundled_translator, bundled_model, shared_translator

    if model == "bundled":
        loaded = _bundled_translator

        def open_tab():
            return bundled_model().translator if mode == "shared" else copy.deepcopy(_bundled_translator())
    else:
        vocab = Vocab(("P", "S", "E", "<unk>", *(f"w{i}" for i in range(LARGE_VOCAB - 4))))
        cfg = TransformerConfig(src_vocab_size=LARGE_VOCAB, tgt_vocab_size=LARGE_VOCAB, **LARGE)
        big = Translator(Transformer(cfg), vocab, vocab)

        def loaded():
            return shared_translator(("benchmark", "large"), lambda: big)

        def open_tab():
            return loaded() if mode == "shared" else copy.deepcopy(loaded())

    loaded()
    base = rss_mb()
    tabs = [open_tab()]
    first = rss_mb()
    tabs += [open_tab() for _ in range(TABS - 1)]
    last = rss_mb()
    weights = sum(p.numel() * p.element_size() for p in tabs[0].model.parameters()) / 2**20
    return {"weights_mb": weights, "first_tab_mb": first - base, "per_extra_tab_mb": (last - first) / (TABS - 1)}


def main() -> None:
    """Each model and mode in a fresh process; one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", nargs="?", help="one run in this process (what the script runs in its children)")
    parser.add_argument("mode", nargs="?")
    args = parser.parse_args()
    if args.mode:
        print(json.dumps(one_run(args.model, args.mode)))
        return
    print(f"resident memory (RSS) per tab, {TABS} tabs")
    for model in ("bundled", "large"):
        for mode in ("copy", "shared"):
            cmd = [sys.executable, __file__, model, mode]
            out = json.loads(subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout)
            print(
                f"{model:<8} weights {out['weights_mb']:6.1f} MB  {mode:<6} first tab {out['first_tab_mb']:6.1f} MB"
                f"  each extra tab {out['per_extra_tab_mb']:6.1f} MB"
            )


if __name__ == "__main__":
    main()
