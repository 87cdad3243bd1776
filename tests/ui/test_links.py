"""Links to a view: every page's state goes into the URL, a fresh tab opened on it shows the same widgets and charts,
and bad or hostile values fall back to the defaults with a notice, never an exception (issue 13.1)."""

from __future__ import annotations

import json

import pytest

from tests.apptest_helpers import open_app, open_link, texts

PE, MASKS, ATTN_PAGE, DEC_PAGE = (f"pages/{p}.py" for p in ("positional_encoding", "masks", "attention", "decoding"))


def _charts(at) -> dict[str, dict]:
    """Every chart's data by its key (layout aside: sizes may differ between runs)."""
    return {el.proto.id.rsplit("-", 1)[-1]: json.loads(el.proto.spec)["data"] for el in at.get("plotly_chart")}


CLICK = object()  # the value that clicks a button
WIDGET_KINDS = ("selectbox", "slider", "select_slider", "multiselect", "radio", "number_input", "button")


def _set(at, key: str, value) -> None:
    """Set the widget of this key to value (a function of the page for a value it depends on), or click a button."""
    widget = next((w for kind in WIDGET_KINDS for w in at.get(kind) if w.key == key), None)
    assert widget is not None, f"the page has no widget {key!r}"
    widget.click() if value is CLICK else widget.set_value(value(at) if callable(value) else value)


def _round_trip(page: str, settings: dict) -> tuple:
    """Set the page's widgets one run at a time, then open the link the page gives in a fresh tab."""
    at = open_app(page=page)
    for key, value in settings.items():
        _set(at, key, value)
        at.run()
    assert not at.exception
    query = dict(at.query_params)
    fresh = open_link(page, query)
    assert not fresh.exception
    return at, fresh, query


def test_positional_encoding_view_round_trips():
    at, fresh, query = _round_trip(
        PE,
        {"pe_d_model": 16, "pe_positions": 30, "pe_dims": [1, 4, 9]},
    )
    assert query["d_model"] == "16" and query["dims"] == "1,4,9" and query["positions"] == "30"
    assert fresh.select_slider(key="pe_d_model").value == 16
    assert fresh.multiselect(key="pe_dims").value == [1, 4, 9]
    assert _charts(fresh) == _charts(at)
    assert not fresh.warning  # the link was made with the bundled model, which a fresh tab has


def test_masks_view_with_a_dataset_pair_round_trips():
    at, fresh, query = _round_trip(
        MASKS,
        {"pick_masks_pair": 5, "mask_src_pad": 3, "mask_kind": "dec_enc", "mask_layer": 1, "mask_head": 2},
    )
    assert query["pair"] == at.session_state["pairs"][5][0] and query["kind"] == "dec_enc"
    for key in ("pick_masks_pair", "mask_layer", "mask_head"):
        assert fresh.selectbox(key=key).value == at.selectbox(key=key).value
    assert fresh.slider(key="mask_src_pad").value == 3
    assert _charts(fresh) == _charts(at)


def test_a_typed_sentence_and_the_language_travel_in_the_link():
    at = open_app("zh", page=MASKS)
    at.radio(key="pick_masks_mode").set_value("typed").run()
    at.text_input(key="pick_masks_text").input("他 喜 欢 猫").run()
    query = dict(at.query_params)
    assert query["text"] == "他 喜 欢 猫" and query["lang"] == "zh" and "pair" not in query
    fresh = open_link(MASKS, query)
    assert fresh.session_state["lang"] == "zh" and fresh.title[0].value == "掩码"
    assert fresh.text_input(key="pick_masks_text").value == "他 喜 欢 猫"
    assert _charts(fresh) == _charts(at)


HOSTILE = ["abc", "-1", "99999", "1e308", "nan", "", "$\\rule{3000px}{3000px}$", "<a href=x>y</a>", "1,2,x", "🙂" * 500]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_link_values_fall_back_with_a_notice(value):
    query = {name: value for name in ("d_model", "positions", "dims", "table", "lang", "model")}
    pe = open_link(PE, query)
    assert not pe.exception
    query = {name: value for name in ("mode", "pair", "text", "src_pad", "tgt_pad", "kind", "layer", "head")}
    masks = open_link(MASKS, query)
    assert not masks.exception
    notices = " ".join(texts(pe, "warning") + texts(masks, "warning"))
    if value not in ("", "-1"):  # an empty text is a fine sentence; -1 padding is clamped to 0 (noticed below)
        assert "were replaced" in notices or "not in this tab's sentence pairs" in notices


def test_a_link_to_a_missing_pair_and_another_model_is_said():
    fresh = open_link(MASKS, {"mode": "dataset", "pair": "这句不在数据里", "model": "0123abcd", "model_name": "mine"})
    warnings = " ".join(texts(fresh, "warning"))
    assert "not in this tab's sentence pairs" in warnings
    assert "This link was made with the model “mine” (0123abcd)" in warnings
    assert fresh.text_input(key="pick_masks_text").value == "这句不在数据里"


def test_an_out_of_range_layer_from_a_link_is_replaced_and_said():
    fresh = open_link(MASKS, {"v": "2", "layer": "7", "head": "3"})
    assert fresh.selectbox(key="mask_layer").value == 0 and fresh.selectbox(key="mask_head").value == 2
    assert any("layer=7 → 1" in w for w in texts(fresh, "warning"))  # said as the page and new links number it
    old = open_link(MASKS, {"layer": "7", "head": "2"})  # a link made before layers were numbered from 1
    assert old.selectbox(key="mask_layer").value == 0 and old.selectbox(key="mask_head").value == 2
    assert any("layer=7 → 1" in w for w in texts(old, "warning"))


@pytest.mark.parametrize(
    ("page", "layer", "head"), [(ATTN_PAGE, "attn_layer", "attn_head"), (MASKS, "mask_layer", "mask_head")]
)
def test_links_number_layers_and_heads_as_the_page_does_and_old_links_still_open_their_view(page, layer, head):
    at = open_app(page=page)
    at.selectbox(key=layer).set_value(0).run()
    at.selectbox(key=head).set_value(2).run()
    assert (at.selectbox(key=layer).format_func(0), at.selectbox(key=head).format_func(2)) == ("1", "3")
    query = dict(at.query_params)
    assert (query["v"], query["layer"], query["head"]) == ("2", "1", "3")  # what the page shows
    old = {k: v for k, v in query.items() if k != "v"} | {"layer": "0", "head": "2"}  # before: from 0, no v
    new_link, old_link = open_link(page, query), open_link(page, old)
    for fresh in (new_link, old_link):
        assert not fresh.exception and not fresh.warning
        assert (fresh.selectbox(key=layer).value, fresh.selectbox(key=head).value) == (0, 2)
        assert _charts(fresh) == _charts(at)
    assert dict(old_link.query_params)["layer"] == "1"  # and it is rewritten the new way


def test_the_link_holds_what_the_page_settled_on_after_its_widgets():
    # a new d_model spreads the dimensions over it again, below the widget: the link must carry the new ones
    at = open_app(page=PE)
    at.select_slider(key="pe_d_model").set_value(512).run()
    assert at.multiselect(key="pe_dims").value == [0, 1, 2, 3, 256, 257, 510, 511]
    query = dict(at.query_params)
    assert query["d_model"] == "512" and query["dims"] == "0,1,2,3,256,257,510,511"
    fresh = open_link(PE, query)
    assert fresh.multiselect(key="pe_dims").value == [0, 1, 2, 3, 256, 257, 510, 511]
    assert _charts(fresh) == _charts(at)


def test_a_forced_list_longer_than_decoding_goes_is_cut_with_a_notice():
    at = open_app(page=DEC_PAGE, dec_strategy="choose")
    token = at.session_state["dec_force_pick"]  # the model's own first choice
    fresh = open_link(DEC_PAGE, {"v": "2", "strategy": "choose", "forced": ",".join([str(token)] * 60)})
    assert not fresh.exception and fresh.session_state["dec_prefix"] == [token] * 50
    assert any("forced: the first 50 of 60" in w for w in texts(fresh, "warning"))
    assert dict(fresh.query_params)["forced"] == ",".join([str(token)] * 50)


INSIDE, ATTN, DEC, TRAIN, DATA = (f"pages/{p}.py" for p in ("inside", "attention", "decoding", "train", "data"))


def test_inside_the_model_view_round_trips():
    at, fresh, query = _round_trip(
        INSIDE,
        {"pick_inside_pair": 3, "inside_step": 40, "inside_query": 2, "inside_key": 1},
    )
    assert query["step"] == "40" and query["query"] == "2" and query["key"] == "1"
    assert fresh.slider(key="inside_step").value == 40
    assert (fresh.selectbox(key="inside_query").value, fresh.selectbox(key="inside_key").value) == (2, 1)
    assert _charts(fresh) == _charts(at)


def test_attention_view_round_trips():
    at, fresh, query = _round_trip(
        ATTN,
        {"pick_attn_pair": 7, "attn_kind": "dec_self", "attn_layer": 0, "attn_head": 3},
    )
    assert query["kind"] == "dec_self" and query["layer"] == "1" and query["head"] == "4"  # as the page shows them
    for key in ("pick_attn_pair", "attn_layer", "attn_head"):
        assert fresh.selectbox(key=key).value == at.selectbox(key=key).value
    assert _charts(fresh)["click_attn_chart"] == _charts(at)["click_attn_chart"]


@pytest.mark.parametrize("strategy", ["greedy", "beam", "sample", "choose"])
def test_decoding_view_round_trips(strategy):
    settings = {"dec_strategy": strategy} | {
        "greedy": {"dec_step": 3},
        "beam": {"dec_beam_size": 3},
        "sample": {"dec_temperature": 1.7, "dec_seed": 5},
        "choose": {"dec_force_pick": lambda at: at.session_state["dec_force_pick"] + 1, "force_token": CLICK},
    }[strategy]
    at, fresh, query = _round_trip(DEC, settings)
    assert query["strategy"] == strategy
    if strategy == "choose":
        assert query["forced"] and fresh.session_state["dec_prefix"] == at.session_state["dec_prefix"]
    assert _charts(fresh) == _charts(at)


def test_train_settings_travel_in_a_link():
    at, fresh, query = _round_trip(
        TRAIN,
        {"d_model": 32, "epochs": 120, "holdout": 0.2},
    )
    assert (query["d_model"], query["epochs"], query["holdout"]) == ("32", "120", "0.2")
    assert fresh.select_slider(key="d_model").value == 32 and fresh.slider(key="epochs").value == 120
    assert fresh.select_slider(key="holdout").value == 0.2


def test_hostile_train_settings_fall_back():
    fresh = open_link(TRAIN, {"d_model": "1000000", "n_layers": "-5", "lr": "nan", "epochs": "1e9", "seed": "-1"})
    assert not fresh.exception
    assert fresh.select_slider(key="d_model").value == 64 and fresh.slider(key="n_layers").value == 1
    assert any("were replaced" in w for w in texts(fresh, "warning"))
