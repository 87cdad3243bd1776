"""A finished (or capped) translation as beam search scores it: shared by greedy decoding and beam search."""

from __future__ import annotations

from dataclasses import dataclass

SCORE_TOLERANCE = 1e-5  # two computations of one hypothesis's score (batched or not) may differ by float rounding


def lp(length: int, alpha: float) -> float:
    """GNMT's length penalty lp(Y) = ((5 + |Y|) / 6)^α; a hypothesis scores log P(Y) / lp(Y), so α > 0 favours
    longer ones (log P is negative and grows more negative with every token)."""
    return ((5 + length) / 6) ** alpha


@dataclass(frozen=True)
class Hypothesis:
    """One output of beam search: tokens without S/E, the sum of their log-probabilities and its score."""

    tokens: list[str]
    log_prob: float  # the sum of every chosen token's log-probability, E included when it ended with E
    score: float  # log_prob / lp(number of chosen tokens, α); the same as log_prob when α = 0
    finished: bool  # True: it ended with E; False: it reached the length cap

    @property
    def text(self) -> str:
        """The tokens joined by single spaces."""
        return " ".join(self.tokens)


def scored(tokens: list[str], log_prob: float, finished: bool, alpha: float) -> Hypothesis:
    """A hypothesis scored log_prob / lp(length, α), where E counts as a chosen token when it ended with E."""
    return Hypothesis(tokens, log_prob, log_prob / lp(len(tokens) + finished, alpha), finished)
