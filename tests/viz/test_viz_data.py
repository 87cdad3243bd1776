"""viz.data: the length histogram and the most frequent tokens of a dataset."""

import json

from viz.data import length_histogram_figure, length_histogram_spec, top_tokens_figure, top_tokens_spec


def test_the_length_histogram_counts_sentences_of_each_length_per_side():
    fig = length_histogram_figure(
        length_histogram_spec([1, 3, 3, 3], [2, 2, 5], source_label="源句", target_label="目标句")
    )
    source, target = fig.data
    assert (source.name, target.name) == ("源句", "目标句")
    assert list(source.x) == list(target.x) == [1, 2, 3, 4, 5]  # every length up to the longest, gaps as 0
    assert list(source.y) == [1, 0, 3, 0, 0] and list(target.y) == [0, 2, 0, 0, 1]
    assert sum(source.y) == 4 and sum(target.y) == 3  # every sentence counted once
    json.loads(fig.to_json())


def test_the_length_histogram_of_no_sentences_is_empty_not_an_error():
    fig = length_histogram_figure(length_histogram_spec([], []))
    assert [sum(trace.y) for trace in fig.data] == [0, 0]


def test_top_tokens_are_labels_shown_literally_most_frequent_on_top():
    counts = [(".", 40), ("1", 12), ("<b>x</b>", 3)]
    fig = top_tokens_figure(counts, count_label="times")
    (bars,) = fig.data
    assert list(bars.x) == [40, 12, 3] and list(bars.y) == [0, 1, 2]  # positions, so "1" is no number on the axis
    assert list(fig.layout.yaxis.ticktext) == [".", "1", "&lt;b&gt;x&lt;/b&gt;"]  # HTML is text, not markup
    assert fig.layout.yaxis.autorange == "reversed"
    assert "times" in bars.hovertemplate


def test_the_length_histogram_spec_has_the_figures_counts_sources_beside_targets():
    kwargs = dict(source_label="源句", target_label="目标句", title="句子长度")
    spec = length_histogram_spec([1, 3, 3, 3], [2, 2, 5], **kwargs)
    figure = length_histogram_figure(spec)
    bars = {(v["side"], v["length"]): v["sentences"] for v in spec["data"]["values"]}
    for trace in figure.data:  # the page's chart and the sheet's say the same
        assert [bars[trace.name, x] for x in trace.x] == list(trace.y)
    assert len(bars) == 10  # every length up to the longest, per side, gaps as 0
    assert spec["encoding"]["xOffset"]["field"] == spec["encoding"]["color"]["field"] == "side"  # beside, not stacked
    assert spec["encoding"]["color"]["scale"]["domain"] == ["源句", "目标句"]
    assert spec["title"]["text"] == "句子长度"
    json.dumps(spec)


def test_the_length_histogram_spec_ticks_every_fifth_length_of_long_sentences():
    spec = length_histogram_spec([40], [1])
    assert spec["encoding"]["x"]["axis"]["values"] == [1, 5, 10, 15, 20, 25, 30, 35, 40]
    assert length_histogram_spec([3], [4])["encoding"]["x"]["axis"]["values"] == [1, 2, 3, 4]


def test_top_tokens_spec_keeps_the_order_and_shows_tokens_as_text():
    counts = [(".", 40), ("1", 12), ("<b>x</b>", 3), ("a\x1bb", 2)]
    spec = top_tokens_spec(counts, count_label="times", token_label="token", title="top")
    values = spec["data"]["values"]
    assert [v["token"] for v in values] == [".", "1", "<b>x</b>", "a\\x1bb"]  # Vega draws text; escapes made visible
    assert [v["count"] for v in values] == [40, 12, 3, 2]
    y = spec["encoding"]["y"]
    assert y["type"] == "nominal" and y["sort"] is None  # labels in the order given, most frequent on top
    assert [t["title"] for t in spec["encoding"]["tooltip"]] == ["token", "times"]
    json.dumps(spec)
