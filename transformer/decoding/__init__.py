"""Decoding: how a trained model turns a source sentence into output tokens, one next token at a time.

processors (logit processors: P and S blocked, a forced prefix, temperature, top-p, top-k), step (the next-token
logits of a decoder state, P and S blocked), loop (the one loop: encode once, step until the strategy stops or the
length cap, computed there alone), checks (settings and forced tokens), hypothesis (a scored output, shared by greedy
and beam), and the strategies, each a chooser for the loop that records its steps: greedy (argmax, or a forced prefix
then argmax; and its batched form), beam (beam search, one sentence or many, and against greedy), sampling; compare
(teacher forcing against free running). Imports go one way: processors ← step ← loop ← greedy, beam, sampling;
processors ← checks ← greedy, beam, sampling; hypothesis ← greedy ← beam, compare.
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
    greedy_hypothesis,
)
from .hypothesis import SCORE_TOLERANCE, Hypothesis, lp, scored
from .loop import Choice, Decoded, decode_loop, length_cap
from .processors import (
    BlockSpecials,
    ForcedTokens,
    Processor,
    Temperature,
    TopK,
    TopP,
    block,
    blocked_ids,
    can_output,
    n_outputs,
    output_ids,
    process,
    truncate,
    with_temperature,
)
from .sampling import Sample, SampleStep, sample
from .step import next_logits, start_id

__all__ = [
    "SCORE_TOLERANCE",
    "BlockSpecials",
    "Choice",
    "Decoded",
    "ForcedTokens",
    "Processor",
    "Temperature",
    "TopK",
    "TopP",
    "decode_loop",
    "length_cap",
    "process",
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
    "greedy_hypothesis",
    "greedy_path",
    "lp",
    "n_outputs",
    "next_logits",
    "output_ids",
    "sample",
    "scored",
    "start_id",
    "teacher_forcing_vs_free_running",
    "truncate",
    "with_temperature",
]
