"""UI strings of the Data page: datasets, tokenizers, upload, phenomena, vocabularies."""

STRINGS: dict[str, dict[str, str]] = {
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
    "data.large": {
        "en": "This table has {n} pairs, more than the {limit} that can be edited here: it is summarised below and "
        "shown a page at a time, read-only. To change it, edit the file and upload it again.",
        "zh": "这个表格有 {n} 个句子对，超过了可以在这里编辑的 {limit} 个：下面给出它的概况，表格按页显示、只读。"
        "要修改它，请编辑文件后重新上传。",
    },
    "data.table_page": {"en": "Page (of {pages})", "zh": "页码（共 {pages} 页）"},
    "data.table_rows": {"en": "Rows {first}–{last} of {total}.", "zh": "第 {first}–{last} 行，共 {total} 行。"},
    "data.dataset": {"en": "Dataset", "zh": "数据集"},
    "data.dataset.tutorial": {"en": "Tutorial pairs", "zh": "教程句子对"},
    "data.dataset.corpus": {"en": "Corpus", "zh": "语料库"},
    "data.dataset.own": {"en": "Your own", "zh": "你自己的"},
    "data.about.tutorial": {
        "en": "The {n} sentence pairs of the seed tutorials (assets/pairs.tsv): few enough to read and edit, too few "
        "to learn anything that carries over to sentences the model never saw.",
        "zh": "种子教程里的 {n} 个句子对（assets/pairs.tsv）：少到可以逐条阅读和编辑，但太少了，模型学不到能用在没见过的句子上的东西。",
    },
    "data.about.corpus": {
        "en": "{size} pairs written by this project's grammar (transformer.corpus), each tagged with the phenomena it "
        "shows, then the {tutorial} tutorial pairs it does not already hold: {n} pairs, enough to learn to translate "
        "sentences never seen in training. Choose on the Train page which pairs to hold out.",
        "zh": "{size} 个由本项目的语法（transformer.corpus）生成的句子对，每个都标注了它体现的语言现象，再加上其中还没有的 "
        "{tutorial} 个教程句子对：共 {n} 个，足以学会翻译训练中从没见过的句子。在训练页选择留出哪些句子对。",
    },
    "data.about.own": {
        "en": "Your own pairs, typed here or loaded from a file: {n} now. They are kept while you look at another "
        "dataset; choose this one again to get them back.",
        "zh": "你自己的句子对，在这里输入或从文件加载：现在有 {n} 个。查看其他数据集时它们会被保留；再选这一项就能找回。",
    },
    "data.about.own_empty": {
        "en": "Your own pairs: none yet. Type pairs below or load a file; editing another dataset makes it yours too.",
        "zh": "你自己的句子对：还没有。在下面输入句子对或加载文件；编辑其他数据集也会让它变成你自己的。",
    },
    "data.bundled_data": {
        "en": "The bundled model, the one every page shows until you train, was trained on the corpus ({size} pairs, "
        "seed {seed}; {held} of them held out at random to score it) together with the {tutorial} tutorial pairs.",
        "zh": "内置模型（在你训练之前每一页显示的模型）是用语料库（{size} 个句子对，种子 {seed}；随机留出其中 {held} 个用来评分）"
        "加上 {tutorial} 个教程句子对训练的。",
    },
    "data.corpus_size": {"en": "Corpus pairs", "zh": "语料库句子对数"},
    "data.corpus_seed": {"en": "Corpus seed", "zh": "语料库种子"},
    "help.corpus_size": {
        "en": "How many distinct pairs to draw from the grammar (at most {max}); the same size and seed always give "
        "the same pairs.",
        "zh": "从语法中抽取多少个不同的句子对（最多 {max} 个）；大小和种子相同，句子对就相同。",
    },
    "data.phenomena": {"en": "Phenomena", "zh": "语言现象"},
    "data.phenomena_intro": {
        "en": "{n} of the {total} pairs are tagged with the phenomena they show (a pair can show several).",
        "zh": "{total} 个句子对中有 {n} 个标注了它们体现的语言现象（一个句子对可以体现多个）。",
    },
    "data.phenomenon": {"en": "phenomenon", "zh": "语言现象"},
    "data.phenomenon_pairs": {"en": "pairs", "zh": "句子对"},
    "data.phenomenon_what": {"en": "what it shows", "zh": "说明"},
    "phenomenon.all": {"en": "all pairs", "zh": "全部句子对"},
    "phenomenon.agreement": {"en": "agreement", "zh": "主谓一致"},
    "phenomenon.negation": {"en": "negation", "zh": "否定"},
    "phenomenon.future": {"en": "future", "zh": "将来时"},
    "phenomenon.time_word": {"en": "time word", "zh": "时间词"},
    "phenomenon.measure_word": {"en": "measure word", "zh": "量词"},
    "phenomenon.question": {"en": "question", "zh": "疑问句"},
    "phenomenon.role_reversal": {"en": "role reversal", "zh": "角色互换"},
    "phenomenon.possessive": {"en": "possessive", "zh": "所有格"},
    "phenomenon.adjective": {"en": "adjective", "zh": "形容词"},
    "phenomenon.progressive": {"en": "progressive", "zh": "进行时"},
    "phenomenon_what.agreement": {
        "en": "The English verb changes with its subject (he loves, they love; does, do; is, are) while the Chinese "
        "verb stays the same.",
        "zh": "英语动词随主语变化（he loves, they love；does, do；is, are），汉语动词不变。",
    },
    "phenomenon_what.negation": {
        "en": "不 or 没 before the verb becomes do not, does not or did not (or not after am, is, are).",
        "zh": "动词前的“不”或“没”译成 do not、does not 或 did not（或在 am、is、are 后加 not）。",
    },
    "phenomenon_what.future": {
        "en": "会 with 明天 becomes will … tomorrow.",
        "zh": "“会”加“明天”译成 will … tomorrow。",
    },
    "phenomenon_what.time_word": {
        "en": "A time word (今天, 每天, 明天) stands before the verb in Chinese but at the end in English (today, "
        "every day, tomorrow).",
        "zh": "时间词（今天、每天、明天）在汉语里位于动词前，在英语里位于句末（today、every day、tomorrow）。",
    },
    "phenomenon_what.measure_word": {
        "en": "A number and a measure word (一只猫, 两本书) become an article or a number with a plural (a cat, two "
        "books).",
        "zh": "数词加量词（一只猫、两本书）译成冠词或数词加复数（a cat、two books）。",
    },
    "phenomenon_what.question": {
        "en": "吗 at the end makes a yes/no question that starts with Do, Does, Is, Are or Will.",
        "zh": "句末的“吗”构成一般疑问句，英语以 Do、Does、Is、Are 或 Will 开头。",
    },
    "phenomenon_what.role_reversal": {
        "en": "The same characters in another order mean something else (猫追狗 / 狗追猫): only word order tells who "
        "does what to whom.",
        "zh": "同样的字换个顺序意思就变了（猫追狗 / 狗追猫）：只有词序说明谁对谁做了什么。",
    },
    "phenomenon_what.possessive": {
        "en": "的 after a person makes a possessive (我的猫 → my cat).",
        "zh": "人称后的“的”表示所有（我的猫 → my cat）。",
    },
    "phenomenon_what.adjective": {
        "en": "很 with an adjective becomes am, is or are with the adjective (我的猫很小 → My cat is small).",
        "zh": "“很”加形容词译成 am、is 或 are 加形容词（我的猫很小 → My cat is small）。",
    },
    "phenomenon_what.progressive": {
        "en": "在 before a verb becomes am, is or are with its -ing form (猫在睡觉 → The cat is sleeping).",
        "zh": "动词前的“在”译成 am、is 或 are 加动词的 -ing 形式（猫在睡觉 → The cat is sleeping）。",
    },
    "data.summary": {"en": "Summary", "zh": "概况"},
    "data.usable": {"en": "Usable pairs", "zh": "可用句子对"},
    "data.error_count": {"en": "Errors", "zh": "错误"},
    "data.warning_count": {"en": "Warnings", "zh": "警告"},
    "data.src_vocab_size": {"en": "Source vocabulary", "zh": "源语言词表"},
    "data.tgt_vocab_size": {"en": "Target vocabulary", "zh": "目标语言词表"},
    "data.lengths_title": {"en": "Sentence lengths", "zh": "句子长度"},
    "data.length": {"en": "tokens in the sentence", "zh": "句子的词元数"},
    "data.sentences": {"en": "sentences", "zh": "句子数"},
    "data.lengths_caption": {
        "en": "How many of the {n} usable pairs' sentences have each length, with the tokenization chosen above. "
        "Training batches group pairs of similar lengths, so each batch is padded only to its own longest sentence.",
        "zh": "{n} 个可用句子对中，每种长度（按上面选择的分词方式计）各有多少个句子。训练时一个批次里放长度相近的句子对，"
        "所以每个批次只需补齐到它自己最长的句子。",
    },
    "data.top_source": {"en": "The {n} most frequent source tokens", "zh": "最常见的 {n} 个源句词元"},
    "data.top_target": {"en": "The {n} most frequent target tokens", "zh": "最常见的 {n} 个目标句词元"},
    "data.occurrences": {"en": "occurrences", "zh": "出现次数"},
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
    "data.restore": {"en": "Restore the sample pairs", "zh": "恢复示例句子对"},
    "data.restore_help": {
        "en": "Replace the table with the {n} pairs the app starts with (the bundled model was trained on them, and on "
        "the corpus).",
        "zh": "用应用自带的 {n} 个句子对替换当前表格（内置模型就是用它们和语料库训练的）。",
    },
    "data.restored": {"en": "Restored the {n} sample pairs.", "zh": "已恢复 {n} 个示例句子对。"},
    "data.more_problems": {"en": "… and {n} more.", "zh": "……还有 {n} 条。"},
    "data.shown_first": {
        "en": "Showing the first {n} of the {total} usable pairs.",
        "zh": "只显示 {total} 个可用句子对中的前 {n} 个。",
    },
    "data.tokens_shown_first": {
        "en": "Showing the first {n} of the {total} tokens.",
        "zh": "只显示 {total} 个词元中的前 {n} 个。",
    },
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
    "data.make_data_pairs": {"en": "Pairs in the batch", "zh": "批次中的句子对"},
    "data.make_data_pairs_help": {
        "en": "Pairs of different lengths show the padding: the shorter sentences are filled up with P (id 0).",
        "zh": "选择长度不同的句子对就能看到填充：较短的句子会用 P（编号 0）补齐。",
    },
    "data.make_data_choose": {
        "en": "Choose one or more pairs above to see the tensors make_data builds from them.",
        "zh": "请在上面选择一个或多个句子对，查看 make_data 由它们生成的张量。",
    },
    "data.offered_first": {
        "en": "The first {n} of the {total} usable pairs are offered here.",
        "zh": "这里只列出 {total} 个可用句子对中的前 {n} 个。",
    },
    "data.enc_inputs": {"en": "the source ids", "zh": "源句编号"},
    "data.dec_inputs": {"en": "S + the target ids", "zh": "S + 目标句编号"},
    "data.dec_outputs": {"en": "the target ids + E", "zh": "目标句编号 + E"},
}
