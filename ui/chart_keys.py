"""Keyboard twins of the charts a click acts on: beside a chart that opens a head or marks a cell when clicked, a
control Tab reaches that does the same (the arrow keys or typing choose in it), so nothing a click on a chart does is
for the mouse alone. The pages whose charts already have such a control beside them (the Decoding page's token to
force, the block and cell pickers of Inside the model) need none of these."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from .i18n import t


def new_click(key: str, picked) -> bool:
    """Whether picked (what the element with this key has selected now) is a click not yet taken.

    A selection stays in session state until its element is drawn anew, so it is taken once: it is remembered with
    what the element showed when it was clicked (ss["_KEY_drawn"], e.g. the marks of the heatmap), and a second
    click on the same point of a changed figure counts again."""
    ss = st.session_state
    seen, now = f"_{key}_seen", (picked, ss.get(f"_{key}_drawn"))
    is_new = picked is not None and now != ss.get(seen)
    ss[seen] = now
    return is_new


def toggled(marks: Sequence, cell: tuple[int, int]) -> list[tuple[int, int]]:
    """marks with cell added, or taken away when it is there: what a click on a cell of the marking chart does."""
    marks = [tuple(m) for m in marks]
    return [m for m in marks if m != cell] if cell in marks else [*marks, cell]


def head_twin(
    L: str,
    label: str,
    key: str,
    shape: tuple[int, int],
    chosen: tuple[int, int] | None,
    on_pick: Callable[[int, int], None],
) -> None:
    """A list labelled `label` of every head (layer · head) of a model of shape (layers, heads), the open one chosen
    (none while no head is open): choosing a head calls on_pick(layer, head), as a click on that head in the chart
    beside it does."""
    n_layers, n_heads = shape
    ss = st.session_state
    ss[key] = None if chosen is None else chosen[0] * n_heads + chosen[1]  # the open head, however it was opened

    def picked() -> None:
        if ss[key] is not None:
            on_pick(*divmod(ss[key], n_heads))

    st.selectbox(
        label,
        list(range(n_layers * n_heads)),  # row r: head r % n_heads of layer r // n_heads, as the statistics table
        key=key,
        persist_state="session",  # set anew on every run, kept as every input of the app is
        format_func=lambda r: t("keys.head_option", L, layer=r // n_heads + 1, head=r % n_heads + 1),
        placeholder=t("keys.head_placeholder", L),
        on_change=picked,
        help=t("keys.open_head_help", L),
    )


def cell_twin(
    L: str, key: str, cells: list[tuple[int, int]], marks: Sequence, cell_text: Callable[[tuple[int, int]], str]
) -> None:
    """A list of the chart's cells (cell_text names one, a marked one ticked): choosing a cell marks it, or unmarks a
    marked one, in st.session_state.attn_marks, as a click on that cell does; the list is empty again afterwards."""
    ss = st.session_state
    ss[key] = None  # an action, not a value: every choice toggles one cell
    marked = {tuple(m) for m in marks}

    def picked() -> None:
        if ss[key] is not None:
            ss.attn_marks = toggled(ss.get("attn_marks", []), tuple(ss[key]))

    st.selectbox(
        t("keys.mark_cell", L),
        cells,
        key=key,
        persist_state="session",  # set anew on every run, kept as every input of the app is
        format_func=lambda c: ("✓ " if tuple(c) in marked else "") + cell_text(c),
        placeholder=t("keys.cell_placeholder", L),
        on_change=picked,
        help=t("keys.mark_cell_help", L),
    )
