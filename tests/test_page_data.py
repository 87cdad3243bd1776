"""The Data page through AppTest: kept choices, messages tied to the table, make_data padding, restoring the
sample pairs, big tables."""

import ast

import pytest

from tests.apptest_helpers import open_app, texts
from transformer.data import build_vocabs
from ui.state import bundled_pairs

DATA, TRAIN = "pages/data.py", "pages/train.py"
GOOD_FILE = "source\ttarget\n你好\tHello .\n".encode()


def make_data_tokens(at) -> dict[str, list[list[str]]]:
    """The token tables of the make_data section (enc_inputs, dec_inputs, dec_outputs), one list per pair."""
    frames = at.dataframe[-3:]
    return {
        name: [list(row) for row in frame.value.itertuples(index=False)]
        for name, frame in zip(("enc_inputs", "dec_inputs", "dec_outputs"), frames, strict=True)
    }


def test_the_upload_mode_stays_chosen_after_a_language_switch():
    # the value and what it does; that the browser shows it selected is tests/e2e/test_e2e_pages.py's to check
    # (AppTest keeps the chosen option itself, so only the browser lost the selection)
    at = open_app("en")
    at.radio(key="data_upload_mode").set_value("append").run()
    at.sidebar.radio(key="lang").set_value("zh").run()
    assert not at.exception
    radio = at.radio(key="data_upload_mode")
    assert radio.value == "append" and radio.options == ["替换当前表格", "追加到当前表格"]
    at.file_uploader(key="pairs_upload").upload("p.tsv", GOOD_FILE, "text/tsv").run()
    assert at.session_state.pairs == [*bundled_pairs(), ("你好", "Hello .")]  # added to the table


def test_a_half_typed_pair_and_the_make_data_choice_survive_a_page_switch():
    at = open_app()
    at.text_input(key="new_source").input("我爱")
    at.text_input(key="new_target").input("I love").run()
    chosen = [bundled_pairs()[2], bundled_pairs()[0]]
    at.multiselect(key="data_make_data_pairs").set_value(chosen).run()
    at.switch_page(TRAIN).run()
    at.switch_page(DATA).run()
    assert at.text_input(key="new_source").value == "我爱"
    assert at.text_input(key="new_target").value == "I love"
    assert at.multiselect(key="data_make_data_pairs").value == chosen


def test_an_upload_message_goes_once_the_table_changes():
    at = open_app()
    at.file_uploader(key="pairs_upload").upload("p.tsv", GOOD_FILE, "text/tsv").run()
    assert "Loaded 1 pairs from p.tsv." in texts(at, "success")
    at.run()  # still the loaded table: still said
    assert "Loaded 1 pairs from p.tsv." in texts(at, "success")
    at.text_input(key="new_source").input("我爱猫")
    at.text_input(key="new_target").input("I love cats !")
    at.button(key="add_pair").click().run()
    assert not any("Loaded" in s for s in texts(at, "success"))


def test_a_failed_upload_is_said_until_the_table_changes_and_names_the_file_literally():
    at = open_app()
    at.file_uploader(key="pairs_upload").upload("**bad** [x](y).csv", b"a,b,c,d\n", "text/csv").run()
    (error,) = at.error
    assert "\\*\\*bad\\*\\*" in error.value  # the file name cannot become bold text or a link
    assert texts(at, "error")[0].startswith("**bad** [x](y).csv was not loaded")
    at.run()
    assert at.error  # the table has not changed, so the message stays
    at.session_state["pairs"] = [("我", "I")]
    at.run()
    assert not at.error


def test_restore_the_sample_pairs():
    at = open_app(pairs=[("我", "I")])
    assert not at.button(key="restore_pairs").disabled
    at.button(key="restore_pairs").click().run()
    assert at.session_state.pairs == bundled_pairs()
    assert f"Restored the {len(bundled_pairs())} sample pairs." in texts(at, "success")
    assert at.button(key="restore_pairs").disabled  # nothing left to restore


def test_make_data_shows_padding_by_default_with_ids_of_the_whole_vocabulary():
    at = open_app()
    chosen = at.multiselect(key="data_make_data_pairs").value
    assert len(chosen) == 2
    tokens = make_data_tokens(at)
    for name in ("enc_inputs", "dec_inputs", "dec_outputs"):
        assert any("P" in row for row in tokens[name]), name  # the shorter sentence is padded
    src_vocab, _ = build_vocabs(bundled_pairs())
    ids = ast.literal_eval(at.code[0].value)  # the enc_inputs ids, as make_data returns them
    assert ids[0][: len(chosen[0][0].split())] == [src_vocab.stoi[tok] for tok in chosen[0][0].split()]


def test_make_data_choice_is_kept_valid_when_the_data_changes():
    at = open_app()
    at.multiselect(key="data_make_data_pairs").set_value([bundled_pairs()[5]]).run()
    pairs = [("我 喜 欢 你", "I love you ."), ("他 有 一 只 猫", "He has a cat ."), ("你 好", "Hello .")]
    at.session_state["pairs"] = pairs
    at.run()
    assert not at.exception
    assert at.multiselect(key="data_make_data_pairs").value == pairs[:2]  # the default for the new data
    at.multiselect(key="data_make_data_pairs").set_value([]).run()
    assert any("Choose one or more pairs" in i for i in texts(at, "info"))


@pytest.fixture(scope="module")
def big_table():
    # 3,000 pairs with a new word in each, and 30 rows without a source: more pairs, problems and tokens than
    # any preview shows
    return [(f"我 {i}", f"word{i} .") for i in range(3000)] + [("", f"t{i}") for i in range(30)]


def test_a_big_table_shows_capped_previews_and_says_how_much_is_shown(big_table):
    at = open_app(pairs=big_table)
    assert not at.exception
    assert at.metric[0].value == "3030"
    captions = texts(at, "caption")
    assert len(at.dataframe[0].value) == 3030  # the editor holds the whole table
    assert len(at.dataframe[1].value) == 100  # the tokens
    assert "Showing the first 100 of the 3000 usable pairs." in captions
    src_vocab, tgt_vocab = build_vocabs(big_table[:3000])
    assert [len(frame.value) for frame in at.dataframe[2:4]] == [500, 500]
    assert f"Showing the first 500 of the {len(src_vocab)} tokens." in captions
    assert f"Showing the first 500 of the {len(tgt_vocab)} tokens." in captions
    (errors,) = texts(at, "error")  # 30 empty sources and one "too many rows"
    assert errors.count("\n- ") == 11 and errors.endswith("… and 21 more.")
    assert len(at.multiselect(key="data_make_data_pairs").options) == 200
    assert "The first 200 of the 3000 usable pairs are offered here." in captions
