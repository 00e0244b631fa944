"""The closed loop end to end: sim agent -> deploy -> real Chromium -> template user -> store."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from asuka.benchmark.loading import load_tasks
from asuka.codeagents.sim import failing_tasks
from asuka.deploy import Deployer
from asuka.log.cellspec import CellSpec
from asuka.log.store import RunStore
from asuka.loop.cell import run_cell

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "bench"
# generous timeouts: a passing check returns as soon as it holds, and a busy machine must not
# turn a slow click into a false failure in tests that compare exact outcomes
PATIENT = {"assert_timeout_s": 4, "action_timeout_s": 8}
PATIENT_ARGS = ["--ui-opt", "assert_timeout_s=4", "--ui-opt", "action_timeout_s=8"]


@pytest.fixture(scope="module")
def mini():
    return load_tasks(MINI, ["mini-todo"])[0]


@pytest.mark.parametrize("protocol", ["dag", "flat"])
async def test_verdicts_match_the_simulators_feature_state(mini, tmp_path, protocol):
    """Evaluator accuracy on simulated artifacts: every executed evaluation task passes exactly
    when the simulator left all of its features intact (must be 100% for scripted checks)."""
    store = RunStore(tmp_path / "run")
    spec = CellSpec(task="mini-todo", agent_options={"profile": "weak"}, rounds=3, seed=3,
                    protocol=protocol, ui_options=PATIENT)
    await run_cell(spec, mini, store, Deployer())
    records = store.load_rounds(spec.cell_id)
    assert records, "no round recorded"
    checked = 0
    for rec in records:
        states = rec.agent.meta["features"]
        expected_fail = failing_tasks(mini.task, states)
        for tid, res in rec.evaluation.results.items():
            if res.status == "skipped":
                continue
            assert res.status in ("passed", "failed"), (rec.round, tid, res.error)
            assert (res.status == "failed") == (tid in expected_fail), (
                f"round {rec.round} {tid}: {res.status}, features {states}, "
                f"reasons {[v.reason for v in res.verdicts]}")
            checked += 1
        # the round's files are all there
        rdir = store.round_dir(spec.cell_id, rec.round)
        for name in ("workspace/index.html", "verdicts.json", "feedback.md", "agent.json",
                     "deploy.log", "timings.json", "DONE"):
            assert (rdir / name).exists(), name
        if any(r.status == "failed" for r in rec.evaluation.results.values()):
            assert list((rdir / "evidence").glob("*.png")), "no screenshot of a failure kept"
    assert checked >= 5
    # the weak profile with seed 3 starts with defects: round 1 must show failures
    assert failing_tasks(mini.task, records[0].agent.meta["features"])


async def test_an_artifact_seen_before_in_the_run_is_not_evaluated_again(mini, tmp_path):
    """Two cells that differ only in their label build the same artifacts: the second reuses
    the first's verdicts round by round (recorded, evidence copied, no deploy); a run that
    turns reuse off, or a changed evaluator setting, evaluates again."""
    store = RunStore(tmp_path / "run")
    first = CellSpec(task="mini-todo", agent_options={"profile": "weak"}, rounds=2, seed=3,
                     ui_options=PATIENT, label="first")
    second = first.model_copy(update={"label": "second"})
    await run_cell(first, mini, store, Deployer())
    await run_cell(second, mini, store, Deployer())
    a, b = store.load_rounds(first.cell_id), store.load_rounds(second.cell_id)
    assert len(a) == len(b) >= 1
    for ra, rb in zip(a, b):
        assert ra.evaluation.reused_from is None and ra.evaluation.key
        assert ra.evaluation.operability and ra.evaluation.operability.ok, ra.evaluation
        assert rb.evaluation.reused_from == f"{first.cell_id} round {ra.round}"
        assert rb.evaluation.key == ra.evaluation.key
        assert rb.evaluation.results == ra.evaluation.results
        assert rb.timings["deploy_s"] == rb.timings["evaluate_s"] == 0
        ev_a = store.evidence_dir(first.cell_id, ra.round)
        ev_b = store.evidence_dir(second.cell_id, rb.round)
        assert sorted(p.name for p in ev_b.iterdir()) == sorted(p.name for p in ev_a.iterdir())

    from asuka.report.summary import summarize
    summary = summarize(store, {"mini-todo": mini})
    assert summary["reused_evaluations"] == len(b)

    other = first.model_copy(update={"label": "slower", "ui_options": {**PATIENT,
                                                                      "assert_timeout_s": 5}})
    await run_cell(other, mini, store, Deployer())
    assert all(r.evaluation.reused_from is None for r in store.load_rounds(other.cell_id))

    off = RunStore(tmp_path / "off")
    off.write_run_config({"reuse_evaluations": False})
    await run_cell(first, mini, off, Deployer())
    await run_cell(second, mini, off, Deployer())
    assert all(r.evaluation.reused_from is None for r in off.load_rounds(second.cell_id))


async def test_feedback_names_only_executed_failures(mini, tmp_path):
    store = RunStore(tmp_path / "run")
    spec = CellSpec(task="mini-todo", agent_options={"profile": "weak"}, rounds=1, seed=3,
                    ui_options=PATIENT)
    await run_cell(spec, mini, store, Deployer())
    rec = store.load_round(spec.cell_id, 1)
    numbers = {et.id: i for i, et in enumerate(mini.task.eval_tasks)}
    for tid, res in rec.evaluation.results.items():
        mentioned = f"task {numbers[tid]} / crit" in rec.feedback
        assert mentioned == (res.status == "failed"), (tid, res.status, rec.feedback)


async def test_prd_start_and_early_stop(mini, tmp_path):
    store = RunStore(tmp_path / "run")
    spec = CellSpec(task="mini-todo", agent_options={"profile": "perfect"}, rounds=3,
                    start="prd", ui_options=PATIENT)
    result = await run_cell(spec, mini, store, Deployer())
    assert result.rounds_run == 1 and result.stopped_early and result.all_passed
    assert "Everything I tested works" in store.load_round(spec.cell_id, 1).feedback
    # a finished cell is skipped on re-run
    again = await run_cell(spec, mini, store, Deployer())
    assert again == result


def _asuka(*args: str, **kw) -> subprocess.Popen:
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "false"}
    return subprocess.Popen([sys.executable, "-m", "asuka.cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, **kw)


def _numbers(summary: dict) -> list:
    return [(c["cell_id"], [(r["task_pass_rate"], r["criteria_pass_rate"], r["completion"],
                             r["counts"]) for r in c["rounds"]]) for c in summary["cells"]]


@pytest.mark.timeout(1200)  # three runs of the loop in subprocesses
def test_resume_after_kill9_matches_uninterrupted_run(tmp_path):
    args = ["run", "--bench", str(MINI), "--task", "mini-todo", "--profile", "weak",
            "--rounds", "2", "--seed", "3", "--out", str(tmp_path), *PATIENT_ARGS]
    full = _asuka(*args, "--run-id", "straight")
    out, _ = full.communicate(timeout=600)
    assert full.returncode == 0, out

    victim = _asuka(*args, "--run-id", "crashy")
    run_dir = tmp_path / "crashy"
    deadline = time.time() + 300
    round2 = None
    while time.time() < deadline:
        hits = list(run_dir.glob("*/round-2/workspace"))
        if hits and not (hits[0].parent / "DONE").exists():
            round2 = hits[0].parent
            break
        time.sleep(0.05)
    assert round2 is not None, "never saw round 2 in progress"
    os.killpg(victim.pid, signal.SIGKILL)
    victim.wait(timeout=30)
    assert not (round2 / "DONE").exists()
    round1_done = (round2.parent / "round-1" / "DONE").read_text()

    again = _asuka(*args, "--run-id", "crashy")
    out, _ = again.communicate(timeout=600)
    assert again.returncode == 0, out
    cell = round2.parent
    assert (cell / "round-1" / "DONE").read_text() == round1_done, "round 1 was redone"
    assert list(cell.glob("round-2.aborted-*")), "the interrupted round was not kept aside"
    a = json.loads((tmp_path / "straight" / "summary.json").read_text())
    b = json.loads((run_dir / "summary.json").read_text())
    assert _numbers(a) == _numbers(b)


@pytest.mark.timeout(900)
def test_summary_json_fields(tmp_path):
    proc = _asuka("run", "--bench", str(MINI), "--profile", "strong", "--rounds", "2",
                  "--protocol", "full", "--out", str(tmp_path), "--run-id", "s")
    out, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, out
    assert "PCR" in out and "run directory:" in out
    # not a terminal: the summary is plain aligned text (no box characters) with its legend
    assert not re.search("[\u2500-\u257f]", out) and "Columns: R1..R2" in out, out
    # not a terminal: one line per finished cell instead of a live bar
    assert re.search(r"cell 1/1 done in \d+s: sim-strong_mini-todo_", out), out
    s = json.loads((tmp_path / "s" / "summary.json").read_text())
    cell = s["cells"][0]
    assert len(cell["rounds"]) == 2
    r1 = cell["rounds"][0]
    for key in ("task_pass_rate", "criteria_pass_rate", "completion"):
        assert set(r1[key]) == {"cumulative", "same-artifact"}
        assert "full_" + key in r1  # the ungated outcome under the full protocol
    assert set(r1["counts"]) >= {"executed", "skipped", "error"}
    g = s["groups"][0]
    assert g["rounds"][0]["task_pass_rate.cumulative"]["n"] == 1
