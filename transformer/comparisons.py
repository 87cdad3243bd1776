"""Comparisons a page shows, computed here so that the page only draws them: two trained models on the same pairs
(the Lab), and greedy decoding against beam search over a dataset's sources (the Decoding page)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .decoding import BeamVsGreedy, beam_vs_greedy
from .plan import scored_rows
from .translator import Evaluation, Translator


@dataclass(frozen=True)
class SharedPairs:
    """The pairs two models are compared on: those both models read, the training ones sampled as a training scores
    them (plan.scored_rows), so that a comparison of many pairs costs what a training's evaluation costs."""

    train: list[tuple[str, str]]  # training pairs both read, the sample when there are many
    held: list[tuple[str, str]]  # held-out pairs both read
    left_out: int  # pairs at least one of the models cannot read (longer than its positions)
    every: int  # training pairs both read, before the sample

    @property
    def sampled(self) -> bool:
        """Whether the training pairs are a sample of those both models read."""
        return len(self.train) < self.every


def pairs_both_read(
    translators: Sequence[Translator],
    train_pairs: Sequence[tuple[str, str]],
    held_pairs: Sequence[tuple[str, str]] = (),
    seed: int = 0,
) -> SharedPairs:
    """The training and held-out pairs every one of translators reads (Translator.fits), the training ones sampled
    with the training's seed."""
    train, held = ([p for p in part if all(tr.fits(p) for tr in translators)] for part in (train_pairs, held_pairs))
    left_out = len(train_pairs) + len(held_pairs) - len(train) - len(held)
    return SharedPairs([train[i] for i in scored_rows(len(train), seed)], held, left_out, len(train))


def score_bars(evaluations: Mapping[str, Evaluation]) -> dict[str, float]:
    """A model's token accuracy and exact match on its training pairs (train_acc, train_exact) and, when it was
    evaluated on held-out pairs, on those (held_acc, held_exact): the bars of a comparison's score chart."""
    train = evaluations["train"]
    bars = {"train_acc": train.token_accuracy, "train_exact": train.exact_match}
    held = evaluations.get("holdout")
    if held is not None:
        bars.update(held_acc=held.token_accuracy, held_exact=held.exact_match)
    return bars


def translations_side_by_side(
    a: Mapping[str, Evaluation], b: Mapping[str, Evaluation], parts: Sequence[str] = ("train",)
) -> list[tuple[str, str, str, str, bool, str, bool]]:
    """Each pair both models were evaluated on, with both outputs: (part, source, reference, a's output, whether it
    is the reference, b's output, whether it is), part by part in the order of parts."""
    rows = []
    for part in parts:
        for (source, reference, out_a, ok_a), (_, _, out_b, ok_b) in zip(a[part].results, b[part].results):
            rows.append((part, source, reference, out_a, ok_a, out_b, ok_b))
    return rows


def beam_against_greedy(
    translator: Translator, sources: Sequence[str], beam_size: int, length_penalty: float = 0.0
) -> list[BeamVsGreedy]:
    """Greedy decoding and beam search on every source, scored with the same length penalty, batched; a DataError
    for a source the model cannot read."""
    for source in sources:
        translator.encode_source(source)  # a DataError for a sentence this model cannot read
    enc_inputs = translator.make_batch([(s, "") for s in sources]).enc_inputs  # (B, Ls), padded with P
    return beam_vs_greedy(translator.model, enc_inputs, translator.tgt_vocab, beam_size, length_penalty)
