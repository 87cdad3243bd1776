"""The best head's AER per epoch: one line per model, the epochs that recorded none left out, the head named from 1."""

from transformer.summary import EpochRecord
from viz.training import alignment_figure


def test_each_model_is_one_line_of_its_recorded_epochs_with_the_best_head_named_from_one():
    history = [
        EpochRecord(1, 3.0, 0.5, None),  # recorded before alignment was measured: left out
        EpochRecord(2, 2.0, 0.5, None, aer=0.8, aer_layer=0, aer_head=3),
        EpochRecord(3, 1.0, 0.5, None, aer=0.4, aer_layer=1, aer_head=0),
    ]
    fig = alignment_figure([("base <b>", history), ("variant", history[1:2])], head_text="L{layer} H{head}")
    base, variant = fig.data
    assert list(base.x) == [2, 3] and list(base.y) == [0.8, 0.4] and list(base.customdata) == ["L1 H4", "L2 H1"]
    assert list(variant.x) == [2] and base.line.color != variant.line.color
    assert "<b>" not in base.name  # a label is shown as text
    assert fig.layout.showlegend and tuple(fig.layout.yaxis.range) == (0, 1.02)
    assert not alignment_figure([("", history)]).layout.showlegend  # one model: no legend to read
