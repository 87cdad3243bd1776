"""The Attention page through AppTest: decoder rows that say what they predict, the all-heads grid at full width,
the head statistics (a selected row opens its head, alignment marks give a score), the training film strip, and
values kept from a bigger model or dataset."""

import json

import numpy as np
import pytest

from tests.apptest_helpers import chart_spec, open_app, texts
from transformer import TrainConfig, Translator, train
from transformer.config import MAX_STUDY_PAIRS
from transformer.data import tokenize
from transformer.heads import study_heads
from ui.model_cache import CacheKind, CurrentModel
from ui.sheet import Chart
from ui.strings import STRINGS
from viz.attention import attention_figure, decoder_row_labels, frame_head
from viz.common import CHOSEN_COLOR
from viz.heads import head_patterns_figure
from viz.layers import clicked_cell

ATTN = "pages/attention.py"
CHART, TABLE = "click_attn_chart", "click_attn_table"
PAIRS = [("我 喜 欢 你", "I love you ."), ("你 喜 欢 猫", "you love cats ."), ("我 有 猫", "I have a cat .")]


def s(key: str, lang: str) -> str:
    return STRINGS[key][lang]


def heat(spec: dict) -> np.ndarray:
    """The first heatmap's values."""
    return np.array(next(tr for tr in spec["data"] if tr["type"] == "heatmap")["z"], dtype=float)


def stats_table(at):
    (table,) = [d for d in at.dataframe if d.key == TABLE]
    return table.value


def outlined(spec: dict) -> list[tuple[int, int]]:
    """(row, column) of every cell outlined in red on a single heatmap."""
    shapes = spec["layout"].get("shapes", [])
    red = [sh for sh in shapes if sh.get("line", {}).get("color") == CHOSEN_COLOR]
    return sorted((round(sh["y0"] + 0.5), round(sh["x0"] + 0.5)) for sh in red)


@pytest.fixture(scope="module")
def tiny():
    """A one-layer, one-head model trained a few epochs on PAIRS, with snapshots of pairs 1 and 3."""
    translator = Translator.create(PAIRS, seed=0, d_model=8, n_heads=1, d_ff=16, n_layers=1)
    records = list(train(translator, PAIRS, TrainConfig(epochs=3, threads=1), 1, [0, 2]))
    snapshots = [(r.epoch, r.snapshot) for r in records if r.snapshot is not None]
    return translator, snapshots


def tiny_model(tiny) -> CurrentModel:
    translator, snapshots = tiny
    return CurrentModel(translator, "trained", list(snapshots), [PAIRS[0], PAIRS[2]], trained_on=tuple(PAIRS))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_decoder_rows_say_what_they_read_and_what_they_predict(lang):
    at = open_app(lang, ATTN, pairs=[("我 喜 欢 你", "You love me .")])
    assert not at.exception
    spec = chart_spec(at, CHART)  # encoder–decoder attention, teacher-forced on the reference
    assert spec["layout"]["yaxis"]["ticktext"] == ["S → You", "You → love", "love → me", "me → .", ". → E"]
    assert spec["layout"]["xaxis"]["ticktext"] == ["我", "喜", "欢", "你"]
    assert spec["layout"]["yaxis"]["title"]["text"] == s("attn.rows_dec_enc", lang)
    said = " ".join(texts(at, "markdown"))
    assert ("input → predicts" if lang == "en" else "输入 → 预测") in said
    assert s("attn.rows_teacher", lang) in said
    at.toggle(key="attn_greedy").set_value(True).run()  # the model's own output: it translates "I love you ."
    assert chart_spec(at, CHART)["layout"]["yaxis"]["ticktext"] == [
        "S → I",
        "I → love",
        "love → you",
        "you → .",
        ". → E",
    ]
    assert s("attn.rows_greedy", lang) in texts(at, "markdown")
    at.radio(key="attn_kind").set_value("dec_self").run()  # keys of decoder self-attention are inputs only
    spec = chart_spec(at, CHART)
    assert spec["layout"]["yaxis"]["ticktext"][0] == "S → I"
    assert spec["layout"]["xaxis"]["ticktext"] == ["S", "I", "love", "you", "."]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_all_heads_use_the_full_page_width(lang):
    at = open_app(lang, ATTN)

    def charts_in(node, boxed=False):
        """(chart id, whether it sits in a box of fixed width) of every chart under node."""
        for child in getattr(node, "children", {}).values():
            if child.type == "plotly_chart":
                yield child.proto.id, boxed
            fixed = child.type == "flex_container" and child.proto.width_config.pixel_width > 0
            yield from charts_in(child, boxed or fixed)

    def in_a_box() -> bool:
        return any(boxed for id_, boxed in charts_in(at._tree[0]) if id_.endswith(f"-{CHART}"))

    assert in_a_box()  # one head: the chart in a box beside its explanation (under it in a narrow window)
    at.radio(key="attn_heads").set_value("grid").run()
    assert not at.exception and not in_a_box()  # all heads: the whole width
    spec = chart_spec(at, CHART)
    layout = spec["layout"]
    n_heads = at.session_state.model.translator.config.n_heads
    assert [a["text"] for a in layout["annotations"]] == [f"{s('attn.head', lang)} {h}" for h in range(1, n_heads + 1)]
    assert all(a["font"]["size"] >= 14 for a in layout["annotations"])
    rows = ["S → I", "I → love", "love → you", "you → .", ". → E"]
    assert layout["yaxis"]["ticktext"] == rows and layout["yaxis"].get("showticklabels", True)
    assert all(layout[f"yaxis{k}"]["showticklabels"] is False for k in range(2, n_heads + 1))  # rows named once
    assert layout["height"] >= 5 * 30  # readable cells: about 30 px a row


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_selected_statistics_row_opens_that_head(lang):
    at = open_app(lang, ATTN, attn_heads="grid")
    translator = at.session_state.model.translator
    table = stats_table(at)
    pairs = at.session_state.pairs
    assert len(pairs) > MAX_STUDY_PAIRS  # the corpus a tab starts on: the page measures its first MAX_STUDY_PAIRS
    study = study_heads(translator, pairs[:MAX_STUDY_PAIRS])
    scope = at.radio(key="attn_scope")
    assert scope.format_func(scope.value) == s("attn.scope_dataset_first", lang).format(
        n=MAX_STUDY_PAIRS, total=len(pairs)
    )
    assert len(table) == translator.config.n_layers * translator.config.n_heads == 8
    assert list(table.iloc[:, 0]) == [1, 1, 1, 1, 2, 2, 2, 2] and list(table.iloc[:, 1]) == [1, 2, 3, 4] * 2
    previous = table[s("attn.stat_previous", lang)]
    assert np.allclose(previous, [st.previous for st in study.stats["dec_enc"]])
    assert s("attn.stat_alignment", lang) not in table  # no marks yet
    assert at.session_state[TABLE]["selection"]["rows"] == []  # all heads shown: no row is the open head

    at.session_state[TABLE] = {"selection": {"rows": [2], "columns": [], "cells": []}}  # layer 1, head 3
    at.run()
    assert not at.exception
    assert (at.selectbox(key="attn_layer").value, at.selectbox(key="attn_head").value) == (0, 2)
    assert at.radio(key="attn_heads").value == "one"
    spec = chart_spec(at, CHART)
    title = f"{s('attn.layer', lang)} 1 · {s('attn.head', lang)} 3"
    assert spec["layout"]["title"]["text"].endswith(title)
    own = translator.inspect("我 喜 欢 你", "I love you .").maps.dec_enc_attns[0][0, 2]
    assert np.allclose(heat(spec), own.numpy(), atol=1e-4)
    assert at.session_state[TABLE]["selection"]["rows"] == [2]

    at.selectbox(key="attn_layer").set_value(1).run()  # the old selection does not pull the head back
    assert (at.selectbox(key="attn_layer").value, at.selectbox(key="attn_head").value) == (1, 2)
    assert at.session_state[TABLE]["selection"]["rows"] == [6]  # the table follows the head shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_alignment_marks_give_every_head_a_score(lang):
    marks = [(0, 0), (1, 1)]  # S → I on 我, I → love on 喜
    at = open_app(lang, ATTN, attn_marks=marks)
    assert not at.exception
    spec = chart_spec(at, CHART)  # layer 2, head 1
    assert outlined(spec) == marks
    a = heat(spec)
    alignment = s("attn.stat_alignment", lang)
    table = stats_table(at)
    assert table[alignment].iloc[4] == pytest.approx((a[0, 0] + a[1, 1]) / 2, abs=1e-3)
    assert table[alignment].between(0, 1).all()
    assert at.selectbox(key="attn_stat").value == "alignment"

    at.multiselect(key="attn_marks").select((3, 3)).run()  # the keyboard path: you → . on 你
    assert outlined(chart_spec(at, CHART)) == [*marks, (3, 3)]
    table = stats_table(at)
    assert table[alignment].iloc[4] == pytest.approx((a[0, 0] + a[1, 1] + a[3, 3]) / 3, abs=1e-3)

    at.radio(key="attn_kind").set_value("enc_self").run()  # another kind and back keeps the marks
    at.radio(key="attn_kind").set_value("dec_enc").run()
    assert at.session_state.attn_marks == [*marks, (3, 3)]

    at.button(key="clear_marks_button").click().run()
    assert at.session_state.attn_marks == [] and outlined(chart_spec(at, CHART)) == []
    assert alignment not in stats_table(at)

    at.multiselect(key="attn_marks").select((0, 0)).run()
    at.selectbox(key="pick_attn_pair").set_value(1).run()  # marks belong to their sentence
    assert at.session_state.attn_marks == [] and not at.exception


def test_a_one_layer_one_head_model_on_a_one_pair_dataset_keeps_every_value_in_range(tiny):
    kept = dict(  # values kept from the bundled model and dataset, all out of range now
        attn_layer=1,
        attn_head=3,
        attn_heads="one",
        attn_kind="dec_self",
        attn_epoch=60,
        attn_film_pair=("我喜欢猫", "I love cats ."),
        attn_scope="sentence",
        attn_stat="diagonal",
        attn_marks=[(8, 6)],
    )
    at = open_app("en", ATTN, model=tiny_model(tiny), pairs=[PAIRS[0]], **kept)
    assert not at.exception
    assert at.selectbox(key="attn_layer").options == ["1"] and at.selectbox(key="attn_layer").value == 0
    assert at.selectbox(key="attn_head").value == 0
    assert at.select_slider(key="attn_epoch").value == 3  # the last snapshot
    assert at.selectbox(key="attn_film_pair").value == PAIRS[0]
    assert at.selectbox(key="attn_stat").value == "previous"  # no diagonal in decoder self-attention
    assert len(stats_table(at)) == 1
    for mode in ("grid", "average"):
        at.radio(key="attn_heads").set_value(mode).run()
        assert not at.exception
    at.radio(key="attn_kind").set_value("dec_enc").run()
    assert at.session_state.attn_marks == [] and not at.exception
    at.radio(key="attn_scope").set_value("dataset").run()
    assert not at.exception and len(stats_table(at)) == 1


def test_a_typed_sentence_without_a_dataset_measures_that_sentence(tiny):
    model = tiny_model(tiny)
    model.snapshots, model.snapshot_pairs, model.source = [], [], "uploaded"
    at = open_app("zh", ATTN, model=model, pairs=[], attn_scope="dataset")
    assert not at.exception
    assert at.radio(key="attn_scope").options == [s("attn.scope_sentence", "zh")]
    assert len(stats_table(at)) == 1
    assert s("attn.no_snapshots", "zh") in texts(at, "info")


def test_the_film_strip_follows_the_pair_picked_at_the_top(tiny):
    at = open_app("en", ATTN, model=tiny_model(tiny), pairs=PAIRS)
    assert at.selectbox(key="attn_film_pair").value == PAIRS[0]
    at.selectbox(key="pick_attn_pair").set_value(2).run()  # recorded: the film follows
    assert at.selectbox(key="attn_film_pair").value == PAIRS[2]
    assert not [i for i in texts(at, "info") if "not recorded" in i]
    rows = chart_spec(at, "attn_epoch_chart")["layout"]["yaxis"]["ticktext"]
    assert rows == ["S → I", "I → have", "have → a", "a → cat", "cat → .", ". → E"]

    at.selectbox(key="pick_attn_pair").set_value(1).run()  # not recorded: say which pairs were
    (note,) = [i for i in texts(at, "info") if "not recorded" in i]
    assert "我 喜 欢 你 → I love you ." in note and "我 有 猫 → I have a cat ." in note
    assert "你 喜 欢 猫" not in note
    assert at.selectbox(key="attn_film_pair").value == PAIRS[2]  # the film keeps what it showed


# ---------------------------------------------------------------- the figure helpers behind the page


def test_decoder_row_labels_pair_each_input_with_its_prediction():
    assert decoder_row_labels(["S", "I", "love"], ["I", "love", "E"]) == ["S → I", "I → love", "love → E"]
    with pytest.raises(ValueError, match="3 decoder inputs but 2"):
        decoder_row_labels(["S", "I", "love"], ["I", "love"])


def test_a_clickable_attention_figure_reads_a_click_back_as_its_cell_and_outlines_marks():
    attn = np.full((3, 2), 0.5)
    fig = attention_figure(attn, ["S → a", "a → b", "b → E"], ["x", "y"], marks=[(2, 1), (0, 0)], clickable=True)
    heatmap, clicks = fig.data
    assert heatmap.hoverinfo == "skip" and clicks.marker.opacity == 0  # the invisible markers carry the hover
    assert list(zip(clicks.y, clicks.x)) == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    point = {"customdata": list(clicks.customdata[3])}  # as Streamlit reports a click on cell (1, 1)
    assert clicked_cell({"points": [point]}) == (1, 1)
    assert clicked_cell({"points": []}) is None and clicked_cell(None) is None
    assert outlined(json.loads(fig.to_json())) == [(0, 0), (2, 1)]
    with pytest.raises(ValueError, match="marks must be cells"):
        attention_figure(attn, ["a", "b", "c"], ["x", "y"], marks=[(3, 0)])


def test_frame_head_moves_the_frame_of_the_small_multiples():
    fig = head_patterns_figure(np.full((2, 3, 2, 2), 0.5), chosen=(0, 0))
    frame_head(fig, (1, 2))
    (shape,) = fig.layout.shapes
    chosen = [tr for tr in fig.data if tr.type == "heatmap" and list(tr.meta) == [1, 2]][0]
    assert (shape.xref, shape.yref) == (f"{chosen.xaxis} domain", f"{chosen.yaxis} domain")
    assert frame_head(fig, None).layout.shapes == ()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_previous_column_says_what_a_perfect_previous_token_head_scores_here(lang):
    at = open_app(lang, ATTN, attn_kind="dec_self")
    pairs = at.session_state.pairs[:MAX_STUDY_PAIRS]  # the pairs the page studies
    stats = study_heads(at.session_state.model.translator, pairs).stats["dec_self"]
    lengths = [len(tokenize(t)) + 1 for _, t in pairs]  # S and the target's tokens: the decoder's real positions
    perfect = sum(n - 1 for n in lengths) / sum(lengths)  # (L − 1)/L, averaged over every real position
    assert stats[0].previous_perfect == pytest.approx(perfect)
    assert all(st.previous <= perfect + 1e-6 for st in stats)
    said = next(m for m in texts(at, "markdown") if s("attn.stat_previous", lang) in m and "(L − 1)/L" in m)
    assert f"{perfect:.2f}" in said and ("scores close to 1" not in said)
    assert (" not 1:" in said) if lang == "en" else ("而不是 1" in said)


def test_a_page_switch_back_redraws_the_figures_built_for_this_model_and_view_and_a_new_view_gets_its_own():
    at = open_app("en", ATTN)
    first, grid = chart_spec(at, CHART), chart_spec(at, "click_attn_stat")
    built = at.session_state.model.values(CacheKind.ATTN_FIGURE)
    at.switch_page("pages/data.py").run()
    at.switch_page(ATTN).run()
    assert not at.exception
    assert chart_spec(at, CHART) == first and chart_spec(at, "click_attn_stat") == grid  # the same figures, drawn again
    assert at.session_state.model.values(CacheKind.ATTN_FIGURE) == built  # not built again

    at.selectbox(key="attn_head").set_value(2).run()  # another view: its own figure, the model's own weights
    own = at.session_state.model.translator.inspect("我 喜 欢 你", "I love you .").maps.dec_enc_attns[1][0, 2]
    assert np.allclose(heat(chart_spec(at, CHART)), own.numpy(), atol=1e-4)
    title = f"{s('attn.layer', 'en')} 2 · {s('attn.head', 'en')} 3"
    assert chart_spec(at, CHART)["layout"]["title"]["text"].endswith(title)
    at.switch_page("pages/data.py").run()
    at.session_state["lang"] = "zh"  # another language: the titles in Chinese
    at.switch_page(ATTN).run()
    title = f"{s('attn.layer', 'zh')} 2 · {s('attn.head', 'zh')} 3"
    assert chart_spec(at, CHART)["layout"]["title"]["text"].endswith(title)


def test_a_second_tabs_first_visit_finds_the_bundled_models_head_statistics_and_frames_its_own_head(monkeypatch):
    import transformer.heads

    studied = []
    real = transformer.heads.study_heads
    monkeypatch.setattr(transformer.heads, "study_heads", lambda *a: studied.append(a) or real(*a))
    first = open_app("en", ATTN, attn_kind="dec_self", attn_scope="dataset")  # computed here, or by an earlier tab
    before = len(studied)
    second = open_app("en", ATTN, attn_kind="dec_self", attn_scope="dataset", attn_layer=0, attn_head=1)
    assert not second.exception and len(studied) == before  # the 200 pairs were not studied again
    assert stats_table(second).equals(stats_table(first))
    # the head-patterns figure is each tab's own: each frames its own open head, on the page and in its lesson sheet
    assert [framed_head(chart_spec(at, "click_attn_patterns")) for at in (first, second)] == [[1, 0], [0, 1]]
    sheet = first.session_state["_lesson_sheet"]
    (patterns,) = [b for part in sheet.sections for b in part.blocks if isinstance(b, Chart) and heads_chart(b)]
    assert framed_head(json.loads(patterns.figure.to_json())) == [1, 0]


def heads_chart(block: Chart) -> bool:
    return block.caption.startswith(s("attn.patterns", "en"))


def framed_head(spec: dict) -> list[int]:
    """The [layer, head] whose map the one red frame on a head-patterns figure surrounds."""
    (frame,) = [sh for sh in spec["layout"].get("shapes", []) if sh.get("line", {}).get("color") == CHOSEN_COLOR]
    (head,) = [
        tr["meta"]
        for tr in spec["data"]
        if tr["type"] == "heatmap"
        and (f"{tr['xaxis']} domain", f"{tr['yaxis']} domain") == (frame["xref"], frame["yref"])
    ]
    return head
