"""UI strings of the Attention page."""

STRINGS: dict[str, dict[str, str]] = {
    # attention page
    "attn.download_maps": {
        "en": "Download every attention map of this sentence (JSON: tokens, then kind → layer → head → weights)",
        "zh": "下载这个句子的所有注意力图（JSON：词元，然后是类型 → 层 → 头 → 权重）",
    },
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
    "attn.scope_dataset_first": {
        "en": "the first {n} of the {total} pairs (teacher-forced)",
        "zh": "前 {n} 个句子对（共 {total} 个，教师强制）",
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
        "en": "Share on the position just before. A head that always looks there scores {perfect} on these "
        "sentences, not 1: only the positions that have one just before count (in self-attention, L − 1 of a "
        "sentence's L positions, so (L − 1)/L).",
        "zh": "落在前一个位置上的比例。总是看前一个位置的头在这些句子上得 {perfect}，而不是 1："
        "只有前面还有一个位置的那些位置才算（自注意力中，L 个位置的句子有 L − 1 个，所以是 (L − 1)/L）。",
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
    "attn.stat_grid_caption": {
        "en": "“{stat}” of every head of the {kind} (rows: layers, columns: heads)",
        "zh": "{kind}每个头的“{stat}”（行：层，列：头）",
    },
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
    "attn.during_training": {"en": "during training, epoch {epoch}", "zh": "训练中，第 {epoch} 轮"},
    "attn.replay_intro": {
        "en": "The bundled model was trained before you opened the app, on the corpus and the tutorial pairs. "
        "Replaying its training (same data, settings and seed; as long as the training took) records its attention "
        "every few epochs.",
        "zh": "内置模型是在打开应用之前用语料库和教程句子对训练的。重放它的训练（相同的数据、设置和种子，"
        "耗时与当初训练相同）会每隔几轮记录一次注意力。",
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
        "en": "This model was not trained in this tab (it was uploaded, or opened from a link), so its training was "
        "not recorded here. Train a model on the Train page to watch its attention form.",
        "zh": "这个模型不是在这个标签页里训练的（它是上传的，或从链接打开的），训练过程没有在这里记录。"
        "请在“训练”页训练一个模型来观察注意力的形成。",
    },
}
