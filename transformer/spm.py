"""SentencePiece pieces of a model read from elsewhere (Marian, the opus-mt models), read with `sentencepiece` itself.

A Marian model splits each side with its own SentencePiece model (source.spm, target.spm) and looks the pieces up in
one vocabulary (vocab.json: piece → id). Its special tokens are not the project's P, S, E at ids 0 to 2: `</s>` ends
every sentence (id 0 in the opus-mt models), `<unk>` is an unknown piece, and `<pad>` (the last id) pads a batch and
is also the decoder's first input. So the vocabulary carries its own Specials, and every source sentence ends with
`</s>`, as the model was trained.

Pieces are shown as the model sees them: a piece that starts a word begins with ▁ ("▁he ▁lov es"), and a
translation's pieces join back into text as the target model joins them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .data import Specials, Vocab
from .errors import DataError

SIDES = ("source", "target")
MAX_SPM_BYTES = 20_000_000  # one side's model, in a folder or a checkpoint; an opus-mt source.spm is under 1 MB
END = "</s>"  # Marian's end of a sentence, appended to every source
MARIAN_SPECIALS = Specials(pad="<pad>", bos="<pad>", eos=END, unk="<unk>", reserved=())  # the opus-mt models' names


@dataclass(frozen=True, eq=False)
class SentencePiece:
    """Two SentencePiece models, one per side (their serialized bytes: what source.spm and target.spm hold), and the
    token every source sentence ends with."""

    source_model: bytes
    target_model: bytes
    end: str = END
    name: ClassVar[str] = "sentencepiece"
    sided: ClassVar[bool] = True  # each side split by its own model: tokenize passes the side

    def __post_init__(self) -> None:
        import sentencepiece

        for side, model in zip(SIDES, (self.source_model, self.target_model)):
            processor = sentencepiece.SentencePieceProcessor()
            try:
                processor.LoadFromSerializedProto(model)
            except (RuntimeError, TypeError, OSError) as exc:
                raise DataError(f"the {side} SentencePiece model cannot be read: {exc}.") from None
            object.__setattr__(self, f"_{side}", processor)

    def __reduce__(self):  # pickled (to a job's process) as its bytes; the processors are loaded again there
        return (SentencePiece, (self.source_model, self.target_model, self.end))

    def split(self, text: str, side: str | None = None) -> list[str]:
        """The pieces of text by side's model, a leading language code (>>fra<<) kept whole; a source ends with
        `end`. A text without pieces has none (not even `end`): it is an empty sentence."""
        if side not in SIDES:
            raise ValueError(f"a SentencePiece tokenizer splits a 'source' or a 'target', not {side!r}")
        code: list[str] = []
        if text.startswith(">>") and (close := text.find("<<")) != -1:
            code, text = [text[: close + 2]], text[close + 2 :]
        pieces = code + getattr(self, f"_{side}").encode(text, out_type=str)
        return pieces + [self.end] if pieces and side == "source" else pieces

    def join(self, pieces: Sequence[str]) -> str:
        """The text of target pieces, as the target model joins them (each ▁ a space, none before the first
        word)."""
        return self._target.decode_pieces(list(pieces))


def marian_vocab(mapping: object, pad_id: int, eos_id: int, bos_id: int | None = None) -> Vocab:
    """The Vocab of a Marian vocab.json ({piece: id}, ids 0 … n−1 without gaps), its specials the tokens at pad_id,
    eos_id and bos_id (the decoder's start; default: pad_id) and `<unk>`."""
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and type(v) is int for k, v in mapping.items()):
        raise DataError("vocab.json must be one object of pieces and their ids.")
    itos = sorted(mapping, key=mapping.__getitem__)
    if [mapping[t] for t in itos] != list(range(len(itos))):
        raise DataError("vocab.json's ids must be 0, 1, 2, … without gaps or repeats.")
    for what, i in (("pad_token_id", pad_id), ("eos_token_id", eos_id), ("decoder_start_token_id", bos_id)):
        if i is not None and not (type(i) is int and 0 <= i < len(itos)):
            raise DataError(f"the config's {what} ({i!r}) is not an id of vocab.json (0 to {len(itos) - 1:,}).")
    bos = itos[pad_id if bos_id is None else bos_id]
    specials = Specials(pad=itos[pad_id], bos=bos, eos=itos[eos_id], unk=MARIAN_SPECIALS.unk, reserved=())
    return Vocab(tuple(itos), specials)
