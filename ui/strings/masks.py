"""UI strings of the Masks page."""

STRINGS: dict[str, dict[str, str]] = {
    # masks page
    "masks.title": {"en": "Masks", "zh": "掩码"},
    "masks.intro": {
        "en": "A mask says which keys a query may not attend to (**True = blocked**). The padding mask hides the "
        "`P` tokens that fill short sentences; the look-ahead (subsequence) mask stops the decoder from peeking "
        "at words it has not produced yet.",
        "zh": "掩码规定每个查询不能关注哪些键（**True = 屏蔽**）。填充掩码遮住补齐短句的 `P`；"
        "前瞻（subsequence）掩码让解码器看不到还没有生成的词。",
    },
    "masks.pad_mask_off": {
        "en": "This model was built with `pad_mask = False`: it applies no padding mask, so every query also "
        "attends to the `P` positions. The padding masks below block nothing, as in the model.",
        "zh": "这个模型构建时设置了 `pad_mask = False`：它不使用填充掩码，所以每个查询也会关注 `P` 的位置。"
        "下面的填充掩码和模型里一样，什么都不屏蔽。",
    },
    "masks.look_ahead_mask_off": {
        "en": "This model was built with `look_ahead_mask = False`: it applies no look-ahead mask, so in training "
        "each decoder position could see the words after it, including the one it must predict. The look-ahead "
        "mask below blocks nothing, as in the model.",
        "zh": "这个模型构建时设置了 `look_ahead_mask = False`：它不使用前瞻掩码，所以训练时每个解码器位置都能看到"
        "它后面的词，包括它要预测的那个词。下面的前瞻掩码和模型里一样，什么都不屏蔽。",
    },
    "masks.not_used": {
        "en": "Switched off in this model ({switches}): the grid shows what the model applies.",
        "zh": "这个模型关掉了它（{switches}）：图中显示的是模型实际使用的掩码。",
    },
    "masks.no_mask_here": {
        "en": "This model applies no mask in this attention: nothing is set to −∞, and every key, padding "
        "included, gets some weight.",
        "zh": "这个模型在这种注意力里不使用掩码：没有分数被设为 −∞，每个键（包括填充）都会得到一些权重。",
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
    "masks.all": {"en": "The masks of this sentence", "zh": "这个句子的掩码"},
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
}
