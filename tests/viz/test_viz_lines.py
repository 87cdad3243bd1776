"""The line view of attention (viz.lines): every line as opaque as its weight in the matrix, one head or every head in
its colour, a chosen token's lines kept while the rest fade, gold links over the lines, and tokens shown as text."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from transformer import Translator
from transformer.model import ATTENTION_KINDS
from viz.attention import attention_figure
from viz.lines import DIMMED, GOLD_COLOR, HEAD_COLORS, KEY, QUERY, attention_lines_figure, line_alpha

PAIRS = [("我 喜 欢 你", "I love you ."), ("你 喜 欢 猫", "you love cats .")]


@pytest.fixture(scope="module")
def view():
    translator = Translator.create(PAIRS, seed=0, d_model=16, d_ff=32, n_heads=4, n_layers=2)
    return translator.inspect(*PAIRS[0])


def lines(fig) -> tuple[np.ndarray, list[str], np.ndarray]:
    """(query, key) of every line, its colour's hue, and its alpha."""
    link = fig.data[0].link
    n_q = min(link.target)
    ends = np.array([(s, t - n_q) for s, t in zip(link.source, link.target)])
    return ends, [c.rsplit(",", 1)[0] for c in link.color], np.array([line_alpha(c) for c in link.color])


@pytest.mark.parametrize("kind", list(ATTENTION_KINDS))
def test_each_line_is_as_opaque_as_the_weight_the_matrix_shows(view, kind):
    attn = view.maps.of(kind)[1][0]  # (H, Lq, Lk), layer 2
    rows, cols = ATTENTION_KINDS[kind].sides(view.src_tokens, view.dec_tokens)
    fig = attention_lines_figure(attn, rows, cols, heads=[1])
    matrix = np.array(attention_figure(attn[1], rows, cols).data[0].z, dtype=float)  # what the heatmap draws
    ends, _, alpha = lines(fig)
    assert len(alpha) == matrix.size  # a line for every cell, even a weight of 0 (drawn clear)
    np.testing.assert_allclose(alpha, matrix[ends[:, 0], ends[:, 1]], atol=1e-4)
    order = np.argsort(matrix[ends[:, 0], ends[:, 1]], kind="stable")
    assert np.all(np.diff(alpha[order]) >= 0)  # a larger weight is never a fainter line
    hover = np.array([line_alpha(c) for c in fig.data[0].link.hovercolor])
    assert np.all(np.diff(hover[order]) >= 0) and np.all(hover >= alpha - 1e-9)  # pointing at it: stronger, in order
    assert set(fig.data[0].link.value) == {1}  # every line equally wide: only the opacity tells the weight


def test_all_heads_are_drawn_each_in_its_own_colour_from_the_same_numbers(view):
    attn = view.maps.dec_enc_attns[0][0]  # (H, Lt, Ls)
    fig = attention_lines_figure(attn, view.dec_tokens, view.src_tokens)
    ends, hues, alpha = lines(fig)
    n_heads, n_q, n_k = attn.shape
    per_head = n_q * n_k
    assert len(alpha) == n_heads * per_head
    for h in range(n_heads):
        part = slice(h * per_head, (h + 1) * per_head)
        np.testing.assert_allclose(alpha[part], attn[h].numpy()[ends[part, 0], ends[part, 1]], atol=1e-4)
        assert len(set(hues[part])) == 1
    assert len({hues[h * per_head] for h in range(n_heads)}) == n_heads
    assert hues[0].startswith("rgba(") and HEAD_COLORS[0].lower().startswith("#")


def test_a_chosen_token_keeps_its_lines_and_the_others_fade(view):
    attn = view.maps.enc_self_attns[0][0]  # (H, Ls, Ls)
    tokens = view.src_tokens
    plain = lines(attention_lines_figure(attn, tokens, tokens, heads=[0]))[2]
    for side, column in ((QUERY, 0), (KEY, 1)):
        ends, _, alpha = lines(attention_lines_figure(attn, tokens, tokens, heads=[0], chosen=(side, 2)))
        mine = ends[:, column] == 2
        np.testing.assert_allclose(alpha[mine], plain[mine], atol=1e-9)
        np.testing.assert_allclose(alpha[~mine], plain[~mine] * DIMMED, atol=1e-4)
    fig = attention_lines_figure(attn, tokens, tokens, heads=[0], chosen=(QUERY, 2))
    tokens_written = [a for a in fig.layout.annotations if a.yanchor == "middle"]  # not the columns' names
    (bold,) = [a for a in tokens_written if a.text.startswith("<b>") and a.xanchor == "right"]
    assert bold.text == f"<b>{tokens[2]}</b>"


def test_gold_links_are_drawn_over_the_lines_from_the_query_to_the_key():
    attn = torch.full((3, 2), 0.5)
    fig = attention_lines_figure(attn, ["S → I", "I → you", "you → E"], ["我", "你"], gold=[(0, 0), (1, 1)],
                                 gold_label="gold")  # fmt: skip
    (gold,) = [tr for tr in fig.data if tr.type == "scatter"]
    assert gold.name == "gold" and gold.line.color == GOLD_COLOR and gold.hoverinfo == "skip"
    assert list(gold.x) == [0, 1, None, 0, 1, None]
    ys = [y for y in gold.y if y is not None]  # the tokens' centres, from the top: 3 queries, 2 keys
    np.testing.assert_allclose(ys, [1 / 6, 1 / 4, 1 / 2, 3 / 4])


def test_tokens_are_written_as_text_never_as_markup():
    tokens = ["<b>bold</b>", "a & b", "$x$"]
    fig = attention_lines_figure(torch.eye(3), tokens, tokens, heads=[0])
    written = [a.text for a in fig.layout.annotations if a.yanchor == "middle"]
    assert written == ["&lt;b&gt;bold&lt;/b&gt;", "a &amp; b", "&#36;x&#36;"] * 2
    assert all("<" not in str(c) for row in fig.data[0].link.customdata for c in row)


def test_bad_heads_and_token_counts_are_refused():
    with pytest.raises(ValueError, match="heads"):
        attention_lines_figure(torch.ones(2, 2, 2), ["a", "b"], ["c", "d"], heads=[2])
    with pytest.raises(ValueError, match="2 token"):
        attention_lines_figure(torch.ones(3, 2), ["a", "b"], ["c", "d"])
