"""Language names by ISO 639-3 code (the codes of Tatoeba's downloads, `fra-eng.txt`, `cmn-eng.txt`, …), in English
and in Chinese, and the codes a file's name carries. Standard library only."""

from __future__ import annotations

import re
from pathlib import PurePath

OTHER = "other"  # a column whose language is not known: "the other language"
ENGLISH = "eng"

LANGUAGES = {  # code → (English name, Chinese name): the common ones of Tatoeba's downloads
    "eng": ("English", "英语"),
    "cmn": ("Mandarin Chinese", "普通话（中文）"),
    "zho": ("Chinese", "中文"),
    "yue": ("Cantonese", "粤语"),
    "wuu": ("Shanghainese", "吴语"),
    "fra": ("French", "法语"),
    "deu": ("German", "德语"),
    "spa": ("Spanish", "西班牙语"),
    "ita": ("Italian", "意大利语"),
    "por": ("Portuguese", "葡萄牙语"),
    "nld": ("Dutch", "荷兰语"),
    "rus": ("Russian", "俄语"),
    "ukr": ("Ukrainian", "乌克兰语"),
    "pol": ("Polish", "波兰语"),
    "ces": ("Czech", "捷克语"),
    "hun": ("Hungarian", "匈牙利语"),
    "ron": ("Romanian", "罗马尼亚语"),
    "ell": ("Greek", "希腊语"),
    "tur": ("Turkish", "土耳其语"),
    "ara": ("Arabic", "阿拉伯语"),
    "heb": ("Hebrew", "希伯来语"),
    "pes": ("Persian", "波斯语"),
    "hin": ("Hindi", "印地语"),
    "ben": ("Bengali", "孟加拉语"),
    "jpn": ("Japanese", "日语"),
    "kor": ("Korean", "韩语"),
    "vie": ("Vietnamese", "越南语"),
    "tha": ("Thai", "泰语"),
    "ind": ("Indonesian", "印度尼西亚语"),
    "swe": ("Swedish", "瑞典语"),
    "dan": ("Danish", "丹麦语"),
    "nob": ("Norwegian Bokmål", "书面挪威语"),
    "fin": ("Finnish", "芬兰语"),
    "epo": ("Esperanto", "世界语"),
    "lat": ("Latin", "拉丁语"),
    "ber": ("Berber", "柏柏尔语"),
    "kab": ("Kabyle", "卡拜尔语"),
    "tlh": ("Klingon", "克林贡语"),
}
_CODE = re.compile(r"(?<![a-z])([a-z]{3})(?![a-z])")


def name_of(code: str, lang: str = "en") -> str:
    """A language's name in the UI language lang ('en' or 'zh'); the code itself when it is not in the table, and
    "the other language" for OTHER."""
    if code == OTHER:
        return "另一种语言" if lang == "zh" else "the other language"
    names = LANGUAGES.get(code)
    if names is None:
        return code
    return names[1] if lang == "zh" else names[0]


def codes_in_name(name: str) -> list[str]:
    """The known ISO 639-3 codes in a file name, in order (`fra-eng.txt` → ['fra', 'eng'], `deu.txt` → ['deu'])."""
    stem = PurePath(name).name.lower()
    return [code for code in _CODE.findall(stem) if code in LANGUAGES]


def tatoeba_languages(name: str) -> tuple[str, str]:
    """The languages of a Tatoeba download's two sentence columns, English first, as its file name says: (ENGLISH,
    the other code), or (ENGLISH, OTHER) when the name names no other known language."""
    other = next((code for code in codes_in_name(name) if code != ENGLISH), OTHER)
    return ENGLISH, other
