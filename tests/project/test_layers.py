"""The layers of the package, enforced (pyproject.toml, [tool.importlinter]): core -> roles ->
evaluation -> readers -> loop -> tools -> cli, and no import cycle between sibling modules at any
depth, with no exception listed."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import "
                           "lint_imports_command; sys.exit(lint_imports_command())"],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_layers_hold_and_nothing_imports_in_a_cycle():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    kinds = {c["type"] for c in config["contracts"]}
    assert kinds == {"layers", "acyclic_siblings"}
    assert not any(c.get("ignore_imports") for c in config["contracts"]), "no exceptions"
    res = _lint(ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "2 kept, 0 broken" in res.stdout


def test_an_upward_import_breaks_the_contract(tmp_path):
    """The contract can fail: the core importing the CLI is caught."""
    shutil.copytree(ROOT / "asuka", tmp_path / "asuka",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    dag = tmp_path / "asuka" / "dag.py"
    dag.write_text(dag.read_text() + "\nfrom asuka.cli import app  # noqa\n")
    res = _lint(tmp_path)
    assert res.returncode != 0 and "asuka.dag is not allowed to import asuka.cli" in res.stdout, \
        res.stdout
