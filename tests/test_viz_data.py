"""viz.data: the length histogram and the most frequent tokens of a dataset."""

import json

from viz.data import length_histogram_figure, top_tokens_figure


def test_the_length_histogram_counts_sentences_of_each_length_per_side():
    fig = length_histogram_figure([1, 3, 3, 3], [2, 2, 5], source_label="源句", target_label="目标句")
    source, target = fig.data
    assert (source.name, target.name) == ("源句", "目标句")
    assert list(source.x) == list(target.x) == [1, 2, 3, 4, 5]  # every length up to the longest, gaps as 0
    assert list(source.y) == [1, 0, 3, 0, 0] and list(target.y) == [0, 2, 0, 0, 1]
    assert sum(source.y) == 4 and sum(target.y) == 3  # every sentence counted once
    json.loads(fig.to_json())


def test_the_length_histogram_of_no_sentences_is_empty_not_an_error():
    fig = length_histogram_figure([], [])
    assert [sum(trace.y) for trace in fig.data] == [0, 0]


def test_top_tokens_are_labels_shown_literally_most_frequent_on_top():
    counts = [(".", 40), ("1", 12), ("<b>x</b>", 3)]
    fig = top_tokens_figure(counts, count_label="times")
    (bars,) = fig.data
    assert list(bars.x) == [40, 12, 3] and list(bars.y) == [0, 1, 2]  # positions, so "1" is no number on the axis
    assert list(fig.layout.yaxis.ticktext) == [".", "1", "&lt;b&gt;x&lt;/b&gt;"]  # HTML is text, not markup
    assert fig.layout.yaxis.autorange == "reversed"
    assert "times" in bars.hovertemplate
