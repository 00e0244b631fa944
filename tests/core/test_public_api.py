"""The public API in ``asuka/__init__.py``: every name resolves to the object its module defines,
``import asuka`` loads no browser or SDK, and the names run the loop (one simulated cell)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import asuka
from tests.builders import FIXTURES

MINI = FIXTURES / "bench"


def test_every_public_name_resolves() -> None:
    from importlib import import_module

    for name in asuka.__all__:
        assert getattr(asuka, name) is getattr(import_module(asuka._API[name]), name), name
    try:
        asuka.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("unknown names must raise AttributeError")


def test_import_is_light() -> None:
    code = ("import sys, asuka; heavy = [m for m in ('playwright', 'openai', 'anthropic', "
            "'asuka.loop.cell', 'scipy') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout.strip()
    assert out == "[]", out


@pytest.mark.browser
def test_the_names_run_a_cell(tmp_path: Path) -> None:
    tasks = asuka.load_tasks(MINI, ["mini-todo"])
    spec = asuka.CellSpec(task="mini-todo", agent="sim", agent_options={"profile": "perfect"},
                          rounds=1)
    store = asuka.RunStore(tmp_path / "run")
    summary = asuka.run_sweep([spec], {t.id: t for t in tasks}, store)
    assert store.is_finished(spec.cell_id) and not summary["failed_cells"]
    rec = store.load_round(spec.cell_id, 1)
    assert isinstance(rec, asuka.RoundRecord) and rec.evaluation.deploy_ok
