"""Imported by the fork server of the training processes, and only there (ui.worker preloads it).

multiprocessing makes each new process run the parent's main module again before its target, so that functions
defined there can be found. A training's target and arguments live in ui.worker and transformer, and the parent's
main module is whatever Streamlit has put there at that moment: the script of the page a learner is running (app.py
as `__main__`, run again in bare mode for 0.3 s, its widgets and all) or the `streamlit` command. So the children of
this fork server skip that step.

It also lowers the fork server's priority to the training processes' before it imports torch (seconds of CPU): the
server starts it first thing (ui/warmup.py), and its imports then yield the CPU to the server's own start and to the
first learners' pages.
"""

import contextlib
import os
from multiprocessing import spawn

NICENESS = 5  # the training processes' (ui.jobs.NICENESS, a test checks); never lowered here

with contextlib.suppress(OSError, AttributeError):  # not Linux, or not allowed: the server's priority
    os.setpriority(os.PRIO_PROCESS, 0, max(NICENESS, os.getpriority(os.PRIO_PROCESS, 0)))

_prepare = spawn.prepare
_MAIN_KEYS = ("init_main_from_path", "init_main_from_name")


def _prepare_without_main(data: dict) -> None:
    _prepare({key: value for key, value in data.items() if key not in _MAIN_KEYS})


spawn.prepare = _prepare_without_main

# every training's evaluation tags its pairs with the grammar's phenomena (transformer.corpus.tags_of): the grammar is
# built once here, at the lowered priority, rather than in each training process (0.2–0.5 s of CPU each)
from transformer import corpus  # noqa: E402

corpus.grammar()
