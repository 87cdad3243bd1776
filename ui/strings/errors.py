"""UI strings of domain errors: data problems (problem.*), their sides, and package error codes (error.*)."""

STRINGS: dict[str, dict[str, str]] = {
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
    "error.reference_too_long": {
        "en": "The reference has {n} tokens; this model reads at most {max}. Shorten it.",
        "zh": "参考译文有 {n} 个词元；这个模型最多读取 {max} 个。请缩短。",
    },
}
