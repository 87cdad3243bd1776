"""Alignment forming during training: the best cross-attention head's alignment error rate per epoch, as the training
recorded it (transformer.train, on transformer.alignment.gold_sample), drawn with the sentence that reads it; for the
Train page (one model) and the Lab (two side by side)."""

from __future__ import annotations

from collections.abc import Sequence

from transformer.alignment import ALIGN_PAIRS, alignment_trend
from transformer.text import markdown
from viz.training import alignment_figure

from .export import caption, chart, file_name, text
from .i18n import sentences, t

TREND_KEYS = {"better": "train.aer_fell", "worse": "train.aer_rose", "same": "train.aer_same"}  # compare() → words


def trend_sentence(label: str, history: Sequence, L: str) -> str | None:
    """What one history's AER did, its verb chosen by the figures (fell, rose, stayed), the last epoch's best head
    named, and the lowest when it came earlier and lower than the last; None when it recorded no AER."""
    trend = alignment_trend(history)
    if trend is None:
        return None
    said = t(
        TREND_KEYS[trend.change],
        L,
        label=t("train.aer_who", L, label=markdown(label)) if label else "",
        first=f"{trend.first_aer:.2f}",
        first_epoch=trend.first_epoch,
        last=f"{trend.last_aer:.2f}",
        last_epoch=trend.last_epoch,
        layer=trend.layer + 1,
        head=trend.head + 1,
    )
    if trend.lowest_epoch != trend.last_epoch and f"{trend.lowest_aer:.2f}" != f"{trend.last_aer:.2f}":
        said += " " + t("train.aer_lowest", L, lowest=f"{trend.lowest_aer:.2f}", epoch=trend.lowest_epoch)
    return said


def alignment_section(sides: Sequence[tuple[str, Sequence]], key: str, name: str, L: str, trained: bool) -> None:
    """The chart of every side's (label, history) best-head AER per epoch and a sentence per side; when no side
    recorded any, says why in one line: pairs without gold (a model trained here: trained) or a training that did
    not measure it (the bundled or an uploaded model)."""
    recorded = [(label, h) for label, h in sides if alignment_trend(h) is not None]
    if not recorded:
        text(t("train.aer_no_gold" if trained else "train.aer_not_recorded", L), "caption")
        return
    fig = alignment_figure(
        recorded,
        epoch_label=t("train.epoch", L),
        aer_label=t("train.aer_axis", L),
        head_text=t("train.aer_head", L),
    )
    chart(fig, key, file_name(name, "alignment-error-rate"), caption(t("train.aer_title", L)))
    trends = [trend_sentence(label if len(sides) > 1 else "", h, L) for label, h in recorded]
    text(sentences([t("train.aer_intro", L, n=ALIGN_PAIRS), *trends], L))
