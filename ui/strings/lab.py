"""UI strings of the Lab page."""

STRINGS: dict[str, dict[str, str]] = {
    # lab page
    "lab.title": {"en": "Lab: break the model on purpose", "zh": "实验室：故意把模型弄坏"},
    "lab.intro": {
        "en": "Why the masks, the positional encoding, the 1/√d_k scaling, the residual connections and LayerNorm? "
        "Take one away, train the broken **variant** and the standard **baseline** on the same data, sizes and "
        "seed, and compare what they learned. Both train in the background, side by side: you may visit other "
        "pages meanwhile.",
        "zh": "为什么要有掩码、位置编码、1/√d_k 缩放、残差连接和 LayerNorm？去掉其中一个，在同样的数据、尺寸和随机种子上"
        "训练坏掉的**变体**和标准的**基线**，再比较它们学到了什么。两个模型在后台并排训练，期间可以去看别的页面。",
    },
    "lab.mode": {"en": "Compare", "zh": "比较"},
    "lab.mode.experiment": {"en": "a variant with the standard model", "zh": "变体与标准模型"},
    "lab.mode.checkpoint": {"en": "the current model with a checkpoint", "zh": "当前模型与一个检查点"},
    "lab.experiment": {"en": "Experiment", "zh": "实验"},
    "lab.exp.no_look_ahead": {"en": "No look-ahead mask", "zh": "去掉前瞻掩码"},
    "lab.exp.no_pe": {"en": "No positional encoding", "zh": "去掉位置编码"},
    "lab.exp.no_scale": {"en": "No 1/√d_k scaling, with a large d_k", "zh": "去掉 1/√d_k 缩放（大 d_k）"},
    "lab.exp.no_residual_norm": {
        "en": "No residuals and no LayerNorm, 6 layers",
        "zh": "去掉残差和 LayerNorm（6 层）",
    },
    "lab.exp.pre_norm": {"en": "Pre-norm against post-norm, 6 layers", "zh": "Pre-norm 对比 post-norm（6 层）"},
    "lab.exp.learned_pe": {
        "en": "Learned against sinusoidal positions, on longer sentences",
        "zh": "学习的位置编码对比正弦位置编码（更长的句子）",
    },
    "lab.exp.custom": {"en": "Your own variant", "zh": "自己组合变体"},
    "lab.claim.no_look_ahead": {
        "en": "**Claim:** without the look-ahead mask, each decoder position can see the word it must predict. "
        "Training loss and teacher-forced accuracy look perfect — the model copies the next word — but greedy "
        "decoding, which has no next word to copy, fails.",
        "zh": "**论断**：没有前瞻掩码，解码器的每个位置都能看到它要预测的词。训练损失和 teacher forcing 准确率看起来完美"
        "——模型只是抄下一个词——但贪心解码时没有下一个词可抄，于是失败。",
    },
    "lab.claim.no_pe": {
        "en": "**Claim:** without positional encoding, attention sees a bag of tokens: a sentence and the same "
        "tokens in another order (`我爱你` and `你爱我`) get exactly the same translation.",
        "zh": "**论断**：没有位置编码，注意力看到的只是一袋词元：一个句子和它打乱顺序后的句子（`我爱你` 和 `你爱我`）"
        "得到完全相同的译文。",
    },
    "lab.claim.no_scale": {
        "en": "**Claim:** with d_k = 128 and no division by √d_k, the scores are large, softmax saturates and "
        "attention is nearly one-hot from the first epoch; gradients through it vanish and training slows.",
        "zh": "**论断**：d_k = 128 且不除以 √d_k 时，分数很大，softmax 饱和，从第一轮起注意力就几乎是 one-hot；"
        "经过它的梯度消失，训练变慢。",
    },
    "lab.claim.no_residual_norm": {
        "en": "**Claim:** a stack of 6 layers without residual connections and LayerNorm stalls: the signal and "
        "its gradient fade or blow up through the layers, and the loss stays high.",
        "zh": "**论断**：没有残差连接和 LayerNorm 的 6 层网络训练停滞：信号和梯度在层间衰减或爆炸，损失一直很高。",
    },
    "lab.claim.pre_norm": {
        "en": "**Claim:** with 6 layers, LayerNorm before each sublayer (pre-norm) reaches a low loss in no more "
        "epochs than the paper's LayerNorm after the residual sum (post-norm), which deep stacks find harder.",
        "zh": "**论断**：6 层时，把 LayerNorm 放在每个子层之前（pre-norm）达到低损失所需的轮数不多于论文的做法"
        "（残差相加之后再 LayerNorm，post-norm），深层网络用后者更难训练。",
    },
    "lab.claim.learned_pe": {
        "en": "**Claim:** the pairs with the longest targets are held out. A learned position table never trains "
        "the rows past the longest training sentence, while sinusoidal positions are defined for every position: "
        "there, the learned model predicts worse.",
        "zh": "**论断**：目标句最长的句子对被留出。学习的位置表中超过最长训练句子的那些行从未被训练，而正弦位置编码对"
        "每个位置都有定义：在这些位置上，学习位置编码的模型预测得更差。",
    },
    "lab.claim.custom": {
        "en": "Choose the switches of your variant; each says what to expect. Both models use the sizes, epochs, "
        "seed and held-out share set on the Train page.",
        "zh": "选择变体的开关；每个开关下面写着预期会发生什么。两个模型都使用“训练”页上设置的尺寸、轮数、随机种子和留出比例。",
    },
    "lab.switch.look_ahead_mask": {"en": "look-ahead mask", "zh": "前瞻掩码"},
    "lab.switch.pad_mask": {"en": "padding mask", "zh": "填充掩码"},
    "lab.switch.pe": {"en": "positional encoding", "zh": "位置编码"},
    "lab.switch.scale": {"en": "divide scores by √d_k", "zh": "分数除以 √d_k"},
    "lab.switch.residual": {"en": "residual connections", "zh": "残差连接"},
    "lab.switch.norm": {"en": "LayerNorm", "zh": "LayerNorm"},
    "lab.predict.look_ahead_mask": {
        "en": "Off: training looks perfect, greedy decoding fails (it copied the next word).",
        "zh": "关闭：训练看起来完美，贪心解码失败（它抄了下一个词）。",
    },
    "lab.predict.pad_mask": {
        "en": "Off: attention also lands on `P`; a sentence translates differently with more padding.",
        "zh": "关闭：注意力也会落在 `P` 上；同一个句子补的填充不同，译文也可能不同。",
    },
    "lab.predict.pe": {
        "en": "none: word order is lost (`我爱你` = `你爱我`); learned: untrained past the longest training sentence.",
        "zh": "none：词序丢失（`我爱你` = `你爱我`）；learned：超过最长训练句子的位置未被训练。",
    },
    "lab.predict.scale": {
        "en": "Off: softmax saturates for a large d_k, attention is one-hot early, training slows.",
        "zh": "关闭：d_k 大时 softmax 饱和，注意力很早就变成 one-hot，训练变慢。",
    },
    "lab.predict.residual": {
        "en": "Off: a deep stack stalls; with 1–2 layers the harm is small.",
        "zh": "关闭：深层网络训练停滞；只有 1–2 层时影响不大。",
    },
    "lab.predict.norm": {
        "en": "pre: often trains deep stacks faster; none: activations drift, deep stacks become unstable.",
        "zh": "pre：深层网络往往训练得更快；none：激活值漂移，深层网络不稳定。",
    },
    "lab.same_as_baseline": {
        "en": "Every switch is as in the standard model: change at least one to make a variant.",
        "zh": "所有开关都和标准模型一样：至少改变一个才构成变体。",
    },
    "lab.settings": {
        "en": "Both models: {sizes}; {epochs} epochs, learning rate {lr}, seed {seed}; trained on {n} pairs{held}. "
        "Variant: {variant}.",
        "zh": "两个模型：{sizes}；{epochs} 轮，学习率 {lr}，随机种子 {seed}；在 {n} 个句子对上训练{held}。变体：{variant}。",
    },
    "lab.settings_held": {"en": ", {n} held out", "zh": "，留出 {n} 个"},
    "lab.data": {"en": "Run on", "zh": "运行在"},
    "lab.data.corpus": {"en": "the corpus ({size} pairs)", "zh": "语料库（{size} 个句子对）"},
    "lab.data.table": {"en": "the Data page's pairs ({n})", "zh": "数据页的句子对（{n} 个）"},
    "lab.needs.any": {
        "en": "Any pairs can show this; by default it runs on the corpus, with the corpus's training recipe.",
        "zh": "任何句子对都能显示这一点；默认在语料库上运行，使用语料库的训练配方。",
    },
    "lab.needs.reordered": {
        "en": "What data can show it: pairs whose meaning changes with word order (猫追狗 / 狗追猫), at least "
        "{min} groups of them. The corpus has many.",
        "zh": "什么数据能显示它：意思随词序改变的句子对（猫追狗 / 狗追猫），至少 {min} 组。语料库里有很多。",
    },
    "lab.needs.longer": {
        "en": "What data can show it: targets of several lengths, so that the longest can be held out (the longer-"
        "sentences split). The corpus has them.",
        "zh": "什么数据能显示它：长短不一的目标句，这样才能留出最长的那些（更长句子的划分）。语料库里有。",
    },
    "lab.needs.many": {
        "en": "What data can show it: enough pairs ({min} or more) that memorising each reference cannot pass for "
        "translating. The corpus has them.",
        "zh": "什么数据能显示它：足够多的句子对（{min} 个或更多），多到背下每个参考译文也冒充不了翻译。语料库里有。",
    },
    "lab.cannot.too_few": {
        "en": "These {n} pairs cannot show this effect: with fewer than {min} pairs a model can memorise every "
        "reference, and memorising passes for translating. Run it on the corpus.",
        "zh": "这 {n} 个句子对显示不出这个效果：少于 {min} 个句子对时，模型能背下每个参考译文，背诵看起来就像翻译。请在语料库上运行。",
    },
    "lab.cannot.no_reordered": {
        "en": "These pairs cannot show this effect: it needs at least {min} groups of sentences with the same "
        "characters in another order and another meaning (猫追狗 / 狗追猫), and these pairs have {n}. Run it on the "
        "corpus.",
        "zh": "这些句子对显示不出这个效果：至少需要 {min} 组字相同、顺序不同、意思也不同的句子（猫追狗 / 狗追猫），而这些句子对只有 "
        "{n} 组。请在语料库上运行。",
    },
    "lab.cannot.one_length": {
        "en": "These pairs cannot show this effect: every target has the same length, so none can be held out as "
        "longer than the rest. Run it on the corpus.",
        "zh": "这些句子对显示不出这个效果：每个目标句长度相同，没有哪个能作为更长的句子留出。请在语料库上运行。",
    },
    "lab.use_corpus": {"en": "Run it on the corpus", "zh": "在语料库上运行"},
    "lab.run": {"en": "Run the experiment", "zh": "运行实验"},
    "lab.busy": {
        "en": "This tab is already training; the experiment can start when that job ends (or is stopped).",
        "zh": "这个标签页正在训练；等那个任务结束（或停止）后才能开始实验。",
    },
    "lab.fix_data": {
        "en": "The sentence pairs have problems: fix them on the Data page first.",
        "zh": "句子对有问题：请先在“数据”页修正。",
    },
    "lab.running": {
        "en": "Training the baseline and the variant side by side, one epoch each in turn.",
        "zh": "基线和变体并排训练，轮流各训练一轮。",
    },
    "lab.results": {"en": "Results: {title}", "zh": "结果：{title}"},
    "lab.stopped": {
        "en": "The experiment was stopped: these models are partly trained.",
        "zh": "实验被停止了：这些模型只训练了一部分。",
    },
    "lab.held": {"en": "✓ The claim held in this run.", "zh": "✓ 这次运行证实了这个论断。"},
    "lab.not_held": {"en": "✗ The claim did not hold in this run.", "zh": "✗ 这次运行没有证实这个论断。"},
    "lab.cause.data": {
        "en": "These pairs cannot show the effect (see above): run it on the corpus.",
        "zh": "这些句子对显示不出这个效果（见上文）：请在语料库上运行。",
    },
    "lab.cause.epochs": {
        "en": "The models had not finished learning: the figures above are still moving. Train longer (more epochs "
        "on the Train page, or the corpus with its recipe).",
        "zh": "模型还没学完：上面的数字仍在变化。请训练更久（在训练页增加轮数，或用语料库及其配方）。",
    },
    "lab.cause.memorised": {
        "en": "The variant translated well without the mask: with few pairs it can memorise each reference, which "
        "passes for translating. Run it on more pairs (the corpus).",
        "zh": "没有掩码的变体也译得不错：句子对很少时它能把每个参考译文背下来，看起来像在翻译。请用更多句子对（语料库）运行。",
    },
    "lab.cause.seed": {
        "en": "The data can show the effect and both models trained; the difference was too small in this run. One run "
        "is one sample: try another seed on the Train page.",
        "zh": "数据能显示这个效果，两个模型也都训练好了；只是这次运行中差别太小。一次运行只是一个样本：可以在训练页换一个随机种子再试。",
    },
    "lab.evidence.no_look_ahead.high": {
        "en": "Measured: the variant's teacher-forced token accuracy is **{v_acc}** and its greedy exact match "
        "**{v_exact}**; the baseline: {b_acc} and {b_exact}.",
        "zh": "测量结果：变体的 teacher forcing 词元准确率是 **{v_acc}**，贪心解码完全匹配 **{v_exact}**；"
        "基线：{b_acc} 和 {b_exact}。",
    },
    "lab.evidence.no_look_ahead": {
        "en": "Measured: the variant's teacher-forced token accuracy is **{v_acc}** but its greedy exact match only "
        "**{v_exact}**; the baseline: {b_acc} and {b_exact}.",
        "zh": "测量结果：变体的 teacher forcing 词元准确率是 **{v_acc}**，但贪心解码完全匹配只有 **{v_exact}**；"
        "基线：{b_acc} 和 {b_exact}。",
    },
    "lab.evidence.no_pe": {
        "en": "Measured on the {pairs} trained pairs whose meaning changes with word order ({groups} groups of the same "
        "characters in another order, listed below): the variant gives every sentence of a group the same "
        "translation in **{same} of {groups}** groups, and translates **{v_right} of {pairs}** exactly "
        "({v_exact}); the baseline {b_right} of {pairs} ({b_exact}).",
        "zh": "在 {pairs} 个意思随词序改变的训练句子对上测量（{groups} 组同样的字换了顺序，见下表）：变体在 **{groups} 组中的 "
        "{same} 组**给组内每个句子相同的译文，完全译对 **{pairs} 个中的 {v_right} 个**（{v_exact}）；基线译对 {b_right} 个"
        "（{b_exact}）。",
    },
    "lab.evidence.no_scale": {
        "en": "Measured after epoch 1: each query's largest attention weight is **{v_peak}** on average in the "
        "variant, {b_peak} in the baseline. Epochs to a loss below {threshold}: variant {v_epochs}, baseline "
        "{b_epochs}; final loss {v_loss} against {b_loss}.",
        "zh": "第 1 轮后的测量：变体中每个查询的最大注意力权重平均为 **{v_peak}**，基线为 {b_peak}。"
        "损失降到 {threshold} 以下所需轮数：变体 {v_epochs}，基线 {b_epochs}；最终损失 {v_loss} 对比 {b_loss}。",
    },
    "lab.evidence.no_residual_norm": {
        "en": "Measured: final loss **{v_loss}** for the variant against {b_loss} for the baseline; greedy exact "
        "match {v_exact} against {b_exact}.",
        "zh": "测量结果：变体最终损失 **{v_loss}**，基线 {b_loss}；贪心解码完全匹配 {v_exact} 对比 {b_exact}。",
    },
    "lab.evidence.pre_norm": {
        "en": "Measured: epochs to a loss below {threshold}: pre-norm **{v_epochs}**, post-norm **{b_epochs}**; "
        "final loss {v_loss} against {b_loss}.",
        "zh": "测量结果：损失降到 {threshold} 以下所需轮数：pre-norm **{v_epochs}**，post-norm **{b_epochs}**；"
        "最终损失 {v_loss} 对比 {b_loss}。",
    },
    "lab.evidence.learned_pe": {
        "en": "Measured on the held-out pairs, from target position {position} on (never seen in training, "
        "{tokens} tokens): teacher-forced token accuracy **{v_beyond}** with learned positions, **{b_beyond}** "
        "with sinusoidal ones.",
        "zh": "在留出的句子对上、从目标位置 {position} 起（训练中从未见过，共 {tokens} 个词元）测量："
        "学习的位置编码 teacher forcing 词元准确率 **{v_beyond}**，正弦位置编码 **{b_beyond}**。",
    },
    "lab.never": {"en": "never", "zh": "从未达到"},
    "lab.group": {"en": "group", "zh": "组"},
    "lab.baseline": {"en": "baseline", "zh": "基线"},
    "lab.variant": {"en": "variant", "zh": "变体"},
    "lab.current": {"en": "current model", "zh": "当前模型"},
    "lab.curves": {"en": "Training curves", "zh": "训练曲线"},
    "lab.scores": {
        "en": "Teacher-forced token accuracy against greedy exact match",
        "zh": "teacher forcing 词元准确率对比贪心完全匹配",
    },
    "lab.scores_intro": {
        "en": "Token accuracy is measured with the reference fed to the decoder (teacher forcing), as in training; "
        "exact match is the model translating on its own (greedy). A model that cheats in training scores high on "
        "the first and low on the second.",
        "zh": "词元准确率是在把参考译文喂给解码器（teacher forcing）时测的，和训练时一样；完全匹配是模型自己翻译"
        "（贪心解码）。训练时作弊的模型前者高、后者低。",
    },
    "lab.metric.train_acc": {"en": "token accuracy", "zh": "词元准确率"},
    "lab.metric.train_exact": {"en": "exact match", "zh": "完全匹配"},
    "lab.metric.held_acc": {"en": "token accuracy (held out)", "zh": "词元准确率（留出）"},
    "lab.metric.held_exact": {"en": "exact match (held out)", "zh": "完全匹配（留出）"},
    "lab.peak": {"en": "How peaked attention was during training", "zh": "训练过程中注意力有多集中"},
    "lab.peak_label": {"en": "largest weight per query (mean)", "zh": "每个查询的最大权重（平均）"},
    "lab.attention": {"en": "The same attention map in both models", "zh": "两个模型的同一张注意力图"},
    "lab.pair": {"en": "Pair (teacher-forced on its reference)", "zh": "句子对（用参考译文做 teacher forcing）"},
    "lab.translations": {"en": "Translations", "zh": "译文"},
    "lab.use": {"en": "Make the {label} the current model", "zh": "把{label}设为当前模型"},
    "lab.used": {
        "en": "The {label} is now the current model: look inside it on the other pages.",
        "zh": "{label}已成为当前模型：可以在其他页面查看它的内部。",
    },
    "lab.upload": {
        "en": "Checkpoint to compare with (.safetensors, at most {mb} MB)",
        "zh": "用来比较的检查点（.safetensors，最大 {mb} MB）",
    },
    "lab.upload_first": {
        "en": "Upload a checkpoint (saved on the Train page or by the command line) to compare it with the current "
        "model on your sentence pairs.",
        "zh": "上传一个检查点（在“训练”页或命令行保存的），在你的句子对上与当前模型比较。",
    },
    "lab.compared": {"en": "Comparing the current model with {name}.", "zh": "正在比较当前模型和 {name}。"},
    "lab.no_history": {
        "en": "{label} has no training history (it was not trained here and its checkpoint carries none).",
        "zh": "{label}没有训练记录（不是在这里训练的，检查点里也没有）。",
    },
    "lab.no_pairs": {
        "en": "There are no sentence pairs to compare on: add some on the Data page.",
        "zh": "没有可用于比较的句子对：请在“数据”页添加。",
    },
    "lab.too_long": {
        "en": "{n} pairs are longer than one of the models reads: they are left out of the comparison.",
        "zh": "有 {n} 个句子对超出了其中一个模型能读取的长度：它们不参与比较。",
    },
    "lab.model_sizes": {
        "en": "{label}: {params} parameters, {sizes}, {variant}",
        "zh": "{label}：{params} 个参数，{sizes}，{variant}",
    },
}
