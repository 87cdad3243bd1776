"""Imported by the fork server of the training processes, and only there (jobs.worker preloads it).

multiprocessing makes each new process run the parent's main module again before its target, so that functions
defined there can be found. A training's target and arguments live in jobs.worker and transformer, and the parent's
main module is whatever Streamlit has put there at that moment: the script of the page a learner is running (app.py
as `__main__`, run again in bare mode for 0.3 s, its widgets and all) or the `streamlit` command. So the children of
this fork server skip that step.

It also lowers the fork server's priority to the training processes' before it imports torch (seconds of CPU): the
server starts it first thing (ui/warmup.py), and its imports then yield the CPU to the server's own start and to the
first learners' pages.

And it ties the training processes' lives to the server's. A server killed with SIGKILL leaves no word: the fork
server's own way to notice (its "alive" pipe reaching its end) never comes while a training process lives, since each
holds a copy of that pipe; and a training process only notices when it next writes to the server. So the fork server
watches the server's process and exits the moment it ends, and each of its children asks the kernel for SIGKILL when
the fork server ends (Linux's parent-death signal, set in the child right after the fork).
"""

import contextlib
import ctypes
import os
import select
import signal
import threading
from multiprocessing import spawn

NICENESS = 5  # the training processes' (jobs.queue.NICENESS, a test checks); never lowered here
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _exit_with_the_server() -> None:
    """In the fork server: exit, without a word, as soon as the server's process ends (pidfd_open: Linux 5.3 and later;
    elsewhere the fork server ends as multiprocessing makes it, once its children have ended)."""
    try:
        ended = os.pidfd_open(os.getppid())  # readable once the process has ended
    except (AttributeError, OSError):
        return

    def watch() -> None:
        select.select([ended], [], [])
        os._exit(0)  # and its children get their parent-death signal

    threading.Thread(target=watch, name="exit with the server", daemon=True).start()


def _die_with_the_fork_server() -> None:
    """In every child of the fork server, right after the fork: SIGKILL when the fork server ends; at once if it
    already has. The fork server forks from its main thread, which lives as long as it does (the signal comes when
    the thread that forked ends)."""
    global _fork_server
    fork_server, _fork_server = _fork_server, 0  # the child's own children, if any, are not tied to it
    if not fork_server:
        return
    with contextlib.suppress(OSError, AttributeError):  # not Linux: the child ends when it next writes to the server
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != fork_server:  # it ended between the fork and the prctl: no signal will come
        os._exit(0)


# not a parent-death signal for the fork server itself: the thread of the server that started it may end at any time.
# If the server has gone before this line, the alive pipe ends the fork server once its imports are done (it has no
# children then to hold that pipe open)
_exit_with_the_server()
_fork_server = os.getpid()
os.register_at_fork(after_in_child=_die_with_the_fork_server)

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
