"""The teaching corpus: a small zh→en grammar (transformer.grammar), every sentence tagged with the phenomena it shows
and carrying its gold word alignment.

`grammar()` is every pair the grammar makes (about 15,000); `generate(size, seed)` draws `size` distinct ones,
the same ones for the same size and seed, with the phenomena spread evenly and the tutorials' own
我 喜 欢 你 → I love you . as the first row. Sentences follow the conventions of assets/pairs.tsv (a capital first
word, " ." and " ?" as separate tokens, 喜欢 → like, 爱 → love, 一只猫 → a cat), so the corpus and the tutorial pairs
can be trained together; the one exception is the tutorials' 我喜欢你 → I love you ., which they translate freely.
Sources are written without spaces but around a comma (我爱你 , 你爱我, as the tutorial pairs write it): the `auto`
tokenizer reads one token per Chinese character, as the tutorials do, and the gold links count those tokens.

Each pair also carries the slots the grammar filled, clause by clause (subject, verb, object, as Chinese text): the
combination split (transformer.splits) holds out subject–verb and verb–object pairings. A pair read back from a file
finds its slots with `lookup(source)`. TRAIN_CONFIG and TRAIN_SIZES are how the default model learns it best
(benchmarks/learning.py). Standard library only (grammar, config and errors are too).
"""

from __future__ import annotations

import functools
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, replace

from . import grammar as grammar_rules
from .config import TrainConfig
from .errors import ConfigError

# the phenomena a pair can show, in the order tables list them; DESCRIPTIONS says each in one sentence
PHENOMENA = (
    "agreement",
    "negation",
    "past",
    "future",
    "time_word",
    "measure_word",
    "question",
    "role_reversal",
    "possessive",
    "adjective",
    "progressive",
)
DESCRIPTIONS = {
    "agreement": "The English verb changes with its subject (he likes, they like; does, do; is, are) while the "
    "Chinese verb stays the same.",
    "negation": "不 or 没 before the verb becomes do not, does not or did not (or not after am, is, are).",
    "past": "看见, 没 or 了 after a verb is said in the English past (saw, did not drink, drank), which the Chinese "
    "verb does not mark.",
    "future": "会 with 明天 becomes will … tomorrow.",
    "time_word": "A time word (今天, 每天, 明天) stands before the verb in Chinese but at the end in English, where "
    "it sets the tense (is drinking … today, drinks … every day, will drink … tomorrow).",
    "measure_word": "A number and a measure word (一只猫, 两本书) become an article or a number with a plural "
    "(a cat, two books).",
    "question": "吗 at the end makes a yes/no question that starts with Do, Does, Did, Is, Are or Will.",
    "role_reversal": "The grammar makes another sentence with the same characters in another order and another "
    "meaning (猫追狗 / 狗追猫), so only word order tells who does what to whom.",
    "possessive": "的 after a person makes a possessive (我的猫 → my cat).",
    "adjective": "很 with an adjective becomes am, is or are with the adjective (我的猫很小 → My cat is small).",
    "progressive": "在 before a verb becomes am, is or are with its -ing form (猫在睡觉 → The cat is sleeping).",
}
DEFAULT_SIZE = 2000  # pairs in the default corpus (the bundled model's)
DEFAULT_SEED = 0
# training settings for the corpus with the default model (benchmarks/learning.py measures them): with TRAIN_SIZES'
# dropout it translates more held-out new combinations than without (94.6 % against 87.5 % on seeds 0-2, 30 epochs;
# docs/performance.md), and 40 epochs learn every tutorial pair beside the corpus, which 30 do not
TRAIN_CONFIG = TrainConfig(epochs=40, lr=2e-3, batch_size=64)
TRAIN_SIZES = {"dropout": 0.1}  # the model's sizes beside the defaults
TUTORIAL_PAIR = ("我 喜 欢 你", "I love you .")  # the seed tutorials' sentence: the first row of every corpus


@dataclass(frozen=True)
class CorpusPair:
    """One sentence pair of the corpus, the phenomena it shows, the slots the grammar filled (Chinese text: the first
    clause's as subject, verb, object; every clause's in clauses) and its gold word alignment."""

    source: str
    target: str
    phenomena: tuple[str, ...]
    subject: str
    verb: str  # the verb, or the adjective of 很 … / the 是 of "is a"
    object: str | None = None  # what the verb takes, when it takes something
    clauses: tuple[tuple[str, str, str | None], ...] = ()
    alignment: str = ""  # i-j sure, i?j possible, 0-based: source token (character) first
    pattern: str = ""  # the grammar's frame (S 不 V O, …), as docs/corpus.md lists it


def _meaning(target: str) -> frozenset:
    """What a target says, clause by clause, whatever the order of its clauses (我爱你 , 你爱我 says what 你爱我 ,
    我爱你 says)."""
    return frozenset(c.strip(" .?").lower() for c in target.split(" , "))


def _characters(source: str) -> tuple[str, ...]:
    return tuple(sorted(source.replace(" ", "")))


def _with_role_reversal(pairs: list[CorpusPair]) -> list[CorpusPair]:
    """Tag role_reversal on exactly the pairs for which the grammar makes another pair with the same characters in
    another order and another meaning (猫追狗 / 狗追猫; not 我爱你 , 你爱我 / 你爱我 , 我爱你)."""
    keys = [(_characters(p.source), _meaning(p.target)) for p in pairs]
    meanings: dict[tuple, set[frozenset]] = defaultdict(set)
    for characters, meaning in keys:
        meanings[characters].add(meaning)
    out = []
    for p, (characters, _) in zip(pairs, keys):
        if len(meanings[characters]) > 1:
            p = replace(p, phenomena=tuple(t for t in PHENOMENA if t in p.phenomena or t == "role_reversal"))
        out.append(p)
    return out


def _pair(sentence: grammar_rules.Sentence) -> CorpusPair:
    """A corpus pair of a sentence of the grammar: its phenomena in table order, its slots and its gold links."""
    found = set(sentence.tags) | ({"possessive"} if "的" in sentence.source else set())
    (subject, verb, obj), *_ = sentence.clauses
    tags = tuple(t for t in PHENOMENA if t in found)
    links = sentence.links()
    return CorpusPair(
        sentence.source, sentence.target, tags, subject, verb, obj, sentence.clauses, links, sentence.pattern
    )


@functools.cache
def grammar() -> tuple[CorpusPair, ...]:
    """Every pair the grammar makes, in a fixed order, each source once (with one target: a source made twice must
    be made with the same target, or this raises). 我喜欢你 is the tutorials' I love you . (TUTORIAL_PAIR)."""
    seen: dict[str, CorpusPair] = {}
    for sentence in grammar_rules.sentences():
        p = _pair(sentence)
        if p.source == _key(TUTORIAL_PAIR[0]):
            p = replace(p, target=TUTORIAL_PAIR[1])  # the one 喜欢 said as love: the tutorials translate it freely
        if seen.setdefault(p.source, p).target != p.target:
            raise RuntimeError(f"the grammar gives {p.source} two targets: {seen[p.source].target} / {p.target}")
    return tuple(_with_role_reversal(list(seen.values())))


@functools.cache
def _index() -> dict[str, int]:
    return {_key(p.source): i for i, p in enumerate(grammar())}


def _key(source: str) -> str:
    """A source as the grammar writes it: without spaces (每个汉字 is one token either way)."""
    return "".join(source.split())


def lookup(source: str) -> CorpusPair | None:
    """The grammar's pair with this source (spaces ignored: 我 喜 欢 你 is 我喜欢你), or None."""
    i = _index().get(_key(source))
    return None if i is None else grammar()[i]


@functools.cache
def _partners() -> dict[int, int]:
    """For each role-reversal pair, the first other pair with its characters and another meaning (猫追狗 → 狗追猫)."""
    by_characters: dict[tuple, list[int]] = defaultdict(list)
    for i, p in enumerate(grammar()):
        by_characters[_characters(p.source)].append(i)
    every = grammar()
    return {
        i: next(j for j in by_characters[_characters(p.source)] if _meaning(every[j].target) != _meaning(p.target))
        for i, p in enumerate(every)
        if "role_reversal" in p.phenomena
    }


def _family(p: CorpusPair) -> str:
    """The kind of sentence a pair is, for drawing every kind about equally often."""
    for tag in ("future", "question", "negation", "past", "time_word", "progressive", "adjective", "measure_word"):
        if tag in p.phenomena:
            return tag
    return "role_reversal" if "role_reversal" in p.phenomena else "statement"


@functools.cache
def max_size() -> int:
    """The most distinct pairs a corpus can have: every pair of the grammar, each source once (counted without making
    the pairs and their gold links, a quarter of the time: the corpus command's --help says it)."""
    return len({sentence.source for sentence in grammar_rules.sentences()})


def generate(size: int = DEFAULT_SIZE, seed: int = DEFAULT_SEED) -> list[CorpusPair]:
    """size distinct pairs of the grammar drawn with seed: the same for the same size and seed.

    The first is the tutorials' 我 喜 欢 你 → I love you .; then the kinds of sentence (statements, negations,
    questions, future, time words, progressives, adjectives, measure words, role reversals) take turns, and a pair
    whose characters in another order mean something else comes with that other pair while there is room.
    """
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= max_size():
        raise ConfigError(f"the corpus size must be a whole number from 1 to {max_size():,}, got {size!r}.")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ConfigError(f"the corpus seed must be a whole number of at least 0, got {seed!r}.")
    every = grammar()
    rng = random.Random(seed)
    first = _index()[_key(TUTORIAL_PAIR[0])]
    families: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(every):
        if i != first:
            families[_family(p)].append(i)
    queues = {name: rng.sample(ids, len(ids)) for name, ids in sorted(families.items())}
    partners = _partners()
    chosen, taken = [first], {first}
    while len(chosen) < size:
        names = [name for name, queue in queues.items() if queue]
        rng.shuffle(names)
        for name in names:
            queue = queues[name]
            while queue and queue[-1] in taken:
                queue.pop()
            if not queue or len(chosen) >= size:
                continue
            i = queue.pop()
            group = [i] + [j for j in [partners.get(i)] if j is not None and j not in taken]
            for j in group[: size - len(chosen)]:
                chosen.append(j)
                taken.add(j)
    pair = every[first]
    tutorial = replace(pair, source=TUTORIAL_PAIR[0])
    return [tutorial] + [every[i] for i in chosen[1:]]


def tags_of(pairs) -> list[tuple[str, ...]]:
    """The phenomena of each (source, target) pair: the grammar's tags when the source is a corpus sentence and the
    target its translation (spaces aside), else none."""
    tags = []
    for source, target in pairs:
        found = lookup(source)
        tags.append(found.phenomena if found is not None and found.target.split() == target.split() else ())
    return tags


def phenomenon_counts(pairs: list[CorpusPair]) -> Counter:
    """How many pairs show each phenomenon."""
    return Counter(tag for p in pairs for tag in p.phenomena)


def pairings(pair: CorpusPair) -> set[tuple[str, str]]:
    """The subject–verb and verb–object pairings of every clause of a pair (both clauses of 我爱你 , 你爱我)."""
    found = set()
    for subject, verb, obj in pair.clauses or ((pair.subject, pair.verb, pair.object),):
        found.add((subject, verb))
        if obj is not None:
            found.add((verb, obj))
    return found


def words() -> dict[str, str]:
    """The grammar's lexicon: each word (Chinese) and its class (pronoun, noun, verb, adjective, …)."""
    return dict(grammar_rules.LEXICON)


def format_corpus(pairs: list[CorpusPair]) -> str:
    """The pairs as TSV with a header: source, target, phenomena (tags separated by spaces) and the gold alignment
    (i-j sure, i?j possible, 0-based, source index first)."""
    lines = ["source\ttarget\tphenomena\talignment"]
    lines += [f"{p.source}\t{p.target}\t{' '.join(p.phenomena)}\t{p.alignment}" for p in pairs]
    return "\n".join(lines) + "\n"
