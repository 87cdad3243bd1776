"""The Train page's learning-rate chart: the rate of every step from the schedule, a marker at each epoch's end."""

import pytest

from transformer import TrainConfig
from transformer.summary import EpochRecord
from viz.training import learning_rate_figure


def test_the_chart_draws_the_schedule_of_every_step_and_the_recorded_epochs():
    cfg = TrainConfig(warmup=10)
    history = [EpochRecord(e, 1.0, 0.5, None, step=5 * e, lr=cfg.learning_rate(64, 5 * e)) for e in range(1, 7)]
    fig = learning_rate_figure(history, lambda step: cfg.learning_rate(64, step))
    line, markers = fig.data
    assert list(line.x) == list(range(1, 31))  # every step up to the last one recorded
    assert max(line.y) == pytest.approx(64**-0.5 * 10**-0.5) and line.y[9] == max(line.y)  # the peak at the warmup
    assert list(markers.x) == [5, 10, 15, 20, 25, 30] and markers.y[1] == pytest.approx(line.y[9])


def test_a_long_training_is_drawn_at_most_2000_points_and_its_last_step():
    history = [EpochRecord(1, 1.0, 0.5, None, step=100_001, lr=1e-3)]
    line = learning_rate_figure(history, lambda step: 1e-3).data[0]
    assert len(line.x) <= 2002 and line.x[-1] == 100_001


def test_a_history_without_steps_draws_an_empty_chart():
    assert learning_rate_figure([EpochRecord(1, 1.0, 0.5, None)], lambda step: 1e-3).data == ()
