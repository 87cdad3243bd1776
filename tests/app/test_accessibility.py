"""What the app writes reads without an emoji font, and its heatmaps read in grayscale and to every learner."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import emoji
import numpy as np
import plotly.colors
import pytest
import torch

from tests import source
from tests.apptest_helpers import opened_page
from ui.strings import STRINGS
from viz import masks
from viz.attention import attention_figure
from viz.common import ATTN_COLORS, CELL_TEXT, ENTROPY_COLORS, NO_BREAK, SIGNED_COLORS
from viz.heads import head_stat_figure
from viz.trace import step_figure

REPO = Path(__file__).resolve().parents[2]


def app_sources() -> list[Path]:
    """Every file whose strings the app shows: the entry point, the pages, ui/ and the figure builders."""
    return [REPO / "app.py", *(path for d in ("pages", "ui", "viz") for path in sorted((REPO / d).glob("*.py")))]


def needs_emoji_font(text: str) -> list[str]:
    """The emoji in text that only an emoji font draws: anything in emoji presentation (a default emoji such as 🧪,
    or any character followed by U+FE0F) and pictographs outside the Basic Multilingual Plane. The text-style
    symbols of the BMP that ordinary text fonts carry (▶ ◀ © ™) pass."""
    found = []
    for match in emoji.emoji_list(text):
        seq = match["emoji"]
        text_style = emoji.EMOJI_DATA.get(seq, {}).get("status") == emoji.STATUS["unqualified"]
        if not text_style or any(ord(c) > 0xFFFF for c in seq):
            found.append(seq)
    return found


def literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal in a Python file, f-strings' literal parts included."""
    return [(n.lineno, n.value) for n in source.nodes(path) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def test_the_emoji_check_tells_emoji_from_text_symbols():
    assert needs_emoji_font("🌐") == ["🌐"]
    assert needs_emoji_font("Train 🏋️") == ["🏋️"]
    assert needs_emoji_font("〰️") == ["〰️"]  # a BMP character asked for in emoji presentation
    assert needs_emoji_font("🏋") == ["🏋"]  # text-default, but no text font has it
    assert needs_emoji_font("◀ Previous · Next ▶ ✓ ✗ ▲ −∞ √d_k × →") == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_ui_string_needs_an_emoji_font(lang):
    found = {key: needs_emoji_font(texts[lang]) for key, texts in STRINGS.items()}
    assert {key: seqs for key, seqs in found.items() if seqs} == {}


@pytest.mark.parametrize("path", app_sources(), ids=lambda p: str(p.relative_to(REPO)))
def test_no_label_icon_or_text_in_the_app_code_needs_an_emoji_font(path):
    found = [(line, text[:60], needs_emoji_font(text)) for line, text in literals(path) if needs_emoji_font(text)]
    assert found == []


def test_every_page_in_the_navigation_has_a_material_icon_and_a_plain_title():
    tree = ast.parse((REPO / "app.py").read_text(encoding="utf-8"))
    pages = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "Page"]
    assert len(pages) == 8
    for call in pages:
        keywords = {k.arg: k.value for k in call.keywords}
        icon = keywords["icon"]
        assert isinstance(icon, ast.Constant) and icon.value.startswith(":material/"), ast.unparse(call)
        title_key = keywords["title"].args[0].value  # t("nav.data", L)
        for text in STRINGS[title_key].values():
            assert text.strip() and not needs_emoji_font(text), title_key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_language_switch_is_labelled_in_words_of_both_languages(lang):
    at = opened_page(lang)
    label = at.sidebar.radio(key="lang").label
    assert "Language" in label and "语言" in label and not needs_emoji_font(label)


# ---------------------------------------------------------------- heatmap colours

SCALES = {"attention weights": ATTN_COLORS, "signed values": SIGNED_COLORS, "entropy": ENTROPY_COLORS}


def wcag_luminance(rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0..255 channels)."""
    c = [v / 255 for v in rgb]
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def wcag_contrast(a, b) -> float:
    hi, lo = sorted((wcag_luminance(a), wcag_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def sample(colorscale, t: float) -> tuple[float, float, float]:
    """The colour of a plotly scale (a name or its stops) at t in 0..1, through plotly's own sampling."""
    if isinstance(colorscale, str):
        colorscale = plotly.colors.get_colorscale(colorscale)
    stops = [[p, c if c.startswith("rgb") else f"rgb{plotly.colors.hex_to_rgb(c)}"] for p, c in colorscale]
    return plotly.colors.unlabel_rgb(plotly.colors.sample_colorscale(stops, [t])[0])


@pytest.mark.parametrize("what", list(SCALES))
def test_every_heatmap_scale_reads_in_grayscale(what):
    """Lightness rises steadily along the scale and spans most of black to white, so the order of values (and for
    signed values, their sign: dark below 0, light above) survives printing in grayscale and colour blindness."""
    lum = [wcag_luminance(sample(SCALES[what], t)) for t in np.linspace(0, 1, 21)]
    steps = np.diff(lum)
    assert (steps > 0).all() or (steps < 0).all(), lum
    assert (max(lum) + 0.05) / (min(lum) + 0.05) >= 10


def test_the_figures_take_their_colour_scales_from_viz_common_only():
    named = {n.lower() for n in plotly.colors.named_colorscales()}
    for path in sorted((REPO / "viz").glob("*.py")):
        if path.name == "common.py":
            continue
        found = [(line, s) for line, s in literals(path) if s.lower().removesuffix("_r") in named]
        assert found == [], path.name


def written_cells(fig):
    """(heatmap, [(row, col, text colour, text)]) for each heatmap with numbers in its cells, those its CELL_TEXT copy
    writes over it included (the −∞ overlays, white on one dark colour, aside)."""
    data = list(fig.data)
    for k, trace in enumerate(data):
        if trace.type != "heatmap" or trace.text is None or trace.meta in ("overlay", CELL_TEXT):
            continue
        layers = [trace] + [data[k + 1]] * (k + 1 < len(data) and data[k + 1].meta == CELL_TEXT)
        cells = []
        for layer in layers:
            for i, row in enumerate(layer.text):
                for j, value in enumerate(row):
                    if value and str(value).strip():
                        cells.append((i, j, layer.textfont.color if layer.textfont else None, value))
        yield trace, cells


def cell_rgb(trace, value: float) -> tuple[float, float, float]:
    """The colour plotly gives a cell: the trace's scale at the value, between zmin and zmax when both are set,
    else over the data's range (made symmetric around zmid when that is set)."""
    z = np.array(trace.z, dtype=float)
    if trace.zmin is not None and trace.zmax is not None:
        lo, hi = trace.zmin, trace.zmax
    elif trace.zmid is not None:
        half = np.nanmax(np.abs(z - trace.zmid))
        lo, hi = trace.zmid - half, trace.zmid + half
    else:
        lo, hi = np.nanmin(z), np.nanmax(z)
    return sample(trace.colorscale, (value - lo) / (hi - lo))


def _stats(values):
    return [SimpleNamespace(layer=i // 4, head=i % 4, entropy=v, same=v) for i, v in enumerate(values)]


RAMP = np.linspace(0, 1, 16).reshape(4, 4)  # every shade of a 0..1 scale
SIGNED_RAMP = torch.linspace(-3, 3, 16).view(4, 4)  # every shade of a scale centred on 0
ABCD, WXYZ = list("abcd"), list("wxyz")
FIGURES = {  # name: (figure, the cells under a padding band)
    "attention": (lambda: attention_figure(RAMP, ABCD, WXYZ), set()),
    "attention with padding": (
        lambda: attention_figure(RAMP, ABCD, WXYZ, pad_rows=[3], pad_cols=[3]),
        {(i, j) for i in range(4) for j in range(4) if 3 in (i, j)},
    ),
    "scores": (lambda: masks.mask_effect_figures(RAMP * 8 - 4, None, RAMP, ABCD, WXYZ)[0], set()),
    "entropy": (lambda: head_stat_figure(_stats(np.linspace(0, 2.2, 8)), "entropy"), set()),
    "head statistic": (lambda: head_stat_figure(_stats(np.linspace(0, 1, 8)), "same"), set()),
    "trace values": (lambda: step_figure(SIGNED_RAMP, ("src_len", "d_model"), [ABCD, None]), set()),
}  # fmt: skip


@pytest.mark.parametrize("name", list(FIGURES))
def test_every_number_written_in_a_cell_reads_on_that_cell(name):
    """Black or white, whichever the cell's colour needs: at least WCAG's 4.5:1 for text on every cell. A padding
    band dims a number and its cell alike on purpose; under it the number is still black or white."""
    build, padding = FIGURES[name]
    found = list(written_cells(build()))
    assert found, "no heatmap writes numbers in its cells"
    for trace, cells in found:
        for i, j, ink, value in cells:
            assert ink in ("#000000", "#ffffff"), f"cell ({i}, {j}) = {value} has no text colour of its own"
            if (i, j) not in padding:
                cell = cell_rgb(trace, float(np.array(trace.z, dtype=float)[i, j]))
                ratio = wcag_contrast(plotly.colors.hex_to_rgb(ink), cell)
                assert ratio >= 4.5, (name, i, j, value, ink, cell, round(ratio, 2))


@pytest.mark.parametrize("name", list(FIGURES))
def test_cell_numbers_take_no_markup_so_plotly_sizes_them_as_plain_numbers(name):
    """plotly.js sizes a heatmap's cell text by the length of its longest text, markup included: a colour <span> made
    the numbers 1 px high. The black and the white numbers are written by the heatmap and a transparent copy drawn
    just above it, each holding no-break spaces where the other writes: the same lengths, cell for cell, so both
    get the size of the plain numbers; each cell's number is written once."""
    data = list(FIGURES[name][0]().data)
    assert any(trace.meta == CELL_TEXT for trace in data)  # every shade of a scale: black and white numbers both
    for k, trace in enumerate(data):
        if trace.type != "heatmap" or trace.text is None:
            continue
        assert all("<" not in str(v) for row in trace.text for v in row), (name, trace.text)
        if trace.meta != CELL_TEXT:
            continue
        below = data[k - 1]
        assert below.type == "heatmap" and below.meta != CELL_TEXT and below.z == trace.z
        assert (trace.x, trace.y, trace.xaxis, trace.yaxis) == (below.x, below.y, below.xaxis, below.yaxis)
        assert trace.showscale is False and trace.hoverinfo == "skip"
        assert {c for _, c in trace.colorscale} == {"rgba(0,0,0,0)"}  # the colours are the heatmap's below
        for top, bottom in zip(trace.text, below.text, strict=True):
            for a, b in zip(top, bottom, strict=True):
                assert len(a) == len(b)
                assert sorted([a.strip(NO_BREAK) == "", b.strip(NO_BREAK) == ""]) == [False, True], (a, b)
