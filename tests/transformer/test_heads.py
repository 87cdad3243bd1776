"""Head statistics against hand-computed values on small fixed attention tensors, the dataset convenience on a
trained model, and the structure of the head figures (titles, clickable (layer, head), escaping)."""

from __future__ import annotations

import json
import math

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from transformer.errors import DataError
from transformer.heads import (
    SHARES,
    HeadStats,
    head_stats,
    mean_patterns,
    study_heads,
    study_maps,
    with_alignment,
)
from transformer.model import ATTENTION_KINDS
from viz.common import CELL_TEXT, written
from viz.heads import MAX_HOVER_CELLS, clicked_head, head_patterns_figure, head_stat_figure

S, E = 1, 2  # the ids of S and E in every vocabulary built here; 0 is P

# one layer, two heads, 3 × 3; position 2 is padding on both sides (query row 2 must be left out)
DEC_IDS = torch.tensor([[S, 7, 0]])  # S, a word, P
SELF_ATTN = torch.tensor(
    [
        [
            [[0.5, 0.25, 0.25], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]],  # head 1
            [[1.0, 0.0, 0.0], [0.2, 0.6, 0.2], [0.0, 1.0, 0.0]],  # head 2
        ]
    ]
)  # (B=1, H=2, Lq=3, Lk=3)


def by_head(stats: list[HeadStats]) -> dict[tuple[int, int], HeadStats]:
    return {(s.layer, s.head): s for s in stats}


def test_self_attention_statistics_by_hand():
    one, two = head_stats([SELF_ATTN], "dec_self", DEC_IDS, DEC_IDS, S_id=S, E_id=E)
    # head 1, real rows 0 and 1: [.5 .25 .25] and [.5 .5 0]; key 2 is padding
    assert (one.layer, one.head, one.kind, one.queries) == (0, 0, "dec_self", 2)
    ln2 = math.log(2)
    assert one.entropy == pytest.approx((1.5 * ln2 + ln2) / 2)  # row 0: ½ln2 + 2·¼ln4; row 1: ln 2
    assert one.entropy_bits == pytest.approx(1.25)
    assert one.same == pytest.approx((0.5 + 0.5) / 2)
    assert one.previous == pytest.approx((0.0 + 0.5) / 2)  # row 0 has no previous key
    assert one.previous_perfect == two.previous_perfect == pytest.approx(1 / 2)  # (L − 1)/L with L = 2 real rows
    assert one.next == pytest.approx((0.25 + 0.0) / 2)  # row 1's next key is padding: not a "next" word
    assert one.padding == pytest.approx((0.25 + 0.0) / 2)
    assert one.on_S == pytest.approx((0.5 + 0.5) / 2)  # key 0 holds S
    assert one.on_E is None and one.diagonal is None and one.alignment is None  # no key is E; not cross-attention
    # head 2, real rows [1 0 0] and [.2 .6 .2]
    assert two.entropy == pytest.approx((0.0 - 2 * 0.2 * math.log(0.2) - 0.6 * math.log(0.6)) / 2)
    assert two.same == pytest.approx((1.0 + 0.6) / 2)
    assert two.previous == pytest.approx((0.0 + 0.2) / 2)
    assert two.next == pytest.approx(0.0)
    assert two.padding == pytest.approx((0.0 + 0.2) / 2)
    assert two.on_S == pytest.approx((1.0 + 0.2) / 2)


def test_padding_queries_are_left_out():
    changed = SELF_ATTN.clone()
    changed[0, :, 2] = torch.tensor([0.0, 0.0, 1.0])  # whatever the padding row holds
    changed[0, 1, 2] = torch.tensor([1 / 3, 1 / 3, 1 / 3])
    assert head_stats([changed], "dec_self", DEC_IDS, DEC_IDS, S, E) == head_stats(
        [SELF_ATTN], "dec_self", DEC_IDS, DEC_IDS, S, E
    )
    real = torch.tensor([[S, 7, 8]])  # the same tensor with a real third word averages three rows
    assert head_stats([SELF_ATTN], "dec_self", real, real, S, E)[0].queries == 3


def test_source_keys_have_no_S_and_no_E():
    src = torch.tensor([[5, 6, 0]])
    for stats in head_stats([SELF_ATTN], "enc_self", src, src), head_stats([SELF_ATTN], "enc_self", src, src, S, E):
        assert all(s.on_S is None and s.on_E is None for s in stats)  # S and E never occur among the source ids
    assert head_stats([SELF_ATTN], "dec_self", DEC_IDS, DEC_IDS, S, 7)[0].on_E == pytest.approx((0.25 + 0.5) / 2)


# cross-attention: 2 real decoder rows (+1 padding row) over 3 real source words (+1 padding key)
CROSS_Q = torch.tensor([[S, 7, 0]])
CROSS_K = torch.tensor([[5, 6, 8, 0]])
CROSS_ATTN = torch.tensor(
    [
        [
            [[0.7, 0.2, 0.1, 0.0], [0.1, 0.3, 0.5, 0.1], [0.25, 0.25, 0.25, 0.25]],  # head 1
            [[1 / 3, 1 / 3, 1 / 3, 0.0], [1 / 3, 1 / 3, 1 / 3, 0.0], [1.0, 0.0, 0.0, 0.0]],  # head 2
        ]
    ]
)  # (1, 2, 3, 4)


def test_cross_attention_diagonal_by_hand():
    one, two = head_stats([CROSS_ATTN], "dec_enc", CROSS_Q, CROSS_K)
    # Lt = 2, Ls = 3: the diagonal runs through c_0 = ½·3/2 − ½ = 0.25 and c_1 = 1.5·3/2 − ½ = 1.75,
    # so the keys within ±1 are {0, 1} for row 0 and {1, 2} for row 1
    assert one.diagonal == pytest.approx(((0.7 + 0.2) + (0.3 + 0.5)) / 2)
    assert two.diagonal == pytest.approx(2 / 3)
    # same / previous / next compare decoder position i with source position i
    assert one.same == pytest.approx((0.7 + 0.3) / 2)
    assert one.previous == pytest.approx((0.0 + 0.1) / 2)
    assert one.next == pytest.approx((0.2 + 0.5) / 2)
    assert one.padding == pytest.approx((0.0 + 0.1) / 2)
    assert two.entropy == pytest.approx(math.log(3))
    assert one.on_S is None and one.on_E is None and one.alignment is None


def test_diagonal_of_a_square_map_is_same_previous_next():
    torch.manual_seed(0)
    attn = torch.softmax(torch.randn(2, 3, 5, 5), dim=-1)  # (B, H, L, L)
    ids = torch.tensor([[S, 4, 5, 6, 7], [S, 4, 5, 6, 7]])
    for s in head_stats([attn], "dec_enc", ids, ids):
        assert s.diagonal == pytest.approx(s.same + s.previous + s.next)


def test_alignment_with_marks_by_hand():
    marks = [(0, 0), (1, 2), (1, 1)]  # row 0 ↔ source 0; row 1 ↔ sources 1 and 2
    one, two = head_stats([CROSS_ATTN], "dec_enc", CROSS_Q, CROSS_K, marks=marks)
    assert one.alignment == pytest.approx((0.7 + (0.5 + 0.3)) / 2)
    assert two.alignment == pytest.approx((1 / 3 + 2 / 3) / 2)
    assert head_stats([CROSS_ATTN], "dec_enc", CROSS_Q, CROSS_K, marks=[(1, 2)])[0].alignment == pytest.approx(0.5)
    assert head_stats([CROSS_ATTN], "dec_enc", CROSS_Q, CROSS_K, marks=[])[0].alignment is None


@pytest.mark.parametrize("mark", [(2, 0), (0, 3), (-1, 0), (0, 9)])
def test_marks_off_the_words_are_refused(mark):
    with pytest.raises(DataError, match="not a pair of words") as info:
        head_stats([CROSS_ATTN], "dec_enc", CROSS_Q, CROSS_K, marks=[mark])
    assert info.value.code == "mark_outside"


def test_marks_need_one_sentence_of_cross_attention():
    with pytest.raises(ValueError, match="one sentence"):
        head_stats([CROSS_ATTN.repeat(2, 1, 1, 1)], "dec_enc", CROSS_Q.repeat(2, 1), CROSS_K.repeat(2, 1), marks=[])
    with pytest.raises(ValueError, match="dec_enc"):
        head_stats([SELF_ATTN], "dec_self", DEC_IDS, DEC_IDS, marks=[(0, 0)])


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="kind"):
        head_stats([SELF_ATTN], "cross", DEC_IDS, DEC_IDS)
    with pytest.raises(ValueError, match="key_ids"):
        head_stats([SELF_ATTN], "dec_self", DEC_IDS, CROSS_K)
    with pytest.raises(ValueError, match="padding"):
        head_stats([SELF_ATTN], "dec_self", torch.zeros(1, 3, dtype=torch.long), DEC_IDS)


def test_two_layers_come_layer_major_and_sentences_pool_by_position():
    ids = torch.tensor([[S, 7, 0], [S, 7, 8]])  # the second sentence has three real rows
    attn = torch.cat([SELF_ATTN, SELF_ATTN])  # (2, 2, 3, 3)
    stats = head_stats([attn, attn.flip(1)], "dec_self", ids, ids, S, E)
    assert [(s.layer, s.head) for s in stats] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert stats[2].same == stats[1].same  # layer 2 is layer 1 with the heads swapped
    # head 1, five real rows: [.5 .25 .25], [.5 .5 0] twice, and [0 0 1] (key 2 is a word in sentence 2)
    assert stats[0].queries == 5
    assert stats[0].same == pytest.approx((0.5 + 0.5 + 0.5 + 0.5 + 1.0) / 5)
    assert stats[0].padding == pytest.approx((0.25 + 0.0) / 5)


def test_mean_patterns_average_over_sentences_that_reach_a_row():
    attn = torch.tensor([[[[0.5, 0.5], [1.0, 0.0]]], [[[0.0, 1.0], [0.2, 0.8]]]])  # (B=2, H=1, 2, 2)
    ids = torch.tensor([[S, 7], [S, 0]])  # row 1 of sentence 2 is padding
    (pattern,) = mean_patterns([attn], ids)  # (H, Lq, Lk)
    assert pattern[0].tolist() == [[0.25, 0.75], [1.0, 0.0]]
    assert mean_patterns([attn[1:]], ids[1:])[0, 0, 1].isnan().all()  # no sentence reaches row 1


def test_study_heads_on_a_trained_model(trained20, pairs20):
    translator, _ = trained20
    cfg = translator.config
    study = study_heads(translator, pairs20)
    batch = translator.make_batch(pairs20)
    real_src, real_dec = int(batch.enc_inputs.ne(0).sum()), int(batch.dec_inputs.ne(0).sum())
    assert study.sentences == 20 and set(study.stats) == set(ATTENTION_KINDS)
    for kind, stats in study.stats.items():
        assert [(s.layer, s.head) for s in stats] == [(l, h) for l in range(cfg.n_layers) for h in range(cfg.n_heads)]
        assert all(s.kind == kind and s.queries == (real_src if kind == "enc_self" else real_dec) for s in stats)
        for s in stats:
            shares = [getattr(s, name) for name in SHARES if getattr(s, name) is not None]
            assert all(0.0 <= v <= 1.0 + 1e-6 for v in shares)
            assert s.same + s.previous + s.next <= 1.0 + 1e-6
            assert s.padding < 1e-6  # the padding mask keeps every head off P
            assert 0.0 <= s.entropy <= math.log(study.patterns[kind].size(-1))  # at most ln(number of keys)
            assert s.on_E is None and s.alignment is None
            assert (s.on_S is not None) == (kind == "dec_self") and (s.diagonal is not None) == (kind == "dec_enc")
            if kind == "dec_self":
                assert s.next < 1e-6  # the look-ahead mask
    lengths = {"enc_self": (batch.enc_inputs, batch.enc_inputs), "dec_self": (batch.dec_inputs, batch.dec_inputs)}
    lengths["dec_enc"] = (batch.dec_inputs, batch.enc_inputs)
    for kind, (q, k) in lengths.items():
        pattern = study.patterns[kind]
        assert pattern.shape == (cfg.n_layers, cfg.n_heads, q.size(1), k.size(1))
        assert torch.allclose(pattern.sum(-1), torch.ones(pattern.shape[:-1]), atol=1e-5)  # mean rows sum to 1


def test_dataset_statistics_are_the_sentences_weighted_by_length(trained20, pairs20):
    translator, _ = trained20
    pairs = pairs20[:5]
    together = study_heads(translator, pairs).stats
    alone = [study_heads(translator, [pair]).stats for pair in pairs]  # no padding at all
    for kind in ATTENTION_KINDS:
        for i, s in enumerate(together[kind]):
            weights = [one[kind][i].queries for one in alone]
            for name in ("entropy", "same", "previous", "on_S", "diagonal"):
                if getattr(s, name) is None:
                    continue
                expected = sum(w * getattr(one[kind][i], name) for w, one in zip(weights, alone)) / sum(weights)
                assert getattr(s, name) == pytest.approx(expected, abs=1e-5)


def test_study_maps_of_one_inspected_sentence_with_marks(trained20, pairs20):
    translator, _ = trained20
    source, target = pairs20[0]
    view = translator.inspect(source, target, src_pad=2, tgt_pad=1)
    marks = [(1, 0), (2, 1)]  # "I" ↔ 我, "eat" ↔ 吃 (rows are S I eat rice . P)
    study = study_maps(view.maps, view.enc_inputs, view.dec_inputs, translator.tgt_vocab, marks=marks)
    unpadded = study_heads(translator, [(source, target)]).stats
    for kind in ATTENTION_KINDS:
        for s, u in zip(study.stats[kind], unpadded[kind]):
            assert s.same == pytest.approx(u.same, abs=1e-5) and s.entropy == pytest.approx(u.entropy, abs=1e-5)
    cross = view.maps.dec_enc_attns
    for s in study.stats["dec_enc"]:
        a = cross[s.layer][0, s.head]  # (Lt, Ls)
        assert s.alignment == pytest.approx(float(a[1, 0] + a[2, 1]) / 2, abs=1e-6)
    assert study.patterns["dec_enc"][:, :, -1].isnan().all()  # the padding row of one sentence has no mean


def test_a_dataset_study_gets_the_alignment_of_the_marks_on_one_sentence(trained20, pairs20):
    """The Attention page's table over the dataset, with the share of each head on the words marked on the sentence
    shown: every other statistic stays the dataset's."""
    translator, _ = trained20
    source, target = pairs20[0]
    view = translator.inspect(source, target)
    marks = [(1, 0), (2, 1)]
    dataset = study_heads(translator, pairs20[:5]).stats["dec_enc"]
    aligned = with_alignment(dataset, view.maps, view.enc_inputs, view.dec_inputs, translator.tgt_vocab, marks)
    one = study_maps(view.maps, view.enc_inputs, view.dec_inputs, translator.tgt_vocab, marks=marks).stats["dec_enc"]
    for before, after, sentence in zip(dataset, aligned, one, strict=True):
        assert before.alignment is None and after.alignment == pytest.approx(sentence.alignment)
        assert (after.entropy, after.diagonal, after.queries) == (before.entropy, before.diagonal, before.queries)


def test_study_heads_refuses_unusable_pairs(trained20):
    translator, _ = trained20
    with pytest.raises(DataError, match="no sentence pairs"):
        study_heads(translator, [])
    with pytest.raises(DataError, match="row 2: the source sentence is empty") as info:
        study_heads(translator, [("我吃饭", "I eat rice ."), ("  ", "I .")])
    assert info.value.code == "empty_source"


# figures


def assert_serialises(fig):
    json.loads(fig.to_json())


def clickable(fig) -> list:
    return [t for t in fig.data if isinstance(t, go.Scatter)]


def test_head_patterns_figure():
    torch.manual_seed(3)
    patterns = torch.softmax(torch.randn(2, 3, 4, 3), dim=-1)  # (layers, heads, Lq, Lk)
    rows, cols = ["S", "<b>", "a", "a"], ["x", "$y$", "x"]
    fig = head_patterns_figure(patterns, rows, cols, layer_label="层", head_label="头", chosen=(1, 2))
    heat = [t for t in fig.data if isinstance(t, go.Heatmap) and t.meta != CELL_TEXT]
    assert len(heat) == 6 and sum(bool(t.showscale) for t in heat) == 1
    titles = [a.text for a in fig.layout.annotations]
    assert titles == [f"层 {l} · 头 {h}" for l in (1, 2) for h in (1, 2, 3)]
    for n, trace in enumerate(heat):
        l, h = divmod(n, 3)
        assert (trace.zmin, trace.zmax) == (0, 1) and list(trace.meta) == [l, h]
        np.testing.assert_allclose(np.array(trace.z, dtype=float), patterns[l, h].numpy(), atol=1e-4)
        yaxis = fig.layout["yaxis" + trace.yaxis[1:]]
        xaxis = fig.layout["xaxis" + trace.xaxis[1:]]
        assert list(yaxis.ticktext) == ["S", "&lt;b&gt;", "a", "a"] and list(yaxis.range) == [3.5, -0.5]
        assert list(xaxis.ticktext) == ["x", "&#36;y&#36;", "x"] and list(xaxis.tickvals) == [0, 1, 2]
    for n, trace in enumerate(clickable(fig)):
        l, h = divmod(n, 3)
        custom = np.array(trace.customdata, dtype=object)  # (cells, 5): layer, head, row, column, weight
        assert len(custom) == 12 and {(int(a), int(b)) for a, b in custom[:, :2]} == {(l, h)}
        assert "&lt;b&gt; (#1)" in set(custom[:, 2]) and trace.marker.opacity == 0
        assert trace.xaxis == heat[n].xaxis and trace.yaxis == heat[n].yaxis
        point = {"curve_number": 2 * n + 1, "customdata": list(custom[5])}
        assert clicked_head({"points": [point], "point_indices": [5], "box": [], "lasso": []}) == (l, h)
    (frame,) = fig.layout.shapes
    assert frame.xref == heat[5].xaxis + " domain"  # layer 2, head 3
    assert fig.layout.hoverdistance == -1
    assert_serialises(fig)


def test_head_patterns_figure_at_six_layers_and_sixteen_heads():
    patterns = torch.full((6, 16, 5, 5), 0.2)
    fig = head_patterns_figure(patterns)
    assert fig.layout.annotations[-1].text == "layer 6<br>head 16"  # two lines over narrow subplots
    axes = [fig.layout[name] for name in fig.layout if name.startswith(("xaxis", "yaxis"))]
    assert len(axes) == 2 * 96 and not any(axis.showticklabels for axis in axes)
    domains = sorted(tuple(fig.layout[name].domain) for name in fig.layout if name.startswith("xaxis"))
    assert all(a[1] < b[0] for a, b in zip(domains, domains[1:]) if a != b)  # columns do not overlap
    assert 300 < fig.layout.height < 1200
    assert_serialises(fig)
    big = torch.rand(6, 16, 21, 21)
    assert MAX_HOVER_CELLS < 6 * 16 * 21 * 21
    markers = clickable(head_patterns_figure(big))
    assert len(markers) == 96 and all(len(t.x) == 1 for t in markers)  # one marker per head
    assert [list(t.customdata[0]) for t in markers[:2]] == [[0, 0], [0, 1]]


@pytest.mark.parametrize("n_heads", [1, 4, 8, 16, 32])  # the Train page offers 1 to 16
def test_head_patterns_figure_fits_any_number_of_heads(n_heads):
    """With 8 or 32 heads the last column's right edge summed to 1.0000000000000002 and plotly refused the figure:
    the Attention page of a model trained with 8 heads stopped with an error."""
    fig = head_patterns_figure(torch.full((2, n_heads, 3, 3), 1 / 3))
    domains = [fig.layout[name].domain for name in fig.layout if name.startswith("xaxis")]
    assert len(domains) == 2 * n_heads and max(d[1] for d in domains) == pytest.approx(1.0)


def test_head_patterns_figure_positions_and_nan_rows():
    patterns = torch.full((1, 2, 3, 2), 0.5)
    patterns[:, :, 2] = math.nan  # a row no sentence reaches
    fig = head_patterns_figure(patterns)
    assert list(fig.layout.yaxis.ticktext) == ["0", "1", "2"]
    assert all(len(t.x) == 4 for t in clickable(fig))  # no marker on the empty row
    assert_serialises(fig)
    with pytest.raises(ValueError, match="token"):
        head_patterns_figure(patterns, row_tokens=["S", "a"])
    with pytest.raises(ValueError, match="dimension"):
        head_patterns_figure(torch.zeros(2, 3, 3))


def test_head_stat_figure():
    one, two = head_stats([CROSS_ATTN], "dec_enc", CROSS_Q, CROSS_K)
    fig = head_stat_figure([one, two], "diagonal", layer_label="层", head_label="头", chosen=(0, 1))
    heat, clicks = [t for t in fig.data if t.meta != CELL_TEXT]  # the white numbers' copy aside
    np.testing.assert_allclose(heat.z, [[one.diagonal, two.diagonal]])
    assert (heat.zmin, heat.zmax) == (0, 1) and written(fig, 0) == [["0.85", "0.67"]]
    assert list(fig.layout.xaxis.ticktext) == ["1", "2"] and fig.layout.yaxis.title.text == "层"
    assert [tuple(c[:2]) for c in clicks.customdata] == [(0, 0), (0, 1)]
    assert clicks.customdata[1][3] == "层 1 · 头 2"
    assert clicked_head({"points": [{"customdata": list(clicks.customdata[1])}]}) == (0, 1)
    assert len(fig.layout.shapes) == 1
    assert_serialises(fig)
    entropy = head_stat_figure([one, two], "entropy")
    assert entropy.data[0].zmax == pytest.approx(max(one.entropy, two.entropy))
    blank = head_stat_figure([one, two], "on_S")  # no S among source keys
    assert [list(row) for row in blank.data[0].z] == [[None, None]] and blank.data[1].customdata[0][2] == "–"
    assert_serialises(blank)
    with pytest.raises(ValueError, match="statistic"):
        head_stat_figure([one], "loudness")


def test_clicked_head_without_a_click():
    assert clicked_head(None) is None
    assert clicked_head({"points": [], "point_indices": [], "box": [], "lasso": []}) is None
