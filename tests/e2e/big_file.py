"""A realistic 20,000-pair zh→en TSV file, generated (nothing is downloaded) for the browser test and the benchmark.

What makes it realistic is its shape, not its meaning: Chinese sentences of 3 to 38 characters (median ~13, like a
long-ish sentence collection), drawn from ~3,500 distinct characters with a Zipf-like spread, a "，" inside longer ones
and 。/？/！ at the end; English sentences of 60-100 % as many words, drawn from 12,000 made-up words with a Zipf
spread, capitalised, a comma now and then, ending in . ? or !. The vocabularies come out near what 20,000 real pairs
give: a few thousand characters, some 15,000 distinct English tokens.
"""

from __future__ import annotations

import itertools
import random

# letters in English text frequencies (percent), for made-up words that look like words
_LETTERS = "etaoinshrdlcumwfgypbvkjxqz"
_LETTER_WEIGHTS = [12.7, 9.1, 8.2, 7.5, 7.0, 6.7, 6.3, 6.1, 6.0, 4.3, 4.0, 2.8, 2.8, 2.4, 2.4, 2.2, 2.0, 2.0, 1.9, 1.5]
_LETTER_WEIGHTS += [1.0, 0.8, 0.15, 0.15, 0.1, 0.07]
_WORD_LENGTHS = [1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 7, 7, 8, 9, 10, 11]


def realistic_pairs(n: int = 20_000, seed: int = 0) -> list[tuple[str, str]]:
    """n (Chinese, English) sentence pairs of realistic lengths and vocabularies; the same seed, the same pairs."""
    rng = random.Random(seed)
    characters = [chr(c) for c in rng.sample(range(0x4E00, 0x9FA6), 3_500)]
    words: set[str] = set()
    while len(words) < 12_000:
        word = "".join(rng.choices(_LETTERS, _LETTER_WEIGHTS, k=rng.choice(_WORD_LENGTHS)))
        if word not in ("p", "s", "e"):  # capitalised, the model's reserved tokens P, S, E
            words.add(word)
    vocabulary = sorted(words)
    rng.shuffle(vocabulary)
    char_weights = list(itertools.accumulate(1 / (i + 1) ** 0.8 for i in range(len(characters))))
    word_weights = list(itertools.accumulate(1 / (i + 1) for i in range(len(vocabulary))))
    pairs = []
    for _ in range(n):
        length = min(38, max(3, int(rng.lognormvariate(2.6, 0.45))))
        chinese = rng.choices(characters, cum_weights=char_weights, k=length)
        if length > 10:
            chinese.insert(rng.randrange(3, length - 2), "，")
        chinese.append(rng.choice("。。。？！"))
        count = min(38, max(2, int(length * rng.uniform(0.6, 1.0))))
        english = rng.choices(vocabulary, cum_weights=word_weights, k=count)
        english[0] = english[0].capitalize()
        if count > 8 and rng.random() < 0.5:
            english[count // 2] += ","
        pairs.append(("".join(chinese), " ".join(english) + rng.choice("..?!")))
    return pairs


def realistic_file(n: int = 20_000, seed: int = 0) -> bytes:
    """realistic_pairs as a UTF-8 TSV file with a header, as a learner's export would be."""
    lines = ["source\ttarget", *(f"{source}\t{target}" for source, target in realistic_pairs(n, seed))]
    return ("\n".join(lines) + "\n").encode("utf-8")
