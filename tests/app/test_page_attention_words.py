"""The Attention page at the level of words (issue 40 §4): a BPE model's encoder–decoder map drawn with its pieces
grouped into the words gold links count, the gold drawn over it and the page saying which level it shows; the pieces
as the model reads them one click away; a model whose tokens are words says so."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.test_page_attention_alignment import GOLDS, PAIRS, s
from tests.apptest_helpers import APP, chart_spec, open_app, texts
from transformer import Translator, alignment
from transformer.bpe import learn_bpe
from transformer.config import TrainConfig
from transformer.train import train
from transformer.words import word_map
from ui.model_cache import CurrentModel

ATTN = "pages/attention.py"


@pytest.fixture(scope="module")
def bpe_model():
    bpe = learn_bpe(PAIRS, 60)
    translator = Translator.create(PAIRS, bpe, seed=2, d_model=16, n_heads=2, d_ff=32, n_layers=1)
    list(train(translator, PAIRS, TrainConfig(epochs=3)))
    return translator


@pytest.fixture
def gold(monkeypatch):
    monkeypatch.setattr(alignment, "corpus_gold", lambda pairs, tokenizer="auto": [GOLDS.get(p) for p in pairs])


def _captions(at) -> str:
    return " ".join(texts(at, "caption"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bpe_models_map_is_drawn_at_the_word_level_with_its_gold_and_says_so(bpe_model, gold, lang):
    model = CurrentModel(bpe_model, "trained")
    at = open_app(lang, ATTN, pairs=list(PAIRS), model=model, attn_layer=0, attn_head=0)
    assert not at.exception
    source, target = PAIRS[0]
    words = word_map(bpe_model.tokenizer, source), word_map(bpe_model.tokenizer, target)
    assert not (words[0].same and words[1].same)  # the model reads pieces other than the words
    assert at.radio(key="attn_level").value == "words"
    assert s("attn.level_shown_words", lang).split("{")[0].strip() in _captions(at)
    spec = chart_spec(at, "click_attn_chart")
    assert list(spec["layout"]["xaxis"]["ticktext"]) == list(words[0].words)  # source words: 我 爱 你, not pieces
    assert len(spec["layout"]["yaxis"]["ticktext"]) == len(words[1].words) + 1  # a row per target word, and E's
    (sure,) = [tr for tr in spec["data"] if tr.get("name") == s("attn.gold_sure", lang)]
    assert sorted(map(tuple, sure["meta"]["links"])) == sorted(GOLDS[PAIRS[0]].sure)  # the gold, on words
    at.radio(key="attn_level").set_value("pieces").run()
    assert not at.exception
    assert s("attn.level_shown_pieces", lang) in _captions(at)
    spec = chart_spec(at, "click_attn_chart")
    assert list(spec["layout"]["xaxis"]["ticktext"]) == list(words[0].pieces)
    assert not [tr for tr in spec["data"] if tr.get("name") == s("attn.gold_sure", lang)]  # gold indexes words


def test_a_bpe_model_gets_its_aer_table_on_words(bpe_model, gold):
    at = open_app("en", ATTN, pairs=list(PAIRS), model=CurrentModel(bpe_model, "trained"))
    assert not at.exception
    chart_spec(at, "attn_aer_grid")  # drawn: the gold of words scores a model of pieces
    assert s("attn.aligns_no_gold", "en") not in texts(at, "info")
    assert "No method can score below" not in " ".join(texts(at, "markdown"))  # no floor stated for pieces


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_model_whose_tokens_are_words_says_its_level_without_a_choice(lang):
    at = open_app(lang, ATTN)  # the bundled model: 'auto' tokens
    assert not at.exception
    assert s("attn.level_same", lang) in _captions(at)
    assert not [r for r in at.radio if r.key == "attn_level"]


def test_the_level_travels_in_the_link(bpe_model, gold):
    model = CurrentModel(bpe_model, "trained")
    at = open_app("en", ATTN, pairs=list(PAIRS), model=model, attn_layer=0, attn_head=0)
    at.radio(key="attn_level").set_value("pieces").run()
    query = dict(at.query_params)
    assert query["level"] == "pieces"
    fresh = AppTest.from_file(APP, default_timeout=120)  # a new tab with the same model, opened on the link
    fresh.session_state["pairs"], fresh.session_state["model"] = list(PAIRS), model
    for key, value in query.items():
        fresh.query_params[key] = value
    fresh.switch_page(ATTN)
    fresh.run()
    assert not fresh.exception
    assert fresh.radio(key="attn_level").value == "pieces"
    assert chart_spec(fresh, "click_attn_chart")["data"] == chart_spec(at, "click_attn_chart")["data"]
