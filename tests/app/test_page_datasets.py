"""The three datasets of the Data page (tutorial pairs, the corpus, your own) and what the Train page makes of them:
the split the learner chooses, its refusal, the corpus's recipe, and the score table of the bundled model and of a
model trained here."""

from collections import Counter

import pytest

from tests.apptest_helpers import finish_job, open_app, opened_page, shown, texts
from transformer import corpus
from transformer.checkpoint import load_checkpoint
from transformer.data import parse_pairs, tokenize
from transformer.plan import TrainingPlan
from transformer.scores import ALL
from transformer.splits import split_pairs
from ui.datasets import BUNDLED_PAIRS, RECIPES, SETTINGS
from ui.i18n import t
from ui.model_cache import BUNDLED_MODEL

DATA, TRAIN = "pages/data.py", "pages/train.py"
TUTORIAL = parse_pairs(BUNDLED_PAIRS.read_bytes(), BUNDLED_PAIRS.name)  # the bundled dataset, the tutorial pairs
OWN = [("猫 追 狗", "The cat chases the dog ."), ("狗 追 猫", "The dog chases the cat .")]


def _frame(at, column: str):
    """The first table on the page (an st.dataframe, else a static st.table) with that column."""
    return next(d.value for d in [*at.dataframe, *at.table] if column in d.value.columns)


def _corpus(at, size: int):
    at.radio(key="data_dataset").set_value("corpus").run()
    at.number_input(key="data_corpus_size").set_value(size).run()


def test_a_tab_starts_on_the_corpus_with_its_recipe_and_the_train_page_says_so():
    at = open_app(page=DATA)
    assert at.radio(key="data_dataset").value == "corpus"
    pairs = at.session_state["pairs"]
    assert pairs[: corpus.DEFAULT_SIZE] == [(p.source, p.target) for p in corpus.generate()]
    assert len(pairs) == corpus.DEFAULT_SIZE + 42  # the tutorial pairs the corpus does not hold follow it
    assert at.number_input(key="data_corpus_size").value == corpus.DEFAULT_SIZE
    at.switch_page(TRAIN).run()
    recipe = RECIPES["corpus"]
    assert at.slider(key="epochs").value == recipe["epochs"] == corpus.TRAIN_CONFIG.epochs
    assert at.select_slider(key="lr").value == recipe["lr"] == corpus.TRAIN_CONFIG.lr
    assert at.select_slider(key="batch_size").value == recipe["batch_size"] == corpus.TRAIN_CONFIG.batch_size
    assert at.select_slider(key="holdout").value == recipe["holdout"] == 0.1
    assert at.slider(key="dropout").value == recipe["dropout"] == corpus.TRAIN_SIZES["dropout"]
    assert (
        "Training settings follow the Corpus recipe: epochs 40, learning rate 0.002, batch size 64, held out of "
        "training 10%, dropout 0.1." in texts(at, "info")
    )


def test_switching_datasets_never_loses_the_learners_own_pairs():
    at = open_app(page=DATA)
    at.radio(key="data_dataset").set_value("tutorial").run()
    assert len(at.session_state["pairs"]) == 50
    at.text_input(key="new_source").set_value("鸟 飞")
    at.text_input(key="new_target").set_value("Birds fly .")
    at.button(key="add_pair").click().run()
    assert at.radio(key="data_dataset").value == "own"  # an edited table is the learner's own
    own = list(at.session_state["pairs"])
    assert own[-1] == ("鸟 飞", "Birds fly .")

    _corpus(at, 300)
    pairs = at.session_state["pairs"]
    assert pairs[:300] == [(p.source, p.target) for p in corpus.generate(300, 0)]
    assert len(pairs) > 300  # the tutorial pairs the corpus does not hold follow it
    at.radio(key="data_dataset").set_value("tutorial").run()
    assert len(at.session_state["pairs"]) == 50
    at.switch_page(TRAIN).run()  # another page and back: still kept
    at.switch_page(DATA).run()
    at.radio(key="data_dataset").set_value("own").run()
    assert at.session_state["pairs"] == own
    assert any("Your own pairs, typed here or loaded from a file: 51 now." in c for c in texts(at, "caption"))


def test_the_corpus_shows_its_phenomena_and_the_page_says_what_the_bundled_model_learned():
    at = open_app(page=DATA)
    (info,) = [i for i in texts(at, "info") if "bundled model" in i]
    held = len(load_checkpoint(BUNDLED_MODEL.read_bytes()).summary.data.holdout_rows)
    assert held == 200
    assert f"the corpus (2,000 pairs, seed 0; {held} of them held out at random to score it)" in info
    at.radio(key="data_dataset").set_value("tutorial").run()
    tutorial = at.session_state["pairs"]
    tagged = sum(bool(tags) for tags in corpus.tags_of(tutorial))
    assert 0 < tagged < len(tutorial)  # the tutorial pairs follow the grammar's conventions, and some are its sentences
    assert f"{tagged} of the {len(tutorial)} pairs are tagged" in " ".join(texts(at, "markdown"))
    _corpus(at, 120)


def test_own_pairs_that_are_corpus_sentences_are_tagged_and_other_pairs_are_not():
    at = open_app(page=DATA, pairs=[*OWN, ("你 好", "Hello ."), ("猫 追 狗", "The dog chases the cat .")])
    frame = _frame(at, "phenomenon")
    assert dict(zip(frame["phenomenon"], frame["pairs"])) == {"agreement": 2, "role reversal": 2}
    assert "2 of the 4 pairs are tagged" in " ".join(texts(at, "markdown"))  # a wrong reference is not tagged
    at = open_app(page=DATA, pairs=[("你 好", "Hello .")])
    assert "Phenomena" not in [h.value for h in at.header]


def test_the_sentence_pickers_start_on_the_tutorial_example_whatever_the_dataset():
    at = open_app(page=DATA, pairs=[*OWN, ("我 喜 欢 你", "I love you .")])
    at.switch_page("pages/masks.py").run()
    assert at.selectbox(key="pick_masks_pair").value == 2
    at = open_app(page=DATA)
    _corpus(at, 200)
    at.switch_page("pages/masks.py").run()
    pairs = at.session_state["pairs"]
    assert pairs[at.selectbox(key="pick_masks_pair").value] == ("我 喜 欢 你", "I love you .")


def test_the_bundled_models_score_table_is_shown_from_the_first_second():
    at = opened_page("en", TRAIN)
    summary = load_checkpoint(BUNDLED_MODEL.read_bytes()).summary
    table = summary.scores
    frame = _frame(at, "exact match")
    first = frame.iloc[:2]
    assert list(first["part"]) == ["trained on", "held out"]
    held = table.get(ALL, "holdout")
    assert first.iloc[1]["exact match"] == f"{held.exact_match:.1%} ({held.exact}/{held.pairs})"
    assert first.iloc[1]["BLEU"] == f"{held.bleu:.1f}" and first.iloc[1]["chrF"] == f"{held.chrf:.1f}"
    assert len(frame) == sum(1 for r in table.rows for p in table.parts if table.get(r, p))
    assert "role reversal" in set(frame["phenomenon"])
    assert "Split: random, 10% held out (seed 0)." in " ".join(shown(m.value) for m in at.markdown)


def test_choosing_a_dataset_follows_its_recipe_but_keeps_a_value_the_learner_set():
    at = open_app(page=TRAIN)
    at.slider(key="epochs").set_value(100).run()  # the learner's own
    at.switch_page(DATA).run()
    at.radio(key="data_dataset").set_value("tutorial").run()
    at.switch_page(TRAIN).run()
    recipe = RECIPES["tutorial"]
    assert at.slider(key="epochs").value == 100
    assert at.select_slider(key="lr").value == recipe["lr"] != corpus.TRAIN_CONFIG.lr
    assert at.select_slider(key="batch_size").value == recipe["batch_size"]
    assert at.select_slider(key="holdout").value == 0.0
    infos = texts(at, "info")
    assert (
        "Training settings follow the Tutorial pairs recipe: learning rate 0.003, batch size 16, held out of "
        "training 0%, dropout 0." in infos
    )
    assert f"Kept the value you set: epochs 100 (the Tutorial pairs recipe: epochs {recipe['epochs']})." in infos
    at.switch_page(DATA).run()
    _corpus(at, 200)
    at.switch_page(TRAIN).run()
    assert at.slider(key="epochs").value == 100
    assert at.select_slider(key="lr").value == RECIPES["corpus"]["lr"] == SETTINGS["lr"]
    assert at.select_slider(key="holdout").value == 0.1


@pytest.mark.parametrize("kind", ["combination", "length", "word"])
def test_the_chosen_split_is_the_packages_and_says_what_it_held_out(kind):
    at = open_app(page=DATA)
    _corpus(at, 300)
    at.switch_page(TRAIN).run()
    at.radio(key="split").set_value(kind).run()
    pairs = at.session_state["pairs"]
    split = split_pairs(pairs[:300], kind, 0.1, 0, always_train=TUTORIAL)  # the corpus's rows; tutorial besides
    captions = texts(at, "caption")
    assert t(f"split_def.{kind}", "en") in captions
    made = next(c for c in captions if "pairs held out," in c)
    assert made.startswith(f"{len(split.held)} pairs held out, {len(split.train) + 50} trained on")
    assert "The 50 tutorial pairs are always trained on, as for the bundled model." in made
    assert made.endswith(  # what differs from the bundled model's split, exactly
        "The bundled model held out other pairs: Corpus pairs 300 (the bundled model: 2,000), how pairs are held out "
        f"{t(f'split.{kind}', 'en')} (the bundled model: random)."
    )
    if kind != "length":
        assert split.held_out[0] in made


def test_retraining_with_the_corpus_recipe_reproduces_the_bundled_models_split(monkeypatch):
    started = []
    monkeypatch.setattr("ui.training.start_training", lambda *args, **kwargs: started.append((args, kwargs)))
    at = open_app(page=TRAIN)  # a new tab: the default corpus, its recipe, 10 % held out, seed 0
    bundled = load_checkpoint(BUNDLED_MODEL).summary
    held, trained = len(bundled.data.holdout_rows), bundled.scores.get(ALL, "train").pairs  # 200 and 1,850
    made = next(c for c in texts(at, "caption") if "pairs held out," in c)
    assert made.startswith(f"{held:,} pairs held out, {trained:,} trained on")  # was 204 held out, 1,838 trained on
    assert "this is its split" in made and "the 8 tutorial pairs that the corpus also holds trained on twice" in made
    at.button(key="train_button").click().run()
    ((args, kwargs),) = started
    rows, tokenizer, sizes, cfg, split, holdout, also = args
    plan = TrainingPlan.from_split(rows, split, holdout, tokenizer, sizes, cfg, also)
    assert plan.data == bundled.data  # rows, hash, split
    assert (len(plan.train_pairs), len(plan.held_pairs)) == (trained, held)
    assert kwargs["dataset"] == at.session_state["pairs"]  # the model is said to be trained on the table shown
    at.number_input(key="seed").set_value(3).run()  # another seed: another split, and the page says what differs
    made = next(c for c in texts(at, "caption") if "pairs held out," in c)
    assert made.endswith("The bundled model held out other pairs: random seed 3 (the bundled model: 0).")
    at.session_state["tokenizer"] = "char"  # as the Data page sets it: a tokenization that groups other rows
    at.run()
    made = next(c for c in texts(at, "caption") if "pairs held out," in c)
    assert made.endswith("random seed 3 (the bundled model: 0), Tokenization char (the bundled model: auto).")


def test_a_split_the_data_cannot_make_is_refused_with_the_packages_reason():
    same_length = [("猫 睡", "Cats sleep ."), ("狗 睡", "Dogs sleep ."), ("鸟 飞", "Birds fly .")]
    at = open_app(page=TRAIN, pairs=same_length, holdout=0.3)
    assert not at.button(key="train_button").disabled
    at.radio(key="split").set_value("length").run()
    assert at.button(key="train_button").disabled
    assert texts(at, "error") == [
        "This split cannot be made from these pairs: every target has 3 tokens: a length split needs sentences of "
        "different lengths. Choose another way of holding out, another share, or other data."
    ]
    at.radio(key="split").set_value("random").run()
    assert not at.error and not at.button(key="train_button").disabled


@pytest.mark.slow
def test_training_on_the_corpus_with_a_word_split_shows_the_held_out_score_table_and_the_unknown_words():
    at = open_app(page=DATA)
    _corpus(at, 150)
    at.switch_page(TRAIN).run()
    at.radio(key="split").set_value("word").run()
    at.slider(key="epochs").set_value(5).run()
    at.button(key="train_button").click().run()
    finish_job(at, timeout=240)
    assert not at.exception
    model = at.session_state["model"]
    summary = model.translator.summary
    assert summary.data.split.kind == "word" and summary.data.split.holdout == 0.1
    table = summary.scores
    frame = _frame(at, "exact match")
    held = frame[frame["part"] == "held out"]
    cell = table.get(ALL, "holdout")
    assert held.iloc[0]["phenomenon"] == "all pairs"
    assert held.iloc[0]["pairs"] == cell.pairs == len(model.evaluations["holdout"].results)
    assert held.iloc[0]["exact match"] == f"{cell.exact_match:.1%} ({cell.exact}/{cell.pairs})"
    assert "Split: unseen word, 10% held out (seed 0)." in " ".join(shown(m.value) for m in at.markdown)
    # the held-out words (of the grammar's lexicon) never reached training; the page says how many of the held-out
    # source tokens were read as <unk>
    words = summary.data.split.held_out
    assert all(any(w in s.replace(" ", "") for w in words) for s, *_ in model.evaluations["holdout"].results)
    unk = Counter(
        tok
        for s, *_ in model.evaluations["holdout"].results
        for tok in tokenize(s)
        if tok not in model.translator.src_vocab.stoi
    )
    (source_info,) = [i for i in texts(at, "info") if "Held-out source tokens read as `<unk>`" in i]
    assert f"Held-out source tokens read as `<unk>`: {sum(unk.values())}" in source_info


def test_the_bundled_model_was_trained_on_the_default_corpus_so_no_page_says_the_data_changed():
    at = open_app(page=DATA)  # a tab starts on the corpus of the default size and seed: the bundled model's
    at.switch_page("pages/attention.py").run()
    assert not [w for w in texts(at, "warning") if w.startswith("The sentence pairs have changed")]
    at.switch_page(DATA).run()
    at.number_input(key="data_corpus_size").set_value(300).run()  # another corpus: it did not learn all of it
    at.switch_page("pages/attention.py").run()
    assert [w for w in texts(at, "warning") if w.startswith("The sentence pairs have changed")]


def test_the_recipe_note_is_said_only_while_the_values_are_the_recipes():
    at = open_app(page=DATA, data_dataset="tutorial")
    _corpus(at, 200)
    at.switch_page(TRAIN).run()
    assert any(
        i.startswith("Training settings follow the Corpus recipe: epochs 40, learning rate 0.002")
        for i in texts(at, "info")
    )
    at.select_slider(key="lr").set_value(1e-3).run()  # the learner's own now
    (note,) = [i for i in texts(at, "info") if i.startswith("Training settings follow")]
    assert "learning rate" not in note and "epochs 40" in note


def test_choices_kept_as_their_label_in_another_language_are_read_back_as_the_same_choice():
    # after a language switch a radio can hold its option's label (as the browser showed it) instead of the option
    at = open_app(
        "zh", page=DATA, data_dataset="Tutorial pairs", split="unseen word", lab_data="数据页的句子对（50 个）"
    )
    assert not at.exception
    assert at.radio(key="data_dataset").value == "tutorial" and len(at.session_state["pairs"]) == 50
    at.switch_page(TRAIN).run()
    assert not at.exception and at.radio(key="split").value == "word"
    at.switch_page("pages/lab.py").run()
    assert not at.exception and at.radio(key="lab_data").value == "table"


def test_a_later_tab_on_a_dataset_finds_its_summary_and_tags_computed_once_per_server(monkeypatch):
    import ui.datasets
    import ui.session

    done = []
    real_summary, real_tags = ui.datasets.summarize_pairs, corpus.tags_of
    for module in (ui.datasets, ui.session):  # a dataset's summary, once per server; the tab's own table's
        monkeypatch.setattr(module, "summarize_pairs", lambda *a: done.append("summary") or real_summary(*a))
    monkeypatch.setattr(corpus, "tags_of", lambda pairs: done.append("tags") or real_tags(pairs))
    first = open_app(page=DATA)
    done.clear()
    _corpus(first, 130)  # a corpus no other tab has shown: its table summarised and tagged here
    assert done.count("summary") == 1 and done.count("tags") == 1
    counts = _frame(first, "phenomenon")
    later = open_app(page=DATA)
    _corpus(later, 130)
    assert done.count("summary") == 1 and done.count("tags") == 1  # neither done again
    assert _frame(later, "phenomenon").equals(counts)
    pairs = later.session_state["pairs"]
    tags = real_tags(pairs)
    assert dict(zip(counts["phenomenon"], counts["pairs"])) == {
        t(f"phenomenon.{p}", "en"): n for p in corpus.PHENOMENA if (n := sum(p in pair for pair in tags))
    }
    later.session_state["pairs"] = [*pairs[:-1], (pairs[-1][0], "a new reference .")]  # edited: the tab's own
    later.run()
    assert done.count("summary") == 2 and done.count("tags") == 2
