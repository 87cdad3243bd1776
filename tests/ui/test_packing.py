"""ui.packing: bytes written as text for a self-contained HTML file (the lesson sheet's plotly.js and figures). The
browser's side, UNPACK_JS, is run on the same cases in tests/e2e/test_e2e_sheet.py."""

from __future__ import annotations

import lzma
import random

import pytest

from ui import packing

# groups that need the wide form (NUL, CR, "<" in each of the seven-bit positions), one at the very end, and plain data
CASES = {
    "empty": b"",
    "one byte": b"A",
    "unsafe bytes": bytes([0x00, 0x0D, 0x3C]) * 40,
    "unsafe at the end": b"\x00",
    "every byte": bytes(range(256)) * 3,
    "random": random.Random(7).randbytes(5000),
    "text": "我 喜 欢 你 → I love you . <script>\r\n".encode() * 200,
}


@pytest.mark.parametrize("data", CASES.values(), ids=CASES.keys())
def test_bytes_come_back_whole_from_text_an_html_parser_leaves_alone(data):
    text = packing.as_text(data)
    assert not {"<", "\r", "\x00"} & set(text)  # read as they are inside <script type="text/plain">
    assert packing.from_text(text, len(data)) == data
    packed = packing.pack(data)
    assert packing.unpack(packed.text, packed.packed, packed.size) == data


def test_the_text_is_eight_sevenths_of_the_bytes_in_utf8():
    data = random.Random(1).randbytes(70_000)
    assert 8 / 7 <= len(packing.as_text(data).encode()) / len(data) < 8 / 7 * 1.03  # base64 would be 4/3


def test_an_element_is_found_and_read_back_in_a_page():
    a, b = packing.pack(b'{"x": "</script>"}'), packing.pack("图 1".encode())
    figure = 'class="figure-data"'
    page = f"<body>{a.element(figure)}<p>x</p>{b.element(figure)}</body>"
    assert page.count("</script>") == 2
    assert packing.read(page, figure) == [b'{"x": "</script>"}', "图 1".encode()]
    with pytest.raises(ValueError, match="unpacks to 18 bytes, not 5"):
        packing.unpack(a.text, a.packed, 5)


def test_a_large_files_lzma_form_is_kept_and_a_damaged_copy_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    data = b"plotly.js stands in " * 1000
    made = packing.packed_once(data)
    (kept,) = (tmp_path / "transformer-lessons").glob("*.lzma")
    assert lzma.decompress(kept.read_bytes()) == data and packing.unpack(made.text, made.packed, made.size) == data
    kept.write_bytes(lzma.compress(b"something else", format=lzma.FORMAT_ALONE))  # another file, or a damaged one
    again = packing.packed_once(data)
    assert packing.unpack(again.text, again.packed, again.size) == data
    assert lzma.decompress(kept.read_bytes()) == data  # written again
