"""transformer.trace: one recorded forward pass against the model's normal one, against seed 004's printed shapes,
the arithmetic of an attention cell against the model's own tensors, the loss per token, the `trace` command and
the figures of viz/trace.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
import torch
from torch import nn

from tests.transformer.test_switches import VARIANTS
from transformer import Transformer, TransformerConfig, Translator
from transformer.__main__ import main
from transformer.checkpoint import save_checkpoint
from transformer.data import PAD_ID
from transformer.trace import format_values, trace_pass, trace_sentence
from viz.trace import MAX_COLUMNS, architecture_figure, softmax_row_figure, step_figure

REPO = Path(__file__).resolve().parents[2]
PAIR = ("我 喜 欢 你", "I love you .")
SEED_SIZES = {"d_model": 4, "d_ff": 8, "n_heads": 2, "n_layers": 2}  # seed 004's hyperparameters
# seed 004's make_data output for 我 喜 欢 你 P → S I love you . P (its vocabularies: 5 source, 7 target tokens)
SEED_ENC, SEED_DEC, SEED_OUT = [[1, 2, 3, 4, 0]], [[4, 1, 2, 3, 6, 0]], [[1, 2, 3, 6, 5, 0]]


def _translator(seed: int = 0, **switches) -> Translator:
    pairs = [PAIR, ("你 好", "hello ."), ("我 爱 你 ， 你 爱 我", "I love you , you love me .")]
    return Translator.create(pairs, seed=seed, d_model=16, n_heads=2, d_ff=32, n_layers=2, **switches)


# ---------------------------------------------------------------- the trace against the model


@pytest.mark.parametrize("switches", VARIANTS.values(), ids=VARIANTS.keys())
def test_traced_logits_and_attention_equal_the_normal_forward(switches):
    translator = _translator(**switches)
    trace = trace_sentence(translator, *PAIR, src_pad=1, tgt_pad=2)
    enc, dec = trace.steps[0].tensor, trace.step("dec_inputs", "decoder").tensor
    model = translator.model.eval()
    with torch.no_grad():
        fused, _ = model(enc, dec)  # the fast path training uses
        _, maps = model(enc, dec, return_attn=True)
    assert torch.allclose(trace.step("dec_logits", "projection").tensor, fused, atol=1e-6)
    for i in range(2):
        for where, attns in (
            (f"encoder.layers[{i}].enc_self_attn", maps.enc_self_attns),
            (f"decoder.layers[{i}].dec_self_attn", maps.dec_self_attns),
            (f"decoder.layers[{i}].dec_enc_attn", maps.dec_enc_attns),
        ):
            assert torch.allclose(trace.step("attn", where).tensor, attns[i], atol=1e-6), where
    assert all(s.code for s in trace.steps)  # every step shows the line that computed it
    assert sum(len(run) for b in trace.blocks for run in b.steps.values()) == len(trace.steps)


def test_tracing_leaves_the_model_as_it_was():
    translator = _translator()
    translator.model.train()
    before = {k: v.clone() for k, v in translator.model.state_dict().items()}
    trace = trace_sentence(translator, *PAIR)
    assert translator.model.training  # back in training mode, dropout and all
    assert all(torch.equal(v, translator.model.state_dict()[k]) for k, v in before.items())
    assert all(not s.tensor.requires_grad for s in trace.steps)


def test_the_loss_per_token_adds_up_to_the_training_loss():
    translator = _translator(seed=3)
    trace = trace_sentence(translator, *PAIR, src_pad=1, tgt_pad=2)
    batch = translator.make_batch([PAIR])
    pad = torch.zeros(1, 2, dtype=torch.long)
    dec, out = torch.cat([batch.dec_inputs, pad], 1), torch.cat([batch.dec_outputs, pad], 1)
    with torch.no_grad():
        logits, _ = translator.model.eval()(torch.cat([batch.enc_inputs, pad[:, :1]], 1), dec)
    expected = nn.CrossEntropyLoss(ignore_index=PAD_ID)(logits.flatten(0, 1), out.flatten())
    rows = trace.loss_rows()
    assert [r.target for r in rows] == ["I", "love", "you", ".", "E", "P", "P"]
    assert [r.padded for r in rows] == [False] * 5 + [True] * 2
    counted = [r for r in rows if not r.padded]
    assert sum(r.nll for r in counted) / len(counted) == pytest.approx(float(expected), abs=1e-6)
    assert trace.loss == pytest.approx(float(expected), abs=1e-6)
    probs = torch.softmax(logits[0], -1)
    for r in counted:
        assert r.p == pytest.approx(float(probs[r.position, out[0, r.position]]), abs=1e-6)
        assert r.nll == pytest.approx(-math.log(r.p), abs=1e-5)


def test_a_typed_sentence_is_teacher_forced_on_the_greedy_output():
    translator = _translator()
    trace = trace_sentence(translator, "我 喜 欢 你")
    greedy = translator.translate("我 喜 欢 你").tokens
    assert trace.teacher == "greedy"
    assert trace.dec_tokens == ["S", *greedy] and trace.tgt_tokens == [*greedy, "E"]


def test_code_lines_are_the_real_source_without_the_recorder():
    trace = trace_sentence(_translator(), *PAIR)
    code = {(s.name, s.kind): s.code for s in trace.steps}
    assert code[("Q", "Q")] == "Q = self.W_Q(input_Q).view(B, -1, H, self.d_k).transpose(1, 2)"
    assert code[("scores (masked)", "masked_scores")] == "masked = scores.masked_fill(attn_mask, -math.inf)"
    assert code[("attn", "attn")] == "attn = torch.softmax(masked, dim=-1)"
    assert code[("enc_self_attn_mask", "pad_mask")] == "mask = get_attn_pad_mask(enc_inputs, enc_inputs, self.pad_id)"
    assert code[("loss", "loss")] == "cross_entropy.sum() / dec_outputs.ne(pad_id).sum()"
    for step in trace.steps:  # an assignment shows the recorded expression exactly as the source has it
        source = REPO / "transformer" / ("trace.py" if step.where in ("softmax", "criterion") else "model.py")
        assert "rec(" not in step.code
        if " = " in step.code:
            assert step.code.split(" = ", 1)[1] in source.read_text(), step.code


def test_blocks_follow_the_norm_placement():
    kinds = {}
    for name, switches in (("post", {}), ("pre", {"norm": "pre"}), ("bare", {"residual": False, "norm": "none"})):
        trace = trace_sentence(_translator(**switches), *PAIR)
        kinds[name] = [b.kind for b in trace.blocks if b.side == "encoder"]
    assert kinds["post"] == [
        "inputs", "embedding", "positional_encoding", "masks", "self_attention", "add_norm", "feed_forward", "add_norm",
    ]  # fmt: skip
    assert kinds["pre"] == [
        "inputs", "embedding", "positional_encoding", "masks",
        "norm", "self_attention", "add", "norm", "feed_forward", "add", "final_norm",
    ]  # fmt: skip
    assert kinds["bare"] == ["inputs", "embedding", "positional_encoding", "masks", "self_attention", "feed_forward"]


def test_what_went_in_is_shown_beside_what_came_out():
    trace = trace_sentence(_translator(**{"norm": "pre"}), *PAIR, src_pad=1)
    by_kind = {}
    for step in trace.steps:
        by_kind.setdefault(step.kind, step)
    positional = by_kind["positional"]
    embedding, pe = trace.inputs_of(positional.index)
    assert torch.allclose(embedding.tensor + pe.tensor, positional.tensor)
    norm = by_kind["layer_norm"]  # pre-norm: the first LayerNorm reads the embedded, position-encoded source
    assert trace.inputs_of(norm.index) == [positional]
    stats = trace.row_stats(norm.index)  # a fresh LayerNorm (weight 1, bias 0): every row mean 0, std 1
    assert all(abs(m) < 1e-5 and abs(sd - 1) < 1e-3 for m, sd in stats)
    concat = by_kind["concat"]
    (heads,) = trace.inputs_of(concat.index)
    assert heads.name == "context" and torch.equal(heads.tensor.transpose(1, 2).flatten(2), concat.tensor)


# ---------------------------------------------------------------- the arithmetic of one attention cell


@pytest.mark.parametrize("switches", [{}, {"scale": False}, {"pad_mask": False}], ids=["paper", "no-scale", "no-pad"])
@pytest.mark.parametrize("kind", ["enc_self_attn", "dec_self_attn", "dec_enc_attn"])
def test_attention_cell_arithmetic_reproduces_the_models_own_numbers(kind, switches):
    translator = _translator(seed=1, **switches)
    trace = trace_sentence(translator, *PAIR, src_pad=1, tgt_pad=1)
    enc, dec = trace.steps[0].tensor, trace.step("dec_inputs", "decoder").tensor
    with torch.no_grad():
        _, maps = translator.model.eval()(enc, dec, return_attn=True)
    prefix = {"enc_self_attn": "enc_self", "dec_self_attn": "dec_self", "dec_enc_attn": "dec_enc"}[kind]
    where = f"{'encoder' if kind == 'enc_self_attn' else 'decoder'}.layers[1].{kind}"
    attn = getattr(maps, f"{prefix}_attns")[1][0]  # (H, Lq, Lk)
    scores = getattr(maps, f"{prefix}_scores")[1][0]  # (H, Lq, Lk), before masking
    n_heads, n_q, n_k = attn.shape
    for head in range(n_heads):
        for query in range(n_q):
            for key in range(n_k):
                cell = trace.attention_cell(where, head, query, key)
                assert sum(cell.products) == pytest.approx(cell.dot, abs=1e-9)
                assert cell.divisor == (math.sqrt(len(cell.q)) if translator.config.scale else 1.0)
                assert cell.dot / cell.divisor == pytest.approx(float(scores[head, query, key]), abs=1e-5)
                softmax = (cell.exps[key] / cell.total) if not cell.blocked else 0.0
                assert softmax == pytest.approx(float(attn[head, query, key]), abs=1e-6)
                assert cell.weight == pytest.approx(float(attn[head, query, key]), abs=1e-7)
                context = np.sum(np.array(cell.weighted), axis=0)
                assert context == pytest.approx(cell.context, abs=1e-5)
    # the padding column is blocked in every attention that has a padding mask, and only there
    cell = trace.attention_cell(where, 0, 0, n_k - 1)
    assert cell.has_mask == (translator.config.pad_mask or kind == "dec_self_attn")
    assert cell.blocked == (translator.config.pad_mask or kind == "dec_self_attn")
    assert (cell.weight == 0.0) == cell.blocked


def test_the_query_vector_is_the_layers_input_times_W_Q():
    translator = _translator(seed=2)
    trace = trace_sentence(translator, *PAIR)
    x = trace.step("enc_outputs", "encoder.pos_emb").tensor  # the first encoder layer's input
    attention = translator.model.encoder.layers[0].enc_self_attn
    with torch.no_grad():
        Q = attention.W_Q(x).view(1, -1, 2, 8)[0, 2, 1]  # position 2, head 1
    assert trace.attention_cell("encoder.layers[0].enc_self_attn", 1, 2, 0).q == pytest.approx(Q.tolist(), abs=1e-6)


# ---------------------------------------------------------------- seed 004's shapes, step for step


def _seed_prints() -> list[tuple[str, str, str, list[int]]]:
    """(section, label, name, shape) of every shape seed 004 prints in its first forward pass (see the fixture)."""
    rows = []
    for line in (REPO / "tests" / "fixtures" / "seed004_first_pass_shapes.tsv").read_text("utf-8").splitlines():
        if line.startswith("#"):
            continue
        _, section, label, name, shape = line.split("\t")
        numbers = shape.removeprefix("torch.Size(").removesuffix(")").strip("[]()")
        rows.append((section, label, name, [int(n) if n.strip().isdigit() else n.strip() for n in numbers.split(",")]))
    return rows


ECHO = None  # the seed prints a tensor again as the input of the next function (or returns it): not a new step
SEQ_FIRST = "seq_first"  # [seq_len, batch, d_model] → our [batch, len, d_model]
PE_ROWS = "pe_rows"  # [seq_len, 1, d_model] → our [len, d_model]
PER_HEAD = "per_head"  # the mask repeated per head [batch, n_heads, len_q, len_k] → our broadcast [batch, 1, …]
PAD_MASK = "pad_mask"  # what get_attn_pad_mask returns, named by the call: see PAD_MASK_CALLS
PAD_MASK_CALLS = ["enc_self_attn_mask", "dec_self_attn_pad_mask", "dec_enc_attn_mask"]
SEED_TO_TRACE = {
    ("# 阶段一：encoder", "输入", "enc_inputs"): "enc_inputs",
    ("# Encoder中", "enc_inputs转换为词向量的结果", "enc_outputs"): "enc_outputs",
    ("## PositionalEncoding", "输入", "x"): ECHO,  # the embedding again, transposed
    ("## PositionalEncoding", "位置编码", "self.pe[:x.size(0), :]"): ("pe", PE_ROWS),
    ("## PositionalEncoding", "位置编码", "self.pe"): ECHO,  # the whole [5000, 1, 4] table, not a step
    ("## PositionalEncoding", "输出", "x"): ("{side}_outputs", SEQ_FIRST),
    ("## get_attn_pad_mask", "输入", "seq_q"): ECHO,
    ("## get_attn_pad_mask", "输入", "seq_k"): ECHO,
    ("## get_attn_pad_mask", "操作pad_attn_mask矩阵：pad_attn_mask", "pad_attn_mask"): ECHO,  # inside, before expand
    ("## get_attn_pad_mask", "扩展pad_attn_mask矩阵：pad_attn_mask.expand", "ans"): PAD_MASK,
    ("## get_attn_subsequence_mask", "输入", "seq"): ECHO,
    ("## get_attn_subsequence_mask", "生成一个上三角矩阵", "subsequence_mask"): ECHO,  # the NumPy triangle
    ("## get_attn_subsequence_mask", "输出", "subsequence_mask"): "dec_self_attn_subsequence_mask",
    ("## get_attn_subsequence_mask", "两个mask相加", "dec_self_attn_pad_mask"): ECHO,
    ("## get_attn_subsequence_mask", "两个mask相加", "dec_self_attn_subsequence_mask"): ECHO,
    ("## get_attn_subsequence_mask", "两个mask相加", "dec_self_attn_mask"): "dec_self_attn_mask",
    ("## MultiHeadAttention", "输入", "input_Q"): ECHO,
    ("## MultiHeadAttention", "输入", "input_K"): ECHO,
    ("## MultiHeadAttention", "输入", "input_V"): ECHO,
    ("## MultiHeadAttention", "输入", "attn_mask"): ECHO,
    ("## MultiHeadAttention", "QKV的分头操作", "Q.view"): ECHO,  # printed as [1, 'seq_len', 2, 2], before transpose
    ("## MultiHeadAttention", "QKV的分头操作", "Q"): "Q",
    ("## MultiHeadAttention", "QKV的分头操作", "K"): "K",
    ("## MultiHeadAttention", "QKV的分头操作", "V"): "V",
    ("## MultiHeadAttention", "attn_mask的分头操作", "attn_mask"): ("attn_mask", PER_HEAD),
    ("### ScaledDotProductAttention", "输入", "Q"): ECHO,
    ("### ScaledDotProductAttention", "输入", "K"): ECHO,
    ("### ScaledDotProductAttention", "输入", "V"): ECHO,
    ("### ScaledDotProductAttention", "输入", "attn_mask"): ECHO,
    ("### ScaledDotProductAttention", "计算相似性得分", "scores"): "scores",
    ("### ScaledDotProductAttention", "mask操作", "scores"): "scores (masked)",
    ("### ScaledDotProductAttention", "计算相似性权重", "attn"): "attn",
    ("### ScaledDotProductAttention", "计算attention", "context"): "context",
    ("### ScaledDotProductAttention", "获得attention的结果和相似性", "attn"): ECHO,
    ("### ScaledDotProductAttention", "获得attention的结果和相似性", "context"): ECHO,
    (
        "### ScaledDotProductAttention",
        "将不同头的输出向量拼接在一起：reshape(batch_size, -1, n_heads * d_v",
        "context",
    ): "context (concatenated)",
    ("### ScaledDotProductAttention", "多头注意力机制算出的attention", "output"): "output",
    ("## 残差操作和层归一化", "残差操作", "residual"): ECHO,
    ("## 残差操作和层归一化", "残差操作", "(output + residual)"): "output + residual",
    ("## 残差操作和层归一化", "层归一化之后", "ans_tuple1[0]"): "LayerNorm",
    ("## PoswiseFeedForwardNet", "输入", "inputs"): ECHO,
    ("## PoswiseFeedForwardNet", "fc操作的代码", "inputs"): ECHO,
    ("## PoswiseFeedForwardNet", "fc原来是d_model->d_ff->d_model", "output"): "output",
    ("## 前馈层后的层归一化和残差", "FeedForward后的层归一化和残差", "residual"): ECHO,
    ("## 前馈层后的层归一化和残差", "残差和层归一化之后的结果", "ans"): "LayerNorm",
    ("# Encoder结束", "输出", "enc_outputs"): ECHO,
    ("# 阶段二：decoder", "输入", "dec_inputs"): "dec_inputs",
    ("# 阶段二：decoder", "输入", "enc_inputs"): ECHO,
    ("# 阶段二：decoder", "输入", "enc_outputs"): ECHO,
    ("# Decoder中", "dec_inputs转换为词向量的结果", "dec_outputs"): "dec_outputs",
    ("# Decoder结束", "输出", "dec_outputs"): ECHO,
    ("# 阶段三：projection", "输入", "dec_outputs"): ECHO,
    ("# 阶段三：projection", "输出", "dec_logits"): "dec_logits",
    ("# 计算损失", "预测值", "outputs"): ECHO,  # dec_logits.view(-1, tgt_vocab_size): we keep [batch, len, vocab]
    ("# 计算损失", "真实值", "dec_outputs"): "dec_outputs",  # the target ids
    ("# 计算损失", "真实值", "dec_outputs.view(-1)"): ECHO,
}
# steps the seed computes inside one expression and never prints: the feed-forward's hidden layer (its
# nn.Sequential), the feed-forward's residual sum (nn.LayerNorm(d_model)(output + residual)), and everything in
# its CrossEntropyLoss (it prints the loss value without a shape)
NOT_PRINTED_BY_THE_SEED = {"hidden (ReLU)", "probabilities", "cross-entropy", "loss"}


def expected_from_seed(tgt_vocab: int = 7) -> list[tuple[str, list[int]]]:
    """Seed 004's first pass as (our step name, our shape), mapped explicitly through SEED_TO_TRACE."""
    expected, side, pad_masks = [], "enc", iter(PAD_MASK_CALLS)
    for section, label, name, shape in _seed_prints():
        if section == "# 阶段二：decoder":
            side = "dec"
        rule = SEED_TO_TRACE[(section, label, name)]
        if rule is ECHO:
            continue
        ours, change = rule if isinstance(rule, tuple) else (rule, None)
        if ours == PAD_MASK:
            ours = next(pad_masks)
        if change == SEQ_FIRST:
            shape = [shape[1], shape[0], shape[2]]
        elif change == PE_ROWS:
            shape = [shape[0], shape[2]]
        elif change == PER_HEAD:
            shape = [shape[0], 1, shape[2], shape[3]]
        if ours == "dec_logits":
            shape = [*shape[:2], tgt_vocab]
        expected.append((ours.format(side=side), shape))
    return expected


def ours_as_the_seed_prints_them(steps: list[tuple[str, str, list[int]]]) -> list[tuple[str, list[int]]]:
    """Our (name, where, shape) steps minus what the seed never prints (see NOT_PRINTED_BY_THE_SEED)."""
    out, previous = [], ""
    for name, where, shape in steps:
        ffn_residual = name == "output + residual" and previous.endswith("pos_ffn")
        previous = where
        if name not in NOT_PRINTED_BY_THE_SEED and not ffn_residual:
            out.append((name, list(shape)))
    return out


def test_the_seed_fixture_holds_the_whole_first_pass():
    prints = _seed_prints()
    assert len(prints) == 203
    assert prints[0][2:] == ("enc_inputs", [1, 5]) and prints[-1][2:] == ("dec_outputs.view(-1)", [6])
    assert all(key in SEED_TO_TRACE for key in {p[:3] for p in prints})  # every kind of print is mapped


def test_every_step_matches_seed_004_in_order_and_shape():
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(5, 7, **SEED_SIZES))
    steps = trace_pass(model, torch.tensor(SEED_ENC), torch.tensor(SEED_DEC), torch.tensor(SEED_OUT))
    assert ours_as_the_seed_prints_them([(s.name, s.where, s.shape) for s in steps]) == expected_from_seed()
    assert len(steps) == 106


# ---------------------------------------------------------------- the command line


@pytest.fixture(scope="module")
def seed_model(tmp_path_factory) -> Path:
    """A checkpoint with seed 004's sizes, untrained (the shapes are what matters)."""
    path = tmp_path_factory.mktemp("trace") / "seed.safetensors"
    save_checkpoint(Translator.create([PAIR], **SEED_SIZES), path)
    return path


def test_cli_trace_prints_every_step_and_writes_json(seed_model, tmp_path, capsys):
    out_json = tmp_path / "trace.json"
    argv = ["trace", "--model", str(seed_model), PAIR[0], "--target", PAIR[1], "--pad-source", "1", "--pad-target", "1"]
    assert main([*argv, "--json", str(out_json)]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out_json.read_text("utf-8"))
    steps = data["steps"]
    mapped = ours_as_the_seed_prints_them([(s["name"], s["where"], s["shape"]) for s in steps])
    assert mapped == expected_from_seed(tgt_vocab=8)  # our target vocabulary also holds <unk>
    assert set(steps[0]) == {"name", "where", "shape", "axes", "code", "values"}
    assert steps[0]["values"] == [[4, 5, 6, 7, 0]]
    scores = next(s for s in steps if s["name"] == "scores (masked)")
    assert scores["values"][0][0][0][-1] == "-inf" and scores["axes"] == ["batch", "heads", "len_q", "len_k"]
    assert data["dec_tokens"] == ["S", "I", "love", "you", ".", "P"]
    # printed: every step in order with where and shape; values of small tensors, 4 decimals
    for i, s in enumerate(steps, start=1):
        assert f"[{i}] {s['name']}  ({s['where']})  {s['shape']} [{', '.join(s['axes'])}]" in printed
    assert "dec_inputs:  S I love you . P" in printed
    assert format_values(torch.tensor(steps[1]["values"])) in printed
    hidden = next(s for s in steps if s["name"] == "hidden (ReLU)")  # 1·5·8 = 40 numbers: printed
    assert format_values(torch.tensor(hidden["values"])) in printed
    assert "loss = " in printed.splitlines()[-2]


def test_cli_trace_without_a_target_uses_the_greedy_output(seed_model, capsys):
    assert main(["trace", "--model", str(seed_model), "我 喜 欢 猫"]) == 0
    out, err = capsys.readouterr()
    assert "greedy output" in out and "unknown words read as <unk>: 猫" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pad-source", "-1"], "expected a whole number of at least 0"),
        (["--pad-target", "200"], "this model reads at most 128"),
        (["--model", "{missing}"], "cannot read"),
        (["--json", "{missing_dir}"], "t.json: the folder {missing_dir_parent} does not exist: create it"),
    ],
    ids=["negative-padding", "too-much-padding", "missing-model", "unwritable-json"],
)
def test_cli_trace_bad_input_is_one_line_and_exit_2(seed_model, tmp_path, capsys, args, message):
    where = dict(missing=tmp_path / "nope.safetensors", missing_dir=tmp_path / "no" / "t.json")
    args, message = [a.format(**where) for a in args], message.format(missing_dir_parent=tmp_path / "no")
    model = [] if "--model" in args else ["--model", str(seed_model)]
    try:
        code = main(["trace", *model, *args, PAIR[0]])
    except SystemExit as exc:  # argparse's errors leave through sys.exit
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2 and message in err and err.count("\n") == 1 and err.startswith("error: ")
    assert out == ""  # refused before anything is traced


def test_cli_trace_shows_control_characters_visibly(seed_model, capsys):
    assert main(["trace", "--model", str(seed_model), "我\x1b[31m你", "--target", "I"]) == 0
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\\x1b" in err


def test_format_values_rounds_and_aligns_like_the_seed():
    t = torch.tensor([[[-0.90331, -1.7691], [0.4731, -math.inf]]])
    assert format_values(t) == "[[[-0.9033, -1.7691],\n  [ 0.4731,    -inf]]]"
    assert format_values(torch.tensor([[True, False]])) == "[[ True, False]]"
    assert format_values(torch.tensor(1.23456)) == "1.2346"


# ---------------------------------------------------------------- viz/trace.py


def test_architecture_figure_has_one_click_target_per_block_and_highlights_the_selected_one():
    trace = trace_sentence(_translator(), *PAIR)
    labels = [b.kind for b in trace.blocks]
    fig = architecture_figure(trace.blocks, labels, [b.sizes for b in trace.blocks], selected=5, n_layers=2, layer=1)
    (targets,) = [tr for tr in fig.data if isinstance(tr, go.Scatter)]
    assert len(targets.x) == len(trace.blocks) and [c[0] for c in targets.customdata] == list(range(len(labels)))
    red = [s for s in fig.layout.shapes if s.fillcolor == "#ffb3b3"]
    assert len(red) == 1 and red[0].x0 < targets.x[5] < red[0].x1 and red[0].y0 < targets.y[5] < red[0].y1
    texts = " ".join(a.text for a in fig.layout.annotations)
    assert "N× = 2" in texts and "layer 2" in texts and "h=2, d_k=8" in texts and "16→32→16" in texts
    json.loads(fig.to_json())


def test_step_figures_label_tokens_cap_wide_matrices_and_draw_minus_infinity():
    trace = trace_sentence(_translator(), "我 爱 你 ， 你 爱 我", "I love you , you love me .", src_pad=1)
    masked = trace.step("scores (masked)", "encoder.layers[0].enc_self_attn")
    fig = step_figure(masked.tensor, masked.axes, trace.axis_tokens(masked), head=1, title="s", clickable=True)
    heat = fig.data[0]
    assert list(fig.layout.yaxis.ticktext) == trace.src_tokens and len(heat.y) == len(trace.src_tokens)  # 你 twice
    assert np.isnan(np.array(heat.z, dtype=float)[:, -1]).all()  # the padding column: −∞, drawn as a dark cell
    (minus_inf,) = [t for t in fig.data if t.meta == "overlay"]
    assert "−∞" in np.array(minus_inf.text).ravel().tolist() and fig.layout.title.text == "s · head 2"
    assert len(fig.data[-1].x) == len(trace.src_tokens) ** 2  # one click target per cell
    wide = torch.randn(1, 3, 300)  # (batch, tgt_len, tgt_vocab): the largest values are kept, in vocabulary order
    wide[0, 0, 250] = 99.0
    vocab = [f"w{i}" for i in range(300)]
    fig = step_figure(wide, ("batch", "tgt_len", "tgt_vocab"), [None, ["S", "a", "b"], None], vocab=vocab)
    ticks = [cell[1] for cell in fig.data[0].customdata[0]]  # the column token of every cell in the first row
    assert len(ticks) == MAX_COLUMNS and "w250" in ticks and ticks == sorted(ticks, key=lambda w: int(w[1:]))
    assert "128 of 300 columns" in fig.layout.title.subtitle.text
    mask = trace.step("attn_mask", "encoder.layers[0].enc_self_attn")
    fig = step_figure(mask.tensor, mask.axes, trace.axis_tokens(mask))
    assert np.array(fig.data[0].z)[:, -1].tolist() == [1] * len(trace.src_tokens)  # True = blocked
    odd = ["<b>", "a&b", "P"]  # tokens are escaped exactly once, in masks and in real-valued steps alike
    for values in (torch.eye(3, dtype=torch.bool)[None], torch.eye(3)[None]):
        fig = step_figure(values, ("batch", "len_q", "len_k"), [None, odd, odd])
        assert list(fig.layout.yaxis.ticktext) == ["&lt;b&gt;", "a&amp;b", "P"]
    bars = softmax_row_figure([0.25, 0.75, 0.0], ["a", "<b>", "P"], 1, [False, False, True])
    assert bars.data[0].marker.color[1] == "#d62728" and list(bars.layout.xaxis.ticktext)[1] == "&lt;b&gt;"
