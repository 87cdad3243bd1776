"""The Train page's alignment forming (issue 30 §7): the best head's AER per epoch beside the loss curve, with its
sentence; and one plain line when the model's training has no AER to show."""

from dataclasses import replace

from tests.apptest_helpers import open_app, opened_page, texts
from transformer import Translator
from ui.model_cache import CurrentModel

TRAIN = "pages/train.py"


def test_the_best_heads_aer_per_epoch_is_drawn_with_its_sentence_and_without_gold_it_says_why(trained_seed):
    history = tuple(
        replace(h, aer=aer, aer_layer=1, aer_head=0) for h, aer in zip(trained_seed.summary.history, (0.75, 0.5, 0.25))
    )
    summary = replace(trained_seed.summary, history=history, epochs=3)
    tr = trained_seed
    recorded = Translator(tr.model, tr.src_vocab, tr.tgt_vocab, tr.tokenizer, summary)
    pairs = [("我 喜 欢 你", "I love you .")]
    at = open_app(page=TRAIN, model=CurrentModel(recorded, "trained", trained_on=tuple(pairs)), pairs=pairs)
    assert [c for c in at.get("plotly_chart") if c.proto.id.endswith("-aer_chart")]
    said = " ".join(texts(at, "markdown"))
    assert "the best head's AER fell from 0.75 after epoch 1 to 0.25 after epoch 3 (then layer 2 head 1)." in said
    at.session_state["model"] = CurrentModel(trained_seed, "trained", trained_on=tuple(pairs))  # trained, no gold
    at.run()
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith("-aer_chart")]
    assert any("carry no gold word alignments" in c for c in texts(at, "caption"))


def test_the_bundled_model_says_its_training_did_not_record_it():
    at = opened_page("en", TRAIN)
    assert any("did not record the alignment error rate per epoch" in c for c in texts(at, "caption"))
