"""The Attention page's level: the pieces the model reads, or the words gold links count (transformer.words), and the
encoder–decoder map of one pair drawn at that level. The rules are transformer.words'; this module chooses the level
and says which one is shown."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from transformer import Translator
from transformer.data import EOS
from transformer.errors import DataError
from transformer.model import AttentionMaps
from transformer.text import markdown
from transformer.words import MARK, Words, word_map, word_weights

from .export import text
from .i18n import t
from .view_state import choose_labelled

GROUPS_SHOWN = 12  # words named with their pieces under a map of words
LEVELS = {"words": "attn.level_words", "pieces": "attn.level_pieces"}  # level: its words


@dataclass(frozen=True)
class PairWords:
    """One pair's source and target as pieces and words."""

    source: Words
    target: Words

    @property
    def same(self) -> bool:
        """Whether the model's pieces are the words on both sides."""
        return self.source.same and self.target.same


def pair_words(translator: Translator, source: str, reference: str | None) -> PairWords | None:
    """The pieces and words of a pair teacher-forced on its reference; None for the model's own output (its pieces are
    not a text's) or pieces that do not spell the text."""
    if reference is None:
        return None
    try:
        return PairWords(
            word_map(translator.tokenizer, source, "source"), word_map(translator.tokenizer, reference, "target")
        )
    except DataError:
        return None


def choose_level(L: str, words: PairWords | None, column, **kw) -> str:
    """The level the encoder–decoder map is drawn at, chosen in column when the pieces are not the words ("words" by
    default, where gold links can be drawn); "words" when they are the same, "pieces" without words."""
    if words is None:
        return "pieces"
    if words.same:
        return "words"
    return choose_labelled(column.radio, t("attn.level", L), LEVELS, L, key="attn_level", default="words", **kw)


def say_level(L: str, level: str, words: PairWords | None) -> None:
    """The caption that names the level shown, and for words how a map of pieces became one of words."""
    if words is not None and words.same:
        text(t("attn.level_same", L), "caption")
    elif level == "words":
        split = [(w, p) for w, p in words.source.grouped() + words.target.grouped() if _bare(p) != [w]]
        grouped = " · ".join(f"{w} = {' '.join(p)}" for w, p in split[:GROUPS_SHOWN])
        text(t("attn.level_shown_words", L, grouped=markdown(grouped)), "caption")
    else:
        text(t("attn.level_shown_pieces", L), "caption")


def _bare(pieces: list[str]) -> list[str]:
    """Pieces without their ▁ marks."""
    return [p.replace(MARK, "") for p in pieces]


def word_view(maps: AttentionMaps, words: PairWords) -> tuple[AttentionMaps, list[str], list[str], list[str]]:
    """(maps whose encoder–decoder weights are of words, source words, decoder rows' tokens, their labels): a target
    word's rows (those that predict its pieces) averaged and a source word's columns summed, the row that predicts E
    kept as it is."""
    src, tgt = words.source, words.target
    layers = []
    for attn in maps.dec_enc_attns:  # (1, H, Lt, Ls): rows S + the target's pieces
        n = len(tgt.pieces)
        by_word = word_weights(attn[:, :, :n, : len(src.pieces)], src, tgt)  # (1, H, Wt, Ws)
        last = word_weights(attn[:, :, n:, : len(src.pieces)], src, Words((EOS,), (EOS,), ((0,),)))  # (1, H, 1, Ws)
        layers.append(torch.cat([by_word, last], dim=2))  # (1, H, Wt + 1, Ws)
    rows = [*tgt.words, EOS]
    return AttentionMaps(dec_enc_attns=layers), list(src.words), rows, [f"→ {w}" for w in rows]
