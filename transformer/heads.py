"""Head statistics: what each attention head of one kind does, measured over a dataset or one sentence.

A learner looks for heads with a job: the "previous-token" head (every word looks at the word before it), the
"alignment" head (each target word looks at the source word it translates). The numbers here find them.

Kinds and their tensors (transformer.model.ATTENTION_KINDS, AttentionMaps.of(kind): one tensor per layer):
    enc_self   encoder self-attention            queries = keys = enc_inputs      (B, H, Ls, Ls)
    dec_self   decoder masked self-attention     queries = keys = dec_inputs      (B, H, Lt, Lt)
    dec_enc    encoder–decoder (cross) attention queries = dec_inputs, keys = enc_inputs  (B, H, Lt, Ls)

Every statistic is a mean over the REAL query positions of every sentence (padding rows P are left out), all
positions of all sentences weighing the same. Padding comes after the words, as make_data builds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import torch

from .data import PAD_ID, Vocab
from .errors import DataError
from .model import ATTENTION_KINDS, DEC_ENC, AttentionKind, AttentionMaps, attention_kind
from .translator import Translator

SHARES = ("same", "previous", "next", "padding", "on_S", "on_E", "diagonal", "alignment")  # the statistics in [0, 1]
STATISTICS = ("entropy", *SHARES)  # every statistic of a HeadStats, in table order
NEAR_DIAGONAL = 1.0  # dec_enc keys within this many positions of the length-scaled diagonal count as "diagonal"
_LN2 = 0.6931471805599453
PADDING = -1  # the id kind_inputs gives padding positions: no token's, whatever the vocabulary's padding id


@dataclass(frozen=True)
class HeadStats:
    """What one head (layer, head) of one kind does, averaged over real query positions.

    Shares are fractions of a query row's attention (each row sums to 1), so they lie in [0, 1];
    same + previous + next + padding ≤ 1 because the first three count real keys only.
    """

    layer: int  # 0-based
    head: int  # 0-based
    kind: str  # enc_self, dec_self or dec_enc
    entropy: float  # nats: −Σ_j a_ij·ln a_ij, 0 = all on one key, ln n = spread evenly over n keys
    same: float  # on key j = i (for dec_enc: source position i, the diagonal)
    previous: float  # on key j = i − 1 (0 for the first query, which has none)
    next: float  # on key j = i + 1 (0 for dec_self: the look-ahead mask blocks it)
    padding: float  # on padding keys P (0 in a model here: the padding mask blocks them)
    on_S: float | None  # on keys holding S; None when no key is S (the source never has one)
    on_E: float | None  # on keys holding E; None when no key is E (E is an output, never an input)
    diagonal: float | None  # dec_enc only: on source keys within ±1 of the length-scaled diagonal
    alignment: float | None  # dec_enc with marks only: on the marked source words of each marked target row
    queries: int  # how many real query positions were averaged
    previous_perfect: float = 1.0  # what `previous` a perfect previous-token head scores on these sentences (below 1)

    @property
    def entropy_bits(self) -> float:
        """The mean entropy in bits (nats / ln 2)."""
        return self.entropy / _LN2


def head_stats(
    attns: Sequence[torch.Tensor],
    kind: AttentionKind | str,
    query_ids: torch.Tensor,
    key_ids: torch.Tensor,
    S_id: int | None = None,
    E_id: int | None = None,
    pad_id: int = PAD_ID,
    marks: Sequence[tuple[int, int]] | None = None,
) -> list[HeadStats]:
    """One HeadStats per layer and head (layer-major) from attns [layer] (B, H, Lq, Lk) and the token ids.

    query_ids (B, Lq) and key_ids (B, Lk) are the ids on each side (padding = pad_id); S_id / E_id are the ids of
    S and E among the keys, or None where the key side cannot hold them. marks (dec_enc, one sentence only) are
    (query position, key position) cells of the attention map that the user paired as translations.

    For query i of a sentence with real rows a_i· (Σ_j a_ij = 1), each statistic is the mean over real queries of:
        entropy    −Σ_j a_ij ln a_ij, in nats (HeadStats.entropy_bits gives bits)
        same       a_ii;  previous a_i,i−1;  next a_i,i+1 — real keys only, 0 where that key does not exist
                   (so a perfect previous-token head scores (L − 1)/L on sentences of L positions, the mean
                   over real queries of "key i − 1 is real": HeadStats.previous_perfect).
                   For dec_enc, position i of the decoder is compared with position i of the source: the
                   diagonal of the map, which a word-by-word translation follows.
        padding    Σ of a_ij over padding keys
        on_S, on_E Σ of a_ij over keys holding S / E. For dec_self S is the first key (dec_inputs start with S);
                   E never is a key (dec_inputs are S + target, E only ends dec_outputs), so on_E is None unless
                   the key ids contain it. enc_self and dec_enc keys are source words: no S, no E, both None.
        diagonal   (dec_enc) Σ of a_ij over real keys j with |j − c_i| ≤ 1, where
                   c_i = (i + ½)·Ls/Lt − ½ is the line from the top-left to the bottom-right corner of the
                   sentence's real Lt × Ls map (Lt, Ls its real lengths); for Ls = Lt it is same + previous + next.
        alignment  (dec_enc, marks given) the mean over marked rows i of Σ a_ij over the columns j marked in
                   row i: 1 when every marked target row looks only at its marked source words.
    """
    kind = attention_kind(kind)
    _check_inputs(attns, kind, query_ids, key_ids, marks)
    B, _, Lq, Lk = attns[0].shape
    query_ids, key_ids = query_ids.cpu(), key_ids.cpu()
    q_real = query_ids.ne(pad_id)  # (B, Lq)
    k_real = key_ids.ne(pad_id)  # (B, Lk)
    n_queries = int(q_real.sum())
    if n_queries == 0:
        raise ValueError("every query position is padding: there is nothing to average.")
    key_sets = _key_sets(kind, key_ids, q_real, k_real, S_id, E_id)
    marked = _marked_cells(marks, q_real, k_real).float() if marks is not None else None  # (Lq, Lk)
    weight = q_real.double()[:, None, :]  # (B, 1, Lq): 1 for real queries

    def mean_over_queries(per_query: torch.Tensor) -> torch.Tensor:  # (B, H, Lq) -> (H,)
        return (per_query.double() * weight).sum(dim=(0, 2)) / n_queries

    previous_perfect = float(mean_over_queries(key_sets["previous"].sum(-1))[0])  # all of each row on key i − 1
    out: list[HeadStats] = []
    for layer, attn in enumerate(attns):
        if tuple(attn.shape) != (B, attn.size(1), Lq, Lk):
            raise ValueError(f"layer {layer} has shape {tuple(attn.shape)}, the first layer {tuple(attns[0].shape)}.")
        a = attn.detach().cpu().float().nan_to_num(0.0)  # (B, H, Lq, Lk); padding query rows may be NaN
        values = {"entropy": mean_over_queries(torch.special.entr(a).sum(-1))}  # (H,)
        for name, cells in key_sets.items():  # cells (B, 1, Lq, Lk): 1 on the keys counted for each query
            values[name] = None if cells is None else mean_over_queries((a * cells).sum(-1))
        if marked is not None:
            rows = marked.bool().any(-1)  # (Lq,)
            per_row = (a[0] * marked).sum(-1).double()  # (H, Lq)
            values["alignment"] = per_row[:, rows].mean(-1) if rows.any() else None
        else:
            values["alignment"] = None
        for h in range(a.size(1)):
            out.append(
                HeadStats(
                    layer=layer,
                    head=h,
                    kind=kind.name,
                    queries=n_queries,
                    previous_perfect=previous_perfect,
                    **{name: None if v is None else float(v[h]) for name, v in values.items()},
                )
            )
    return out


def _check_inputs(
    attns: Sequence[torch.Tensor],
    kind: AttentionKind,
    query_ids: torch.Tensor,
    key_ids: torch.Tensor,
    marks: Sequence[tuple[int, int]] | None,
) -> None:
    """ValueError for maps, ids or marks that head_stats cannot measure."""
    if not attns:
        raise ValueError("attns is empty: give one attention tensor per layer.")
    B, _, Lq, Lk = attns[0].shape
    if tuple(query_ids.shape) != (B, Lq) or tuple(key_ids.shape) != (B, Lk):
        raise ValueError(
            f"query_ids {tuple(query_ids.shape)} and key_ids {tuple(key_ids.shape)} must be "
            f"{(B, Lq)} and {(B, Lk)} for attention maps of shape {tuple(attns[0].shape)}."
        )
    if marks is not None and not kind.crosses:
        raise ValueError("alignment marks are pairs of a target and a source word: use them with dec_enc.")


def _key_sets(
    kind: AttentionKind,
    key_ids: torch.Tensor,
    q_real: torch.Tensor,
    k_real: torch.Tensor,
    S_id: int | None,
    E_id: int | None,
) -> dict[str, torch.Tensor | None]:
    """For each share statistic, (B, 1, Lq, Lk): 1.0 on the keys it counts for each query; None where no key can
    count (on_S, on_E without S or E among the keys; diagonal outside dec_enc)."""
    B, Lq, Lk = q_real.size(0), q_real.size(1), k_real.size(1)
    offset = torch.arange(Lk)[None, :] - torch.arange(Lq)[:, None]  # (Lq, Lk): j − i
    real_keys = k_real[:, None, :]  # (B, 1, Lk)
    key_sets = {
        "same": offset.eq(0) & real_keys,  # (B, Lq, Lk)
        "previous": offset.eq(-1) & real_keys,
        "next": offset.eq(1) & real_keys,
        "padding": ~real_keys.expand(B, Lq, Lk),
    }
    for name, token in (("on_S", S_id), ("on_E", E_id)):
        holds = key_ids.eq(token) & k_real if token is not None else torch.zeros_like(k_real)  # (B, Lk)
        key_sets[name] = holds[:, None, :].expand(B, Lq, Lk) if holds.any() else None
    key_sets["diagonal"] = _near_diagonal(q_real, k_real) if kind.crosses else None
    return {name: None if cells is None else cells[:, None].float() for name, cells in key_sets.items()}


def _near_diagonal(q_real: torch.Tensor, k_real: torch.Tensor) -> torch.Tensor:
    """(B, Lq, Lk): real keys within NEAR_DIAGONAL of each sentence's length-scaled diagonal."""
    lt = q_real.sum(1, dtype=torch.float64)[:, None, None]  # (B, 1, 1) real target length
    ls = k_real.sum(1, dtype=torch.float64)[:, None, None]  # (B, 1, 1) real source length
    i = torch.arange(q_real.size(1), dtype=torch.float64)[None, :, None]  # (1, Lq, 1)
    j = torch.arange(k_real.size(1), dtype=torch.float64)[None, None, :]  # (1, 1, Lk)
    centre = (i + 0.5) * ls / lt.clamp(min=1) - 0.5  # (B, Lq, 1)
    return ((j - centre).abs() <= NEAR_DIAGONAL + 1e-9) & k_real[:, None, :]  # (B, Lq, Lk)


def _marked_cells(marks: Sequence[tuple[int, int]], q_real: torch.Tensor, k_real: torch.Tensor) -> torch.Tensor:
    """(Lq, Lk) True at each marked (query, key) cell of the one sentence; DataError for a cell off its words."""
    if q_real.size(0) != 1:
        raise ValueError(f"alignment marks belong to one sentence, but the batch holds {q_real.size(0)}.")
    n_rows, n_cols = int(q_real[0].sum()), int(k_real[0].sum())
    cells = torch.zeros(q_real.size(1), k_real.size(1), dtype=torch.bool)  # (Lq, Lk)
    for mark in marks:
        i, j = (int(x) for x in mark)
        if not (0 <= i < q_real.size(1) and q_real[0, i]) or not (0 <= j < k_real.size(1) and k_real[0, j]):
            raise DataError(
                f"the marked pair (row {i}, column {j}) is not a pair of words of this sentence: "
                f"mark rows 0–{n_rows - 1} and columns 0–{n_cols - 1}, not padding.",
                "mark_outside",
                row=i,
                column=j,
            )
        cells[i, j] = True
    return cells


def mean_patterns(attns: Sequence[torch.Tensor], query_ids: torch.Tensor, pad_id: int = PAD_ID) -> torch.Tensor:
    """(n_layers, H, Lq, Lk): each head's attention map averaged over the sentences whose query i is real.

    Cell (i, j) is the mean of a_ij over the sentences that have a word (not padding) at query position i; keys
    beyond a shorter sentence count as 0 there. A row no sentence reaches is NaN. For one sentence it is the map.
    """
    q_real = query_ids.cpu().ne(pad_id).float()  # (B, Lq)
    count = q_real.sum(0)[None, None, :, None]  # (1, 1, Lq, 1)
    total = torch.stack(
        [torch.einsum("bhqk,bq->hqk", a.detach().cpu().float().nan_to_num(0.0), q_real) for a in attns]
    )  # (n_layers, H, Lq, Lk): sums over the sentences with a real query i
    return torch.where(count > 0, total / count.clamp(min=1), torch.nan)


def kind_inputs(
    kind: AttentionKind | str, enc_inputs: torch.Tensor, dec_inputs: torch.Tensor, tgt_vocab: Vocab
) -> tuple[torch.Tensor, torch.Tensor, int | None, int | None]:
    """(query_ids, key_ids, S_id, E_id) of one kind: whose ids sit on each side, their padding as PADDING (so a start
    token that is the padding token, as Marian's, is read as the start), and the S / E ids among the keys."""
    kind = attention_kind(kind)
    pad = tgt_vocab.pad_id
    positions = torch.arange(dec_inputs.size(1), device=dec_inputs.device)  # (Lt,)
    dec_inputs = dec_inputs.masked_fill(dec_inputs.eq(pad) & positions.gt(0), PADDING)  # (B, Lt): the start kept
    query_ids, key_ids = kind.sides(enc_inputs.masked_fill(enc_inputs.eq(pad), PADDING), dec_inputs)
    if not kind.keys_hold_special:  # source keys: no S and no E
        return query_ids, key_ids, None, None
    return query_ids, key_ids, tgt_vocab.bos_id, tgt_vocab.eos_id


@dataclass(frozen=True)
class HeadStudy:
    """Head statistics and mean attention maps of every kind, for a dataset or one sentence."""

    stats: dict[str, list[HeadStats]]  # kind name -> one record per (layer, head), layer-major
    patterns: dict[str, torch.Tensor]  # kind name -> (n_layers, H, Lq, Lk) mean attention map (see mean_patterns)
    sentences: int  # how many sentences were read


def study_maps(
    maps: AttentionMaps,
    enc_inputs: torch.Tensor,
    dec_inputs: torch.Tensor,
    tgt_vocab: Vocab,
    marks: Sequence[tuple[int, int]] | None = None,
) -> HeadStudy:
    """head_stats and mean_patterns of every kind from one AttentionMaps and its inputs (e.g. Translator.inspect);
    marks, for one sentence, are (decoder position, source position) cells of the dec_enc maps."""
    stats, patterns = {}, {}
    for kind in ATTENTION_KINDS.values():
        attns = maps.of(kind)
        query_ids, key_ids, S_id, E_id = kind_inputs(kind, enc_inputs, dec_inputs, tgt_vocab)
        kind_marks = marks if kind.crosses else None
        stats[kind.name] = head_stats(attns, kind, query_ids, key_ids, S_id, E_id, PADDING, kind_marks)
        patterns[kind.name] = mean_patterns(attns, query_ids, PADDING)
    return HeadStudy(stats=stats, patterns=patterns, sentences=enc_inputs.size(0))


def with_alignment(
    stats: Sequence[HeadStats],
    maps: AttentionMaps,
    enc_inputs: torch.Tensor,
    dec_inputs: torch.Tensor,
    tgt_vocab: Vocab,
    marks: Sequence[tuple[int, int]],
) -> list[HeadStats]:
    """stats of the dec_enc heads (over a dataset or one sentence) with each head's alignment: its share of attention
    on the marked (decoder position, source position) cells of one sentence's maps and inputs."""
    query_ids, key_ids, S_id, E_id = kind_inputs(DEC_ENC, enc_inputs, dec_inputs, tgt_vocab)
    aligned = head_stats(maps.of(DEC_ENC), DEC_ENC, query_ids, key_ids, S_id, E_id, PADDING, marks)
    return [replace(s, alignment=a.alignment) for s, a in zip(stats, aligned, strict=True)]


def study_heads(translator: Translator, pairs: Sequence[tuple[str, str]]) -> HeadStudy:
    """Run translator's model once over pairs (teacher-forced, batched, eval mode) and measure every head."""
    pairs = list(pairs)
    if not pairs:
        raise DataError("there are no sentence pairs: add at least one row with a source and a target.", "no_pairs")
    batch = translator.make_batch(pairs)
    pad = translator.pad_id
    empty = [row for row, ids in enumerate(batch.enc_inputs.tolist(), start=1) if all(i == pad for i in ids)]
    if empty:
        raise DataError(
            f"row {empty[0]}: the source sentence is empty: type one or delete the row.", "empty_source", row=empty[0]
        )
    longest = max(batch.enc_inputs.size(1), batch.dec_inputs.size(1))
    if longest > translator.config.max_len:
        raise DataError(
            f"a sentence needs {longest} positions; this model reads at most {translator.config.max_len}. Shorten it.",
            "sentence_too_long",
            n=longest,
            max=translator.config.max_len,
        )
    maps = translator.attention_maps(batch.enc_inputs, batch.dec_inputs)
    return study_maps(maps, batch.enc_inputs, batch.dec_inputs, translator.tgt_vocab)
