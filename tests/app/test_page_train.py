"""The Train page through AppTest, for real-sized data: sizes whose checkpoint would be refused, and held-out words
that training never saw."""

from dataclasses import replace

import pytest

from deploy.nginx import upload_cap_mb
from tests.apptest_helpers import open_app, texts
from transformer import TrainConfig, Translator
from transformer.checkpoint import checkpoint_bytes
from transformer.config import MAX_CHECKPOINT_BYTES
from transformer.data import build_vocabs
from transformer.plan import finish
from transformer.summary import EpochRecord
from ui.model_cache import CurrentModel
from ui.session import MEMO_PREFIX

TRAIN = "pages/train.py"


def _wide_table(words: int) -> list[tuple[str, str]]:
    """Pairs of 40 tokens a side that hold `words` distinct words on each side."""
    return [
        (" ".join(f"s{i + j}" for j in range(40)), " ".join(f"t{i + j}" for j in range(40)))
        for i in range(0, words, 40)
    ]


def test_sizes_whose_checkpoint_would_be_too_large_are_refused_before_training():
    pairs = _wide_table(4_000)
    at = open_app(page=TRAIN, pairs=pairs)
    assert not at.exception and not at.button(key="train_button").disabled  # the default sizes fit
    for key, value in (("d_model", 256), ("d_ff", 1024), ("n_layers", 6)):
        (at.slider if key == "n_layers" else at.select_slider)(key=key).set_value(value).run()
    assert at.button(key="train_button").disabled
    (error,) = texts(at, "error")
    # the model Train would build: the vocabularies of the 90 training pairs (10 of the 100 are held out)
    held = 100 - 90
    plan = at.session_state[MEMO_PREFIX + "train_plan"][1]
    assert len(plan.train_pairs) == 90 and len(plan.held_pairs) == held
    translator = Translator.create(plan.train_pairs, d_model=256, n_heads=4, d_ff=1024, n_layers=6)
    size = checkpoint_bytes(translator.config, translator.src_vocab, translator.tgt_vocab, 60, held)
    assert size > 50_000_000
    assert error == (
        f"With vocabularies of 3,604 / 3,604 tokens these sizes make a model of {translator.model.num_parameters():,} "
        f"parameters, whose checkpoint would take up to {size / 1e6:,.0f} MB, more than the 50 MB a checkpoint may "
        "have. Choose a smaller d_model, d_ff or n_layers."
    )
    at.slider(key="n_layers").set_value(1).run()
    assert not at.error and not at.button(key="train_button").disabled


def test_a_table_with_more_distinct_tokens_than_a_vocabulary_holds_cannot_be_trained():
    at = open_app(page=TRAIN, pairs=_wide_table(30_000))
    assert not at.exception
    assert at.button(key="train_button").disabled
    assert texts(at, "error") == ["The data has 2 problem(s): fix them on the Data page first."]


def _held_out_model(train_pairs, held_pairs) -> CurrentModel:
    translator = Translator.create(train_pairs, d_model=16, n_heads=2, d_ff=32, n_layers=1)
    evaluations = {"train": translator.evaluate(train_pairs), "holdout": translator.evaluate(held_pairs)}
    return CurrentModel(translator, "trained", evaluations=evaluations, trained_on=tuple(train_pairs + held_pairs))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_held_out_words_training_never_saw_are_counted_and_explained(lang):
    train_pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "Hello .")]
    held = [("我 喜 欢 猫", "I love cats ."), ("猫 猫 好", "Hello cats cats ."), ("你 好", "Hello .")]
    at = open_app(lang, page=TRAIN, model=_held_out_model(train_pairs, held))
    assert not at.exception
    infos = texts(at, "info")
    if lang == "en":
        assert (
            "**Held-out source tokens read as `<unk>`: 3** (猫 ×3). A word that occurs only in held-out pairs is not "
            "in the source vocabulary, which is built from the training pairs alone: the model has never seen it."
            in infos
        )
        assert (
            "**Held-out reference tokens the model cannot write: 3** (cats ×3). A word that occurs only in held-out "
            "pairs is not in the target vocabulary, which is built from the training pairs alone, so these held-out "
            "pairs cannot come out exactly: 2 of 3." in infos
        )
    else:
        assert any("被读成 `<unk>` 的词元：3 个**（猫 ×3）" in i for i in infos)
        assert any("不可能完全译对：3 个中有 2 个。" in i for i in infos)
    # the verdict is the model's: the held-out pairs with a word it cannot write did not come out exactly
    held_eval = at.session_state.model.evaluations["holdout"]
    assert not any(ok for source, _, _, ok in held_eval.results if "猫" in source)


def test_no_word_is_said_to_be_unseen_when_training_saw_every_held_out_word():
    train_pairs = [("我 喜 欢 你", "I love you ."), ("你 好", "Hello ."), ("猫", "cats")]
    held = [("我 喜 欢 猫", "I love cats ."), ("你 好", "Hello .")]
    assert build_vocabs(train_pairs)[0].encode(["我", "喜", "欢", "猫"])[1] == []
    at = open_app(page=TRAIN, model=_held_out_model(train_pairs, held))
    assert not at.exception
    assert not [i for i in texts(at, "info") if "held-out" in i]


def test_the_loss_curve_is_built_once_per_model_not_on_every_rerun(monkeypatch, trained_seed):
    import viz.training

    built = []
    real = viz.training.loss_accuracy_figure
    monkeypatch.setattr(viz.training, "loss_accuracy_figure", lambda *a, **k: built.append(a) or real(*a, **k))
    pairs = [("我 喜 欢 你", "I love you .")]
    at = open_app(page=TRAIN, model=CurrentModel(trained_seed, "trained", trained_on=tuple(pairs)), pairs=pairs)
    curve = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-history_chart")]
    assert len(built) == 1 and len(curve) == 1
    at.switch_page("pages/masks.py").run()
    at.switch_page(TRAIN).run()  # back on the page: the same curve, not built again
    assert len(built) == 1
    assert [c.proto.spec for c in at.get("plotly_chart") if c.proto.id.endswith("-history_chart")] == [
        curve[0].proto.spec
    ]
    at.session_state["lang"] = "zh"  # another language: its own curve, in Chinese
    at.run()
    assert len(built) == 2


def test_a_checkpoint_only_a_windows_browser_sends_reaches_the_app_and_is_refused_with_the_limit():
    """The checkpoint uploader has the server's cap (50 MB), which the uploader counts in megabytes of 1,048,576 bytes
    in a browser on Windows: there a file of 50,000,001 to 52,428,800 bytes is sent, and the app refuses it
    (tests/transformer/test_checkpoint.py refuses 50,000,001 bytes as well)."""
    at = open_app(page=TRAIN)
    before = at.session_state.model
    limit_mb = at.file_uploader(key="model_upload").proto.max_upload_size_mb
    assert limit_mb * 1_000_000 == MAX_CHECKPOINT_BYTES  # what other browsers send at most
    largest = limit_mb * 1024 * 1024  # 52,428,800: what a Windows browser sends at most
    assert largest <= upload_cap_mb() * 1024 * 1024  # Streamlit's server counts its cap in megabytes of 1,048,576
    at.file_uploader(key="model_upload").upload("big.safetensors", b"\0" * largest).run()
    assert texts(at, "error") == [
        "big.safetensors was not loaded: the file is larger than 50,000,000 bytes; it is not a checkpoint of this "
        "app. The current model is unchanged."
    ]
    assert at.session_state.model is before


def test_training_pairs_scored_on_a_sample_are_said_to_be_a_samples_wherever_their_figures_are_shown():
    words = ["see", "love", "have", "eat", "drink"]
    train_pairs = [(f"我 {c}", f"I {w} .") for c, w in zip("看爱有吃喝", words)]
    held = [("我 听", "I hear ."), ("我 看", "I see .")]
    translator = Translator.create(train_pairs, d_model=16, n_heads=2, d_ff=32, n_layers=1, max_len=6)
    evaluations = finish(translator, train_pairs, held, seed=0, sample=3)  # 3 of the 5 training pairs, both held
    scored = evaluations["train"].results
    history = (EpochRecord(1, 2.0, 0.1, None), EpochRecord(2, 1.9, 0.1, None))
    settings = TrainConfig(epochs=2, batch_size=1)
    translator.summary = replace(translator.summary, history=history, epochs=2, train_config=settings)
    model = CurrentModel(translator, "trained", evaluations=evaluations, trained_on=tuple(train_pairs + held))
    info = {"kind": "train", "stopped": False, "epochs": 2, "seconds": 1.0}
    at = open_app(page=TRAIN, model=model, last_training=info)
    assert not at.exception
    said = (
        "The training figures are scored on a sample of 3 of the 5 training pairs, drawn with the training's seed: "
        "decoding every one of them would take a large share of the training's time. Held-out pairs are always "
        "scored in full."
    )
    assert said in [m.value for m in at.markdown]
    exact = evaluations["train"].exact
    shown = {m.label: m.proto.delta for m in at.metric}
    assert shown["exact-match translations"] == f"{exact} of 3 sampled pairs"
    assert shown["exact-match, held out"] == f"{evaluations['holdout'].exact} of 2 pairs"  # all held out: no sample
    assert "The training pairs below are the 3 of the sample, not all 5." in [c.value for c in at.caption]
    right = f"{evaluations['train'].exact_match:.0%}"  # the sample's; the advice counts the steps of all 5 pairs
    said = [w for w in texts(at, "warning") if w.startswith("Under-trained: ")]
    assert len(said) == 1 and "e.g. 4 epochs (about 20 steps)" in said[0]
    assert right in said[0] or (right == "0%" and "none of the training pairs" in said[0])  # none: rate and recipe
    table = at.dataframe[-1].value  # the results: both held-out pairs, then the sample's training pairs
    assert list(table.columns[:2]) == ["✓/✗", "part"]  # the verdicts first: the mark and the part, then the texts
    assert len(table) == 5 and sorted(table["source"]) == sorted([p[0] for p in held] + [r[0] for r in scored])
