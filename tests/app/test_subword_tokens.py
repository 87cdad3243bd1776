"""Subword tokens across pages (AppTest): BPE chosen on the Data page shows words split into pieces and the piece
vocabulary, a bad vocabulary size is one error that keeps the pieces, and a model trained with it shows its
translations joined back into text."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest_helpers import APP, finish_job, open_app, texts
from tests.transformer.test_bpe import PAIRS  # the pairs whose pieces test_bpe pins
from transformer.bpe import MARK, Bpe, join_pieces, learn_bpe
from ui.session import MEMO_PREFIX

BPE_MEMO = MEMO_PREFIX + "bpe"  # (its key: (size, pairs), the tokenizer learned)
TINY = dict(d_model=16, n_heads=2, d_ff=32, n_layers=1, epochs=5)


def _on_bpe(lang: str = "en", size: int = 35):
    at = open_app(lang, page="pages/data.py", data_dataset="own", pairs=list(PAIRS), editor_base=list(PAIRS))
    at.selectbox(key="tokenizer").set_value("bpe").run()
    at.number_input(key="bpe_vocab_size").set_value(size).run()
    assert not at.exception
    return at


def _frame(at, column: str):
    """The first table with this column."""
    return next(f.value for f in at.dataframe if column in list(f.value.columns))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_data_page_shows_words_split_into_pieces_and_the_piece_vocabulary(lang):
    at = _on_bpe(lang)
    bpe = learn_bpe(PAIRS, 35)
    word, pieces = ("word", "pieces") if lang == "en" else ("词", "子词")
    splits = _frame(at, word)
    assert dict(zip(splits[word], splits[pieces]))["loves"] == f"{MARK}lov + es"  # "loves" → "lov" + "es"
    vocab = _frame(at, "piece" if lang == "en" else "合并自")
    assert list(vocab.iloc[:, 0]) == list(bpe.pieces)
    assert f"{MARK}lov + es" not in list(vocab.iloc[:, 1]) and "o + v" in list(vocab.iloc[:, 1])
    presplit = "the full-width marks of Chinese" if lang == "en" else "中文全角标点（"  # how Chinese is cut first
    assert any(presplit in s for s in texts(at, "markdown"))
    if lang == "en":
        assert any("Byte-pair encoding learned 35 pieces (asked for: 35)" in s for s in texts(at, "markdown"))
        preview = next(f.value for f in at.dataframe if "target tokens" in f.value.columns)
        assert preview["target tokens"][0] == f"{MARK}he · {MARK}lov · es · {MARK}he · r"


def test_a_bad_vocabulary_size_is_one_error_and_the_pieces_stay():
    at = _on_bpe()
    before = at.session_state[BPE_MEMO][1]
    at.number_input(key="bpe_vocab_size").set_value(0).run()
    assert not at.exception
    errors = texts(at, "error")
    assert errors == [
        "The BPE vocabulary size must be a whole number from 1 to 16,000, not 0: choose a size in that range. "
        "The pieces learned last are kept."
    ]
    assert at.session_state[BPE_MEMO][1] == before and len(at.session_state.pairs) == len(PAIRS)
    at.number_input(key="bpe_vocab_size").set_value(16_001).run()
    assert len(texts(at, "error")) == 1
    at.number_input(key="bpe_vocab_size").set_value(60).run()
    assert texts(at, "error") == [] and at.session_state[BPE_MEMO][1] == learn_bpe(PAIRS, 60)


def test_a_model_trained_with_bpe_shows_joined_translations():
    at = _on_bpe(size=35)
    at.switch_page("pages/train.py").run()
    for key, value in TINY.items():
        (at.slider if key in ("n_layers", "epochs") else at.select_slider)(key=key).set_value(value).run()
    at.button(key="train_button").click().run()
    finish_job(at)
    assert not at.exception
    translator = at.session_state.model.translator
    held = set(translator.summary.data.holdout_rows)  # the Train page holds 10 % out: the pieces are the rest's
    assert held and translator.tokenizer == learn_bpe([p for i, p in enumerate(PAIRS) if i not in held], 35)
    assert isinstance(translator.tokenizer, Bpe) and translator.tokenizer != learn_bpe(PAIRS, 35)
    results = at.dataframe[-1].value
    outputs = list(results["greedy translation"])
    assert len(outputs) == len(PAIRS) and not any(MARK in out for out in outputs)
    expected = {s: join_pieces(o) for (s, _), o in zip(PAIRS, translator.translate_all([s for s, _ in PAIRS]))}
    for source, shown in zip(results["source"], outputs):  # whole, or a runaway cut with "…" (ui.tables.cut_text)
        whole = expected[source]
        assert shown == whole or shown.endswith("…") and whole.startswith(shown[:-1].rstrip()), (shown, whole)
    at.switch_page("pages/decoding.py").run()
    steps = [s for s in at.slider if s.key == "dec_step"]
    if steps:  # the last step shows the translation
        steps[0].set_value(steps[0].max).run()
    assert not at.exception
    (final,) = [s for s in texts(at, "success") if s.startswith("Translation: ")]
    shown = final.removeprefix("Translation: **").split("** — ")[0]
    assert shown in expected.values() and MARK not in shown  # one of the pairs' translations, joined


def _linked(query: dict) -> AppTest:
    """A tab's first run on a link to the Data page, over the small table (not the 2,000-pair corpus)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["data_dataset"] = "own"
    at.session_state["pairs"] = at.session_state["editor_base"] = list(PAIRS)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page("pages/data.py")
    return at.run()


def test_a_link_carries_the_vocabulary_size_and_a_bad_one_is_one_error():
    at = _linked({"tokenizer": "bpe", "vocab_size": "0"})
    assert not at.exception
    assert at.session_state.tokenizer == "bpe" and at.session_state[BPE_MEMO][0][0] == 1_000  # the default, learned
    assert [e for e in texts(at, "error") if "BPE vocabulary size" in e] == [
        "The BPE vocabulary size must be a whole number from 1 to 16,000, not 0: choose a size in that range. "
        "The pieces learned last are kept."
    ]
    at = _linked({"tokenizer": "bpe", "vocab_size": "30"})
    assert not at.exception and at.session_state[BPE_MEMO][0][0] == 30 and not at.error


def test_sentences_too_long_in_pieces_say_that_a_larger_vocabulary_helps():
    long_pair = ("他们喜欢她", "they like her and she likes them and he loves us")  # 48 characters
    at = open_app(page="pages/data.py", data_dataset="own", pairs=[*PAIRS, long_pair], editor_base=[*PAIRS, long_pair])
    at.selectbox(key="tokenizer").set_value("bpe").run()
    at.number_input(key="bpe_vocab_size").set_value(1).run()  # the characters alone: one piece each
    hint = "Some sentences are longer than 40 pieces: a larger vocabulary size makes fewer, longer pieces."
    assert hint in texts(at, "info") and any("longer than 40 tokens" in e for e in texts(at, "error"))
    at.number_input(key="bpe_vocab_size").set_value(1_000).run()
    assert hint not in texts(at, "info") and not at.error
