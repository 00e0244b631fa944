"""Static checks in the suite: ruff (errors, unused and undefined names, import order) over the
code, and mypy strict over the core (data, llm clients, benchmark loading), the run log and the
evaluation engine (the files pyproject.toml's [tool.mypy] lists)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_is_clean():
    res = subprocess.run([sys.executable, "-m", "ruff", "check", "asuka", "tests", "benchmarks",
                          "scripts", "setup.py"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_strict_holds_where_it_is_declared():
    res = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir",
                          str(ROOT / ".mypy_cache")], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0 and "Success" in res.stdout, res.stdout + res.stderr
