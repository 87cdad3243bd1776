"""The docs name only tests that exist: every `tests/….py::test_…` in docs/*.md and README.md is a real test. Their
links lead to files and headings that exist, and the README stays a page read in a minute whose commands CI runs."""

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
CITED = re.compile(r"(tests/[\w/]+\.py)::(test_\w+)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_test_a_document_cites_exists(doc):
    missing = []
    for path, name in set(CITED.findall(doc.read_text(encoding="utf-8"))):
        source = REPO / path
        if not source.exists() or not re.search(rf"^def {name}\(", source.read_text(encoding="utf-8"), re.M):
            missing.append(f"{path}::{name}")
    assert not missing, f"{doc.name} cites tests that do not exist: {sorted(missing)}"


README = REPO / "README.md"
README_LIMIT = 6 * 1024  # bytes: a page a newcomer reads in a minute (issue 32)
# pip options CI adds for a quieter log; they change nothing that is installed
QUIET = {"-q", "--disable-pip-version-check"}


def _readme_commands() -> list[str]:
    """The README's shell commands: one per fenced bash block."""
    blocks = re.findall(r"^```bash\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)
    return [" ".join(block.split()) for block in blocks]


def _ci_commands() -> set[str]:
    """The commands .ci/run runs at its top level, with CI's quiet pip options taken out."""
    lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return {" ".join(w for w in line.split() if w not in QUIET) for line in lines if line and line[0] not in "# "}


def test_the_readme_is_read_in_a_minute():
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size:,} bytes, over {README_LIMIT:,}: move the detail to docs/"


def test_the_readme_sets_up_with_two_commands_and_ci_runs_its_test_command():
    commands = _readme_commands()
    assert len(commands) == 2, f"the README's set-up is two commands (install and start; test), not {commands}"
    install, test = commands
    assert "pytest" in test and "pytest" not in install
    ci = _ci_commands()
    missing = [step for step in test.split(" && ") if step not in ci]
    assert not missing, f".ci/run does not run the README's test command {missing}; it runs {sorted(ci)}"
    # the install makes the .venv CI makes, from requirements.txt (which requirements-dev.txt, installed by CI, holds)
    steps = install.split(" && ")
    assert steps[0] in ci
    assert "-r requirements.txt" in (REPO / "requirements-dev.txt").read_text(encoding="utf-8").splitlines()


def test_the_readme_takes_the_cpu_build_of_torch_and_says_how_to_change_the_port():
    install = _readme_commands()[0]
    pip = next(step for step in install.split(" && ") if " install " in step)
    # PyPI's torch for Linux is the CUDA build (gigabytes): the CPU index comes in the same command, not later
    assert "-r requirements.txt --extra-index-url https://download.pytorch.org/whl/cpu" in pip
    start = install.split(" && ")[-1]
    assert start.startswith(".venv/bin/streamlit run serve.py --server.port ")
    assert "change the number after `--server.port`" in README.read_text(encoding="utf-8")


def _anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives the headings of a markdown file (outside fenced code)."""
    text = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)
    anchors, seen = set(), {}
    for title in re.findall(r"^#{1,6} +(.+?) *#*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_link_between_the_docs_leads_to_a_file_and_heading_that_exist(doc):
    broken = []
    prose = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)
    for target in LINK.findall(re.sub(r"`[^`\n]*`", "", prose)):  # code (`[x](y).csv`) is no link
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto: not ours to check
        path, _, anchor = target.partition("#")
        linked = (doc.parent / path).resolve() if path else doc
        heading_missing = anchor and linked.suffix == ".md" and anchor not in _anchors(linked)
        if not linked.exists() or heading_missing:
            broken.append(target)
    assert not broken, f"{doc.name} links to files or headings that do not exist: {broken}"


BENCHMARK = re.compile(r"benchmarks/(\w+)\.py")
SCRIPTS = sorted(p for p in (REPO / "benchmarks").glob("*.py") if not p.name.startswith("_"))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_script_a_document_quotes_exists(doc):
    named = set(BENCHMARK.findall(doc.read_text(encoding="utf-8")))
    assert sorted(n for n in named if not (REPO / "benchmarks" / f"{n}.py").exists()) == []
    assert named <= {p.stem for p in SCRIPTS}  # and test_every_benchmark_script_still_starts runs it


# the docs whose sections report measurements (issue 41: every figure a doc quotes comes from a script in benchmarks/
# that prints it, and the doc names the script and the date); a measured figure: seconds, bytes, pixels, a share
MEASURED = ("performance.md", "training.md", "presenter.md")
FIGURE = re.compile(r"\b\d[\d,.]*\s?(?:ms|s|MB|kB|px|%)(?!\w)")
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
# sections whose figures a browser test measures, not a script (docs/presenter.md's opening: the presenter view's
# smallest drawn numbers, tests/e2e/test_e2e_presenter.py)
MEASURED_BY_A_TEST = {("presenter.md", "")}


def _sections(doc: Path) -> list[tuple[str, str]]:
    """(heading, text) of each ## or ### section of doc, the text before the first as heading ""."""
    parts = re.split(r"^(#{2,3} .*)$", doc.read_text(encoding="utf-8"), flags=re.M)
    return [("", parts[0]), *zip(parts[1::2], parts[2::2])]


@pytest.mark.parametrize("name", MEASURED)
def test_every_section_with_measured_figures_names_its_benchmark_script_and_date(name):
    unnamed = []
    for heading, text in _sections(REPO / "docs" / name):
        prose = re.sub(r"`[^`\n]*`", lambda m: m[0] if "benchmarks/" in m[0] else "", text)  # no figures in code
        if (name, heading) in MEASURED_BY_A_TEST or not FIGURE.search(prose):
            continue
        if not BENCHMARK.search(text) or not DATE.search(heading + text) or "a script like" in text:
            unnamed.append(heading or "(opening)")
    assert unnamed == [], f"{name}: sections with figures but no benchmarks/ script or no date: {unnamed}"


@pytest.mark.slow  # 20 processes importing torch: some 10 s of CPU each
def test_every_benchmark_script_still_starts():
    """Each script of benchmarks/ (the docs' figures come from them) imports what it uses and reads its arguments:
    `--help` runs everything up to its measuring."""
    import subprocess
    import sys

    failed = {}
    for script in SCRIPTS:
        run = subprocess.run([sys.executable, str(script), "--help"], cwd=REPO, capture_output=True, timeout=300)
        if run.returncode != 0 or b"usage:" not in run.stdout:
            failed[script.name] = (run.stdout + run.stderr).decode(errors="replace")[-400:]
    assert len(SCRIPTS) >= 20 and failed == {}
