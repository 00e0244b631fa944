"""`asuka agree`: two runs' evaluators compared on the artifacts both judged, paired by task and
workspace content, on runs built by hand."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import load_tasks
from asuka.cli import app
from asuka.log.store import RunStore
from asuka.report.agree import compare_runs
from tests.builders import TASKS, cell_spec, copy_bench, evaluation, record_cell


def workspace(root, name: str, content: str):
    d = root / "ws" / name
    d.mkdir(parents=True)
    (d / "index.html").write_text(content)
    return d


def test_agreement_of_two_runs_on_the_same_artifacts(tmp_path):
    bench = copy_bench(tmp_path / "bench")
    bt = {t.id: t for t in load_tasks(bench, list(TASKS))}["mini-todo"]
    v1, v2, v3 = (workspace(tmp_path, n, f"<h1>{n}</h1>") for n in ("v1", "v2", "v3"))
    a, b = RunStore(tmp_path / "run-a"), RunStore(tmp_path / "run-b")
    ca = record_cell(a, bt, cell_spec("mini-todo", 0, "low"),
                     [evaluation(bt, {"t0"}), evaluation(bt, {"t0", "t1"})])
    cb = record_cell(b, bt, cell_spec("mini-todo", 5, "low"),
                     [evaluation(bt, {"t0", "t1"}), evaluation(bt, set())])
    for store, cell, snaps in ((a, ca, (v1, v2)), (b, cb, (v1, v3))):
        for r, ws in enumerate(snaps, 1):
            store.snapshot_workspace(cell, r, ws)
    res = compare_runs(a.root, b.root, bench)
    # only v1 was judged by both: 11 criteria; a task not passed keeps its first criterion, so
    # the judges differ on t1.c1 alone (A fail, B pass)
    assert (res.artifacts, res.compared, res.undecided) == (1, 11, 0)
    assert [(d["criterion"], d["a"], d["b"]) for d in res.disagreements] == [
        ("t1.c1", "fail", "pass")]
    assert res.stats["percent_agreement"] == pytest.approx(10 / 11)
    # A passes 7 of 11, B 8: p_e = (7 * 8 + 4 * 3) / 121; kappa = (110 - 68) / (121 - 68)
    assert res.stats["cohen_kappa"] == pytest.approx(42 / 53)

    out = tmp_path / "agree.json"
    cli = CliRunner().invoke(app, ["agree", str(a.root), str(b.root), "--bench", str(bench),
                                   "--out", str(out)])
    assert cli.exit_code == 0, cli.output
    assert "1 artifact(s), 11 criteria compared" in cli.output
    assert "t1.c1: fail" in cli.output
    assert json.loads(out.read_text())["cohen_kappa"] == pytest.approx(42 / 53)
    # nothing in common: a clear error, exit 1
    c = RunStore(tmp_path / "run-c")
    cc = record_cell(c, bt, cell_spec("mini-todo", 9, "low"), [evaluation(bt, set())])
    c.snapshot_workspace(cc, 1, v3)
    cli = CliRunner().invoke(app, ["agree", str(a.root), str(c.root), "--bench", str(bench)])
    assert cli.exit_code == 1 and "no artifact judged in both" in cli.output
