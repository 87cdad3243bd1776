"""What keeps a chart's text inside it at any width (viz/common.py), the architecture diagram drawn as the paper's
figure with text that fits its boxes, and the Train chart saying whose curve it shows.

The browser checks the same on the drawn charts: tests/e2e/test_e2e_chart_text.py."""

from __future__ import annotations

import json
import re

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from tests.apptest_helpers import open_app, opened_page
from transformer import Translator, corpus
from transformer.config import MAX_TOKEN_CHARS
from transformer.summary import EpochRecord, TrainingSummary
from transformer.trace import trace_sentence
from ui.i18n import t
from ui.model_cache import CurrentModel
from viz.attention import attention_figure, source_attention_figure
from viz.common import (
    ROTATES_PX,
    TICK_COLUMNS,
    TITLE_COLUMNS,
    TITLE_LINE_PX,
    colorbar,
    columns,
    finish,
    label_px,
    text_px,
    tick_text,
    title_lines,
)
from viz.heads import head_stat_figure
from viz.trace import (
    DIAGRAM_TEXT_PX,
    LINE_PX,
    PAD_PX,
    SELECTED_FILL,
    architecture_figure,
    softmax_row_figure,
)

LONG = "Pneumonoultramicroscopicsilicovolcanoconiosis"[:MAX_TOKEN_CHARS]
TINY = dict(d_model=16, d_ff=32, n_heads=2, n_layers=2)


# ---------------------------------------------------------------- labels


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("love", "love"),
        (LONG, "Pneumono…ilicovo"),
        ("长" * MAX_TOKEN_CHARS, "长长长长…长长长"),  # a CJK character takes two columns
        ("I → " + LONG, "I → Pneu…ilicovo"),
        (LONG + " → you", "Pneumono…o → you"),  # the end of a decoder row label stays readable
        ("&lt;b&gt;noodles&lt;/b&gt; and more", "&lt;b&gt;noodl…nd more"),  # entities never cut in half
        (f"<b>{LONG}</b> ◀", "<b>Pneumono…icovo</b> ◀"),  # tags kept, still paired
    ],
)
def test_long_tick_labels_are_cut_in_the_middle_to_a_fixed_width(label, expected):
    assert tick_text(label) == expected
    assert columns(tick_text(label)) <= TICK_COLUMNS


def test_text_px_is_an_upper_bound_of_a_wide_bold_font():
    # DejaVu Sans Bold at 12 px (measured): 'Masked Multi-Head Attention' 198.3 px, '[1, 6, 6]' 53.5 px
    assert 198.3 <= text_px("Masked Multi-Head Attention", 12) <= 1.15 * 198.3
    assert 53.5 <= text_px("[1, 6, 6]", 12) <= 1.35 * 53.5
    assert text_px("<b>ab</b>", 12) == text_px("ab", 12) and text_px("长", 12) == 12


def test_a_long_title_breaks_at_its_separators_keeping_the_qualifiers_together():
    assert title_lines("short · title") == "short · title"
    title = "encoder–decoder attention · layer 2 · head 1"
    assert title_lines(title) == "encoder–decoder attention<br>layer 2 · head 1"
    assert all(columns(line) <= TITLE_COLUMNS for line in title_lines(title).split("<br>"))
    fig = finish(go.Figure(go.Scatter(x=[0], y=[0])), title, 300)
    assert fig.layout.margin.t == 60 + TITLE_LINE_PX and fig.layout.height == 300 + TITLE_LINE_PX  # a second line


# ---------------------------------------------------------------- every figure


def _figures():
    a = torch.softmax(torch.randn(4, 5, generator=torch.Generator().manual_seed(0)), -1)
    rows, cols = ["S", "I", LONG, "."], ["我", LONG, "长" * MAX_TOKEN_CHARS, "你", "P"]
    return {
        "attention": attention_figure(a, rows, cols, title="encoder–decoder attention · layer 2 · head 1"),
        "source": source_attention_figure(a, cols),
        "softmax row": softmax_row_figure(a[0].tolist(), cols, 1, [False] * 4 + [True]),
    }


@pytest.mark.parametrize("name", ["attention", "source", "softmax row"])
def test_every_axis_grows_its_margin_and_every_token_tick_is_cut(name):
    fig = _figures()[name]
    axes = [*fig.select_xaxes(), *fig.select_yaxes()]
    assert axes and all(axis.automargin for axis in axes)  # plotly makes room for tick labels and titles
    for axis in axes:
        assert all(columns(label) <= TICK_COLUMNS for label in axis.ticktext or ())
    json.loads(fig.to_json())


def test_long_column_labels_make_the_figure_taller_by_their_length():
    a = torch.full((2, 2), 0.5)
    short = attention_figure(a, ["a", "b"], ["a", "b"])
    long = attention_figure(a, ["a", "b"], [LONG, "b"])
    grows = label_px([tick_text(LONG)]) - ROTATES_PX
    assert long.layout.height - short.layout.height == grows > 80  # turned labels take their length under the grid


def test_colour_bars_title_along_their_side_and_ticks_as_many_as_their_height_holds():
    assert colorbar("weight")["title"]["side"] == "right"  # never over the top tick label
    one_row = source_attention_figure(torch.full((1, 3), 0.3), ["a", "b", "c"])
    tall = attention_figure(torch.full((12, 12), 0.1), list("abcdefghijkl"), list("abcdefghijkl"))
    assert one_row.data[0].colorbar.nticks < tall.data[0].colorbar.nticks
    assert one_row.data[0].colorbar.nticks <= (one_row.layout.height - 90) // 40 + 1


def test_the_head_statistics_grid_has_its_axis_titles_apart():
    from transformer.heads import HeadStats

    fields = HeadStats.__dataclass_fields__
    stats = [HeadStats(**{f: (0.5 if f not in ("layer", "head") else 0) for f in fields} | dict(layer=0, head=h))
             for h in range(4)]  # fmt: skip
    fig = head_stat_figure(stats, "previous", value_label="share on the previous token")
    assert fig.layout.xaxis.automargin and fig.layout.yaxis.automargin
    assert fig.data[0].colorbar.title.side == "right"


# ---------------------------------------------------------------- the architecture diagram


def _diagram(lang="en", **switches):
    pairs = [("我 喜 欢 你", "I love you ."), ("他 有 一 只 猫", "He has a cat .")]
    translator = Translator.create(pairs, seed=0, **TINY, **switches)
    trace = trace_sentence(translator, "我 喜 欢 你", "I love you .", 1, 1)
    labels = [t(f"inside.block_{b.kind}", lang) for b in trace.blocks]
    fig = architecture_figure(
        trace.blocks, labels, [b.sizes for b in trace.blocks], selected=3, n_layers=2, layer=0,
        encoder_label=t("inside.encoder", lang), decoder_label=t("inside.decoder", lang),
        layers_label=t("inside.n_layers", lang), layer_label=t("inside.layer_n", lang), masked=trace.masked_blocks(),
    )  # fmt: skip
    return trace, fig


def _boxes(fig) -> dict[int, dict]:
    """Each block's box: its rectangle and the text written in it, by block index."""
    rects = [s for s in fig.layout.shapes if s.type == "rect" and s.line.dash != "dash"]
    named = {int(a.name.split()[1]): a for a in fig.layout.annotations if a.name and a.name.startswith("block ")}
    out = {}
    for i, a in named.items():
        (rect,) = [r for r in rects if r.x0 < a.x < r.x1 and r.y0 < a.y < r.y1]
        out[i] = dict(rect=rect, text=a.text, size=a.font.size, x=a.x, y=a.y)
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("switches", [{}, {"norm": "pre"}, {"residual": False}])
def test_every_box_text_is_at_least_12_px_and_fits_its_box(lang, switches):
    trace, fig = _diagram(lang, **switches)
    boxes = _boxes(fig)
    assert len(boxes) == len(trace.blocks)
    for box in boxes.values():
        lines = [re.sub(r"<[^>]+>", "", line) for line in box["text"].split("<br>")]
        width, height = box["rect"].x1 - box["rect"].x0, box["rect"].y1 - box["rect"].y0
        assert box["size"] >= 12 == DIAGRAM_TEXT_PX
        assert max(text_px(line, box["size"]) for line in lines) <= width - 2 * PAD_PX, box["text"]
        assert len(lines) * LINE_PX <= height - 2 * PAD_PX
    assert all((a.font.size or 12) >= 12 for a in fig.layout.annotations)
    assert "font-size" not in json.dumps([a.text for a in fig.layout.annotations])  # no smaller span anywhere
    # drawn in px: the axes span the figure, one data unit per px
    assert list(fig.layout.xaxis.range) == [0, fig.layout.width]
    assert list(fig.layout.yaxis.range) == [0, fig.layout.height] and fig.layout.margin.l == fig.layout.margin.b == 0


def _arrows_into(fig, box, side: str) -> list:
    """Arrow annotations whose head is on the left or right edge of a box, at its height."""
    rect = box["rect"]
    edge = rect.x0 if side == "left" else rect.x1
    return [
        a
        for a in fig.layout.annotations
        if a.showarrow and abs(a.x - edge) < 1 and rect.y0 < a.y < rect.y1 and abs(a.ax - edge) > 5
    ]


@pytest.mark.parametrize("switches", [{}, {"norm": "pre"}])
def test_a_residual_connection_goes_around_every_sublayer_into_its_add(switches):
    trace, fig = _diagram(**switches)
    boxes = _boxes(fig)
    adds = [b for b in trace.blocks if b.kind in ("add_norm", "add")]
    assert len(adds) == 5  # two in the encoder's layer, three in the decoder's
    for block in adds:  # encoder: around the left side; decoder: around the right side, as in the paper
        side = "left" if block.side == "encoder" else "right"
        (arrow,) = _arrows_into(fig, boxes[block.index], side)
        lane = arrow.ax
        (path,) = [s for s in fig.layout.shapes if s.type == "path" and f"H {lane} V {arrow.y}" in s.path]
        branch = float(path.path.split(",")[1].split()[0])  # from below the sublayer (and its LayerNorm)
        sublayer = trace.blocks[block.index - (2 if switches else 1)]
        assert branch < boxes[sublayer.index]["rect"].y0


def test_without_residual_connections_the_diagram_draws_none():
    trace, fig = _diagram(residual=False)
    boxes = _boxes(fig)
    for block in trace.blocks:
        if block.kind.startswith("norm") or block.kind == "add_norm":
            assert not _arrows_into(fig, boxes[block.index], "left" if block.side == "encoder" else "right")


def test_the_masks_are_side_inputs_to_the_attention_blocks_not_a_block_the_data_flows_through():
    trace, fig = _diagram()
    boxes = _boxes(fig)
    masks = [b for b in trace.blocks if b.kind == "masks"]
    assert len(masks) == 2
    for mask in masks:
        box = boxes[mask.index]["rect"]
        flows = [
            a for a in fig.layout.annotations
            if a.showarrow and box.x0 <= a.x <= box.x1 and (abs(a.y - box.y0) < 1 or abs(a.y - box.y1) < 1)
        ]  # fmt: skip
        assert not flows  # no arrow into its bottom or top: nothing flows through it
        column = [b for b in trace.blocks if b.side == mask.side and b.kind != "masks"]
        assert not any(boxes[b.index]["rect"].x0 <= boxes[mask.index]["x"] <= boxes[b.index]["rect"].x1 for b in column)
        fed = [b for b in column if b.index in trace.masked_blocks()]
        side = "right" if mask.side == "encoder" else "left"  # from between the columns
        for block in fed:
            assert _arrows_into(fig, boxes[block.index], side), block.kind
    assert {trace.blocks[i].kind for i in trace.masked_blocks()} == {
        "self_attention", "masked_attention", "cross_attention"
    }  # fmt: skip


def test_a_model_without_masks_draws_no_mask_arrows():
    trace, fig = _diagram(pad_mask=False, look_ahead_mask=False)
    assert trace.masked_blocks() == []
    assert not [b for b in trace.blocks if b.kind == "masks"]


def test_the_selected_block_is_filled_and_outlined():
    trace, fig = _diagram()
    (box,) = [s for s in fig.layout.shapes if s.fillcolor == SELECTED_FILL]
    target = fig.data[0]
    assert box.x0 < target.x[3] < box.x1 and box.y0 < target.y[3] < box.y1 and box.line.width >= 3


# ---------------------------------------------------------------- the Train chart says whose curve it is


def _history_title(at) -> str:
    (chart,) = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-history_chart")]
    return json.loads(chart.proto.spec)["layout"]["title"]["text"].replace("<br>", " · ")


def test_the_train_chart_names_the_bundled_model_and_its_pairs():
    """The bundled model was trained on the default corpus less the rows its checkpoint holds out, and on the bundled
    pairs (always trained): the title says so, in numbers taken from the checkpoint, not "on the 50 bundled pairs"."""
    at = opened_page("en", "pages/train.py")
    model = at.session_state.model
    summary = model.translator.summary
    held, bundled = len(summary.data.holdout_rows), summary.data.always_trained
    assert held > 0 and bundled == len(model.trained_on)  # the bundled pairs, the table a tab starts with
    title = _history_title(at)
    assert title.startswith("The bundled model")
    assert f"{summary.epochs} epochs" in title
    assert f"{corpus.DEFAULT_SIZE - held} corpus + {bundled} bundled pairs · {held} held out" in title
    assert "not the pairs in your table" not in title  # the table holds the bundled pairs
    zh = _history_title(opened_page("zh", "pages/train.py"))
    assert f"语料 {corpus.DEFAULT_SIZE - held} 对 + 内置 {bundled} 对 · 留出 {held} 对" in zh


def test_the_train_chart_says_when_the_table_holds_other_pairs_than_the_model_was_trained_on():
    at = open_app(page="pages/train.py", pairs=[("我 喜 欢 你", "I love you ."), ("你 好", "Hello .")])
    title = _history_title(at)
    assert title.startswith("The bundled model") and title.endswith("not the pairs in your table")
    at = open_app("zh", page="pages/train.py", pairs=[("你 好", "Hello .")])
    assert _history_title(at).startswith("内置模型") and "不是你表格中的句子对" in _history_title(at)


def test_the_train_chart_of_an_uploaded_model_names_its_file_literally():
    translator = Translator.create([("我 喜 欢 你", "I love you .")], seed=0, **TINY)
    history = tuple(EpochRecord(e, 1.0 / e, 0.5, None) for e in (1, 2, 3))
    translator.summary = TrainingSummary(epochs=3, history=history)
    at = open_app(page="pages/train.py", model=CurrentModel(translator, "uploaded", name="<b>m</b>.safetensors"))
    title = _history_title(at)
    assert title.startswith("The uploaded model &lt;b&gt;m&lt;/b&gt;.safetensors") and "3 epochs" in title


def test_a_plot_shorter_than_its_upright_y_title_grows_so_the_title_stays_beside_it():
    # the Attention sheet's first figure: on 5 rows its y title reached over the figure's title and legend (issue 32)
    rows, cols = ["S → I", "I → love", "love → you", "you → .", ". → E"], ["我", "爱", "你", "E"]
    title = "decoder input → predicts (query)"
    tall = attention_figure(np.full((5, 4), 0.25), rows, cols, title="attention · layer 2 · head 1", row_label=title)
    short = attention_figure(np.full((5, 4), 0.25), rows, cols, title="attention · layer 2 · head 1", row_label="q")
    assert (
        tall.layout.height - tall.layout.margin.t
        >= text_px(title, 13) + 70
        > short.layout.height - short.layout.margin.t
    )
