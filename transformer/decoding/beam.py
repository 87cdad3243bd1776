"""Beam search: one sentence with every step recorded (for drawing the tree), or many sentences at once, each a
chooser for the one loop (its rows are the beams); and beam search against greedy decoding, scored the same way.

Every function runs the model in eval mode without gradients and always ends (at E or at the length cap). Shapes:
k (or K) beams, B sentences, t tokens so far, V target vocabulary, Ls source length, D d_model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from ..config import MAX_DECODE_LEN
from ..data import Vocab
from ..model import AttentionMaps, Transformer
from .checks import check_beam
from .greedy import greedy_batch
from .hypothesis import SCORE_TOLERANCE, Hypothesis, lp, scored
from .loop import Choice, decode_loop, length_cap
from .processors import n_outputs


@dataclass(frozen=True)
class BeamCandidate:
    """A one-token extension of a beam: the beam, the token, the cumulative log-probability, what became of it."""

    parent: int  # index of the beam it extends, in BeamStep.beams
    token_id: int
    token: str
    log_prob: float  # the parent's log-probability plus log P(token | parent)
    status: str  # "kept": a beam of the next step; "finished": it is E, now a hypothesis; "pruned": dropped
    beam: int | None = None  # its index among the next step's beams when kept


@dataclass(frozen=True)
class BeamStep:
    """One step of beam search: the beams extended and, per beam, its best candidates (kept, finished, pruned)."""

    step: int  # 1-based
    beams: list[list[str]]  # each beam's decoder input: S and its tokens so far
    beam_log_probs: list[float]
    candidates: list[BeamCandidate]  # grouped by parent, each parent's best first; every kept or finished one


@dataclass(frozen=True)
class BeamSearch:
    """The result of beam_search: the n best hypotheses, best score first, and every step for drawing the tree."""

    hypotheses: list[Hypothesis]
    steps: list[BeamStep]
    beam_size: int
    length_penalty: float
    stop_reason: str  # "finished": no beam alive could still beat the beam_size-th best hypothesis; "max_len": the cap
    max_len: int = MAX_DECODE_LEN  # the length cap it ran under: the longest a hypothesis could grow

    @property
    def best(self) -> Hypothesis:
        """The hypothesis with the highest score."""
        return self.hypotheses[0]


def best_possible(log_prob: float, max_len: int, alpha: float) -> float:
    """The highest score any continuation of a beam with this log-probability can reach within max_len tokens.

    Every further token lowers log P (it stays ≤ log_prob ≤ 0) and, for α ≥ 0, lp(length) grows with the length, so
    no continuation scores above log_prob / lp(max_len, α); with α = 0 that is log_prob itself.
    """
    return log_prob / lp(max_len, alpha)


def can_still_win(live_log_probs: list[float], finished_scores: list[float], beam_size: int, max_len: int, alpha):
    """True while fewer than beam_size hypotheses are finished, or some live beam could still beat the beam_size-th
    best of them: the stopping rule of beam_search, so that no beam that might win is thrown away."""
    if not live_log_probs:
        return False
    if len(finished_scores) < beam_size:
        return True
    kth = sorted(finished_scores, reverse=True)[beam_size - 1]
    return best_possible(max(live_log_probs), max_len, alpha) > kth


def beam_search(
    model: Transformer,
    enc_input: torch.Tensor,
    tgt_vocab: Vocab,
    beam_size: int = 4,
    length_penalty: float = 0.0,
    max_len: int = MAX_DECODE_LEN,
    n_best: int | None = None,
) -> BeamSearch:
    """Keep the beam_size most probable partial translations of enc_input (1, Ls) at every step; return the n_best
    (default beam_size) hypotheses, best score first. All beams go through the decoder together, as one batch.

    A candidate ending in E becomes a hypothesis when it is among the beam_size best candidates of its step. The
    search goes on until no beam alive can still beat the beam_size-th best hypothesis (can_still_win), or to
    max_len tokens (the beams alive then count as hypotheses too). Scores are log-probabilities divided by
    lp(length, α). beam_size=1 with α = 0 is greedy; with α > 0 one beam goes on past E while a longer translation
    could still score better.
    """
    check_beam(beam_size, length_penalty, n_best)
    alpha, n_best = float(length_penalty), n_best or beam_size
    eos, n_allowed, cap = tgt_vocab.eos_id, n_outputs(tgt_vocab), length_cap(model, max_len)
    beam_log_probs = torch.zeros(1)  # (k,): one beam, S
    hypotheses: list[Hypothesis] = []
    steps: list[BeamStep] = []

    def choose(step: int, beams: torch.Tensor, logits: torch.Tensor, maps: AttentionMaps | None) -> Choice:
        nonlocal beam_log_probs
        k = beams.size(0)
        totals = beam_log_probs.unsqueeze(1) + torch.log_softmax(logits, dim=-1).cpu()  # (k, V): every extension

        # the 2·beam_size best extensions: enough to keep beam_size beams even if beam_size of them are E
        best, flat = totals.flatten().topk(min(2 * beam_size, k * n_allowed))  # (n,), (n,)
        parents, tokens = flat // totals.size(1), flat % totals.size(1)  # (n,), (n,)
        is_eos = tokens.eq(eos)  # (n,)
        rank = torch.arange(len(flat))  # (n,)
        finishes = is_eos & (rank < beam_size)  # E among the beam_size best: a hypothesis
        keeps = ~is_eos & (torch.cumsum(~is_eos, 0) <= beam_size)  # the beam_size best that are not E

        status = {}
        ended = zip(parents[finishes].tolist(), tokens[finishes].tolist(), best[finishes].tolist())
        for parent, token, log_prob in ended:
            hypotheses.append(scored(tgt_vocab.decode(beams[parent, 1:].tolist()), log_prob, True, alpha))
            status[parent, token] = ("finished", None)
        for index, (parent, token) in enumerate(zip(parents[keeps].tolist(), tokens[keeps].tolist())):
            status[parent, token] = ("kept", index)
        steps.append(_beam_step(step, beams, beam_log_probs, totals, status, beam_size, n_allowed, tgt_vocab))

        beam_log_probs = best[keeps]  # (k',)
        scores = [h.score for h in hypotheses]
        stop = step < cap and not can_still_win(beam_log_probs.tolist(), scores, beam_size, cap, alpha)
        return Choice(parents[keeps].to(beams.device), tokens[keeps].to(beams.device), stop)

    done = decode_loop(model, enc_input, tgt_vocab, choose, max_len)
    if not done.stopped:  # the length cap: the beams still alive are hypotheses too
        for ids, log_prob in zip(done.dec[:, 1:].tolist(), beam_log_probs.tolist()):
            hypotheses.append(scored(tgt_vocab.decode(ids), log_prob, False, alpha))
    hypotheses.sort(key=lambda h: h.score, reverse=True)  # stable: on a tie the earlier (shorter) one first
    return BeamSearch(hypotheses[:n_best], steps, beam_size, alpha, "finished" if done.stopped else "max_len", cap)


def _beam_step(step, beams, beam_log_probs, totals, status, beam_size, n_allowed, tgt_vocab) -> BeamStep:
    """The record of one step: each beam's beam_size + 1 best extensions (a kept one is always among them)."""
    values, token_ids = totals.topk(min(beam_size + 1, n_allowed), dim=1)  # (k, c)
    candidates = []
    for parent, (row_values, row_ids) in enumerate(zip(values.tolist(), token_ids.tolist())):
        for log_prob, token_id in zip(row_values, row_ids):
            what, index = status.get((parent, token_id), ("pruned", None))
            candidates.append(BeamCandidate(parent, token_id, tgt_vocab.itos[token_id], log_prob, what, index))
    return BeamStep(step, [tgt_vocab.decode(b) for b in beams.tolist()], beam_log_probs.tolist(), candidates)


# ---------------------------------------------------------------- beam search against greedy, one sentence


@dataclass(frozen=True)
class GreedyPath:
    """What beam search did with greedy decoding's path (its tokens, then E), read from the search's record."""

    fate: str  # "found": greedy's translation became a hypothesis; "pruned": dropped; "alive": a beam at the stop
    step: int  # the step where it was found or pruned; for "alive", the search's last step


def greedy_path(search: BeamSearch, greedy: Hypothesis, tgt_vocab: Vocab) -> GreedyPath:
    """Follow greedy's tokens through the steps of search: where its path was pruned, became a hypothesis (ended with
    E, or alive at the length cap), or was still a beam when the search stopped."""
    path = greedy.tokens + ([tgt_vocab.itos[tgt_vocab.eos_id]] if greedy.finished else [])
    parent = 0  # greedy's beam among the step's beams; the first step has one, S
    for step, token in zip(search.steps, path):
        here = [c for c in step.candidates if c.parent == parent and c.token == token]
        if not here or here[0].status == "pruned":  # a beam's kept and finished extensions are always recorded
            return GreedyPath("pruned", step.step)
        if here[0].status == "finished":
            return GreedyPath("found", step.step)
        parent = here[0].beam
    last = len(search.steps)
    at_cap = search.stop_reason == "max_len" and len(path) == last  # alive at the cap: a hypothesis too
    return GreedyPath("found" if at_cap else "alive", last)


@dataclass(frozen=True)
class BeamAgainstGreedy:
    """How beam search's best compares with greedy's output under the same scoring, and why."""

    case: str  # "same" translation; "tie": another one, equal score; "better"; worse: "pruned" or "stopped"
    beam: Hypothesis
    greedy: Hypothesis
    path: GreedyPath  # what the search did with greedy's path


def against_greedy(search: BeamSearch, greedy: Hypothesis, tgt_vocab: Vocab) -> BeamAgainstGreedy:
    """Compare search.best with greedy's hypothesis (greedy_hypothesis, the same α). When greedy scores better, the
    record says why: its path was pruned ("pruned"), or the search stopped while it was still a beam ("stopped",
    which the stopping rule of beam_search rules out; kept so that an explanation never claims a pruning)."""
    best, path = search.best, greedy_path(search, greedy, tgt_vocab)
    if best.tokens == greedy.tokens:
        case = "same"
    elif abs(best.score - greedy.score) <= SCORE_TOLERANCE:
        case = "tie"
    elif best.score > greedy.score:
        case = "better"
    else:
        case = "pruned" if path.fate == "pruned" else "stopped"
    return BeamAgainstGreedy(case, best, greedy, path)


# ---------------------------------------------------------------- beam search against greedy on many sentences


@dataclass(frozen=True)
class BeamVsGreedy:
    """One sentence decoded greedily and with beam search, both scored the same way."""

    greedy: Hypothesis
    beam: Hypothesis

    @property
    def beam_wins(self) -> bool:
        """True when beam search found a different translation with a higher score."""
        return self.beam.tokens != self.greedy.tokens and self.beam.score > self.greedy.score + SCORE_TOLERANCE


def beam_search_batch(
    model: Transformer,
    enc_inputs: torch.Tensor,
    tgt_vocab: Vocab,
    beam_size: int = 4,
    length_penalty: float = 0.0,
    max_len: int = MAX_DECODE_LEN,
) -> list[Hypothesis]:
    """The best hypothesis of beam_search for every row of enc_inputs (B, Ls, padded with P) at once, no records.

    Every sentence has beam_size beam slots from the start; the slots not yet in use have log-probability −∞, so
    they are never kept ahead of a real beam and never finish. The decoder runs once per step for all B·K beams;
    a sentence is done by the same stopping rule as beam_search (can_still_win).
    """
    check_beam(beam_size, length_penalty)
    alpha, K, B, eos = float(length_penalty), beam_size, enc_inputs.size(0), tgt_vocab.eos_id
    cap = length_cap(model, max_len)
    beam_log_probs = torch.full((B, K), float("-inf"))  # (B, K)
    beam_log_probs[:, 0] = 0.0  # one real beam, S, per sentence
    hypotheses: list[list[Hypothesis]] = [[] for _ in range(B)]
    done = torch.zeros(B, dtype=torch.bool)  # (B,): no beam alive can beat the K-th best

    def add(b: int, ids: list[int], log_prob: float, finished: bool) -> None:
        hypotheses[b].append(scored(tgt_vocab.decode(ids), log_prob, finished, alpha))

    def choose(step: int, dec: torch.Tensor, logits: torch.Tensor, maps: AttentionMaps | None) -> Choice:
        nonlocal beam_log_probs
        beams = dec.cpu().view(B, K, -1)  # (B, K, t)
        log_probs = torch.log_softmax(logits, dim=-1).cpu().view(B, K, -1)  # (B, K, V)
        V = log_probs.size(2)
        totals = (beam_log_probs.unsqueeze(2) + log_probs).view(B, K * V)  # (B, K·V)
        best, flat = totals.topk(2 * K, dim=1)  # (B, 2K), (B, 2K)
        parents, tokens = flat // V, flat % V  # (B, 2K), (B, 2K)
        is_eos = tokens.eq(eos)  # (B, 2K)
        rank = torch.arange(2 * K).expand(B, -1)  # (B, 2K)
        finishes = is_eos & (rank < K) & best.isfinite() & ~done.unsqueeze(1)  # (B, 2K)
        keeps = ~is_eos & (torch.cumsum(~is_eos, dim=1) <= K)  # (B, 2K): exactly K per sentence
        for b, j in finishes.nonzero().tolist():
            add(b, beams[b, parents[b, j], 1:].tolist(), float(best[b, j]), finished=True)
        kept = keeps.float().argsort(dim=1, descending=True, stable=True)[:, :K]  # (B, K), in rank order
        kept_parents, kept_tokens = parents.gather(1, kept), tokens.gather(1, kept)  # (B, K), (B, K)
        beam_log_probs = best.gather(1, kept)  # (B, K)
        if step < cap:
            for b in (~done).nonzero().flatten().tolist():
                live = [p for p in beam_log_probs[b].tolist() if math.isfinite(p)]
                done[b] = not can_still_win(live, [h.score for h in hypotheses[b]], K, cap, alpha)
        rows = (kept_parents + K * torch.arange(B).unsqueeze(1)).flatten()  # (B·K,): each kept beam's row
        return Choice(rows.to(dec.device), kept_tokens.flatten().to(dec.device), stop=step < cap and bool(done.all()))

    beams = decode_loop(model, enc_inputs, tgt_vocab, choose, max_len, width=K).dec.cpu().view(B, K, -1)  # (B, K, t)
    for b in (~done).nonzero().flatten().tolist():  # the length cap: the beams alive are hypotheses too
        for ids, log_prob in zip(beams[b, :, 1:].tolist(), beam_log_probs[b].tolist()):
            if math.isfinite(log_prob):
                add(b, ids, log_prob, finished=False)
    return [max(h, key=lambda h: h.score) for h in hypotheses]


def beam_vs_greedy(
    model: Transformer,
    enc_inputs: torch.Tensor,
    tgt_vocab: Vocab,
    beam_size: int = 4,
    length_penalty: float = 0.0,
    max_len: int = MAX_DECODE_LEN,
) -> list[BeamVsGreedy]:
    """Greedy decoding and beam search for every row of enc_inputs (B, Ls), scored with the same α, batched."""
    greedy = greedy_batch(model, enc_inputs, tgt_vocab, length_penalty, max_len)
    beam = beam_search_batch(model, enc_inputs, tgt_vocab, beam_size, length_penalty, max_len)
    return [BeamVsGreedy(g, b) for g, b in zip(greedy, beam)]
