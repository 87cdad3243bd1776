"""The tab's session: its first run (init_session, page_setup), its language, its model and table (current,
set_pairs), the dataset it shows with the recipe its settings follow, and the values worked out once per table
(usable_pairs, chosen_tokenizer, pairs_summary) with the one memo helper, session_memo."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn, TypeVar

import streamlit as st
import torch

from transformer.bpe import Bpe, check_vocab_size, learn_bpe
from transformer.data import PairsSummary, summarize_pairs, usable
from transformer.errors import DataError

from .compat import leave_pages_directory_mode, resumed_session_id, session_id
from .datasets import (
    DEFAULT_DATASET,
    RECIPE_KEYS,
    RECIPES,
    SETTINGS,
    dataset_named,
    dataset_pairs,
    offered_summary,
    own_recipe,
)
from .model_cache import CurrentModel, bundled_model

T = TypeVar("T")
MEMO_PREFIX = "_memo_"  # session_memo(name, …) keeps (key, value) in st.session_state[MEMO_PREFIX + name]


def session_memo(name: str, key: tuple, compute: Callable[[], T]) -> T:
    """compute() once per key for this tab: kept in its session state under name (one value a name; names do not
    collide), and computed again only when key changes, so a page that reruns on every click does not redo it. Keys
    are compared with ==, which takes an item that is the very same object as equal without looking inside (a table
    of 20,000 pairs that was not replaced costs nothing): a key holds values that are replaced, never changed in place
    (the tab's pairs are: set_pairs)."""
    ss = st.session_state
    memo = ss.get(MEMO_PREFIX + name)
    if memo is None or memo[0] != key:
        memo = ss[MEMO_PREFIX + name] = (key, compute())
    elif any(kept is not given for kept, given in zip(memo[0], key)):  # equal but not the same: the next run
        memo = ss[MEMO_PREFIX + name] = (key, memo[1])  # finds these the same at once, without looking inside
    return memo[1]


def memo_key(name: str) -> tuple | None:
    """The key session_memo(name, …) last computed its value for, or None."""
    memo = st.session_state.get(MEMO_PREFIX + name)
    return None if memo is None else memo[0]


# Every input widget of the app is drawn with persist_state="session" (a test checks): Streamlit then keeps its value
# while the widget is not drawn, across page switches, and when a page switch follows a fragment's rerun (the job's
# progress, every second). Before, every kept value was written back at the start of each full run; that missed the
# page switch after a fragment's rerun (Streamlit drops, before the new page runs, every value whose widget the
# browser did not send), and a value written by the script is pushed to the browser over a newer one the learner set
# while the run was on its way.


class PageEnd(Exception):
    """Raised by end_page(): the page has drawn all it will this run (app.py catches it and finishes the run)."""


def end_page() -> NoReturn:
    """End the page's script here, as st.stop() would, but let app.py finish the run: write the view the page settled
    on to the URL and draw Share and export (after st.stop() nothing more can be drawn)."""
    raise PageEnd


def sync_dataset() -> None:
    """Once per run: pairs that are no longer the chosen dataset's (edited, added, uploaded, from a link) are the
    learner's own, and the learner's own pairs are kept so that choosing another dataset never loses them."""
    ss = st.session_state
    ss.data_dataset = dataset_named(ss.get("data_dataset")) or ss.get("dataset_shown") or "own"
    if ss.data_dataset != "own" and ss.pairs != dataset_pairs(ss.data_dataset):
        ss.data_dataset = "own"
    if ss.data_dataset == "own":
        ss.own_pairs = ss.pairs
        fit_own_recipe()
    ss.dataset_shown = ss.data_dataset


def _recipe_in_force() -> dict:
    """The recipe the settings follow now: a dataset's, or the one fitted to the learner's own pairs."""
    ss = st.session_state
    if ss.get("recipe_of") == "own" and "own_recipe" in ss:
        return ss.own_recipe
    return RECIPES.get(ss.get("recipe_of", DEFAULT_DATASET), RECIPES[DEFAULT_DATASET])


def fit_own_recipe() -> None:
    """The learner's own pairs train by steps, not epochs: the settings the learner has not set follow own_recipe for
    the number of pairs now (30 pairs get 200 epochs of 2 steps, not the corpus's 20 of 1); the values the learner set
    are kept, and ss.recipe_note says which (as choose_dataset does)."""
    ss = st.session_state
    new = own_recipe(len(usable_pairs()))
    old = _recipe_in_force()
    if old == new and ss.get("recipe_of") == "own":
        return
    ss.own_recipe = new
    _bring_to_recipe("own", old, new)


def _bring_to_recipe(name: str, old: dict, new: dict) -> None:
    """Set each training setting still at the old recipe's value to the new recipe's (name's); a value the learner set
    is kept. ss.recipe_note says what was applied and what was kept (the Train page shows it)."""
    ss = st.session_state
    applied, kept = {}, {}
    for key in RECIPE_KEYS:
        value = ss.get(key, SETTINGS[key])
        if value == old[key]:
            ss[key] = new[key]
            applied[key] = new[key]
        elif value != new[key]:
            kept[key] = (value, new[key])
    ss.recipe_of = name
    ss.recipe_note = (name, applied, kept)


def choose_dataset(name: str) -> None:
    """Show dataset name (the learner's own pairs were kept by sync_dataset), and bring the training settings the
    learner has not set to that dataset's recipe: a value that is not the old dataset's recipe value is the
    learner's and is kept. ss.recipe_note says what was applied and what was kept (the Train page shows it)."""
    ss = st.session_state
    name = dataset_named(name) or ss.get("dataset_shown", DEFAULT_DATASET)
    if name == ss.get("dataset_shown"):  # the same dataset (its label in another language): nothing changes
        ss.data_dataset = name
        return
    old = _recipe_in_force()
    ss.data_dataset = ss.dataset_shown = name
    set_pairs(dataset_pairs(name))
    if name == "own" or name == ss.get("recipe_of", DEFAULT_DATASET):
        return  # the learner's own pairs keep whatever settings are set
    _bring_to_recipe(name, old, RECIPES[name])


def default_language() -> str:
    """'zh' when the browser prefers Chinese, else 'en'."""
    locale = getattr(st.context, "locale", None) or st.context.headers.get("Accept-Language", "") or ""
    return "zh" if locale.lower().startswith("zh") else "en"


def init_session() -> None:
    """Fill session state on a tab's first run (widget values then live on by themselves: see persist_state above)."""
    torch.set_num_threads(1)  # this run's thread: page work is small, and training jobs share the cores
    ss = st.session_state
    if "model" not in ss:
        # a new session for a browser that asked to resume another: the process that held it has gone (restarted, or
        # a classroom's process that hung or died), and everything of the tab's old session with it
        resumed = resumed_session_id(st.context.headers)
        ss.session_lost = resumed is not None and resumed != session_id()
        ss.model = bundled_model()
    if "pairs" not in ss:  # the tab's first run: its dataset (the default one), with that dataset's recipe
        ss.data_dataset = dataset_named(ss.get("data_dataset")) or DEFAULT_DATASET
        ss.pairs = list(dataset_pairs(ss.data_dataset))
        if ss.data_dataset in RECIPES:  # the Train page says which settings are the recipe's
            ss.setdefault("recipe_of", ss.data_dataset)
            applied = {key: value for key, value in RECIPES[ss.recipe_of].items() if key not in ss}
            ss.update(applied)
            ss.setdefault("recipe_note", (ss.recipe_of, applied, {}))
    sync_dataset()
    ss.setdefault("editor_version", 0)
    ss.setdefault("editor_base", list(ss.pairs))
    if "lang" not in ss:  # read from the browser's headers on the tab's first run only
        ss.lang = default_language()
    for key, value in SETTINGS.items():
        ss.setdefault(key, value)


def init_app_session() -> None:
    """init_session for app.py, which runs before the page and tells page_setup it need not repeat it."""
    init_session()
    st.session_state._initialised_by_app = True


def page_setup() -> str:
    """First lines of every page: make sure the session is initialised, return the UI language.

    app.py has normally done this already. But when the first request of a new server names a page (a link to a
    view), Streamlit has not yet seen app.py call st.navigation, so it runs the page script alone, in its old
    multipage mode (a pages/ folder exists), without our sidebar and layout, for every session until someone
    opens the app's root. Then the page switches that mode off and runs again through app.py. (Outside a server,
    AppTest runs app.py, as the server does: tests/apptest_helpers.py.)
    """
    if not st.session_state.pop("_initialised_by_app", False):
        # run alone: leave that mode, if no other tab has yet, and run again through app.py. Whether this run came
        # through app.py is the test, not the mode's flag: another tab's run of app.py may have switched the mode off
        # between the start of this run and now (seen when a classroom's restarted process met its reconnecting tabs
        # during its warm-up: one tab stayed on the page drawn alone, without the sidebar and the "lost its
        # connection" notice)
        leave_pages_directory_mode()
        st.rerun()
    return lang()


def lang() -> str:
    """The UI language of this tab."""
    return st.session_state.get("lang", "en")


def current() -> CurrentModel:
    """The current model of this tab."""
    return st.session_state.model


def set_model(model: CurrentModel) -> None:
    """Make model the current one."""
    st.session_state.model = model


def set_pairs(pairs: list[tuple[str, str]]) -> None:
    """Replace the sentence pairs (from outside the editor) and start a fresh editor over them."""
    st.session_state.pairs = list(pairs)
    st.session_state.editor_base = list(pairs)
    st.session_state.editor_version += 1


def usable_pairs() -> list[tuple[str, str]]:
    """The dataset's pairs with both sides typed (what training uses): worked out once per table, which is replaced
    and never changed in place (set_pairs), not on every run of every page; callers must not change the list."""
    pairs = st.session_state.pairs
    return session_memo("usable", (pairs,), lambda: [(s, g) for s, g in pairs if usable(s, g)])


def chosen_tokenizer() -> str | Bpe:
    """What the package takes for this tab's tokenizer choice: the choice itself, or for "bpe" the tokenizer learned
    from the table's usable pairs, once per table and size (a size out of range keeps the last one learned; the Data
    page says why). A training learns it again from its training pairs alone (transformer.plan)."""
    ss = st.session_state
    choice = ss.get("tokenizer", SETTINGS["tokenizer"])
    if choice != Bpe.name:
        return choice
    size = ss.get("bpe_vocab_size", SETTINGS["bpe_vocab_size"])
    try:
        check_vocab_size(size)
    except DataError:  # the size of the one learned last
        size = (memo_key("bpe") or (SETTINGS["bpe_vocab_size"],))[0]
    return session_memo("bpe", (size, ss.pairs), lambda: learn_bpe(usable_pairs(), size))


def pairs_summary() -> PairsSummary:
    """check_pairs' view of this tab's table with its tokenizer (problems, lengths, token counts, vocabularies),
    computed once per table and tokenizer: pages run on every click, and a table of 20,000 pairs takes a while."""
    pairs, tokenizer = st.session_state.pairs, chosen_tokenizer()

    def summary() -> PairsSummary:
        offered = None if isinstance(tokenizer, Bpe) else offered_summary(pairs, tokenizer)  # Bpe: this table's own
        return summarize_pairs(pairs, tokenizer) if offered is None else offered

    return session_memo("pairs_summary", (tokenizer, pairs), summary)


def apply_editor_changes(pairs: list[tuple[str, str]], changes: dict) -> list[tuple[str, str]]:
    """The pairs after st.data_editor's edited_rows / added_rows / deleted_rows are applied."""
    rows = [list(p) for p in pairs]
    for index, edits in changes.get("edited_rows", {}).items():
        if int(index) >= len(rows):  # edits of added rows arrive in added_rows
            continue
        for column, value in edits.items():
            rows[int(index)][0 if column == "source" else 1] = "" if value is None else str(value)
    deleted = set(changes.get("deleted_rows", []))
    rows = [r for i, r in enumerate(rows) if i not in deleted]
    for added in changes.get("added_rows", []):
        rows.append([str(added.get("source") or ""), str(added.get("target") or "")])
    return [(s, t) for s, t in rows]
