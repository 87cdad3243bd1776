"""The Data page's columns: which column of a loaded file is the source, the target, and what each other one holds,
and one control that swaps the direction of any dataset. The rules are transformer.columns'; this module keeps the
file and its roles in session state and draws the choices.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from transformer.columns import (
    ROLES,
    SKIP_REASONS,
    PairsFile,
    TakenPairs,
    assign,
    credit,
    infer_roles,
    read_file,
    swap,
    take_pairs,
)
from transformer.credits import Credits, credits_of
from transformer.languages import ENGLISH, name_of
from transformer.text import markdown

from .datasets import DATASET_ROLES, DATASETS, dataset_credit, dataset_pairs, dataset_rows
from .export import hint, table, text
from .i18n import t
from .session import session_memo, set_pairs

PREVIEW_ROWS = 5  # rows of the file shown under its column roles
LINES_SHOWN = 20  # line numbers listed per kind of row left out; the rest are counted
CONTRIBUTORS_NAMED = 30  # contributors named in the credit line; the table lists them all
ROLE_SOURCES = ("tatoeba", "header", "inferred")  # how the roles of a file's columns were found, as the page says


@dataclass(frozen=True)
class LoadedFile:
    """A file loaded on the Data page, the roles of its columns, and the pairs those roles take."""

    file: PairsFile
    roles: tuple[str, ...]
    taken: TakenPairs


def load_file(data: bytes, name: str) -> LoadedFile:
    """A file read with the roles infer_roles gives its columns (a DataError when it cannot be read)."""
    found = read_file(data, name)
    roles = infer_roles(found)
    return LoadedFile(found, roles, take_pairs(found, roles))


def keep_file(loaded: LoadedFile) -> None:
    """Make loaded this tab's file, and draw its role choosers with its roles."""
    ss = st.session_state
    ss.pairs_file = loaded
    for i, role in enumerate(loaded.roles):
        ss[f"data_role_{i}"] = role


def current_file() -> LoadedFile | None:
    """The loaded file, while the table holds its pairs (an edit, an added row or another dataset ends that)."""
    loaded = st.session_state.get("pairs_file")
    if loaded is None or st.session_state.get("pairs") != loaded.taken.pairs:
        return None
    return loaded


def data_credit(pairs: list[tuple[str, str]]) -> tuple[str, Credits | None]:
    """The line crediting the file's attribution column and its credits whole (each row's sentence numbers and
    contributors) when pairs are that file's pairs, else ('', None)."""
    loaded = st.session_state.get("pairs_file")
    if loaded is None or list(pairs) != loaded.taken.pairs:
        return "", None
    return credit(loaded.taken.extra.get("attribution", [])), file_credits(loaded)


def file_credits(loaded: LoadedFile) -> Credits | None:
    """The credits whole of a loaded file's attribution column (None without one), worked out once per file and
    roles: the page reruns on every click."""
    cells = loaded.taken.extra.get("attribution", [])
    return session_memo("file_credits", (loaded,), lambda: credits_of(cells, loaded.taken.lines) if cells else None)


def _retake(roles: tuple[str, ...]) -> None:
    loaded = st.session_state.pairs_file
    taken = take_pairs(loaded.file, roles)
    keep_file(LoadedFile(loaded.file, roles, taken))
    set_pairs(taken.pairs)


def _choose_role(column: int) -> None:
    """A role chosen for a column: the column that had it gives it up (the source and target swap)."""
    ss = st.session_state
    loaded, chosen = ss.pairs_file, ss[f"data_role_{column}"]
    roles = assign(loaded.roles, column, chosen)
    # a source or target column keeps its role when no other column has the one chosen: said once, as an error
    ss.data_role_refused = (column, loaded.roles[column]) if roles[column] != chosen else None
    _retake(roles)


def swap_direction() -> None:
    """The other direction: the file's source and target columns exchanged, else the dataset's sides (the tutorial
    pairs and the corpus keep the direction when another dataset is chosen; the learner's own pairs are turned)."""
    ss = st.session_state
    if current_file() is not None:
        _retake(swap(ss.pairs_file.roles))
    elif ss.get("data_dataset") in DATASETS[:2]:
        ss.data_swapped = not ss.get("data_swapped", False)
        set_pairs(dataset_pairs(ss.data_dataset))
    else:
        set_pairs([(target, source) for source, target in ss.pairs])


def _lines(lines: list[int], L: str) -> str:
    shown = t("data.line_separator", L).join(f"{n:,}" for n in lines[:LINES_SHOWN])
    return shown + (" …" if len(lines) > LINES_SHOWN else "")


def _language(L: str, code: str, script: str) -> str:
    """A column's language: its name when the file says it (a Tatoeba file's name), else its script alone (Latin
    letters are never called English on their script alone); script: one of transformer.columns.SCRIPTS, or ''."""
    return name_of(code, L) if code else t(f"data.language.{script or 'other'}", L)


def credits_frame(credits: Credits, L: str) -> pd.DataFrame:
    """Every row's credit as a table: its file line, then each column's sentence number and contributor."""
    headings = [t("data.credits_line", L)]
    for n in (1, 2):
        headings += [t("data.credits_sentence", L, n=n), t("data.credits_by", L, n=n)]
    return pd.DataFrame(credits.table(), columns=headings)


def credits_section(credits: Credits, L: str) -> None:
    """The credits whole, as CC-BY asks: the contributors with their sentence counts, and every row's sentence
    numbers and contributors, in a table that scrolls."""
    people = credits.by_contributor()
    names = ", ".join(f"{markdown(who)} ({n:,})" for who, n in people[:CONTRIBUTORS_NAMED])
    more = len(people) - CONTRIBUTORS_NAMED
    line = t("data.credits_people", L, n=f"{len(people):,}", names=names)
    text(line + (" " + t("data.credits_more", L, n=f"{more:,}") if more > 0 else ""), "caption")
    with st.expander(t("data.credits_table", L, n=f"{len(credits.rows):,}")):
        frame = session_memo("credits_frame", (credits, L), lambda: credits_frame(credits, L))
        table(frame, hide_index=True, width="stretch", key="data_credits_table")


def _direction_row(L: str, line: str) -> None:
    """The direction the table is read in (line: its words) and the swap button beside it."""
    c1, c2 = st.columns([3, 1], vertical_alignment="center")
    with c1:
        text(line, "caption")
    c2.button(t("data.swap", L), key="data_swap", on_click=swap_direction, help=t("data.swap_help", L))


def _dataset_columns(L: str, name: str, swapped: bool) -> None:
    """A built-in dataset's columns as a file's are shown: what each holds (its header names it), the direction and
    the swap button, its first rows under their roles, and where its pairs come from."""
    roles, cells, total = dataset_rows(name, PREVIEW_ROWS)
    if swapped:  # the swap exchanges the roles of the Chinese and the English columns, as it does a file's
        roles = swap(roles)
    text(f"**{t(f'data.columns_dataset.{name}', L, n=len(roles))}**")
    text(t("data.dataset_header", L), "caption")
    _direction_row(L, t("data.direction_en_zh" if swapped else "data.direction_zh_en", L))
    headings = [f"{i + 1} · {t(f'role.{r}', L)}" for i, r in enumerate(roles)]
    # the index named, so the table's corner header says what the numbers are (an empty header is lost to a reader)
    preview = pd.DataFrame(cells, columns=headings, index=pd.Index(range(1, len(cells) + 1), name=t("table.row", L)))
    table(preview, static=True, hide_index=False, width="stretch")  # five rows whose long links wrap, none scrolled
    text(t("data.preview_dataset", L, n=len(cells), total=f"{total:,}"), "caption")
    text(t("data.credit", L, credit=dataset_credit(L, name)), "markdown")


def draw_columns(L: str) -> None:
    """The direction of the table and its swap button; for a built-in dataset, its columns and their roles as a file's
    are shown (dataset_rows) and where its pairs come from; for a loaded file: its format, a role chooser per column,
    its first rows under their roles, the rows left out and repeated, and the credit of its attribution."""
    loaded = current_file()
    if loaded is None:
        name = st.session_state.get("data_dataset")
        if name not in DATASET_ROLES:  # the learner's own typed pairs: the table's two columns
            _direction_row(L, t("data.direction_own", L))
            return
        swapped = bool(st.session_state.get("data_swapped"))
        with st.container(border=True):
            _dataset_columns(L, name, swapped)
        return
    f, taken = loaded.file, loaded.taken
    with st.container(border=True):
        text(f"**{t('data.columns', L, name=markdown(f.name), n=f.columns)}**")
        how = "tatoeba" if f.kind == "tatoeba" else "header" if f.header is not None else "inferred"
        other = next((code for code in f.languages if code and code != ENGLISH), "")
        text(t(f"data.kind.{how}", L, other=_language(L, other, "")), "info" if how == "tatoeba" else "caption")
        cells = st.columns(min(f.columns, 5))
        for i in range(f.columns):
            with cells[i % len(cells)]:
                st.selectbox(
                    t("data.column", L, n=i + 1),
                    ROLES,
                    key=f"data_role_{i}",
                    persist_state="session",
                    format_func=lambda r: t(f"role.{r}", L),
                    on_change=_choose_role,
                    args=(i,),
                )
        refused = st.session_state.pop("data_role_refused", None)
        if refused is not None:
            column, role = refused
            hint(t("data.role_kept", L, n=column + 1, role=t(f"role.{role}", L)), "error")
        source, target = loaded.roles.index("source"), loaded.roles.index("target")
        languages = {
            side: _language(L, code, script)
            for side, code, script in zip(("source", "target"), taken.codes, taken.languages)
        }
        _direction_row(L, t("data.direction_file", L, s=source + 1, t=target + 1, **languages))
        headings = [f"{i + 1} · {t(f'role.{r}', L)}" for i, r in enumerate(loaded.roles)]
        preview = pd.DataFrame(list(f.rows[:PREVIEW_ROWS]), columns=headings, index=list(f.lines[:PREVIEW_ROWS]))
        table(preview, hide_index=False, width="stretch", key="data_columns_preview")
        text(t("data.preview_caption", L, n=min(PREVIEW_ROWS, len(f.rows)), total=f"{len(f.rows):,}"), "caption")
        for reason in SKIP_REASONS:
            lines = taken.lines_of(reason)
            if lines:
                text(t(f"data.left_out.{reason}", L, n=f"{len(lines):,}", lines=_lines(lines, L)), "warning")
        if taken.duplicates:
            text(t("data.repeated", L, n=f"{taken.duplicates:,}"), "caption")
        cells = taken.extra.get("attribution", [])
        line = credit(cells)
        if line:
            text(t("data.credit", L, credit=markdown(line)), "markdown")
        credits = file_credits(loaded)
        if credits is not None:
            credits_section(credits, L)
