"""A Translator bundles what a checkpoint holds: the model, both vocabularies, the tokenizer and a training summary."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

import torch

from .config import MAX_DECODE_LEN, TransformerConfig
from .data import (
    PAD_ID,
    Batch,
    Vocab,
    build_vocabs,
    by_length,
    chunks,
    cut,
    detokenize,
    lengths,
    make_data,
    tokenize,
)
from .decoding import Translation, greedy_batch, greedy_decode
from .errors import DataError
from .model import AttentionMaps, Transformer, evaluating
from .summary import TrainingSummary

EVAL_ROWS = 128  # pairs per forward pass when many are evaluated or translated (never one batch of all of them)


@dataclass
class Translator:
    """A model with the vocabularies and tokenizer it was trained with."""

    model: Transformer
    src_vocab: Vocab
    tgt_vocab: Vocab
    tokenizer: str = "auto"  # or a learned tokenizer (transformer.bpe.Bpe)
    summary: TrainingSummary = field(default_factory=TrainingSummary)  # how it was trained (transformer.summary)

    @classmethod
    def create(cls, pairs: list[tuple[str, str]], tokenizer: str = "auto", seed: int = 0, **sizes) -> Translator:
        """An untrained model sized by **sizes (d_model, n_heads, …) with vocabularies built from pairs."""
        src_vocab, tgt_vocab = build_vocabs(pairs, tokenizer)
        cfg = TransformerConfig(src_vocab_size=len(src_vocab), tgt_vocab_size=len(tgt_vocab), **sizes)
        torch.manual_seed(seed)  # the initial weights
        return cls(Transformer(cfg), src_vocab, tgt_vocab, tokenizer)

    @property
    def config(self) -> TransformerConfig:
        return self.model.config

    def share(self) -> Translator:
        """This translator made safe for every tab of a process to read at once, and returned: eval mode set once, no
        gradient kept for any parameter, the model's train() refused. A model to train is a copy (own_copy)."""
        self.model.eval()
        self.model.requires_grad_(False)
        self.model.read_only = True
        return self

    def own_copy(self) -> Translator:
        """A copy whose model is the caller's own to train (a shared model's copy on write); vocabularies, tokenizer
        and summary, which nothing changes, are the same objects."""
        model = copy.deepcopy(self.model)
        model.read_only = False
        model.requires_grad_(True)
        return replace(self, model=model)

    def detokenize(self, tokens: list[str]) -> str:
        """Output tokens as text for reading: subword pieces joined back into words, other tokens spaced."""
        return detokenize(tokens, self.tokenizer)

    @property
    def pad_id(self) -> int:
        """The padding id of both sides (P, 0, in the project's models; Marian's is its last id)."""
        return self.tgt_vocab.pad_id

    def target_tokens(self, text: str) -> list[str]:
        """The tokens of a target sentence (a reference) as the model would output them."""
        return tokenize(text, self.tokenizer, "target")

    def make_batch(self, pairs: list[tuple[str, str]]) -> Batch:
        """make_data for pairs with this translator's vocabularies and tokenizer."""
        return make_data(pairs, self.src_vocab, self.tgt_vocab, self.tokenizer)

    def encode_source(self, sentence: str) -> tuple[torch.Tensor, list[str], list[str]]:
        """(enc_input (1, Ls), source tokens, unknown tokens) for a typed sentence."""
        tokens = tokenize(sentence, self.tokenizer, "source")
        if not tokens:
            raise DataError("the sentence is empty: type a sentence to translate.", "empty_sentence")
        self.check_length(len(tokens))
        ids, unknown = self.src_vocab.encode(tokens)
        return torch.tensor([ids]), tokens, unknown

    def check_length(self, n: int, padding: int = 0) -> None:
        """Refuse (DataError) a sequence of n tokens and `padding` padding positions longer than the model reads."""
        if n + padding > self.config.max_len:
            if padding:
                message = f"the sentence and its padding need {n + padding} positions; this model reads at most "
                code = "padded_too_long"
            else:
                message = f"the sentence has {n} tokens; this model reads at most "
                code = "sentence_too_long"
            raise DataError(
                f"{message}{self.config.max_len}. Shorten it.", code, n=n + padding, max=self.config.max_len
            )

    def check_pair(self, pair: tuple[str, str]) -> None:
        """Refuse (DataError) a pair longer than the model reads: its source, or S plus its target."""
        source, target = pair
        self.check_length(len(tokenize(source, self.tokenizer, "source")))
        self.check_length(len(self.target_tokens(target)) + 1)  # the decoder reads S + target

    def fits(self, pair: tuple[str, str]) -> bool:
        """Whether the model reads the pair (check_pair)."""
        try:
            self.check_pair(pair)
        except DataError:
            return False
        return True

    def translate(self, sentence: str, max_len: int = MAX_DECODE_LEN, return_attn: bool = True) -> Translation:
        """Greedy translation of one sentence with every step recorded; unknown words are reported, not errors."""
        enc_input, tokens, unknown = self.encode_source(sentence)
        result = greedy_decode(self.model, enc_input, self.tgt_vocab, max_len, return_attn)
        return replace(result, src_tokens=tokens, unknown=unknown)

    def translate_all(self, sentences: list[str], max_len: int = MAX_DECODE_LEN) -> list[list[str]]:
        """Greedy output tokens for many sentences, EVAL_ROWS at a time, sentences of similar lengths together (no
        records)."""
        if not sentences:
            return []
        enc_inputs = make_data([(s, "") for s in sentences], self.src_vocab, self.tgt_vocab, self.tokenizer).enc_inputs
        src_lengths = enc_inputs.ne(self.src_vocab.pad_id).sum(1)  # (B,)
        outputs: list[list[str]] = [[] for _ in sentences]
        for part in by_length(src_lengths, src_lengths).split(EVAL_ROWS):
            longest = max(1, int(src_lengths[part].max()))
            decoded = greedy_batch(self.model, enc_inputs[part, :longest], self.tgt_vocab, max_len=max_len)
            for i, hypothesis in zip(part.tolist(), decoded):
                outputs[i] = hypothesis.tokens
        return outputs

    def exact_match(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str, str, bool]]:
        """(source, reference, greedy output, output == reference token for token) for every pair."""
        outputs = self.translate_all([s for s, _ in pairs])
        return [(s, t, self.detokenize(out), out == self.target_tokens(t)) for (s, t), out in zip(pairs, outputs)]

    def evaluate(self, pairs: list[tuple[str, str]]) -> Evaluation:
        """Teacher-forced loss and token accuracy, and greedy exact match, on pairs; and per pair what
        transformer.scores scores (Evaluation.scored): every pair decoded once and teacher-forced once."""
        outputs = self.translate_all([s for s, _ in pairs])
        loss, right, counted = teacher_forced_pairs(self.model, self.make_batch(pairs), self.tgt_vocab.pad_id)
        scored = [
            PairScore(s, self.target_tokens(t), out, r, n, *self._words(t, out))
            for (s, t), out, r, n in zip(pairs, outputs, right, counted)
        ]
        results = [(s, t, self.detokenize(p.output), p.exact) for (s, t), p in zip(pairs, scored)]
        accuracy = sum(right) / sum(counted)
        return Evaluation(loss, accuracy, sum(p.exact for p in scored), len(scored), results, scored)

    def _words(self, reference: str, output: list[str]) -> tuple[list[str] | None, list[str] | None]:
        """(reference words, output words) that BLEU and chrF score for a learned tokenizer: the joined text split
        into words ('auto': CJK characters, words, punctuation), whatever the pieces; (None, None) otherwise."""
        if isinstance(self.tokenizer, str):
            return None, None
        return tokenize(reference, "auto"), tokenize(self.detokenize(output), "auto")

    def attention_maps(self, enc_inputs: torch.Tensor, dec_inputs: torch.Tensor) -> AttentionMaps:
        """Every attention map of one teacher-forced forward pass (eval mode), as CPU tensors."""
        maps = AttentionMaps()
        with evaluating(self.model) as device:
            enc_inputs, dec_inputs = enc_inputs.to(device), dec_inputs.to(device)
            memory = self.model.encoder(enc_inputs, maps)  # (B, Ls, D)
            self.model.decoder(dec_inputs, enc_inputs, memory, maps)  # no logits: (B, Lt, V) of them are not maps
        return AttentionMaps(**{k: [t.cpu() for t in v] for k, v in vars(maps).items()})

    def inspect(self, source: str, target: str | None = None, src_pad: int = 0, tgt_pad: int = 0) -> Inspection:
        """The tensors and attention maps of one sentence: teacher-forced on target, or on the model's own greedy
        output when target is None; src_pad / tgt_pad add padding positions, as in a batch with longer sentences."""
        enc_input, src_tokens, unknown = self.encode_source(source)
        if target is None:
            out = greedy_decode(self.model, enc_input, self.tgt_vocab, return_attn=False)
            tgt_ids = self.tgt_vocab.encode(out.tokens)[0]
        else:
            tgt_ids, _ = self.tgt_vocab.encode(self.target_tokens(target))
        self.check_length(len(src_tokens), src_pad)
        self.check_length(1 + len(tgt_ids), tgt_pad)
        enc_inputs = torch.tensor([enc_input[0].tolist() + [self.src_vocab.pad_id] * src_pad])  # (1, Ls)
        dec_inputs = torch.tensor([[self.tgt_vocab.bos_id, *tgt_ids] + [self.tgt_vocab.pad_id] * tgt_pad])  # (1, Lt)
        return Inspection(
            enc_inputs=enc_inputs,
            dec_inputs=dec_inputs,
            src_tokens=self.src_vocab.decode(enc_inputs[0]),
            dec_tokens=self.tgt_vocab.decode(dec_inputs[0]),
            maps=self.attention_maps(enc_inputs, dec_inputs),
            unknown=unknown,
        )


def teacher_forced(model: Transformer, batch: Batch | list[Batch], pad_id: int = PAD_ID) -> tuple[float, float]:
    """(mean cross-entropy, token accuracy) over the non-padding targets of a batch, teacher-forced, in eval mode;
    EVAL_ROWS pairs at a time (data.chunks), or the parts given as a list."""
    parts = chunks(batch, EVAL_ROWS, pad_id) if isinstance(batch, Batch) else batch
    total, correct, counted = 0.0, 0, 0
    with evaluating(model) as device:
        for part in parts:
            loss, right, real = _teacher_forced_part(model, part, device, pad_id)
            total += loss
            correct += int(right.sum())
            counted += int(real.sum())
    return total / counted, correct / counted


def teacher_forced_pairs(model: Transformer, batch: Batch, pad_id: int = PAD_ID) -> tuple[float, list[int], list[int]]:
    """teacher_forced's figures pair by pair, from the same forward passes: (mean cross-entropy, target tokens
    predicted right per pair, target tokens per pair), E included, in the order of the batch's rows."""
    src_lengths, tgt_lengths = lengths(batch, pad_id)  # (n,), (n,)
    right, counted = [0] * len(src_lengths), [0] * len(src_lengths)
    total = 0.0
    with evaluating(model) as device:
        for rows in by_length(src_lengths, tgt_lengths).split(EVAL_ROWS):  # the parts data.chunks makes
            part = cut(batch, rows, src_lengths, tgt_lengths)
            loss, part_right, real = _teacher_forced_part(model, part, device, pad_id)
            total += loss
            for i, r, n in zip(rows.tolist(), part_right.tolist(), real.sum(1).tolist()):
                right[i], counted[i] = r, n
    return total / sum(counted), right, counted


def _teacher_forced_part(
    model: Transformer, part: Batch, device, pad_id: int = PAD_ID
) -> tuple[float, torch.Tensor, torch.Tensor]:
    """One teacher-forced forward pass: (summed cross-entropy, target tokens right per row (b,), real targets
    (b, lt))."""
    enc_inputs, dec_inputs, dec_outputs = (t.to(device) for t in part)
    logits, _ = model(enc_inputs, dec_inputs)  # (b, lt, V)
    real = dec_outputs.ne(pad_id)  # (b, lt)
    loss = float(torch.nn.functional.cross_entropy(logits[real], dec_outputs[real], reduction="sum"))
    right = (logits.argmax(-1).eq(dec_outputs) & real).sum(1)  # (b,)
    return loss, right.cpu(), real.cpu()


@dataclass(frozen=True)
class PairScore:
    """One pair: the model's greedy output, whether it is exact, and its teacher-forced tokens right of all."""

    source: str
    reference: list[str]
    output: list[str]
    correct: int  # teacher-forced target tokens (E included) predicted right
    tokens: int  # teacher-forced target tokens (E included)
    reference_words: list[str] | None = None  # what BLEU and chrF score when it is not the tokens: the words of the
    output_words: list[str] | None = None  # joined text of subword pieces (Translator._words)

    @property
    def scored_texts(self) -> tuple[str, str]:
        """(output, reference) as sacrebleu scores them: words (or tokens) separated by single spaces."""
        output = self.output if self.output_words is None else self.output_words
        reference = self.reference if self.reference_words is None else self.reference_words
        return " ".join(output), " ".join(reference)

    @property
    def exact(self) -> bool:
        return self.output == self.reference


@dataclass(frozen=True)
class Evaluation:
    """How a translator does on some pairs: teacher-forced loss and token accuracy, and greedy exact match."""

    loss: float
    token_accuracy: float
    exact: int  # pairs whose greedy translation equals the reference, token for token
    total: int
    results: list[tuple[str, str, str, bool]]  # (source, reference, greedy output, exact?) per pair
    scored: list[PairScore] = field(default_factory=list)  # per pair, what transformer.scores scores

    @property
    def exact_match(self) -> float:
        return self.exact / self.total if self.total else 0.0


@dataclass(frozen=True)
class Inspection:
    """One sentence pair as the model sees it: the input ids and tokens, and every attention map (batch of 1)."""

    enc_inputs: torch.Tensor  # (1, Ls)
    dec_inputs: torch.Tensor  # (1, Lt): S + target
    src_tokens: list[str]  # Ls tokens as the model reads them (unknown words as <unk>, padding as P)
    dec_tokens: list[str]  # Lt tokens
    maps: AttentionMaps
    unknown: list[str]  # source words not in the vocabulary
