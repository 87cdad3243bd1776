"""The "Inside the model" page through AppTest: the walk through the pass, the arithmetic of one attention cell
recomputed from the numbers on the screen, the loss per token, both languages, other models and variants."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from tests.apptest_helpers import open_app, texts
from transformer import Translator
from ui.model_cache import CacheKind, CurrentModel
from ui.strings import STRINGS

INSIDE = "pages/inside.py"
SELECTED_FILL = "#ffb3b3"


def chart(at, key_start: str) -> dict:
    """The parsed plotly spec of the one chart whose key starts with key_start."""
    found = [el for el in at.get("plotly_chart") if el.proto.id.split("-", 2)[-1].startswith(key_start)]
    assert len(found) == 1, f"{len(found)} charts with a key starting {key_start!r}"
    return json.loads(found[0].proto.spec)


def table(at, column: str):
    """The one dataframe on the page that has this column."""
    found = [el.value for el in at.dataframe if column in el.value.columns]
    assert len(found) == 1, f"{len(found)} tables with a column {column!r}"
    return found[0]


def selected_block(at) -> int:
    """The block whose box is filled red in the diagram: the index of the click target inside it."""
    spec = chart(at, "diagram_inside")
    (box,) = [s for s in spec["layout"]["shapes"] if s.get("fillcolor") == SELECTED_FILL]
    targets = spec["data"][0]
    inside = [
        i
        for i, (x, y) in enumerate(zip(targets["x"], targets["y"]))
        if box["x0"] < x < box["x1"] and box["y0"] < y < box["y1"]
    ]
    assert len(inside) == 1
    return inside[0]


def shown_step(at) -> str:
    return at.subheader[0].value


def the_trace(at):
    """The trace the page shows (the one of the current model used last)."""
    return list(at.session_state.model.values(CacheKind.TRACE).values())[-1]


def test_the_page_walks_the_pass_block_by_block():
    lang = "en"
    at = open_app(lang, INSIDE)
    assert not at.exception
    trace = the_trace(at)
    blocks = trace.blocks
    assert len(chart(at, "diagram_inside")["data"][0]["x"]) == len(blocks)  # one click target per block
    assert at.slider(key="inside_step").value == 1 and selected_block(at) == 0
    assert "enc_inputs" in shown_step(at)

    # choosing a block from the list moves the walk to its first step and highlights it in the diagram
    ffn = next(b.index for b in blocks if b.kind == "feed_forward" and b.side == "decoder")
    at.selectbox(key="inside_block").set_value(ffn).run()
    assert not at.exception
    step = trace.steps[at.slider(key="inside_step").value - 1]
    assert step.name == "hidden (ReLU)" and step.where == "decoder.layers[0].pos_ffn"
    assert "`hidden (ReLU)`" in shown_step(at) and selected_block(at) == ffn
    assert STRINGS["inside.explain_hidden"][lang] in texts(at, "markdown")

    # Next walks on within the block, the layer box moves the same step to layer 2
    at.button(key="next_inside").click().run()
    assert trace.steps[at.slider(key="inside_step").value - 1].name == "output"
    at.selectbox(key="inside_layer").set_value(1).run()
    step = trace.steps[at.slider(key="inside_step").value - 1]
    assert (step.name, step.where) == ("output", "decoder.layers[1].pos_ffn")
    assert selected_block(at) == ffn

    # a LayerNorm step shows what went in beside what came out, with each row's mean and standard deviation
    norm3 = next(b.index for b in blocks if b.key == "decoder.layers[*].norm3")
    at.selectbox(key="inside_block").set_value(norm3).run()
    at.radio(key="inside_substep").set_value(1).run()  # output + residual, then LayerNorm
    assert trace.steps[at.slider(key="inside_step").value - 1].name == "LayerNorm"
    stats = [el.value for el in at.dataframe if STRINGS["inside.mean"][lang] in el.value.columns]
    before, _ = stats
    residual = trace.steps[at.slider(key="inside_step").value - 2]
    assert residual.name == "output + residual"
    x = residual.tensor[0].double()
    assert before[STRINGS["inside.mean"][lang]].tolist() == pytest.approx(x.mean(-1).tolist())
    assert before[STRINGS["inside.std"][lang]].tolist() == pytest.approx(x.std(-1, unbiased=False).tolist())

    # the loss: −log p of every counted position adds up to the loss; the padded position is marked, not counted
    loss = table(at, "−log p")
    padded = loss["−log p"].isna()
    assert padded.tolist() == [False] * (len(loss) - 1) + [True]  # one padding position after the target
    nll = loss["p"][~padded].map(lambda p: -math.log(p))
    assert nll.tolist() == pytest.approx(loss["−log p"][~padded].tolist(), abs=1e-5)  # p is shown in float32
    mean = loss["−log p"][~padded].mean()
    assert any(f"{mean:.4f}" in tex.value for tex in at.latex)
    assert mean == pytest.approx(trace.loss, abs=1e-6)


def test_in_chinese_choosing_a_block_shows_its_step_explained_in_chinese():
    at = open_app("zh", INSIDE)
    assert not at.exception and at.title[0].value == STRINGS["inside.title"]["zh"]
    blocks = the_trace(at).blocks
    attention = next(b.index for b in blocks if b.kind == "masked_attention")
    at.selectbox(key="inside_block").set_value(attention).run()
    assert not at.exception
    assert shown_step(at) == "第 46 步（共 106 步）：`decoder.layers[0].dec_self_attn` 中的 `Q`"
    assert selected_block(at) == attention
    assert STRINGS["inside.explain_Q"]["zh"] in texts(at, "markdown")
    # the charts name their axes in words, in Chinese: the cell arithmetic's map (len_q × len_k), the step (every
    # head's d_k side by side)
    titles = [
        json.loads(el.proto.spec)["layout"][axis].get("title", {}).get("text")
        for el in at.get("plotly_chart")
        for axis in ("xaxis", "yaxis")
    ]
    assert {"查询位置", "键位置", "头 · 查询/键维度"} <= set(titles)
    assert not {"len_q", "len_k", "heads·d_k"} & set(titles)
    assert [h.value for h in at.header][-2:] == [STRINGS["inside.cell"]["zh"], STRINGS["inside.loss"]["zh"]]


def test_a_chosen_cell_shows_numbers_that_reproduce_its_weight():
    where = "decoder.layers[1].dec_enc_attn"
    at = open_app("en", INSIDE, pick_inside_pair=3, inside_attention=where, inside_cell_head=2)
    trace = the_trace(at)
    at.selectbox(key="inside_query").set_value(3).run()
    at.selectbox(key="inside_key").set_value(1).run()
    assert not at.exception
    qk, softmax, weighted = table(at, "q_i·k_i"), table(at, "e^s"), table(at, "w_j·v_j[0]")
    d_k = len(qk)
    score = (qk["q_i"] * qk["k_i"]).sum() / math.sqrt(d_k)  # recomputed from the numbers on the screen
    assert score == pytest.approx(softmax["s_j"][1], abs=1e-6)
    row = softmax["s_j"].to_numpy()
    weights = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
    assert weights[1] == pytest.approx(softmax["weight"][1], abs=1e-6)
    translator = at.session_state.model.translator
    enc, dec = trace.steps[0].tensor, trace.step("dec_inputs", "decoder").tensor
    maps = translator.attention_maps(enc, dec)
    model_weight = float(maps.dec_enc_attns[1][0, 2, 3, 1])  # the model's own weight, from return_attn=True
    assert softmax["weight"][1] == pytest.approx(model_weight, abs=1e-6)
    assert weights[1] == pytest.approx(model_weight, abs=1e-6)
    # step 5: weights · value vectors, summed, is the context row the model computed
    values = weighted[[c for c in weighted.columns if c.startswith("v_j[")]].to_numpy()[:-1].astype(float)
    context = weights @ values
    assert context == pytest.approx(trace.step("context", where).tensor[0, 2, 3].tolist(), abs=1e-5)
    # the attention map outlines the chosen cell
    spec = chart(at, "cellmap_inside")
    (outline,) = [s for s in spec["layout"]["shapes"] if s.get("line", {}).get("color") == "#d62728"]
    assert (outline["x0"] + outline["x1"]) / 2 == 1 and (outline["y0"] + outline["y1"]) / 2 == 3


@pytest.mark.slow
def test_other_models_variants_and_a_typed_sentence_never_break_the_page():
    at = open_app("en", INSIDE, inside_src_pad=2, inside_tgt_pad=0)
    at.slider(key="inside_step").set_value(100).run()  # a late step of the bundled model (2 layers)
    at.selectbox(key="inside_query").set_value(4).run()
    pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "hello .")]
    variants = [
        {"look_ahead_mask": False, "pad_mask": False, "pe": "none"},
        {"residual": False, "norm": "none", "scale": False},
        {"norm": "pre", "pe": "learned", "d_ff": 300},  # wider than the heatmaps draw
    ]
    for switches in variants:
        sizes = {"d_model": 8, "n_heads": 2, "d_ff": 16, "n_layers": 1, **switches}
        at.session_state["model"] = CurrentModel(Translator.create(pairs, **sizes), "uploaded")
        at.session_state["pairs"] = pairs
        at.run()
        assert not at.exception, switches
        assert not at.error, switches
        trace = the_trace(at)
        assert 1 <= at.slider(key="inside_step").value <= len(trace.steps)
        assert trace.blocks[at.selectbox(key="inside_block").value].kind
    # the wide model: its hidden layer is cut to 128 columns and the figure says so
    hidden = next(s for s in trace.steps if s.name == "hidden (ReLU)")
    at.slider(key="inside_step").set_value(hidden.index + 1).run()
    spec = chart(at, "fig_inside_step")
    assert len(spec["data"][0]["z"][0]) == 128 and "128 of 300" in spec["layout"]["title"]["subtitle"]["text"]
    # a typed sentence: teacher forcing on the model's own greedy output, said on the page
    at.radio(key="pick_inside_mode").set_value("typed").run()
    at.text_input(key="pick_inside_text").input("你 好 <b>*x*</b>").run()
    assert not at.exception
    assert STRINGS["inside.greedy_target"]["en"] in texts(at, "caption")
    trace = at.session_state.model.values(CacheKind.TRACE)[(CacheKind.TRACE, "你 好 <b>*x*</b>", None, 2, 0)]
    assert trace.teacher == "greedy"
    markdown = " ".join(texts(at, "markdown"))
    assert "<b>" not in markdown and "*x*" not in markdown  # the typed text never becomes markup
    # a sentence too long for the model with its padding: one clear error, nothing else breaks
    at.text_input(key="pick_inside_text").input("你 " * 127).run()
    assert not at.exception and any("128" in e for e in texts(at, "error"))


def shown_cells(element) -> pd.DataFrame:
    """A dataframe as the learner reads it: the styler's display text when the page formats it, else the values."""
    styler = element.proto.arrow_data.styler
    if styler.display_values:
        return pa.ipc.open_stream(styler.display_values).read_all().to_pandas()
    return element.value.astype(str)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_table_cell_says_none_and_every_empty_cell_has_its_reason(lang):
    at = open_app(lang, INSIDE, inside_tgt_pad=1)
    assert not at.exception
    for element in at.dataframe:
        cells = shown_cells(element).to_numpy().ravel().tolist()
        assert not {"None", "nan", "NaN", "<NA>"} & {str(c).strip() for c in cells}, element.value.columns
    weighted = next(e for e in at.dataframe if "w_j·v_j[0]" in e.value.columns)
    sums = shown_cells(weighted).iloc[-1]
    assert sums["j"] == "Σ" and float(sums[STRINGS["inside.weight"][lang]]) == pytest.approx(1.0)
    assert all(sums[c] == "–" for c in sums.index if c.startswith("v_j["))  # empty, not None
    assert all(sums[c] != "–" for c in sums.index if c.startswith("w_j·v_j["))  # the context row
    assert STRINGS["inside.cell_sum_row"][lang].format(empty="–") in [c.value for c in at.caption]
    loss = shown_cells(next(e for e in at.dataframe if "−log p" in e.value.columns))
    padded = loss[loss["dec_outputs"] == "P"]
    assert len(padded) == 1 and padded.iloc[0]["−log p"] == "–"
    assert padded.iloc[0][STRINGS["inside.counted"][lang]] == STRINGS["inside.padding_excluded"][lang]
    counted = loss[loss["dec_outputs"] != "P"]["−log p"]
    assert all(float(v) >= 0 for v in counted)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_embedding_step_says_where_the_model_leaves_the_paper_and_names_tutorial_004(lang):
    at = open_app(lang, INSIDE)
    blocks = the_trace(at).blocks
    at.selectbox(key="inside_block").set_value(next(b.index for b in blocks if b.kind == "embedding")).run()
    assert not at.exception
    (said,) = [m for m in texts(at, "markdown") if "nn.Embedding" in m]
    words = {"en": ["√d_model", "output projection", "label smoothing"], "zh": ["√d_model", "输出投影", "标签平滑"]}
    assert all(w in said for w in words[lang]), said
    masked = next(s.index for s in the_trace(at).steps if s.kind == "masked_scores")
    at.slider(key="inside_step").set_value(masked + 1).run()
    (info,) = texts(at, "info")
    assert info.startswith(
        {"en": "Tutorial 004 (the Chinese tutorial that traces", "zh": "教程 004（逐个张量追踪"}[lang]
    )
    assert "Seed" not in info and "−1e9" in info


def test_the_model_docstring_names_the_three_details_that_follow_the_tutorials():
    import transformer.model

    doc = " ".join(transformer.model.__doc__.split())
    assert "not multiplied by √d_model" in doc and "no label smoothing" in doc and "ties it to the embeddings" in doc
    assert "the paper's post-norm model" not in doc


def test_the_charts_are_built_once_per_model_sentence_and_view_not_on_every_rerun(monkeypatch):
    import viz.trace

    built = []
    for name in ("architecture_figure", "step_figure", "softmax_row_figure"):
        real = getattr(viz.trace, name)
        monkeypatch.setattr(viz.trace, name, lambda *a, real=real, name=name, **k: built.append(name) or real(*a, **k))
    pairs = [("我 喜 欢 你", "I love you .")]
    model = CurrentModel(Translator.create(pairs, seed=0, d_model=16, n_heads=2, d_ff=32, n_layers=1), "uploaded")
    at = open_app(page=INSIDE, model=model, pairs=pairs)
    assert {"architecture_figure", "step_figure", "softmax_row_figure"} <= set(built)
    diagram, step = chart(at, "diagram_inside"), chart(at, "fig_inside_step")
    built.clear()
    at.switch_page("pages/masks.py").run()
    at.switch_page(INSIDE).run()  # back on the page: the same charts, none built again
    assert built == [] and chart(at, "diagram_inside") == diagram and chart(at, "fig_inside_step") == step
    at.slider(key="inside_src_pad").set_value(2).run()  # another padding: another trace, its own charts
    assert {"architecture_figure", "step_figure", "softmax_row_figure"} <= set(built)
    assert chart(at, "fig_inside_step") != step
