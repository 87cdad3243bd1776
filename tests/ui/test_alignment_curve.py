"""The sentence under the best head's AER per epoch: its verb chosen by the figures, in English and Chinese."""

import pytest

from transformer.summary import EpochRecord
from ui.alignment_curve import trend_sentence


def _history(*aers):
    return [EpochRecord(e, 1.0, 0.5, None, aer=a, aer_layer=1, aer_head=2) for e, a in enumerate(aers, 1)]


@pytest.mark.parametrize(
    "aers, en, zh",
    [
        (
            (0.81, 0.5, 0.3),
            "fell from 0.81 after epoch 1 to 0.30 after epoch 3 (then layer 2 head 3).",
            "降到第 3 轮后的 0.30",
        ),
        ((0.3, 0.2, 0.6), "rose from 0.30 after epoch 1 to 0.60 after epoch 3", "升到第 3 轮后的 0.60"),
        ((0.5, 0.502, 0.498), "stayed at about 0.50 from epoch 1 to epoch 3", "一直在 0.50 左右"),
    ],
)
def test_the_sentence_says_what_the_figures_did(aers, en, zh):
    english, chinese = trend_sentence("", _history(*aers), "en"), trend_sentence("", _history(*aers), "zh")
    assert en in english and zh in chinese
    lowest_earlier = min(aers) < aers[-1] - 0.005
    assert ("Its lowest was 0.20, after epoch 2." in english) is lowest_earlier
    assert ("最低是第 2 轮后的 0.20。" in chinese) is lowest_earlier


def test_a_label_names_the_model_and_no_recorded_aer_gives_no_sentence():
    assert trend_sentence("Variant", _history(0.9, 0.4), "en").startswith("Variant: the best head's AER fell")
    assert trend_sentence("变体", _history(0.9, 0.4), "zh").startswith("变体：最佳头的 AER 从第 1 轮后的 0.90 降到")
    assert trend_sentence("", [EpochRecord(1, 1.0, 0.5, None)], "en") is None
