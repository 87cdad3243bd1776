"""The scores machine-translation people report, per phenomenon and per part (trained on / held out).

- exact match: the greedy translation equals the reference, token for token;
- token accuracy: teacher-forced, the share of reference tokens (and the final E) predicted right, as the training
  figures count them;
- BLEU and chrF, computed by sacrebleu (this is the one module of the package that imports it) over a group's greedy
  translations against its references, on a 0–100 scale.

Tokenization for sacrebleu: the hypotheses and references handed to it are our own tokens joined by single spaces
(the reference tokenized by the model's tokenizer, the output as the model produced it), so BLEU uses
`tokenize="none"`: splitting on those spaces gives back exactly the tokens the model reads and writes, and the
n-grams BLEU counts are the ones exact match and token accuracy count. sacrebleu's default 13a tokenizer is meant for
raw detokenized text; on ours it could only split tokens again (and for a Chinese target it would not split
characters apart, which we have already done). chrF compares character n-grams with whitespace removed, so the
joining spaces play no part in it.

Subword pieces (transformer.bpe) are the exception: BLEU and chrF score the translation joined back into text, as MT
papers report them, split into words by the `auto` rule (PairScore.scored_texts), so a score does not depend on how
the pieces happened to split a word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .corpus import PHENOMENA
from .translator import PairScore, Translator

METRICS = ("exact_match", "token_accuracy", "bleu", "chrf")
ALL = "all"  # the row of every pair, and the part of every pair when they are not divided
PARTS = ("train", "holdout")  # the parts of a held-out split, in the order tables show them


@dataclass(frozen=True)
class Scores:
    """The scores of a group of pairs."""

    pairs: int
    exact: int
    correct: int
    tokens: int
    bleu: float  # 0–100
    chrf: float  # 0–100

    @property
    def exact_match(self) -> float:
        return self.exact / self.pairs if self.pairs else 0.0

    @property
    def token_accuracy(self) -> float:
        return self.correct / self.tokens if self.tokens else 0.0

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in ("pairs", "exact", "correct", "tokens", "bleu", "chrf")}

    @classmethod
    def from_dict(cls, data: dict) -> Scores:
        """Rebuild from to_dict(); ValueError when a field is missing or out of range."""
        counts = [data.get(k) for k in ("pairs", "exact", "correct", "tokens")]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts):
            raise ValueError("counts must be whole numbers of at least 0")
        if counts[1] > counts[0] or counts[2] > counts[3]:
            raise ValueError("more right than counted")
        figures = [data.get("bleu"), data.get("chrf")]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 100 for v in figures):
            raise ValueError("BLEU and chrF must be numbers from 0 to 100")
        if set(data) != {"pairs", "exact", "correct", "tokens", "bleu", "chrf"}:
            raise ValueError("unknown fields")
        return cls(*counts, *map(float, figures))


def _bleu_metric():
    from sacrebleu.metrics import BLEU

    # force: our text is tokenized on purpose (see above), so sacrebleu's warning about tokenized periods is moot
    return BLEU(tokenize="none", force=True)


def _chrf_metric():
    from sacrebleu.metrics import CHRF

    return CHRF()


def bleu(outputs: Sequence[Sequence[str]], references: Sequence[Sequence[str]]) -> float:
    """Corpus BLEU (sacrebleu, tokenize="none", its default exponential smoothing) of token lists, 0–100."""
    hyps, refs = [" ".join(o) for o in outputs], [" ".join(r) for r in references]
    return _percent(_bleu_metric().corpus_score(hyps, [refs]).score) if hyps else 0.0


def chrf(outputs: Sequence[Sequence[str]], references: Sequence[Sequence[str]]) -> float:
    """Corpus chrF (sacrebleu's defaults: character 6-grams, β = 2) of token lists, 0–100."""
    hyps, refs = [" ".join(o) for o in outputs], [" ".join(r) for r in references]
    return _percent(_chrf_metric().corpus_score(hyps, [refs]).score) if hyps else 0.0


def _statistics(scored: Sequence[PairScore]) -> list[tuple[list, list]]:
    """sacrebleu's statistics of each pair, BLEU's and chrF's (its n-gram counts and matches). A corpus score is
    computed from the sum of its sentences' statistics, so a table counts each pair once for every group it is in, as
    sacrebleu's own bootstrap does for its resamples: a pair is in the ALL row and in each of its phenomena's."""
    texts = [p.scored_texts for p in scored]
    hyps, refs = [h for h, _ in texts], [r for _, r in texts]
    if not hyps:
        return []
    b, c = (m._extract_corpus_statistics(hyps, [refs]) for m in (_bleu_metric(), _chrf_metric()))
    return list(zip(b, c))


def _percent(score: float) -> float:
    """A score within 0–100 (sacrebleu's sums can end a rounding error above 100)."""
    return min(100.0, max(0.0, float(score)))


def score_pairs(translator: Translator, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
    """Greedy output and teacher-forced token counts for every pair (Translator.evaluate: batched, and each pair
    decoded once and teacher-forced once)."""
    return translator.evaluate(list(pairs)).scored if pairs else []


def aggregate(scored: Sequence[PairScore], statistics: Sequence[tuple[list, list]] | None = None) -> Scores:
    """The scores of a group of scored pairs (and their _statistics, when they are known already): BLEU and chrF are
    sacrebleu's corpus scores of the group."""
    statistics = _statistics(scored) if statistics is None else statistics
    bleu_stats, chrf_stats = [s[0] for s in statistics], [s[1] for s in statistics]
    return Scores(
        pairs=len(scored),
        exact=sum(p.exact for p in scored),
        correct=sum(p.correct for p in scored),
        tokens=sum(p.tokens for p in scored),
        bleu=_percent(_bleu_metric()._aggregate_and_compute(bleu_stats).score) if scored else 0.0,
        chrf=_percent(_chrf_metric()._aggregate_and_compute(chrf_stats).score) if scored else 0.0,
    )


@dataclass(frozen=True)
class ScoreTable:
    """Scores by row (ALL, then each phenomenon the pairs show) and part (ALL, or "train" and "holdout")."""

    rows: tuple[str, ...]
    parts: tuple[str, ...]
    cells: dict[tuple[str, str], Scores]  # (row, part) → scores; a row without pairs in a part has no cell

    def get(self, row: str, part: str) -> Scores | None:
        return self.cells.get((row, part))

    def to_dict(self) -> dict:
        """{part: {row: scores dict}}, for a checkpoint's summary (JSON)."""
        return {
            part: {row: self.cells[row, part].to_dict() for row in self.rows if (row, part) in self.cells}
            for part in self.parts
        }

    @classmethod
    def from_dict(cls, data: dict) -> ScoreTable:
        """Rebuild from to_dict(); ValueError when anything is wrong."""
        if not isinstance(data, dict) or not data or not all(isinstance(v, dict) for v in data.values()):
            raise ValueError("not a table of parts")
        if not all(isinstance(s, dict) for rows in data.values() for s in rows.values()):
            raise ValueError("not a table of scores")
        cells = {(row, part): Scores.from_dict(s) for part, rows in data.items() for row, s in rows.items()}
        return cls(_ordered(row for row, _ in cells), tuple(data), cells)

    def lines(self, labels: dict[str, str] | None = None) -> list[str]:
        """The table as aligned text lines (the command line prints them); labels rename parts."""
        labels = labels or {}
        head = ["phenomenon", "part", "pairs", "exact", "token acc.", "BLEU", "chrF"]
        body = []
        for row in self.rows:
            for k, part in enumerate(p for p in self.parts if (row, p) in self.cells):
                s = self.cells[row, part]
                body.append(
                    [
                        row if k == 0 else "",
                        labels.get(part, part),
                        f"{s.pairs}",
                        f"{s.exact_match:.1%}",
                        f"{s.token_accuracy:.1%}",
                        f"{s.bleu:.1f}",
                        f"{s.chrf:.1f}",
                    ]
                )
        widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
        return [
            "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in [head, *body]
        ]


def _ordered(names) -> tuple[str, ...]:
    """ALL first, then the corpus's phenomena in their order, then any other tag alphabetically."""
    names = set(names)
    return (
        tuple(n for n in (ALL,) if n in names)
        + tuple(p for p in PHENOMENA if p in names)
        + tuple(sorted(names - {ALL, *PHENOMENA}))
    )


def table_of(
    scored: Sequence[PairScore],
    phenomena: Sequence[Sequence[str]] | None = None,
    parts: Sequence[str] | None = None,
) -> ScoreTable:
    """The table of pairs already scored (score_pairs), each row (ALL and every phenomenon tag the pairs carry) in
    each part. phenomena: the tags of each pair (None: untagged, only the ALL row); parts: the part of each pair, e.g.
    "train" or "holdout" (None: one part, ALL)."""
    n = len(scored)
    phenomena = phenomena if phenomena is not None else [()] * n
    parts = parts if parts is not None else [ALL] * n
    if len(phenomena) != n or len(parts) != n:
        raise ValueError("one list of phenomena and one part per pair")
    members: dict[tuple[str, str], list[int]] = {}  # (row, part) → the indexes of its pairs
    for i, (tags, part) in enumerate(zip(phenomena, parts)):
        for row in (ALL, *dict.fromkeys(tags)):
            members.setdefault((row, part), []).append(i)
    part_order = [p for p in (*PARTS, ALL) if p in set(parts)] + sorted(set(parts) - {*PARTS, ALL})
    statistics = _statistics(scored)  # each pair's once, for all its groups
    cells = {key: aggregate([scored[i] for i in rows], [statistics[i] for i in rows]) for key, rows in members.items()}
    return ScoreTable(_ordered(row for row, _ in cells), tuple(part_order), cells)
