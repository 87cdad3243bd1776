"""Held-out splits that ask different questions: random pairs, new combinations, longer sentences, an unseen word.

`split_pairs(pairs, kind, fraction, seed)` returns the rows to train on and the rows to hold out; the same arguments
always give the same split. Pairs with the same source tokens always land on the same side, so no held-out sentence
is ever trained on, and `always_train` pairs (e.g. the tutorial pairs beside the corpus) are never held out: a row
whose source is one of theirs stays in training, and what a split holds out (a combination, a word) never appears in
them. A split that cannot be made from the given pairs raises a DataError that says why (code and values let a UI
say it in its own language).

- random: pairs drawn at random with the seed.
- combination: held-out pairs contain a subject–verb or verb–object pairing that no clause of any training pair
  contains, while each of its two parts is trained on in other pairings. For corpus sentences
  (transformer.corpus.lookup finds them, from the text alone) the pairings are the grammar's slots, every clause's;
  for any other sentence they are neighbouring source tokens (in Chinese read character by character, 猫追 is the
  subject–verb pairing of 猫追狗), and such a sentence also holds a grammar pairing whose two words it has in order
  (我们想去北京 holds 去 + 北京).
- length: every held-out pair is longer, in tokens, than every training pair on the source side and on the target
  side (the always-trained pairs included); the rows between the two cuts are set aside, neither trained on nor held
  out. The cuts come closest to the share asked for, a row set aside costing half a row off it (and at least half the
  rows asked for when any cut gives that): on the corpus, whose source and target lengths go together only loosely,
  the share falls short (share_met says so).
- word: on corpus data, one or more words of the grammar's lexicon (学习, 音乐) appear only in held-out pairs: no
  training pair holds the word, though its characters may appear in other words (学 in 学生); on other data the unit
  is a source token (Split.unit says which).

`share_met(split, n, fraction)` says whether a split holds out the share asked for, within SHARE_TOLERANCE.

`reordered_groups(pairs)` finds the pairs whose meaning only word order tells (the same source tokens in another
order, another target): the evidence a model without positional encoding cannot get right.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import corpus
from .data import tokenize
from .errors import ConfigError, DataError

SPLITS = ("random", "combination", "length", "word")
SHARE_TOLERANCE = 0.02  # a split's held-out share is the asked-for share within 2 points, when the data allows
DEFINITIONS = {  # one sentence for the learner (English; the app translates)
    "random": "Pairs drawn at random are held out: do sentences like the training ones come out right?",
    "combination": "Held-out sentences pair a subject with a verb, or a verb with an object, in a way no training "
    "sentence does, although each word is trained on in other pairings.",
    "length": "The model trains on the shorter sentences and is tested on longer ones: every held-out pair has more "
    "tokens than any training pair, in its source and in its target.",
    "word": "A word that appears in no training sentence is held out with every sentence that holds it: the model has "
    "never seen it in use.",
}


@dataclass(frozen=True)
class Split:
    """Which rows of the pairs to train on and which to hold out, and what the split held out."""

    kind: str
    train: list[int]  # row indexes (0-based) of the pairs trained on, in order
    held: list[int]  # row indexes held out, in order
    held_out: tuple[str, ...] = ()  # combination: "猫 + 追"; word: "音乐"; length: "sources > 9 tokens", …
    set_aside: list[int] = field(default_factory=list)  # length: rows neither trained on nor held out
    unit: str = ""  # word: "word" (of the corpus's lexicon) or "token"
    cuts: tuple[int, ...] = ()  # length: the longest source and target trained on

    def describe(self) -> str:
        """One line: the kind, how many pairs each side has, and what was held out."""
        text = f"{self.kind} split: {len(self.train)} pairs trained on, {len(self.held)} held out"
        if self.set_aside:
            text += f", {len(self.set_aside)} set aside"
        if self.held_out:
            what = {"combination": "pairings", "word": f"{self.unit or 'word'}s"}.get(self.kind)
            text += (
                f" ({what} never trained on: {', '.join(self.held_out)})"
                if what
                else f" ({' and '.join(self.held_out)})"
            )
        return text


def share_met(split: Split, n: int, fraction: float) -> bool:
    """Whether the split holds out the share asked for, within SHARE_TOLERANCE, of the n pairs."""
    return n == 0 or abs(len(split.held) / n - fraction) <= SHARE_TOLERANCE + 1e-9


def pairs_sha256(pairs: Sequence[tuple[str, str]]) -> str:
    """A SHA-256 of the pairs, row by row: the same pairs in the same order give the same text."""
    digest = hashlib.sha256()
    for source, target in pairs:
        digest.update(f"{source}\t{target}\n".encode())
    return digest.hexdigest()


def _check_fraction(fraction: float) -> None:
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0.0 <= fraction < 1.0:
        raise ConfigError(f"the held-out fraction must be at least 0 and below 1, got {fraction!r}.")


def split_pairs(
    pairs: Sequence[tuple[str, str]],
    kind: str = "random",
    fraction: float = 0.1,
    seed: int = 0,
    tokenizer: str = "auto",
    always_train: Sequence[tuple[str, str]] = (),
) -> Split:
    """Train and held-out rows of pairs for a split kind (see SPLITS), about fraction of them held out.

    A fraction of 0 holds nothing out; any other fraction holds out at least one pair. Rows with the same source
    tokens stay together; rows whose source is among always_train's stay in training.
    """
    if kind not in SPLITS:
        raise ConfigError(f"unknown split {kind!r}: use one of {', '.join(SPLITS)}.")
    _check_fraction(fraction)
    n = len(pairs)
    if fraction == 0 or n == 0:
        return Split(kind, list(range(n)), [])
    if n < 2:
        raise DataError("one pair cannot be split: hold nothing out, or add pairs.", "split_too_few", n=n)
    sources = [tuple(tokenize(s, tokenizer, "source")) for s, _ in pairs]
    kept = {tuple(tokenize(s, tokenizer, "source")) for s, _ in always_train}
    groups: dict[tuple, list[int]] = defaultdict(list)  # rows by source tokens
    for i, tokens in enumerate(sources):
        groups[tokens].append(i)
    target = max(1, round(fraction * n))
    splitter = {"random": _random, "combination": _combination, "length": _length, "word": _word}[kind]
    made = splitter(pairs, sources, groups, kept, target, random.Random(seed), tokenizer, always_train)
    held, what, extra = made if len(made) == 3 else (*made, {})
    held = sorted(held)
    aside = set(extra.get("set_aside", ()))
    if len(held) + len(aside) >= n:
        raise DataError(
            f"holding out {len(held)} of {n} pairs leaves nothing to train on: hold out fewer.", "split_all", n=n
        )
    held_set = set(held)
    train = [i for i in range(n) if i not in held_set and i not in aside]
    return Split(kind, train, held, tuple(what), sorted(aside), extra.get("unit", ""), extra.get("cuts", ()))


def _take_groups(order: list[tuple], groups: dict, kept: set, target: int) -> list[int]:
    """Whole groups of rows, in order, until at least target rows (groups of always-trained sources are skipped)."""
    held: list[int] = []
    for key in order:
        if len(held) >= target:
            break
        if key not in kept:
            held += groups[key]
    return held


def _random(pairs, sources, groups, kept, target, rng, tokenizer, always_train):
    order = list(groups)
    rng.shuffle(order)
    held = _take_groups(order, groups, kept, target)
    if not held:
        raise DataError(
            "every pair's source is also among the pairs always trained on, so none can be held out.", "split_none"
        )
    return held, ()


def _pairings(source: str, tokens: tuple[str, ...]) -> set[tuple[str, str]]:
    """The pairings of a source: the grammar's (subject, verb) and (verb, object) of every clause for a corpus sentence,
    else its neighbouring tokens."""
    found = corpus.lookup(source)
    if found is not None:
        return corpus.pairings(found)
    return set(zip(tokens, tokens[1:]))


def _holds_in_order(source: str, pairing: tuple[str, str]) -> bool:
    """Whether a sentence outside the grammar has both words of a pairing, the first before the second."""
    text = "".join(source.split())
    first = text.find(pairing[0])
    return first >= 0 and text.find(pairing[1], first + len(pairing[0])) >= 0


def _combination(pairs, sources, groups, kept, target, rng, tokenizer, always_train):
    n = len(pairs)
    pairings = [_pairings(s, tokens) for (s, _), tokens in zip(pairs, sources)]
    in_grammar = [corpus.lookup(s) is not None for s, _ in pairs]
    grammar_pairings = set().union(set(), *(p for p, g in zip(pairings, in_grammar) if g))
    for i, g in enumerate(in_grammar):  # a sentence outside the grammar holds the grammar's pairings it has in order
        if not g:
            pairings[i] = pairings[i] | {x for x in grammar_pairings if _holds_in_order(pairs[i][0], x)}
    fixed = set().union(set(), *(_pairings(s, tuple(tokenize(s, tokenizer, "source"))) for s, _ in always_train))
    fixed |= {x for x in grammar_pairings if any(_holds_in_order(s, x) for s, _ in always_train)}
    rows_of: dict[tuple[str, str], set[int]] = defaultdict(set)
    trained_parts: Counter = Counter(part for pairing in fixed for part in pairing)  # rows training each word
    for i, found in enumerate(pairings):
        for pairing in found:
            rows_of[pairing].add(i)
        trained_parts.update({part for pairing in found for part in pairing})
    must_train = {i for key in kept if key in groups for i in groups[key]}
    candidates = sorted(p for p in rows_of if p not in fixed)
    rng.shuffle(candidates)
    held: set[int] = set()
    chosen: list[tuple[str, str]] = []
    for pairing in candidates:
        if len(held) >= target:
            break
        rows = {j for i in rows_of[pairing] for j in groups[sources[i]]} - held  # every row of the same sources
        if rows & must_train or len(held) + len(rows) > max(target * 1.5, target + 2) or len(held) + len(rows) >= n:
            continue
        left = trained_parts - Counter(part for i in rows for part in {x for p in pairings[i] for x in p})
        if not all(left[part] > 0 for c in [*chosen, pairing] for part in c):
            continue  # a word of a held-out pairing would no longer be trained on
        held |= rows
        chosen.append(pairing)
        trained_parts = left
    if not held:
        raise DataError(
            "no pairing of two words can be held out while both words are still trained on in other pairings: the "
            "pairs need words that appear with several partners (猫追狗, 猫喜欢鱼, 狗追猫).",
            "split_no_combination",
        )
    return held, [f"{a} + {b}" for a, b in sorted(chosen)]


def _length(pairs, sources, groups, kept, target, rng, tokenizer, always_train):
    n = len(pairs)
    src = [len(tokens) for tokens in sources]
    tgt = [len(tokenize(t, tokenizer, "target")) for _, t in pairs]
    if len(set(tgt)) < 2:
        raise DataError(
            f"every target has {tgt[0]} tokens: a length split needs sentences of different lengths.",
            "split_one_length",
            length=tgt[0],
        )
    must_train = {i for key in kept if key in groups for i in groups[key]}
    # the always-trained pairs are trained on: every held-out pair must be longer than they are too
    always_src = [len(tokenize(s, tokenizer, "source")) for s, _ in always_train]
    always_tgt = [len(tokenize(t, tokenizer, "target")) for _, t in always_train]
    least_src = max(always_src + [src[i] for i in must_train], default=0)
    least_tgt = max(always_tgt + [tgt[i] for i in must_train], default=0)
    counts = Counter(zip(src, tgt))  # rows by (source length, target length): each cut is counted, not listed
    best = None  # (cost, rows set aside), cuts
    for a in sorted(set(src)):
        for b in sorted(set(tgt)):
            if a < least_src or b < least_tgt:
                continue
            held = sum(k for (x, y), k in counts.items() if x > a and y > b)
            trained = sum(k for (x, y), k in counts.items() if x <= a and y <= b)
            if not held or not trained:
                continue
            aside = n - held - trained
            # a row set aside costs half a row off the share; fewer than half the rows asked for is a last resort
            key = (2 * held < target, abs(held - target) + aside / 2, aside)
            if best is None or key < best[0]:
                best = (key, (a, b))
    if best is None:
        raise DataError(
            "no length cut leaves shorter pairs to train on and longer ones to hold out: the pairs with the longest "
            "sources and targets are always trained on, or no pair is longer on both sides.",
            "split_no_length",
        )
    a, b = best[1]
    held = [i for i in range(n) if src[i] > a and tgt[i] > b]
    aside = [i for i in range(n) if (src[i] > a) != (tgt[i] > b)]
    return held, [f"sources > {a} tokens", f"targets > {b} tokens"], {"set_aside": aside, "cuts": (a, b)}


def _lexicon_words(pairs, always_train) -> list[str] | None:
    """The lexicon words to choose from when the pairs hold corpus sentences, else None (the unit is a token)."""
    if not any(corpus.lookup(s) is not None for s, _ in pairs):
        return None
    return sorted(corpus.words())


def _word(pairs, sources, groups, kept, target, rng, tokenizer, always_train):
    n = len(pairs)
    lexicon = _lexicon_words(pairs, always_train)
    rows_of: dict[str, set[int]] = defaultdict(set)
    if lexicon is None:
        fixed = {t for s, _ in always_train for t in tokenize(s, tokenizer, "source")}
        for i, tokens in enumerate(sources):
            for token in tokens:
                rows_of[token].add(i)
        candidates = sorted(t for t in rows_of if t not in fixed and any(c.isalnum() for c in t))
    else:  # a word is in a sentence when its characters are, in a row: holding out too much, never too little
        texts = ["".join(s.split()) for s, _ in pairs]
        also = ["".join(s.split()) for s, _ in always_train]
        for word in lexicon:
            rows_of[word] = {i for i, text in enumerate(texts) if word in text}
        candidates = [w for w in lexicon if rows_of[w] and not any(w in text for text in also)]
    must_train = {i for key in kept if key in groups for i in groups[key]}
    rng.shuffle(candidates)
    held: set[int] = set()
    chosen: list[str] = []
    for word in candidates:
        if len(held) >= target:
            break
        new = held | {j for i in rows_of[word] for j in groups[sources[i]]}
        if new & must_train or len(new) > max(target * 1.5, target + 2) or len(new) >= n:
            continue
        held, chosen = new, [*chosen, word]
    if not held:
        raise DataError(
            "no word appears in few enough pairs to be held out with them and still leave pairs to train on: add "
            "pairs with more varied words.",
            "split_no_word",
        )
    return held, sorted(chosen), {"unit": "token" if lexicon is None else "word"}


def reordered_groups(pairs: Sequence[tuple[str, str]], tokenizer: str = "auto") -> list[list[int]]:
    """Rows whose sources have the same tokens in another order and whose targets differ (猫追狗 / 狗追猫): a model
    that cannot see word order reads each group as one sentence, so it cannot translate all of its rows. Groups of
    at least two distinct sources, in the order of their first row."""
    groups: dict[tuple[str, ...], dict[tuple[str, ...], list[int]]] = defaultdict(dict)
    targets: dict[tuple[str, ...], set[tuple[str, ...]]] = defaultdict(set)
    for i, (source, target) in enumerate(pairs):
        tokens = tuple(tokenize(source, tokenizer, "source"))
        groups[tuple(sorted(tokens))].setdefault(tokens, []).append(i)
        targets[tuple(sorted(tokens))].add(tuple(tokenize(target, tokenizer, "target")))
    found = [
        sorted(i for rows in by_order.values() for i in rows)
        for key, by_order in groups.items()
        if len(by_order) > 1 and len(targets[key]) > 1
    ]
    return sorted(found)
