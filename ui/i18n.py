"""Every UI string in English and Chinese, in one place. t(key, lang, **values) looks one up."""

from __future__ import annotations

from transformer.config import MAX_PAIRS, MAX_TOKENS
from transformer.data import Problem

LANGUAGES = {"en": "English", "zh": "中文"}

STRINGS: dict[str, dict[str, str]] = {
    # navigation and sidebar
    "nav.data": {"en": "Data", "zh": "数据"},
    "nav.train": {"en": "Train", "zh": "训练"},
    "nav.pe": {"en": "Positional encoding", "zh": "位置编码"},
    "nav.masks": {"en": "Masks", "zh": "掩码"},
    "nav.attention": {"en": "Attention", "zh": "注意力"},
    "nav.decoding": {"en": "Decoding", "zh": "解码"},
    "sidebar.model": {"en": "Current model", "zh": "当前模型"},
    "sidebar.source": {"en": "From: {source}", "zh": "来源：{source}"},
    "sidebar.params": {"en": "Parameters: {n}", "zh": "参数量：{n}"},
    "sidebar.vocab": {"en": "Vocabulary: {src} source / {tgt} target tokens", "zh": "词表：源 {src} / 目标 {tgt} 个词"},
    "sidebar.epochs": {"en": "Epochs trained: {n}", "zh": "已训练轮数：{n}"},
    "sidebar.loss": {"en": "Last loss: {loss}", "zh": "最后损失：{loss}"},
    "source.bundled": {"en": "bundled", "zh": "内置"},
    "source.trained": {"en": "trained here", "zh": "本页训练"},
    "source.uploaded": {"en": "uploaded", "zh": "上传"},
    # data page
    "data.title": {"en": "Sentence pairs", "zh": "句子对"},
    "data.intro": {
        "en": "The model learns to translate from these pairs. Edit cells, add rows with **+**, delete rows with "
        "the checkbox and the bin, or load a file. Chinese characters become one token each, with or without "
        "spaces; punctuation is split off English words.",
        "zh": "模型从这些句子对中学习翻译。可以直接编辑单元格，用 **+** 添加行，勾选后删除行，或者上传文件。"
        "中文每个字是一个词元（有没有空格都一样）；英文的标点会从单词上分开。",
    },
    "data.tokenizer": {"en": "Tokenization", "zh": "分词方式"},
    "tokenizer.auto": {
        "en": "auto: CJK by character, words by spaces and punctuation",
        "zh": "自动：中日韩按字，其他按空格和标点",
    },
    "tokenizer.whitespace": {"en": "whitespace: split on spaces only", "zh": "空格：只按空格切分"},
    "tokenizer.char": {"en": "char: every character is a token", "zh": "字符：每个字符一个词元"},
    "data.source": {"en": "source", "zh": "源句"},
    "data.target": {"en": "target", "zh": "目标句"},
    "data.add_pair": {"en": "Add a pair", "zh": "添加一个句子对"},
    "data.add": {"en": "Add", "zh": "添加"},
    "data.add_both": {
        "en": "Type both a source and a target sentence, then press Add.",
        "zh": "请同时输入源句和目标句，再点“添加”。",
    },
    "data.pairs": {"en": "Pairs", "zh": "句子对数"},
    "data.errors": {"en": "Fix these before training:", "zh": "训练前请先修正："},
    "data.ok": {"en": "All pairs are ready for training.", "zh": "所有句子对都可以用于训练。"},
    "data.file": {"en": "File", "zh": "文件"},
    "data.upload_mode": {"en": "An uploaded file", "zh": "上传的文件"},
    "data.upload_replace": {"en": "replaces the table", "zh": "替换当前表格"},
    "data.upload_append": {"en": "is added to the table", "zh": "追加到当前表格"},
    "data.upload": {
        "en": "Upload pairs (UTF-8 CSV or TSV, two columns, up to {mb} MB)",
        "zh": "上传句子对（UTF-8 编码的 CSV 或 TSV，两列，最大 {mb} MB）",
    },
    "data.upload_failed": {
        "en": "{name} was not loaded: {reason} Your table is unchanged.",
        "zh": "{name} 未能载入：{reason} 你的表格没有改变。",
    },
    "data.upload_ok": {"en": "Loaded {n} pairs from {name}.", "zh": "已从 {name} 载入 {n} 个句子对。"},
    "data.download": {"en": "Download the table (TSV)", "zh": "下载表格（TSV）"},
    "data.tokens": {"en": "Tokens", "zh": "词元"},
    "data.tokens_intro": {
        "en": "How each pair is split with the tokenization “{mode}”.",
        "zh": "按“{mode}”分词后的每个句子对。",
    },
    "data.source_tokens": {"en": "source tokens", "zh": "源句词元"},
    "data.target_tokens": {"en": "target tokens", "zh": "目标句词元"},
    "data.vocab": {"en": "Vocabularies", "zh": "词表"},
    "data.vocab_intro": {
        "en": "Each token gets an id. The first ids are reserved for the special tokens {specials}: "
        "`P` pads short sentences (always id 0), `S` starts the decoder input, `E` ends the output, and "
        "`<unk>` stands for a word the model never saw.",
        "zh": "每个词元对应一个编号。前几个编号留给特殊词元 {specials}：`P` 用来补齐短句（编号总是 0），"
        "`S` 是解码器输入的开始，`E` 表示输出结束，`<unk>` 代表模型没见过的词。",
    },
    "data.src_vocab": {"en": "Source vocabulary ({n} tokens)", "zh": "源语言词表（{n} 个）"},
    "data.tgt_vocab": {"en": "Target vocabulary ({n} tokens)", "zh": "目标语言词表（{n} 个）"},
    "vocab.token": {"en": "token", "zh": "词元"},
    "vocab.count": {"en": "count", "zh": "出现次数"},
    "vocab.special": {"en": "special", "zh": "特殊词元"},
    "special.0": {"en": "padding", "zh": "填充"},
    "special.1": {"en": "start", "zh": "开始"},
    "special.2": {"en": "end", "zh": "结束"},
    "special.3": {"en": "unknown word", "zh": "未知词"},
    "data.make_data_intro": {
        "en": "`make_data` turns the pairs into three tensors of ids, padded with `P` (0) to the longest "
        "sentence: the encoder reads `enc_inputs`; the decoder reads `dec_inputs` (`S` + target) and learns to "
        "predict `dec_outputs` (target + `E`), one position ahead.",
        "zh": "`make_data` 把句子对变成三个编号张量，并用 `P`（0）补齐到最长的句子：编码器读 `enc_inputs`；"
        "解码器读 `dec_inputs`（`S` + 目标句），学习预测错开一位的 `dec_outputs`（目标句 + `E`）。",
    },
    "data.first_pairs": {"en": "Pairs to show", "zh": "显示的句子对数"},
    "data.enc_inputs": {"en": "the source ids", "zh": "源句编号"},
    "data.dec_inputs": {"en": "S + the target ids", "zh": "S + 目标句编号"},
    "data.dec_outputs": {"en": "the target ids + E", "zh": "目标句编号 + E"},
    "problem.no_pairs": {
        "en": "There are no sentence pairs: add at least one row with a source and a target.",
        "zh": "没有句子对：请至少添加一行源句和目标句。",
    },
    "problem.empty_source": {
        "en": "row {row}: the source sentence is empty. Type one or delete the row.",
        "zh": "第 {row} 行：源句为空。请输入句子或删除这一行。",
    },
    "problem.empty_target": {
        "en": "row {row}: the target sentence is empty. Type one or delete the row.",
        "zh": "第 {row} 行：目标句为空。请输入句子或删除这一行。",
    },
    "problem.too_long": {
        "en": "row {row}: the {detail} is longer than {max_tokens} tokens. Shorten it.",
        "zh": "第 {row} 行：{detail}超过 {max_tokens} 个词元，请缩短。",
    },
    "problem.too_many_rows": {
        "en": "There are {detail} pairs, more than the {max_pairs} allowed. Delete some rows.",
        "zh": "共有 {detail} 个句子对，超过上限 {max_pairs}。请删除一些行。",
    },
    "problem.duplicate": {
        "en": "row {row} repeats row {detail}; the pair will be trained twice.",
        "zh": "第 {row} 行与第 {detail} 行重复，这个句子对会被训练两次。",
    },
    "problem.reserved": {
        "en": "row {row}: the token “{detail}” is reserved for the model and is read as an unknown word.",
        "zh": "第 {row} 行：“{detail}”是模型保留的特殊词元，会被当作未知词。",
    },
    "side.source": {"en": "source", "zh": "源句"},
    "side.target": {"en": "target", "zh": "目标句"},
    # train page
    "train.title": {"en": "Train", "zh": "训练"},
    "train.intro": {
        "en": "Choose the model's sizes and the optimiser's settings, then press **Train**. Each epoch shows the "
        "mean cross-entropy loss (padding ignored) and the share of target tokens predicted right. **Stop** ends "
        "training after the current epoch and keeps the model trained so far.",
        "zh": "选择模型大小和优化器设置，然后点 **开始训练**。每一轮显示平均交叉熵损失（忽略填充）以及预测正确的目标词元比例。"
        "**停止** 会在当前一轮结束后停下，并保留已经训练的模型。",
    },
    "train.model_settings": {"en": "Model", "zh": "模型"},
    "train.train_settings": {"en": "Training", "zh": "训练"},
    "train.lr": {"en": "learning rate", "zh": "学习率"},
    "train.epochs": {"en": "epochs", "zh": "训练轮数"},
    "train.batch_size": {"en": "batch size", "zh": "批大小"},
    "train.seed": {"en": "random seed", "zh": "随机种子"},
    "train.heads_adjusted": {
        "en": "n_heads {old} does not divide d_model {d_model}, so it is now {new}.",
        "zh": "n_heads={old} 不能整除 d_model={d_model}，已改为 {new}。",
    },
    "train.param_count": {
        "en": "**{n} parameters** · {pairs} pairs · vocabularies {src} / {tgt} tokens",
        "zh": "**{n} 个参数** · {pairs} 个句子对 · 词表 {src} / {tgt} 个词元",
    },
    "train.train": {"en": "Train", "zh": "开始训练"},
    "train.stop": {"en": "Stop", "zh": "停止"},
    "train.fix_data": {
        "en": "The data has {n} problem(s): fix them on the Data page first.",
        "zh": "数据有 {n} 个问题：请先在“数据”页修正。",
    },
    "train.progress": {
        "en": "epoch {epoch}/{epochs} · loss {loss} · token accuracy {acc}",
        "zh": "第 {epoch}/{epochs} 轮 · 损失 {loss} · 词元准确率 {acc}",
    },
    "train.loss": {"en": "loss", "zh": "损失"},
    "train.accuracy": {"en": "token accuracy", "zh": "词元准确率"},
    "train.epoch": {"en": "epoch", "zh": "轮次"},
    "train.stopped": {
        "en": "Training stopped after epoch {epochs}; the partly trained model is now the current model.",
        "zh": "训练在第 {epochs} 轮后停止；训练到一半的模型已成为当前模型。",
    },
    "train.done": {"en": "Trained {epochs} epochs in {seconds} s.", "zh": "训练了 {epochs} 轮，用时 {seconds} 秒。"},
    "train.exact": {"en": "exact-match translations", "zh": "完全正确的翻译"},
    "train.final_loss": {"en": "final loss", "zh": "最终损失"},
    "train.time": {"en": "training time", "zh": "训练时间"},
    "train.reference": {"en": "reference", "zh": "参考译文"},
    "train.output": {"en": "greedy translation", "zh": "贪心解码译文"},
    "help.d_model": {
        "en": "Size of every token vector (embedding and positional encoding).",
        "zh": "每个词元向量的维度（词嵌入和位置编码）。",
    },
    "help.n_heads": {
        "en": "Attention heads per layer; only divisors of d_model ({d_model}) are offered.",
        "zh": "每层的注意力头数；只提供能整除 d_model（{d_model}）的值。",
    },
    "help.d_ff": {"en": "Hidden size of the position-wise feed-forward network.", "zh": "逐位置前馈网络的隐藏层大小。"},
    "help.n_layers": {"en": "Encoder layers, and as many decoder layers.", "zh": "编码器层数（解码器层数相同）。"},
    "help.dropout": {
        "en": "Share of activations zeroed during training; 0 memorises small data fastest.",
        "zh": "训练时随机置零的比例；数据少时 0 学得最快。",
    },
    "help.lr": {"en": "Step size of the Adam optimiser.", "zh": "Adam 优化器的步长。"},
    "help.epochs": {"en": "Passes over all pairs.", "zh": "遍历全部句子对的次数。"},
    "help.batch_size": {"en": "Pairs per optimiser step.", "zh": "每次参数更新使用的句子对数。"},
    "help.seed": {
        "en": "Same seed, same settings, same data → the same loss curve.",
        "zh": "相同的种子、设置和数据会得到相同的损失曲线。",
    },
    # checkpoints
    "ckpt.title": {"en": "Save and load", "zh": "保存与载入"},
    "ckpt.intro": {
        "en": "A checkpoint is one `.safetensors` file with the weights, both vocabularies, the tokenization and a "
        "training summary. Loading never runs code from the file.",
        "zh": "检查点是一个 `.safetensors` 文件，包含权重、两个词表、分词方式和训练摘要。载入时绝不会执行文件中的代码。",
    },
    "ckpt.download": {"en": "Download the current model", "zh": "下载当前模型"},
    "ckpt.upload": {
        "en": "Load a checkpoint (.safetensors, up to {mb} MB)",
        "zh": "载入检查点（.safetensors，最大 {mb} MB）",
    },
    "ckpt.rejected": {
        "en": "{name} was not loaded: {reason} The current model is unchanged.",
        "zh": "{name} 未能载入：{reason} 当前模型没有改变。",
    },
    "ckpt.loaded": {"en": "Loaded {name}; it is now the current model.", "zh": "已载入 {name}，它现在是当前模型。"},
    "ckpt.bundled": {"en": "Back to the bundled model", "zh": "恢复内置模型"},
    "ckpt.bundled_back": {"en": "The bundled model is the current model again.", "zh": "已恢复为内置模型。"},
}


def t(key: str, lang: str, **values) -> str:
    """The string for key in lang ('en' or 'zh'), with {placeholders} filled from values."""
    text = STRINGS[key][lang if lang in LANGUAGES else "en"]
    return text.format(**values) if values else text


def problem_text(problem: Problem, lang: str) -> str:
    """A data problem in the UI language."""
    detail = t(f"side.{problem.detail}", lang) if problem.kind == "too_long" else problem.detail
    return t(
        f"problem.{problem.kind}", lang, row=problem.row, detail=detail, max_tokens=MAX_TOKENS, max_pairs=MAX_PAIRS
    )
