"""The Decoding page's strategies through AppTest: greedy, beam search, sampling, choosing the next word yourself,
teacher forcing vs free running; stale widget values; user text shown literally."""

from __future__ import annotations

import json
import re

import pytest
import torch

from tests.apptest_helpers import open_app, open_link, texts
from tests.conftest import random_translator
from transformer import TrainConfig, Translator, train
from transformer.config import MAX_STUDY_PAIRS
from transformer.text import markdown
from ui.model_cache import CurrentModel
from ui.strings import STRINGS
from viz.decoding import FORCED_COLOR, TREE_PX

DEC = "pages/decoding.py"
TINY = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 1}


def chart(at, key: str) -> dict:
    """The parsed plotly spec of the chart drawn with key=key."""
    found = [el for el in at.get("plotly_chart") if el.proto.id.endswith(f"-{key}")]
    assert len(found) == 1, f"{len(found)} charts with key {key!r}"
    return json.loads(found[0].proto.spec)


def source(at, kind: str) -> list[str]:
    """The markdown source of every element of one kind, escapes and all (texts() may show it as read)."""
    return [e.value for e in getattr(at, kind)]


def table(at, index: int = 0):
    return at.dataframe[index].value


def joined(at) -> str:
    return "\n".join(texts(at, "markdown") + texts(at, "info") + texts(at, "warning") + texts(at, "success"))


def test_every_strategy_draws_in_chinese_too():  # the English pages are drawn by the tests below
    lang = "zh"
    at = open_app(lang, DEC)  # greedy
    for strategy in ("beam", "sample", "choose", "teacher"):
        at.radio(key="dec_strategy").set_value(strategy).run()
        assert not at.exception and not at.error, strategy
        assert at.title[0].value == STRINGS["dec.title"][lang]
        label = STRINGS[f"dec.s_{strategy}"][lang]
        assert at.radio(key="dec_strategy").format_func(strategy) == label


def test_beam_search_shows_the_tree_the_n_best_and_when_it_beats_greedy():
    # greedy breaks the agreement (Do he …), beam search does not
    at = open_app(page=DEC, dec_strategy="beam", pick_dec_mode="typed", pick_dec_text="他有三个苹果吗")
    assert at.slider(key="dec_beam_size").value == 4 and at.slider(key="dec_alpha").value == pytest.approx(0.6)
    tree = chart(at, "dec_beam_tree")
    names = {trace.get("name") for trace in tree["data"]}
    assert {"kept", "pruned", "finished (E)", "best hypothesis"} <= names
    boxes = [a["text"].split("<br>")[0] for a in tree["layout"]["annotations"]]  # each node's token, over its score
    assert {"S", "Do", "Does", "have"} <= set(boxes)  # whole tokens
    best = table(at)
    assert list(best["rank"]) == [1, 2, 3, 4]
    assert list(best["score (with length penalty)"]) == sorted(best["score (with length penalty)"], reverse=True)
    assert best["translation"][0] == "Does he have three apples ?"
    beats = [s for s in source(at, "info") if s.startswith("Beam search beats greedy here")]
    assert beats and markdown("Do he have three apples ?") in beats[0]
    assert markdown("Does he have three apples ?") in beats[0]

    at.slider(key="dec_beam_size").set_value(1)  # one beam without a length penalty is greedy decoding
    at.slider(key="dec_alpha").set_value(0.0).run()
    assert list(table(at)["translation"]) == ["Do he have three apples ?"]
    assert any(s.startswith("Greedy decoding finds the same translation") for s in texts(at, "info"))


def test_a_beam_tree_wider_than_the_page_keeps_its_width_in_a_box_that_scrolls():
    at = open_app(page=DEC, dec_strategy="beam", pick_dec_mode="typed", pick_dec_text="你好")
    at.slider(key="dec_beam_size").set_value(1).run()
    assert chart(at, "dec_beam_tree")["layout"].get("width") is None  # one beam fits the page: no box of its own
    assert not [h for h in at.get("html") if "dec_beam_tree_box" in h.proto.body]
    at.slider(key="dec_beam_size").set_value(10).run()
    at.text_input(key="pick_dec_text").set_value("我的朋友们每天都不喝茶吗").run()
    width = chart(at, "dec_beam_tree")["layout"]["width"]
    assert width > TREE_PX
    css = [h.proto.body for h in at.get("html") if "dec_beam_tree_box" in h.proto.body]
    assert len(css) == 1 and "overflow-x: auto" in css[0] and f"min-width: {width}px" in css[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_beam_search_says_pruned_only_when_it_pruned_greedys_path(pairs20, lang):
    translator = random_translator(
        pairs20, 3, 5
    )  # K = 2 prunes greedy's path at step 4 (tests/transformer/test_decoding_strategies.py)
    at = open_app(lang, DEC, model=CurrentModel(translator, "uploaded"), pairs=pairs20, dec_strategy="beam")
    at.session_state.pick_dec_mode, at.session_state.pick_dec_text = "typed", "他们去公园"
    at.slider(key="dec_beam_size").set_value(2).run()
    greedy = translator.translate("他们去公园").text
    best = table(at)[STRINGS["dec.translation"][lang]][0]
    [said] = texts(at, "info")
    if lang == "en":
        assert said.startswith("Beam search is not exact: greedy gives")
        assert "pruned greedy's path at step 4, where at least 2 other candidates ranked above it" in said
    else:
        assert "束搜索在第 4 步剪掉了贪心的路径，那一步至少有 2 个其他候选排在它前面" in said
    assert f"**{greedy}**" in said and f"**{best}**" in said
    at.slider(key="dec_beam_size").set_value(4).run()  # four beams keep greedy's path, and find a better translation
    [said] = texts(at, "info")
    assert said.startswith(STRINGS["dec.beam_better"][lang].split("{")[0]) and f"**{greedy}**" in said
    assert "prun" not in said and "剪" not in said
    for case in ("same", "tie", "better", "pruned", "stopped"):  # every case against_greedy can give has its words
        assert f"dec.beam_{case}" in STRINGS


def test_beam_search_against_greedy_over_the_dataset():
    at = open_app(page=DEC, dec_strategy="beam")  # a tab starts on the corpus: the comparison offers its first pairs
    n = len(at.session_state.pairs)
    assert at.toggle(key="dec_beam_table").label == f"Compare on the first {MAX_STUDY_PAIRS} of the {n} pairs"
    at = open_app(page=DEC, dec_strategy="beam", data_dataset="tutorial")
    n = len(at.session_state.pairs)
    assert at.toggle(key="dec_beam_table").label == f"Compare on all {n} pairs"
    at.toggle(key="dec_beam_table").set_value(True).run()
    assert not at.exception
    compared = table(at, 1)
    assert len(compared) == n
    assert set(compared["greedy = reference"]) == {"✓"}  # the bundled model translates every bundled pair
    assert list(compared["greedy"]) == list(compared["reference"])
    assert any(f"**0 of {n}**" in s for s in texts(at, "markdown"))


def test_sampling_shows_the_distribution_before_and_after_each_setting():
    at = open_app(page=DEC, dec_strategy="sample", pick_dec_mode="typed", pick_dec_text="个师")
    assert [c.value for c in at.caption if c.value.startswith("seed ")] == ["seed 0", "seed 1", "seed 2"]
    at.slider(key="dec_temperature").set_value(3.0).run()
    model, tempered, final = (trace["x"] for trace in chart(at, "dec_sampling")["data"])
    assert max(tempered) < max(model)  # a high temperature flattens the distribution
    assert final == pytest.approx(tempered, abs=1e-6)  # top-k 0 and top-p 1 cut nothing
    first = [s for s in texts(at, "markdown") if s.startswith("**")]
    at.slider(key="dec_top_k").set_value(2).run()
    _, tempered, final = (trace["x"] for trace in chart(at, "dec_sampling")["data"])
    assert sum(p > 0 for p in final) <= 2 and sum(final) == pytest.approx(1.0, abs=1e-3)
    at.slider(key="dec_top_k").set_value(0).run()  # back to the same settings: the same samples
    assert [s for s in texts(at, "markdown") if s.startswith("**")] == first
    at.number_input(key="dec_seed").set_value(7).run()
    assert [c.value for c in at.caption if c.value.startswith("seed ")] == ["seed 7", "seed 8", "seed 9"]


def test_choosing_a_token_forces_it_and_decoding_continues_from_there():
    at = open_app(page=DEC, dec_strategy="choose")
    vocab = at.session_state.model.translator.tgt_vocab
    assert at.selectbox(key="dec_force_pick").value == vocab.stoi["I"]  # the model's own choice
    at.selectbox(key="dec_force_pick").set_value(vocab.stoi["You"])
    at.button(key="force_token").click().run()
    assert not at.exception
    assert at.session_state.dec_prefix == [vocab.stoi["You"]]
    assert at.session_state.dec_step == 2  # the step after the forced token: what the decoder does with it
    line = next(s for s in texts(at, "markdown") if "Decoder input so far" in s)
    assert ":gray-badge[S] :gray-badge[You]" in line
    assert ":violet-badge[You]" in joined(at)  # the forced word stands out in the output
    at.session_state.dec_step = 1
    at.run()
    spec = chart(at, "choose_topk")
    assert FORCED_COLOR in spec["data"][0]["marker"]["color"]
    assert any("the model itself would have chosen I" in c.value for c in at.caption)
    at.button(key="clear_forced").click().run()
    assert at.session_state.dec_prefix == []
    assert ":violet-badge" not in joined(at)


def test_teacher_forcing_against_free_running():
    at = open_app(page=DEC, dec_strategy="teacher")
    assert any(s.startswith("Free running follows the reference all the way") for s in texts(at, "success"))
    assert list(table(at)["reference token"]) == ["I", "love", "you", ".", "E"]

    at.radio(key="pick_dec_mode").set_value("typed").run()
    at.text_input(key="pick_dec_text").input("我喜欢猫").run()
    assert any("Type a reference translation" in s for s in texts(at, "info"))
    at.text_input(key="dec_reference").input("I like dogs very much .").run()
    assert not at.exception
    unknown = " ".join(texts(at, "warning"))
    assert "very, much" in unknown and "target vocabulary" in unknown
    assert any(
        "part ways at position 3: free running chose cats where the reference has dogs" in s
        for s in texts(at, "warning")
    )
    rows = table(at)
    assert list(rows["reference token"]) == ["I", "like", "dogs", "very (?)", "much (?)", ".", "E"]
    assert list(rows["free = reference"])[:4] == ["✓", "✓", "✗ parts here", "…"]


def test_unknown_source_words_are_shown_as_typed_and_marked():
    at = open_app(page=DEC, pick_dec_mode="typed", pick_dec_text="我喜欢龙")
    assert any("龙" in w for w in texts(at, "warning"))
    assert chart(at, "dec_cross")["layout"]["xaxis"]["ticktext"] == ["我", "喜", "欢", "龙 (?)"]


def test_unknown_words_of_a_dataset_reference_are_flagged():
    at = open_app(page=DEC, pairs=[("我喜欢猫", "I love kittens .")])  # the bundled model never saw "kittens"
    assert any("target vocabulary" in w and "kittens" in w for w in texts(at, "warning"))
    at.slider(key="dec_step").set_value(5).run()
    assert "Reference: " + markdown("I love kittens (?) .") + " ✗" in source(at, "markdown")


def test_values_kept_from_a_bigger_model_never_crash_the_page():
    at = open_app(page=DEC)  # the bundled model: 88 target tokens, 2 layers
    big = {  # per strategy, the widgets set to values the small model below cannot take
        "greedy": [("slider", "dec_k", 15), ("selectbox", "dec_layer", 1)],
        "beam": [("slider", "dec_beam_size", 10)],
        "sample": [("slider", "dec_top_k", 80), ("slider", "dec_samples", 6), ("selectbox", "dec_sample_pick", 5)],
    }
    for strategy, widgets in big.items():
        at.radio(key="dec_strategy").set_value(strategy).run()
        for kind, key, value in widgets:
            getattr(at, kind)(key=key).set_value(value).run()
    assert at.session_state.dec_k == 15 and at.session_state.dec_top_k == 80

    pairs = [("我 喜 欢 你", "I love you .")]  # a target vocabulary of 8 tokens, a single layer
    small = Translator.create(pairs, seed=0, **TINY)
    for _ in train(small, pairs, TrainConfig(epochs=60)):  # it learns to say E, so every strategy ends soon
        pass
    at.session_state.model = CurrentModel(small, "uploaded")
    at.session_state.pairs = pairs
    for strategy in ("greedy", "beam", "sample", "choose", "teacher"):
        at.radio(key="dec_strategy").set_value(strategy).run()
        assert not at.exception, (strategy, at.exception)
        if strategy in ("greedy", "choose"):
            assert at.slider(key="dec_k").value == 8 and at.selectbox(key="dec_layer").value == 0
        if strategy == "sample":
            assert at.slider(key="dec_top_k").value == 6  # the 8 tokens but P and S
            assert at.selectbox(key="dec_sample_pick").value == 5


def test_vocabulary_text_is_shown_literally():
    pairs = [("我 喜 欢 你", "I `love` **you** .")]  # backticks and asterisks are tokens of this vocabulary
    translator = Translator.create(pairs, seed=0, **TINY)
    vocab = translator.tgt_vocab
    with torch.no_grad():  # the model always says "`"
        translator.model.projection.weight.zero_()
        translator.model.projection.weight[vocab.stoi["`"]] = 1.0
        translator.model.decoder.layers[-1].norm3.bias.fill_(1.0)
    at = open_app(page=DEC, model=CurrentModel(translator, "uploaded"), pairs=pairs)
    at.slider(key="dec_step").set_value(50).run()  # the last step: E never came
    assert not at.exception
    shown = [s for s in source(at, "markdown") if "badge[" in s or s.startswith("Reference")]
    assert len(shown) >= 3 and any("Reference" in s for s in shown)
    for text in shown:
        assert not re.search(r"(?<!\\)[`*]", text), text  # every backtick and asterisk escaped
    assert any(markdown(" ".join(["`"] * 50)) in s for s in source(at, "success"))


@pytest.mark.parametrize(
    ("query", "notice"),
    [
        (
            {"strategy": "sample", "temperature": "1e-40", "seed": "18446744073709551616"},
            "temperature=1e-40 → 0.1; seed=18446744073709551616 → 1000000.",
        ),
        ({"strategy": "sample", "temperature": "5e-324", "seed": "-1"}, "temperature=5e-324 → 0.1; seed=-1 → 0."),
        ({"strategy": "sample", "temperature": "1e308"}, "temperature=1e308 → 3.0."),
        ({"strategy": "beam", "alpha": "4000", "beam": "99"}, "beam=99 → 10; alpha=4000 → 2.0."),
        ({"strategy": "beam", "alpha": "1e400"}, "alpha=1e400 → the default."),
    ],
    ids=["tiny-temperature-huge-seed", "smallest-temperature-negative-seed", "huge-temperature", "huge-alpha", "inf"],
)
def test_the_command_lines_bad_decoding_values_in_a_link_are_replaced_with_a_notice(query, notice):
    at = open_link(DEC, query)  # the page's own controls are bounded sliders and boxes: a link is the way in
    assert not at.exception and not at.error
    assert [w for w in texts(at, "warning") if w.startswith("Some values in this link")] == [
        f"Some values in this link do not fit here and were replaced: {notice}"
    ]
    assert at.session_state.dec_strategy == query["strategy"]
    assert any(e for e in at.get("plotly_chart"))  # the strategy's chart is drawn with the replaced values


@pytest.mark.parametrize("strategy", ["greedy", "choose"])
def test_a_rerun_of_a_step_builds_neither_of_its_figures_again(monkeypatch, strategy):
    import viz.attention
    import viz.decoding

    at = open_app("en", "pages/decoding.py", dec_strategy=strategy)
    charts = {el.proto.id: el.proto.spec for el in at.get("plotly_chart")}
    built = []
    for module, name in ((viz.decoding, "topk_figure"), (viz.attention, "source_attention_figure")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _real=real, _name=name, **k: built.append(_name) or _real(*a, **k))
    at.run()
    assert not at.exception
    assert {el.proto.id: el.proto.spec for el in at.get("plotly_chart")} == charts  # drawn again, the same
    assert built == []
    at.slider(key="dec_k").set_value(3).run()  # another view of the step: its bars are built for it
    assert built == ["topk_figure"]
