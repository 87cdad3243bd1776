"""The checkout's root, put on sys.path so that a benchmark run as a script (`.venv/bin/python benchmarks/x.py`,
which puts benchmarks/ on the path) imports the project: `from _root import ROOT` comes before its project imports."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
