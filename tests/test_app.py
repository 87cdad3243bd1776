"""The Streamlit app through AppTest: pages render, data edits, training, stop, uploads, languages."""

import re

import pytest
import torch
from streamlit.runtime.scriptrunner_utils.exceptions import StopException

from tests.apptest_helpers import PAGES, open_app, texts
from transformer import TrainConfig, Translator, train
from transformer.checkpoint import save_checkpoint
from transformer.text import markdown
from ui.i18n import LANGUAGES, STRINGS
from ui.state import TrainingRun, apply_editor_changes

TINY = dict(d_model=16, n_heads=2, d_ff=32, n_layers=1, epochs=15)


def test_every_string_exists_in_both_languages_with_the_same_placeholders():
    for key, texts_by_lang in STRINGS.items():
        assert set(texts_by_lang) == set(LANGUAGES), key
        assert all(texts_by_lang.values()), key
        placeholders = {lang: set(re.findall(r"{(\w+)}", text)) for lang, text in texts_by_lang.items()}
        assert placeholders["en"] == placeholders["zh"], key


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_in_both_languages(page, lang):
    at = open_app(lang, page)
    assert not at.exception
    prefix = {"positional_encoding": "pe", "masks": "masks", "attention": "attn", "decoding": "dec"}
    name = page.split("/")[1][:-3]
    assert at.title[0].value == STRINGS[f"{prefix.get(name, name)}.title"][lang]


def test_bundled_model_is_there_on_first_load():
    at = open_app()
    model = at.session_state.model
    assert model.source == "bundled"
    assert model.translator.translate("我 喜 欢 你").text == "I love you ."
    sidebar = " ".join(m.value for m in at.sidebar.markdown)
    assert "bundled" in sidebar and f"{model.translator.model.num_parameters():,}" in sidebar


def test_language_switch_changes_the_whole_ui_and_survives_page_changes():
    at = open_app("en")
    at.sidebar.radio(key="lang").set_value("zh").run()
    assert at.title[0].value == STRINGS["data.title"]["zh"]
    assert "来源：内置" in " ".join(m.value for m in at.sidebar.markdown)
    at.switch_page("pages/train.py").run()
    assert at.title[0].value == STRINGS["train.title"]["zh"]


def test_adding_a_pair_and_training_a_tiny_model_shows_the_results_table():
    at = open_app()
    n = len(at.session_state.pairs)
    at.text_input(key="new_source").input("我爱猫")
    at.text_input(key="new_target").input("I love cats !")
    at.button(key="add_pair").click().run()
    assert at.session_state.pairs[-1] == ("我爱猫", "I love cats !")
    assert len(at.session_state.pairs) == n + 1
    at.switch_page("pages/train.py").run()
    for key, value in TINY.items():
        (at.slider if key in ("n_layers", "epochs") else at.select_slider)(key=key).set_value(value).run()
    at.button(key="train_button").click().run()
    assert not at.exception
    model = at.session_state.model
    assert model.source == "trained"
    assert model.translator.summary["epochs"] == TINY["epochs"]
    assert model.translator.config.d_model == 16
    table = at.dataframe[-1].value
    assert len(table) == n + 1
    assert table.iloc[-1, 0] == "我爱猫"
    assert set(table.iloc[:, 3]) <= {"✓", "✗"}
    assert any("Trained 15 epochs" in s for s in texts(at, "success"))


def test_a_pair_with_an_empty_side_is_refused_with_a_message():
    at = open_app()
    n = len(at.session_state.pairs)
    at.text_input(key="new_source").input("我爱猫")
    at.button(key="add_pair").click().run()
    assert len(at.session_state.pairs) == n
    assert any("target" in e for e in texts(at, "error"))


def _interrupted_after(epochs, n):
    """The epochs of a training whose script run is interrupted after n of them, as a click in the browser does."""
    for _ in range(n):
        yield next(epochs)
    raise StopException()


def test_stop_keeps_the_partly_trained_model():
    pairs = [("我 喜 欢 你", "I love you ."), ("我 有 猫", "I have a cat .")]
    translator = Translator.create(pairs, d_model=16, n_heads=2, d_ff=32, n_layers=1)
    epochs = train(translator, pairs, TrainConfig(epochs=50))
    run = TrainingRun(translator, pairs, TrainConfig(epochs=50), _interrupted_after(epochs, 3))
    at = open_app(page="pages/train.py", training=run)  # training, and the Stop button enabled
    assert len(run.records) == 3 and at.session_state.model.source == "bundled"
    run.epochs = epochs  # the rest of the training, had it not been stopped
    at.button(key="stop_button").click().run()
    assert not at.exception
    model = at.session_state.model
    assert model.source == "trained" and model.translator is translator
    assert model.translator.summary["epochs"] == 3
    assert at.session_state.training is None
    assert any("stopped after epoch 3" in w for w in texts(at, "warning"))
    assert len(at.dataframe[-1].value) == 2


def test_a_bad_data_file_shows_an_error_and_keeps_the_table():
    at = open_app()
    before = list(at.session_state.pairs)
    at.file_uploader(key="pairs_upload").upload("pairs.csv", b"\xff\xfe\x00garbage\x00", "text/csv").run()
    assert any("pairs.csv was not loaded" in e and "unchanged" in e for e in texts(at, "error"))
    assert at.session_state.pairs == before


def test_a_data_file_with_the_wrong_columns_is_refused():
    at = open_app()
    before = list(at.session_state.pairs)
    at.file_uploader(key="pairs_upload").upload("pairs.csv", b"a,b,c\nd,e,f\n", "text/csv").run()
    assert any("expected 2 columns" in e for e in texts(at, "error"))
    assert at.session_state.pairs == before


def test_a_good_data_file_replaces_the_table():
    at = open_app()
    at.file_uploader(key="pairs_upload").upload("p.tsv", "source\ttarget\n你好\tHello .\n".encode(), "text/tsv").run()
    assert at.session_state.pairs == [("你好", "Hello .")]
    assert any("Loaded 1 pairs" in s for s in texts(at, "success"))


def test_a_bad_checkpoint_shows_an_error_and_keeps_the_model():
    at = open_app(page="pages/train.py")
    before = at.session_state.model
    at.file_uploader(key="model_upload").upload("evil.safetensors", b"\x80\x04\x95" + b"\x00" * 64).run()
    assert any("evil.safetensors was not loaded" in e for e in texts(at, "error"))
    assert at.session_state.model is before
    assert len(at.session_state.pairs) > 0


def test_a_good_checkpoint_becomes_the_current_model_and_back_to_bundled():
    pairs = [("你好", "Hello .")]
    translator = Translator.create(pairs, d_model=8, n_heads=1, d_ff=16, n_layers=1)
    at = open_app(page="pages/train.py")
    at.file_uploader(key="model_upload").upload("mine.safetensors", save_checkpoint(translator)).run()
    model = at.session_state.model
    assert model.source == "uploaded" and model.translator.config.d_model == 8
    assert all(
        torch.equal(a, b)
        for a, b in zip(model.translator.model.state_dict().values(), translator.model.state_dict().values())
    )
    at.button(key="bundled_button").click().run()
    assert at.session_state.model.source == "bundled"


def test_two_tabs_keep_their_own_models():
    first, second = open_app(page="pages/train.py"), open_app(page="pages/train.py")
    for key, value in TINY.items():
        (first.slider if key in ("n_layers", "epochs") else first.select_slider)(key=key).set_value(value).run()
    first.button(key="train_button").click().run()
    assert first.session_state.model.source == "trained"
    assert second.session_state.model.source == "bundled"
    assert first.session_state.model.translator is not second.session_state.model.translator


def test_n_heads_only_offers_divisors_of_d_model():
    at = open_app(page="pages/train.py")
    at.select_slider(key="n_heads").set_value(8).run()
    at.select_slider(key="d_model").set_value(8).run()
    assert at.select_slider(key="n_heads").options == ["1", "2", "4", "8"]
    at.select_slider(key="d_model").set_value(16).run()
    assert "16" in at.select_slider(key="n_heads").options and "4" in at.select_slider(key="n_heads").options


def test_settings_survive_a_page_switch():
    at = open_app(page="pages/train.py")
    at.slider(key="epochs").set_value(25).run()
    at.switch_page("pages/data.py").run()
    at.switch_page("pages/train.py").run()
    assert at.slider(key="epochs").value == 25


def test_editor_changes_are_applied_in_order():
    pairs = [("a", "A"), ("b", "B"), ("c", "C")]
    changes = {
        "edited_rows": {0: {"target": "AA"}, 2: {"source": None}},
        "deleted_rows": [1],
        "added_rows": [{"source": "d"}],
    }
    assert apply_editor_changes(pairs, changes) == [("a", "AA"), ("", "C"), ("d", "")]


def test_an_empty_table_blocks_training_with_a_message():
    at = open_app(pairs=[])
    assert any("There are no sentence pairs" in e for e in texts(at, "error"))
    at.switch_page("pages/train.py").run()
    assert at.button(key="train_button").disabled
    assert any("fix them on the Data page" in e for e in texts(at, "error"))


def test_decoding_that_never_reaches_e_stops_at_the_length_cap():
    from ui.state import CurrentModel

    pairs = [("我 喜 欢 你", "I love you .")]
    untrained = Translator.create(pairs, seed=3, d_model=16, n_heads=2, d_ff=32, n_layers=1)
    # every decoder output becomes the projection row of "love", so "love" always beats E (whose row is zeroed)
    model, vocab = untrained.model, untrained.tgt_vocab
    with torch.no_grad():
        model.decoder.layers[-1].norm3.weight.zero_()
        model.decoder.layers[-1].norm3.bias.copy_(model.projection.weight[vocab.stoi["love"]])
        model.projection.weight[vocab.eos_id] = 0.0
    at = open_app(page="pages/decoding.py", model=CurrentModel(untrained, "uploaded"), pairs=pairs)
    slider = at.slider(key="dec_step")
    assert slider.max == 50
    slider.set_value(50).run()
    assert any("stopped at the length cap of 50 tokens" in s for s in texts(at, "success"))


def test_a_single_pair_is_enough_for_every_page():
    for page in PAGES:
        at = open_app(page=page, pairs=[("我 喜 欢 你", "I love you .")])
        assert not at.exception, page


@pytest.mark.parametrize(("source", "code"), [("我\x00爱猫", "\\x00"), ("我爱\x1b[31m猫", "\\x1b")])
def test_a_pair_with_a_control_character_is_refused_with_the_tables_message(source, code):
    at = open_app()
    before = list(at.session_state.pairs)
    at.text_input(key="new_source").input(source)
    at.text_input(key="new_target").input("I love cats !")
    at.button(key="add_pair").click().run()
    assert not at.exception
    assert at.session_state.pairs == before
    message = f"row {len(before) + 1}: contains the invisible control character {code}, which cannot be part of a"
    assert any(e.startswith(message) for e in texts(at, "error")), texts(at, "error")
    assert at.text_input(key="new_source").value == source  # nothing typed is lost


def test_identical_rows_are_one_warning_on_the_data_page():
    at = open_app(pairs=[("我 喜 欢 你", "I love you .")] * 1000)
    assert not at.exception
    assert texts(at, "warning") == [
        "- row 1: this pair appears 1000 times in the table (the same tokens); every copy is trained."
    ]


def test_a_checkpoint_with_a_wrong_summary_loads_with_a_warning_per_field():
    pairs = [("你好", "Hello .")]
    translator = Translator.create(pairs, d_model=8, n_heads=1, d_ff=16, n_layers=1)
    translator.summary.update(loss="abc", history="abc", **{"*note*": "[x](http://e.com)"})
    at = open_app(page="pages/train.py")
    at.file_uploader(key="model_upload").upload("odd.safetensors", save_checkpoint(translator)).run()
    assert not at.exception
    assert at.session_state.model.source == "uploaded"
    assert at.session_state.model.translator.summary == {}
    assert any("Loaded odd.safetensors" in s for s in texts(at, "success"))
    warnings = [
        "the training summary's 'loss' is not a finite number; it was dropped.",
        "the training summary's 'history' is not a list of epoch records (epoch, loss, accuracy; holdout_loss, "
        "holdout_accuracy, seconds); it was dropped.",
        "the training summary has an unknown field '*note*'; it was dropped.",
    ]
    assert texts(at, "warning") == [markdown(w) for w in warnings]  # shown literally: no emphasis, no link
    for page in PAGES:  # every page works with the model
        at.switch_page(page).run()
        assert not at.exception, page
