"""The Train page and the sidebar give the same parameter count and vocabulary sizes (issue 41): the Train page counts
the model Train would build (its vocabularies of the training pairs, held-out pairs left out, a BPE learned from the
training pairs alone), the sidebar the model that was built, both through ui.widgets.model_size."""

from __future__ import annotations

import re

import pytest

from tests.apptest_helpers import finish_job, open_app, texts
from tests.transformer.test_bpe import PAIRS

TINY = dict(d_model=16, n_heads=2, d_ff=32, n_layers=1, epochs=5)


def _train_page_counts(at) -> tuple[str, str, str]:
    """(parameters, source vocabulary, target vocabulary) as the Train page's line gives them."""
    (line,) = [s for s in texts(at, "markdown") if " parameters** · " in s]
    found = re.search(r"\*\*([\d,]+) parameters\*\* · .* vocabularies ([\d,]+) / ([\d,]+) tokens", line)
    return found.groups()


def _sidebar_counts(at) -> tuple[str, str, str]:
    """(parameters, source vocabulary, target vocabulary) as the sidebar's model summary gives them."""
    summary = "\n".join(m.value for m in at.sidebar.markdown)
    n = re.search(r"Parameters: ([\d,]+)", summary).group(1)
    src, tgt = re.search(r"Vocabulary: ([\d,]+) source / ([\d,]+) target tokens", summary).groups()
    return n, src, tgt


@pytest.mark.parametrize("tokenizer", ["bpe", "auto"])
def test_the_train_page_counts_the_model_the_sidebar_then_shows(tokenizer):
    at = open_app("en", page="pages/data.py", data_dataset="own", pairs=list(PAIRS), editor_base=list(PAIRS))
    at.selectbox(key="tokenizer").set_value(tokenizer).run()
    if tokenizer == "bpe":
        at.number_input(key="bpe_vocab_size").set_value(35).run()
    at.switch_page("pages/train.py").run()
    for key, value in TINY.items():
        (at.slider if key in ("n_layers", "epochs") else at.select_slider)(key=key).set_value(value).run()
    planned = _train_page_counts(at)
    at.button(key="train_button").click().run()
    finish_job(at)
    assert not at.exception and at.session_state.model.translator.summary.data.holdout_rows  # pairs were held out
    assert _sidebar_counts(at) == planned == _train_page_counts(at)
