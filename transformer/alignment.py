"""Word alignment read from a trained model, and its alignment error rate (AER) against gold links.

A link (i, j) joins source token i and target token j, both counted from 0 over the tokens the model's tokenizer
makes (the target without S and E). Gold links are written in the classic notation, source index first: `i-j`
for a sure link, `i?j` for a possible one, separated by spaces.

Conventions, used by every method here (docs/alignment.md says why):
    rows     decoder row j predicts target token j (dec_inputs = S + target, dec_outputs = target + E): it reads S
             and the target tokens before j. Row j of a cross-attention map is the row that aligns target token j;
             the last real row, which predicts E, aligns nothing.
    links    each target token is linked to the one source token it weighs most (the first, on a tie): every
             target token gets exactly one link, a source token any number. S, E and padding never get a link.
    S ⊆ P    a sure link is also a possible link, whether or not the gold lists it as possible.

    AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|)  (Och & Ney 2003), summed over the pairs that have gold links.

Methods (Method.name), each giving a (target tokens × source tokens) weight matrix per pair, teacher-forced:
    attention  one cross-attention (dec_enc) head's weights α_ji
    average    the mean of one layer's heads' weights
    norm       α_ji weighted by the norm of what source token i sends, f(x_i) = (x_i W_V + b_V) W_O: per head
               α^h_ji·‖f^h(x_i)‖, or for the layer (head None) ‖Σ_h α^h_ji f^h(x_i)‖ (Kobayashi et al. 2020)
    saliency   gradient × input: ‖∂ log p(target token j) / ∂e_i ⊙ e_i‖₂, e_i the source token's embedding
               (before the positional encoding), log p the model's teacher-forced log-probability
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import torch

from . import corpus
from .config import ALIGN_METHODS, TransformerConfig
from .data import PAD_ID, by_length, cut, lengths, tokenize
from .errors import DataError
from .model import NO_RECORD, AttentionMaps, Recorder, Transformer, evaluating
from .text import echo
from .translator import EVAL_ROWS, Translator
from .words import Words, membership, pair_words, same_words, spells, word_links

Link = tuple[int, int]  # (source index, target index), both from 0
_LINK = re.compile(r"([0-9]+)([-?])([0-9]+)")  # ASCII digits: int() would also take ٣ and ３
_INDEX_DIGITS = 9  # an index of more digits is past any sentence (int() refuses more than 4,300)
_SIDES = ("source", "target")  # a pair's sides, as tokenize splits them (a Marian model by its own model each)


@dataclass(frozen=True)
class Gold:
    """The gold links of one pair: sure links, and possible links (the sure ones among them: S ⊆ P)."""

    sure: frozenset[Link]
    possible: frozenset[Link]


_PAST = 10**_INDEX_DIGITS


def _index(digits: str) -> int:
    """The token index an i or j of a link names: _PAST for one of more digits than any sentence has tokens."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= _INDEX_DIGITS else _PAST


def parse_links(text: str, src_len: int, tgt_len: int, row: int | None = None) -> Gold:
    """The gold links of one pair from `i-j` (sure) and `i?j` (possible) links separated by spaces; a sure link is
    also possible. DataError, naming the row when given, for a link in other notation or off the pair's words."""
    where = f"row {row}: " if row is not None else ""
    sure, possible = set(), set()
    for written in text.split():
        match = _LINK.fullmatch(written)
        if match is None:
            other = next((ch for ch in written if ch.isdigit() and not ch.isascii()), None)  # ٠, ０, ²
            digits = f" Write its numbers in ASCII digits 0-9, not {other!r}." if other else ""
            raise DataError(
                f"{where}the alignment link {echo(written)!r} is not in i-j (sure) or i?j (possible) notation, "
                f"with i a source and j a target token counted from 0.{digits}",
                "link_notation",
                row=row,
                link=echo(written),
            )
        i, j = _index(match.group(1)), _index(match.group(3))
        for side, index, n in (("source", i, src_len), ("target", j, tgt_len)):
            if index >= n:
                shown = f"{index}" if index < _PAST else echo(match.group(1 if side == "source" else 3), 12)
                raise DataError(
                    f"{where}the alignment link {echo(written, 40)} names {side} token {shown}, but the {side} has "
                    f"{n} token{'s' if n != 1 else ''} (0 to {n - 1}); past them is padding, which is never linked.",
                    "link_outside",
                    row=row,
                    link=echo(written, 40),
                    side=side,
                    index=shown,
                    n=n,
                )
        possible.add((i, j))
        if match.group(2) == "-":
            sure.add((i, j))
    return Gold(frozenset(sure), frozenset(possible))


def format_links(links: Iterable[Link], possible: Iterable[Link] = ()) -> str:
    """Links as text, sorted by source then target index: `i-j` for each of links, `i?j` for each possible link
    that is not also among links; parse_links reads it back."""
    sure = set(links)
    marked = [(link, "-") for link in sure] + [(link, "?") for link in set(possible) - sure]
    return " ".join(f"{i}{mark}{j}" for (i, j), mark in sorted(marked))


def read_gold(
    pairs: Sequence[tuple[str, str]], cells: Sequence[str | None], tokenizer: str = "auto"
) -> tuple[list[Gold | None], list[DataError]]:
    """(gold per pair, problems): each pair's alignment cell read with parse_links over its tokens. An empty cell,
    or one with a bad link, gives None (the pair is kept, without gold); each bad cell is one problem naming its
    row (1-based)."""
    golds: list[Gold | None] = []
    problems: list[DataError] = []
    for row, ((source, target), cell) in enumerate(zip(pairs, cells), start=1):
        if not cell or not cell.strip():
            golds.append(None)
            continue
        try:
            src_len, tgt_len = len(tokenize(source, tokenizer, "source")), len(tokenize(target, tokenizer, "target"))
            golds.append(parse_links(cell, src_len, tgt_len, row))
        except DataError as exc:
            golds.append(None)
            problems.append(exc)
    return golds, problems


# ---------------------------------------------------------------- scoring


@dataclass(frozen=True)
class AlignmentScore:
    """Predicted links scored against gold links, summed over the pairs that have gold."""

    pairs: int  # pairs with gold links that were scored
    predicted: int  # |A|
    sure: int  # |S|
    hits_sure: int  # |A ∩ S|
    hits_possible: int  # |A ∩ P|, P with the sure links in it

    @property
    def aer(self) -> float | None:
        """1 − (|A∩S| + |A∩P|) / (|A| + |S|); None when there is nothing to score."""
        total = self.predicted + self.sure
        return 1 - (self.hits_sure + self.hits_possible) / total if total else None

    @property
    def precision(self) -> float | None:
        """|A∩P| / |A|: the share of predicted links that the gold allows."""
        return self.hits_possible / self.predicted if self.predicted else None

    @property
    def recall(self) -> float | None:
        """|A∩S| / |S|: the share of sure gold links that were predicted."""
        return self.hits_sure / self.sure if self.sure else None


def score_links(predicted: Sequence[Iterable[Link]], golds: Sequence[Gold | None]) -> AlignmentScore:
    """AER, precision and recall of predicted links (one set per pair) against golds; pairs without gold are left
    out."""
    pairs = n_a = n_s = hits_s = hits_p = 0
    for links, gold in zip(predicted, golds):
        if gold is None:
            continue
        a = set(links)
        pairs += 1
        n_a, n_s = n_a + len(a), n_s + len(gold.sure)
        hits_s += len(a & gold.sure)
        hits_p += len(a & (gold.possible | gold.sure))
    return AlignmentScore(pairs, n_a, n_s, hits_s, hits_p)


def floor_score(
    pairs: Sequence[tuple[str, str]], golds: Sequence[Gold | None], tokenizer="auto"
) -> AlignmentScore | None:
    """The best score any weights can reach under the linking rule (one link per target token) against golds of words:
    each target word linked by a sure link when it has one, else a possible one, else a link the gold does not allow.
    Where the gold gives a target word two sure links (a word of two characters), one of them is always missed. None
    when the model's tokenizer makes pieces other than the words (a word of two pieces can take two links)."""
    if not same_words(tokenizer, pairs):
        return None
    predicted = []
    for (_, target), gold in zip(pairs, golds):
        links = set()
        if gold is not None:
            for j in range(len(tokenize(target))):
                allowed = sorted(link for link in gold.sure if link[1] == j) or sorted(
                    link for link in gold.possible if link[1] == j
                )
                links.add(allowed[0] if allowed else (-1, j))  # (-1, j): a link to no word the gold allows
        predicted.append(links)
    return score_links(predicted, golds)


def links_of(weights: torch.Tensor) -> frozenset[Link]:
    """The one linking rule: weights (target tokens, source tokens) → each target token j linked to the source token
    i it weighs most, the first on a tie; links are (i, j)."""
    if weights.numel() == 0:
        return frozenset()
    best = linked_sources(weights)  # (lt,)
    return frozenset((int(i), j) for j, i in enumerate(best.tolist()))


def linked_sources(weights: torch.Tensor) -> torch.Tensor:
    """The linking rule on the last axis of any weights (..., target rows, source tokens): the index of the source
    token each row weighs most, the first on a tie (a NaN counts as the least)."""
    return weights.detach().float().nan_to_num(float("-inf")).argmax(-1)  # (..., lt)


# ---------------------------------------------------------------- methods


@dataclass(frozen=True)
class Method:
    """One way of reading alignment weights from a model: an ALIGN_METHODS name, with its layer and head (0-based; None
    where the method does not use one: average, a layer's norm, saliency)."""

    name: str
    layer: int | None = None
    head: int | None = None

    def label(self) -> str:
        """The method in words, layers and heads counted from 1: "attention, layer 2 head 3"."""
        if self.layer is None:
            return self.name
        where = f"layer {self.layer + 1}" + (f" head {self.head + 1}" if self.head is not None else "")
        return f"{self.name}, {where}"


def methods_of(cfg: TransformerConfig) -> list[Method]:
    """Every method for a model of this config, in table order: per layer each head's attention, the heads' average,
    each head's norm, the layer's norm; then saliency."""
    out = []
    for layer in range(cfg.n_layers):
        out += [Method("attention", layer, h) for h in range(cfg.n_heads)] + [Method("average", layer)]
        out += [Method("norm", layer, h) for h in range(cfg.n_heads)] + [Method("norm", layer)]
    return [*out, Method("saliency")]


def check_method(method: Method, cfg: TransformerConfig) -> None:
    """DataError unless method exists for a model of this config (layer and head in range, given where needed)."""
    if method.name not in ALIGN_METHODS:
        raise DataError(f"unknown alignment method {method.name!r}: use one of {', '.join(ALIGN_METHODS)}.")
    uses = {"attention": (True, True), "average": (True, False), "norm": (True, None), "saliency": (False, False)}
    layer_needed, head_needed = uses[method.name]  # None: may be given or not
    for what, value, needed, n in (
        ("layer", method.layer, layer_needed, cfg.n_layers),
        ("head", method.head, head_needed, cfg.n_heads),
    ):
        if needed and value is None:
            raise DataError(f"the {method.name} method needs a {what}: give one from 1 to {n}.")
        if needed is False and value is not None:
            raise DataError(f"the {method.name} method does not use a {what}: leave it out.")
        if value is not None and not 0 <= value < n:
            raise DataError(f"this model has {what}s 1 to {n}; {value + 1} is not one of them.")


class _SourceEmbeddings(Recorder):
    """Replaces the source embeddings of a forward pass by a leaf tensor whose gradient can be asked for."""

    def __init__(self, src_emb: torch.nn.Module):
        self.src_emb, self.embeddings = src_emb, None

    def __call__(self, module, name, tensor):
        if module is self.src_emb and self.embeddings is None:
            self.embeddings = tensor.detach().requires_grad_(True)  # (B, Ls, D)
            return self.embeddings
        return tensor

    def __bool__(self) -> bool:
        return True


def _chunk_weights(model: Transformer, part, methods: Sequence[Method], pad_id=PAD_ID) -> dict[Method, torch.Tensor]:
    """Every method's weights (B, Lt, Ls) for one batch part: row j of Lt is decoder row j (it predicts dec_outputs
    column j)."""
    enc_inputs, dec_inputs, dec_outputs = part
    salient = any(m.name == "saliency" for m in methods)
    rec = _SourceEmbeddings(model.encoder.src_emb) if salient else NO_RECORD
    maps = AttentionMaps()
    with torch.set_grad_enabled(salient):
        memory = model.encoder(enc_inputs, maps, rec)  # (B, Ls, D)
        hidden = model.decoder(dec_inputs, enc_inputs, memory, maps)  # (B, Lt, D)
        out: dict[Method, torch.Tensor] = {}
        values = {}  # layer -> f (B, H, Ls, D): what each source token sends through each head
        for m in methods:
            if m.name == "attention":
                out[m] = maps.dec_enc_attns[m.layer][:, m.head]  # (B, Lt, Ls)
            elif m.name == "average":
                out[m] = maps.dec_enc_attns[m.layer].mean(1)  # (B, H, Lt, Ls) → (B, Lt, Ls)
            elif m.name == "norm":
                if m.layer not in values:
                    values[m.layer] = value_vectors(model, m.layer, memory)
                f, attn = values[m.layer], maps.dec_enc_attns[m.layer]  # (B, H, Ls, D), (B, H, Lt, Ls)
                if m.head is not None:
                    out[m] = attn[:, m.head] * f[:, m.head].norm(dim=-1)[:, None, :]  # (B, Lt, Ls)
                else:
                    out[m] = torch.einsum("bhts,bhsd->btsd", attn, f).norm(dim=-1)  # (B, Lt, Ls, D) → (B, Lt, Ls)
        if salient:
            out[Method("saliency")] = _saliency(model.projection, hidden, dec_outputs, rec.embeddings, pad_id)
    return {m: w.detach() for m, w in out.items()}


def value_vectors(model: Transformer, layer: int, memory: torch.Tensor) -> torch.Tensor:
    """f (B, H, Ls, D): each source token's value vector through one head of a layer's cross-attention, projected
    by that head's slice of W_O: f^h(x_i) = (x_i W_V + b_V)^h W_O^h (the output bias, shared, left out)."""
    mha = model.decoder.layers[layer].dec_enc_attn
    B, Ls, _ = memory.shape
    V = mha.W_V(memory).view(B, Ls, mha.n_heads, mha.d_v)  # (B, Ls, H, d_v)
    W_O = mha.fc.weight.view(-1, mha.n_heads, mha.d_v)  # (D, H, d_v)
    return torch.einsum("bshv,dhv->bhsd", V, W_O)  # (B, H, Ls, D)


def _saliency(project, hidden, dec_outputs: torch.Tensor, embeddings: torch.Tensor, pad_id=PAD_ID) -> torch.Tensor:
    """(B, Lt, Ls): ‖∂ log p(dec_outputs[:, j]) / ∂e ⊙ e‖₂ for each target row j and source token, e the source
    embeddings (B, Ls, D). One backward pass per row over the whole part (the pairs do not mix), through its (B, V)
    logits alone, projected from hidden (B, Lt, D): all (B, Lt, V) at each row took minutes with 65,001 tokens."""
    real = dec_outputs.ne(pad_id)  # (B, Lt)
    rows = []
    for j in range(dec_outputs.size(1)):
        if not real[:, j].any():
            rows.append(torch.zeros(embeddings.shape[:2]))
            continue
        log_p = torch.log_softmax(project(hidden[:, j]).float(), dim=-1).gather(-1, dec_outputs[:, j, None])[:, 0]
        (grad,) = torch.autograd.grad(log_p[real[:, j]].sum(), embeddings, retain_graph=True)  # (B, Ls, D)
        rows.append((grad * embeddings).norm(dim=-1))  # (B, Ls, D) → (B, Ls)
    return torch.stack(rows, dim=1)  # (B, Lt, Ls)


def check_pairs_fit(translator: Translator, pairs: Sequence[tuple[str, str]]) -> None:
    """DataError for no pairs, an empty side (naming its 1-based row) or a sentence longer than the model reads."""
    if not pairs:
        raise DataError("there are no sentence pairs: add at least one row with a source and a target.", "no_pairs")
    for row, pair in enumerate(pairs, start=1):
        for side, text in zip(("source", "target"), pair):
            if not tokenize(text, translator.tokenizer, side):
                message = f"row {row}: the {side} sentence is empty: type one or delete the row."
                raise DataError(message, f"empty_{side}", row=row)
        translator.check_pair(pair)


def alignment_weights(
    translator: Translator, pairs: Sequence[tuple[str, str]], methods: Sequence[Method]
) -> dict[Method, list[torch.Tensor]]:
    """For each method, one weight matrix (target tokens, source tokens) per pair, in the order of pairs: row j is
    the decoder row that predicts target token j. Teacher-forced, eval mode, EVAL_ROWS pairs at a time."""
    for m in methods:
        check_method(m, translator.config)
    pairs = list(pairs)
    check_pairs_fit(translator, pairs)
    batch = translator.make_batch(pairs)
    src_lengths, dec_lengths = lengths(batch, translator.pad_id)  # (n,), (n,): the decoder rows are S + target
    out: dict[Method, list[torch.Tensor | None]] = {m: [None] * len(pairs) for m in methods}
    model = translator.model
    was_training = model.training
    model.eval()
    try:
        device = next(model.parameters()).device
        for rows in by_length(src_lengths, dec_lengths).split(EVAL_ROWS):
            part = [t.to(device) for t in cut(batch, rows, src_lengths, dec_lengths)]
            for m, weights in _chunk_weights(model, part, methods, translator.pad_id).items():
                for k, row in enumerate(rows.tolist()):
                    lt, ls = int(dec_lengths[row]) - 1, int(src_lengths[row])  # rows predicting target tokens
                    out[m][row] = weights[k, :lt, :ls].float().cpu()  # (lt, ls)
    finally:
        model.train(was_training)
    return out


def align(translator: Translator, pairs: Sequence[tuple[str, str]], method: Method) -> list[frozenset[Link]]:
    """The word links of one method for every pair: links_of each pair's piece weights, each piece link made the links
    of the pieces' words (word_links; the same links where the pieces are the words)."""
    weights = alignment_weights(translator, pairs, [method])[method]
    return [word_links(links_of(w), *pair_words(translator.tokenizer, p)) for w, p in zip(weights, pairs)]


@dataclass(frozen=True)
class MethodScore:
    """One method's links on a dataset, scored against its gold."""

    method: Method
    score: AlignmentScore


def aer_table(
    translator: Translator, pairs: Sequence[tuple[str, str]], golds: Sequence[Gold | None], saliency: bool = True
) -> list[MethodScore]:
    """Every method of the model (methods_of; saliency only if asked) scored on the pairs that have gold (links of
    words: read_gold's default tokens), in table order; links read at the word level (align)."""
    kept = [(p, g) for p, g in zip(pairs, golds) if g is not None]
    if not kept:
        raise DataError("no pair has gold alignment links: give an alignment column to measure AER.", "no_gold")
    methods = [m for m in methods_of(translator.config) if saliency or m.name != "saliency"]
    weights = alignment_weights(translator, [p for p, _ in kept], methods)
    gold, words = [g for _, g in kept], [pair_words(translator.tokenizer, p) for p, _ in kept]
    return [
        MethodScore(m, score_links([word_links(links_of(w), *ws) for w, ws in zip(weights[m], words)], gold))
        for m in methods
    ]


def best(scores: Sequence[MethodScore], name: str | None = None) -> MethodScore | None:
    """The score with the lowest AER (the first on a tie), among the methods called name when given."""
    scored = [s for s in scores if s.score.aer is not None and (name is None or s.method.name == name)]
    return min(scored, key=lambda s: s.score.aer) if scored else None


# ---------------------------------------------------------------- what the figures say


def corpus_gold(pairs: Sequence[tuple[str, str]], tokenizer: str = "auto") -> list[Gold | None]:
    """The gold links the teaching corpus carries for each pair (transformer.corpus.lookup, the same target), None
    for a pair the grammar does not make or that carries none, and under a tokenizer whose tokens of the pair are not
    the corpus's (its links count the corpus's tokens: under "char" or BPE they would point at other tokens); links
    off the pair's tokens count as none."""
    golds: list[Gold | None] = []
    for source, target in pairs:
        found = corpus.lookup(source)
        same = found is not None and found.target == target
        same = same and all(
            tokenize(x, tokenizer, side) == tokenize(x, "auto") for x, side in zip((source, target), _SIDES)
        )
        links = getattr(found, "alignment", "") if same else ""
        golds.append(read_gold([(source, target)], [links], tokenizer)[0][0])
    return golds


def compare(a: float, b: float, tolerance: float = 0.005) -> str:
    """How AER a does against AER b: "better" (lower by more than tolerance), "worse", or "same"."""
    return "better" if a < b - tolerance else "worse" if a > b + tolerance else "same"


@dataclass(frozen=True)
class Findings:
    """What an AER table says, for a sentence built from it: the best head, the last layer's average against it, the
    best norm weighting and saliency, and the best of every method."""

    best_head: MethodScore
    last_average: MethodScore  # the average of the last layer's heads
    average_vs_head: str  # compare(last average, best head): better, worse or same
    best_norm: MethodScore
    saliency: MethodScore
    best_overall: MethodScore


def findings(scores: Sequence[MethodScore], cfg: TransformerConfig) -> Findings | None:
    """The Findings of an aer_table, or None when nothing could be scored."""
    by = {s.method: s for s in scores if s.score.aer is not None}
    head, norm, top = best(scores, "attention"), best(scores, "norm"), best(scores)
    average, saliency = by.get(Method("average", cfg.n_layers - 1)), by.get(Method("saliency"))
    if None in (head, norm, top, average, saliency):
        return None
    return Findings(head, average, compare(average.score.aer, head.score.aer), norm, saliency, top)


def score_map(weights: torch.Tensor, gold: Gold, source: Words, target: Words) -> AlignmentScore:
    """One cross-attention map (decoder rows, source columns) of one pair scored against its gold: the rows that
    predict its target pieces, its source pieces, linked by links_of and made word links (word_links)."""
    piece_links = links_of(weights[: len(target.pieces), : len(source.pieces)])
    return score_links([word_links(piece_links, source, target)], [gold])


# ---------------------------------------------------------------- during training

ALIGN_PAIRS = 64  # gold pairs on which a training measures its heads' AER after every epoch (docs/alignment.md)


def gold_sample(
    pairs: Sequence[tuple[str, str]], tokenizer="auto", n: int = ALIGN_PAIRS
) -> list[tuple[tuple[str, str], Gold]]:
    """Up to n of pairs that carry the teaching corpus's gold links (corpus_gold: links of words), spread evenly over
    them, each with its gold: what a training measures alignment on, at the word level whatever pieces the tokenizer
    makes. Empty for data without gold; a pair whose pieces do not spell it is left out."""
    found = []
    for i in range(len(pairs)):
        source, target = pairs[i]
        if corpus.lookup(source) is None:  # the cheap test first: most of a file without gold stops here
            continue
        gold = corpus_gold([(source, target)])[0]
        if gold is not None and spells(tokenizer, (source, target)):
            found.append(((source, target), gold))
    return spread(found, n)


def spread(items: Sequence, n: int = ALIGN_PAIRS) -> list:
    """Up to n of items spread evenly over them, the first and the last included; all of them when they are fewer."""
    if len(items) <= n:
        return list(items)
    return [items[round(k * (len(items) - 1) / (n - 1))] for k in range(n)] if n > 1 else list(items[:n])


def fitting(translator: Translator, sample: Sequence[tuple[tuple[str, str], Gold]]) -> list:
    """The pairs of a gold sample that the model reads (check_pairs_fit), in order."""
    kept = []
    for pair, gold in sample:
        try:
            check_pairs_fit(translator, [pair])
            pair_words(translator.tokenizer, pair)  # pieces that spell the pair's words
        except DataError:
            continue
        kept.append((pair, gold))
    return kept


@dataclass(frozen=True)
class GoldBatch:
    """Gold pairs made ready once, to score every cross-attention head after each epoch: the teacher-forced inputs,
    the words of each piece (transformer.words.membership; row j of the decoder is the row that predicts target piece
    j), and the gold as masks over (target word, source word)."""

    enc_inputs: torch.Tensor  # (B, Ls)
    dec_inputs: torch.Tensor  # (B, Lt): S + target, padded
    src_words: torch.Tensor  # (B, Ls, Ws) 1.0 where source piece i belongs to word k
    tgt_words: torch.Tensor  # (B, Lt, Wt) the same for the row that predicts target piece j (E's row, padding: none)
    sure: torch.Tensor  # (B, Wt, Ws) bool
    possible: torch.Tensor  # (B, Wt, Ws) bool, the sure links among them

    def to(self, device: torch.device) -> GoldBatch:
        """The same gold on another device."""
        return GoldBatch(*(t.to(device) for t in vars(self).values()))


def gold_batch(translator: Translator, sample: Sequence[tuple[tuple[str, str], Gold]]) -> GoldBatch | None:
    """The GoldBatch of the sample's pairs that the model reads (fitting), or None when none is left."""
    sample = fitting(translator, sample)
    if not sample:
        return None
    batch = translator.make_batch([p for p, _ in sample])
    words = [pair_words(translator.tokenizer, p) for p, _ in sample]
    (B, Ls), Lt = batch.enc_inputs.shape, batch.dec_inputs.size(1)
    Ws, Wt = (max(len(w[side].words) for w in words) for side in (0, 1))
    sure, possible = torch.zeros(B, Wt, Ws, dtype=torch.bool), torch.zeros(B, Wt, Ws, dtype=torch.bool)
    for b, (_, gold) in enumerate(sample):
        for links, mask in ((gold.sure, sure), (gold.sure | gold.possible, possible)):
            for i, j in links:
                mask[b, j, i] = True
    src_words = torch.stack([membership(src, Ls, Ws) for src, _ in words])  # (B, Ls, Ws)
    tgt_words = torch.stack([membership(tgt, Lt, Wt) for _, tgt in words])  # (B, Lt, Wt)
    return GoldBatch(batch.enc_inputs, batch.dec_inputs, src_words, tgt_words, sure, possible)


def head_aers(model: Transformer, gold: GoldBatch) -> torch.Tensor:
    """(n_layers, n_heads): each cross-attention head's AER on the gold, its links made by linked_sources (the one
    rule) and made links of words (word_links), as score_links sums them; one teacher-forced pass in eval mode,
    without gradients or randomness."""
    with evaluating(model):
        maps = AttentionMaps()
        memory = model.encoder(gold.enc_inputs, maps)  # (B, Ls, D)
        model.decoder(gold.dec_inputs, gold.enc_inputs, memory, maps)
    attn = torch.stack(maps.dec_enc_attns, 1)  # (B, layers, H, Lt, Ls)
    picked = torch.nn.functional.one_hot(linked_sources(attn), attn.size(-1)).float()  # (B, layers, H, Lt, Ls)
    linked = torch.einsum("btw,blhts,bsv->blhwv", gold.tgt_words, picked, gold.src_words) > 0  # (B, layers, H, Wt, Ws)
    hits = [(linked & mask[:, None, None]).sum((0, 3, 4)) for mask in (gold.sure, gold.possible)]  # (layers, H)
    predicted, n_sure = linked.sum((0, 3, 4)), int(gold.sure.sum())  # |A| per head, |S|
    return 1 - (hits[0] + hits[1]).double() / (predicted + n_sure)


def best_head_aer(translator: Translator, gold: GoldBatch | None) -> tuple[float, int, int] | None:
    """(AER, layer, head) of the cross-attention head that aligns the gold best (the lowest AER, the first on a tie;
    layer and head from 0), or None without gold."""
    if gold is None:
        return None
    aers = head_aers(translator.model, gold)  # (layers, H)
    k = int(aers.flatten().argmin())
    return float(aers.flatten()[k]), k // aers.size(1), k % aers.size(1)


@dataclass(frozen=True)
class AlignmentTrend:
    """How the best head's AER went over a training's recorded epochs: at the first, at the last (with the head that
    was best then) and at its lowest, and whether it fell, rose or stayed (compare of the last against the first)."""

    first_epoch: int
    first_aer: float
    last_epoch: int
    last_aer: float
    layer: int  # the last epoch's best head, from 0
    head: int
    lowest_epoch: int
    lowest_aer: float
    change: str  # compare(last, first): "better" (fell), "worse" (rose) or "same"


def alignment_trend(history: Sequence) -> AlignmentTrend | None:
    """The AlignmentTrend of a training history (EpochRecords), or None when no epoch recorded an AER."""
    points = []
    for h in history:
        if h.aer is not None:
            points.append((h.epoch, float(h.aer), h.aer_layer or 0, h.aer_head or 0))
    if not points:
        return None
    first, last = points[0], points[-1]
    lowest = min(points, key=lambda p: p[1])
    return AlignmentTrend(
        first[0], first[1], last[0], last[1], last[2], last[3], lowest[0], lowest[1], compare(last[1], first[1])
    )
