"""The run store's contract: the cell lifecycle as a Protocol, resume by complete records only,
and a format version that a newer run directory is refused by, with a clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.cli import app
from asuka.log.records import AgentRoundResult, CellResult, RoundRecord
from asuka.log.store import (
    DONE_FILE,
    FORMAT_VERSION,
    RUN_FILE,
    CellRecorder,
    RunStore,
    StoreFormatError,
)
from asuka.schema import RoundEvaluation


def _record(r: int) -> RoundRecord:
    return RoundRecord(round=r, agent=AgentRoundResult(),
                       evaluation=RoundEvaluation(protocol="dag", threshold=0.5, results={}))


def test_the_store_is_a_cell_recorder_and_resumes_by_complete_rounds(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "run")
    assert isinstance(store, CellRecorder)
    store.start_cell("c", {"task": "t"})
    with pytest.raises(ValueError, match="other settings"):
        store.start_cell("c", {"task": "other"})
    store.begin_round("c", 1)
    store.finish_round("c", _record(1))
    assert (store.round_dir("c", 1) / DONE_FILE).exists()
    with pytest.raises(FileExistsError):
        store.begin_round("c", 1)
    partial = store.begin_round("c", 2)  # a crash here leaves round 2 without DONE
    (partial / "half-written.json").write_text("{")
    assert store.completed_rounds("c") == 1
    assert not store.round_dir("c", 2).exists()
    assert (store.cell_dir("c") / "round-2.aborted-1" / "half-written.json").exists()
    assert not store.is_finished("c")
    store.finish_cell("c", CellResult(cell_id="c", rounds_run=1))
    assert store.is_finished("c") and store.cell_result("c").rounds_run == 1


def test_a_newer_format_is_refused_clearly(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "run")
    store.write_run_config({"bench": "b"})
    assert json.loads((store.root / RUN_FILE).read_text())["format_version"] == FORMAT_VERSION
    (store.root / RUN_FILE).write_text(json.dumps({"format_version": FORMAT_VERSION + 1}))
    with pytest.raises(StoreFormatError, match=f"format {FORMAT_VERSION + 1}"):
        store.run_config()
    store.start_cell("c", {"task": "t"})  # a run directory as `report` finds one
    res = CliRunner().invoke(app, ["report", str(store.root), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 1  # an error message naming the file, not a traceback
    assert "run.json: run directory format" in res.output and "upgrade Asuka" in " ".join(
        res.output.split())
