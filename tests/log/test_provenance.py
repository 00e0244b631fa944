"""Provenance: a cell records what it ran on; report, export and reeval refuse to score a run
against a task that has changed since (or is missing) unless --allow-changed-tasks. No browser:
the runs are recorded by hand on a copy of the mini benchmark."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import load_tasks
from asuka.benchmark.proof import fingerprint
from asuka.cli import app
from asuka.log.provenance import PARTS, REDACTED, cell_provenance, changed_parts, task_definition
from asuka.log.store import RunStore, write_json
from tests.builders import ALL, FIXTURES, cell_spec, copy_bench, evaluation, record_cell

runner = CliRunner()


def _asuka(*args) -> tuple[int, str]:
    res = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


@pytest.fixture
def recorded(tmp_path):
    """A finished run of both tasks on a copy of the bench; run.json names the copy."""
    bench = copy_bench(tmp_path / "bench")
    tasks = {t.id: t for t in load_tasks(bench, ["mini-todo", "mini-todo-2"])}
    run_dir = tmp_path / "runs" / "r"
    store = RunStore(run_dir)
    for task_id, bt in tasks.items():
        for seed in (0, 1):
            record_cell(store, bt, cell_spec(task_id, seed, "low"),
                        [evaluation(bt, {"t0"}), evaluation(bt, ALL)])
    write_json(run_dir / "run.json", {"bench": str(bench)})
    return bench, run_dir, tasks


def test_the_record_and_changed_parts(recorded):
    bench, _, tasks = recorded
    bt = tasks["mini-todo"]
    spec = {"agent": "llm", "agent_options": {"model": "openai:gpt-4o-mini",
                                              "api_key": "sk-live-123456789", "max_tokens": 800},
            "ui": "browser-use", "ui_options": {"headers": {"Authorization": "Bearer x"}},
            "user": "llm", "user_options": {"verbosity": "low", "base_url": "sk-abcdefghijkl"}}
    p = cell_provenance(bt, spec)
    assert set(p["parts"]) == set(PARTS) and len(p["task_fingerprint"]) == 64
    assert p["asuka_version"] and p["asuka_version"] != "unknown"
    b = p["backends"]
    assert b["agent"] == "llm" and b["agent_options"]["model"] == "openai:gpt-4o-mini"
    assert b["agent_options"]["api_key"] == REDACTED and b["agent_options"]["max_tokens"] == 800
    assert b["ui_options"]["headers"]["Authorization"] == REDACTED
    assert b["user_options"] == {"verbosity": "low", "base_url": REDACTED}
    assert "sk-live" not in repr(p)
    assert changed_parts(p, bt) == []
    # each part is seen on its own, and the proof's fingerprint moves with the task
    before = fingerprint(bt)
    root = Path(bt.root)
    edits = {"reference": (root / "reference" / "index.html", "<!-- edited -->"),
             "data": (root / "data" / "seed.json", " "),
             "prd": (bench / "prds" / "mini-todo.md", "\nOne more requirement.\n"),
             "dag": (bench / "dags" / "mini-todo.yaml", "\nsemantic_edges: [[t0, t4]]\n")}
    for part, (path, extra) in edits.items():
        original = path.read_text()
        path.write_text(original + extra)
        (now,) = load_tasks(bench, ["mini-todo"])
        assert changed_parts(p, now) == [part], part
        path.write_text(original)
    (now,) = load_tasks(bench, ["mini-todo"])
    assert changed_parts(p, now) == [] and fingerprint(now) == before


def test_report_refuses_a_changed_task_unless_allowed(recorded, tmp_path):
    bench, run_dir, _ = recorded
    code, out = _asuka("report", run_dir, "--format", "md", "--out", tmp_path / "ok")
    assert code == 0, out
    y = bench / "tasks" / "mini-todo" / "task.yaml"
    y.write_text(y.read_text().replace("A \"Todos\" heading is shown.",
                                       "A \"My todos\" heading is shown."))
    ref = bench / "tasks" / "mini-todo" / "reference" / "index.html"
    ref.write_text(ref.read_text() + "\n<!-- changed -->\n")
    code, out = _asuka("report", run_dir, "--format", "md", "--out", tmp_path / "no")
    assert code != 0
    assert "'mini-todo'" in out and "task, reference" in out and "mini-todo-2" not in out
    assert "--allow-changed-tasks" in out and not (tmp_path / "no" / "report.md").exists()
    code, out = _asuka("export", run_dir, "--out", tmp_path / "v.csv")
    assert code != 0 and "'mini-todo'" in out and not (tmp_path / "v.csv").exists()
    code, out = _asuka("reeval", run_dir, "--protocol", "full")
    assert code != 0 and "'mini-todo'" in out and "task, reference" in out
    assert not (run_dir.parent / "r.reeval-full-T0.5").exists()

    code, out = _asuka("report", run_dir, "--format", "md", "--out", tmp_path / "yes",
                       "--allow-changed-tasks")
    assert code == 0, out
    assert "'mini-todo' changed since the run: task, reference" in " ".join(out.split())
    md = (tmp_path / "yes" / "report.md").read_text()
    assert "'mini-todo' changed since the run: task, reference" in md
    code, out = _asuka("export", run_dir, "--out", tmp_path / "v.csv", "--allow-changed-tasks")
    assert code == 0 and (tmp_path / "v.csv").exists() and "mini-todo" in out


def test_a_missing_task_is_an_error(recorded, tmp_path):
    bench, run_dir, _ = recorded
    shutil.rmtree(bench / "tasks" / "mini-todo-2")
    code, out = _asuka("report", run_dir, "--format", "md,csv", "--out", tmp_path / "no")
    assert code != 0 and "'mini-todo-2' is not in the benchmark" in out
    code, out = _asuka("report", run_dir, "--format", "md,csv", "--out", tmp_path / "yes",
                       "--allow-changed-tasks")
    assert code == 0, out
    assert "'mini-todo-2' is not in the benchmark (not scored)" in " ".join(out.split())
    md = (tmp_path / "yes" / "report.md").read_text()
    assert "Cells not scored" in md and md.count("its task is not in the benchmark") == 2
    table1 = (tmp_path / "yes" / "table1.csv").read_text().splitlines()
    assert table1[1].split(",")[1] == "1"  # n: one project left


def test_a_task_that_no_longer_loads_says_why(recorded, tmp_path):
    bench, run_dir, _ = recorded
    y = bench / "tasks" / "mini-todo" / "task.yaml"
    y.write_text(y.read_text().replace("weight: 2", "weight: -2", 1))
    code, out = _asuka("report", run_dir, "--format", "md", "--out", tmp_path / "no")
    assert code != 0 and "'mini-todo' is not in the benchmark (it does not load:" in out


def test_cells_without_provenance_warn_once(recorded, tmp_path):
    _, run_dir, _ = recorded
    store = RunStore(run_dir)
    for cid in store.cells():  # as recorded before provenance existed
        p = store.cell_dir(cid) / "cell.json"
        data = json.loads(p.read_text())
        data.pop("provenance")
        write_json(p, data)
    code, out = _asuka("report", run_dir, "--format", "md", "--out", tmp_path / "rep")
    assert code == 0, out
    assert " ".join(out.split()).count("provenance unknown for 4 cell(s)") == 1


def test_shared_context_resolution_and_fingerprint() -> None:
    """A task's shared_context is its evaluation tasks' default (false: independent criteria).
    Shared, the value every task was proven under before the field existed, is left out of the
    fingerprint (so those proofs stay valid); the other values change it."""
    from asuka.schema import Task

    (bt,) = load_tasks(FIXTURES / "bench", ["mini-todo"])
    assert all(et.shared_context is False for et in bt.task.eval_tasks)  # the default
    raw = bt.task.model_dump(mode="json", exclude={"shared_context"})
    for et in raw["eval_tasks"]:
        et.pop("shared_context")
    same = Task.model_validate({**raw, "shared_context": False})
    assert fingerprint(bt.model_copy(update={"task": same})) == fingerprint(bt)
    legacy = bt.model_copy(update={"task": Task.model_validate({**raw, "shared_context": True})})
    assert all(et.shared_context is True for et in legacy.task.eval_tasks)
    assert b"shared_context" not in task_definition(legacy, contracts=False)
    assert fingerprint(legacy) != fingerprint(bt)
    raw["eval_tasks"][0]["shared_context"] = True  # a deliberate flow in a migrated task
    migrated = Task.model_validate({**raw, "shared_context": False})
    assert [et.shared_context for et in migrated.eval_tasks][:2] == [True, False]
    assert fingerprint(bt.model_copy(update={"task": migrated})) != fingerprint(bt)


def test_a_contract_changes_what_scores_mean_not_what_a_proof_proved() -> None:
    """Declaring core tasks and mandatory criteria leaves the proof fingerprint (and the
    evaluation-reuse key built on it) as it was, but provenance sees the task changed."""
    from asuka.log.provenance import part_hashes
    from asuka.schema import Task

    (bt,) = load_tasks(FIXTURES / "bench", ["mini-todo"])
    raw = bt.task.model_dump(mode="json")
    raw["eval_tasks"][0].update(core=True, capability="component-completeness")
    raw["eval_tasks"][0]["criteria"][0].update(mandatory=True, source_verifiable=True)
    annotated = bt.model_copy(update={"task": Task.model_validate(raw)})
    assert fingerprint(annotated) == fingerprint(bt)
    assert part_hashes(annotated)["task"] != part_hashes(bt)["task"]
    assert changed_parts(cell_provenance(bt, {}), annotated) == ["task"]
    raw["eval_tasks"][0]["criteria"][0]["text"] = "reworded"  # anything else still counts
    assert fingerprint(bt.model_copy(update={"task": Task.model_validate(raw)})) \
        != fingerprint(bt)
