"""UI strings of the Decoding page."""

STRINGS: dict[str, dict[str, str]] = {
    # decoding page
    "dec.title": {"en": "Decoding, step by step", "zh": "解码，一步一步"},
    "dec.intro": {
        "en": "Translation runs the encoder once, then the decoder once per output word: it starts from `S`, "
        "chooses a next token, appends it to its input and repeats until it chooses `E` (or reaches the length "
        "cap). **Greedy** decoding always takes the most probable token: the tutorials' `greedy_decoder`. The "
        "other strategies below choose differently.",
        "zh": "翻译时编码器只运行一次，然后每输出一个词运行一次解码器：从 `S` 开始，选出下一个词，"
        "把它接到输入后面，重复直到选出 `E`（或达到长度上限）。**贪心**解码总是选概率最高的词，这就是教程中的 "
        "`greedy_decoder`。下面的其他策略用不同的方式选词。",
    },
    "dec.prev": {"en": "◀ Previous", "zh": "◀ 上一步"},
    "dec.next": {"en": "Next ▶", "zh": "下一步 ▶"},
    "dec.step": {"en": "step", "zh": "步骤"},
    "dec.at_step": {"en": "**Step {t} of {n}**", "zh": "**第 {t} 步，共 {n} 步**"},
    "dec.step_n": {"en": "step {t} of {n}", "zh": "第 {t} 步，共 {n} 步"},
    "dec.input": {"en": "Decoder input so far:", "zh": "目前的解码器输入："},
    "dec.probs": {"en": "Next-token probabilities", "zh": "下一个词的概率"},
    "dec.k": {"en": "tokens shown", "zh": "显示的词数"},
    "dec.probability": {"en": "probability", "zh": "概率"},
    "dec.chosen": {"en": "chosen", "zh": "选中"},
    "dec.cross": {"en": "Where the newest position looked", "zh": "最新位置关注了哪里"},
    "dec.cross_explain": {
        "en": "The encoder–decoder attention of the newest decoder position ({token}) over the "
        "source, per head and averaged.",
        "zh": "最新解码器位置（{token}）对源句的编码器-解码器注意力，按头显示并给出平均。",
    },
    "dec.output": {"en": "Output so far", "zh": "目前的输出"},
    "dec.final": {"en": "Translation: **{text}** — {reason}", "zh": "译文：**{text}** —— {reason}"},
    "dec.stop_eos": {"en": "stopped because the model chose `E`.", "zh": "因为模型选择了 `E` 而停止。"},
    "dec.stop_max": {
        "en": "stopped at the length cap of {n} tokens without choosing `E`.",
        "zh": "在 {n} 个词的长度上限处停止，模型始终没有选择 `E`。",
    },
    "dec.reference": {"en": "Reference: {ref} {mark}", "zh": "参考译文：{ref} {mark}"},
    # decoding strategies (issue 12)
    "dec.strategy": {"en": "How to choose the next word", "zh": "如何选择下一个词"},
    "dec.s_greedy": {"en": "greedy", "zh": "贪心"},
    "dec.s_beam": {"en": "beam search", "zh": "束搜索"},
    "dec.s_sample": {"en": "sampling", "zh": "采样"},
    "dec.s_choose": {"en": "choose it yourself", "zh": "自己来选"},
    "dec.s_teacher": {"en": "teacher forcing vs free running", "zh": "教师强制 vs 自由生成"},
    "dec.forced": {"en": "forced", "zh": "强制"},
    "dec.forced_note": {
        "en": "You forced this token; the model itself would have chosen {model}.",
        "zh": "这个词是你强制选的；模型自己会选 {model}。",
    },
    "dec.choose_intro": {
        "en": "Pick the next word yourself: **click its row** in the chart, anywhere from the word to the right end, "
        "however short its bar (or pick a token in the list and press **Force it**). The decoder takes your word as "
        "if it had chosen it and continues greedily from there, so you see how one word changes where the decoder "
        "looks and everything that follows.",
        "zh": "自己选择下一个词：**点击图中它的那一行**，从词到最右端任意位置都可以，柱子再短也行（或在列表中选一个词"
        "再按 **强制选择**）。解码器会把你的词当作自己选的，然后从那里继续贪心解码，你可以看到一个词如何改变解码器"
        "关注的位置以及后面的所有输出。",
    },
    "dec.force_pick": {"en": "token for this step", "zh": "这一步的词"},
    "dec.force": {"en": "Force it", "zh": "强制选择"},
    "dec.force_clear": {"en": "Back to greedy", "zh": "恢复贪心"},
    "dec.force_refused": {
        "en": "P and S are never outputs: pick another token.",
        "zh": "P 和 S 永远不会是输出：请选择其他词。",
    },
    "dec.beam_intro": {
        "en": "Beam search keeps the **K most probable partial translations** (the beams) instead of one. At every "
        "step each beam is extended by every token; of all these candidates the K with the highest total "
        "log-probability stay and the others are pruned. A candidate ending in `E` is a finished hypothesis. The "
        "search goes on until no beam still alive could beat the K-th best finished hypothesis, whatever words "
        "followed (each word only lowers a log-probability), or until the length cap. Greedy decoding is beam "
        "search with K = 1 and α = 0: it never revisits a choice, so a word that looks best now can lead to a less "
        "probable sentence. The paper uses K = 4 and a length "
        "penalty α = 0.6, because every extra word lowers the log-probability and short outputs would win.",
        "zh": "束搜索同时保留 **K 个概率最高的部分译文**（称为“束”），而不是只保留一个。每一步把每个束用每个词各延长"
        "一次；在所有候选中保留总对数概率最高的 K 个，其余的被剪掉。以 `E` 结尾的候选是一个完成的假设。"
        "搜索一直进行，直到仍在的束无论再接什么词都不可能超过第 K 好的完成假设（每多一个词，对数概率只会更低），"
        "或达到长度上限。贪心解码就是 K = 1、α = 0 的束搜索：它从不回头，所以眼下最好的词可能导致整体概率更低的句子。"
        "论文使用 K = 4 和长度惩罚 α = 0.6，因为每多一个词对数概率就更低，不加惩罚短句会占优。",
    },
    "dec.beam_size": {"en": "beam size K", "zh": "束宽 K"},
    "dec.alpha": {"en": "length penalty α", "zh": "长度惩罚 α"},
    "dec.alpha_help": {
        "en": "0: plain log-probability; larger values favour longer translations.",
        "zh": "0：直接用对数概率；数值越大越偏向较长的译文。",
    },
    "dec.beam_tree": {"en": "The beams, step by step", "zh": "每一步的束"},
    "dec.log_prob": {"en": "log-probability", "zh": "对数概率"},
    "dec.kept": {"en": "kept", "zh": "保留"},
    "dec.finished": {"en": "finished (E)", "zh": "完成 (E)"},
    "dec.pruned": {"en": "pruned", "zh": "剪掉"},
    "dec.best": {"en": "best hypothesis", "zh": "最佳假设"},
    "dec.nbest": {"en": "The n best translations", "zh": "最好的 n 个译文"},
    "dec.rank": {"en": "rank", "zh": "名次"},
    "dec.translation": {"en": "translation", "zh": "译文"},
    "dec.score": {"en": "score (with length penalty)", "zh": "得分（含长度惩罚）"},
    "dec.ends": {"en": "ends", "zh": "结束方式"},
    "dec.ends_eos": {"en": "with E", "zh": "选中 E"},
    "dec.ends_cap": {"en": "at the length cap", "zh": "达到长度上限"},
    "dec.matches": {"en": "= reference", "zh": "= 参考译文"},
    "dec.beam_same": {
        "en": "Greedy decoding finds the same translation, **{beam}** (score {beam_score}).",
        "zh": "贪心解码得到同样的译文：**{beam}**（得分 {beam_score}）。",
    },
    "dec.beam_tie": {
        "en": "Greedy and beam search end with different translations of the same score: greedy **{greedy}** "
        "(score {greedy_score}), beam search **{beam}** (score {beam_score}).",
        "zh": "贪心和束搜索得到得分相同的不同译文：贪心 **{greedy}**（得分 {greedy_score}），束搜索 **{beam}**（得分 {beam_score}）。",
    },
    "dec.beam_better": {
        "en": "Beam search beats greedy here: greedy gives **{greedy}** (score {greedy_score}), beam search "
        "**{beam}** (score {beam_score}).",
        "zh": "这里束搜索胜过贪心：贪心得到 **{greedy}**（得分 {greedy_score}），束搜索得到 **{beam}**（得分 {beam_score}）。",
    },
    "dec.beam_pruned": {
        "en": "Beam search is not exact: greedy gives **{greedy}** (score {greedy_score}), but beam search pruned "
        "greedy's path at step {step}, where at least {k} other candidates ranked above it; its best is **{beam}** "
        "(score {beam_score}).",
        "zh": "束搜索并不精确：贪心得到 **{greedy}**（得分 {greedy_score}），但束搜索在第 {step} 步剪掉了贪心的路径，"
        "那一步至少有 {k} 个其他候选排在它前面；它的最佳结果是 **{beam}**（得分 {beam_score}）。",
    },
    "dec.beam_stopped": {
        "en": "Greedy gives **{greedy}** (score {greedy_score}), better than beam search's best **{beam}** "
        "(score {beam_score}): the search stopped at step {step} while greedy's path was still one of its beams.",
        "zh": "贪心得到 **{greedy}**（得分 {greedy_score}），比束搜索的最佳结果 **{beam}**（得分 {beam_score}）更好："
        "搜索在第 {step} 步停止时，贪心的路径仍是其中一个束。",
    },
    "dec.beam_data": {"en": "Beam search against greedy on the dataset", "zh": "在数据集上比较束搜索与贪心"},
    "dec.beam_data_none": {"en": "The dataset has no complete pairs.", "zh": "数据集中没有完整的句子对。"},
    "dec.beam_data_toggle": {"en": "Compare on all {n} pairs", "zh": "在全部 {n} 个句子对上比较"},
    "dec.beam_data_toggle_first": {
        "en": "Compare on the first {n} of the {total} pairs",
        "zh": "在前 {n} 个句子对上比较（共 {total} 个）",
    },
    "dec.beam_data_summary": {
        "en": "Beam search found a more probable translation than greedy for **{wins} of {n}** pairs. Greedy "
        "matches the reference for {greedy_ok}, beam search for {beam_ok}.",
        "zh": "在 **{n} 个句子对中的 {wins} 个**上，束搜索找到了比贪心概率更高的译文。贪心有 {greedy_ok} 个与参考译文一致，"
        "束搜索有 {beam_ok} 个。",
    },
    "dec.ref_col": {"en": "reference", "zh": "参考译文"},
    "dec.greedy_col": {"en": "greedy", "zh": "贪心"},
    "dec.greedy_score": {"en": "greedy score", "zh": "贪心得分"},
    "dec.beam_col": {"en": "beam search", "zh": "束搜索"},
    "dec.beam_score": {"en": "beam score", "zh": "束搜索得分"},
    "dec.greedy_ok": {"en": "greedy = reference", "zh": "贪心 = 参考"},
    "dec.beam_ok": {"en": "beam = reference", "zh": "束搜索 = 参考"},
    "dec.sample_intro": {
        "en": "Sampling **draws** the next token at random from the model's distribution instead of taking the most "
        "probable one. The **temperature** T divides the logits before the softmax: T < 1 sharpens the "
        "distribution (towards greedy), T > 1 flattens it. **Top-k** keeps only the k most probable tokens; "
        "**top-p** (nucleus) keeps the fewest most probable tokens whose probabilities add up to p. What is left "
        "is renormalised and one token is drawn. The same seed draws the same tokens.",
        "zh": "采样从模型的分布中**随机抽取**下一个词，而不是取概率最高的那个。**温度** T 在 softmax 之前除以 logits："
        "T < 1 让分布更尖锐（接近贪心），T > 1 让分布更平坦。**Top-k** 只保留概率最高的 k 个词；"
        "**top-p**（核采样）保留概率之和达到 p 的最少的高概率词。剩下的词重新归一化后抽取一个。"
        "同一个随机种子抽出同样的词。",
    },
    "dec.temperature": {"en": "temperature T", "zh": "温度 T"},
    "dec.top_k": {"en": "top-k", "zh": "top-k"},
    "dec.top_k_help": {"en": "0: no cut.", "zh": "0：不截断。"},
    "dec.top_p": {"en": "top-p", "zh": "top-p"},
    "dec.top_p_help": {"en": "1: no cut.", "zh": "1：不截断。"},
    "dec.seed": {"en": "seed", "zh": "随机种子"},
    "dec.samples": {"en": "samples", "zh": "样本数"},
    "dec.samples_title": {"en": "Samples side by side", "zh": "并排的样本"},
    "dec.seed_n": {"en": "seed {seed}", "zh": "种子 {seed}"},
    "dec.sample_log_prob": {"en": "log-probability {value}", "zh": "对数概率 {value}"},
    "dec.sample_steps": {"en": "What the settings do, step by step", "zh": "每一步中这些设置的作用"},
    "dec.sample_pick": {"en": "sample", "zh": "样本"},
    "dec.dist_model": {"en": "model (T = 1)", "zh": "模型 (T = 1)"},
    "dec.dist_tempered": {"en": "after temperature {t}", "zh": "温度 {t} 之后"},
    "dec.dist_final": {"en": "after top-k {k}, top-p {p}: drawn from", "zh": "top-k {k}、top-p {p} 之后：从中抽取"},
    "dec.drawn": {"en": "drawn", "zh": "抽中"},
    "dec.teacher_intro": {
        "en": "In training the decoder always reads the **reference** translation (teacher forcing): at every "
        "position it predicts the next word from the correct words before it. When it translates, it reads **its "
        "own output** (free running). The table compares both for one sentence: the model's probability for each "
        "reference word under teacher forcing, and the word greedy decoding chose when it read its own words. "
        "Once free running picks another word, every later step reads words it never saw in training: this "
        "mismatch is called *exposure bias*.",
        "zh": "训练时解码器总是读取**参考译文**（教师强制）：在每个位置根据前面正确的词预测下一个词。翻译时它读取的是"
        "**自己的输出**（自由生成）。下表对一个句子比较两者：教师强制下模型给参考译文每个词的概率，以及贪心解码读取"
        "自己的词时选择的词。一旦自由生成选了别的词，之后的每一步读到的都是训练中从未见过的词：这种不一致叫做"
        "*曝光偏差*（exposure bias）。",
    },
    "dec.reference_typed": {"en": "reference translation", "zh": "参考译文"},
    "dec.reference_needed": {
        "en": "Type a reference translation to compare teacher forcing with free running.",
        "zh": "请输入参考译文，以比较教师强制与自由生成。",
    },
    "dec.ref_unknown": {
        "en": "Not in the model's target vocabulary, read as `<unk>`: {words}.",
        "zh": "这些词不在模型的目标词表里，按 `<unk>` 处理：{words}。",
    },
    "dec.position": {"en": "position", "zh": "位置"},
    "dec.ref_token": {"en": "reference token", "zh": "参考词"},
    "dec.teacher_prob": {"en": "P(reference token), teacher forcing", "zh": "P(参考词)，教师强制"},
    "dec.teacher_choice": {"en": "most probable, teacher forcing", "zh": "最可能的词，教师强制"},
    "dec.free_choice": {"en": "chosen, free running", "zh": "自由生成选择的词"},
    "dec.agree": {"en": "free = reference", "zh": "自由生成 = 参考"},
    "dec.parted": {"en": "✗ parts here", "zh": "✗ 在这里分开"},
    "dec.never_parted": {
        "en": "Free running follows the reference all the way to `E`. A model that learned this pair by heart "
        "never leaves it: type your own sentence and reference, or train for fewer epochs, to see the two part.",
        "zh": "自由生成一直与参考译文一致，直到 `E`。把这个句子对背熟了的模型不会偏离它：输入你自己的句子和参考译文，"
        "或者用更少的轮数训练，就能看到两者分开。",
    },
    "dec.parted_at": {
        "en": "The two part ways at position {position}: free running chose {free} where the reference has {ref}. "
        "From there on the decoder reads its own words, not the reference.",
        "zh": "两者在第 {position} 个位置分开：自由生成选了 {free}，参考译文是 {ref}。从这里开始解码器读的是自己的词，"
        "而不是参考译文。",
    },
}
