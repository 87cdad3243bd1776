"""The UI languages and t(key, lang, **values), which looks a string up in ui.strings."""

from __future__ import annotations

from ui.strings import STRINGS

LANGUAGES = {"en": "English", "zh": "中文"}


def t(key: str, lang: str, **values) -> str:
    """The string for key in lang ('en' or 'zh'), with {placeholders} filled from values."""
    text = STRINGS[key][lang if lang in LANGUAGES else "en"]
    return text.format(**values) if values else text


def word_list(words, lang: str) -> str:
    """Words (already escaped for where they are shown) as a list in lang: "a, b" in English, "a、b" in Chinese."""
    return t("list.sep", lang).join(words)


def sentences(parts, lang: str) -> str:
    """Sentences one after another: a space between them in English, none in Chinese (。 ends each)."""
    return ("" if lang == "zh" else " ").join(part for part in parts if part)
