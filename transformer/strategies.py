"""Decoding strategies beyond greedy: beam search (one sentence with every step recorded, or many sentences at
once), sampling, greedy decoding after a forced prefix, teacher forcing vs free running.

Every function runs the model in eval mode without gradients, always ends (at E or at the length cap) and records
what a learner wants to see, step by step. P and S are never outputs: their probability is 0 everywhere, as in
greedy_decode. Shapes: k beams, t tokens so far, V target vocabulary, Ls source length, D d_model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .config import MAX_BEAM_SIZE, MAX_DECODE_LEN, MAX_LENGTH_PENALTY, MAX_SEED
from .data import PAD, Vocab
from .decode import DecodeStep, Translation
from .errors import ConfigError, DataError
from .model import AttentionMaps, Transformer, evaluating

# ---------------------------------------------------------------- checks


def _whole(name: str, value, lo: int, hi: int | None = None) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or (hi is not None and value > hi):
        allowed = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
        raise ConfigError(f"{name} must be a whole number {allowed}, got {value!r}.")


def _number(name: str, value, ok: bool, allowed: str) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or not ok:
        raise ConfigError(f"{name} must be {allowed}, got {value!r}.")


def check_beam(beam_size: int, length_penalty: float = 0.0, n_best: int | None = None) -> None:
    """ConfigError unless 1 ≤ beam_size ≤ MAX_BEAM_SIZE, 0 ≤ length_penalty ≤ MAX_LENGTH_PENALTY and
    1 ≤ n_best ≤ beam_size."""
    _whole("the beam size", beam_size, 1, MAX_BEAM_SIZE)
    ok = isinstance(length_penalty, (int, float)) and 0 <= length_penalty <= MAX_LENGTH_PENALTY
    allowed = f"a number from 0 to {MAX_LENGTH_PENALTY:g} (0: none; the paper uses 0.6)"
    _number("the length penalty", length_penalty, ok, allowed)
    if n_best is not None:
        _whole("n-best", n_best, 1, beam_size)


def check_sampling(temperature: float = 1.0, top_k: int = 0, top_p: float = 1.0, seed: int = 0) -> None:
    """ConfigError unless temperature > 0 (and finite), top_k ≥ 0 (0: off), 0 < top_p ≤ 1 and 0 ≤ seed ≤ MAX_SEED."""
    ok = isinstance(temperature, (int, float)) and temperature > 0
    _number("the temperature", temperature, ok, "a number above 0")
    _whole("top-k", top_k, 0)
    ok = isinstance(top_p, (int, float)) and 0 < top_p <= 1
    _number("top-p", top_p, ok, "a number above 0 and at most 1")
    _whole("the seed", seed, 0, MAX_SEED)


def _never(tgt_vocab: Vocab) -> list[int]:
    """Token ids that are never outputs: padding and S."""
    return [tgt_vocab.stoi[PAD], tgt_vocab.bos_id]


def lp(length: int, alpha: float) -> float:
    """GNMT's length penalty lp(Y) = ((5 + |Y|) / 6)^α; a hypothesis scores log P(Y) / lp(Y), so α > 0 favours
    longer ones (log P is negative and grows more negative with every token)."""
    return ((5 + length) / 6) ** alpha


# ---------------------------------------------------------------- beam search


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
    with evaluating(model) as device:
        enc_input = enc_input.to(device)
        max_len = min(max_len, model.config.max_len - 1)
        memory = model.encoder(enc_input)  # (1, Ls, D)
        never, eos = _never(tgt_vocab), tgt_vocab.eos_id
        n_allowed = len(tgt_vocab) - len(never)
        beams = torch.full((1, 1), tgt_vocab.bos_id, device=device)  # (k, t): every beam starts with S
        beam_log_probs = torch.zeros(1, device=device)  # (k,)
        hypotheses: list[Hypothesis] = []
        steps: list[BeamStep] = []
        stop_reason = "max_len"

        def hypothesis(ids: list[int], log_prob: float, finished: bool) -> Hypothesis:
            length = len(ids) + finished  # E counts as a chosen token
            score = log_prob / lp(length, alpha)
            return Hypothesis(tgt_vocab.decode(ids), log_prob, score, finished)

        for step in range(1, max_len + 1):
            k = beams.size(0)
            hidden = model.decoder(beams, enc_input.expand(k, -1), memory.expand(k, -1, -1))  # (k, t, D)
            logits = model.projection(hidden[:, -1]).float()  # (k, V)
            logits[:, never] = float("-inf")
            log_probs = torch.log_softmax(logits, dim=-1)  # (k, V)
            totals = beam_log_probs.unsqueeze(1) + log_probs  # (k, V): every one-token extension of every beam

            # the 2·beam_size best extensions: enough to keep beam_size beams even if beam_size of them are E
            best, flat = totals.flatten().topk(min(2 * beam_size, k * n_allowed))  # (n,), (n,)
            parents, tokens = flat // totals.size(1), flat % totals.size(1)  # (n,), (n,)
            is_eos = tokens.eq(eos)  # (n,)
            rank = torch.arange(len(flat), device=device)  # (n,)
            finishes = is_eos & (rank < beam_size)  # E among the beam_size best: a hypothesis
            keeps = ~is_eos & (torch.cumsum(~is_eos, 0) <= beam_size)  # the beam_size best that are not E

            status = {}
            ended = zip(parents[finishes].tolist(), tokens[finishes].tolist(), best[finishes].tolist())
            for parent, token, log_prob in ended:
                hypotheses.append(hypothesis(beams[parent, 1:].tolist(), log_prob, finished=True))
                status[parent, token] = ("finished", None)
            for index, (parent, token) in enumerate(zip(parents[keeps].tolist(), tokens[keeps].tolist())):
                status[parent, token] = ("kept", index)
            steps.append(_beam_step(step, beams, beam_log_probs, totals, status, beam_size, n_allowed, tgt_vocab))

            beams = torch.cat([beams[parents[keeps]], tokens[keeps].unsqueeze(1)], dim=1)  # (k', t+1)
            beam_log_probs = best[keeps]  # (k',)
            scores = [h.score for h in hypotheses]
            if step < max_len and not can_still_win(beam_log_probs.tolist(), scores, beam_size, max_len, alpha):
                stop_reason = "finished"
                break
        else:  # the length cap: the beams still alive are hypotheses too
            for ids, log_prob in zip(beams[:, 1:].tolist(), beam_log_probs.tolist()):
                hypotheses.append(hypothesis(ids, log_prob, finished=False))
    hypotheses.sort(key=lambda h: h.score, reverse=True)  # stable: on a tie the earlier (shorter) one first
    return BeamSearch(hypotheses[:n_best], steps, beam_size, alpha, stop_reason, max_len)


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

SCORE_TOLERANCE = 1e-5  # two computations of one hypothesis's score (batched or not) may differ by float rounding


def greedy_hypothesis(result: Translation, length_penalty: float = 0.0) -> Hypothesis:
    """Greedy decoding's output (greedy_decode's record) scored as beam search scores a hypothesis."""
    check_beam(1, length_penalty)
    log_prob = sum(math.log(float(step.probs[step.token_id])) for step in result.steps)  # E included when chosen
    finished = result.stop_reason == "eos"
    score = log_prob / lp(len(result.tokens) + finished, float(length_penalty))
    return Hypothesis(list(result.tokens), log_prob, score, finished)


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


# ---------------------------------------------------------------- sampling


@dataclass(frozen=True)
class SampleStep:
    """One step of sampling: the model's distribution, after temperature, after top-k / top-p, and the draw."""

    step: int  # 1-based
    dec_input: list[str]  # S and the tokens drawn before this step
    probs: torch.Tensor  # (V,) the model's next-token distribution (temperature 1)
    tempered: torch.Tensor  # (V,) softmax(logits / temperature)
    final: torch.Tensor  # (V,) tempered, cut to top-k and top-p and renormalised: the token is drawn from this
    token_id: int
    token: str


@dataclass(frozen=True)
class Sample:
    """The result of sample: output tokens without S/E, every step, why it stopped, its log-probability."""

    tokens: list[str]
    steps: list[SampleStep]
    stop_reason: str  # "eos" or "max_len"
    log_prob: float  # the sum of the model's log-probabilities (temperature 1) of the drawn tokens, E included
    seed: int

    @property
    def text(self) -> str:
        """The output tokens joined by single spaces."""
        return " ".join(self.tokens)


def with_temperature(logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """softmax(logits / temperature) for any finite temperature > 0: in float64 after subtracting the largest logit,
    so a temperature of 1e-300 gives the most probable token probability 1 (greedy) and 1e300 a flat distribution
    over the allowed tokens, never NaN. Blocked tokens (logit −∞) stay at 0."""
    scaled = (logits.double() - logits.max().double()) / temperature  # (V,): ≤ 0, the largest exactly 0
    return torch.softmax(scaled, dim=-1).to(logits.dtype)


def truncate(probs: torch.Tensor, top_k: int = 0, top_p: float = 1.0) -> torch.Tensor:
    """probs (V,) with all but the top_k most probable tokens (0: all) set to 0, then all but the fewest most
    probable whose probabilities add up to top_p; renormalised. The most probable token always stays."""
    order = torch.sort(probs, descending=True, stable=True).indices  # (V,): on a tie the lower id first
    keep = torch.zeros_like(probs, dtype=torch.bool)
    keep[order[: top_k or len(order)]] = True
    if top_p < 1:
        before = torch.cumsum(probs[order], 0) - probs[order]  # (V,): probability of the tokens ranked above
        keep[order[before >= top_p]] = False
    keep[order[0]] = True
    kept = torch.where(keep, probs, torch.zeros_like(probs))
    return kept / kept.sum()


def sample(
    model: Transformer,
    enc_input: torch.Tensor,
    tgt_vocab: Vocab,
    temperature: float = 1.0,
    top_k: int = 0,
    top_p: float = 1.0,
    seed: int = 0,
    max_len: int = MAX_DECODE_LEN,
) -> Sample:
    """Draw each next token at random from the model's distribution, sharpened (temperature < 1) or flattened (> 1),
    then cut to the top_k tokens (0: no cut) and to the top_p probability mass, until E or max_len tokens.

    The same seed gives the same output; top_k=1 is greedy decoding.
    """
    check_sampling(temperature, top_k, top_p, seed)
    generator = torch.Generator().manual_seed(seed)
    with evaluating(model) as device:
        enc_input = enc_input.to(device)
        max_len = min(max_len, model.config.max_len - 1)
        memory = model.encoder(enc_input)  # (1, Ls, D)
        never = _never(tgt_vocab)
        ids, steps, log_prob, stop_reason = [tgt_vocab.bos_id], [], 0.0, "max_len"
        for step in range(1, max_len + 1):
            dec_input = torch.tensor([ids], device=device)  # (1, t)
            hidden = model.decoder(dec_input, enc_input, memory)  # (1, t, D)
            logits = model.projection(hidden[0, -1]).float().cpu()  # (V,)
            logits[never] = float("-inf")
            probs = torch.softmax(logits, dim=-1)
            tempered = with_temperature(logits, temperature)
            final = truncate(tempered, top_k, top_p)
            next_id = int(torch.multinomial(final, 1, generator=generator))
            log_prob += math.log(float(probs[next_id])) if probs[next_id] > 0 else float("-inf")
            token = tgt_vocab.itos[next_id]
            steps.append(SampleStep(step, tgt_vocab.decode(ids), probs, tempered, final, next_id, token))
            if next_id == tgt_vocab.eos_id:
                stop_reason = "eos"
                break
            ids.append(next_id)
    return Sample(tgt_vocab.decode(ids[1:]), steps, stop_reason, log_prob, seed)


# ---------------------------------------------------------------- a forced prefix


@dataclass(frozen=True)
class ForcedStep(DecodeStep):
    """A DecodeStep whose token was either forced (given in the prefix) or chosen greedily."""

    forced: bool = False


def forced_decode(
    model: Transformer,
    enc_input: torch.Tensor,
    tgt_vocab: Vocab,
    prefix: list[int],
    max_len: int = MAX_DECODE_LEN,
    return_attn: bool = True,
) -> Translation:
    """Greedy decoding of enc_input (1, Ls) whose first len(prefix) tokens are the given token ids instead of the
    model's choice; every step records the model's own distribution. An E in the prefix ends the output there."""
    bad = [i for i in prefix if not 0 <= int(i) < len(tgt_vocab) or int(i) in _never(tgt_vocab)]
    if bad:
        raise DataError(f"the forced tokens must be output tokens of the target vocabulary, got id(s) {bad}.")
    with evaluating(model) as device:
        enc_input = enc_input.to(device)
        max_len = min(max_len, model.config.max_len - 1)
        enc_maps = AttentionMaps() if return_attn else None
        memory = model.encoder(enc_input, enc_maps)  # (1, Ls, D)
        never = _never(tgt_vocab)
        ids, steps, stop_reason = [tgt_vocab.bos_id], [], "max_len"
        for step in range(1, max_len + 1):
            dec_input = torch.tensor([ids], device=device)  # (1, t)
            maps = AttentionMaps() if return_attn else None
            hidden = model.decoder(dec_input, enc_input, memory, maps)  # (1, t, D)
            logits = model.projection(hidden[0, -1]).float()  # (V,)
            logits[never] = float("-inf")
            probs = torch.softmax(logits, dim=-1).cpu()
            forced = step <= len(prefix)
            next_id = int(prefix[step - 1]) if forced else int(probs.argmax())
            steps.append(
                ForcedStep(
                    step=step,
                    dec_input=tgt_vocab.decode(ids),
                    probs=probs,
                    token_id=next_id,
                    token=tgt_vocab.itos[next_id],
                    dec_self_attns=[a[0].cpu() for a in maps.dec_self_attns] if maps else [],
                    dec_enc_attns=[a[0].cpu() for a in maps.dec_enc_attns] if maps else [],
                    forced=forced,
                )
            )
            if next_id == tgt_vocab.eos_id:
                stop_reason = "eos"
                break
            ids.append(next_id)
        return Translation(
            tokens=tgt_vocab.decode(ids[1:]),
            steps=steps,
            stop_reason=stop_reason,
            enc_self_attns=[a[0].cpu() for a in enc_maps.enc_self_attns] if enc_maps else [],
        )


# ---------------------------------------------------------------- teacher forcing vs free running


@dataclass(frozen=True)
class ForcingRow:
    """One output position: the reference token, its probability under teacher forcing, free running's choice."""

    position: int  # 1-based
    reference: str | None  # the reference token here (E after the last word); None past the reference's end
    teacher_prob: float | None  # P(reference token | S + the reference before it, source); None past the end
    teacher_choice: str | None  # the most probable token under teacher forcing; None past the end
    free_choice: str | None  # what greedy decoding of its own output chose here; None after it stopped


@dataclass(frozen=True)
class ForcingComparison:
    """Teacher forcing (the decoder reads the reference) against free running (it reads its own output)."""

    rows: list[ForcingRow]
    free_tokens: list[str]  # free running's output without S/E
    parted_at: int | None  # the first position where free running left the reference; None when it never did


def teacher_forcing_vs_free_running(
    model: Transformer, enc_input: torch.Tensor, tgt_vocab: Vocab, reference_ids: list[int], max_len=MAX_DECODE_LEN
) -> ForcingComparison:
    """Per position: the model's probability for the reference token when it reads the reference so far (teacher
    forcing, as in training), and the token greedy decoding picks when it reads its own output (free running)."""
    if 1 + len(reference_ids) > model.config.max_len:
        raise DataError(
            f"the reference has {len(reference_ids)} tokens; this model reads at most {model.config.max_len - 1}. "
            "Shorten it.",
            "reference_too_long",
            n=len(reference_ids),
            max=model.config.max_len - 1,
        )
    free = forced_decode(model, enc_input, tgt_vocab, [], max_len, return_attn=False)
    with evaluating(model) as device:
        dec_inputs = torch.tensor([[tgt_vocab.bos_id, *reference_ids]], device=device)  # (1, Lt)
        hidden = model.decoder(dec_inputs, enc_input.to(device), model.encoder(enc_input.to(device)))  # (1, Lt, D)
        logits = model.projection(hidden[0]).float()  # (Lt, V)
        logits[:, _never(tgt_vocab)] = float("-inf")
        teacher = torch.softmax(logits, dim=-1).cpu()  # (Lt, V)
    reference = tgt_vocab.decode(reference_ids) + [tgt_vocab.itos[tgt_vocab.eos_id]]
    rows, parted_at = [], None
    for position in range(1, max(len(reference), len(free.steps)) + 1):
        i = position - 1
        ref = reference[i] if i < len(reference) else None
        choice = free.steps[i].token if i < len(free.steps) else None
        rows.append(
            ForcingRow(
                position=position,
                reference=ref,
                teacher_prob=float(teacher[i, tgt_vocab.stoi[ref]]) if ref is not None else None,
                teacher_choice=tgt_vocab.itos[int(teacher[i].argmax())] if ref is not None else None,
                free_choice=choice,
            )
        )
        if parted_at is None and choice != ref:
            parted_at = position
    return ForcingComparison(rows, free.tokens, parted_at)


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
    alpha, K = float(length_penalty), beam_size
    with evaluating(model) as device:
        enc_inputs = enc_inputs.to(device)
        B, max_len = enc_inputs.size(0), min(max_len, model.config.max_len - 1)
        enc_rows = enc_inputs.repeat_interleave(K, dim=0)  # (B·K, Ls): each sentence once per beam
        memory = model.encoder(enc_rows)  # (B·K, Ls, D)
        never, eos = _never(tgt_vocab), tgt_vocab.eos_id
        beams = torch.full((B, K, 1), tgt_vocab.bos_id, device=device)  # (B, K, t)
        beam_log_probs = torch.full((B, K), float("-inf"), device=device)  # (B, K)
        beam_log_probs[:, 0] = 0.0  # one real beam, S, per sentence
        hypotheses: list[list[Hypothesis]] = [[] for _ in range(B)]
        done = torch.zeros(B, dtype=torch.bool, device=device)  # (B,): no beam alive can beat the K-th best

        def add(b: int, ids: list[int], log_prob: float, finished: bool) -> None:
            score = log_prob / lp(len(ids) + finished, alpha)
            hypotheses[b].append(Hypothesis(tgt_vocab.decode(ids), log_prob, score, finished))

        for step in range(1, max_len + 1):
            t = beams.size(2)
            hidden = model.decoder(beams.view(B * K, t), enc_rows, memory)  # (B·K, t, D)
            logits = model.projection(hidden[:, -1]).float()  # (B·K, V)
            logits[:, never] = float("-inf")
            log_probs = torch.log_softmax(logits, dim=-1).view(B, K, -1)  # (B, K, V)
            V = log_probs.size(2)
            totals = (beam_log_probs.unsqueeze(2) + log_probs).view(B, K * V)  # (B, K·V)
            best, flat = totals.topk(2 * K, dim=1)  # (B, 2K), (B, 2K)
            parents, tokens = flat // V, flat % V  # (B, 2K), (B, 2K)
            is_eos = tokens.eq(eos)  # (B, 2K)
            rank = torch.arange(2 * K, device=device).expand(B, -1)  # (B, 2K)
            finishes = is_eos & (rank < K) & best.isfinite() & ~done.unsqueeze(1)  # (B, 2K)
            keeps = ~is_eos & (torch.cumsum(~is_eos, dim=1) <= K)  # (B, 2K): exactly K per sentence
            for b, j in finishes.nonzero().tolist():
                add(b, beams[b, parents[b, j], 1:].tolist(), float(best[b, j]), finished=True)
            kept = keeps.float().argsort(dim=1, descending=True, stable=True)[:, :K]  # (B, K), in rank order
            kept_parents, kept_tokens = parents.gather(1, kept), tokens.gather(1, kept)  # (B, K), (B, K)
            rows = beams.gather(1, kept_parents.unsqueeze(2).expand(-1, -1, t))  # (B, K, t)
            beams = torch.cat([rows, kept_tokens.unsqueeze(2)], dim=2)  # (B, K, t+1)
            beam_log_probs = best.gather(1, kept)  # (B, K)
            if step == max_len:
                break
            for b in (~done).nonzero().flatten().tolist():
                live = [p for p in beam_log_probs[b].tolist() if math.isfinite(p)]
                done[b] = not can_still_win(live, [h.score for h in hypotheses[b]], K, max_len, alpha)
            if done.all():
                break
        for b in (~done).nonzero().flatten().tolist():  # the length cap: the beams alive are hypotheses too
            for ids, log_prob in zip(beams[b, :, 1:].tolist(), beam_log_probs[b].tolist()):
                if math.isfinite(log_prob):
                    add(b, ids, log_prob, finished=False)
    return [max(h, key=lambda h: h.score) for h in hypotheses]


def greedy_batch(
    model: Transformer,
    enc_inputs: torch.Tensor,
    tgt_vocab: Vocab,
    length_penalty: float = 0.0,
    max_len: int = MAX_DECODE_LEN,
) -> list[Hypothesis]:
    """Greedy decoding of every row of enc_inputs (B, Ls, padded with P) at once, each output scored as beam search
    scores a hypothesis (log P / lp(length, α), E counted when chosen); no records."""
    check_beam(1, length_penalty)
    alpha, eos = float(length_penalty), tgt_vocab.eos_id
    with evaluating(model) as device:
        enc_inputs = enc_inputs.to(device)
        B, max_len = enc_inputs.size(0), min(max_len, model.config.max_len - 1)
        memory = model.encoder(enc_inputs)  # (B, Ls, D)
        dec = torch.full((B, 1), tgt_vocab.bos_id, device=device)  # (B, t)
        log_prob = torch.zeros(B, device=device)  # (B,)
        done = torch.zeros(B, dtype=torch.bool, device=device)  # (B,)
        for _ in range(max_len):
            hidden = model.decoder(dec, enc_inputs, memory)  # (B, t, D)
            logits = model.projection(hidden[:, -1]).float()  # (B, V)
            logits[:, _never(tgt_vocab)] = float("-inf")
            log_probs = torch.log_softmax(logits, dim=-1)  # (B, V)
            next_ids = log_probs.argmax(-1)  # (B,): on a tie the lowest id, as greedy_decode
            log_prob += log_probs.gather(1, next_ids.unsqueeze(1)).squeeze(1).masked_fill(done, 0.0)
            next_ids = next_ids.masked_fill(done, eos)
            dec = torch.cat([dec, next_ids.unsqueeze(1)], dim=1)  # (B, t+1)
            done |= next_ids.eq(eos)
            if done.all():
                break
    outputs = []
    for row, total in zip(dec[:, 1:].tolist(), log_prob.tolist()):
        finished = eos in row
        ids = row[: row.index(eos)] if finished else row
        outputs.append(Hypothesis(tgt_vocab.decode(ids), total, total / lp(len(ids) + finished, alpha), finished))
    return outputs


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
