"""Every UI string in English and Chinese, in one place. t(key, lang, **values) looks one up."""

from __future__ import annotations

from transformer.config import MAX_PAIRS, MAX_TOKEN_CHARS, MAX_TOKENS, MAX_VOCAB_SIZE
from transformer.data import SPECIALS, Problem

LANGUAGES = {"en": "English", "zh": "中文"}

STRINGS: dict[str, dict[str, str]] = {
    # navigation and sidebar
    "nav.data": {"en": "Data", "zh": "数据"},
    # ui/browser.py: the hidden parts drawn while the first page is read (a screen reader never reaches them)
    "browser.parts": {"en": "Chart parts loaded early", "zh": "提前加载的图表组件"},
    "nav.train": {"en": "Train", "zh": "训练"},
    "nav.pe": {"en": "Positional encoding", "zh": "位置编码"},
    "nav.masks": {"en": "Masks", "zh": "掩码"},
    "nav.attention": {"en": "Attention", "zh": "注意力"},
    "nav.decoding": {"en": "Decoding", "zh": "解码"},
    "sidebar.language": {"en": "Language · 语言", "zh": "语言 · Language"},
    "sidebar.model": {"en": "Current model", "zh": "当前模型"},
    "sidebar.source": {"en": "From: {source}", "zh": "来源：{source}"},
    "sidebar.params": {"en": "Parameters: {n}", "zh": "参数量：{n}"},
    "sidebar.vocab": {"en": "Vocabulary: {src} source / {tgt} target tokens", "zh": "词表：源 {src} / 目标 {tgt} 个词"},
    "sidebar.epochs": {"en": "Epochs trained: {n}", "zh": "已训练轮数：{n}"},
    "sidebar.loss": {"en": "Last loss: {loss}", "zh": "最后损失：{loss}"},
    "sidebar.server": {
        "en": "On this server: {running} training, {waiting} waiting.",
        "zh": "这台服务器上：{running} 个正在训练，{waiting} 个在排队。",
    },
    # links to a view and exports (sidebar, every page)
    "export.title": {"en": "Share and export", "zh": "分享与导出"},
    "link.copy": {"en": "Link to this view", "zh": "本视图的链接"},
    "link.copy_help": {
        "en": "Anyone who opens this link sees this page as it is now: the same sentence, settings, layer and head. "
        "Copy it with the button at the right of the box.",
        "zh": "打开这个链接的人会看到现在这个页面：同样的句子、设置、层和头。点框右侧的按钮即可复制。",
    },
    "link.replaced": {
        "en": "Some values in this link do not fit here and were replaced: {values}.",
        "zh": "链接中有些值在这里不适用，已被替换：{values}。",
    },
    "link.default": {"en": "the default", "zh": "默认值"},
    "link.cut": {"en": "{name}: the first {kept} of {given}", "zh": "{name}：{given} 个中只保留前 {kept} 个"},
    "state.replaced": {
        "en": "The current model cannot take some of the values you had here, so they were replaced: {values}.",
        "zh": "当前模型无法使用你在这里设的部分值，已被替换：{values}。",
    },
    "link.pair_missing": {
        "en": "the link's pair “{source}” is not in this tab's sentence pairs, so it is shown as a typed sentence",
        "zh": "链接中的句子对“{source}”不在这个标签页的数据里，所以作为输入的句子显示",
    },
    "link.other_model": {
        "en": "This link was made with the model “{name}” ({hash}); this tab's current model is “{current}” "
        "({current_hash}), so what you see may differ. Load that checkpoint on the Train page to see the same view.",
        "zh": "这个链接是用模型“{name}”（{hash}）生成的；这个标签页的当前模型是“{current}”（{current_hash}），"
        "所以看到的内容可能不同。请在“训练”页载入那个检查点，才能看到同样的视图。",
    },
    "link.this_model": {"en": "this tab's model", "zh": "这个标签页的模型"},
    "link.store_missing": {
        "en": "That model is not in this server's model store: it was never published, or it was removed to make room.",
        "zh": "这台服务器的模型库里没有那个模型：它从未发布过，或者为了腾出空间已被删除。",
    },
    "link.store_refused": {
        "en": "That model could not be opened from this server's model store: {reason}",
        "zh": "无法从这台服务器的模型库打开那个模型：{reason}",
    },
    "link.opened_model": {
        "en": "This tab now uses the model this link was made with ({hash}, {model}).",
        "zh": "这个标签页现在使用生成这个链接的模型（{hash}，{model}）。",
    },
    "link.own_model_kept": {
        "en": "Your own model ({name}) is kept: “Back to your model” in the sidebar brings it back.",
        "zh": "你自己的模型（{name}）还保留着：点侧边栏的“回到你自己的模型”即可换回。",
    },
    "link.carries_model": {
        "en": "The model is published, so the link opens it too.",
        "zh": "这个模型已经发布，所以链接也会打开它。",
    },
    "link.lacks_model": {
        "en": "The model is not published: the link opens this view with the model of whoever opens it. "
        "Publish it to send the model with the link.",
        "zh": "这个模型还没有发布：打开链接的人会用自己的模型看这个视图。发布它，链接就会带上这个模型。",
    },
    "store.publish": {"en": "Publish this model", "zh": "发布这个模型"},
    "store.publish_help": {
        "en": "Stores the current model on this server, so the link to any view opens it in any browser: on every "
        "process of a classroom, and after a restart. A published model never changes; publishing it again "
        "stores nothing new.",
        "zh": "把当前模型保存在这台服务器上，这样任何视图的链接都会在任何浏览器里打开它：课堂的每个进程都可以，"
        "服务器重启之后也可以。发布的模型不会再改变；再次发布不会重复保存。",
    },
    "store.name": {"en": "Name shown with it (optional)", "zh": "显示的名称（可选）"},
    "store.name_help": {
        "en": "Whoever opens the link sees this name, e.g. “Lesson 3: colours”.",
        "zh": "打开链接的人会看到这个名称，例如“第三课：颜色”。",
    },
    "store.published": {"en": "Published · {hash}", "zh": "已发布 · {hash}"},
    "store.published_help": {
        "en": "In this server's model store since {date}: links to this model's views open it in any browser.",
        "zh": "自 {date} 起保存在这台服务器的模型库中：这个模型的视图链接在任何浏览器里都会打开它。",
    },
    "store.done": {
        "en": "Published as {hash}: the link to this view now opens this model in any browser.",
        "zh": "已发布为 {hash}：这个视图的链接现在会在任何浏览器里打开这个模型。",
    },
    "store.already": {
        "en": "This model was published already ({hash}): the link to this view opens it in any browser.",
        "zh": "这个模型之前已经发布（{hash}）：这个视图的链接会在任何浏览器里打开它。",
    },
    "store.back": {"en": "Back to your model ({name})", "zh": "回到你自己的模型（{name}）"},
    "export.format": {"en": "Chart downloads", "zh": "图表下载格式"},
    "export.format_help": {
        "en": "The camera button in a chart's toolbar downloads it as PNG (for slides) or SVG (for print and editing), "
        "named after what it shows.",
        "zh": "图表工具栏里的相机按钮会把图表下载为 PNG（适合幻灯片）或 SVG（适合打印和编辑），文件名说明图的内容。",
    },
    "export.csv": {"en": "CSV", "zh": "CSV"},
    "export.sheet": {"en": "Lesson sheet (HTML)", "zh": "课堂讲义（HTML）"},
    "export.sheet_made": {
        "en": "Made with the Transformer playground on {date}. Every chart is interactive and works offline.",
        "zh": "由 Transformer 学习工具生成于 {date}。每个图表都可以交互，离线也能打开。",
    },
    "export.sheet_link": {"en": "This view in the app:", "zh": "在应用中打开这个视图："},
    "sheet.figure": {"en": "Figure {n}. {caption}", "zh": "图 {n}．{caption}"},
    "sheet.same_figure": {"en": "Figure {n} above shows this chart.", "zh": "这张图与上面的图 {n} 相同。"},
    "sheet.rows_shown": {"en": "The first {n} of {total} rows.", "zh": "前 {n} 行，共 {total} 行。"},
    "sheet.for": {"en": "for “{source}”", "zh": "句子“{source}”"},
    "sheet.for_pair": {"en": "for “{source}” → “{target}”", "zh": "句子“{source}”→“{target}”"},
    "sheet.settings": {"en": "Settings: {items}", "zh": "设置：{items}"},
    "export.paper": {"en": "the paper's architecture", "zh": "论文中的结构"},
    "export.fingerprint": {"en": "Model fingerprint: {hash}", "zh": "模型指纹：{hash}"},
    "source.bundled": {"en": "bundled", "zh": "内置"},
    "source.trained": {"en": "trained here", "zh": "本页训练"},
    "source.uploaded": {"en": "uploaded", "zh": "上传"},
    "source.published": {"en": "published {date}", "zh": "发布于 {date}"},
    "source.published_named": {"en": "published {date}, {name}", "zh": "发布于 {date}，{name}"},
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
    "job.stopping_epoch": {
        "en": "Stopping: finishing epoch {epoch} ({elapsed} s so far; an epoch takes about {seconds} s)…",
        "zh": "正在停止：第 {epoch} 轮还在进行（已用 {elapsed} 秒；每轮约 {seconds} 秒）…",
    },
    "job.stopping_first": {"en": "Stopping: finishing epoch {epoch}…", "zh": "正在停止：第 {epoch} 轮还在进行…"},
    "job.stopping_evaluating": {
        "en": "Stopping: evaluating the model trained so far ({elapsed} s so far)…",
        "zh": "正在停止：正在评估目前训练到的模型（已用 {elapsed} 秒）…",
    },
    "job.evaluating": {
        "en": "Training done: evaluating the model on its pairs ({elapsed} s so far)…",
        "zh": "训练完成：正在用句子对评估模型（已用 {elapsed} 秒）…",
    },
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
        "en": "There are {detail} pairs, more than the {max_pairs} allowed. Replace the table with a smaller file, or "
        "restore the sample pairs.",
        "zh": "共有 {detail} 个句子对，超过上限 {max_pairs}。请用更小的文件替换当前表格，或者恢复示例句子对。",
    },
    "problem.too_many_tokens": {
        "en": "The {detail} sentences have {count} distinct tokens, more than the {max_distinct} a vocabulary holds "
        "besides its 4 special tokens. Use fewer pairs, or choose a tokenization that makes fewer distinct tokens.",
        "zh": "{detail}共有 {count} 个不同的词元，超过了词表在 4 个特殊词元之外能容纳的 {max_distinct} 个。"
        "请减少句子对，或者换一种产生更少不同词元的分词方式。",
    },
    "problem.token_too_long": {
        "en": "row {row}: the {detail} has a token longer than {max_token_chars} characters. Shorten it or split it "
        "with spaces.",
        "zh": "第 {row} 行：{detail}中有超过 {max_token_chars} 个字符的词元。请缩短它，或用空格把它分开。",
    },
    "problem.control": {
        "en": "row {row}: contains the invisible control character {detail}, which cannot be part of a sentence. "
        "Delete it.",
        "zh": "第 {row} 行：含有不可见的控制字符 {detail}，句子里不能有它。请删除它。",
    },
    "problem.duplicate": {
        "en": "row {row}: this pair appears {detail} times in the table (the same tokens); every copy is trained.",
        "zh": "第 {row} 行的句子对在表格中出现了 {detail} 次（词元完全相同），每一份都会被训练。",
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
    "train.holdout_split": {
        "en": "{held} pairs held out, {kept} trained on (the same split for the same seed).",
        "zh": "留出 {held} 个句子对，用 {kept} 个训练（种子相同，划分相同）。",
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
    "error.split_too_few": {
        "en": "one pair cannot be split: hold nothing out, or add pairs.",
        "zh": "一个句子对无法划分：不要留出，或者添加句子对。",
    },
    "error.split_all": {
        "en": "holding out that many of {n} pairs leaves nothing to train on: hold out fewer.",
        "zh": "{n} 个句子对留出这么多就没有可训练的了：少留出一些。",
    },
    "error.split_none": {
        "en": "every pair's source is also among the pairs always trained on, so none can be held out.",
        "zh": "每个句子对的源句也都在总是参与训练的句子对里，所以一个都留不出来。",
    },
    "error.split_no_combination": {
        "en": "no pairing of two words can be held out while both words are still trained on in other pairings: the "
        "pairs need words that appear with several partners (猫追狗, 猫喜欢鱼, 狗追猫).",
        "zh": "无法留出任何两个词的搭配而让这两个词仍在别的搭配中训练：句子对里的词需要和多个不同的词搭配（猫追狗、猫喜欢鱼、狗追猫）。",
    },
    "error.split_one_length": {
        "en": "every target has {length} tokens: a length split needs sentences of different lengths.",
        "zh": "每个目标句都是 {length} 个词元：按长度划分需要长短不同的句子。",
    },
    "error.split_no_length": {
        "en": "no length cut leaves shorter pairs to train on and longer ones to hold out: the pairs with the longest "
        "targets share their sources with shorter ones or are always trained on.",
        "zh": "找不到一个长度界限让较短的句子对参与训练、较长的留出：目标句最长的句子对与较短的句子对源句相同，或者总是参与训练。",
    },
    "error.split_no_word": {
        "en": "no word appears in few enough pairs to be held out with them and still leave pairs to train on: add "
        "pairs with more varied words.",
        "zh": "没有哪个词出现的句子对少到可以连同它们一起留出、又还剩句子对可训练：添加用词更多样的句子对。",
    },
    "error.store_bad_hash": {
        "en": "“{text}” is not a model fingerprint (8 or 16 of the characters 0-9 and a-f): no model was looked up.",
        "zh": "“{text}”不是模型指纹（应为 8 或 16 个 0-9、a-f 字符）：没有查找任何模型。",
    },
    "error.store_damaged": {
        "en": "the published model {hash} is damaged ({reason}); it was set aside and will not be opened again. "
        "Publish it again from a tab that has it.",
        "zh": "已发布的模型 {hash} 已损坏（{reason}）；它已被移到一旁，不会再被打开。请在拥有它的标签页里重新发布。",
    },
    "error.store_full": {
        "en": "The model store is full ({count} models, {total} bytes; at most {max_models} models and {max_bytes} "
        "bytes), and every model in it was opened within the last hour. Try again later, or ask whoever runs the "
        "server to remove models or raise the limits.",
        "zh": "模型库已满（{count} 个模型，{total} 字节；最多 {max_models} 个模型、{max_bytes} 字节），"
        "而且其中每个模型在最近一小时内都被打开过。请稍后再试，或请服务器管理员删除一些模型或提高上限。",
    },
    "error.store_model_too_large": {
        "en": "This model's checkpoint is {size} bytes, more than the {limit} the model store takes: it cannot be "
        "published. Download it from the Train page and share the file instead.",
        "zh": "这个模型的检查点有 {size} 字节，超过了模型库接受的 {limit} 字节：无法发布。"
        "请在“训练”页下载它，改为分享这个文件。",
    },
    "error.store_unusable": {
        "en": "The model store at {folder} cannot be used ({reason}): whoever runs the server should set "
        "PLAYGROUND_MODEL_STORE to a folder it can write.",
        "zh": "位于 {folder} 的模型库无法使用（{reason}）：请服务器管理员把 PLAYGROUND_MODEL_STORE 设为可写的文件夹。",
    },
    "error.store_setting": {
        "en": "The server's setting {setting} is not a whole number of at least 1: whoever runs the server should fix it.",
        "zh": "服务器设置 {setting} 不是至少为 1 的整数：请服务器管理员改正。",
    },
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
    "list.sep": {"en": ", ", "zh": "、"},  # between the words of a list, e.g. unknown words
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
    # inside-the-model page
    "nav.inside": {"en": "Inside the model", "zh": "模型内部"},
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
    "error.reference_too_long": {
        "en": "The reference has {n} tokens; this model reads at most {max}. Shorten it.",
        "zh": "参考译文有 {n} 个词元；这个模型最多读取 {max} 个。请缩短。",
    },
    # lab page
    "nav.lab": {"en": "Lab", "zh": "实验室"},
    "job.done.lab": {
        "en": "Lab experiment finished ({epochs} epochs each): the Lab page compares the two models.",
        "zh": "实验完成（各 {epochs} 轮）：“实验室”页对比两个模型。",
    },
    "job.stopped.lab": {
        "en": "Lab experiment stopped after epoch {epochs}; the Lab page compares the partly trained models.",
        "zh": "实验在第 {epochs} 轮后停止；“实验室”页对比训练到一半的两个模型。",
    },
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
    "lab.no_longer": {
        "en": "All targets have the same length, so no pair is longer than the others: this experiment holds "
        "nothing out. Add pairs of different lengths on the Data page.",
        "zh": "所有目标句一样长，没有比其他句子更长的句子对：这个实验留不出句子。请在“数据”页添加长度不同的句子对。",
    },
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
    "lab.permuted": {"en": "Reordered sentences", "zh": "只是词序不同的句子"},
    "lab.group": {"en": "group", "zh": "组"},
    "lab.first": {"en": "sentence", "zh": "句子"},
    "lab.second": {"en": "reordered", "zh": "换了词序"},
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


def t(key: str, lang: str, **values) -> str:
    """The string for key in lang ('en' or 'zh'), with {placeholders} filled from values."""
    text = STRINGS[key][lang if lang in LANGUAGES else "en"]
    return text.format(**values) if values else text


def word_list(words, lang: str) -> str:
    """Words (already escaped for where they are shown) as a list in lang: "a, b" in English, "a、b" in Chinese."""
    return t("list.sep", lang).join(words)


def error_text(exc: Exception, lang: str) -> str:
    """A package error in the UI language when it carries a known code, else its own (English) message."""
    code = getattr(exc, "code", None)
    if code and f"error.{code}" in STRINGS:
        return t(f"error.{code}", lang, **exc.values)
    return str(exc)


def problem_text(problem: Problem, lang: str) -> str:
    """A data problem in the UI language."""
    sided = ("too_long", "token_too_long", "too_many_tokens")
    detail = t(f"side.{problem.detail}", lang) if problem.kind in sided else problem.detail
    limits = dict(
        max_tokens=MAX_TOKENS,
        max_pairs=f"{MAX_PAIRS:,}",
        max_token_chars=MAX_TOKEN_CHARS,
        max_distinct=f"{MAX_VOCAB_SIZE - len(SPECIALS):,}",
    )
    count = f"{problem.count:,}" if problem.count is not None else ""
    return t(f"problem.{problem.kind}", lang, row=problem.row, detail=detail, count=count, **limits)
