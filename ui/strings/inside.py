"""UI strings of the Inside the model page."""

STRINGS: dict[str, dict[str, str]] = {
    # inside-the-model page
    "inside.download_trace": {
        "en": "Download the whole trace (JSON: every step's name, where, shape, axes, code line and values)",
        "zh": "下载完整追踪（JSON：每一步的名称、位置、形状、轴、代码行和数值）",
    },
    "inside.title": {"en": "Inside the model", "zh": "模型内部"},
    "inside.intro": {
        "en": "One sentence pair through the whole forward pass, as in training (teacher forcing): from the token "
        "ids through every layer to the loss. Click a block of the diagram or choose it from the list, then walk "
        "the pass step by step. Every number is the current model's own.",
        "zh": "一个句子对走完整个前向传播，和训练时一样（teacher forcing）：从词元 id 经过每一层直到损失。"
        "点击结构图中的模块或从列表中选择，然后一步一步地走完前向传播。所有数值都来自当前模型。",
    },
    "inside.src_pad": {"en": "padding after the source", "zh": "源句后的填充数"},
    "inside.tgt_pad": {"en": "padding after the target", "zh": "目标句后的填充数"},
    "inside.pad_help": {
        "en": "In a batch, shorter sentences are padded with P to the longest one; the masks make the padding "
        "invisible and the loss does not count it.",
        "zh": "在一个批次中，较短的句子会用 P 补齐到最长句子的长度；掩码让填充不被关注，损失也不计算填充位置。",
    },
    "inside.greedy_target": {
        "en": "A typed sentence has no reference translation, so the decoder reads (and the loss scores) the "
        "model's own greedy translation.",
        "zh": "输入的句子没有参考译文，所以解码器读取（损失也按照）模型自己的贪心解码结果。",
    },
    "inside.encoder": {"en": "Encoder", "zh": "编码器"},
    "inside.decoder": {"en": "Decoder", "zh": "解码器"},
    "inside.block_inputs": {"en": "Inputs", "zh": "输入"},
    "inside.block_outputs": {"en": "Outputs (shifted right)", "zh": "输出（右移一位）"},
    "inside.block_embedding": {"en": "Embedding", "zh": "词嵌入"},
    "inside.block_positional_encoding": {"en": "Positional Encoding", "zh": "位置编码"},
    "inside.block_masks": {"en": "Masks", "zh": "掩码"},
    "inside.block_self_attention": {"en": "Multi-Head Attention", "zh": "多头注意力"},
    "inside.block_masked_attention": {"en": "Masked Multi-Head Attention", "zh": "掩码多头注意力"},
    "inside.block_cross_attention": {"en": "Encoder–Decoder Attention", "zh": "编码器-解码器注意力"},
    "inside.block_add_norm": {"en": "Add & Norm", "zh": "残差与归一化"},
    "inside.block_add": {"en": "Add (residual)", "zh": "残差相加"},
    "inside.block_norm": {"en": "LayerNorm", "zh": "层归一化"},
    "inside.block_feed_forward": {"en": "Feed Forward", "zh": "前馈网络"},
    "inside.block_final_norm": {"en": "Final LayerNorm", "zh": "最后的层归一化"},
    "inside.block_linear": {"en": "Linear", "zh": "线性层"},
    "inside.block_softmax": {"en": "Softmax", "zh": "Softmax"},
    "inside.block_loss": {"en": "Loss", "zh": "损失"},
    "inside.walk": {"en": "The forward pass, block by block", "zh": "前向传播，一个模块一个模块地看"},
    "inside.diagram": {
        "en": "The Transformer's architecture, the current step's block highlighted",
        "zh": "Transformer 的结构，当前这一步所在的模块高亮显示",
    },
    "inside.walk_intro": {
        "en": "The diagram is the paper's Figure 1 with this model's real sizes. The encoder and decoder layers "
        "are repeated N times; choose which layer to look at.",
        "zh": "结构图就是论文中的图 1，标出了这个模型的真实尺寸。编码器层和解码器层各重复 N 次；可以选择要看哪一层。",
    },
    "inside.block": {"en": "Block", "zh": "模块"},
    "inside.layer": {"en": "layer", "zh": "层"},
    "inside.layer_help": {
        "en": "Which of the N repeated layers the blocks inside the N× boxes show.",
        "zh": "N× 方框里的模块显示 N 个重复层中的哪一层。",
    },
    "inside.block_steps": {"en": "Steps in this block", "zh": "这个模块中的步骤"},
    "inside.prev": {"en": "◀ Previous step", "zh": "◀ 上一步"},
    "inside.next": {"en": "Next step ▶", "zh": "下一步 ▶"},
    "inside.step": {"en": "step", "zh": "步骤"},
    "inside.step_help": {
        "en": "The {n} steps of the pass in the order the model computes them.",
        "zh": "前向传播的 {n} 个步骤，按模型计算的顺序排列。",
    },
    "inside.n_layers": {"en": "N× = {n}", "zh": "N× = {n}"},
    "inside.layer_n": {"en": "layer {layer}", "zh": "第 {layer} 层"},
    "inside.click_block": {
        "en": "Click a block to go to its first step.",
        "zh": "点击一个模块即可跳到它的第一步。",
    },
    "inside.step_title": {
        "en": "Step {i} of {n}: `{name}` in `{where}`",
        "zh": "第 {i} 步（共 {n} 步）：`{where}` 中的 `{name}`",
    },
    "inside.shape": {"en": "Shape **{shape}** — axes [{axes}]", "zh": "形状 **{shape}** —— 各轴 [{axes}]"},
    "inside.explain_ids": {
        "en": "Token ids: `make_data` replaced every token by its index in the vocabulary and padded with `P` = 0. "
        "`enc_inputs` is the source; `dec_inputs` is `S` followed by the target, because with teacher forcing the "
        "decoder reads the correct previous words.",
        "zh": "词元 id：`make_data` 把每个词元换成它在词表中的序号，并用 `P` = 0 补齐。`enc_inputs` 是源句；"
        "`dec_inputs` 是 `S` 加上目标句，因为在 teacher forcing 中解码器读取的是正确的前一个词。",
    },
    "inside.explain_embedding": {
        "en": "`nn.Embedding` looks up one learned row of d_model numbers per id: the word vectors. The same id "
        "always gets the same row, wherever it stands. Three details follow the tutorials rather than the paper: "
        "the rows are not multiplied by √d_model before the positions are added, the output projection at the end "
        "has weights of its own (the paper shares them with the embeddings), and training uses no label smoothing.",
        "zh": "`nn.Embedding` 为每个 id 查出一行可学习的 d_model 个数：词向量。相同的 id 无论在哪个位置，得到的都是同一行。"
        "有三个细节跟随教程而不是论文：加上位置编码之前这些行没有乘以 √d_model，最后的输出投影层有自己的权重"
        "（论文让它与词嵌入共享权重），训练时也不使用标签平滑。",
    },
    "inside.explain_pe": {
        "en": "The rows of the positional-encoding table for positions 0…L−1: sin on even and cos on odd "
        "dimensions in the paper's model (a trained table in a learned-PE model). The same rows are added to "
        "every sentence of the batch.",
        "zh": "位置编码表中位置 0…L−1 的各行：论文的模型中偶数维是 sin、奇数维是 cos（可学习位置编码的模型中是训练出来的表）。"
        "批次中的每个句子都加上相同的这些行。",
    },
    "inside.explain_positional": {
        "en": "Word vector + position vector. From here on the same word at two positions has two different "
        "vectors. (A model without positional encoding adds nothing here, so it cannot tell word order.)",
        "zh": "词向量 + 位置向量。从这里开始，同一个词在两个位置上会有两个不同的向量。"
        "（没有位置编码的模型在这里什么也不加，所以分不清词序。）",
    },
    "inside.explain_pad_mask": {
        "en": "`get_attn_pad_mask`: True (blocked) in every column whose key is padding `P`, one row per query, "
        "so no query attends to padding.",
        "zh": "`get_attn_pad_mask`：凡是键为填充 `P` 的列都是 True（屏蔽），每个查询一行，这样没有查询会关注填充。",
    },
    "inside.explain_subsequence_mask": {
        "en": "`get_attn_subsequence_mask`: True above the diagonal, so position i cannot look at the later "
        "positions it has to predict.",
        "zh": "`get_attn_subsequence_mask`：对角线以上为 True，所以位置 i 看不到它要预测的后面的位置。",
    },
    "inside.explain_dec_self_attn_mask": {
        "en": "The decoder self-attention mask: padding OR look-ahead — blocked if either mask blocks.",
        "zh": "解码器自注意力掩码：填充 OR 前瞻——任意一个掩码屏蔽就屏蔽。",
    },
    "inside.explain_Q": {
        "en": "Queries: the input times W_Q, split into heads — `view` to [batch, len, heads, d_k], then "
        "`transpose(1, 2)` to [batch, heads, len, d_k]. In encoder–decoder attention the queries come from the decoder.",
        "zh": "查询 Q：输入乘以 W_Q，再分成多个头——先 `view` 成 [batch, len, heads, d_k]，再 `transpose(1, 2)` 成 "
        "[batch, heads, len, d_k]。在编码器-解码器注意力中，查询来自解码器。",
    },
    "inside.explain_K": {
        "en": "Keys: the input times W_K, split into heads the same way. In encoder–decoder attention the keys "
        "(and the values) come from the encoder's output.",
        "zh": "键 K：输入乘以 W_K，用同样的方式分头。在编码器-解码器注意力中，键（和值）来自编码器的输出。",
    },
    "inside.explain_V": {
        "en": "Values: the input times W_V, split into heads. Attention returns weighted averages of these vectors.",
        "zh": "值 V：输入乘以 W_V，再分头。注意力的结果就是这些向量的加权平均。",
    },
    "inside.explain_attn_mask": {
        "en": "The mask gets a heads axis of size 1 (`unsqueeze(1)`); broadcasting applies the same mask to every head.",
        "zh": "掩码增加一个大小为 1 的头轴（`unsqueeze(1)`）；广播机制把同一个掩码用到每一个头上。",
    },
    "inside.explain_scores": {
        "en": "`scores = Q·Kᵀ / √d_k`: one number per head, query and key — how well the query matches the key. "
        "Dividing by √d_k keeps the numbers small enough for a soft softmax (a model with scaling switched off skips it).",
        "zh": "`scores = Q·Kᵀ / √d_k`：每个头、每个查询和每个键一个数——查询和键有多匹配。除以 √d_k 让数值不至于太大，"
        "softmax 才不会过于尖锐（关闭缩放的模型不做这一步）。",
    },
    "inside.explain_masked_scores": {
        "en": "`masked_fill`: blocked cells become −∞, so after the softmax their weight is exactly 0.",
        "zh": "`masked_fill`：被屏蔽的格子变成 −∞，经过 softmax 后它们的权重正好是 0。",
    },
    "inside.explain_attn": {
        "en": "`attn = softmax(scores)` over the keys: every row is a set of weights that sums to 1. The arithmetic "
        "of any one weight is worked out below.",
        "zh": "`attn = softmax(scores)`，在键的维度上做：每一行都是一组和为 1 的权重。下面可以算出任意一个权重的来历。",
    },
    "inside.explain_context": {
        "en": "`context = attn · V`: for every query, the weighted average of the value vectors, one per head.",
        "zh": "`context = attn · V`：对每个查询，求值向量的加权平均，每个头一份。",
    },
    "inside.explain_concat": {
        "en": "The heads side by side again: `transpose(1, 2)` back to [batch, len, heads, d_v], then `reshape` to "
        "[batch, len, heads·d_v] — each position's head outputs laid end to end.",
        "zh": "把各个头重新并排：`transpose(1, 2)` 回到 [batch, len, heads, d_v]，再 `reshape` 成 "
        "[batch, len, heads·d_v]——每个位置的各头输出首尾相接。",
    },
    "inside.explain_attn_output": {
        "en": "The output projection `fc` mixes the heads back into d_model numbers per position.",
        "zh": "输出投影 `fc` 把各个头的结果重新混合成每个位置 d_model 个数。",
    },
    "inside.explain_residual": {
        "en": "The residual connection: the sublayer's output added to its input x, so the sublayer only has to "
        "learn a change to x.",
        "zh": "残差连接：子层的输出加上它的输入 x，所以子层只需要学习对 x 的改变量。",
    },
    "inside.explain_layer_norm": {
        "en": "LayerNorm: every position's vector is shifted to mean 0 and scaled to standard deviation 1, then "
        "multiplied by a learned weight and shifted by a learned bias. The tables show each row's mean and "
        "standard deviation before and after.",
        "zh": "层归一化：每个位置的向量先平移到均值 0、缩放到标准差 1，再乘以可学习的权重、加上可学习的偏置。"
        "表格列出每一行在归一化前后的均值和标准差。",
    },
    "inside.explain_hidden": {
        "en": "The feed-forward net's first layer, d_model → d_ff, then ReLU sets every negative number to 0. Every "
        "position goes through it separately.",
        "zh": "前馈网络的第一层 d_model → d_ff，然后 ReLU 把所有负数变成 0。每个位置各自单独通过它。",
    },
    "inside.explain_ffn_output": {
        "en": "The feed-forward net's second layer, d_ff → d_model.",
        "zh": "前馈网络的第二层 d_ff → d_model。",
    },
    "inside.explain_logits": {
        "en": "The projection: one score (logit) for every token of the target vocabulary at every decoder position.",
        "zh": "投影层：在解码器的每个位置，为目标词表中的每个词元给出一个分数（logit）。",
    },
    "inside.explain_probabilities": {
        "en": "Softmax over the vocabulary: the model's probability of every possible next token at each position.",
        "zh": "在词表上做 softmax：每个位置上模型认为每个词元是下一个词的概率。",
    },
    "inside.explain_targets": {
        "en": "`dec_outputs`: what each position should predict — the target followed by `E`, i.e. `dec_inputs` "
        "shifted left by one. Padding is ignored by the loss.",
        "zh": "`dec_outputs`：每个位置应该预测的词——目标句加上 `E`，也就是 `dec_inputs` 左移一位。损失忽略填充。",
    },
    "inside.explain_cross_entropy": {
        "en": "The cross-entropy of each position: −log of the probability the model gives the correct token. "
        "It is 0 at padding, which is not counted.",
        "zh": "每个位置的交叉熵：模型给正确词元的概率取 −log。填充位置为 0，不计入。",
    },
    "inside.explain_loss": {
        "en": "The loss: the mean cross-entropy over the real (non-padding) target positions. Training lowers this number.",
        "zh": "损失：所有真实（非填充）目标位置上交叉熵的平均值。训练就是让这个数变小。",
    },
    "inside.seed_pe": {
        "en": "Tutorial 004 (the Chinese tutorial that traces one run tensor by tensor) keeps the table as "
        "[max_len, 1, d_model] and prints these rows as [seq_len, 1, d_model]; here they are [len, d_model] and "
        "broadcasting adds them to every sentence of the batch.",
        "zh": "教程 004（逐个张量追踪一次运行的那篇中文教程）把位置编码表存成 [max_len, 1, d_model]，打印这些行时是 "
        "[seq_len, 1, d_model]；这里它们是 [len, d_model]，由广播加到批次中的每个句子上。",
    },
    "inside.seed_positional": {
        "en": "Tutorial 004 (the Chinese tutorial that traces one run tensor by tensor) transposes to "
        "[seq_len, batch, d_model] for this step and back afterwards; here every tensor stays batch-first, "
        "[batch, len, d_model].",
        "zh": "教程 004（逐个张量追踪一次运行的那篇中文教程）在这一步转置成 [seq_len, batch, d_model]，之后再转回来；"
        "这里所有张量都保持 batch 在前，即 [batch, len, d_model]。",
    },
    "inside.seed_attn_mask": {
        "en": "Tutorial 004 (the Chinese tutorial that traces one run tensor by tensor) repeats the mask for every "
        "head, [batch, n_heads, len_q, len_k]; here the heads axis has size 1 and broadcasting stretches it over "
        "the heads — the same mask without the copies.",
        "zh": "教程 004（逐个张量追踪一次运行的那篇中文教程）为每个头复制一份掩码，得到 [batch, n_heads, len_q, len_k]；"
        "这里头轴的大小是 1，由广播扩展到所有头——同样的掩码，只是不复制。",
    },
    "inside.seed_masked_scores": {
        "en": "Tutorial 004 (the Chinese tutorial that traces one run tensor by tensor) fills blocked cells with "
        "−1e9; −∞ gives exactly 0 after the softmax.",
        "zh": "教程 004（逐个张量追踪一次运行的那篇中文教程）用 −1e9 填充被屏蔽的格子；用 −∞ 在 softmax 之后正好得到 0。",
    },
    "inside.seed_logits": {
        "en": "Tutorial 004 (the Chinese tutorial that traces one run tensor by tensor) flattens the logits to "
        "[batch·tgt_len, tgt_vocab] for the loss; here they keep the shape [batch, tgt_len, tgt_vocab], and our "
        "target vocabulary also holds `<unk>`.",
        "zh": "教程 004（逐个张量追踪一次运行的那篇中文教程）为了计算损失把 logits 展平成 [batch·tgt_len, tgt_vocab]；"
        "这里保持 [batch, tgt_len, tgt_vocab]，而且我们的目标词表还包含 `<unk>`。",
    },
    "inside.value": {"en": "value", "zh": "数值"},
    "inside.head": {"en": "head", "zh": "头"},
    "inside.blocked": {"en": "blocked", "zh": "屏蔽"},
    "inside.allowed": {"en": "allowed", "zh": "允许"},
    "inside.cap_note": {
        "en": "{shown} of {total} columns drawn (too many to read)",
        "zh": "共 {total} 列，只画出 {shown} 列（太多无法阅读）",
    },
    "inside.went_in": {"en": "went in", "zh": "输入"},
    "inside.came_out": {"en": "came out", "zh": "输出"},
    "inside.token": {"en": "token", "zh": "词元"},
    "inside.mean": {"en": "mean", "zh": "均值"},
    "inside.std": {"en": "standard deviation", "zh": "标准差"},
    "inside.cell": {"en": "The arithmetic of one attention weight", "zh": "一个注意力权重是怎么算出来的"},
    "inside.cell_intro": {
        "en": "Pick an attention, a head, a query and a key (or click a cell of the map): every number below is the "
        "model's own, so you can recompute the weight by hand.",
        "zh": "选择一个注意力、一个头、一个查询和一个键（或点击注意力图中的格子）：下面每个数都来自模型本身，"
        "你可以亲手算出这个权重。",
    },
    "inside.attention": {"en": "attention", "zh": "注意力"},
    "inside.query": {"en": "query", "zh": "查询 (query)"},
    "inside.key": {"en": "key", "zh": "键 (key)"},
    "inside.click_cell": {"en": "Click a cell to work out its weight.", "zh": "点击一个格子，算出它的权重。"},
    "inside.cell_marked": {"en": "query {i} on key {j} marked", "zh": "标出查询 {i} 对键 {j}"},
    "inside.softmax_row": {"en": "The weights of query {i} over every key", "zh": "查询 {i} 对每个键的权重"},
    "inside.cell_pick": {
        "en": "Query **{q}** (position {i}) looking at key **{k}** (position {j}), head {h}.",
        "zh": "查询 **{q}**（位置 {i}）关注键 **{k}**（位置 {j}），第 {h} 个头。",
    },
    "inside.cell_step1": {
        "en": "**1.** The query vector q and the key vector k of this head, multiplied element by element and summed:",
        "zh": "**1.** 这个头的查询向量 q 和键向量 k 逐元素相乘再求和：",
    },
    "inside.cell_step2": {"en": "**2.** Divided by √d_k:", "zh": "**2.** 除以 √d_k："},
    "inside.cell_step2_unscaled": {
        "en": "**2.** This model does not scale its scores (the division is by 1):",
        "zh": "**2.** 这个模型不缩放分数（相当于除以 1）：",
    },
    "inside.cell_no_mask": {
        "en": "**3.** This attention has no mask: the score stays as it is.",
        "zh": "**3.** 这个注意力没有掩码：分数保持不变。",
    },
    "inside.cell_blocked": {
        "en": "**3.** The mask **blocks** this cell: M = −∞, so the score becomes −∞ and the weight 0.",
        "zh": "**3.** 掩码 **屏蔽** 了这个格子：M = −∞，所以分数变成 −∞，权重为 0。",
    },
    "inside.cell_allowed": {
        "en": "**3.** The mask allows this cell: M = 0, the score stays as it is.",
        "zh": "**3.** 掩码允许这个格子：M = 0，分数保持不变。",
    },
    "inside.cell_step4": {
        "en": "**4.** The softmax over the query's whole row of scores (this key highlighted):",
        "zh": "**4.** 在这个查询的整行分数上做 softmax（当前键高亮显示）：",
    },
    "inside.weight": {"en": "weight", "zh": "权重"},
    "inside.cell_step5": {
        "en": "**5.** The weights times the value vectors, summed: row {i} of this head's context.",
        "zh": "**5.** 权重乘以值向量再求和：得到这个头的 context 的第 {i} 行。",
    },
    "inside.cell_sum_row": {
        "en": "Row Σ adds up the weights (to 1) and the weighted values (this head's context row); the value "
        "vectors v_j are not added up, so their cells in that row are empty ({empty}).",
        "zh": "Σ 这一行把权重加起来（和为 1），也把加权后的值加起来（得到这个头的 context 这一行）；"
        "值向量 v_j 本身不相加，所以这一行里它们的格子是空的（{empty}）。",
    },
    "inside.cell_context": {
        "en": "The model's own context row: [{values}]",
        "zh": "模型自己算出的 context 这一行：[{values}]",
    },
    "inside.loss": {"en": "The loss of this sentence", "zh": "这个句子的损失"},
    "inside.loss_intro": {
        "en": "For each target position, the probability the model gives the correct token and −log p; the loss is "
        "their mean over the positions that are not padding.",
        "zh": "每个目标位置上，模型给正确词元的概率和 −log p；损失是所有非填充位置上的平均值。",
    },
    "inside.position": {"en": "position", "zh": "位置"},
    "inside.counted": {"en": "counted", "zh": "是否计入"},
    "inside.padding_excluded": {"en": "padding: not counted", "zh": "填充：不计入"},
}
