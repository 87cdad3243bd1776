"""The positional-encoding and masks pages through AppTest, for models of every variant (short max_len, learned or
no positional encoding, a mask switched off), and the package helpers behind the similarity sentence."""

import json
import math

import numpy as np
import pytest
import torch

from tests.apptest_helpers import open_app, opened_page, texts
from transformer import Translator
from transformer.model import (
    pe_similarity_by_distance,
    positional_encoding,
    positional_encoding_table,
    rising_distances,
)
from ui.model_cache import CurrentModel
from viz.common import CELL_TEXT, NEG_INF, written

PE, MASKS = "pages/positional_encoding.py", "pages/masks.py"
PAIRS = [("我 喜 欢 你", "I love you ."), ("他 有 一 只 猫", "He has a cat .")]


def variant(**switches) -> CurrentModel:
    """A tiny untrained model of the two pairs, built with the given config switches."""
    translator = Translator.create(PAIRS, seed=0, d_model=16, n_heads=2, d_ff=32, n_layers=1, **switches)
    return CurrentModel(translator, "uploaded")


def chart(at, key: str) -> dict:
    """The plotly spec of the chart drawn with key=key."""
    (found,) = [el for el in at.get("plotly_chart") if el.proto.id.endswith(f"-{key}")]
    return json.loads(found.proto.spec)


def z(spec: dict, trace: int = 0) -> np.ndarray:
    return np.array(spec["data"][trace]["z"], dtype=float)


def dots(at) -> list[dict]:
    """The traces of the PE lines chart that mark the whole positions."""
    return [tr for tr in chart(at, "pe_lines")["data"] if "markers" in tr["mode"]]


# ---------------------------------------------------------------- the package helpers


def test_similarity_depends_only_on_the_distance_and_is_largest_at_zero():
    table = positional_encoding_table(60, 64)
    similarity = pe_similarity_by_distance(64, 30)
    for p in (0, 3, 17):
        for k in (0, 1, 5, 11, 29):
            assert float(table[p] @ table[p + k]) == pytest.approx(float(similarity[k]), abs=1e-3)
    assert float(similarity[0]) == pytest.approx(32.0) and int(similarity.argmax()) == 0
    rises = rising_distances(similarity)
    assert rises and all(similarity[k] > similarity[k - 1] for k in rises)
    assert all(similarity[k] <= similarity[k - 1] for k in range(1, 30) if k not in rises)


def test_rising_distances_and_real_positions():
    assert rising_distances([3.0, 2.0, 2.5, 1.0, 1.5, 1.5]) == [2, 4]
    assert rising_distances([2.0, 1.0, 0.0]) == []
    between = positional_encoding(torch.tensor([0.5, 2.25]), 4)
    assert between[:, 0].tolist() == pytest.approx([math.sin(0.5), math.sin(2.25)])
    assert between[:, 3].tolist() == pytest.approx([math.cos(0.5 / 100), math.cos(2.25 / 100)])
    assert torch.equal(positional_encoding(torch.arange(7), 6), positional_encoding_table(7, 6))


# ---------------------------------------------------------------- positional encoding


def test_dimensions_are_spread_again_whenever_d_model_changes():
    at = open_app(page=PE)
    at.select_slider(key="pe_d_model").set_value(4).run()
    assert at.multiselect(key="pe_dims").value == [0, 1, 2, 3]
    at.select_slider(key="pe_d_model").set_value(64).run()
    dims = at.multiselect(key="pe_dims").value
    assert min(dims) == 0 and max(dims) == 63 and any(24 <= d < 40 for d in dims)  # low, middle and high
    at.multiselect(key="pe_dims").set_value([5, 40]).run()
    at.slider(key="pe_positions").set_value(20).run()
    assert at.multiselect(key="pe_dims").value == [5, 40]  # the same d_model keeps the learner's choice


def test_curves_are_the_formula_between_the_whole_positions_the_model_uses():
    at = open_app(page=PE)
    at.multiselect(key="pe_dims").set_value([0, 5]).run()
    traces = chart(at, "pe_lines")["data"]
    lines = [tr for tr in traces if tr["mode"] == "lines"]
    assert [tr["name"] for tr in lines] == ["dim 0 (sin)", "dim 5 (cos)"]
    x = np.array(lines[0]["x"])
    assert len(x) > 5 * 50 and (x != np.round(x)).mean() > 0.8  # finely sampled between whole positions
    assert lines[0]["y"] == pytest.approx(np.sin(x).tolist(), abs=1e-5)
    assert lines[1]["y"] == pytest.approx(np.cos(x / 10000 ** (4 / 64)).tolist(), abs=1e-5)
    own = at.session_state.model.translator.model.encoder.pos_emb.table()
    (sin_dots, cos_dots) = dots(at)
    assert sin_dots["x"] == list(range(50)) and cos_dots["y"] == pytest.approx(own[:50, 5].tolist())


def test_a_short_max_len_is_said_and_the_charts_stop_there():
    # a d_model kept from the last model gives way to this model's own
    at = open_app(page=PE, model=variant(max_len=12), pairs=PAIRS, pe_d_model=64, pe_model=(-1, 64), pe_positions=50)
    assert not at.exception
    assert at.select_slider(key="pe_d_model").value == 16
    assert any("max_len = 12" in w and "instead of the 50 positions" in w for w in texts(at, "warning"))
    assert all(tr["x"] == list(range(12)) for tr in dots(at))
    assert z(chart(at, "pe_heatmap")).shape == (12, 16)
    at.slider(key="pe_positions").set_value(10).run()
    assert not any("max_len" in w for w in texts(at, "warning"))


def test_a_learned_table_is_shown_as_the_models_own_and_compared_with_the_formula():
    model = variant(pe="learned")
    at = open_app(page=PE, model=model, pairs=PAIRS, pe_positions=20, pe_dims=[0, 3], pe_dims_for=16)
    assert any('pe = "learned"' in i for i in texts(at, "info"))
    encoder, decoder = (getattr(model.translator.model, side).pos_emb.table() for side in ("encoder", "decoder"))
    assert np.allclose([tr["y"] for tr in dots(at)], encoder[:20, [0, 3]].T.numpy(), atol=1e-6)
    assert any("A learned table has" in m for m in texts(at, "markdown"))
    assert "pe_distance" not in json.dumps([el.proto.id for el in at.get("plotly_chart")])
    at.radio(key="pe_source").set_value("decoder").run()
    assert dots(at)[0]["y"] == pytest.approx(decoder[:20, 0].tolist())
    at.radio(key="pe_source").set_value("formula").run()
    assert dots(at)[0]["y"] == pytest.approx(positional_encoding_table(20, 16)[:, 0].tolist())
    assert chart(at, "pe_distance")


def test_a_model_without_positional_encoding_says_so_and_shows_the_formula():
    at = open_app(page=PE, model=variant(pe="none"), pairs=PAIRS, pe_dims=[1], pe_dims_for=16)
    assert any('pe = "none"' in w for w in texts(at, "warning"))
    assert "pe_source" not in [r.key for r in at.radio]
    assert dots(at)[0]["y"] == pytest.approx(positional_encoding_table(50, 16)[:, 1].tolist())


def test_the_similarity_sentence_names_where_the_dot_product_rises_again():
    at = open_app(page=PE)
    sentence = next(m for m in texts(at, "markdown") if "dot product" in m)
    rises = rising_distances(pe_similarity_by_distance(64, 50))
    assert ", ".join(map(str, rises[:10])) in sentence and "not fall steadily" in sentence
    assert "falls off with distance" not in sentence
    marked = chart(at, "pe_distance")["data"][1]
    assert marked["x"] == rises
    at.select_slider(key="pe_d_model").set_value(512).run()
    at.slider(key="pe_positions").set_value(30).run()
    assert any("Up to distance 29 it falls at every step." in m for m in texts(at, "markdown"))


def test_kept_values_out_of_range_are_made_valid():
    at = open_app(page=PE, pe_positions=1000, pe_d_model=3, pe_dims=[500], pe_dims_for=64)
    assert not at.exception
    assert at.slider(key="pe_positions").value == 128 and at.select_slider(key="pe_d_model").value == 64
    assert at.multiselect(key="pe_dims").value and max(at.multiselect(key="pe_dims").value) < 64
    at = open_app(page=MASKS, model=variant(), pairs=PAIRS, mask_layer=1, mask_head=3, mask_kind="?", mask_src_pad=9)
    assert not at.exception
    assert at.selectbox(key="mask_layer").value == 0 and at.selectbox(key="mask_head").value == 0
    assert at.radio(key="mask_kind").value == "dec_self" and at.slider(key="mask_src_pad").value == 4


# ---------------------------------------------------------------- masks


def test_the_three_effect_figures_share_one_layout_with_readable_numbers():
    at = opened_page("en", MASKS)
    specs = [chart(at, key) for key in ("mask_scores", "mask_masked", "mask_weights")]
    bars = [{k: v for k, v in s["data"][0]["colorbar"].items() if k != "title"} for s in specs]
    layouts = [(s["layout"]["height"], s["layout"]["margin"], bar) for s, bar in zip(specs, bars, strict=True)]
    assert layouts[0] == layouts[1] == layouts[2]  # the same grid, margins and colourbar place
    assert [s["layout"]["yaxis"]["ticktext"] for s in specs][1:] == [specs[0]["layout"]["yaxis"]["ticktext"]] * 2
    for spec in specs:
        assert "subtitle" not in spec["layout"].get("title", {})
        assert "size" not in spec["data"][0].get("textfont", {})  # as large as the cells allow (12 px or more at
        assert spec["data"][0]["text"]  # the values are written in the cells          1400 px, test_e2e_pages)
    # one decimal for the scores, two for the weights: the numbers a narrow cell can hold at a readable size
    assert max(len(v) for row in written(specs[0]) for v in row) <= len("-0.0")
    assert max(len(v) for row in written(specs[2]) for v in row) == len("0.00")


def test_a_model_without_the_padding_mask_shows_that_nothing_is_blocked_for_padding():
    at = open_app(page=MASKS, model=variant(pad_mask=False), pairs=PAIRS)
    assert not at.exception
    assert any("pad_mask = False" in w for w in texts(at, "warning"))
    for name in ("enc_pad", "dec_pad", "dec_enc"):
        assert (z(chart(at, f"mask_fig_{name}")) == 0).all(), name
    look_ahead = z(chart(at, "mask_fig_dec_self"))
    assert (look_ahead == np.triu(np.ones(look_ahead.shape), k=1)).all()  # the look-ahead mask alone
    assert sum("Switched off in this model (`pad_mask = False`)" in c for c in texts(at, "caption")) == 4
    at.radio(key="mask_kind").set_value("enc_self").run()
    assert any("applies no mask in this attention" in i for i in texts(at, "info"))
    masked = chart(at, "mask_masked")
    assert [d.get("meta") for d in masked["data"]] in ([None], [None, CELL_TEXT]) and NEG_INF not in json.dumps(masked)
    weights = z(chart(at, "mask_weights"))
    assert (weights[:, -1] > 0).all()  # every query gives the padding P some weight


def test_a_model_without_the_look_ahead_mask_lets_the_decoder_see_ahead():
    at = open_app(page=MASKS, model=variant(look_ahead_mask=False), pairs=PAIRS)
    assert any("look_ahead_mask = False" in w for w in texts(at, "warning"))
    assert (z(chart(at, "mask_fig_subsequent")) == 0).all()
    dec_self = z(chart(at, "mask_fig_dec_self"))
    assert (dec_self[:, -1] == 1).all() and (dec_self[:, :-1] == 0).all()  # the target padding alone
    weights = z(chart(at, "mask_weights"))  # decoder self-attention by default
    assert (np.triu(weights[:, :-1], k=1)[np.triu_indices(weights.shape[0] - 1, k=1)] > 0).all()


def test_the_masks_charts_are_built_once_per_model_and_view_not_on_every_rerun(monkeypatch):
    import viz.masks

    built = []
    for name in ("mask_figure", "mask_effect_figures"):
        real = getattr(viz.masks, name)
        monkeypatch.setattr(viz.masks, name, lambda *a, real=real, name=name, **k: built.append(name) or real(*a, **k))
    at = open_app(page=MASKS, model=variant(), pairs=PAIRS, mask_kind="dec_self")
    assert built.count("mask_figure") == 5 and built.count("mask_effect_figures") == 1
    first = chart(at, "mask_masked")
    built.clear()
    at.switch_page(PE).run()
    at.switch_page(MASKS).run()  # back on the page: the same charts, none built again
    assert built == [] and chart(at, "mask_masked") == first
    at.radio(key="mask_kind").set_value("dec_enc").run()  # another attention kind: only its three steps are new
    assert built == ["mask_effect_figures"] and chart(at, "mask_masked") != first
    at.slider(key="mask_src_pad").set_value(2).run()  # padding changes every mask
    assert built.count("mask_figure") == 5
    assert len(chart(at, "mask_fig_enc_pad")["layout"]["xaxis"]["tickvals"]) == len(PAIRS[0][0].split()) + 2


def test_the_positional_encoding_charts_are_built_once_per_model_and_view_not_on_every_rerun(monkeypatch):
    import viz.positional

    built = []
    names = ("pe_lines_figure", "pe_heatmap_figure", "pe_similarity_figure", "pe_distance_figure")
    for name in names:
        real = getattr(viz.positional, name)
        monkeypatch.setattr(
            viz.positional, name, lambda *a, real=real, name=name, **k: built.append(name) or real(*a, **k)
        )
    at = open_app(page=PE, model=variant(), pairs=PAIRS)
    assert sorted(built) == sorted(names)
    lines = chart(at, "pe_lines")
    built.clear()
    at.switch_page(MASKS).run()
    at.switch_page(PE).run()  # back on the page: the same charts, none built again
    assert built == [] and chart(at, "pe_lines") == lines
    at.multiselect(key="pe_dims").set_value([0, 1]).run()  # other dimensions: only the curves are new
    assert built == ["pe_lines_figure"] and len(chart(at, "pe_lines")["data"]) < len(lines["data"])
    at.slider(key="pe_positions").set_value(20).run()  # fewer positions: every chart is new
    assert len(built) == 1 + len(names) and len(z(chart(at, "pe_heatmap"))) == 20
