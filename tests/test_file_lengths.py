"""No file of code or of the UI's strings is longer than 600 lines (issue 28): a file that grows past that holds more
than one idea, and the next change should split it where the ideas part."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600
KINDS = (".py", ".toml", ".js", ".css", ".sh")  # code and the strings' files; not docs, data or models


def tracked_files() -> list[Path]:
    """The repository's files as git lists them (what a fresh clone holds), else every file under ROOT but .venv's."""
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        return [ROOT / name for name in names.splitlines()]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked archive)
        return [p for p in ROOT.rglob("*") if ".venv" not in p.parts and ".git" not in p.parts]


def test_no_file_of_code_or_strings_is_longer_than_600_lines():
    files = [p for p in tracked_files() if p.suffix in KINDS and p.is_file()]
    assert len(files) > 200, "the repository's files were not found"
    lengths = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in files}
    too_long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert not too_long, f"longer than {MAX_LINES} lines (split each where its ideas part): {too_long}"
    assert max(lengths.values()) > MAX_LINES // 2  # the lines were counted
