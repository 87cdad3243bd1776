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
    # this tab's background job (sidebar, every page)
    "job.title.train": {"en": "Training", "zh": "正在训练"},
    "job.title.replay": {"en": "Replaying the bundled training", "zh": "正在重放内置模型的训练"},
    "job.title.lab": {"en": "Lab experiment", "zh": "实验"},
    "job.queued": {
        "en": "Waiting for a free place: number {place} in line ({running} training now). It starts by itself.",
        "zh": "正在排队：第 {place} 位（当前有 {running} 个在训练），轮到时会自动开始。",
    },
    "job.waiting": {"en": "starting…", "zh": "即将开始…"},
    "job.progress": {"en": "epoch {epoch}/{epochs} · loss {loss}", "zh": "第 {epoch}/{epochs} 轮 · 损失 {loss}"},
    "job.run.baseline": {"en": "baseline: ", "zh": "基线："},
    "job.run.variant": {"en": "variant: ", "zh": "变体："},
    "job.stopping": {"en": "Stopping after this epoch…", "zh": "本轮结束后停止…"},
    "job.failed": {
        "en": "Training failed ({error}); your current model is unchanged.",
        "zh": "训练失败（{error}）；当前模型没有改变。",
    },
    "job.done.train": {
        "en": "Training finished after {epochs} epochs: the new model is now the current model.",
        "zh": "训练完成，共 {epochs} 轮：新模型已成为当前模型。",
    },
    "job.stopped.train": {
        "en": "Training stopped after epoch {epochs}: the partly trained model is now the current model.",
        "zh": "训练在第 {epochs} 轮后停止：训练到一半的模型已成为当前模型。",
    },
    "job.done.replay": {
        "en": "Replay finished ({epochs} epochs): the Attention page shows how the bundled model's attention formed.",
        "zh": "重放完成（{epochs} 轮）：“注意力”页可以看到内置模型的注意力如何形成。",
    },
    "job.stopped.replay": {
        "en": "Replay stopped after epoch {epochs}; the snapshots recorded so far are on the Attention page.",
        "zh": "重放在第 {epochs} 轮后停止；已记录的快照在“注意力”页。",
    },
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
    "train.failed": {
        "en": "Training failed ({error}); the current model is unchanged. Try other settings, and tell us if it happens again.",
        "zh": "训练失败（{error}）；当前模型没有改变。请换一组设置再试；如果再次出现，请告诉我们。",
    },
    "train.busy": {
        "en": "This tab is already running a job (see the sidebar): train again when it has finished, or stop it.",
        "zh": "这个标签页已经有一个任务在运行（见侧边栏）：等它结束或停止它之后再训练。",
    },
    "train.holdout": {"en": "held out of training", "zh": "留出（不参与训练）"},
    "help.holdout": {
        "en": "Pairs set aside and never trained on, to see whether the model translates sentences it has not seen. "
        "None by default: with a few dozen pairs, every held-out pair takes words and patterns away from training, "
        "and a handful of held-out pairs gives a noisy score.",
        "zh": "留出一部分句子对不参与训练，用来检验模型能否翻译没见过的句子。默认不留出：只有几十个句子对时，"
        "每留出一个都会让训练少学一些词和句式，而且几个留出的句子对给出的分数波动很大。",
    },
    "train.holdout_split": {
        "en": "{held} pairs held out, {kept} trained on (the same split for the same seed).",
        "zh": "留出 {held} 个句子对，用 {kept} 个训练（种子相同，划分相同）。",
    },
    "train.holdout_none": {
        "en": "All {n} pairs are trained on, so the scores below say how well the model memorised them, not how well "
        "it translates new sentences: hold some out to see that.",
        "zh": "全部 {n} 个句子对都参与训练，所以下面的分数只说明模型记住了多少，而不是它翻译新句子的能力：留出一些句子对才能看到。",
    },
    "train.holdout_suffix": {"en": " (held out)", "zh": "（留出）"},
    "train.exact_held": {"en": "exact-match, held out", "zh": "完全正确（留出）"},
    "train.compare": {
        "en": "Token accuracy under teacher forcing: **{train_acc}** on the training pairs, **{held_acc}** held out. "
        "Greedy exact match: **{train_exact}** on the training pairs, **{held_exact}** held out.",
        "zh": "教师强制下的词元准确率：训练集 **{train_acc}**，留出集 **{held_acc}**。"
        "贪心解码完全正确：训练集 **{train_exact}**，留出集 **{held_exact}**。",
    },
    "train.part": {"en": "part", "zh": "部分"},
    "train.part_train": {"en": "trained on", "zh": "训练集"},
    "train.part_held": {"en": "held out", "zh": "留出"},
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
    "error.empty_sentence": {
        "en": "The sentence is empty: type a sentence to translate.",
        "zh": "句子是空的：请输入要翻译的句子。",
    },
    "error.sentence_too_long": {
        "en": "The sentence has {n} tokens; this model reads at most {max}. Shorten it.",
        "zh": "这个句子有 {n} 个词元；这个模型最多读取 {max} 个。请缩短。",
    },
    "error.padded_too_long": {
        "en": "The sentence and its padding need {n} positions; this model reads at most {max}. "
        "Shorten the sentence or use less padding.",
        "zh": "句子加上填充需要 {n} 个位置；这个模型最多读取 {max} 个。请缩短句子或减少填充。",
    },
    # shared by the looking-inside pages
    "computed_by": {"en": "Computed by `{names}`", "zh": "计算函数：`{names}`"},
    "data.changed_since_training": {
        "en": "The sentence pairs have changed since the current model was trained: it has not learned the new ones. "
        "Train again on the Train page to see them here as the model would after training.",
        "zh": "当前模型训练之后句子对有了改动：模型没有学过新的句子对。请到“训练”页重新训练，才能在这里看到训练后的效果。",
    },
    "pick.mode": {"en": "Sentence", "zh": "句子"},
    "pick.dataset": {"en": "from the dataset", "zh": "从数据集中选"},
    "pick.typed": {"en": "type a source sentence", "zh": "输入一个源句"},
    "pick.typed_help": {
        "en": "Up to {n} characters; words the model never saw are read as <unk>.",
        "zh": "最多 {n} 个字符；模型没见过的词按 <unk> 处理。",
    },
    "pick.pair": {"en": "Pair", "zh": "句子对"},
    "pick.unknown": {
        "en": "Not in the model's vocabulary, read as `<unk>`: {words}. Translation still runs.",
        "zh": "这些词不在模型的词表里，按 `<unk>` 处理：{words}。仍然可以翻译。",
    },
    "fig.query": {"en": "query", "zh": "查询 (query)"},
    "fig.key": {"en": "key", "zh": "键 (key)"},
    "fig.weight": {"en": "weight", "zh": "权重"},
    "fig.padding": {"en": "padding", "zh": "填充"},
    "fig.pad_note": {"en": "grey bands = padding (P)", "zh": "灰色条带 = 填充 (P)"},
    # positional encoding page
    "pe.title": {"en": "Positional encoding", "zh": "位置编码"},
    "pe.intro": {
        "en": "Attention by itself does not know word order. Before the first layer the model adds a fixed vector to "
        "each token embedding that depends only on the position: sines and cosines whose wavelengths grow from "
        "2π to 10000·2π across the dimensions.",
        "zh": "注意力本身不知道词的顺序。在第一层之前，模型给每个词嵌入加上一个只取决于位置的固定向量："
        "各个维度是正弦和余弦，波长从 2π 增长到 10000·2π。",
    },
    "pe.d_model_help": {"en": "The current model uses d_model = {d}.", "zh": "当前模型的 d_model = {d}。"},
    "pe.positions": {"en": "positions", "zh": "位置数"},
    "pe.not_model": {
        "en": "The current model uses d_model = {d}; this table is computed for comparison.",
        "zh": "当前模型的 d_model = {d}；这里的表是为了对比而计算的。",
    },
    "pe.dims": {"en": "Dimensions to draw", "zh": "要画的维度"},
    "pe.lines": {"en": "PE(pos, dimension) against position", "zh": "PE(pos, 维度) 随位置的变化"},
    "pe.lines_intro": {
        "en": "Low dimensions oscillate fast and tell neighbouring positions apart; high dimensions change slowly "
        "and tell far-apart positions apart. Each sin dimension 2i has a cos partner 2i+1 of the same wavelength.",
        "zh": "低维变化快，用来区分相邻的位置；高维变化慢，用来区分相距较远的位置。每个正弦维度 2i 都有一个波长相同的余弦维度 2i+1。",
    },
    "pe.position": {"en": "position", "zh": "位置"},
    "pe.value": {"en": "value", "zh": "数值"},
    "pe.dim": {"en": "dim", "zh": "维度"},
    "pe.dimension": {"en": "dimension", "zh": "维度"},
    "pe.heatmap": {"en": "The whole table", "zh": "整张表"},
    "pe.heatmap_intro": {
        "en": "One row per position, one column per dimension.",
        "zh": "每一行是一个位置，每一列是一个维度。",
    },
    "pe.similarity": {"en": "Similarity between positions", "zh": "位置之间的相似度"},
    "pe.similarity_intro": {
        "en": "The dot product of two positions' vectors is largest on the diagonal and falls off with distance: "
        "nearby positions look alike, and it depends only on how far apart they are.",
        "zh": "两个位置向量的点积在对角线上最大，随距离增加而减小：相近的位置更相似，而且只取决于两者的距离。",
    },
    "pe.dot": {"en": "dot product", "zh": "点积"},
    "pe.wavelengths": {"en": "Wavelength of each dimension pair", "zh": "每对维度的波长"},
    "pe.wavelengths_intro": {
        "en": "Pair i (dimensions 2i and 2i+1) repeats every 2π·10000^(2i/d_model) positions.",
        "zh": "第 i 对（维度 2i 和 2i+1）每隔 2π·10000^(2i/d_model) 个位置重复一次。",
    },
    "pe.pair_dims": {"en": "dimensions", "zh": "维度"},
    "pe.wavelength": {"en": "wavelength (positions)", "zh": "波长（位置数）"},
    # masks page
    "masks.title": {"en": "Masks", "zh": "掩码"},
    "masks.intro": {
        "en": "A mask says which keys a query may not attend to (**True = blocked**). The padding mask hides the "
        "`P` tokens that fill short sentences; the look-ahead (subsequence) mask stops the decoder from peeking "
        "at words it has not produced yet.",
        "zh": "掩码规定每个查询不能关注哪些键（**True = 屏蔽**）。填充掩码遮住补齐短句的 `P`；"
        "前瞻（subsequence）掩码让解码器看不到还没有生成的词。",
    },
    "masks.src_pad": {"en": "padding after the source", "zh": "源句后的填充数"},
    "masks.tgt_pad": {"en": "padding after the target", "zh": "目标句后的填充数"},
    "masks.pad_help": {
        "en": "In a batch, shorter sentences are padded with P to the longest one.",
        "zh": "在一个批次中，较短的句子会用 P 补齐到最长句子的长度。",
    },
    "masks.greedy_target": {
        "en": "A typed sentence has no reference, so the decoder side is the model's own greedy translation.",
        "zh": "输入的句子没有参考译文，所以解码器一侧使用模型自己的贪心解码结果。",
    },
    "masks.legend": {
        "en": "Dark cells are **blocked** (True): the query in that row may not look at the key in "
        "that column. Light cells are allowed.",
        "zh": "深色格子表示 **屏蔽**（True）：该行的查询不能关注该列的键。浅色格子表示允许。",
    },
    "masks.blocked": {"en": "blocked", "zh": "屏蔽"},
    "masks.allowed": {"en": "allowed", "zh": "允许"},
    "masks.shape": {"en": "shape [{q} × {k}]", "zh": "形状 [{q} × {k}]"},
    "masks.enc_pad": {"en": "Encoder padding mask", "zh": "编码器填充掩码"},
    "masks.enc_pad_intro": {
        "en": "Encoder self-attention: every source token may look at every source token except padding.",
        "zh": "编码器自注意力：每个源词都可以关注除填充以外的所有源词。",
    },
    "masks.subsequent": {"en": "Decoder look-ahead mask", "zh": "解码器前瞻掩码"},
    "masks.subsequent_intro": {
        "en": "Position i may only look at positions 0…i: everything above the diagonal is blocked.",
        "zh": "位置 i 只能关注位置 0…i：对角线以上全部屏蔽。",
    },
    "masks.dec_pad": {"en": "Decoder padding mask", "zh": "解码器填充掩码"},
    "masks.dec_pad_intro": {
        "en": "The target's own padding, blocked as keys.",
        "zh": "目标句自己的填充，作为键被屏蔽。",
    },
    "masks.dec_self": {"en": "Decoder self-attention mask (combined)", "zh": "解码器自注意力掩码（合并）"},
    "masks.dec_self_intro": {
        "en": "Padding OR look-ahead: blocked if either mask blocks it.",
        "zh": "填充 OR 前瞻：任意一个掩码屏蔽就屏蔽。",
    },
    "masks.dec_enc": {"en": "Encoder–decoder padding mask", "zh": "编码器-解码器填充掩码"},
    "masks.dec_enc_intro": {
        "en": "Cross-attention: each target position may look at every source token except the source padding.",
        "zh": "交叉注意力：每个目标位置可以关注除源句填充以外的所有源词。",
    },
    "masks.effect": {"en": "What a mask does", "zh": "掩码的作用"},
    "masks.effect_intro": {
        "en": "The current model's real numbers for one layer and head: the scaled scores, the same scores with "
        "blocked cells set to −∞, and the softmax of each row. e^−∞ = 0, so blocked keys get exactly zero weight.",
        "zh": "当前模型某一层某一个头的真实数值：缩放后的分数、把屏蔽位置设为 −∞ 后的分数，以及每一行的 softmax。"
        "因为 e^−∞ = 0，被屏蔽的键得到的权重正好是 0。",
    },
    "masks.effect_outro": {
        "en": "Each row of the softmax sums to 1 over the allowed keys only.",
        "zh": "softmax 的每一行只在允许的键上求和为 1。",
    },
    "masks.scaled": {"en": "scaled scores", "zh": "缩放后的分数"},
    "masks.masked": {"en": "masked scores", "zh": "加掩码后的分数"},
    "masks.softmax": {"en": "softmax weights", "zh": "softmax 权重"},
    "masks.score": {"en": "score", "zh": "分数"},
    # attention page
    "attn.title": {"en": "Attention", "zh": "注意力"},
    "attn.intro": {
        "en": "Every layer has attention heads; each head turns every query position into a weighted average "
        "of the value vectors, with weights from the softmax of scaled query·key scores. Rows are queries "
        "(who is looking), columns are keys (what is looked at); every row sums to 1.",
        "zh": "每一层都有若干注意力头；每个头把每个查询位置变成值向量的加权平均，权重来自缩放后的“查询·键”分数的 softmax。"
        "行是查询（谁在看），列是键（被看的词）；每一行的和为 1。",
    },
    "attn.kind": {"en": "Attention", "zh": "注意力类型"},
    "attn.enc_self": {"en": "encoder self-attention", "zh": "编码器自注意力"},
    "attn.dec_self": {"en": "decoder masked self-attention", "zh": "解码器掩码自注意力"},
    "attn.dec_enc": {"en": "encoder–decoder attention", "zh": "编码器-解码器注意力"},
    "attn.layer": {"en": "layer", "zh": "层"},
    "attn.head": {"en": "head", "zh": "头"},
    "attn.heads": {"en": "Heads", "zh": "头"},
    "attn.heads_one": {"en": "one head", "zh": "单个头"},
    "attn.heads_grid": {"en": "all heads", "zh": "所有头"},
    "attn.heads_average": {"en": "average", "zh": "平均"},
    "attn.greedy": {"en": "Decoder reads the model's own greedy output", "zh": "解码器读取模型自己的贪心解码输出"},
    "attn.greedy_help": {
        "en": "Off: teacher forcing on the reference target, as in training. On: the tokens the "
        "model produced itself, as in translation.",
        "zh": "关闭：用参考译文做教师强制（与训练相同）。打开：用模型自己生成的词（与翻译相同）。",
    },
    "attn.typed_greedy": {
        "en": "A typed sentence has no reference: the decoder side shows the model's own greedy output.",
        "zh": "输入的句子没有参考译文：解码器一侧显示模型自己的贪心解码输出。",
    },
    "attn.rows_enc_self": {"en": "source (query)", "zh": "源句（查询）"},
    "attn.cols_enc_self": {"en": "source (key)", "zh": "源句（键）"},
    "attn.rows_dec_self": {"en": "decoder input → predicts (query)", "zh": "解码器输入 → 预测（查询）"},
    "attn.cols_dec_self": {"en": "decoder input (key)", "zh": "解码器输入（键）"},
    "attn.rows_dec_enc": {"en": "decoder input → predicts (query)", "zh": "解码器输入 → 预测（查询）"},
    "attn.cols_dec_enc": {"en": "source (key)", "zh": "源句（键）"},
    "attn.enc_self_explain": {
        "en": "**Encoder self-attention**: each source token gathers information from all source tokens, so its "
        "vector comes to describe the word in its context.",
        "zh": "**编码器自注意力**：每个源词从所有源词收集信息，于是它的向量开始描述“上下文中的这个词”。",
    },
    "attn.dec_self_explain": {
        "en": "**Decoder masked self-attention**: each target position looks only at itself and earlier positions "
        "(the look-ahead mask), so the upper triangle is always 0.",
        "zh": "**解码器掩码自注意力**：每个目标位置只能看自己和之前的位置（前瞻掩码），所以右上三角总是 0。",
    },
    "attn.dec_enc_explain": {
        "en": "**Encoder–decoder attention**: each decoder position (row) looks at the source (columns) to decide "
        "the next word. In a trained model the bright cells of the row `S → I` often sit on the source words "
        "that translate to I: the alignment belongs to the word the row predicts, not to the word it reads.",
        "zh": "**编码器-解码器注意力**：每个解码器位置（行）查看源句（列）来决定下一个词。"
        "在训练好的模型里，`S → I` 这一行亮的格子常常落在译成 I 的源词上：对齐对应的是这一行要预测的词，"
        "而不是它读入的词。",
    },
    "attn.rows_teacher": {
        "en": "Each decoder row is labelled `input → predicts`: the token the position reads (the decoder input, "
        "which starts with `S`) and the token it is trained to predict next, the reference's next word "
        "(`dec_outputs`, ending with `E`).",
        "zh": "每个解码器行标成 `输入 → 预测`：这个位置读入的词（解码器输入，以 `S` 开头），"
        "以及它被训练去预测的下一个词，也就是参考译文的下一个词（`dec_outputs`，以 `E` 结尾）。",
    },
    "attn.rows_greedy": {
        "en": "Each decoder row is labelled `input → predicts`: the token the position reads (the decoder input, "
        "which starts with `S`) and the next token the model itself chooses there (its greedy output).",
        "zh": "每个解码器行标成 `输入 → 预测`：这个位置读入的词（解码器输入，以 `S` 开头），"
        "以及模型自己在这里选出的下一个词（贪心解码的输出）。",
    },
    "attn.read": {
        "en": "Hover a cell for its exact weight and the two tokens it connects.",
        "zh": "把鼠标移到格子上可以看到精确的权重和它连接的两个词。",
    },
    "attn.click_to_mark": {
        "en": "Click a cell to mark that source word as the alignment of the row's predicted word (click again to "
        "remove the mark); marked cells are outlined in red. The marks give every head an alignment score in the "
        "head statistics below.",
        "zh": "点击一个格子，把这个源词标为这一行所预测的词的对齐（再点一次取消）；标记的格子有红框。"
        "这些标记会在下面的“头的统计”中给每个头一个对齐分数。",
    },
    "attn.opened": {
        "en": "Opened layer {layer} · head {head} above.",
        "zh": "已在上方打开第 {layer} 层 · 第 {head} 个头。",
    },
    # head statistics (issue 13.3)
    "attn.stats": {"en": "Which head does what", "zh": "哪个头在做什么"},
    "attn.stats_intro": {
        "en": "Every head of the chosen attention ({kind}) measured at once: where its attention goes on average. "
        "Sort the table by a column to find, say, the *previous-token* head (high **previous**) or the *alignment* "
        "head (high **diagonal** or **alignment**); select a row, or click a head in the charts, to open it in "
        "the heatmap above.",
        "zh": "一次测量所选注意力（{kind}）的每一个头：它的注意力平均落在哪里。按某一列排序，就能找到比如"
        "“前一个词”头（**前一个**高）或“对齐”头（**对角线**或**对齐**高）；选中一行，或在图中点击一个头，"
        "就会在上面的热力图里打开它。",
    },
    "attn.scope": {"en": "Measured over", "zh": "统计范围"},
    "attn.scope_dataset": {
        "en": "the dataset ({n} pairs, teacher-forced)",
        "zh": "整个数据集（{n} 个句子对，教师强制）",
    },
    "attn.scope_sentence": {"en": "this sentence (as shown above)", "zh": "这个句子（与上方相同）"},
    "attn.col_layer": {"en": "layer", "zh": "层"},
    "attn.col_head": {"en": "head", "zh": "头"},
    "attn.stat_entropy_bits": {"en": "entropy (bits)", "zh": "熵（比特）"},
    "attn.stat_same": {"en": "same", "zh": "同位置"},
    "attn.stat_previous": {"en": "previous", "zh": "前一个"},
    "attn.stat_next": {"en": "next", "zh": "后一个"},
    "attn.stat_padding": {"en": "padding", "zh": "填充"},
    "attn.stat_on_S": {"en": "on S", "zh": "在 S 上"},
    "attn.stat_on_E": {"en": "on E", "zh": "在 E 上"},
    "attn.stat_diagonal": {"en": "diagonal", "zh": "对角线"},
    "attn.stat_alignment": {"en": "alignment", "zh": "对齐"},
    "attn.help_entropy_bits": {
        "en": "How spread out a row's attention is: 0 = all of it on one key, log₂ n = evenly over n keys.",
        "zh": "一行注意力有多分散：0 = 全部落在一个键上，log₂ n = 平均分给 n 个键。",
    },
    "attn.help_same": {
        "en": "Share of the attention on the query's own position (for encoder–decoder attention: decoder "
        "position i on source position i).",
        "zh": "注意力落在查询自身位置上的比例（编码器-解码器注意力：解码器第 i 个位置看源句第 i 个位置）。",
    },
    "attn.help_previous": {
        "en": "Share on the position just before; a previous-token head scores close to 1.",
        "zh": "落在前一个位置上的比例；“前一个词”头接近 1。",
    },
    "attn.help_next": {
        "en": "Share on the position just after (0 in decoder self-attention while the look-ahead mask hides it).",
        "zh": "落在后一个位置上的比例（有前瞻掩码时，解码器自注意力里为 0：掩码挡住了它）。",
    },
    "attn.help_padding": {
        "en": "Share on padding keys P (0 while the padding mask is on).",
        "zh": "落在填充键 P 上的比例（有填充掩码时为 0）。",
    },
    "attn.help_on_S": {
        "en": "Share on the start token S; heads with nothing to do often rest there.",
        "zh": "落在起始符 S 上的比例；无事可做的头常常停在那里。",
    },
    "attn.help_on_E": {
        "en": "Share on the end token E, where a key holds it.",
        "zh": "落在结束符 E 上的比例（当某个键是 E 时）。",
    },
    "attn.help_diagonal": {
        "en": "Share on source words within one position of the line from the first to the last word: high "
        "for a head that follows the sentence in order, as a word-by-word translation does.",
        "zh": "落在从第一个词到最后一个词的对角线附近（相差不超过一个位置）的源词上的比例："
        "按顺序跟着句子走的头（像逐词翻译那样）得分高。",
    },
    "attn.help_alignment": {
        "en": "Share of each marked decoder row's attention on the source words you marked for it, averaged "
        "over the marked rows of the sentence above: 1 = the head looks only at your marks.",
        "zh": "每个被标记的解码器行有多少注意力落在你为它标记的源词上，对上方句子中所有被标记的行取平均："
        "1 = 这个头只看你标记的词。",
    },
    "attn.stats_explain": {"en": "What the columns mean", "zh": "各列的含义"},
    "attn.stats_queries": {
        "en": "Means over {n} query positions (padding rows left out); shares are fractions of a row's attention.",
        "zh": "对 {n} 个查询位置取平均（不含填充行）；比例是一行注意力中所占的份额。",
    },
    "attn.marks": {"en": "Marked word pairs (decoder row ↔ source word)", "zh": "已标记的词对（解码器行 ↔ 源词）"},
    "attn.marks_help": {
        "en": "Type to find a pair; the same marks as clicking cells of the encoder–decoder heatmap above.",
        "zh": "输入文字查找词对；与在上方编码器-解码器热力图中点击格子得到的标记相同。",
    },
    "attn.marks_intro": {
        "en": "**Alignment marks.** Click cells of the encoder–decoder heatmap above (one head or the average), or "
        "pick pairs below, to say which source word each decoder row should look at. Each head then gets an "
        "**alignment** score: how much of its attention lands on your marks.",
        "zh": "**对齐标记。** 在上方的编码器-解码器热力图（单个头或平均）中点击格子，或在下面选择词对，"
        "说明每个解码器行应该看哪个源词。之后每个头都会得到一个**对齐**分数：它有多少注意力落在你的标记上。",
    },
    "attn.marks_placeholder": {"en": "Pick a decoder row and a source word", "zh": "选择一个解码器行和一个源词"},
    "attn.marks_clear": {"en": "Clear marks", "zh": "清除标记"},
    "attn.marks_sentence": {
        "en": "The alignment column is measured on the sentence above, where the marks are.",
        "zh": "对齐一列是在上方的句子（标记所在的句子）上测量的。",
    },
    "attn.patterns": {"en": "Every head at a glance", "zh": "所有头一览"},
    "attn.patterns_dataset": {
        "en": "Mean attention map of every head over the dataset (rows and columns are positions 0, 1, …). "
        "Click a head to open it above.",
        "zh": "每个头在整个数据集上的平均注意力图（行和列是位置 0、1、…）。点击一个头即可在上方打开它。",
    },
    "attn.patterns_sentence": {
        "en": "Every head's attention map on this sentence. Click a head to open it above.",
        "zh": "每个头在这个句子上的注意力图。点击一个头即可在上方打开它。",
    },
    "attn.stat_pick": {"en": "Colour the heads by", "zh": "按哪个统计量给头着色"},
    "attn.stat_grid_help": {
        "en": "One statistic of every head, layers down and heads across; click a cell to open that head.",
        "zh": "每个头的一个统计量，纵向是层，横向是头；点击一个格子即可打开那个头。",
    },
    "attn.training": {"en": "How attention formed during training", "zh": "注意力在训练中如何形成"},
    "attn.training_intro": {
        "en": "Attention maps recorded during training for the pair {source} → {target} "
        "(teacher-forced). Move the slider: early maps are nearly uniform, later ones aligned.",
        "zh": "训练过程中为句子对 {source} → {target} 记录的注意力图（教师强制）。"
        "拖动滑块：早期几乎是均匀的，后期逐渐对齐。",
    },
    "attn.epoch": {"en": "epoch", "zh": "轮次"},
    "attn.replay_intro": {
        "en": "The bundled model was trained before you opened the app. Replaying its training "
        "(same data, settings and seed, a few seconds) records its attention every few epochs.",
        "zh": "内置模型是在打开应用之前训练的。重放它的训练（相同的数据、设置和种子，只需几秒）"
        "会每隔几轮记录一次注意力。",
    },
    "attn.replay": {"en": "Replay the bundled model's training", "zh": "重放内置模型的训练"},
    "attn.replaying": {
        "en": "Replaying the bundled model's training (see the sidebar); the snapshots appear here when it ends.",
        "zh": "正在重放内置模型的训练（见侧边栏）；结束后快照会显示在这里。",
    },
    "attn.film_pair": {"en": "Pair recorded during training", "zh": "训练中记录的句子对"},
    "attn.film_pair_help": {
        "en": "Attention was recorded for {n} pairs spread over the dataset; picking one of them at the top of "
        "the page shows it here too.",
        "zh": "训练时为分布在数据集中的 {n} 个句子对记录了注意力；在页面顶部选中其中一个，这里也会跟着显示它。",
    },
    "attn.film_not_recorded": {
        "en": "The sentence at the top of the page was not recorded during training. Attention was recorded for "
        "these {n} pairs only; pick one of them here or at the top: {pairs}",
        "zh": "页面顶部的句子在训练中没有被记录。训练时只为这 {n} 个句子对记录了注意力；"
        "请在这里或页面顶部选择其中一个：{pairs}",
    },
    "attn.no_snapshots": {
        "en": "This model was uploaded, so its training was not recorded here. Train a model on "
        "the Train page to watch its attention form.",
        "zh": "这个模型是上传的，训练过程没有在这里记录。请在“训练”页训练一个模型来观察注意力的形成。",
    },
    # decoding page
    "dec.title": {"en": "Greedy decoding, step by step", "zh": "贪心解码，一步一步"},
    "dec.intro": {
        "en": "Translation runs the encoder once, then the decoder once per output word: it starts from `S`, "
        "picks the most probable next token, appends it to its input and repeats until it picks `E` (or reaches "
        "the length cap). This is the tutorials' `greedy_decoder`.",
        "zh": "翻译时编码器只运行一次，然后每输出一个词运行一次解码器：从 `S` 开始，选出概率最高的下一个词，"
        "把它接到输入后面，重复直到选出 `E`（或达到长度上限）。这就是教程中的 `greedy_decoder`。",
    },
    "dec.prev": {"en": "◀ Previous", "zh": "◀ 上一步"},
    "dec.next": {"en": "Next ▶", "zh": "下一步 ▶"},
    "dec.step": {"en": "step", "zh": "步骤"},
    "dec.at_step": {"en": "**Step {t} of {n}**", "zh": "**第 {t} 步，共 {n} 步**"},
    "dec.input": {"en": "Decoder input so far:", "zh": "目前的解码器输入："},
    "dec.probs": {"en": "Next-token probabilities", "zh": "下一个词的概率"},
    "dec.k": {"en": "tokens shown", "zh": "显示的词数"},
    "dec.probability": {"en": "probability", "zh": "概率"},
    "dec.chosen": {"en": "chosen", "zh": "选中"},
    "dec.cross": {"en": "Where the newest position looked", "zh": "最新位置关注了哪里"},
    "dec.cross_explain": {
        "en": "The encoder–decoder attention of the newest decoder position (`{token}`) over the "
        "source, per head and averaged.",
        "zh": "最新解码器位置（`{token}`）对源句的编码器-解码器注意力，按头显示并给出平均。",
    },
    "dec.output": {"en": "Output so far", "zh": "目前的输出"},
    "dec.final": {"en": "Translation: **{text}** — {reason}", "zh": "译文：**{text}** —— {reason}"},
    "dec.stop_eos": {"en": "stopped because the model chose `E`.", "zh": "因为模型选择了 `E` 而停止。"},
    "dec.stop_max": {
        "en": "stopped at the length cap of {n} tokens without choosing `E`.",
        "zh": "在 {n} 个词的长度上限处停止，模型始终没有选择 `E`。",
    },
    "dec.reference": {"en": "Reference: {ref} {mark}", "zh": "参考译文：{ref} {mark}"},
}


def t(key: str, lang: str, **values) -> str:
    """The string for key in lang ('en' or 'zh'), with {placeholders} filled from values."""
    text = STRINGS[key][lang if lang in LANGUAGES else "en"]
    return text.format(**values) if values else text


def error_text(exc: Exception, lang: str) -> str:
    """A package error in the UI language when it carries a known code, else its own (English) message."""
    code = getattr(exc, "code", None)
    if code and f"error.{code}" in STRINGS:
        return t(f"error.{code}", lang, **exc.values)
    return str(exc)


def problem_text(problem: Problem, lang: str) -> str:
    """A data problem in the UI language."""
    detail = t(f"side.{problem.detail}", lang) if problem.kind == "too_long" else problem.detail
    return t(
        f"problem.{problem.kind}", lang, row=problem.row, detail=detail, max_tokens=MAX_TOKENS, max_pairs=MAX_PAIRS
    )
