"""The teaching corpus's grammar: its lexicon and the sentences it builds, each with its gold word alignment.

A sentence is built from pieces: a piece is a word's text and the keys it is linked by. A source piece and a target
piece sharing a sure key on both sides make sure links (every character of the one to every token of the other);
sharing a key that either holds only as possible makes possible links. So 一只猫 → a cat links 一 and a (sure), 只
and a (possible: a measure word has no English word), 猫 and cat (sure). Words without a counterpart are possible
links to the word that calls for them: an article to its noun, do / does to 不 or 吗, am / is / are to 很, 不, 在 or
吗, a measure word to its number, "to" to 去, 了 to the past verb, the "?" of a question to 吗; the full stop is
unaligned. `sentences()` is every sentence of the grammar; transformer.corpus tags them and draws corpora.
Standard library only.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

# word classes of the lexicon (what the embeddings view colours by)
LEXICON: dict[str, str] = {}


def _lex(kind: str, *words: str) -> None:
    for word in words:
        LEXICON.setdefault(word, kind)


@dataclass(frozen=True)
class Piece:
    """A word of one side of a sentence and the keys that link it: sure keys and possible-only keys."""

    text: str
    sure: frozenset = frozenset()
    weak: frozenset = frozenset()

    def prefixed(self, role: str) -> Piece:
        return _prefixed(self, role)


@functools.cache
def _prefixed(piece: Piece, role: str) -> Piece:
    """The piece with its keys of another role (s., o., 2s. …): the same word in another slot of the sentence."""
    return Piece(piece.text, frozenset(role + k for k in piece.sure), frozenset(role + k for k in piece.weak))


@functools.cache
def p(text: str, sure: str = "", weak: str = "") -> Piece:
    """A piece linked surely by the space-separated keys `sure` and possibly by `weak`."""
    return Piece(text, frozenset(sure.split()), frozenset(weak.split()))


def _words(text: str, key: str) -> tuple[Piece, ...]:
    """An English verb form: its first word sure, the others (to of go to) possible."""
    first, *rest = text.split()
    return (p(first, key), *(p(w, weak=key) for w in rest))


@dataclass(frozen=True)
class Sentence:
    """A sentence pair as pieces, the phenomena its frame shows, and the slots of each clause (subject, verb,
    object as Chinese text)."""

    zh: tuple[Piece, ...]
    en: tuple[Piece, ...]
    tags: tuple[str, ...]
    clauses: tuple[tuple[str, str, str | None], ...]
    pattern: str = ""  # the frame, as docs/corpus.md lists it

    @property
    def source(self) -> str:
        return "".join(x.text for x in self.zh)

    @property
    def target(self) -> str:
        text = " ".join(x.text for x in self.en)
        return text[0].upper() + text[1:]

    def links(self) -> str:
        """The gold alignment: `i-j` sure, `i?j` possible, 0-based, source token (character) first."""
        targets, j = [], 0  # each target piece: its sure keys, all its keys, its tokens
        for b in self.en:
            sure, every, words = _keys(b, " ")
            targets.append((sure, every, range(j, j + words)))
            j += words
        out, i = [], 0
        for a in self.zh:
            sure, every, width = _keys(a, "")
            if every:
                row = []  # the links of each of a's characters, in target order
                for their_sure, their_every, tokens in targets:
                    if not sure.isdisjoint(their_sure):
                        row += [f"-{y}" for y in tokens]
                    elif not every.isdisjoint(their_every):
                        row += [f"?{y}" for y in tokens]
                out += [f"{x}{link}" for x in range(i, i + width) for link in row]  # by source, then target token
            i += width
        return " ".join(out)


@functools.cache
def _keys(piece: Piece, separator: str) -> tuple[frozenset, frozenset, int]:
    """A piece's sure keys, all its keys, and its tokens: its words split on separator (a target piece's, " "), or
    its characters (a source piece's, "")."""
    tokens = piece.text.count(" ") + 1 if separator else len(piece.text.replace(" ", ""))
    return piece.sure, piece.sure | piece.weak, tokens


# ---------------------------------------------------------------- noun phrases


@dataclass(frozen=True)
class NP:
    """A noun phrase: its Chinese and English pieces (as subject, as object) and how the verb agrees with it."""

    zh: tuple[Piece, ...]
    en: tuple[Piece, ...]
    obj: tuple[Piece, ...]
    person: int = 3
    plural: bool = False
    kind: str = "person"  # person, animal, thing, count, place
    possessive: bool = False

    @property
    def text(self) -> str:
        return "".join(x.text for x in self.zh)

    @property
    def third_singular(self) -> bool:
        return self.person == 3 and not self.plural

    @property
    def be(self) -> str:
        return "am" if self.person == 1 and not self.plural else "is" if self.third_singular else "are"

    @property
    def do(self) -> str:
        return "does" if self.third_singular else "do"


def _simple(zh: str, en: str, obj: str | None = None, **kw) -> NP:
    """One Chinese word for one English phrase; an article before the noun is possible-linked to it."""

    def side(text: str) -> tuple[Piece, ...]:
        return tuple(p(w, weak="h") if w in ("the", "a", "an") else p(w, "h") for w in text.split())

    return NP((p(zh, "h"),), side(en), side(en if obj is None else obj), **kw)


PRONOUNS = (
    _simple("我", "I", "me", person=1),
    _simple("你", "you", "you", person=2),
    _simple("他", "he", "him"),
    _simple("她", "she", "her"),
    _simple("我们", "we", "us", person=1, plural=True),
    _simple("你们", "you", "you", person=2, plural=True),
    _simple("他们", "they", "them", plural=True),
)
POSSESSORS = (("我", "my"), ("你", "your"), ("他", "his"), ("她", "her"), ("我们", "our"), ("他们", "their"))


@dataclass(frozen=True)
class Noun:
    zh: str
    en: str
    plural: str
    measure: str  # the measure word of 一只猫, 一本书 …
    kind: str


NOUNS = {
    n.zh: n
    for n in (
        Noun("猫", "cat", "cats", "只", "animal"),
        Noun("狗", "dog", "dogs", "只", "animal"),
        Noun("老师", "teacher", "teachers", "个", "person"),
        Noun("学生", "student", "students", "个", "person"),
        Noun("朋友", "friend", "friends", "个", "person"),
        Noun("书", "book", "books", "本", "thing"),
        Noun("苹果", "apple", "apples", "个", "thing"),
    )
}
NUMBERS = (("一", None), ("两", "two"), ("三", "three"), ("四", "four"), ("五", "five"))  # None: a / an
DRINKS = {"茶": "tea", "咖啡": "coffee", "牛奶": "milk", "水": "water"}
FOODS = {"米饭": "rice", "面条": "noodles", "鱼": "fish"}
PLACES = {"学校": "school", "公园": "the park", "北京": "Beijing", "商店": "the shop", "图书馆": "the library"}
SUBJECTS_TO_LEARN = {"中文": "Chinese", "英文": "English", "音乐": "music", "数学": "math"}
ADJECTIVES = {  # by the kind of thing they describe; 好 is left out: 你好吗 is How are you ?
    "person": {"忙": "busy", "累": "tired", "高": "tall", "开心": "happy"},
    "animal": {"小": "small", "大": "big", "可爱": "cute", "累": "tired"},
    "书": {"新": "new", "旧": "old", "小": "small", "大": "big"},
    "苹果": {"小": "small", "大": "big", "红": "red"},
}
GENERIC = {  # objects of 喜欢 read generically: 我喜欢猫 → I like cats
    "猫": "cats",
    "狗": "dogs",
    "鱼": "fish",
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
NOT_FOR_ANIMALS = ("书", "苹果", "音乐", "茶", "咖啡", "学习", "面条")  # 猫喝咖啡 is grammar, not sense
_lex("pronoun", *(n.text for n in PRONOUNS))
_lex("noun", *NOUNS, *DRINKS, *FOODS, *PLACES, *SUBJECTS_TO_LEARN, "家")
_lex("adjective", *(a for kind in ADJECTIVES.values() for a in kind))
_lex("number", *(n for n, _ in NUMBERS))
_lex("measure word", "只", "本", "个", "杯")
_lex("time word", "今天", "每天", "明天")
_lex("function word", "的", "不", "没", "吗", "很", "在", "会", "了", "这", "那", "们")


def the(zh: str) -> NP:
    """猫 → the cat."""
    noun = NOUNS[zh]
    return _simple(zh, "the " + noun.en, kind=noun.kind)


def owned(owner: str, owner_en: str, zh: str, en: str, kind: str) -> NP:
    """我的猫 → my cat (我的 ↔ my, 猫 ↔ cat)."""
    pieces = (p(owner, "p"), p("的", "p"), p(zh, "h"))
    english = (p(owner_en, "p"), p(en, "h"))
    return NP(pieces, english, english, kind=kind, possessive=True)


def counted(zh: str) -> list[NP]:
    """一只猫 → a cat, 两只猫 → two cats, … (as objects; the measure word possible-linked to the number)."""
    noun = NOUNS[zh]
    out = []
    for number, en in NUMBERS:
        word = ("an" if noun.en[0] in "aeiou" else "a") if en is None else en
        pieces = (p(number, "n"), p(noun.measure, weak="n"), p(zh, "h"))
        english = (p(word, "n"), p(noun.en if en is None else noun.plural, "h"))
        out.append(NP(pieces, (), english, kind="count"))
    return out


def cups(zh: str) -> list[NP]:
    """一杯茶 → a cup of tea, 两杯茶 → two cups of tea."""
    out = []
    for number, en in NUMBERS[:3]:
        pieces = (p(number, "n"), p("杯", "c"), p(zh, "h"))
        english = (p(en or "a", "n"), p("cup" if en is None else "cups", "c"), p("of", weak="c"), p(DRINKS[zh], "h"))
        out.append(NP(pieces, (), english, kind="count"))
    return out


def mass(words: dict[str, str], kind: str = "thing") -> list[NP]:
    """Words without an article: 茶 → tea, 公园 → the park (the possible-linked)."""
    return [_simple(zh, en, kind=kind) for zh, en in words.items()]


def bare(count: NP) -> NP:
    """一只猫 without its number and measure word (没有猫 → not have a cat: a possible-linked to 猫)."""
    head = count.zh[-1]
    noun = count.obj[-1]
    return NP((head,), (), (p(count.obj[0].text, weak="h"), noun), kind="thing")


def demonstratives() -> tuple[NP, ...]:
    """这只猫 → this cat, 那本书 → that book (the measure word possible-linked to this / that)."""
    out = []
    for zh, noun in NOUNS.items():
        if zh == "朋友":
            continue  # 这个朋友 is not how one points at a friend
        for d, d_en in (("这", "this"), ("那", "that")):
            english = (p(d_en, "d"), p(noun.en, "h"))
            kind = noun.kind if noun.kind != "thing" else zh
            out.append(NP((p(d, "d"), p(noun.measure, weak="d"), p(zh, "h")), english, (), kind=kind))
    return tuple(out)


PEOPLE = (
    *PRONOUNS,
    the("老师"),
    the("学生"),
    NP((p("学生", "h"), p("们", "h")), (p("the", weak="h"), p("students", "h")), (), plural=True),
    *(owned(o, oe, n, NOUNS[n].en, "person") for (o, oe), n in zip(POSSESSORS[:4], ("朋友", "老师") * 2)),
)
ANIMALS = (
    the("猫"),
    the("狗"),
    *(owned(o, oe, n, NOUNS[n].en, "animal") for (o, oe), n in zip(POSSESSORS[:4], ("猫", "狗", "狗", "猫"))),
)
SUBJECTS = PEOPLE + ANIMALS
_SPECIFIC = tuple(the(n) for n in ("猫", "狗", "老师", "学生", "书"))  # 看见猫 → see the cat
_OWNED = tuple(
    owned(o, oe, n, en, "thing") for o, oe in POSSESSORS for n, en in (("猫", "cat"), ("狗", "dog"), ("家", "home"))
)
_OWNED_ANIMALS = tuple(o for o in _OWNED if not o.text.endswith("家"))  # my cat … their dog
_OWNABLE = tuple(o for n in ("猫", "狗", "书", "苹果", "朋友") for o in counted(n))  # 有一只猫 …


@dataclass(frozen=True)
class Verb:
    """A verb: its English forms (past None: a state, said without 没, 会 or a time word), what it takes, who does
    it, and whether 在 makes its progressive."""

    zh: str
    base: str
    third: str  # he likes
    ing: str | None
    past: str | None
    objects: tuple[NP, ...]
    subjects: tuple[NP, ...] = PEOPLE
    zai: bool = False  # 在 + the verb: is … -ing

    def form(self, np: NP) -> str:
        return self.third if np.third_singular else self.base


VERBS = (
    Verb("喜欢", "like", "likes", None, None, (*mass(GENERIC), *PRONOUNS, *_OWNED_ANIMALS), SUBJECTS),
    Verb("爱", "love", "loves", None, None, (*PRONOUNS, *_OWNED)),
    Verb(
        "看见",
        "see",
        "sees",
        None,
        "saw",
        (*_SPECIFIC, *counted("猫"), *counted("狗"), *counted("书"), *PRONOUNS, *_OWNED_ANIMALS),
        SUBJECTS,
    ),
    Verb("有", "have", "has", None, None, _OWNABLE),
    Verb("喝", "drink", "drinks", "drinking", "drank", (*mass(DRINKS), *cups("茶"), *cups("咖啡")), SUBJECTS, True),
    Verb("吃", "eat", "eats", "eating", "ate", (*mass(FOODS), *counted("苹果")[:3]), SUBJECTS, True),
    Verb("去", "go to", "goes to", "going to", "went to", tuple(mass(PLACES, "place"))),
    Verb("学习", "learn", "learns", "learning", "learned", tuple(mass(SUBJECTS_TO_LEARN)), zai=True),
    Verb("追", "chase", "chases", "chasing", "chased", (*_SPECIFIC[:4], *PRONOUNS), SUBJECTS, True),
    Verb("帮助", "help", "helps", "helping", "helped", (*_SPECIFIC[2:4], *PRONOUNS), zai=True),
    Verb("认识", "know", "knows", None, None, (*_SPECIFIC[2:4], *PRONOUNS)),
)
INTRANSITIVE = (("睡觉", "sleeping"), ("跑", "running"))  # only with 在: 猫在睡觉 → The cat is sleeping
_lex("verb", *(v.zh for v in VERBS), *(v for v, _ in INTRANSITIVE), "是")
_lex("noun", *GENERIC)


def same_person(a: NP, b: NP) -> bool:
    """我 … 我, 我们 … 我: a subject and an object that would need a reflexive (myself) or are odd."""
    persons = {"我": 1, "我们": 1, "你": 2, "你们": 2}
    return a.text == b.text or (a.text in persons and persons[a.text] == persons.get(b.text))


def _fits(verb: Verb, s: NP, o: NP) -> bool:
    if same_person(s, o) or any(noun in s.text and noun in o.text for noun in NOUNS):
        return False  # 你的狗追狗, 学生们认识学生: not how one says it
    return s.kind != "animal" or not any(word in o.text for word in NOT_FOR_ANIMALS)


def _s(np: NP, role: str = "s.") -> tuple[Piece, ...]:
    return tuple(x.prefixed(role) for x in np.zh)


def _frames(verb: Verb, s: NP, o: NP) -> list[Sentence]:
    """Every sentence of a subject, a verb and an object, each frame with the tense English gives it."""
    S, O, V = _s(s), _s(o, "o."), (p(verb.zh, "v"),)
    Se, Oe = tuple(x.prefixed("s.") for x in s.en), tuple(x.prefixed("o.") for x in o.obj)
    asked, count, clause = s.text != "我", o.kind == "count", ((s.text, verb.zh, o.text),)
    end, ask = p("."), p("?", weak="q")

    found = ("possessive",) * (s.possessive or o.possessive) + ("measure_word",) * count

    def made(pattern, zh, en, *tags) -> Sentence:
        return Sentence(tuple(zh), tuple(en), tags + found, clause, pattern)

    out = []
    if verb.zh == "看见":  # 我看见猫 → I saw the cat: 看见 tells what was seen
        out.append(made("S 看见 O", [*S, *V, *O], [*Se, *_words(verb.past, "v"), *Oe, end], "past"))
    elif count and verb.past:  # 我喝了一杯茶 → I drank a cup of tea: a number of things is what was done
        zh, en = [*S, *V, p("了", weak="v"), *O], [*Se, *_words(verb.past, "v"), *Oe, end]
        out.append(made("S V 了 number O", zh, en, "past"))
    else:
        out.append(made("S V O", [*S, *V, *O], [*Se, *_words(verb.form(s), "v"), *Oe, end], "agreement"))
    neg = [p(s.do, weak="neg"), p("not", "neg")]
    if verb.zh == "有":
        if o.text.startswith("一"):  # 没有 with the bare noun: 我没有猫 → I do not have a cat
            b = bare(o)
            out.append(
                Sentence(
                    (*S, p("没", "neg"), *V, *_s(b, "o.")),
                    (*Se, *neg, *_words("have", "v"), *(x.prefixed("o.") for x in b.obj), end),
                    ("negation", "agreement") + ("possessive",) * s.possessive,
                    ((s.text, verb.zh, b.text),),
                    "S 没有 O",
                )
            )
    elif verb.zh != "看见" and not count:  # 不看见 is not Chinese; 不 + a number of things is not what one denies
        out.append(
            made(
                "S 不 V O",
                [*S, p("不", "neg"), *V, *O],
                [*Se, *neg, *_words(verb.base, "v"), *Oe, end],
                "negation",
                "agreement",
            )
        )
    if asked and (not count or verb.zh == "有"):
        if verb.zh == "看见":  # 你看见我的狗了吗 → Did you see my dog ?
            zh = [*S, *V, *O, p("了", weak="past"), p("吗", "q")]
            en = [p("did", weak="q past"), *Se, *_words(verb.base, "v"), *Oe, ask]
            out.append(made("S 看见 O 了吗", zh, en, "question", "past"))
        else:
            zh = [*S, *V, *O, p("吗", "q")]
            en = [p(s.do, weak="q"), *Se, *_words(verb.base, "v"), *Oe, ask]
            out.append(made("S V O 吗", zh, en, "question", "agreement"))
    if verb.past is None or count and verb.zh == "看见":
        return out
    if not count:  # 我没喝茶 → I did not drink tea
        zh = [*S, p("没", "neg"), *V, *O]
        out.append(
            made(
                "S 没 V O",
                zh,
                [*Se, p("did", "neg"), p("not", "neg"), *_words(verb.base, "v"), *Oe, end],
                "negation",
                "past",
            )
        )
    if verb.zh == "看见":
        return out
    T = (p("明天", "t"),)
    future = [*Se, p("will", "fut"), *_words(verb.base, "v"), *Oe, p("tomorrow", "t"), end]
    will = (p("会", "fut"),)
    for name, zh in (("S 明天会 V O", [*S, *T, *will, *V, *O]), ("明天 S 会 V O", [*T, *S, *will, *V, *O])):
        if not (zh[0] is T[0] and s.text.endswith("学生")):  # 明天学生会… reads as 学生会, the students' union
            out.append(made(name, zh, future, "future", "time_word"))
    if asked and not count:
        zh = [*S, *T, *will, *V, *O, p("吗", "q")]
        en = [p("will", "fut", "q"), *Se, *_words(verb.base, "v"), *Oe, p("tomorrow", "t"), ask]
        out.append(made("S 明天会 V O 吗", zh, en, "future", "time_word", "question"))
    every = [*Se, *_words(verb.form(s), "v"), *Oe, p("every", "t"), p("day", "t"), end]  # habit: simple present
    T = (p("每天", "t"),)
    for name, zh in (("S 每天 V O", [*S, *T, *V, *O]), ("每天 S V O", [*T, *S, *V, *O])):
        out.append(made(name, zh, every, "time_word", "agreement"))
    if verb.ing is not None and not count:  # 我今天喝茶 → I am drinking tea today
        today = [*Se, p(s.be, weak="v"), *_words(verb.ing, "v"), *Oe, p("today", "t"), end]
        T = (p("今天", "t"),)
        for name, zh in (("S 今天 V O", [*S, *T, *V, *O]), ("今天 S V O", [*T, *S, *V, *O])):
            out.append(made(name, zh, today, "time_word", "agreement"))
    if verb.zai and not count:
        Z = (p("在", "prog"),)
        en = [*Se, p(s.be, weak="prog"), *_words(verb.ing, "v"), *Oe, end]
        out.append(made("S 在 V O", [*S, *Z, *V, *O], en, "progressive", "agreement"))
        if asked:
            en = [p(s.be, weak="prog q"), *Se, *_words(verb.ing, "v"), *Oe, ask]
            out.append(made("S 在 V O 吗", [*S, *Z, *V, *O, p("吗", "q")], en, "progressive", "agreement", "question"))
    return out


def _mutual() -> list[Sentence]:
    """Two clauses, each the other reversed: 我爱你 , 你爱我 → I love you , you love me ."""
    out = []
    for verb in VERBS:
        if verb.zh not in ("爱", "喜欢", "帮助", "认识", "追"):
            continue
        people = PRONOUNS if verb.zh != "追" else (*PRONOUNS[:4], the("猫"), the("狗"))
        for s in people:
            for o in people:
                if same_person(s, o) or o.text not in {x.text for x in verb.objects}:
                    continue
                zh = (
                    *_s(s),
                    p(verb.zh, "v"),
                    *_s(o, "o."),
                    p(" , ", ","),
                    *_s(o, "2s."),
                    p(verb.zh, "2v"),
                    *_s(s, "2o."),
                )
                en = (
                    *(x.prefixed("s.") for x in s.en),
                    *_words(verb.form(s), "v"),
                    *(x.prefixed("o.") for x in o.obj),
                    p(",", ","),
                    *(x.prefixed("2s.") for x in o.en),
                    *_words(verb.form(o), "2v"),
                    *(x.prefixed("2o.") for x in s.obj),
                    p("."),
                )
                slots = ((s.text, verb.zh, o.text), (o.text, verb.zh, s.text))
                out.append(Sentence(zh, en, ("agreement",), slots, "X V Y , Y V X"))
    return out


def _described() -> list[Sentence]:
    """很 + an adjective (不 …, … 吗), 是 + a noun, and 在 + a verb without an object."""
    out = []
    end, ask = p("."), p("?", weak="q")
    for s in (*SUBJECTS, *demonstratives()):
        pointed = not s.obj  # 这只猫, 那本书: no questions, nothing but adjectives
        S, Se = _s(s), tuple(x.prefixed("s.") for x in s.en)
        for adjective, en in ADJECTIVES[s.kind].items():
            A, Ae, one = (p(adjective, "a"),), (p(en, "a"),), ((s.text, adjective, None),)
            out.append(
                Sentence(
                    (*S, p("很", "very"), *A),
                    (*Se, p(s.be, weak="very"), *Ae, end),
                    ("adjective", "agreement"),
                    one,
                    "这 measure N 很 A" if s.text[0] in "这那" else "S 很 A",  # 学生们 too takes no questions
                )
            )
            zh, words = (*S, p("不", "neg"), *A), (*Se, p(s.be, weak="neg"), p("not", "neg"), *Ae, end)
            out.append(Sentence(zh, words, ("adjective", "negation", "agreement"), one, "S 不 A"))
            if s.text != "我" and not pointed:
                zh, words = (*S, *A, p("吗", "q")), (p(s.be, weak="q"), *Se, *Ae, ask)
                out.append(Sentence(zh, words, ("adjective", "question", "agreement"), one, "S A 吗"))
        if pointed:
            continue
        if s in PRONOUNS or (s.possessive and s.text.endswith("朋友")):  # 他是学生 → He is a student
            for zh in ("学生", "老师"):
                noun = NOUNS[zh]
                N = (p(zh, "o.h"),)
                Ne = (
                    (p(noun.plural, "o.h"),)
                    if s.plural
                    else (p("an" if noun.en[0] in "aeiou" else "a", weak="o.h"), p(noun.en, "o.h"))
                )
                one = ((s.text, "是", zh),)
                zh = (*S, p("是", "v"), *N)
                out.append(Sentence(zh, (*Se, p(s.be, "v"), *Ne, end), ("agreement",), one, "S 是 N"))
                if s.text != "我":
                    words = (p(s.be, "v", "q"), *Se, *Ne, ask)
                    zh = (*S, p("是", "v"), *N, p("吗", "q"))
                    out.append(Sentence(zh, words, ("question", "agreement"), one, "S 是 N 吗"))
        for verb, ing in INTRANSITIVE:
            zh, words = (*S, p("在", "prog"), p(verb, "v")), (*Se, p(s.be, weak="prog"), p(ing, "v"), end)
            out.append(Sentence(zh, words, ("progressive", "agreement"), ((s.text, verb, None),), "S 在 V"))
    return out


def sentences() -> list[Sentence]:
    """Every sentence the grammar makes, in a fixed order (a source may come twice: the corpus keeps the first)."""
    transitive = [
        x
        for verb in VERBS
        for s in verb.subjects
        for o in verb.objects
        if _fits(verb, s, o)
        for x in _frames(verb, s, o)
    ]
    return transitive + _mutual() + _described()
