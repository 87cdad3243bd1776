"""Decoding: how a trained model turns a source sentence into output tokens, one next token at a time.

step (next-token logits; the one place P and S are blocked), checks (settings and forced tokens), hypothesis (a
scored output, shared by greedy and beam), greedy (one loop: argmax, or a forced prefix then argmax; and its batched
form), beam (beam search, and against greedy), sampling, compare (teacher forcing against free running). Imports go
one way: step ← checks ← greedy ← beam / compare, hypothesis ← greedy, checks ← sampling.
"""

from .beam import (
    BeamAgainstGreedy,
    BeamCandidate,
    BeamSearch,
    BeamStep,
    BeamVsGreedy,
    GreedyPath,
    against_greedy,
    beam_search,
    beam_search_batch,
    beam_vs_greedy,
    best_possible,
    can_still_win,
    greedy_path,
)
from .checks import check_beam, check_number, check_prefix, check_sampling, check_whole
from .compare import ForcingComparison, ForcingRow, teacher_forcing_vs_free_running
from .greedy import (
    DecodeStep,
    Translation,
    forced_decode,
    greedy_batch,
    greedy_decode,
    greedy_decode_batch,
    greedy_decoder,
    greedy_hypothesis,
)
from .hypothesis import SCORE_TOLERANCE, Hypothesis, lp, scored
from .sampling import Sample, SampleStep, sample, truncate, with_temperature
from .step import block, blocked_ids, can_output, n_outputs, next_log_probs, next_logits, output_ids

__all__ = [
    "SCORE_TOLERANCE",
    "BeamAgainstGreedy",
    "BeamCandidate",
    "BeamSearch",
    "BeamStep",
    "BeamVsGreedy",
    "DecodeStep",
    "ForcingComparison",
    "ForcingRow",
    "GreedyPath",
    "Hypothesis",
    "Sample",
    "SampleStep",
    "Translation",
    "against_greedy",
    "beam_search",
    "beam_search_batch",
    "beam_vs_greedy",
    "best_possible",
    "block",
    "blocked_ids",
    "can_output",
    "can_still_win",
    "check_beam",
    "check_number",
    "check_prefix",
    "check_sampling",
    "check_whole",
    "forced_decode",
    "greedy_batch",
    "greedy_decode",
    "greedy_decode_batch",
    "greedy_decoder",
    "greedy_hypothesis",
    "greedy_path",
    "lp",
    "n_outputs",
    "next_log_probs",
    "next_logits",
    "output_ids",
    "sample",
    "scored",
    "teacher_forcing_vs_free_running",
    "truncate",
    "with_temperature",
]
