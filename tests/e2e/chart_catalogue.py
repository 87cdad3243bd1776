"""Every figure the app draws, built from a real (tiny, untrained) model whose vocabularies hold tokens of the longest
allowed length, so a browser test can draw each one outside Streamlit, as a lesson sheet does, and measure its text.
"""

from __future__ import annotations

import torch

from transformer import Translator
from transformer.config import MAX_TOKEN_CHARS
from transformer.decoding import beam_search, sample
from transformer.heads import study_maps
from transformer.model import pe_similarity_by_distance, positional_encoding_table, rising_distances
from transformer.summary import EpochRecord
from transformer.trace import trace_sentence
from viz.attention import attention_figure, attention_grid_figure, decoder_row_labels, source_attention_figure
from viz.decoding import beam_tree_figure, sampling_figure, topk_figure
from viz.heads import head_patterns_figure, head_stat_figure
from viz.lab import comparison_curves_figure, peak_figure, scores_figure
from viz.lines import attention_lines_figure
from viz.masks import mask_effect_figures, mask_figure
from viz.positional import pe_distance_figure, pe_heatmap_figure, pe_lines_figure, pe_similarity_figure
from viz.trace import architecture_figure, softmax_row_figure, step_figure
from viz.training import loss_accuracy_figure

# tokens of exactly MAX_TOKEN_CHARS characters: Latin, and CJK (twice as wide on screen) for a whitespace tokenizer
LONG_LATIN = "Pneumonoultramicroscopicsilicovolcanoconiosis"[:MAX_TOKEN_CHARS]
LONG_CJK = ("长" * MAX_TOKEN_CHARS)[:MAX_TOKEN_CHARS]
LONG_PAIRS = [
    (f"我 {LONG_LATIN} 你 {LONG_CJK}", f"I {LONG_LATIN} you {LONG_CJK} ."),
    (f"我 喜 欢 {LONG_LATIN}", f"I love {LONG_LATIN} ."),
    ("我 喜 欢 你", "I love you ."),
]
TINY = dict(d_model=16, d_ff=32, n_heads=2, n_layers=2)


def long_token_translator(seed: int = 0) -> Translator:
    """An untrained model whose vocabularies hold MAX_TOKEN_CHARS-character tokens (whitespace tokenizer)."""
    return Translator.create(LONG_PAIRS, tokenizer="whitespace", seed=seed, **TINY)


def _history(epochs: int = 12, holdout: bool = True) -> list[EpochRecord]:
    return [
        EpochRecord(
            e,
            3.0 / e,
            min(1.0, e / epochs),
            float(e),
            holdout_loss=3.5 / e if holdout else None,
            holdout_accuracy=min(1.0, e / epochs / 1.5) if holdout else None,
        )
        for e in range(1, epochs + 1)
    ]


def figures(translator: Translator | None = None) -> dict:
    """name → figure, for every figure builder in viz/, with the tokens of translator's first pair on the axes."""
    translator = translator or long_token_translator()
    source, target = LONG_PAIRS[0]
    out = {}
    # Train and Lab
    out["loss_accuracy"] = loss_accuracy_figure(_history())
    out["loss_accuracy_empty"] = loss_accuracy_figure([])
    labelled = [(f"variant {LONG_LATIN}", _history()), ("baseline", _history(holdout=False))]
    out["lab_curves"] = comparison_curves_figure(labelled)
    out["lab_scores"] = scores_figure(
        [f"variant {LONG_LATIN}", "baseline"],
        [{"accuracy": 0.9, "exact": 0.5, "holdout_accuracy": 0.4}, {"accuracy": 1.0, "exact": 1.0}],
        {"accuracy": "token accuracy", "exact": "exact match", "holdout_accuracy": "token accuracy (held out)"},
    )
    out["lab_peaks"] = peak_figure([(f"variant {LONG_LATIN}", [(e, 0.1 * e) for e in range(1, 8)])])
    # Positional encoding
    table = positional_encoding_table(12, 16)  # (L, D)
    out["pe_lines"] = pe_lines_figure(table, [0, 1, 4, 5, 14, 15])
    out["pe_heatmap"] = pe_heatmap_figure(table)
    out["pe_similarity"] = pe_similarity_figure(table)
    similarity = pe_similarity_by_distance(16, 12)
    out["pe_distance"] = pe_distance_figure(similarity, rising_distances(similarity), rise_label="rises again")
    # Masks and attention, on the long tokens
    view = translator.inspect(source, target, src_pad=1, tgt_pad=1)
    src, dec = view.src_tokens, view.dec_tokens
    maps = view.maps
    mask = maps.dec_self_scores[0][0, 0].isneginf()  # (Lt, Lt)
    out["mask"] = mask_figure(mask, dec, dec, title=f"shape [{len(dec)} × {len(dec)}]")
    for name, fig in zip(
        ("mask_scores", "mask_masked", "mask_weights"),
        mask_effect_figures(maps.dec_self_scores[0][0, 0], mask, maps.dec_self_attns[0][0, 0], dec, dec),
    ):
        out[name] = fig
    rows = decoder_row_labels(dec, [*dec[1:], "E"])
    attn = maps.dec_enc_attns[1][0]  # (H, Lt, Ls)
    out["attention"] = attention_figure(
        attn[0],
        rows,
        src,
        title="encoder–decoder attention · layer 2 · head 1",
        pad_rows=[len(dec) - 1],
        pad_cols=[len(src) - 1],
        clickable=True,
    )
    out["attention_grid"] = attention_grid_figure(attn, rows, src, title="encoder–decoder attention · layer 2")
    out["attention_lines"] = attention_lines_figure(
        attn, rows, src, heads=[0], title="encoder–decoder attention · layer 2 · head 1", gold=[(0, 0), (1, 1)]
    )
    out["attention_lines_all"] = attention_lines_figure(attn, rows, src, title="encoder–decoder attention · layer 2")
    out["source_attention"] = source_attention_figure(attn[:, -1, :], src)
    study = study_maps(maps, view.enc_inputs, view.dec_inputs, translator.tgt_vocab)
    out["head_stat"] = head_stat_figure(
        study.stats["dec_enc"], "diagonal", value_label="share on the diagonal", chosen=(0, 1)
    )
    out["head_patterns"] = head_patterns_figure(study.patterns["dec_enc"], rows, src, chosen=(1, 0))
    # Inside the model
    trace = trace_sentence(translator, source, target, src_pad=1, tgt_pad=1)
    blocks = trace.blocks
    labels = [b.kind.replace("_", " ") for b in blocks]
    out["architecture"] = architecture_figure(
        blocks, labels, [b.sizes for b in blocks], selected=5, n_layers=translator.config.n_layers, layer=0
    )
    for name in ("enc_inputs", "attn", "probabilities", "cross-entropy"):
        step = next(s for s in trace.steps if s.name == name)
        attn = name == "attn"
        out[f"step_{name}"] = step_figure(
            step.tensor, step.axes, trace.axis_tokens(step), vocab=translator.tgt_vocab.itos, title=name,
            clickable=attn, highlight=(0, 0) if attn else None,
        )  # fmt: skip
    cell = trace.attention_cell(trace.attention_modules()[0], 0, 0, 0)
    k_tokens = trace.axis_tokens(trace.step("attn", trace.attention_modules()[0]))[3]
    out["softmax_row"] = softmax_row_figure(cell.weights, k_tokens, 0, [v == float("-inf") for v in cell.row])
    # Decoding
    enc_input = translator.encode_source(source)[0]
    greedy = translator.translate(source)
    first = greedy.steps[0]
    itos = translator.tgt_vocab.itos
    out["topk"] = topk_figure(first.probs, itos, first.token_id, k=15)
    for k in (4, 10):
        result = beam_search(translator.model, enc_input, translator.tgt_vocab, beam_size=k, max_len=6)
        out[f"beam_tree_{k}"] = beam_tree_figure(result.steps, best_path=result.best.tokens)
    drawn = sample(translator.model, enc_input, translator.tgt_vocab, 1.5, 0, 0.9, seed=0).steps[0]
    out["sampling"] = sampling_figure(drawn.probs, drawn.tempered, drawn.final, itos, drawn.token_id, k=8)
    torch.manual_seed(0)
    return out
