"""UI strings of the Positional encoding page."""

STRINGS: dict[str, dict[str, str]] = {
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
    "pe.none": {
        "en": 'This model was built with `pe = "none"`: it adds no positional encoding, so the encoder '
        "cannot tell the word order at all, and the decoder only through its look-ahead mask. The charts show "
        "the paper's sinusoidal table, for comparison.",
        "zh": '这个模型构建时设置了 `pe = "none"`：它不加任何位置编码，所以编码器完全分不清词序，'
        "解码器也只能靠前瞻掩码知道先后。下面的图显示的是论文中的正弦表，用于对比。",
    },
    "pe.learned": {
        "en": 'This model was built with `pe = "learned"`: instead of the formula it learned one vector per '
        "position in training, a separate table for the encoder and for the decoder.",
        "zh": '这个模型构建时设置了 `pe = "learned"`：它不用公式，而是在训练中为每个位置学习一个向量，'
        "编码器和解码器各有一张表。",
    },
    "pe.source": {"en": "Table", "zh": "表"},
    "pe.source_encoder": {"en": "the encoder's learned table", "zh": "编码器学到的表"},
    "pe.source_decoder": {"en": "the decoder's learned table", "zh": "解码器学到的表"},
    "pe.source_formula": {"en": "the sinusoidal formula", "zh": "正弦公式"},
    "pe.source_model": {"en": "the model's sinusoidal table", "zh": "模型的正弦表"},
    "pe.shown_positions": {"en": "positions 0–{last}", "zh": "位置 0–{last}"},
    "pe.max_len": {
        "en": "This model's table has max_len = {max_len} rows: it reads at most {max_len} positions, so the "
        "charts stop at position {last} instead of the {positions} positions asked for.",
        "zh": "这个模型的表只有 max_len = {max_len} 行：它最多读取 {max_len} 个位置，"
        "所以图只画到位置 {last}，而不是所选的 {positions} 个位置。",
    },
    "pe.dims": {"en": "Dimensions to draw", "zh": "要画的维度"},
    "pe.lines": {"en": "PE(pos, dimension) against position", "zh": "PE(pos, 维度) 随位置的变化"},
    "pe.lines_intro": {
        "en": "Low dimensions oscillate fast and tell neighbouring positions apart; high dimensions change slowly "
        "and tell far-apart positions apart. Each sin dimension 2i has a cos partner 2i+1 of the same wavelength.",
        "zh": "低维变化快，用来区分相邻的位置；高维变化慢，用来区分相距较远的位置。每个正弦维度 2i 都有一个波长相同的余弦维度 2i+1。",
    },
    "pe.lines_dots": {
        "en": "Each line is the formula at every real position; the dots are the whole positions 0, 1, 2, …, the "
        "values the model adds.",
        "zh": "每条线是公式在任意实数位置上的取值；圆点是整数位置 0、1、2……，也就是模型实际加上的值。",
    },
    "pe.lines_learned": {
        "en": "A learned table has values at the whole positions only (the dots); the lines just join them.",
        "zh": "学习得到的表只在整数位置上有值（圆点）；线只是把它们连起来。",
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
        "en": "For the sinusoidal table the dot product of two positions depends only on their distance q − p: "
        "`PE_p · PE_q = Σ_i cos((q − p)·ω_i)`, so every diagonal of the heatmap holds one value. It is largest at "
        "distance 0 ({top}, the diagonal).",
        "zh": "对正弦表来说，两个位置的点积只取决于它们的距离 q − p：`PE_p · PE_q = Σ_i cos((q − p)·ω_i)`，"
        "所以热图的每条对角线上都是同一个值。距离为 0 时最大（{top}，即对角线）。",
    },
    "pe.similarity_rises": {
        "en": "It does not fall steadily with distance, though: for d_model = {d} it is larger than one step "
        "closer at the distances {rises} ({count} of the distances up to {last}, marked ▲ below).",
        "zh": "但它并不随距离单调减小：d_model = {d} 时，在距离 {rises} 处它比近一步时更大"
        "（到距离 {last} 为止共 {count} 处，下图用 ▲ 标出）。",
    },
    "pe.similarity_falls": {
        "en": "Up to distance {last} it falls at every step.",
        "zh": "到距离 {last} 为止，它每一步都在减小。",
    },
    "pe.similarity_odd": {
        "en": "(With an odd d_model the last sin dimension has no cos partner and adds a tiny term that also "
        "depends on the positions themselves.)",
        "zh": "（d_model 为奇数时，最后一个正弦维度没有对应的余弦维度，会多出一个很小的、也和具体位置有关的项。）",
    },
    "pe.similarity_learned": {
        "en": "A learned table has no formula behind it: the dot products are whatever training made them, and "
        "they need not depend on the distance alone. Choose “the sinusoidal formula” above to compare.",
        "zh": "学习得到的表背后没有公式：点积是训练出来的结果，不一定只取决于距离。可以在上面选择“正弦公式”来对比。",
    },
    "pe.distance": {"en": "distance q − p", "zh": "距离 q − p"},
    "pe.rises_again": {"en": "rises again", "zh": "再次上升"},
    "pe.dot": {"en": "dot product", "zh": "点积"},
    "pe.wavelengths": {"en": "Wavelength of each dimension pair", "zh": "每对维度的波长"},
    "pe.wavelengths_intro": {
        "en": "Pair i (dimensions 2i and 2i+1) repeats every 2π·10000^(2i/d_model) positions.",
        "zh": "第 i 对（维度 2i 和 2i+1）每隔 2π·10000^(2i/d_model) 个位置重复一次。",
    },
    "pe.pair_dims": {"en": "dimensions", "zh": "维度"},
    "pe.wavelength": {"en": "wavelength (positions)", "zh": "波长（位置数）"},
}
