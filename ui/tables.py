"""Small pandas tables the pages show (tokens, vocabularies, make_data), built from the package's results."""

from __future__ import annotations

import pandas as pd

from transformer.data import SPECIALS, build_vocabs, make_data, token_counts, tokenize

from .i18n import t


def token_preview(pairs: list[tuple[str, str]], tokenizer: str, lang: str) -> pd.DataFrame:
    """One row per pair: its source and target tokens, separated by ' · '."""
    return pd.DataFrame(
        {
            t("data.source_tokens", lang): [" · ".join(tokenize(s, tokenizer)) for s, _ in pairs],
            t("data.target_tokens", lang): [" · ".join(tokenize(g, tokenizer)) for _, g in pairs],
        }
    )


def vocab_table(pairs: list[tuple[str, str]], tokenizer: str, lang: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(source, target) vocabularies as tables of id, token, count and what a special token means."""
    tables = []
    for vocab, sentences in zip(build_vocabs(pairs, tokenizer), ([s for s, _ in pairs], [g for _, g in pairs])):
        counts = token_counts(sentences, tokenizer)
        tables.append(
            pd.DataFrame(
                {
                    "id": range(len(vocab)),
                    t("vocab.token", lang): vocab.itos,
                    t("vocab.count", lang): [
                        str(counts.get(tok, 0)) if tok not in SPECIALS else "–" for tok in vocab.itos
                    ],
                    t("vocab.special", lang): [
                        t(f"special.{SPECIALS.index(tok)}", lang) if tok in SPECIALS else "" for tok in vocab.itos
                    ],
                }
            )
        )
    return tables[0], tables[1]


def make_data_tables(pairs: list[tuple[str, str]], tokenizer: str) -> list[tuple[str, list, pd.DataFrame]]:
    """For enc_inputs, dec_inputs and dec_outputs: the name, the ids as nested lists, and the tokens."""
    src_vocab, tgt_vocab = build_vocabs(pairs, tokenizer)
    batch = make_data(pairs, src_vocab, tgt_vocab, tokenizer)
    out = []
    for name, tensor, vocab in zip(batch._fields, batch, (src_vocab, tgt_vocab, tgt_vocab)):
        ids = tensor.tolist()
        tokens = pd.DataFrame([vocab.decode(row) for row in ids], columns=[str(i) for i in range(tensor.size(1))])
        out.append((name, ids, tokens))
    return out
