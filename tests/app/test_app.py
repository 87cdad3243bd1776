"""The Streamlit app through AppTest: pages render, data edits, training, stop, uploads, languages."""

import json
import os
import re
import signal

import pytest
import torch
from safetensors.torch import save as st_save

from tests.apptest_helpers import PAGES, finish_job, open_app, opened_page, texts, wait_for_epochs
from tests.transformer.checkpoints import parts
from transformer import Translator
from transformer.checkpoint import save_checkpoint
from transformer.config import DECAY_AFTER, TRAIN_BETA2, TRAIN_EPS
from transformer.summary import TrainingSummary
from transformer.text import markdown
from ui.i18n import LANGUAGES
from ui.model_cache import CACHE_SIZE, SHARED_CACHE_SCALE, CacheKind, CurrentModel, bundled_model
from ui.session import apply_editor_changes
from ui.strings import STRINGS

TINY = dict(d_model=16, n_heads=2, d_ff=32, n_layers=1, epochs=15)


def test_every_string_exists_in_both_languages_with_the_same_placeholders():
    for key, texts_by_lang in STRINGS.items():
        assert set(texts_by_lang) == set(LANGUAGES), key
        assert all(texts_by_lang.values()), key
        placeholders = {lang: set(re.findall(r"{(\w+)}", text)) for lang, text in texts_by_lang.items()}
        assert placeholders["en"] == placeholders["zh"], key


CJK_PUNCTUATION = re.compile(r"[\u3000-\u303f\uff00-\uffef]")  # 、。「」 and the full-width ，：；！？（）


def test_english_strings_hold_no_chinese_punctuation():
    for key, texts_by_lang in STRINGS.items():
        assert not CJK_PUNCTUATION.search(texts_by_lang["en"]), (key, texts_by_lang["en"])


@pytest.mark.parametrize("picker", ["dec", "inside", "attn", "masks"])
def test_english_pages_show_no_chinese_punctuation_outside_the_learners_words(picker):
    page = {"dec": "pages/decoding.py", "inside": "pages/inside.py", "attn": "pages/attention.py"}
    unknown = ["龙", "鸭", "蛇"]  # words the bundled vocabulary lacks (checked below): listed in a warning
    typed = {f"pick_{picker}_mode": "typed", f"pick_{picker}_text": "我有一只龙鸭蛇"}
    at = open_app("en", page.get(picker, f"pages/{picker}.py"), **typed)  # the page's first run has the typed sentence
    assert not at.exception
    (said,) = [w for w in texts(at, "warning") if w.startswith("Not in the model's vocabulary")]
    assert "read as `<unk>`: 龙, 鸭, 蛇. Translation still runs." in said
    for kind in ("markdown", "caption", "info", "warning", "success", "error", "subheader", "header", "title"):
        for text in texts(at, kind):
            for word in unknown + ["我有一只龙鸭蛇"]:
                text = text.replace(word, "")
            assert not CJK_PUNCTUATION.search(text), (kind, text)


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_in_both_languages(page, lang):
    at = opened_page(lang, page)
    assert not at.exception
    prefix = {"positional_encoding": "pe", "masks": "masks", "attention": "attn", "decoding": "dec"}
    name = page.split("/")[1][:-3]
    assert at.title[0].value == STRINGS[f"{prefix.get(name, name)}.title"][lang]
    link = [c.value for c in at.sidebar.code]  # the sidebar offers a link to this view
    assert len(link) == 1 and f"lang={lang}" in link[0] and "model=" in link[0]


def test_bundled_model_is_there_on_first_load():
    at = opened_page()
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


@pytest.mark.slow
def test_adding_a_pair_and_training_a_tiny_model_shows_the_results_table():
    at = open_app(data_dataset="tutorial")  # tiny trainings on the 50 tutorial pairs
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
    assert at.session_state.model.source == "bundled"  # training runs in the background…
    finish_job(at)  # …and its model becomes the current model when it ends
    assert not at.exception
    model = at.session_state.model
    assert model.source == "trained"
    assert model.translator.summary.epochs == TINY["epochs"]
    assert model.translator.config.d_model == 16
    cfg = model.translator.summary.train_config  # the train command's steadying defaults (docs/training.md Stability)
    assert (cfg.beta2, cfg.eps, cfg.decay_after) == (TRAIN_BETA2, TRAIN_EPS, DECAY_AFTER)
    table = at.dataframe[-1].value
    assert len(table) == n + 1
    assert list(table.columns[:1]) == ["✓/✗"]  # the verdict first, then the texts
    assert "我爱猫" in list(table["source"])  # the new pair is scored with the others, errors first
    assert set(table.iloc[:, 0]) <= {"✓", "✗"}
    assert any("Trained 15 epochs" in s for s in texts(at, "success"))


def test_a_pair_with_an_empty_side_is_refused_with_a_message():
    at = open_app()
    n = len(at.session_state.pairs)
    at.text_input(key="new_source").input("我爱猫")
    at.button(key="add_pair").click().run()
    assert len(at.session_state.pairs) == n
    assert any("target" in e for e in texts(at, "error"))


def _start_long_training(at, epochs: int = 400) -> None:
    for key, value in {**TINY, "epochs": epochs}.items():
        (at.slider if key in ("n_layers", "epochs") else at.select_slider)(key=key).set_value(value).run()
    at.button(key="train_button").click().run()


def test_stop_keeps_the_partly_trained_model():
    at = open_app(page="pages/train.py", data_dataset="tutorial", warmup_on=True)
    _start_long_training(at)
    wait_for_epochs(at, 3)
    at.run()
    job = at.session_state.job
    # while it trains, the progress says the learning rate as the schedule set it, and charts the schedule so far
    (progress,) = [p.proto.text for p in at.get("progress") if "token accuracy" in p.proto.text]  # not the sidebar's
    epoch, lr = int(progress.split("/")[0].split()[-1]), float(progress.rsplit("learning rate ", 1)[1])
    record = job.runs[0].records[epoch - 1]  # the epoch the line names
    assert lr == pytest.approx(record.lr, rel=1e-2) and record.lr == job.runs[0].config.learning_rate(16, record.step)
    assert "live_lr_chart" in [e.key for e in at.get("plotly_chart")]
    at.button(key="stop_button").click().run()
    finish_job(at, job=job)
    assert not at.exception
    model = at.session_state.model
    epochs = model.translator.summary.epochs
    assert model.source == "trained" and 3 <= epochs < 400
    assert at.session_state.job is None
    assert any(f"stopped after epoch {epochs}" in w for w in texts(at, "warning"))
    assert len(at.dataframe[-1].value) == len(at.session_state.pairs)


def test_a_training_whose_process_dies_says_so_and_keeps_the_current_model():
    at = open_app(page="pages/train.py", data_dataset="tutorial")
    before = at.session_state.model
    _start_long_training(at)
    wait_for_epochs(at, 2)
    os.kill(at.session_state.job.pid, signal.SIGKILL)  # as the kernel's out-of-memory killer would
    finish_job(at)
    assert not at.exception and at.session_state.model is before
    reason = "the training process ended unexpectedly (stopped by the signal SIGKILL)"
    assert texts(at, "toast") == [f"Training failed ({reason}); your current model is unchanged."]
    assert texts(at, "error") == [
        f"Training failed ({reason}); the current model is unchanged. Try other settings, and tell us if it happens "
        "again."
    ]


@pytest.mark.slow
def test_training_goes_on_while_the_learner_visits_other_pages_and_switches_language():
    at = open_app(page="pages/train.py", data_dataset="tutorial")
    _start_long_training(at, epochs=60)
    job = at.session_state.job
    for page in ("pages/data.py", "pages/attention.py", "pages/decoding.py"):
        at.switch_page(page).run()
        assert not at.exception
    at.sidebar.radio(key="lang").set_value("zh").run()
    assert job.state in ("queued", "running", "done")
    finish_job(at)  # the sidebar takes the result on whatever page the learner is
    assert [toast.value for toast in at.toast] == ["训练完成，共 60 轮：新模型已成为当前模型。"]
    assert at.session_state.model.source == "trained"
    assert at.session_state.model.translator.summary.epochs == 60
    assert "来源：本页训练" in " ".join(m.value for m in at.sidebar.markdown)


def test_one_tab_cannot_start_a_second_job():
    at = open_app(page="pages/train.py", data_dataset="tutorial")
    _start_long_training(at)
    assert at.button(key="train_button").disabled
    job = at.session_state.job
    at.button(key="stop_button").click().run()
    finish_job(at, job=job)
    assert not at.button(key="train_button").disabled


def test_held_out_pairs_are_reported_apart():
    at = open_app(page="pages/train.py", data_dataset="tutorial")
    for key, value in TINY.items():
        (at.slider if key in ("n_layers", "epochs") else at.select_slider)(key=key).set_value(value).run()
    at.select_slider(key="holdout").set_value(0.2).run()
    n = len(at.session_state.pairs)
    assert any(f"{round(0.2 * n)} pairs held out" in c.value for c in at.caption)
    at.button(key="train_button").click().run()
    finish_job(at)
    model = at.session_state.model
    held = model.evaluations["holdout"]
    assert held.total == round(0.2 * n) and model.evaluations["train"].total == n - held.total
    assert model.translator.summary.history[-1].holdout_loss > 0
    table = at.dataframe[-1].value
    assert list(table["part"]).count("held out") == held.total and list(table.columns[:2]) == ["✓/✗", "part"]
    shown = {m.label: (m.value, m.proto.delta) for m in at.metric}  # whole, and at the score table's precision
    assert shown["exact-match, held out"] == (f"{held.exact_match:.1%}", f"{held.exact} of {held.total} pairs")
    assert f"{held.exact_match:.1%} ({held.exact}/{held.total})" in list(at.dataframe[-2].value["exact match"])
    parts, marks = list(table["part"]), list(table["✓/✗"])
    assert parts == ["held out"] * held.total + ["trained on"] * (n - held.total)  # the rows worth discussing first
    for first, last in ((0, held.total), (held.total, n)):  # and in each part its errors first
        assert marks[first:last] == sorted(marks[first:last], key=lambda mark: mark == "✓")
    chart = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-history_chart")][0]
    assert any("(held out)" in trace["name"] for trace in __import__("json").loads(chart.proto.spec)["data"])


def test_a_bad_data_file_shows_an_error_and_keeps_the_table():
    at = open_app()
    before = list(at.session_state.pairs)
    at.file_uploader(key="pairs_upload").upload("pairs.csv", b"\xff\xfe\x00garbage\x00", "text/csv").run()
    assert any("pairs.csv was not loaded" in e and "unchanged" in e for e in texts(at, "error"))
    assert at.session_state.pairs == before


def test_a_data_file_with_the_wrong_columns_is_refused():
    at = open_app()
    before = list(at.session_state.pairs)
    at.file_uploader(key="pairs_upload").upload(
        "pairs.csv", b"a,b\n" + b"a,b,c,d,e,f,g,h,i,j,k" + b"\n", "text/csv"
    ).run()
    assert any("line 2: 11 columns, more than the 10 a pairs file may have" in e for e in texts(at, "error"))
    at.file_uploader(key="pairs_upload").upload("one.csv", b"just one column\n", "text/csv").run()
    assert any(
        "expected at least 2 columns (source, target) in CSV (comma) format, found 1" in e for e in texts(at, "error")
    )
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
    first, second = (open_app(page="pages/train.py", data_dataset="tutorial") for _ in range(2))
    for key, value in TINY.items():
        (first.slider if key in ("n_layers", "epochs") else first.select_slider)(key=key).set_value(value).run()
    first.button(key="train_button").click().run()
    finish_job(first)
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


def test_looking_inside_pages_warn_when_the_data_changed_since_training():
    at = open_app(page="pages/masks.py")
    assert not any("have changed since" in w for w in texts(at, "warning"))  # the bundled model, the bundled data
    at.switch_page("pages/data.py").run()
    at.text_input(key="new_source").input("我爱猫")
    at.text_input(key="new_target").input("I love cats !")
    at.button(key="add_pair").click().run()
    for page in ("pages/positional_encoding.py", "pages/masks.py", "pages/attention.py"):
        at.switch_page(page).run()
        assert any("have changed since the current model was trained" in w for w in texts(at, "warning")), page


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
    tensors, metadata = parts(save_checkpoint(translator))
    metadata["summary"] = json.dumps({"loss": "abc", "history": "abc", "*note*": "[x](http://e.com)"})
    at = open_app(page="pages/train.py")
    at.file_uploader(key="model_upload").upload("odd.safetensors", st_save(tensors, metadata=metadata)).run()
    assert not at.exception
    assert at.session_state.model.source == "uploaded"
    assert at.session_state.model.translator.summary == TrainingSummary()
    assert any("Loaded odd.safetensors" in s for s in texts(at, "success"))
    warnings = [
        "the training summary's 'loss' is not a finite number; it was dropped.",
        "the training summary's 'history' is not a list of epoch records (epoch, loss, accuracy; holdout_loss, "
        "holdout_accuracy, seconds); it was dropped.",
        "the training summary has an unknown field '*note*'; it was dropped.",
    ]
    assert texts(at, "warning") == warnings
    assert [w.value for w in at.warning] == [markdown(w) for w in warnings]  # shown literally: no emphasis, no link
    for page in PAGES:  # every page works with the model
        at.switch_page(page).run()
        assert not at.exception, page


def test_derived_values_are_kept_per_kind_and_large_ones_sparingly():
    model = CurrentModel(Translator.create([("你好", "Hello .")], d_model=8, n_heads=1, d_ff=16, n_layers=1), "trained")
    for i in range(CACHE_SIZE + 5):
        model.cached((CacheKind.TRANSLATE, i), lambda i=i: i)
    for i in range(10):
        model.cached((CacheKind.TRACE, i), lambda i=i: i)
    assert list(model.cache[CacheKind.TRANSLATE]) == [(CacheKind.TRANSLATE, i) for i in range(5, CACHE_SIZE + 5)]
    assert len(model.cache[CacheKind.TRACE]) == CacheKind.TRACE.size < CACHE_SIZE
    assert model.cached((CacheKind.TRACE, 9), lambda: "not computed again") == 9


@pytest.mark.parametrize("kind", ["trace", "tarce", None])
def test_a_cache_key_that_does_not_start_with_a_named_kind_raises_instead_of_getting_some_size(kind):
    # before, a kind was a string and CACHE_SIZES.get(kind, CACHE_SIZE) gave a misspelt "trace" (16 MB a value) room
    # for 32 values; now only a CacheKind is a kind
    model = CurrentModel(Translator.create([("你好", "Hello .")], d_model=8, n_heads=1, d_ff=16, n_layers=1), "trained")
    shared = bundled_model()
    for cache in (model, shared):
        with pytest.raises(TypeError, match="CacheKind"):
            cache.cached((kind, "x"), lambda: "never computed")
        with pytest.raises(TypeError, match="CacheKind"):
            cache.values(kind)
    assert model.cache == {}
    assert len({kind.value for kind in CacheKind}) == len(CacheKind)  # no two names for one kind (an Enum alias)


def test_the_bundled_models_derived_values_are_computed_once_per_server_for_every_tab_and_no_other_model():

    first_tab, second_tab = bundled_model(), bundled_model()  # one read-only copy of the weights for every tab
    assert first_tab.translator is second_tab.translator
    key, computed = (CacheKind.TRANSLATE, "a sentence of this test only"), []
    assert first_tab.cached(key, lambda: computed.append("first") or "first") == "first"
    assert second_tab.cached(key, lambda: computed.append("second") or "second") == "first"
    assert computed == ["first"]
    replayed = CurrentModel(first_tab.translator, "bundled")  # e.g. a replay stopped early: not the model as loaded
    assert replayed.cached(key, lambda: "its own") == "its own"
    (kind,) = [kind for kind in CacheKind if kind.per_tab]  # changed in place by its page: each tab its own
    assert first_tab.cached((kind, "view"), list) is not second_tab.cached((kind, "view"), list)
    # bounded, the value used longest ago dropped first
    bound = SHARED_CACHE_SCALE * CacheKind.TRACE.size
    keys = [(CacheKind.TRACE, "bounded", i) for i in range(bound + 1)]
    for k in keys[:bound]:
        first_tab.cached(k, lambda k=k: k)
    first_tab.cached(keys[0], lambda: "computed again")  # used again: now the last to go
    second_tab.cached(keys[bound], lambda: keys[bound])
    kept = first_tab.values(CacheKind.TRACE)
    assert list(kept) == [*keys[2:bound], keys[0], keys[bound]] and kept[keys[0]] == keys[0]
