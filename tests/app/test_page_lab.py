"""The Lab page under AppTest: an experiment trains both models as one background job, the comparison shows what a
learner must see, a custom variant needs a switch, and the current model can be compared with an uploaded checkpoint
(issue 11.3, 11.4)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.apptest_helpers import finish_job, open_app, open_link, opened_page, texts, wait_for_epochs
from tests.conftest import PAIRS20, TINY
from transformer import TrainConfig, Translator, train
from transformer.checkpoint import save_checkpoint
from transformer.lab import EXPERIMENTS
from transformer.plan import TrainingPlan
from ui.training import job_queue

LAB = "pages/lab.py"
SMALL = PAIRS20[:8]  # a few short pairs: both models train in about a second
REORDERED = [  # four groups of corpus sentences whose meaning changes with word order, then two other pairs
    ("我们看见她的猫", "We see her cat ."),
    ("她的猫看见我们", "Her cat saw us ."),
    ("他们认识你们吗", "Do they know you ?"),
    ("你们认识他们吗", "Do you know them ?"),
    ("他在追我", "He is chasing me ."),
    ("我在追他", "I am chasing him ."),
    ("他们喜欢狗", "They like dogs ."),
    ("狗喜欢他们", "The dog likes them ."),
    ("我 喜 欢 你", "I love you ."),
    ("她不喝茶", "She does not drink tea ."),
]


def _chart_keys(at) -> list[str]:
    return [el.proto.id.rsplit("-", 1)[-1] for el in at.get("plotly_chart")]


def shown_as(column, texts: list[str]) -> bool:
    """Whether a results table's column shows texts in order, each whole or cut with "…" (ui.tables.cut_text)."""
    shown = list(column)
    return len(shown) == len(texts) and all(
        a == b or a.endswith("…") and b.startswith(a[:-1]) for a, b in zip(shown, texts)
    )


def _table(at, column: str):
    """The table with this column."""
    return next(df.value for df in at.dataframe if column in df.value.columns)


@pytest.mark.slow
def test_an_experiment_trains_both_models_in_the_background_and_compares_them():
    at = open_app(page=LAB, pairs=list(REORDERED), lab_experiment="no_pe", lab_data="table")
    assert "Variant: pe=none." in " ".join(c.value for c in at.caption)
    assert not at.warning  # these pairs can show the effect: four groups whose meaning changes with word order
    at.button(key="run_lab").click().run()
    job = at.session_state.job
    assert job.kind == "lab" and [r.name for r in job.runs] == ["baseline", "variant"]
    models = [r.translator.build() if isinstance(r.translator, TrainingPlan) else r.translator for r in job.runs]
    assert [m.config.variant for m in models] == [{}, {"pe": "none"}]  # a recipe until the job builds it
    at.switch_page("pages/data.py").run()  # the learner leaves the page while both train
    assert not at.exception
    finish_job(at)
    at.switch_page(LAB).run()
    assert not at.exception
    assert any(h.value == "Results: No positional encoding" for h in at.header)
    reordered = _table(at, "group")
    assert shown_as(reordered["source"], [s for s, _ in REORDERED[:8]])  # exactly the pairs word order decides
    for _, group in reordered.groupby("group"):  # no positions: a bag of words, one translation per group
        assert group["variant: greedy translation"].nunique() == 1
    b_right, v_right = ((reordered[f"{side}: ✓/✗"] == "✓").sum() for side in ("baseline", "variant"))
    assert v_right <= 4  # at most one sentence of each group
    (measured,) = [m for m in texts(at, "markdown") if m.startswith("Measured")]
    assert measured.startswith("Measured on the 8 trained pairs whose meaning changes with word order (4 groups")
    assert f"translates **{v_right} of 8** exactly" in measured and f"the baseline {b_right} of 8" in measured
    (trained,) = [m for m in texts(at, "markdown") if m.startswith("The baseline learned its training pairs")]
    assert trained.startswith("The baseline learned its training pairs in 60 epochs: 10 of 10 exact (100.0%")
    verdict = texts(at, "success") + texts(at, "warning")
    assert verdict == (["✓ The claim held in this run."] if v_right < b_right else [verdict[0]])
    score_tables = [df.value for df in at.dataframe if "BLEU" in df.value.columns]
    assert len(score_tables) == 2  # the baseline's and the variant's, side by side
    assert "model" not in score_tables[0].columns
    assert _chart_keys(at) == [
        "chart_lab_curves",
        "chart_lab_aer",  # corpus sentences carry gold links: alignment forming, for both models
        "chart_lab_scores",
        "chart_lab_peaks",
        "chart_lab_attention_a",
        "chart_lab_attention_b",
    ]
    curves = json.loads(at.get("plotly_chart")[0].proto.spec)["data"]
    assert {c["name"] for c in curves} == {"baseline", "variant"} and len(curves[0]["x"]) == 60
    aer = json.loads(at.get("plotly_chart")[1].proto.spec)["data"]
    assert [c["name"] for c in aer] == ["baseline", "variant"] and len(aer[0]["x"]) == len(aer[1]["x"]) == 60
    assert any(m.startswith("After every epoch the training measured") for m in texts(at, "markdown"))
    table = _table(at, "baseline ✓/✗")
    assert len(table) == len(REORDERED) and {"baseline ✓/✗", "variant ✓/✗"} <= set(table.columns)
    assert at.session_state.model.source == "bundled"  # an experiment never replaces the current model
    at.button(key="use_variant").click().run()
    assert at.session_state.model.translator.config.variant == {"pe": "none"}
    assert at.button(key="use_variant").disabled


def test_on_pairs_that_cannot_show_the_effect_the_lab_says_why_and_offers_the_corpus():
    at = open_app(page=LAB, pairs=list(SMALL), lab_experiment="no_pe")
    assert at.radio(key="lab_data").value == "corpus"  # the default: the corpus shows every effect
    corpus_pairs = EXPERIMENTS["no_pe"].corpus_pairs()
    assert f"trained on {len(corpus_pairs):,} pairs" in " ".join(c.value for c in at.caption)
    assert not at.warning and not at.button(key="run_lab").disabled
    at.radio(key="lab_data").set_value("table").run()
    assert texts(at, "warning") == [
        "These pairs cannot show this effect: it needs at least 3 groups of sentences with the same characters in "
        "another order and another meaning (猫追狗 / 狗追猫), and these pairs have 0. Run it on the corpus."
    ]
    at.button(key="lab_use_corpus").click().run()  # one click
    assert at.radio(key="lab_data").value == "corpus" and not at.warning
    at.selectbox(key="lab_experiment").set_value("no_look_ahead").run()
    at.radio(key="lab_data").set_value("table").run()
    assert texts(at, "warning") == [
        "These 8 pairs cannot show this effect: with fewer than 200 pairs a model can memorise every reference, and "
        "memorising passes for translating. Run it on the corpus."
    ]
    at.selectbox(key="lab_experiment").set_value("no_scale").run()
    assert not at.warning  # any pairs can show this one


@pytest.mark.slow
def test_after_a_claim_that_did_not_hold_the_advice_follows_the_cause():
    at = open_app(page=LAB, pairs=list(SMALL), lab_experiment="no_pe", lab_data="table", epochs=5)
    at.button(key="run_lab").click().run()
    finish_job(at)
    assert not at.exception
    (advice,) = [w for w in texts(at, "warning") if w.startswith("✗")]
    assert advice == (
        "✗ The claim did not hold in this run. These pairs cannot show the effect (see above): run it on the corpus."
    )
    assert "seed" not in advice


def test_a_custom_variant_needs_a_switch_and_uses_the_train_page_settings():
    at = open_app(page=LAB, lab_experiment="custom", d_model=32, n_heads=2, epochs=20, seed=5)
    assert "Every switch is as in the standard model" in texts(at, "warning")[0]
    assert at.button(key="run_lab").disabled
    at.toggle(key="lab_look_ahead_mask").set_value(False).run()
    at.radio(key="lab_norm").set_value("pre").run()
    settings = " ".join(c.value for c in at.caption)
    assert "d_model 32, n_heads 2" in settings and "20 epochs" in settings and "seed 5" in settings
    assert "then more epochs until the baseline has learned (at most 60)" in settings  # transformer.lab.Until
    assert "Variant: look_ahead_mask=False, norm=pre." in settings
    assert not at.button(key="run_lab").disabled
    query = dict(at.query_params)
    assert query["experiment"] == "custom" and query["look_ahead_mask"] == "false" and query["norm"] == "pre"
    fresh = open_link(LAB, query)  # a link opens the same variant
    assert fresh.toggle(key="lab_look_ahead_mask").value is False and fresh.radio(key="lab_norm").value == "pre"


def test_the_current_model_is_compared_with_an_uploaded_checkpoint():
    other = Translator.create(SMALL, **TINY)
    list(train(other, SMALL, TrainConfig(epochs=30)))
    at = open_app(page=LAB, pairs=list(SMALL), lab_mode="checkpoint")
    assert texts(at, "info")[0].startswith("Upload a checkpoint")
    at.file_uploader(key="compare_upload").upload("<b>mine</b>.safetensors", save_checkpoint(other)).run()
    assert not at.exception
    assert "Comparing the current model with <b>mine</b>.safetensors." in texts(at, "markdown")
    table = _table(at, "reference")
    assert len(table) == len(SMALL) and "<b>mine</b>.safetensors ✓/✗" in table.columns
    scores = json.loads(at.get("plotly_chart")[1].proto.spec)["data"]
    assert [s["name"] for s in scores] == ["current model", "&lt;b&gt;mine&lt;/b&gt;.safetensors"]  # text, not HTML
    at.file_uploader(key="compare_upload").upload("bad.safetensors", b"\x80\x04" + b"\x00" * 40).run()
    assert any("bad.safetensors" in e for e in texts(at, "error"))
    assert len(_table(at, "reference")) == len(SMALL)  # the comparison so far stays


def test_the_lab_in_chinese():
    at = opened_page("zh", LAB)
    assert not at.exception
    assert at.title[0].value == "实验室：故意把模型弄坏"
    assert at.button(key="run_lab").label == "运行实验"


def test_the_lab_waits_for_good_data_and_for_the_tabs_training_to_end():
    at = open_app(page=LAB, pairs=[*SMALL, ("我 " * 50, "I .")], lab_data="table")  # a source the model cannot read
    assert at.button(key="run_lab").disabled
    assert texts(at, "error") == ["The sentence pairs have problems: fix them on the Data page first."]
    at = open_app(page="pages/train.py", pairs=list(SMALL), epochs=400)
    at.button(key="train_button").click().run()
    at.switch_page(LAB).run()
    assert at.button(key="run_lab").disabled
    assert any(i.startswith("This tab is already training") for i in texts(at, "info"))
    at.session_state.job.stop_requested = True  # as Stop does
    finish_job(at)  # nothing trains on after the test


def test_pairs_a_checkpoint_cannot_read_are_left_out_of_the_comparison():
    short = Translator.create(SMALL, **TINY, max_len=5)  # reads at most 5 source tokens, S + 4 target tokens
    at = open_app(page=LAB, pairs=list(SMALL), lab_mode="checkpoint")
    at.file_uploader(key="compare_upload").upload("short.safetensors", save_checkpoint(short)).run()
    assert not at.exception
    readable = [p for p in SMALL if len(p[0]) <= 5 and len(p[1].split()) <= 4]
    left_out = len(SMALL) - len(readable)
    assert 0 < left_out < len(SMALL)
    assert texts(at, "warning") == [
        f"{left_out} pairs are longer than one of the models reads: they are left out of the comparison."
    ]
    assert list(_table(at, "reference")["source"]) == [s for s, _ in readable]


def test_a_verdict_names_the_measures_the_variant_wins_and_says_when_the_baseline_had_not_learned():
    """The issue's no-PE run: an under-trained baseline whose BLEU (74.8) is below the variant's (79.6)."""
    from transformer.plan import finish
    from ui.model_cache import CurrentModel
    from ui.training import LabResult

    pairs = list(REORDERED)
    models = []
    for switches, bleu in (({}, 74.8), ({"pe": "none"}, 79.6)):
        translator = Translator.create(pairs, seed=0, **TINY, **switches)
        list(train(translator, pairs, TrainConfig(epochs=3, batch_size=10)))
        evaluations = finish(translator, pairs, [])
        table = translator.summary.scores  # every part's "all" row given this BLEU
        cells = {k: replace(v, bleu=bleu) if k[0] == "all" else v for k, v in table.cells.items()}
        translator.summary = replace(translator.summary, scores=replace(table, cells=cells))
        models.append(CurrentModel(translator, "trained", evaluations=evaluations, trained_on=tuple(pairs)))
    result = LabResult("no_pe", models[0], models[1], pairs, [])
    at = open_app(page=LAB, pairs=pairs, lab_experiment="no_pe", lab=result)
    assert not at.exception
    warnings = texts(at, "warning")
    (unlearned,) = [w for w in warnings if w.startswith("The baseline did not learn")]  # said plainly, by figures
    exact = models[0].evaluations["train"]
    assert unlearned.startswith(
        f"The baseline did not learn its training pairs in 3 epochs, the most this experiment trains: {exact.exact} of "
        f"10 exact ({exact.exact_match:.1%}, below 90%)."
    )
    assert "✓ The claim held in this run." not in texts(at, "success")
    (higher,) = [i for i in texts(at, "info") if i.startswith("The variant scores higher")]
    assert higher.startswith("The variant scores higher than the baseline on ") and "BLEU (79.6 against 74.8)" in higher
    assert "BLEU and chrF count the words and characters an output shares with its reference" in higher


def test_an_experiment_on_the_training_trains_each_side_with_its_own_settings():
    at = open_app(page=LAB, pairs=list(SMALL), lab_experiment="no_warmup", lab_data="table")
    assert not at.exception and not at.button(key="run_lab").disabled  # no switch of the model, one of its training
    at.button(key="run_lab").click().run()
    baseline, variant = (run.config for run in at.session_state.job.runs)
    assert (baseline.warmup, variant.warmup) == (50, None)
    assert variant.lr == EXPERIMENTS["no_warmup"].variant_train["lr"]
    job = at.session_state.job
    wait_for_epochs(at, 2)
    job_queue().stop(job)  # what the page shows is the point here, not a whole training
    finish_job(at)
    assert not at.exception
    assert any(h.value == "Results: No warmup" for h in at.header)
    (measured,) = [m for m in texts(at, "markdown") if m.startswith("Measured")]
    assert measured.startswith("Measured at the peak learning rate 0.0177: final loss **")


def test_the_settings_of_an_experiment_on_the_training_say_what_each_side_changes():
    at = open_app(page=LAB, lab_experiment="label_smoothing")
    assert "Variant: label_smoothing=0.1." in " ".join(c.value for c in at.caption)
    at.selectbox(key="lab_experiment").set_value("no_warmup").run()
    assert "Variant: lr=0.0177." in " ".join(c.value for c in at.caption)  # the claim says the baseline warms up


def test_the_dropout_experiment_holds_out_new_combinations_and_counts_them_in_its_verdict():
    from transformer.alignment import gold_sample
    from transformer.plan import finish
    from ui.model_cache import CurrentModel
    from ui.training import LabResult

    pairs, held_pairs = list(REORDERED[:4]), [REORDERED[8]]  # few: an untrained model decodes to its longest
    models = []
    for dropout in (0.0, 0.1):
        translator = Translator.create(pairs, seed=0, **TINY, dropout=dropout)
        list(train(translator, pairs, TrainConfig(epochs=2, batch_size=4), gold=gold_sample(pairs)))
        evaluations = finish(translator, pairs, held_pairs)
        models.append(CurrentModel(translator, "trained", evaluations=evaluations, trained_on=tuple(pairs)))
    result = LabResult("dropout", models[0], models[1], pairs, held_pairs)
    at = open_app(page=LAB, lab_experiment="dropout", lab=result)
    assert not at.exception
    held = 67  # a tenth of its 600 corpus pairs, seed 0 (transformer.lab.combination_rows)
    assert f"trained on 533 pairs, {held} held out. Variant: dropout=0.1." in " ".join(c.value for c in at.caption)
    (measured,) = [m for m in texts(at, "markdown") if m.startswith("Measured")]
    rights = [m.evaluations["holdout"].exact for m in models]
    assert measured.startswith(
        f"Measured on the 1 held-out sentences of new combinations: the variant with dropout "
        f"translates **{rights[1]} of 1** exactly"
    )
    assert "✓ The claim held in this run." not in texts(at, "success")  # two epochs: neither model has learned
    assert "chart_lab_aer" in _chart_keys(at)


def test_a_lab_run_past_the_sample_size_compares_the_sample_its_training_scored_and_says_so(monkeypatch):
    from transformer.plan import finish, scored_rows
    from ui.model_cache import CurrentModel
    from ui.training import LabResult

    monkeypatch.setattr("transformer.plan.TRAIN_SAMPLE", 6)  # 10 training pairs: more than the sample
    pairs, models = list(REORDERED), []
    for switches in ({}, {"pe": "none"}):
        translator = Translator.create(pairs, seed=0, **{**TINY, "n_layers": 1}, max_len=10, **switches)  # untrained
        translator.summary = replace(translator.summary, train_config=TrainConfig(epochs=1, seed=3))
        evaluations = finish(translator, pairs, [], seed=3)  # as the Lab's job scores each side
        models.append(CurrentModel(translator, "trained", evaluations=evaluations, trained_on=tuple(pairs)))
    evaluated = []
    monkeypatch.setattr(Translator, "evaluate", lambda self, p: evaluated.append(p))
    at = open_app(page=LAB, pairs=pairs, lab_experiment="no_pe", lab=LabResult("no_pe", *models, pairs, []))
    assert not at.exception
    sample = [pairs[i] for i in scored_rows(10, 3)]
    assert evaluated == []  # the sample each side's training scored, not every pair again in the page
    said = "The training figures are scored on a sample of 6 of the 10 training pairs, drawn with the training's seed"
    assert any(c.value.startswith(said) for c in at.caption)
    translations = at.dataframe[-1].value
    assert shown_as(translations["source"], [s for s, _ in sample])
