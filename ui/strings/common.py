"""UI strings shared by several pages: the sentence picker, chart axis words, list separators."""

STRINGS: dict[str, dict[str, str]] = {
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
}
