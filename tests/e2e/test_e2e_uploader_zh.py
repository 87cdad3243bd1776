"""The file uploader in the Chinese UI says in Chinese what Streamlit writes in English (issue 32 §4): the text over it
while a file is dragged there, its file input's accessible name, and a refused file's chip (its message, its
"Error:", its button's name) and the chip's tooltip (ui/browser.py, UPLOADER_WORDS)."""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import expect, no_exception, open_app

pytestmark = pytest.mark.e2e

# every aria-label and title inside an element, and every text a reader sees there (not a material icon's name)
WORDS = """element => {
  const out = [];
  for (const each of [element, ...element.querySelectorAll("*")])
    for (const name of ["aria-label", "title"]) if (each.getAttribute(name)) out.push(each.getAttribute(name));
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    if (n.data.trim() && n.parentElement.checkVisibility({visibilityProperty: true})
        && !n.parentElement.closest('[data-testid="stIconMaterial"]')) out.push(n.data.trim());
  return out;
}"""
# what Streamlit 1.67 writes in English in and around an uploader (the app's own label names Tatoeba/Anki files)
ENGLISH = re.compile(
    r"Drag and drop|file upload|not allowed|or smaller|too small|Only one|Unexpected|^Error|^Remove|^Cancel|retry"
    r"|per file|^Upload"
)


def test_the_chinese_uploader_says_its_drag_text_input_name_and_refusal_in_chinese(page, app_url, tmp_path):
    open_app(page, f"{app_url}/?lang=zh")
    uploader = page.get_by_test_id("stFileUploader").first
    uploader.scroll_into_view_if_needed()
    file_input = uploader.get_by_test_id("stFileUploaderDropzoneInput")
    expect(file_input).to_have_attribute("aria-label", "上传文件")

    zone = uploader.get_by_test_id("stFileUploaderDropzone")
    dragged = page.evaluate_handle(
        "() => { const d = new DataTransfer(); d.items.add(new File(['我\\tI'], 'pairs.tsv')); return d; }"
    )
    zone.dispatch_event("dragenter", {"dataTransfer": dragged})
    expect(zone).to_contain_text("把文件拖放到这里")
    assert not [w for w in zone.evaluate(WORDS) if ENGLISH.search(w)], zone.evaluate(WORDS)
    zone.dispatch_event("dragleave", {"dataTransfer": dragged})
    expect(zone).not_to_contain_text("把文件拖放到这里")

    path = tmp_path / "page.html"
    path.write_text("<p>x</p>", encoding="utf-8")
    file_input.set_input_files(str(path))  # a type the uploader does not take: refused in the browser
    chip = uploader.get_by_test_id("stFileChip")
    expect(chip).to_contain_text("不接受 text/html 类型的文件。")
    expect(chip).to_contain_text("错误：")
    said = chip.evaluate(WORDS)
    assert not [w for w in said if ENGLISH.search(w)], said
    assert "移除 page.html" in said, said  # the chip's remove button's name
    chip.hover()
    tooltip = page.get_by_role("tooltip").filter(has_text="text/html")
    expect(tooltip).to_contain_text("不接受 text/html 类型的文件。")
    no_exception(page)
