"""UI strings of the Train page: model and training settings, held-out splits, scores, checkpoints."""

STRINGS: dict[str, dict[str, str]] = {
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
    "train.too_large": {
        "en": "With vocabularies of {src} / {tgt} tokens these sizes make a model of {n} parameters, whose checkpoint "
        "would take up to {mb} MB, more than the {limit} MB a checkpoint may have. Choose a smaller d_model, d_ff or "
        "n_layers.",
        "zh": "词表为 {src} / {tgt} 个词元时，这些尺寸会得到一个有 {n} 个参数的模型，它的检查点最多要占 {mb} MB，"
        "超过了检查点允许的 {limit} MB。请选择更小的 d_model、d_ff 或 n_layers。",
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
    "train.history_bundled": {
        "en": "The bundled model · {epochs} epochs · {corpus} corpus + {bundled} bundled pairs",
        "zh": "内置模型 · 训练了 {epochs} 轮 · 语料 {corpus} 对 + 内置 {bundled} 对",
    },
    "train.history_held": {"en": "{n} held out", "zh": "留出 {n} 对"},
    "train.history_trained": {
        "en": "The model trained here{name} · {epochs} epochs on {n} pairs",
        "zh": "在这里训练的模型{name} · 在 {n} 个句对上训练了 {epochs} 轮",
    },
    "train.history_uploaded": {
        "en": "The uploaded model {name} · {epochs} epochs on its own pairs",
        "zh": "上传的模型 {name} · 在它自己的句对上训练了 {epochs} 轮",
    },
    "train.history_other_data": {"en": "not the pairs in your table", "zh": "不是你表格中的句对"},
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
    "train.split": {"en": "how pairs are held out", "zh": "留出方式"},
    "split.random": {"en": "random", "zh": "随机"},
    "split.combination": {"en": "new combination", "zh": "新组合"},
    "split.length": {"en": "longer sentences", "zh": "更长的句子"},
    "split.word": {"en": "unseen word", "zh": "没见过的词"},
    "split_def.random": {
        "en": "Pairs drawn at random are held out: do sentences like the training ones come out right?",
        "zh": "随机抽取句子对留出：和训练句子相似的句子能译对吗？",
    },
    "split_def.combination": {
        "en": "Held-out sentences pair a subject with a verb, or a verb with an object, in a way no training sentence "
        "does, although each word is trained on in other pairings.",
        "zh": "留出的句子把主语和动词、或动词和宾语以训练句子里从没有过的方式搭配，而每个词都在别的搭配中训练过。",
    },
    "split_def.length": {
        "en": "The model trains on the shorter sentences and is tested on longer ones: every held-out target has more "
        "tokens than any training target.",
        "zh": "模型用较短的句子训练，用较长的句子测试：每个留出的目标句都比任何训练目标句的词元多。",
    },
    "split_def.word": {
        "en": "A word that appears in no training sentence is held out with every sentence that holds it: the model "
        "reads it as <unk>.",
        "zh": "把一个词连同含有它的所有句子一起留出，训练句子里都没有它：模型把它读成 <unk>。",
    },
    "train.split_made": {
        "en": "{held} pairs held out, {kept} trained on (the same split for the same seed).",
        "zh": "留出 {held} 个句子对，用 {kept} 个训练（种子相同，划分相同）。",
    },
    "train.split_what.combination": {
        "en": "Pairings never trained on: {items}.",
        "zh": "训练中从没有过的搭配：{items}。",
    },
    "train.split_what.word": {"en": "Words never trained on: {items}.", "zh": "训练中从没有过的词：{items}。"},
    "train.split_what.length": {"en": "Held-out targets: {items}.", "zh": "留出的目标句：{items}。"},
    "train.split_always": {
        "en": "The {n} tutorial pairs are always trained on, as for the bundled model.",
        "zh": "{n} 个教程句子对总是参与训练，和内置模型一样。",
    },
    "train.split_refused": {
        "en": "This split cannot be made from these pairs: {reason} Choose another way of holding out, another "
        "share, or other data.",
        "zh": "这些句子对做不出这种划分：{reason} 请换一种留出方式、换一个比例，或换数据。",
    },
    "train.recipe": {
        "en": "Training settings follow the {dataset} recipe: {items}.",
        "zh": "训练设置采用{dataset}的配方：{items}。",
    },
    "train.recipe_kept": {
        "en": "Kept the value you set: {items} (the {dataset} recipe: {recipe}).",
        "zh": "保留了你设置的值：{items}（{dataset}的配方：{recipe}）。",
    },
    "train.scores": {"en": "Scores", "zh": "评分"},
    "train.scores_intro": {
        "en": "Exact match: the greedy translation equals the reference, token for token. Token accuracy: the share "
        "of reference tokens predicted right when the model is fed the reference (teacher forcing). BLEU and chrF "
        "(sacrebleu, 0–100) compare the greedy translations with the references by shared word and character "
        "sequences. Rows: all pairs, then each phenomenon.",
        "zh": "完全正确：贪心解码的译文与参考译文逐词元相同。词元准确率：把参考译文喂给模型时（教师强制）预测对的参考词元比例。"
        "BLEU 和 chrF（sacrebleu，0–100）按共有的词序列和字符序列比较贪心译文与参考译文。行：全部句子对，然后每种语言现象。",
    },
    "train.scores_split": {
        "en": "Split: {kind}, {share} held out (seed {seed}). Held-out rows are sentences the model never trained on.",
        "zh": "划分：{kind}，留出 {share}（种子 {seed}）。留出的行是模型从没训练过的句子。",
    },
    "train.scores_no_split": {
        "en": "Nothing was held out: these scores say how well the model learned its training pairs, not how it "
        "translates new sentences.",
        "zh": "没有留出句子对：这些分数说明模型学会训练句子对的程度，而不是它翻译新句子的能力。",
    },
    "scores.phenomenon": {"en": "phenomenon", "zh": "语言现象"},
    "scores.part": {"en": "part", "zh": "部分"},
    "scores.pairs": {"en": "pairs", "zh": "句子对"},
    "scores.exact": {"en": "exact match", "zh": "完全正确"},
    "scores.token_acc": {"en": "token accuracy", "zh": "词元准确率"},
    "scores.model": {"en": "model", "zh": "模型"},
    "scores.part_all": {"en": "all", "zh": "全部"},
    "train.held_curves": {
        "en": "The held-out curves are the teacher-forced loss and token accuracy on the held-out pairs after each "
        "epoch (training reports no exact match per epoch); the table below gives the held-out exact match at the end.",
        "zh": "留出曲线是每轮之后在留出句子对上的教师强制损失和词元准确率（训练不按轮报告完全正确率）；下面的表给出最后的留出完全正确率。",
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
    "train.unseen_source": {
        "en": "**Held-out source tokens read as `<unk>`: {n}** ({words}). A word that occurs only in held-out pairs "
        "is not in the source vocabulary, which is built from the training pairs alone: the model has never seen it.",
        "zh": "**留出句子对的源句中被读成 `<unk>` 的词元：{n} 个**（{words}）。只出现在留出句子对里的词不在源语言词表中，"
        "因为词表只由训练用的句子对构成：模型从没见过它。",
    },
    "train.unseen_target": {
        "en": "**Held-out reference tokens the model cannot write: {n}** ({words}). A word that occurs only in "
        "held-out pairs is not in the target vocabulary, which is built from the training pairs alone, so these "
        "held-out pairs cannot come out exactly: {unreachable} of {total}.",
        "zh": "**留出句子对的参考译文中模型写不出的词元：{n} 个**（{words}）。只出现在留出句子对里的词不在目标语言词表中，"
        "因为词表只由训练用的句子对构成，所以这些留出的句子对不可能完全译对：{total} 个中有 {unreachable} 个。",
    },
    "train.part": {"en": "part", "zh": "部分"},
    "train.part_train": {"en": "trained on", "zh": "训练集"},
    "train.part_held": {"en": "held out", "zh": "留出"},
    "train.results": {"en": "Results of the current model", "zh": "当前模型的结果"},
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
