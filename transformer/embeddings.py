"""The learned token embeddings: each token's word class from the teaching corpus's lexicon, a 2-D projection by
PCA, nearest neighbours by cosine, and whether the classes separate (torch and the standard library only).

Word classes. A source token that is a word of the lexicon (transformer.corpus.words) has that word's class; a
character inside words has their class when they agree, else SEVERAL (学 is in 学生, a noun, and 学习, a verb). A
target word has the class its sure gold links give it most often: in 我喜欢猫 → I like cats, like is linked to 喜 and
欢, so it is a verb (a function word counts only when nothing else links it: their is linked to 他, 们 and 的, and
is a pronoun); a word never surely linked (the, does, of) is a function word; a token without a letter or
digit is punctuation; anything else is OTHER.

Whether the classes separate is measured in the model's own d_model dimensions, not on the picture: among the
tokens with a class, the share whose nearest neighbour by cosine has their class, against the share a shuffle of the
classes gives (its mean, exact, and a permutation test with a fixed seed).
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import torch

from . import corpus
from .data import SPECIALS
from .translator import Translator

FUNCTION, PUNCTUATION, SEVERAL, OTHER = "function word", "punctuation", "several", "other"
UNCLASSED = (SEVERAL, OTHER)  # left out of the separation measure
SHUFFLES = 1000  # permutations of the classes in the separation test
SIGNIFICANT = 0.01  # the test's level: fewer than 1 % of shuffles as good
CLEAR = 0.5  # at least half the tokens next to their own class: the classes separate clearly


def source_classes(lexicon: dict[str, str]) -> dict[str, str]:
    """Each word of the lexicon and each character of its words: the word's class; a character that is not itself
    a word takes the class of the words it is part of when they agree, else SEVERAL."""
    inside: dict[str, set[str]] = defaultdict(set)
    for word, kind in lexicon.items():
        for ch in word:
            inside[ch].add(kind)
    classes = {ch: kinds.pop() if len(kinds) == 1 else SEVERAL for ch, kinds in inside.items()}
    return classes | lexicon  # a character that is a word (我, 们) is that word


def target_classes(pairs: Iterable[tuple[str, str, str]], classes: dict[str, str]) -> dict[str, str]:
    """Each target word of (source, target, gold links) triples: the class its sure links give it most often (the
    source characters' classes, SEVERAL and OTHER not counted, function words only when no other class links it; the
    first in order of the lexicon's classes on a tie), a function word when it has no such link, punctuation when it
    has no letter or digit."""
    votes: dict[str, Counter] = defaultdict(Counter)
    order = {kind: k for k, kind in enumerate(dict.fromkeys(classes.values()))}
    for source, target, links in pairs:
        chars, words = [c for c in source if not c.isspace()], target.split()
        for word in words:
            votes[word]  # every word gets an entry
        for link in links.split():
            if "-" not in link:
                continue  # a possible link says nothing of a word's class
            i, j = (int(x) for x in link.split("-"))
            kind = classes.get(chars[i], OTHER) if i < len(chars) else OTHER
            if j < len(words) and kind not in UNCLASSED:
                votes[words[j]][kind] += 1
    found = {}
    for word, counts in votes.items():
        content = Counter({k: n for k, n in counts.items() if k != FUNCTION}) or counts  # 他们的 → their: a pronoun
        if not any(c.isalnum() for c in word):
            found[word] = PUNCTUATION
        elif content:
            top = max(content.values())
            found[word] = min((k for k, n in content.items() if n == top), key=lambda k: order.get(k, len(order)))
        else:
            found[word] = FUNCTION
    return found


@functools.cache
def corpus_classes() -> tuple[dict[str, str], dict[str, str]]:
    """(source classes, target classes) of the teaching corpus: its lexicon's, and those its gold links give every
    target word of the grammar (computed once)."""
    source = source_classes(corpus.words())
    return source, target_classes(((p.source, p.target, p.alignment) for p in corpus.grammar()), source)


def token_classes(tokens: Sequence[str], classes: dict[str, str]) -> list[str]:
    """The class of each token: its entry in classes, else punctuation for a token without a letter or digit, else
    OTHER."""
    return [classes.get(tok) or (PUNCTUATION if not any(c.isalnum() for c in tok) else OTHER) for tok in tokens]


@dataclass(frozen=True)
class Projection:
    """Embeddings projected on their first two principal components."""

    xy: torch.Tensor  # (n, 2)
    explained: tuple[float, float]  # the share of the embeddings' variance along each axis

    @property
    def kept(self) -> float:
        """The share of the variance the picture keeps (both axes)."""
        return self.explained[0] + self.explained[1]

    @property
    def keeps_most(self) -> bool:
        """Whether the picture keeps at least half the variance (else closeness in it says little)."""
        return self.kept >= 0.5


def pca_2d(weights: torch.Tensor) -> Projection:
    """The rows of weights (n, d) centred and projected on their two largest principal components (torch SVD); each
    axis is turned so that its largest loading is positive, so the picture does not flip between runs."""
    x = weights.detach().double()
    x = x - x.mean(0)  # (n, d)
    _, s, vh = torch.linalg.svd(x, full_matrices=False)  # s (k,), vh (k, d)
    axes = vh[:2]  # (2, d) or fewer
    signs = torch.sign(axes.gather(1, axes.abs().argmax(1, keepdim=True)))  # (2, 1)
    axes = axes * torch.where(signs == 0, 1.0, signs)
    xy = x @ axes.T  # (n, 2)
    if xy.shape[1] < 2:
        xy = torch.cat([xy, torch.zeros(len(x), 2 - xy.shape[1], dtype=xy.dtype)], 1)  # (n, 2)
    total = float((s**2).sum())
    share = [float(v**2) / total if total else 0.0 for v in s[:2]] + [0.0] * (2 - len(s[:2]))
    return Projection(xy.float(), (share[0], share[1]))


def cosine(weights: torch.Tensor) -> torch.Tensor:
    """(n, n) cosine similarity of the rows of weights (n, d); a zero row is similar to nothing (0)."""
    x = weights.detach().double()
    unit = x / x.norm(dim=1, keepdim=True).clamp_min(1e-12)  # (n, d)
    return (unit @ unit.T).float()  # (n, n)


def neighbours(weights: torch.Tensor, index: int, k: int = 5) -> list[tuple[int, float]]:
    """The k rows nearest to row index by cosine, nearest first (the lower index on a tie), itself left out."""
    sims = cosine(weights)[index].clone()  # (n,)
    sims[index] = float("-inf")
    order = sorted(range(len(sims)), key=lambda j: (-float(sims[j]), j))
    return [(j, float(sims[j])) for j in order[: min(k, len(sims) - 1)]]


@dataclass(frozen=True)
class Separation:
    """Whether the classes of some tokens separate in their embeddings."""

    tokens: int  # tokens with a class (SEVERAL and OTHER left out)
    classes: int  # how many classes they have
    agree: int  # tokens whose nearest neighbour (cosine) among them has their class
    chance: float  # the share a random shuffle of the classes gives, on average
    reached: int  # shuffles (of SHUFFLES) whose share is at least the tokens' own
    best: tuple[str, int, int] | None  # the class most often next to itself: (class, agree, tokens), of 3 or more

    @property
    def share(self) -> float:
        """agree / tokens."""
        return self.agree / self.tokens

    @property
    def p_value(self) -> float:
        """(1 + reached) / (1 + SHUFFLES): how likely a share this high is when the classes mean nothing."""
        return (1 + self.reached) / (1 + SHUFFLES)

    @property
    def verdict(self) -> str:
        """'clear' (significant, at least CLEAR of the tokens), 'partly' (significant, fewer) or 'no'."""
        if self.p_value >= SIGNIFICANT:
            return "no"
        return "clear" if self.share >= CLEAR else "partly"


def separation(weights: torch.Tensor, classes: Sequence[str], seed: int = 0) -> Separation | None:
    """How well classes separate in weights (n, d), one class per row: None unless at least two classes have two
    or more tokens each (UNCLASSED rows left out)."""
    kept = [i for i, c in enumerate(classes) if c not in UNCLASSED]
    counts = Counter(classes[i] for i in kept)
    if sum(1 for n in counts.values() if n >= 2) < 2:
        return None
    sims = cosine(weights[kept])  # (n, n)
    sims.fill_diagonal_(float("-inf"))
    nearest = sims.argmax(1)  # (n,)
    names = sorted(counts)
    labels = torch.tensor([names.index(classes[i]) for i in kept])  # (n,)
    same = labels == labels[nearest]  # (n,)
    n = len(kept)
    chance = sum(m * (m - 1) for m in counts.values()) / (n * (n - 1))
    g = torch.Generator().manual_seed(seed)
    shuffled = labels[torch.argsort(torch.rand(SHUFFLES, n, generator=g), dim=1)]  # (SHUFFLES, n)
    reached = int(((shuffled == shuffled[:, nearest]).sum(1) >= int(same.sum())).sum())
    by_class = [(c, int(same[labels == k].sum()), counts[c]) for k, c in enumerate(names) if counts[c] >= 3]
    best = max(by_class, key=lambda b: (b[1] / b[2], b[2]), default=None)
    return Separation(n, len(counts), int(same.sum()), chance, reached, best)


CLASS_ORDER = (  # the legend's order; a class the lexicon adds later comes after these
    "pronoun",
    "noun",
    "verb",
    "adjective",
    "number",
    "measure word",
    "time word",
    "function word",
    PUNCTUATION,
    SEVERAL,
    OTHER,
)


@dataclass(frozen=True)
class EmbeddingStudy:
    """One side's learned embeddings (special tokens left out), their classes, projection and separation."""

    side: str  # "source" or "target"
    tokens: list[str]
    weights: torch.Tensor  # (n, d_model)
    classes: list[str]
    projection: Projection
    separation: Separation | None


def study_embeddings(translator: Translator, side: str) -> EmbeddingStudy:
    """The source (encoder) or target (decoder) embedding table of a translator's model, its special tokens (P, S,
    E, <unk>) left out, studied against the teaching corpus's word classes."""
    vocab, table = {
        "source": (translator.src_vocab, translator.model.encoder.src_emb),
        "target": (translator.tgt_vocab, translator.model.decoder.tgt_emb),
    }[side]
    specials = set(SPECIALS) | set(vocab.specials.names)  # a model read from elsewhere has its own (</s>, <pad>)
    rows = [i for i, tok in enumerate(vocab.itos) if tok not in specials]
    weights = table.weight.detach()[rows].float()  # (n, d_model)
    tokens = [vocab.itos[i] for i in rows]
    classes = token_classes(tokens, corpus_classes()[side == "target"])
    return EmbeddingStudy(side, tokens, weights, classes, pca_2d(weights), separation(weights, classes))
