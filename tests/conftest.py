"""Shared fixtures: sentence pairs, small trained translators and file helpers."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from transformer import Translator

# pytest keeps each test file with its assertions rewritten (and Python each module) in __pycache__ (git ignores it),
# also where PYTHONDONTWRITEBYTECODE asks not to: rewriting 130 test files again costs every worker 3 s of each run
sys.dont_write_bytecode = False

# torch, the package and Streamlit are imported where they are used: the process that only hands the tests out to the
# xdist workers never needs them, and importing them there would take seconds of a core the workers start on

REPO = Path(__file__).resolve().parents[1]
E2E = REPO / "tests" / "e2e"

# the sizes used wherever a small trained model is enough
TINY = {"d_model": 16, "n_heads": 2, "d_ff": 32, "n_layers": 2}

# PyTorch repeats a result bit for bit on one machine, not across CPUs: results pinned on one machine are compared
# within these (tests/transformer/test_switches.py shows they still catch the smallest real change)
LOSS_RTOL = 1e-4  # relative, on a training's losses: an Intel Xeon and an AMD EPYC differ at about 1e-5
OUTPUT_TOL = 1e-4  # absolute, on logits (up to 14) and attention weights: another CPU differs at about 1e-6

SEED_PAIRS = [("我 喜 欢 你", "I love you .")]

# twenty short zh→en pairs, none of them in assets/pairs.tsv
PAIRS20 = [
    ("我吃饭", "I eat rice ."),
    ("你吃面", "You eat noodles ."),
    ("他喝茶", "He drinks tea ."),
    ("她喝牛奶", "She drinks milk ."),
    ("我们去学校", "We go to school ."),
    ("他们去公园", "They go to the park ."),
    ("猫在睡觉", "The cat is sleeping ."),
    ("狗在跑", "The dog is running ."),
    ("天很蓝", "The sky is blue ."),
    ("花很红", "The flower is red ."),
    ("我看书", "I read a book ."),
    ("你写字", "You write words ."),
    ("他唱歌", "He sings ."),
    ("她跳舞", "She dances ."),
    ("我会游泳", "I can swim ."),
    ("你会做饭吗", "Can you cook ?"),
    ("早上好", "Good morning ."),
    ("晚安", "Good night ."),
    ("再见", "Goodbye ."),
    ("我住在北京", "I live in Beijing ."),
]


def wake(processes) -> None:
    """SIGCONT to every process still there: a stopped process would take its SIGTERM only when killed 15 s later."""
    for process in processes:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)


def random_translator(pairs: list[tuple[str, str]], seed: int, weights: int) -> Translator:
    """An untrained one-layer model whose output weights are large and random, with a decoding cap of 6 tokens:
    varied, confident distributions under which beam search and greedy part ways in every manner (the tests name
    the seeds that show each)."""
    import torch

    from transformer import Translator

    translator = Translator.create(pairs, seed=seed, max_len=7, **{**TINY, "n_layers": 1})
    with torch.no_grad():
        weight = translator.model.projection.weight
        weight.copy_(2 * torch.randn(weight.shape, generator=torch.Generator().manual_seed(weights)))
    return translator


@pytest.fixture
def seed_pairs() -> list[tuple[str, str]]:
    """The single pair of the seed tutorial."""
    return list(SEED_PAIRS)


@pytest.fixture
def pairs20() -> list[tuple[str, str]]:
    """Twenty short zh→en pairs written for the tests."""
    return list(PAIRS20)


@pytest.fixture(scope="session")
def bundled_pairs() -> list[tuple[str, str]]:
    """The example pairs shipped in assets/pairs.tsv."""
    from transformer.data import parse_pairs

    return parse_pairs((REPO / "assets" / "pairs.tsv").read_bytes())


@pytest.fixture(scope="session")
def trained_seed() -> Translator:
    """A tiny Translator trained on the seed pair until it translates it (60 epochs, ~0.3 s)."""
    from transformer import TrainConfig, Translator, train

    translator = Translator.create(SEED_PAIRS, **TINY)
    for _ in train(translator, SEED_PAIRS, TrainConfig(epochs=60)):
        pass
    return translator


@pytest.fixture(scope="session")
def trained20() -> tuple[Translator, list]:
    """A Translator with the DEFAULT sizes trained with the DEFAULT TrainConfig on PAIRS20: (translator, records)."""
    from transformer import TrainConfig, Translator, train

    translator = Translator.create(PAIRS20)
    records = list(train(translator, PAIRS20, TrainConfig()))
    return translator, records


@pytest.fixture
def write_file(tmp_path: Path) -> Callable[[str, bytes | str], Path]:
    """write_file(name, content) -> path of a new file in this test's temporary directory."""

    def write(name: str, content: bytes | str) -> Path:
        path = tmp_path / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
        return path

    return write


def pytest_xdist_auto_num_workers(config) -> int:
    """The number of processes for `-n auto` (pyproject's addopts): the fast tests spread over the cores (at most 4).

    A run that includes the browser tests runs them in two processes (one on a 1-core machine), or as many as
    E2E_PROCESSES says (1: one process, as before): they are handed out a whole file at a time (--dist loadfile), each
    process with its own app server and browser (tests/e2e/conftest.py). Two processes take the browser suite from
    about 21 to about 14 minutes on 2 cores; the slower page runs exposed tests that read a page before the run of
    their last click had started, each fixed (docs/performance.md) before two became the default."""
    if not _runs_browser_tests(config):
        return max(1, min(os.cpu_count() or 1, 4))
    processes = int(os.environ.get("E2E_PROCESSES", min(os.cpu_count() or 1, 2)))
    if processes > 1:
        config.option.dist = "loadfile"
        return processes
    return 0


def _runs_browser_tests(config) -> bool:
    if re.search(r"\bnot\s+e2e\b", config.option.markexpr or ""):
        return False
    here = config.invocation_params.dir
    if any((here / p).resolve() == E2E for p in config.option.ignore or []):
        return False
    paths = [(here / arg.split("::")[0]).resolve() for arg in config.args] or [REPO / "tests"]
    return any(p.is_relative_to(E2E) or E2E.is_relative_to(p) for p in paths)


def pytest_addoption(parser):
    parser.addoption(
        "--with-slow", action="store_true", help="the fast suite with its slow tests (marked slow): what CI runs"
    )


def pytest_collection_modifyitems(config, items):
    """The fast suite (the tests, or a folder of them, without the browser tests) leaves out the tests marked slow:
    they run in the README's test command, with the browser tests, and with --with-slow or -m. A test file or test
    named on the command line runs whole."""
    if not _leaves_out_slow_tests(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


def pytest_report_header(config):
    if _leaves_out_slow_tests(config):
        return (
            "the fast suite: the tests marked slow are left out (--with-slow, or the README's test command, runs them)"
        )
    return None


def _leaves_out_slow_tests(config) -> bool:
    if config.getoption("with_slow") or config.option.markexpr or _runs_browser_tests(config):
        return False
    here = config.invocation_params.dir
    paths = [(here / arg.split("::")[0]).resolve() for arg in config.args] or [REPO / "tests"]
    return all(path.is_dir() for path in paths)


def pytest_configure(config):
    if getattr(config.option, "dist", "no") == "no" or hasattr(config, "workerinput"):  # a process that runs tests
        import torch

        # the models here are tiny: one thread is as fast, and far faster when other processes share the cores
        torch.set_num_threads(1)
        if os.environ.get("TEST_MKLDNN") == "0":  # the suite with oneDNN off, as on a CPU without it (issue 31 §7)
            torch.backends.mkldnn.enabled = False
        _reuse_what_every_apptest_redoes()
    _load_fuzz_profile(config)
    # published models go to a folder of this run (each xdist worker its own), never the user's cache; the app
    # servers of the browser tests inherit it
    config._model_store = tempfile.mkdtemp(prefix="model-store-")
    os.environ["PLAYGROUND_MODEL_STORE"] = config._model_store


def _load_fuzz_profile(config) -> None:
    """The fuzzing's inputs per parser (tests/fuzz.py): 20 times as many in a run of the slow tests (--with-slow, the
    README's test command), unless hypothesis's own --hypothesis-profile names a profile."""
    from hypothesis import settings

    import tests.fuzz  # noqa: F401  (registers the profiles, before hypothesis's plugin loads one it is given)

    if getattr(config.option, "hypothesis_profile", None) is not None:
        return
    slow = config.getoption("with_slow") or _runs_browser_tests(config)
    settings.load_profile("fuzz-slow" if slow else "fuzz-fast")


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "_model_store", ""), ignore_errors=True)


def pytest_collection_finish(session):
    """Start the fork server of the training processes (jobs.worker) while the first tests run, rather than make the
    first training wait 2–4 s for it; not in a run of browser tests alone, which train in their servers."""
    if any(not item.path.is_relative_to(E2E) for item in session.items):
        from jobs.worker import start_fork_server

        start_fork_server()


def _reuse_what_every_apptest_redoes() -> None:
    """Each AppTest run scans the metadata of every installed package for Streamlit components and compiles
    app.py and its page anew (together more than a third of a page test's time). Neither the installed packages
    nor the scripts change during a test run, so scan once and keep one bytecode cache for all runs."""
    from streamlit.components.v2 import manifest_scanner
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)
    app_test.ScriptCache = local_script_runner.ScriptCache = functools.cache(ScriptCache)  # the page's, and app.py's
    local_script_runner.require_widgets_deltas = _wait_for_the_script_run


def _wait_for_the_script_run(runner, timeout: float = 3) -> None:
    """AppTest's own wait polls every millisecond whether the run has ended, each time scanning every event of the
    run so far; its thread takes the interpreter from the script's thread a thousand times a second, which made a
    page test's run about a fifth slower. The run's thread ends once the run has, so join it instead."""
    thread = runner._script_thread
    thread.join(timeout)
    if thread.is_alive():  # as AppTest's own: stop the run, then say so
        runner.request_stop()
        runner.join()
        raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")
