"""What answers at once imports no torch (seconds of CPU): `import transformer`, the command line's help, `store list`
and the classroom script's help. Each runs in a fresh interpreter under `-X importtime`, which names every module it
imports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from transformer.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(*args: str, env: dict[str, str] | None = None) -> set[str]:
    """Every module a fresh `python -X importtime ARGS` imports (it must exit with status 0)."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )
    assert run.returncode == 0, run.stderr[-2000:]
    lines = [line for line in run.stderr.splitlines() if line.startswith("import time:")]
    return {line.rsplit("|", 1)[1].strip() for line in lines[1:]}  # the first line is the header


def _torch(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m == "torch" or m.startswith("torch."))


def test_the_reader_sees_torch_where_it_is_imported():
    modules = imported_modules("-c", "import transformer.model")
    assert "transformer.model" in modules and "torch" in _torch(modules)


@pytest.mark.parametrize(
    "args",
    [
        ("-c", "import transformer"),
        ("-c", "from transformer import TrainConfig, TransformerConfig, corpus, store"),
        ("-m", "transformer", "--help"),
        *[("-m", "transformer", command, "--help") for command in COMMANDS],
    ],
    ids=" ".join,
)
def test_the_package_and_the_command_lines_help_import_no_torch(args):
    assert _torch(imported_modules(*args)) == []


def test_store_list_imports_no_torch(tmp_path):
    modules = imported_modules("-m", "transformer", "store", "list", env={"PLAYGROUND_MODEL_STORE": str(tmp_path)})
    assert "transformer.store" in modules and _torch(modules) == []


def test_the_classroom_script_answers_without_torch_streamlit_or_the_app():
    modules = imported_modules(str(ROOT / "deploy" / "classroom.py"), "--help")
    assert "jobs.slots" in modules and "transformer.store" in modules
    assert _torch(modules) == []
    assert [m for m in modules if m.split(".")[0] in ("streamlit", "ui", "plotly")] == []
