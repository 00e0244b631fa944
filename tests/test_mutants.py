"""`asuka validate --mutants`: the proof that checks measure something must itself be able to
fail. The mini-todo fixture passes; a copy whose feature map lies is caught on both counts
(a vacuous mapping and an unmapped dependency)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.bench import load_tasks
from asuka.cli import app
from asuka.deploy import Deployer
from asuka.mutants import check_task
from asuka.uiagents import get as get_ui_agent

MINI = Path(__file__).resolve().parent / "fixtures" / "bench"
PATIENT = {"assert_timeout_s": 4, "action_timeout_s": 8}


@pytest.mark.browser
@pytest.mark.timeout(900)
def test_mutants_pass_on_an_honest_task() -> None:
    res = CliRunner().invoke(app, ["validate", "--mutants", "--bench", str(MINI), "mini-todo",
                                   "--concurrency", "2", "--ui-opt", "assert_timeout_s=4",
                                   "--ui-opt", "action_timeout_s=8"])
    assert res.exit_code == 0, res.output
    assert "ok mini-todo: reference passes every check" in " ".join(res.output.split())
    assert "mini-todo [1/" in res.output and "] reference: ok" in res.output  # not a terminal


def test_mutants_feature_selection() -> None:
    from asuka.mutants import plan_for

    (bt,) = load_tasks(MINI, ["mini-todo"])
    assert [(f, s) for f, s, _ in plan_for(bt, ["reference"])] == [(None, "ok")]
    assert [(f, s) for f, s, _ in plan_for(bt, ["add"])] == [
        (None, "ok"), ("add", "missing"), ("add", "broken")]
    res = CliRunner().invoke(app, ["validate", "--mutants", "--bench", str(MINI), "mini-todo",
                                   "--feature", "nope"])
    assert res.exit_code == 2 and "no feature nope" in res.output


@pytest.mark.browser
@pytest.mark.timeout(900)
async def test_mutants_catch_a_lying_feature_map(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    shutil.copytree(MINI, bench)
    yaml_path = bench / "tasks" / "mini-todo" / "task.yaml"
    text = yaml_path.read_text()
    text = text.replace("  heading: [t0]\n", "  heading: [t0, t1]\n")   # t1 has no heading check
    text = text.replace("  add: {tasks: [t1, t2, t4], broken: [t1]}\n",
                        "  add: {tasks: [t1, t2], broken: [t1]}\n")   # t4 needs adding too
    assert text != yaml_path.read_text()
    yaml_path.write_text(text)
    (bt,) = load_tasks(bench, ["mini-todo"])
    report = await check_task(bt, get_ui_agent("scripted", **PATIENT), Deployer(),
                              concurrency=2)
    assert not report.ok
    problems = {(r.feature, r.state): r.problems for r in report.results if r.problems}
    assert problems.get(("heading", "missing")) == [
        "vacuous: t1 still passes with heading missing"]
    (unmapped,) = problems[("add", "missing")]
    assert unmapped.startswith("unmapped dependency: with add missing, t4:")
    assert set(problems) == {("heading", "missing"), ("add", "missing")}
    reference = report.results[0]
    assert reference.feature is None and reference.ok
