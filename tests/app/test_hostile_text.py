"""Text from users and files is shown as text on every page: sentence pairs, a vocabulary and a checkpoint's name made
of markdown, LaTeX, HTML and link payloads never reach markdown or a chart label unescaped (issue 9.5), nor markup or
a link in the page's lesson sheet (issue 21)."""

from __future__ import annotations

import json
import re

import plotly.io
import pytest

from tests.apptest_helpers import PAGES, open_app
from transformer import TrainConfig, Translator, train
from ui.model_cache import CurrentModel
from ui.sheet import lesson_sheet_html

# whitespace tokenization keeps each payload one token, so it reaches the vocabulary whole
PAYLOAD_PAIRS = [
    ("$\\rule{3000px}{3000px}$ 我", "`a` b"),
    ("[x](https://example.com) 你", "<a href='https://example.com'>x</a> c"),
    ("**bold** 他", ":red[red] www.example.com d"),
]
# fragments that would become a formula, a code span, a link, an HTML tag, bold text or a colour directive
DANGEROUS = ["$\\rule", "`a`", "](https://", "<a href", "**bold**", ":red["]


def _sources(at) -> list[str]:
    """The markdown source of every element that renders markdown."""
    kinds = ("markdown", "caption", "error", "warning", "info", "success", "title", "header", "subheader")
    return [e.value for kind in kinds for e in getattr(at, kind)] + [
        e.value for kind in kinds for e in getattr(at.sidebar, kind)
    ]


def _charts(at) -> list[str]:
    return [json.dumps(json.loads(c.proto.spec)) for c in at.get("plotly_chart")]


@pytest.fixture(scope="module")
def payload_model() -> Translator:
    translator = Translator.create(PAYLOAD_PAIRS, "whitespace", d_model=8, n_heads=2, d_ff=16, n_layers=1)
    for _ in train(translator, PAYLOAD_PAIRS, TrainConfig(epochs=3)):
        pass
    return translator


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_payloads_in_pairs_vocabulary_and_file_name_stay_text(page, payload_model):
    model = CurrentModel(payload_model, "uploaded", name="**evil** $x$ [a](https://e.com).safetensors")
    at = open_app(page=page, pairs=list(PAYLOAD_PAIRS), tokenizer="whitespace", model=model)
    assert not at.exception
    for source in _sources(at):
        for fragment in DANGEROUS:
            assert fragment not in source, f"{fragment!r} unescaped in {source[:200]!r}"
        assert "**evil**" not in source and "$x$" not in source
    for spec in _charts(at):
        assert "<a href" not in spec and "$\\\\rule" not in spec, spec[:300]
    sheet = at.session_state["_lesson_sheet"]
    body = lesson_sheet_html(sheet, ["x"], "en").split("</style>", 1)[1]  # the file after plotly.js and the styles
    figures = len({plotly.io.to_json(c.figure) for c in sheet.charts})
    assert body.count("<script") == figures + 2 * bool(figures)  # each figure's JSON, plotly.js (packed), its loader
    tags = re.findall(r"<([a-zA-Z][\w-]*)([^>]*)>", body)
    assert not [tag for tag in tags if tag[0] in ("a", "img", "iframe", "object", "embed", "link", "base")]
    assert not [tag for tag in tags if re.search(r"\b(href|src|on\w+)=", tag[1])]
    assert "<strong>bold</strong>" not in body and "<code>a</code>" not in body and '<span class="color' not in body
    if page == "pages/data.py":  # the payloads, as their own characters
        assert "&lt;a href=&#x27;https://example.com&#x27;&gt;x&lt;/a&gt;" in body and "**bold**" in body
