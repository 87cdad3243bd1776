"""The viz/ figure builders: shapes, token ticks (repeats kept), value ranges, −∞ handling, serialisation."""

import ast
import json
import math
import sys
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
import torch
from plotly.subplots import make_subplots

import transformer
import viz
from tests import source
from transformer.model import positional_encoding_table
from transformer.summary import EpochRecord
from viz import attention, decoding, masks, positional, training
from viz.common import CELL_TEXT, SMALL, set_layout, written

ROWS = ["S", "a", "b", "a"]  # a repeated token must stay two rows
COLS = ["x", "y", "x"]


def heatmaps(fig):
    """The heatmaps of fig that draw a matrix (not the transparent copies that write white cell numbers)."""
    return [t for t in fig.data if isinstance(t, go.Heatmap) and t.meta != CELL_TEXT]


def z_of(trace) -> np.ndarray:
    return np.array(trace.z, dtype=float)  # None → nan


def assert_token_axes(fig, trace, rows, cols):
    xname = "xaxis" + (trace.xaxis or "x")[1:]
    yname = "yaxis" + (trace.yaxis or "y")[1:]
    x, y = fig.layout[xname], fig.layout[yname]
    assert list(x.ticktext) == cols and list(x.tickvals) == list(range(len(cols)))
    assert list(y.ticktext) == rows and list(y.tickvals) == list(range(len(rows)))
    assert y.autorange == "reversed"
    assert list(trace.x) == list(range(len(cols))) and list(trace.y) == list(range(len(rows)))
    assert "%{customdata[0]}" in trace.hovertemplate and "%{customdata[1]}" in trace.hovertemplate
    custom = np.array(trace.customdata, dtype=object)  # (Lq, Lk, 5): row token, col token, extra, row, col
    assert list(custom[:, 0, 0]) == rows and list(custom[0, :, 1]) == cols


def assert_serialises(fig):
    json.loads(fig.to_json())  # valid JSON: no NaN/inf leaked


@pytest.fixture
def softmax_attn():
    torch.manual_seed(0)
    return torch.softmax(torch.randn(len(ROWS), len(COLS)), dim=-1)  # (4, 3)


def test_loss_accuracy_figure():
    history = [EpochRecord(1, 2.0, 0.25, 1.0), EpochRecord(2, 1.0, 0.5, 2.0)]
    fig = training.loss_accuracy_figure(history, training.CurveLabels(loss="损失", accuracy="准确率", epoch="轮"))
    assert isinstance(fig, go.Figure)
    loss, acc = fig.data
    assert list(loss.y) == [2.0, 1.0] and list(acc.y) == [0.25, 0.5] and acc.yaxis == "y2"
    assert (loss.name, acc.name) == ("损失", "准确率")
    assert fig.layout.yaxis2.overlaying == "y" and fig.layout.yaxis2.tickformat == ".0%"
    assert fig.layout.xaxis.title.text == "轮"
    assert_serialises(fig)


def test_the_loss_legend_keeps_out_of_the_title_margin():
    """Four curves (with held-out pairs) wrap the legend into rows: in the top margin, over the plot, they met a title
    of two lines (the Train page at 1024 px). At the foot of the figure, measured from its edge (yref "container"),
    plotly reserves the legend a margin of its own below the axis title, whatever its rows."""
    history = [EpochRecord(1, 2.0, 0.25, 1.0, holdout_loss=2.5, holdout_accuracy=0.2)]
    fig = training.loss_accuracy_figure(history, title="The bundled model · 20 epochs · 1800 corpus + 50 bundled")
    assert len(fig.data) == 4 and "<br>" in fig.layout.title.text
    legend = fig.layout.legend
    assert (legend.orientation, legend.yref, legend.y, legend.yanchor) == ("h", "container", 0, "bottom")


def test_loss_accuracy_figure_empty():
    fig = training.loss_accuracy_figure([])
    assert isinstance(fig, go.Figure) and all(len(t.x) == 0 for t in fig.data)
    assert_serialises(fig)


def test_pe_figures_match_table():
    table = positional_encoding_table(10, 8)
    lines = positional.pe_lines_figure(table, [0, 1, 5])
    assert [t.name for t in lines.data] == ["dim 0 (sin)", "dim 1 (cos)", "dim 5 (cos)"]
    for trace, d in zip(lines.data, [0, 1, 5], strict=True):
        assert list(trace.x) == list(range(10))
        np.testing.assert_allclose(trace.y, table[:, d].numpy(), atol=1e-6)

    heat = positional.pe_heatmap_figure(table)
    np.testing.assert_allclose(z_of(heat.data[0]), table.numpy(), atol=1e-6)
    assert (heat.data[0].zmin, heat.data[0].zmax) == (-1, 1)

    sim = positional.pe_similarity_figure(table)
    np.testing.assert_allclose(z_of(sim.data[0]), (table @ table.T).numpy(), rtol=1e-5, atol=1e-5)
    for fig in (lines, heat, sim):
        assert_serialises(fig)


def test_pe_lines_rejects_bad_dimension():
    with pytest.raises(ValueError, match="dimension"):
        positional.pe_lines_figure(positional_encoding_table(4, 4), [4])


def test_mask_figure():
    mask = torch.tensor([[False, True, True], [False, False, True], [True, False, False], [False, False, False]])
    fig = masks.mask_figure(mask, ROWS, COLS, blocked_label="屏蔽", allowed_label="可见")
    (trace,) = heatmaps(fig)
    np.testing.assert_array_equal(z_of(trace), mask.int().numpy())
    assert_token_axes(fig, trace, ROWS, COLS)
    assert "屏蔽" in trace.colorbar.ticktext and "可见" in trace.colorbar.ticktext
    assert np.array(trace.customdata)[0, 1, 2] == "屏蔽" and np.array(trace.customdata)[0, 0, 2] == "可见"
    assert_serialises(fig)


def masked_scores(scores, rows, cols, mask=None, **labels):
    """The Masks page's middle figure: the scores with the blocked cells at −∞."""
    return masks.mask_effect_figures(scores, mask, torch.zeros(torch.as_tensor(scores).shape), rows, cols, **labels)[1]


def test_masked_scores_block_minus_infinity():
    scores = torch.arange(12, dtype=torch.float32).view(4, 3) - 5  # (4, 3)
    mask = torch.zeros(4, 3, dtype=torch.bool)
    mask[0, 1:] = True
    fig = masked_scores(scores.masked_fill(mask, float("-inf")), ROWS, COLS, score_label="分数")
    main, blocked = heatmaps(fig)
    z = z_of(main)
    assert z.shape == (4, 3) and not np.isinf(z).any()
    assert np.isnan(z[mask.numpy()]).all()  # blocked cells are gaps
    np.testing.assert_allclose(z[~mask.numpy()], scores[~mask].numpy())
    text = np.array(blocked.text)
    assert (text[mask.numpy()] == "−∞").all() and (text[~mask.numpy()] == "").all()
    assert "−∞" in blocked.hovertemplate
    assert np.array(written(fig, 0))[3, 0] == "4.0"  # small matrix: values written in cells
    assert_token_axes(fig, main, ROWS, COLS)
    assert_serialises(fig)


def test_masked_scores_mask_argument():
    scores = torch.ones(4, 3)
    mask = torch.eye(4, 3, dtype=torch.bool)
    main, blocked = heatmaps(masked_scores(scores, ROWS, COLS, mask=mask))
    assert np.isnan(z_of(main)[mask.numpy()]).all()
    assert (np.array(blocked.text)[mask.numpy()] == "−∞").all()


def test_masked_scores_large_has_no_cell_values():
    n = SMALL + 1
    fig = masked_scores(torch.randn(n, n), [str(i) for i in range(n)], [str(i) for i in range(n)])
    assert fig.data[0].text is None and len(heatmaps(fig)) == 1


def test_attention_figure(softmax_attn):
    fig = attention.attention_figure(softmax_attn, ROWS, COLS, pad_rows=[3], pad_cols=[2], pad_note="灰色 = 填充")
    (trace,) = heatmaps(fig)
    z = z_of(trace)
    assert z.shape == (4, 3) and (trace.zmin, trace.zmax) == (0, 1)
    np.testing.assert_allclose(z.sum(axis=1), 1.0, atol=1e-6)
    assert_token_axes(fig, trace, ROWS, COLS)
    assert len(fig.layout.shapes) == 2  # one band per padding row/column
    assert fig.layout.title.subtitle.text == "灰色 = 填充"
    custom = np.array(trace.customdata)
    assert custom[0, 2, 2] and custom[3, 0, 2] and not custom[0, 0, 2]  # hover says padding
    assert_serialises(fig)


def test_attention_grid_figure():
    torch.manual_seed(1)
    attn = torch.softmax(torch.randn(5, 4, 3), dim=-1)  # (H, Lq, Lk)
    fig = attention.attention_grid_figure(attn, ROWS, COLS, head_label="头")
    traces = heatmaps(fig)
    assert len(traces) == 5
    assert sum(bool(t.showscale) for t in traces) == 1  # one shared colourbar
    for h, trace in enumerate(traces):
        assert (trace.zmin, trace.zmax) == (0, 1)
        np.testing.assert_allclose(z_of(trace), attn[h].numpy(), atol=1e-6)
        assert_token_axes(fig, trace, ROWS, COLS)
        assert trace.hovertemplate == traces[0].hovertemplate.replace("头 1", f"头 {h + 1}")
    assert [a.text for a in fig.layout.annotations] == [f"头 {h}" for h in range(1, 6)]
    assert_serialises(fig)


def test_source_attention_figure():
    torch.manual_seed(2)
    src = ["我", "你", "我", "P"]
    w = torch.softmax(torch.randn(3, 4), dim=-1)  # (H, Ls)
    fig = attention.source_attention_figure(w, src, head_label="头", average_label="平均")
    (trace,) = heatmaps(fig)
    z = z_of(trace)
    assert z.shape == (4, 4) and (trace.zmin, trace.zmax) == (0, 1)
    np.testing.assert_allclose(z[:3], w.numpy(), atol=1e-6)
    np.testing.assert_allclose(z[3], w.mean(0).numpy(), atol=1e-6)
    assert_token_axes(fig, trace, ["头 1", "头 2", "头 3", "平均"], src)
    assert_serialises(fig)


def test_topk_figure():
    probs = torch.tensor([0.05, 0.4, 0.1, 0.3, 0.15])
    itos = ["P", "S", "E", "cat", "dog"]
    fig = decoding.topk_figure(probs, itos, chosen_id=3, k=3)
    bar, names, rows = fig.data
    assert list(bar.x) == pytest.approx([0.4, 0.3, 0.15])  # sorted descending
    assert list(names.text) == ["S", "<b>cat</b>", "dog"] and list(bar.y) == list(names.y) == [0, 1, 2]
    colors = list(bar.marker.color)
    assert colors[1] != colors[0] and colors[0] == colors[2]  # only the chosen token stands out
    assert [row[0] for row in rows.customdata] == ["S", "cat", "dog"]
    assert list(rows.text) == ["0.4000", "0.3000", "0.1500"]  # the hover's probability
    assert_serialises(fig)


def test_topk_figure_k_larger_than_vocab():
    fig = decoding.topk_figure([0.5, 0.5], ["P", "S"], chosen_id=0, k=10)
    assert len(fig.data[0].x) == 2


def test_set_layout_gives_the_figure_update_layout_gives():
    """set_layout, the quick update_layout of every figure: dicts merge into what a figure has (a subplot's axis, a
    title with its font), new axes are made, other values replace."""

    def built():
        fig = make_subplots(rows=1, cols=2)
        fig.add_trace(go.Heatmap(z=[[1, 2], [3, 4]]), row=1, col=1)
        fig.add_trace(go.Heatmap(z=[[5]]), row=1, col=2)
        fig.update_layout(title=dict(font=dict(size=20)), margin=dict(l=5), xaxis2=dict(title=dict(text="old")))
        return fig

    props = dict(
        title=dict(text="a title", x=0.0, xanchor="left"),
        height=300,
        margin=dict(t=60, b=10),
        font=dict(size=13),
        xaxis2=dict(tickmode="array", tickvals=[0], ticktext=["x"], title=dict(standoff=4)),
        yaxis3=dict(autorange="reversed", scaleanchor="x"),
    )
    ours, plotlys = built(), built()
    set_layout(ours, props)
    plotlys.update_layout(props)
    assert json.loads(ours.to_json()) == json.loads(plotlys.to_json())
    layout = ours.layout
    assert (layout.title.font.size, layout.margin.l, layout.xaxis2.title.text) == (20, 5, "old")  # kept
    assert (layout.title.text, layout.margin.t, layout.xaxis2.ticktext, layout.yaxis3.autorange) == (
        "a title",
        60,
        ("x",),
        "reversed",
    )


@pytest.mark.parametrize(
    "build",
    [
        lambda: masks.mask_figure(torch.zeros(4, 3, dtype=torch.bool), ROWS[:3], COLS),
        lambda: masked_scores(torch.zeros(4, 3), ROWS, COLS[:2]),
        lambda: attention.attention_figure(torch.zeros(4, 3), ROWS + ["c"], COLS),
        lambda: attention.attention_grid_figure(torch.zeros(2, 4, 3), ROWS, COLS + ["z"]),
        lambda: attention.source_attention_figure(torch.zeros(2, 3), ["a", "b"]),
        lambda: decoding.topk_figure(torch.ones(3) / 3, ["a", "b"], 0),
    ],
)
def test_mismatched_tokens_raise(build):
    with pytest.raises(ValueError, match="token"):
        build()


def test_bad_shapes_and_indexes_raise():
    with pytest.raises(ValueError, match="dimension"):
        attention.attention_figure(torch.zeros(2, 4, 3), ROWS, COLS)
    with pytest.raises(ValueError, match="pad_cols"):
        attention.attention_figure(torch.zeros(4, 3), ROWS, COLS, pad_cols=[3])
    with pytest.raises(ValueError, match="mask"):
        masked_scores(torch.zeros(4, 3), ROWS, COLS, mask=torch.zeros(3, 3, dtype=torch.bool))


def test_accepts_numpy_lists_and_batch_dim():
    a = [[0.5, 0.5, 0.0]] * 4
    for attn in (a, np.array(a), torch.tensor([a])):  # (1, Lq, Lk) is squeezed
        assert z_of(attention.attention_figure(attn, ROWS, COLS).data[0]).shape == (4, 3)


def test_nan_rows_serialise():
    attn = torch.full((4, 3), math.nan)  # e.g. softmax over a fully blocked row
    assert_serialises(attention.attention_figure(attn, ROWS, COLS))


def _imports(module: Path) -> set[str]:
    """The top-level names of the packages a module imports (at its top or inside functions), relative ones left out."""
    tree = source.tree(module)
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0}
    return {name.split(".")[0] for name in names}


@pytest.mark.parametrize("module", sorted(Path(viz.__file__).parent.glob("*.py")), ids=lambda p: p.name)
def test_viz_never_imports_streamlit(module):
    assert "streamlit" not in _imports(module)


PACKAGE = Path(transformer.__file__).parent


@pytest.mark.parametrize("module", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_model_package_imports_only_torch_and_safetensors_besides_the_standard_library(module):
    one_module = {  # a library used in one module only
        "scores.py": "sacrebleu",
        "bpe.py": "tokenizers",
        "spm.py": "sentencepiece",
        "opening.py": "huggingface_hub",
    }
    allowed = {"torch", "safetensors", "transformer", *([one_module[module.name]] if module.name in one_module else [])}
    assert _imports(module) - set(sys.stdlib_module_names) <= allowed
    if module.name in one_module:  # BLEU and chrF; BPE pieces; SentencePiece pieces; the Hugging Face cache
        assert one_module[module.name] in _imports(module)


def test_twelve_positions_under_a_head_pattern_are_labelled_every_other_one_and_tokens_each():
    from viz.heads import head_patterns_figure

    patterns = np.full((1, 4, 12, 12), 1 / 12)
    by_position = head_patterns_figure(patterns).layout.xaxis
    assert list(by_position.ticktext) == ["0", "2", "4", "6", "8", "10"]  # 10 and 11 touched at 1400 px
    tokens = [f"t{i}" for i in range(12)]
    assert list(head_patterns_figure(patterns, tokens, tokens).layout.xaxis.ticktext) == tokens
    assert list(head_patterns_figure(np.full((1, 4, 8, 8), 1 / 8)).layout.xaxis.ticktext) == [str(i) for i in range(8)]
