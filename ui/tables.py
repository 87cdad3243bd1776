"""Small pandas tables the pages show (tokens, vocabularies, make_data), built from the package's results."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from transformer.bpe import Bpe
from transformer.data import SPECIALS, PairsSummary, Vocab, build_vocabs, make_data, tokenize
from transformer.scores import ALL, ScoreTable
from viz.common import text_px

from .export import GRID_PAD_PX, GRID_TEXT_PX, column_px
from .i18n import t

MARKS = "✓/✗"  # the header of a column of marks
# a results table (every pair with its translation) fits the main column of a 1280 px window, sidebar open: its
# verdict columns first, and each text cut with "…" to its share of the rest, at least MIN_TEXT_PX
RESULTS_PX, MIN_TEXT_PX = 720, 110
CUT = "…"


def mark(right: bool) -> str:
    """How every table marks a translation: ✓ when it is the reference, ✗ when not."""
    return "✓" if right else "✗"


def cut_text(text: str, px: float) -> str:
    """text whole when it takes at most px in an st.dataframe cell (viz.common.text_px, an upper bound), else its
    longest start that fits with CUT after it."""
    text = str(text)
    if text_px(text, GRID_TEXT_PX) <= px:
        return text
    room = px - text_px(CUT, GRID_TEXT_PX)
    low, high = 0, len(text)  # the longest start that fits: text_px grows with every character added
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if text_px(text[:mid], GRID_TEXT_PX) <= room else (low, mid - 1)
    return text[:low].rstrip() + CUT


def results_frame(frame: pd.DataFrame, verdicts: list[str]) -> tuple[pd.DataFrame, list[int]]:
    """A results table as pages show it: the verdict columns (✓/✗, the part) first, then the others, each text cut
    (cut_text) to its column's share of what RESULTS_PX leaves: a column that needs less keeps its texts whole and
    leaves the rest to the others (at least MIN_TEXT_PX each); and the rows whose text was cut, by position."""
    texts = [c for c in frame.columns if c not in verdicts]
    shown = frame[[*verdicts, *texts]].copy()
    left = RESULTS_PX - sum(column_px([str(c), *map(str, frame[c])]) for c in verdicts)
    need = {c: column_px([str(c), *map(str, frame[c])]) for c in texts}
    room = {}
    for n, c in enumerate(sorted(texts, key=need.get)):  # the narrowest first: what they do not need goes on
        room[c] = max(MIN_TEXT_PX, column_px([str(c)]), min(need[c], left / (len(texts) - n)))
        left -= room[c]
    cut = set()
    for c in texts:
        whole = frame[c].astype(str)
        column = list(whole) if room[c] >= need[c] else [cut_text(v, room[c] - GRID_PAD_PX - 1) for v in whole]
        cut |= {i for i, (a, b) in enumerate(zip(column, whole)) if a != b}
        shown[c] = column
    return shown, sorted(cut)


def head_stats_frame(stats: list, columns: list[str], names: dict[str, str], lang: str) -> pd.DataFrame:
    """One row per head of transformer.heads.head_stats (layer by layer, head by head), its layer and head counted
    from 1, then each statistic of columns under its name in names."""
    layer, head = t("attn.col_layer", lang), t("attn.col_head", lang)
    rows = [{layer: s.layer + 1, head: s.head + 1, **{names[c]: getattr(s, c) for c in columns}} for s in stats]
    return pd.DataFrame(rows)


def token_preview(pairs: list[tuple[str, str]], tokenizer: str, lang: str) -> pd.DataFrame:
    """One row per pair: its source and target tokens, separated by ' · '."""
    return pd.DataFrame(
        {
            t("data.source_tokens", lang): [" · ".join(tokenize(s, tokenizer, "source")) for s, _ in pairs],
            t("data.target_tokens", lang): [" · ".join(tokenize(g, tokenizer, "target")) for _, g in pairs],
        }
    )


def vocab_tables(
    summary: PairsSummary, lang: str, rows: int, tokenizer: str | Bpe = "auto"
) -> tuple[tuple[Vocab, Vocab], tuple[pd.DataFrame, pd.DataFrame]]:
    """The (source, target) vocabularies of a table's usable pairs, as build_vocabs makes them with the tokenizer the
    summary was made with (a learned one's pieces no sentence uses come last, counted 0), and the first rows of each as
    a table of id, token, count and what a special token means (from the counts summarize_pairs made)."""
    vocabs, tables = summary.vocabs(tokenizer), []
    for vocab, counts in zip(vocabs, (summary.src_counts, summary.tgt_counts)):
        shown = vocab.itos[:rows]
        tables.append(
            pd.DataFrame(
                {
                    "id": range(len(shown)),
                    t("vocab.token", lang): shown,
                    t("vocab.count", lang): [str(counts.get(tok, 0)) if tok not in SPECIALS else "–" for tok in shown],
                    t("vocab.special", lang): [
                        t(f"special.{SPECIALS.index(tok)}", lang) if tok in SPECIALS else "" for tok in shown
                    ],
                }
            )
        )
    return vocabs, (tables[0], tables[1])


def make_data_tables(
    pairs: list[tuple[str, str]], tokenizer: str, vocabs: tuple[Vocab, Vocab] | None = None
) -> list[tuple[str, list, pd.DataFrame]]:
    """For enc_inputs, dec_inputs and dec_outputs of pairs (ids from vocabs, else from vocabularies of these pairs
    alone): the name, the ids as nested lists, and the tokens."""
    src_vocab, tgt_vocab = vocabs or build_vocabs(pairs, tokenizer)
    batch = make_data(pairs, src_vocab, tgt_vocab, tokenizer)
    out = []
    for name, tensor, vocab in zip(batch._fields, batch, (src_vocab, tgt_vocab, tgt_vocab)):
        ids = tensor.tolist()
        tokens = pd.DataFrame([vocab.decode(row) for row in ids], columns=[str(i) for i in range(tensor.size(1))])
        out.append((name, ids, tokens))
    return out


def score_frame(scores: ScoreTable, lang: str, model: str = "") -> pd.DataFrame:
    """A score table (transformer.scores) as pages show it: one row per phenomenon and part, with exact match (and
    its count), token accuracy, BLEU and chrF; a first column names the model when model is given."""
    parts = {"train": t("train.part_train", lang), "holdout": t("train.part_held", lang)}
    parts[ALL] = t("scores.part_all", lang)
    rows = []
    for row in scores.rows:
        for part in scores.parts:
            cell = scores.get(row, part)
            if cell is not None:
                rows.append(
                    (
                        t(f"phenomenon.{row}", lang),
                        parts.get(part, part),
                        cell.pairs,
                        f"{cell.exact_match:.1%} ({cell.exact}/{cell.pairs})",
                        f"{cell.token_accuracy:.1%}",
                        f"{cell.bleu:.1f}",
                        f"{cell.chrf:.1f}",
                    )
                )
    columns = [
        t(k, lang) for k in ("scores.phenomenon", "scores.part", "scores.pairs", "scores.exact", "scores.token_acc")
    ]
    columns += ["BLEU", "chrF"]
    frame = pd.DataFrame(rows, columns=columns)
    if model:
        frame.insert(0, t("scores.model", lang), model)
    return frame


def piece_splits(bpe: Bpe, pairs: list[tuple[str, str]], lang: str, rows: int) -> pd.DataFrame:
    """The words of the pairs (as spaces separate them) that the learned tokenizer splits into more than one piece,
    most frequent first (ties in order of first appearance), at most rows of them: word, its pieces, occurrences."""
    counts = Counter(word for pair in pairs for side in pair for word in side.split())
    split = [(word, bpe.split(word), n) for word, n in counts.most_common()]
    split = [(word, pieces, n) for word, pieces, n in split if len(pieces) > 1][:rows]
    return pd.DataFrame(
        {
            t("data.bpe_word", lang): [word for word, _, _ in split],
            t("data.bpe_pieces", lang): [" + ".join(pieces) for _, pieces, _ in split],
            t("vocab.count", lang): [str(n) for _, _, n in split],
        }
    )


def piece_vocabulary(bpe: Bpe, lang: str, rows: int) -> pd.DataFrame:
    """The first rows pieces of a learned tokenizer in its order (single characters, then each merge as it was
    learned), with the two pieces each merged piece joins."""
    made = {a + b: f"{a} + {b}" for a, b in reversed(bpe.merges)}  # a piece made twice: its first merge
    shown = bpe.pieces[:rows]
    return pd.DataFrame(
        {
            t("data.bpe_piece", lang): shown,
            t("data.bpe_merged_from", lang): [made.get(piece, "") for piece in shown],
        }
    )
