"""Whether BPE leaves letters unknown and glues punctuation to Chinese words (issue 41), on the everyday Tatoeba-format
pairs (tests/fixtures/everyday_cmn_eng.txt) and on the bundled data (the corpus as the Data page offers it: the
grammar's 2,000 pairs and the tutorial pairs of assets/pairs.tsv).

Each dataset is split as the Train page splits it (10 % held out at random, seed 0), a BPE of the default size is
learned from the training pairs and the model's vocabularies are built from them, as a training does. It prints:

- the training characters that cannot be written: a character of one side's training pairs that, alone or in any
  two-character word with another of that side's characters, has a piece its side's vocabulary lacks (read as <unk>);
- the held-out reference pieces the model cannot write (the Train page's list) and the held-out source pieces;
- the Chinese pieces with punctuation glued on (a piece holding a punctuation mark and a character that is not one,
  ▁ aside) over every Chinese sentence of the dataset, and the Chinese sentences whose first piece is a lone ▁.

    .venv/bin/python benchmarks/bpe_coverage.py                      # this checkout
    .venv/bin/python benchmarks/bpe_coverage.py --checkout ../main   # another checkout's package (before a change)
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections import Counter
from pathlib import Path

from _root import ROOT

MARK = "\u2581"
HOLDOUT = 0.1


def glued(piece: str) -> bool:
    """Whether a piece holds a punctuation mark and a character that is not one (▁ and a leading ## aside)."""
    chars = piece.replace(MARK, "").removeprefix("##")
    marks = [unicodedata.category(ch).startswith("P") for ch in chars]
    return any(marks) and not all(marks)


def _few(items: list[str], n: int = 10) -> str:
    return " ".join(items[:n]) + (" …" if len(items) > n else "")


def datasets(root: Path) -> dict[str, tuple[list[tuple[str, str]], int]]:
    """Each dataset's (source, target) pairs and which side is Chinese."""
    from transformer import corpus
    from transformer.data import parse_pairs

    lines = (root / "tests" / "fixtures" / "everyday_cmn_eng.txt").read_text(encoding="utf-8").splitlines()
    everyday = [tuple(line.split("\t")[1::-1]) for line in lines if line]  # Chinese → English
    bundled = parse_pairs((root / "assets" / "pairs.tsv").read_bytes(), "pairs.tsv")
    grammar = [(p.source, p.target) for p in corpus.generate(corpus.DEFAULT_SIZE, corpus.DEFAULT_SEED)]
    have = set(grammar)
    return {"everyday_cmn_eng.txt": (everyday, 0), "bundled data": (grammar + [p for p in bundled if p not in have], 0)}


def measure(name: str, pairs: list[tuple[str, str]], chinese: int) -> None:
    """Print one dataset's figures."""
    from transformer.bpe import DEFAULT_BPE_VOCAB_SIZE, learn_bpe
    from transformer.data import build_vocabs, tokenize
    from transformer.splits import split_pairs

    split = split_pairs(pairs, "random", HOLDOUT, 0, "auto")
    held = set(split.held)
    train = [p for i, p in enumerate(pairs) if i not in held]
    bpe = learn_bpe(train, DEFAULT_BPE_VOCAB_SIZE)
    vocabs = build_vocabs(train, bpe)
    print(f"{name}: {len(train):,} training pairs, {len(held):,} held out, {len(bpe.pieces):,} pieces learned")
    print(f"  vocabularies: {len(vocabs[0]):,} source / {len(vocabs[1]):,} target tokens")
    for side, label in ((0, "source"), (1, "target")):
        alphabet = sorted(set("".join(p[side] for p in train)) - {" "})
        vocab = vocabs[side]
        alone = [c for c in alphabet if vocab.encode(tokenize(c, bpe))[1]]
        paired = [
            c
            for c in alphabet
            if any(vocab.encode(tokenize(c + b, bpe))[1] or vocab.encode(tokenize(b + c, bpe))[1] for b in alphabet)
        ]
        print(
            f"  {label} training characters that cannot be written alone: {len(alone)} of {len(alphabet)}", _few(alone)
        )
        print(f"    nor in some two-character word of them: {len(set(alone) | set(paired))} of {len(alphabet)}")
        missing = Counter(t for i in sorted(held) for t in vocab.encode(tokenize(pairs[i][side], bpe))[1])
        unseen = [t for t in missing if not set(t.replace(MARK, "").removeprefix("##")) <= set(alphabet)]
        print(
            f"  held-out {label} pieces the model cannot write: {len(missing)} distinct, {missing.total()} in all, "
            f"{len(unseen)} of them with a character never trained on  {_few([t for t, _ in missing.most_common()])}"
        )
    sentences = [tokenize(p[chinese], bpe) for p in pairs]
    pieces = Counter(piece for sentence in sentences for piece in sentence if glued(piece))
    listed = ", ".join(p for p, _ in pieces.most_common(8))
    print(f"  Chinese pieces with punctuation glued on: {len(pieces)} distinct, {pieces.total()} in all  {listed}")
    lone = sum(bool(s) and s[0] == MARK for s in sentences)
    print(f"  Chinese sentences whose first piece is a lone {MARK}: {lone} of {len(sentences)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose package is measured")
    args = parser.parse_args()
    sys.path.insert(0, str(args.checkout.resolve()))  # before any import of the package
    for name, (pairs, chinese) in datasets(ROOT).items():
        measure(name, pairs, chinese)


if __name__ == "__main__":
    main()
