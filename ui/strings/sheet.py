"""UI strings of the lesson sheet (the sidebar's printable handout)."""

STRINGS: dict[str, dict[str, str]] = {
    "sheet.figure": {"en": "Figure {n}. {caption}", "zh": "图 {n}．{caption}"},
    "sheet.same_figure": {"en": "Figure {n} above shows this chart.", "zh": "这张图与上面的图 {n} 相同。"},
    "sheet.rows_shown": {"en": "The first {n} of {total} rows.", "zh": "前 {n} 行，共 {total} 行。"},
    "sheet.for": {"en": "for “{source}”", "zh": "句子“{source}”"},
    "sheet.for_pair": {"en": "for “{source}” → “{target}”", "zh": "句子“{source}”→“{target}”"},
    "sheet.settings": {"en": "Settings: {items}", "zh": "设置：{items}"},
}
