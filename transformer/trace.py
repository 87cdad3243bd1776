"""One teacher-forced forward pass of one sentence pair, recorded step by step, on request.

trace_pass(model, enc_inputs, dec_inputs, dec_outputs) runs the model with a recording Recorder (so attention takes
the eager path; training and translation keep the fused kernel) and returns every intermediate in execution order:
its tutorial name (`enc_inputs`, `Q`, `scores`, `attn`, `context`, …), where it happened (`decoder.layers[1].
dec_enc_attn`), the tensor, the names of its axes and the source line that computed it. The softmax
probabilities, the per-token cross-entropy and the loss are computed here, after the model, as training does.

trace_sentence(translator, source, target) does the same for a sentence pair as the app and the command line see
it, and adds the blocks of the architecture diagram, the arithmetic of one attention cell and the loss per token.
Shapes are batch-first: [batch, len, d_model], never the seed's [seq_len, batch, d_model].
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import sys
from dataclasses import dataclass, field

import torch
from torch import nn

from .code_lines import code_line
from .config import TransformerConfig
from .data import PAD_ID
from .model import ATTENTION_KINDS, HIDDEN_STEPS, Recorder, Transformer, evaluating

# ------------------------------------------------------------------ recording


@dataclass(frozen=True)
class Step:
    """One intermediate of the forward pass: what it is, where it was computed, its value, and the code."""

    index: int  # 0-based position in execution order
    name: str  # the tutorials' variable name: enc_inputs, Q, scores, attn, context, dec_logits, loss, …
    where: str  # the module it was computed in, e.g. decoder.layers[1].dec_enc_attn
    tensor: torch.Tensor  # a detached CPU copy
    axes: tuple[str, ...]  # the name of every axis, e.g. (batch, heads, len_q, len_k)
    code: str  # the source line that computed it (without the recorder call)
    kind: str = ""  # what the step does, for explanations: ids, embedding, pe, Q, scores, layer_norm, …
    block: int = -1  # index into Trace.blocks
    layer: int | None = None  # encoder or decoder layer, None outside the layers

    @property
    def shape(self) -> tuple[int, ...]:
        """The tensor's shape."""
        return tuple(self.tensor.shape)

    def shape_text(self) -> str:
        """'[1, 2, 5, 2] [batch, heads, len_q, d_k]'."""
        return f"{list(self.shape)} [{', '.join(self.axes)}]"


class _StepRecorder(Recorder):
    """Keeps every (name, where, tensor, code) the model reports, in order; truthy, so attention runs eagerly."""

    def __init__(self, model: nn.Module):
        self.paths = {id(m): re.sub(r"\.(\d+)", r"[\1]", name) for name, m in model.named_modules()}
        self.raw: list[tuple[str, str, torch.Tensor, str]] = []

    def name_module(self, module: nn.Module, where: str) -> None:
        """Name a module that is not part of the model (the final softmax and the criterion)."""
        self.paths[id(module)] = where

    def __call__(self, module: nn.Module, name: str, tensor: torch.Tensor) -> torch.Tensor:
        caller = sys._getframe(1)
        code = code_line(caller.f_code.co_filename, caller.f_lineno, name)
        self.raw.append((name, self.paths.get(id(module), type(module).__name__), tensor.detach().cpu().clone(), code))
        return tensor

    def __bool__(self) -> bool:
        return True


def _record_pass(
    model: Transformer, enc_inputs, dec_inputs, dec_outputs, pad_id: int = PAD_ID
) -> list[tuple[str, str, torch.Tensor, str]]:
    rec = _StepRecorder(model)
    softmax = nn.Softmax(dim=-1)
    criterion = nn.CrossEntropyLoss(ignore_index=pad_id, reduction="none")  # per token; padding gives 0
    rec.name_module(softmax, "softmax")
    rec.name_module(criterion, "criterion")
    with evaluating(model) as device:
        enc_inputs, dec_inputs, dec_outputs = (t.to(device) for t in (enc_inputs, dec_inputs, dec_outputs))
        dec_logits, _ = model(enc_inputs, dec_inputs, rec=rec)  # (B, Lt, V)
        rec(softmax, "probabilities", softmax(dec_logits))  # (B, Lt, V)
        dec_outputs = rec(criterion, "dec_outputs", dec_outputs)  # (B, Lt) the target ids
        cross_entropy = rec(criterion, "cross-entropy", criterion(dec_logits.transpose(1, 2), dec_outputs))  # (B, Lt)
        rec(criterion, "loss", cross_entropy.sum() / dec_outputs.ne(pad_id).sum())  # () mean over real tokens
    return rec.raw


# ------------------------------------------------------------------ what each step is


_ATTENTION = {kind.module: kind.sides("src", "tgt") for kind in ATTENTION_KINDS.values()}  # module: (query, key) side
_MASKS = {
    "enc_self_attn_mask": ("src", "src"),
    "dec_self_attn_pad_mask": ("tgt", "tgt"),
    "dec_self_attn_subsequence_mask": ("tgt", "tgt"),
    "dec_self_attn_mask": ("tgt", "tgt"),
    "dec_enc_attn_mask": ("tgt", "src"),
}
_ATTENTION_AXES = {
    "Q": ("batch", "heads", "len_q", "d_k"),
    "K": ("batch", "heads", "len_k", "d_k"),
    "V": ("batch", "heads", "len_k", "d_v"),
    "attn_mask": ("batch", "heads", "len_q", "len_k"),  # heads has size 1: one mask for every head
    "scores": ("batch", "heads", "len_q", "len_k"),
    "scores (masked)": ("batch", "heads", "len_q", "len_k"),
    "attn": ("batch", "heads", "len_q", "len_k"),
    "context": ("batch", "heads", "len_q", "d_v"),
    "context (concatenated)": ("batch", "len_q", "heads·d_v"),
}
_ATTENTION_KINDS = {
    "scores (masked)": "masked_scores",
    "context (concatenated)": "concat",
    "output": "attn_output",
}


def _side(where: str) -> str:
    return "src" if where.startswith("encoder") else "tgt"


def _attention_of(where: str) -> str | None:
    """'enc_self_attn', 'dec_self_attn' or 'dec_enc_attn' when where is an attention module."""
    last = where.rsplit(".", 1)[-1]
    return last if last in _ATTENTION else None


def _axes_and_kind(name: str, where: str) -> tuple[tuple[str, ...], str]:
    """The axis names and the kind of one recorded step."""
    seq = f"{_side(where)}_len"
    last = where.rsplit(".", 1)[-1]
    if _attention_of(where):
        if name == "output":
            return ("batch", seq, "d_model"), "attn_output"
        return _ATTENTION_AXES[name], _ATTENTION_KINDS.get(name, name)
    if name in _MASKS:
        kind = {"dec_self_attn_subsequence_mask": "subsequence_mask", "dec_self_attn_mask": "dec_self_attn_mask"}
        return ("batch", "len_q", "len_k"), kind.get(name, "pad_mask")
    if name in ("enc_inputs", "dec_inputs"):
        return ("batch", seq), "ids"
    if name == "pe":
        return (seq, "d_model"), "pe"
    if name in ("enc_outputs", "dec_outputs") and last in ("src_emb", "tgt_emb"):
        return ("batch", seq, "d_model"), "embedding"
    if name in ("enc_outputs", "dec_outputs") and last == "pos_emb":
        return ("batch", seq, "d_model"), "positional"
    if name in HIDDEN_STEPS:  # the feed-forward net's hidden layer, named by its activation
        return ("batch", seq, "d_ff"), "hidden"
    if name == "output":  # the feed-forward net's second linear layer
        return ("batch", seq, "d_model"), "ffn_output"
    if name == "output + residual":
        return ("batch", seq, "d_model"), "residual"
    if name == "LayerNorm":
        return ("batch", seq, "d_model"), "layer_norm"
    if name in ("dec_logits", "probabilities"):
        return ("batch", "tgt_len", "tgt_vocab"), "logits" if name == "dec_logits" else "probabilities"
    if name == "dec_outputs":  # the target ids, in the criterion
        return ("batch", "tgt_len"), "targets"
    if name == "cross-entropy":
        return ("batch", "tgt_len"), "cross_entropy"
    if name == "loss":
        return (), "loss"
    raise ValueError(f"unknown step {name!r} in {where}")


def trace_pass(model: Transformer, enc_inputs, dec_inputs, dec_outputs, pad_id: int = PAD_ID) -> list[Step]:
    """Every intermediate of one teacher-forced forward pass (eval mode, no dropout), in execution order.

    enc_inputs (B, Ls), dec_inputs (B, Lt) = S + target, dec_outputs (B, Lt) = target + E, all padded with pad_id
    (0, P, in the project's models).
    """
    steps = []
    recorded = _record_pass(model, enc_inputs, dec_inputs, dec_outputs, pad_id)
    for index, (name, where, tensor, code) in enumerate(recorded):
        axes, kind = _axes_and_kind(name, where)
        layer = re.search(r"layers\[(\d+)\]", where)
        steps.append(Step(index, name, where, tensor, axes, code, kind, layer=int(layer[1]) if layer else None))
    return steps


# ------------------------------------------------------------------ blocks of the architecture diagram


@dataclass(frozen=True)
class Block:
    """One box of the architecture diagram (the paper's Figure 1), with the steps computed in it."""

    index: int
    key: str  # where, with the layer index as [*]; ":pre" for a pre-norm LayerNorm before its sublayer
    kind: str  # inputs, outputs, embedding, positional_encoding, masks, self_attention, masked_attention,
    # cross_attention, add_norm, add, norm, feed_forward, final_norm, linear, softmax, loss
    side: str  # "encoder" or "decoder" (linear, softmax and loss sit on the decoder's column)
    in_layer: bool  # inside the N× repeated layer
    sizes: str  # the model's real sizes, e.g. "h=4, d_k=16"
    steps: dict[int | None, list[int]] = field(default_factory=dict)  # layer (None outside layers) → step indexes


def _block_key(step: Step, cfg: TransformerConfig) -> tuple[str, str]:
    """(block key, block kind) of one step."""
    key = re.sub(r"\[\d+\]", "[*]", step.where)
    last = key.rsplit(".", 1)[-1]
    if last in ("encoder", "decoder"):
        if step.kind == "ids":
            return f"{key}.inputs", "inputs" if last == "encoder" else "outputs"
        return f"{key}.masks", "masks"
    if last in ("src_emb", "tgt_emb"):
        return key, "embedding"
    if last == "pos_emb":
        return key, "positional_encoding"
    if last in _ATTENTION:
        if last == "dec_self_attn":
            return key, "masked_attention" if cfg.look_ahead_mask else "self_attention"
        return key, {"enc_self_attn": "self_attention", "dec_enc_attn": "cross_attention"}[last]
    if last == "pos_ffn":
        return key, "feed_forward"
    if last.startswith("norm"):
        if step.name == "LayerNorm" and cfg.norm == "pre":
            return f"{key}:pre", "norm"
        if cfg.residual:
            return key, "add_norm" if cfg.norm == "post" else "add"
        return key, "norm"
    if last == "final_norm":
        return key, "final_norm"
    return key, {"projection": "linear", "softmax": "softmax", "criterion": "loss"}[last]


def _sizes(kind: str, cfg: TransformerConfig, first: Step) -> str:
    """The model's real sizes for one block, language-neutral."""
    d = cfg.d_model
    if kind in ("inputs", "outputs", "masks"):
        return str(list(first.shape))
    if kind == "embedding":
        vocab = cfg.src_vocab_size if first.where.startswith("encoder") else cfg.tgt_vocab_size
        return f"{vocab}×{d}"
    if kind == "positional_encoding":
        return {"sinusoidal": f"sin/cos, {d}", "learned": f"learned {cfg.max_len}×{d}", "none": "—"}[cfg.pe]
    if kind.endswith("attention"):
        return f"h={cfg.n_heads}, d_k={cfg.d_k}"
    if kind == "feed_forward":
        return f"{d}→{cfg.d_ff}→{d}"
    if kind == "linear":
        return f"{d}→{cfg.tgt_vocab_size}"
    if kind == "softmax":
        return f"{cfg.tgt_vocab_size}"
    if kind == "loss":
        return "−log p"
    return f"d_model={d}"  # the norms and the residual sum


def _blocks(steps: list[Step], cfg: TransformerConfig) -> tuple[list[Block], list[Step]]:
    """The diagram's blocks in order of first use, and the steps with their block index filled in."""
    blocks: dict[str, Block] = {}
    placed = []
    for step in steps:
        key, kind = _block_key(step, cfg)
        if key not in blocks:
            side = "encoder" if key.startswith("encoder") else "decoder"
            blocks[key] = Block(len(blocks), key, kind, side, step.layer is not None, _sizes(kind, cfg, step))
        block = blocks[key]
        block.steps.setdefault(step.layer, []).append(step.index)
        placed.append(dataclasses.replace(step, block=block.index))
    return list(blocks.values()), placed


# ------------------------------------------------------------------ one sentence pair


@dataclass(frozen=True)
class Trace:
    """One sentence pair through the whole model: every step, the diagram's blocks and the tokens of each axis."""

    steps: list[Step]
    blocks: list[Block]
    config: TransformerConfig
    src_tokens: list[str]  # Ls tokens of enc_inputs (unknown words as <unk>, padding as P)
    dec_tokens: list[str]  # Lt tokens of dec_inputs: S + target + padding
    tgt_tokens: list[str]  # Lt tokens of dec_outputs: target + E + padding
    unknown: list[str] = field(default_factory=list)  # source words not in the vocabulary
    teacher: str = "reference"  # "reference": the given target; "greedy": the model's own greedy output
    pad_id: int = PAD_ID  # the padding id of dec_outputs (P, 0; Marian's <pad> is its last id)

    def step(self, name: str, where: str) -> Step:
        """The first step called name computed in where (e.g. step("attn", "encoder.layers[0].enc_self_attn"))."""
        for step in self.steps:
            if step.name == name and step.where == where:
                return step
        raise KeyError(f"no step {name!r} in {where}")

    def find(self, name: str, where: str) -> Step | None:
        """Like step(), or None when the model has no such step (e.g. a mask that is switched off)."""
        try:
            return self.step(name, where)
        except KeyError:
            return None

    @property
    def loss(self) -> float:
        """The loss of the pair: the mean cross-entropy over its non-padding target positions."""
        return float(self.step("loss", "criterion").tensor)

    def axis_tokens(self, step: Step) -> list[list[str] | None]:
        """For every axis of step: the tokens along it (sequence axes), or None (batch, heads, dimensions)."""
        tokens = {"src": self.src_tokens, "tgt": self.dec_tokens}
        q_side, k_side = _ATTENTION.get(_attention_of(step.where) or "", _MASKS.get(step.name, ("src", "src")))
        by_axis = {"src_len": "src", "tgt_len": "tgt", "len_q": q_side, "len_k": k_side}
        return [tokens[by_axis[a]] if a in by_axis else None for a in step.axes]

    def block_step(self, block: int, layer: int | None, position: int = 0) -> int:
        """The index of the position-th step of block in layer (the nearest layer the block has)."""
        runs = self.blocks[block].steps
        if layer not in runs:
            layer = min(runs, key=lambda x: abs((x or 0) - (layer or 0)))
        run = runs[layer]
        return run[min(max(position, 0), len(run) - 1)]

    def masked_blocks(self) -> list[int]:
        """The attention blocks of the diagram that a mask goes into (those with an attn_mask step)."""
        return [b.index for b in self.blocks if any(self.steps[i].name == "attn_mask" for i in _flat(b.steps))]

    def attention_modules(self) -> list[str]:
        """Every attention module in execution order: encoder.layers[0].enc_self_attn, …"""
        return list(dict.fromkeys(s.where for s in self.steps if _attention_of(s.where)))

    def inputs_of(self, index: int) -> list[Step]:
        """The steps worth showing beside step index because they went into it: the sum before LayerNorm, the
        embedding and the positional-encoding rows before their sum, the heads before concatenation."""
        step = self.steps[index]
        before = self.steps[:index]
        if step.kind == "layer_norm":
            stream = ("batch", f"{_side(step.where)}_len", "d_model")
            same = [s for s in before if s.axes == stream and _side(s.where) == _side(step.where)]
            return same[-1:]
        if step.kind == "positional":
            side = step.where.split(".")[0]
            parts = [s for s in before if s.where.startswith(side) and s.kind in ("embedding", "pe")]
            return parts[-2:] if self.config.pe != "none" else parts[-1:]
        if step.kind == "concat":
            return [s for s in before if s.where == step.where and s.name == "context"][-1:]
        return []

    def row_stats(self, index: int) -> list[tuple[float, float]]:
        """(mean, standard deviation) over d_model of every position of a [batch, len, d_model] step (batch 0),
        the two numbers LayerNorm sets to 0 and 1 (before its learned weight and bias)."""
        x = self.steps[index].tensor[0].double()  # (L, D)
        mean = x.mean(-1)
        std = x.var(-1, unbiased=False).sqrt()
        return list(zip(mean.tolist(), std.tolist()))

    def to_json(self) -> str:
        """The whole trace as JSON: the tokens, then every step's name, where, shape, axes, code and full values."""
        steps = [
            {
                "name": s.name,
                "where": s.where,
                "shape": list(s.shape),
                "axes": list(s.axes),
                "code": s.code,
                "values": json_values(s.tensor),
            }
            for s in self.steps
        ]
        tokens = {"src_tokens": self.src_tokens, "dec_tokens": self.dec_tokens, "tgt_tokens": self.tgt_tokens}
        return json.dumps({**tokens, "steps": steps}, ensure_ascii=False)

    def attention_cell(self, where: str, head: int, query: int, key: int) -> AttentionCell:
        """The arithmetic behind attn[0, head, query, key] of the attention module where, from the pass's own
        tensors: q·k, the division by √d_k, the mask, the softmax row, the weighted sum of the value vectors."""
        return attention_cell(self, where, head, query, key)

    def loss_rows(self) -> list[LossRow]:
        """For each target position: the correct token's probability and −log p; padding marked, not counted."""
        probs = self.step("probabilities", "softmax").tensor[0].double()  # (Lt, V)
        targets = self.step("dec_outputs", "criterion").tensor[0]  # (Lt,)
        nll = self.step("cross-entropy", "criterion").tensor[0].double()  # (Lt,)
        rows = []
        for j, target in enumerate(targets.tolist()):
            padded = target == self.pad_id
            p = float(probs[j, target])
            rows.append(LossRow(j, self.dec_tokens[j], self.tgt_tokens[j], p, 0.0 if padded else float(nll[j]), padded))
        return rows


def _flat(runs: dict[int | None, list[int]]) -> list[int]:
    return [i for run in runs.values() for i in run]


@dataclass(frozen=True)
class LossRow:
    """One target position's part of the loss."""

    position: int
    dec_input: str  # the token the decoder read at this position
    target: str  # the token it should predict (dec_outputs)
    p: float  # the probability the model gives the target token
    nll: float  # −log p (the cross-entropy of this position); 0 for padding, which is not counted
    padded: bool


def trace_sentence(translator, source: str, target: str | None = None, src_pad: int = 0, tgt_pad: int = 0) -> Trace:
    """Trace one sentence pair: teacher-forced on target, or on the model's own greedy output when target is None
    (a typed sentence has no reference); src_pad / tgt_pad add padding positions as a longer batch would."""
    view = translator.inspect(source, target, src_pad, tgt_pad)  # checks lengths, reads unknown words as <unk>
    vocab = translator.tgt_vocab
    ids = view.dec_inputs[0].tolist()
    real = len(ids) - tgt_pad  # S + target
    dec_outputs = torch.tensor([ids[1:real] + [vocab.eos_id] + [vocab.pad_id] * tgt_pad])  # (1, Lt): target + E + P…
    steps = trace_pass(translator.model, view.enc_inputs, view.dec_inputs, dec_outputs, vocab.pad_id)
    blocks, steps = _blocks(steps, translator.config)
    return Trace(
        steps=steps,
        blocks=blocks,
        config=translator.config,
        src_tokens=view.src_tokens,
        dec_tokens=view.dec_tokens,
        tgt_tokens=vocab.decode(dec_outputs[0]),
        unknown=view.unknown,
        teacher="reference" if target is not None else "greedy",
        pad_id=vocab.pad_id,
    )


# ------------------------------------------------------------------ the arithmetic of one attention cell


@dataclass(frozen=True)
class AttentionCell:
    """Every number behind one attention weight attn[0, head, query, key], taken from the recorded pass."""

    where: str
    head: int
    query: int
    key: int
    q: list[float]  # Q[0, head, query]: the query vector (d_k)
    k: list[float]  # K[0, head, key]: the key vector (d_k)
    products: list[float]  # q_i · k_i
    dot: float  # Σ q_i · k_i
    divisor: float  # √d_k, or 1 when the model does not scale
    score: float  # dot / divisor
    blocked: bool  # the mask blocks this cell: its score becomes −∞ and its weight 0
    has_mask: bool  # whether this attention has a mask at all
    row: list[float]  # the query's whole score row after masking (−∞ where blocked)
    shift: float  # subtracted from every score before exp (0 unless the scores are too large for exp)
    exps: list[float]  # e^(row_j − shift); 0 where blocked
    total: float  # Σ_j exps
    weights: list[float]  # the model's attention row attn[0, head, query]
    weight: float  # the model's attn[0, head, query, key]
    values: list[list[float]]  # V[0, head]: one value vector per key (Lk × d_v)
    weighted: list[list[float]]  # weights_j · v_j
    context: list[float]  # the model's context[0, head, query]: Σ_j weights_j · v_j


def attention_cell(trace: Trace, where: str, head: int, query: int, key: int) -> AttentionCell:
    """The arithmetic of attn[0, head, query, key] in the attention module where (see AttentionCell)."""
    Q = trace.step("Q", where).tensor[0, head].double()  # (Lq, d_k)
    K = trace.step("K", where).tensor[0, head].double()  # (Lk, d_k)
    V = trace.step("V", where).tensor[0, head].double()  # (Lk, d_v)
    attn = trace.step("attn", where).tensor[0, head].double()  # (Lq, Lk)
    context = trace.step("context", where).tensor[0, head].double()  # (Lq, d_v)
    mask_step = trace.find("attn_mask", where)
    mask = mask_step.tensor[0, 0, query] if mask_step is not None else torch.zeros(K.size(0), dtype=torch.bool)
    divisor = math.sqrt(Q.size(-1)) if trace.config.scale else 1.0
    q, k = Q[query], K[key]
    products = q * k
    scores = (Q[query] @ K.T) / divisor  # (Lk,)
    row = scores.masked_fill(mask, -math.inf)
    finite = row[~mask]
    shift = float(finite.max()) if finite.numel() and float(finite.max()) > 80 else 0.0  # e^80 still fits
    exps = torch.exp(row - shift)  # e^(−∞) = 0
    weights = attn[query]
    return AttentionCell(
        where=where,
        head=head,
        query=query,
        key=key,
        q=q.tolist(),
        k=k.tolist(),
        products=products.tolist(),
        dot=float(products.sum()),
        divisor=divisor,
        score=float(products.sum()) / divisor,
        blocked=bool(mask[key]),
        has_mask=mask_step is not None,
        row=row.tolist(),
        shift=shift,
        exps=exps.tolist(),
        total=float(exps.sum()),
        weights=weights.tolist(),
        weight=float(weights[key]),
        values=V.tolist(),
        weighted=(weights[:, None] * V).tolist(),
        context=context[query].tolist(),
    )


# ------------------------------------------------------------------ printing


def _number(value, decimals: int) -> str:
    if isinstance(value, (bool, int)):
        return str(value)
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return f"{value:.{decimals}f}"


def format_values(tensor: torch.Tensor, decimals: int = 4) -> str:
    """The tensor's values as nested brackets, numbers rounded and aligned (as the seed prints tensors)."""
    values = tensor.tolist()
    if not isinstance(values, list):
        return _number(values, decimals)
    flat = tensor.flatten().tolist()
    width = max((len(_number(v, decimals)) for v in flat), default=0)

    def fmt(x, depth: int) -> str:
        if not x or not isinstance(x[0], list):
            return "[" + ", ".join(_number(v, decimals).rjust(width) for v in x) + "]"
        gap = ",\n" + "\n" * (tensor.dim() - depth - 2) + " " * (depth + 1)
        return "[" + gap.join(fmt(row, depth + 1) for row in x) + "]"

    return fmt(values, 0)


def json_values(tensor: torch.Tensor):
    """The tensor as nested lists for JSON: floats in full, ±inf and nan as the strings "inf", "-inf", "nan"."""

    def clean(x):
        if isinstance(x, list):
            return [clean(v) for v in x]
        if isinstance(x, float) and not math.isfinite(x):
            return "nan" if math.isnan(x) else ("-inf" if x < 0 else "inf")
        return x

    return clean(tensor.tolist())
