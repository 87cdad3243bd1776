"""The teaching corpus: a small zh→en grammar written here, every sentence tagged with the phenomena it shows.

`grammar()` is every pair the grammar makes (about 18,000); `generate(size, seed)` draws `size` distinct ones,
the same ones for the same size and seed, with the phenomena spread evenly and the tutorials' own
我 喜 欢 你 → I love you . as the first row. Sentences follow the conventions of assets/pairs.tsv (a capital first
word, " ." and " ?" as separate tokens, 喜欢 → love / loves but 不喜欢 → do / does not like, 一只猫 → a cat), so the
corpus and the tutorial pairs can be trained together. Sources are written without spaces but around a comma
(我爱你 , 你爱我, as the tutorial pairs write it): the `auto` tokenizer reads one token per Chinese character, as the
tutorials do.

Each pair also carries the slots the grammar filled (subject, verb, object, as Chinese text): the combination split
(transformer.splits) holds out subject–verb and verb–object pairings. A pair read back from a file finds its slots
with `lookup(source)`. TRAIN_CONFIG is how the default model learns it best (benchmarks/learning.py). Standard library
only (config and errors are too).
"""

from __future__ import annotations

import functools
import random
from collections import Counter, defaultdict
from dataclasses import dataclass

from .config import TrainConfig
from .errors import ConfigError

# the phenomena a pair can show, in the order tables list them; DESCRIPTIONS says each in one sentence
PHENOMENA = (
    "agreement",
    "negation",
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
    "agreement": "The English verb changes with its subject (he loves, they love; does, do; is, are) while the "
    "Chinese verb stays the same.",
    "negation": "不 or 没 before the verb becomes do not, does not or did not (or not after am, is, are).",
    "future": "会 with 明天 becomes will … tomorrow.",
    "time_word": "A time word (今天, 每天, 明天) stands before the verb in Chinese but at the end in English "
    "(today, every day, tomorrow).",
    "measure_word": "A number and a measure word (一只猫, 两本书) become an article or a number with a plural "
    "(a cat, two books).",
    "question": "吗 at the end makes a yes/no question that starts with Do, Does, Is, Are or Will.",
    "role_reversal": "The same characters in another order mean something else (猫追狗 / 狗追猫): only word order "
    "tells who does what to whom.",
    "possessive": "的 after a person makes a possessive (我的猫 → my cat).",
    "adjective": "很 with an adjective becomes am, is or are with the adjective (我的猫很小 → My cat is small).",
    "progressive": "在 before a verb becomes am, is or are with its -ing form (猫在睡觉 → The cat is sleeping).",
}
DEFAULT_SIZE = 2000  # pairs in the default corpus (the bundled model's)
DEFAULT_SEED = 0
# training settings for the corpus with the default model: on 10 % held out at random, ≥ 95 % exact match within about
# 5 epochs, and steady after (a higher lr learns a little faster but jumps about); benchmarks/learning.py measures it
TRAIN_CONFIG = TrainConfig(epochs=20, lr=2e-3, batch_size=64)
TUTORIAL_PAIR = ("我 喜 欢 你", "I love you .")  # the seed tutorials' sentence: the first row of every corpus


@dataclass(frozen=True)
class CorpusPair:
    """One sentence pair of the corpus, the phenomena it shows and the slots the grammar filled (Chinese text)."""

    source: str
    target: str
    phenomena: tuple[str, ...]
    subject: str
    verb: str  # the verb, or the adjective of 很 … / the 是 of "is a"
    object: str | None = None  # what the verb takes, when it takes something


# ---------------------------------------------------------------- the lexicon


@dataclass(frozen=True)
class _NP:
    """A noun phrase: its Chinese, its English as subject and as object, and how the verb agrees with it."""

    zh: str
    en: str
    obj: str
    person: int = 3
    plural: bool = False
    kind: str = "person"  # person, animal, thing
    possessive: bool = False

    @property
    def third_singular(self) -> bool:
        return self.person == 3 and not self.plural

    @property
    def be(self) -> str:
        return "am" if self.person == 1 and not self.plural else "is" if self.third_singular else "are"

    @property
    def do(self) -> str:
        return "does" if self.third_singular else "do"


_PRONOUNS = (
    _NP("我", "I", "me", 1),
    _NP("你", "you", "you", 2),
    _NP("他", "he", "him"),
    _NP("她", "she", "her"),
    _NP("我们", "we", "us", 1, True),
    _NP("你们", "you", "you", 2, True),
    _NP("他们", "they", "them", 3, True),
)
_POSSESSORS = (("我", "my"), ("你", "your"), ("他", "his"), ("她", "her"), ("我们", "our"), ("他们", "their"))


@dataclass(frozen=True)
class _Noun:
    zh: str
    en: str
    plural: str
    measure: str  # the measure word of 一只猫, 一本书 …
    kind: str


_NOUNS = {
    n.zh: n
    for n in (
        _Noun("猫", "cat", "cats", "只", "animal"),
        _Noun("狗", "dog", "dogs", "只", "animal"),
        _Noun("老师", "teacher", "teachers", "个", "person"),
        _Noun("学生", "student", "students", "个", "person"),
        _Noun("朋友", "friend", "friends", "个", "person"),
        _Noun("书", "book", "books", "本", "thing"),
        _Noun("苹果", "apple", "apples", "个", "thing"),
    )
}
_NUMBERS = (("一", None), ("两", "two"), ("三", "three"), ("四", "four"), ("五", "five"))  # None: a / an
_DRINKS = {"茶": "tea", "咖啡": "coffee", "牛奶": "milk", "水": "water"}
_FOODS = {"米饭": "rice", "面条": "noodles", "鱼": "fish"}
_PLACES = {"学校": "school", "公园": "the park", "北京": "Beijing", "商店": "the shop", "图书馆": "the library"}
_SUBJECTS_TO_LEARN = {"中文": "Chinese", "英文": "English", "音乐": "music", "数学": "math"}
_ADJECTIVES = {  # by the kind of thing they describe; 好 is left out: 你好吗 is How are you ?
    "person": {"忙": "busy", "累": "tired", "高": "tall", "开心": "happy"},
    "animal": {"小": "small", "大": "big", "可爱": "cute", "累": "tired"},
    "thing": {"新": "new", "旧": "old", "小": "small", "大": "big"},
}


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _the(zh: str) -> _NP:
    noun = _NOUNS[zh]
    return _NP(zh, "the " + noun.en, "the " + noun.en, kind=noun.kind)


def _owned(owner: str, owner_en: str, zh: str, en: str, kind: str) -> _NP:
    return _NP(f"{owner}的{zh}", f"{owner_en} {en}", f"{owner_en} {en}", kind=kind, possessive=True)


def _counted(zh: str) -> list[_NP]:
    """一只猫 → a cat, 两只猫 → two cats, … (as objects)."""
    noun = _NOUNS[zh]
    return [
        _NP(f"{number}{noun.measure}{zh}", "", _article(noun.en) if en is None else f"{en} {noun.plural}", kind="count")
        for number, en in _NUMBERS
    ]


def _cups(zh: str) -> list[_NP]:
    """一杯茶 → a cup of tea, 两杯茶 → two cups of tea."""
    drink = _DRINKS[zh]
    return [
        _NP(f"{number}杯{zh}", "", f"a cup of {drink}" if en is None else f"{en} cups of {drink}", kind="count")
        for number, en in _NUMBERS[:3]
    ]


def _mass(words: dict[str, str]) -> list[_NP]:
    return [_NP(zh, en, en, kind="thing") for zh, en in words.items()]


_PEOPLE_SUBJECTS = (
    *_PRONOUNS,
    _the("老师"),
    _the("学生"),
    _NP("学生们", "the students", "the students", 3, True),
    *(_owned(o, oe, n, _NOUNS[n].en, "person") for (o, oe), n in zip(_POSSESSORS[:4], ("朋友", "老师") * 2)),
)
_ANIMAL_SUBJECTS = (
    _the("猫"),
    _the("狗"),
    *(_owned(o, oe, n, _NOUNS[n].en, "animal") for (o, oe), n in zip(_POSSESSORS[:4], ("猫", "狗", "狗", "猫"))),
)
_SUBJECTS = _PEOPLE_SUBJECTS + _ANIMAL_SUBJECTS
# objects of 喜欢 / 爱 read generically: 我喜欢猫 → I love cats
_GENERIC = _mass(
    {
        "猫": "cats",
        "狗": "dogs",
        "书": "books",
        "苹果": "apples",
        "音乐": "music",
        "茶": "tea",
        "咖啡": "coffee",
        "牛奶": "milk",
        "下雨": "rain",
        "读书": "reading",
        "学习": "learning",
    }
)
_PRONOUN_OBJECTS = tuple(_PRONOUNS)
_SPECIFIC = tuple(_the(n) for n in ("猫", "狗", "老师", "学生", "书"))  # 看见猫 → see the cat
_OWNED_OBJECTS = tuple(
    _owned(o, oe, n, en, "thing") for o, oe in _POSSESSORS for n, en in (("猫", "cat"), ("狗", "dog"), ("家", "home"))
)
_OWNED_ANIMALS = tuple(o for o in _OWNED_OBJECTS[:12] if not o.zh.endswith("家"))  # my cat … her dog


_OWNABLE = tuple(o for n in ("猫", "狗", "书", "苹果", "朋友") for o in _counted(n))  # 有一只猫 …


@dataclass(frozen=True)
class _Verb:
    zh: str
    base: str
    third: str  # he loves
    ing: str | None  # progressive form, None when the verb takes none
    objects: tuple[_NP, ...]
    subjects: tuple[_NP, ...] = _PEOPLE_SUBJECTS
    negated: str | None = None  # the base form after do not, when another word (喜欢 → like)
    action: bool = True  # can be said with 没 (did not), 会 (will) and time words

    def form(self, np: _NP) -> str:
        return self.third if np.third_singular else self.base


_VERBS = (
    _Verb(
        "喜欢",
        "love",
        "loves",
        None,
        (*_GENERIC, *_PRONOUN_OBJECTS, *_OWNED_OBJECTS[:12]),
        _SUBJECTS,
        negated="like",
        action=False,
    ),
    _Verb("爱", "love", "loves", None, (*_PRONOUN_OBJECTS, *_OWNED_OBJECTS), action=False),
    _Verb(
        "看见",
        "see",
        "sees",
        None,
        (*_SPECIFIC, *_counted("猫"), *_counted("狗"), *_counted("书"), *_PRONOUN_OBJECTS, *_OWNED_ANIMALS),
        _SUBJECTS,
    ),
    _Verb("有", "have", "has", None, _OWNABLE, action=False),
    _Verb("喝", "drink", "drinks", "drinking", (*_mass(_DRINKS), *_cups("茶"), *_cups("咖啡")), _SUBJECTS),
    _Verb("吃", "eat", "eats", "eating", (*_mass(_FOODS), *_counted("苹果")[:3]), _SUBJECTS),
    _Verb("去", "go", "goes", None, tuple(_NP(zh, "", "to " + en, kind="place") for zh, en in _PLACES.items())),
    _Verb("学习", "learn", "learns", "learning", tuple(_mass(_SUBJECTS_TO_LEARN))),
    _Verb("追", "chase", "chases", "chasing", (*_SPECIFIC[:4], *_PRONOUN_OBJECTS), _SUBJECTS),
    _Verb("帮助", "help", "helps", "helping", (*_SPECIFIC[2:4], *_PRONOUN_OBJECTS)),
    _Verb("认识", "know", "knows", None, (*_SPECIFIC[2:4], *_PRONOUN_OBJECTS), action=False),
)
_INTRANSITIVE = (("睡觉", "sleeping"), ("跑", "running"))  # only with 在: 猫在睡觉 → The cat is sleeping
_TIMES = {"今天": "today", "每天": "every day"}


# ---------------------------------------------------------------- sentences


def _sentence(words: list[str], end: str = ".") -> str:
    text = " ".join(w for w in words if w)
    return text[0].upper() + text[1:] + " " + end


def _same_person(a: _NP, b: _NP) -> bool:
    """我 … 我, 我们 … 我: a subject and an object that would need a reflexive (myself) or are odd."""
    persons = {"我": 1, "我们": 1, "你": 2, "你们": 2}
    return a.zh == b.zh or (a.zh in persons and persons[a.zh] == persons.get(b.zh))


def _pair(
    source: str, words: list[str], tags: tuple[str, ...], s: _NP, verb: str, o: _NP | None = None, end="."
) -> CorpusPair:
    """A pair with its phenomena (possessive and measure_word found from the noun phrases) and its slots."""
    found = set(tags)
    if s.possessive or (o is not None and o.possessive):
        found.add("possessive")
    if o is not None and o.kind == "count":
        found.add("measure_word")
    phenomena = tuple(p for p in PHENOMENA if p in found)
    return CorpusPair(source, _sentence(words, end), phenomena, s.zh, verb, None if o is None else o.zh)


def _frames(verb: _Verb, s: _NP, o: _NP) -> list[CorpusPair]:
    """Every sentence of a subject, a verb and an object: statement, negation, question, and for actions 没, 会 …
    明天, time words and 在."""
    v, asked = verb.zh, s.zh != "我"  # no "Do I …?"
    out = [_pair(f"{s.zh}{v}{o.zh}", [s.en, verb.form(s), o.obj], ("agreement",), s, v, o)]
    if v == "有":  # 没有 with the bare noun: 我没有猫 → I do not have a cat
        if o.zh.startswith("一"):
            bare = _NP(o.zh[2:], "", o.obj, kind="thing")
            out.append(
                _pair(f"{s.zh}没有{bare.zh}", [s.en, s.do, "not have", o.obj], ("negation", "agreement"), s, v, bare)
            )
    else:
        words = [s.en, s.do, "not", verb.negated or verb.base, o.obj]
        out.append(_pair(f"{s.zh}不{v}{o.zh}", words, ("negation", "agreement"), s, v, o))
    if asked:
        out.append(_pair(f"{s.zh}{v}{o.zh}吗", [s.do, s.en, verb.base, o.obj], ("question", "agreement"), s, v, o, "?"))
    if not verb.action:
        return out
    out.append(_pair(f"{s.zh}没{v}{o.zh}", [s.en, "did not", verb.base, o.obj], ("negation",), s, v, o))
    future = [s.en, "will", verb.base, o.obj, "tomorrow"]
    for source in (f"{s.zh}明天会{v}{o.zh}", f"明天{s.zh}会{v}{o.zh}"):
        out.append(_pair(source, future, ("future", "time_word"), s, v, o))
    if asked:
        words = ["will", s.en, verb.base, o.obj, "tomorrow"]
        out.append(_pair(f"{s.zh}明天会{v}{o.zh}吗", words, ("future", "time_word", "question"), s, v, o, "?"))
    if v != "看见":  # "I see the cat today" is not how English says it
        for time, time_en in _TIMES.items():
            for source in (f"{s.zh}{time}{v}{o.zh}", f"{time}{s.zh}{v}{o.zh}"):
                out.append(_pair(source, [s.en, verb.form(s), o.obj, time_en], ("time_word", "agreement"), s, v, o))
    if verb.ing is not None and o.kind != "count":
        tags = ("progressive", "agreement")
        out.append(_pair(f"{s.zh}在{v}{o.zh}", [s.en, s.be, verb.ing, o.obj], tags, s, v, o))
        if asked:
            out.append(_pair(f"{s.zh}在{v}{o.zh}吗", [s.be, s.en, verb.ing, o.obj], (*tags, "question"), s, v, o, "?"))
    return out


def _transitive() -> list[CorpusPair]:
    """Every subject, verb and object the verbs allow, in every frame."""
    return [
        p
        for verb in _VERBS
        for s in verb.subjects
        for o in verb.objects
        if not _same_person(s, o)
        for p in _frames(verb, s, o)
    ]


def _mutual() -> list[CorpusPair]:
    """Two clauses, each the other reversed: 我爱你 , 你爱我 → I love you , you love me ."""
    out = []
    for verb in _VERBS:
        if verb.zh not in ("爱", "喜欢", "帮助", "认识", "看见", "追"):
            continue
        people = _PRONOUNS if verb.zh != "追" else (*_PRONOUNS[:4], _the("猫"), _the("狗"))
        for s in people:
            for o in people:
                if _same_person(s, o) or o.zh not in {x.zh for x in verb.objects}:
                    continue
                words = [s.en, verb.form(s), o.obj, ",", o.en, verb.form(o), s.obj]
                source = f"{s.zh}{verb.zh}{o.zh} , {o.zh}{verb.zh}{s.zh}"
                out.append(_pair(source, words, ("agreement",), s, verb.zh, o))
    return out


_DEMONSTRATIVES = tuple(
    _NP(f"{d}{noun.measure}{zh}", f"{d_en} {noun.en}", "", kind=noun.kind)
    for zh, noun in _NOUNS.items()
    for d, d_en in (("这", "this"), ("那", "that"))
)  # 这只猫 → this cat


def _described() -> list[CorpusPair]:
    """很 + an adjective (不 …, … 吗), 是 + a noun, and 在 + a verb without an object."""
    out = []
    for s in (*_SUBJECTS, *_DEMONSTRATIVES):
        asked = s.zh != "我" and s not in _DEMONSTRATIVES
        for adjective, en in _ADJECTIVES[s.kind].items():
            tags = ("adjective", "agreement")
            out.append(_pair(f"{s.zh}很{adjective}", [s.en, s.be, en], tags, s, adjective))
            out.append(_pair(f"{s.zh}不{adjective}", [s.en, s.be, "not", en], (*tags, "negation"), s, adjective))
            if asked:
                out.append(_pair(f"{s.zh}{adjective}吗", [s.be, s.en, en], (*tags, "question"), s, adjective, end="?"))
        if s in _DEMONSTRATIVES:
            continue
        for zh, noun in _NOUNS.items():
            if s.kind != "person" or zh not in ("学生", "老师") or s.zh.endswith(zh) or s.zh.startswith(zh):
                continue
            o = _NP(zh, "", noun.plural if s.plural else _article(noun.en))
            out.append(_pair(f"{s.zh}是{zh}", [s.en, s.be, o.obj], ("agreement",), s, "是", o))
            if asked:
                out.append(_pair(f"{s.zh}是{zh}吗", [s.be, s.en, o.obj], ("question", "agreement"), s, "是", o, "?"))
        for verb, ing in _INTRANSITIVE:
            out.append(_pair(f"{s.zh}在{verb}", [s.en, s.be, ing], ("progressive", "agreement"), s, verb))
    return out


def _swap_key(p: CorpusPair, swapped: bool = False) -> tuple:
    subject, obj = (p.object, p.subject) if swapped else (p.subject, p.object)
    return subject, p.verb, obj, tuple(sorted(p.source))


def _with_role_reversal(pairs: list[CorpusPair]) -> list[CorpusPair]:
    """Tag role_reversal on every pair that has a partner with the subject and the object swapped, the same
    characters in another order and another meaning (猫追狗 / 狗追猫, 我帮助他 / 他帮助我)."""
    targets: dict[tuple, set[str]] = defaultdict(set)
    for p in pairs:
        targets[_swap_key(p)].add(p.target)
    out = []
    for p in pairs:
        if p.object is not None and targets.get(_swap_key(p, swapped=True), {p.target}) - {p.target}:
            tags = tuple(t for t in PHENOMENA if t in p.phenomena or t == "role_reversal")
            p = CorpusPair(p.source, p.target, tags, p.subject, p.verb, p.object)
        out.append(p)
    return out


@functools.cache
def grammar() -> tuple[CorpusPair, ...]:
    """Every pair the grammar makes, in a fixed order, each source once (with one target: a source made twice must
    be made with the same target, or this raises)."""
    seen: dict[str, CorpusPair] = {}
    for p in _transitive() + _mutual() + _described():
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
    """For each role-reversal pair, a pair with its subject and object swapped (猫追狗 → 狗追猫)."""
    by_slots = {_swap_key(p): i for i, p in enumerate(grammar())}
    return {i: by_slots[_swap_key(p, swapped=True)] for i, p in enumerate(grammar()) if "role_reversal" in p.phenomena}


def _family(p: CorpusPair) -> str:
    """The kind of sentence a pair is, for drawing every kind about equally often."""
    for tag in ("future", "question", "negation", "time_word", "progressive", "adjective", "measure_word"):
        if tag in p.phenomena:
            return tag
    return "role_reversal" if "role_reversal" in p.phenomena else "statement"


def max_size() -> int:
    """The most distinct pairs a corpus can have: every pair of the grammar."""
    return len(grammar())


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
    tutorial = CorpusPair(*TUTORIAL_PAIR, pair.phenomena, pair.subject, pair.verb, pair.object)
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


def format_corpus(pairs: list[CorpusPair]) -> str:
    """The pairs as TSV with a header: source, target and phenomena (tags separated by spaces)."""
    lines = ["source\ttarget\tphenomena"] + [f"{p.source}\t{p.target}\t{' '.join(p.phenomena)}" for p in pairs]
    return "\n".join(lines) + "\n"
