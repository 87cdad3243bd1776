"""The lesson sheet's size (docs/presenter.md): the plotly package's plotly.js as it is, gzip-compressed,
LZMA-compressed (ui/packing.py's settings), and written as the sheet writes it (LZMA, seven bits to a character;
before: gzip and base64), with the CPU seconds of the LZMA compression; then (unless --skip-pages) every page's sheet
for the bundled model, built as tests/app/test_sheet_pages.py builds it (AppTest, no browser), against ui/sheet.py's
SHEET_BYTES.

    .venv/bin/python benchmarks/lesson_sheet.py
    .venv/bin/python benchmarks/lesson_sheet.py --skip-pages   # plotly.js only, a few seconds
"""

from __future__ import annotations

import argparse
import base64
import gzip
import lzma
import time

import _root  # noqa: F401  (the checkout on sys.path)


def _mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


def plotly_figures() -> None:
    """plotly.js raw, gzip, LZMA, and as text."""
    import plotly

    from ui.packing import FILTERS, as_text

    data = plotly.offline.get_plotlyjs().encode()
    gz = gzip.compress(data, 9)
    started = time.process_time()
    packed = lzma.compress(data, format=lzma.FORMAT_ALONE, filters=FILTERS)
    seconds = time.process_time() - started
    print(f"plotly.js {_mb(len(data))}; gzip {_mb(len(gz))}, as base64 {_mb(len(base64.b64encode(gz)))}")
    print(f"LZMA {_mb(len(packed))} ({seconds:.1f} s of CPU), as seven-bit text {_mb(len(as_text(packed).encode()))}")


def page_sheets() -> None:
    """Every page's sheet for the bundled model, in bytes."""
    from tests.apptest_helpers import PAGES, open_app
    from ui.sheet import SHEET_BYTES, lesson_sheet_html

    for page in PAGES:
        at = open_app("en", page)
        html = lesson_sheet_html(at.session_state["_lesson_sheet"], [], "en")
        print(f"{page}: {_mb(len(html.encode()))} (bound {_mb(SHEET_BYTES)})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-pages", action="store_true", help="plotly.js only, not every page's sheet")
    args = parser.parse_args()
    plotly_figures()
    if not args.skip_pages:
        page_sheets()


if __name__ == "__main__":
    main()
