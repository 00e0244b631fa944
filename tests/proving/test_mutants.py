"""`asuka validate --mutants`: the proof that checks measure something must itself be able to
fail. The mini-todo fixture passes; a copy whose feature map lies is caught on both counts
(a vacuous mapping and an unmapped dependency)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import load_tasks
from asuka.benchmark.proof import proof_judge, proof_state, proven_with_ladder, write_proof
from asuka.cli import app
from asuka.deploy import Deployer
from asuka.proving.mutants import MUTANT_UI_DEFAULTS, MutantResult, TaskMutantReport, check_task
from asuka.uiagents import get as get_ui_agent
from asuka.uiagents.scripted.code_fingerprint import judge_fingerprint, source_fingerprint
from tests.builders import FIXTURES

MINI = FIXTURES / "bench"
PATIENT = {"assert_timeout_s": 4, "action_timeout_s": 8}


@pytest.mark.browser
@pytest.mark.timeout(900)
def test_mutants_pass_on_an_honest_task(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    shutil.copytree(MINI, bench)
    res = CliRunner().invoke(app, ["validate", "--mutants", "--bench", str(bench), "mini-todo",
                                   "--concurrency", "2", "--ui-opt", "assert_timeout_s=4",
                                   "--ui-opt", "action_timeout_s=8"])
    assert res.exit_code == 0, res.output
    assert "ok mini-todo: reference passes every check" in " ".join(res.output.split())
    assert "mini-todo [1/" in res.output and "] reference: ok" in res.output  # not a terminal
    # the complete run left its proof, listing what each mutant failed
    proof = json.loads((bench / "tasks" / "mini-todo" / "proof.json").read_text())
    runs = {(r["feature"], r["state"]): r for r in proof["runs"]}
    assert runs[("reference", "ok")]["failed"] == []
    assert runs[("add", "missing")]["failed"] == ["t1", "t2", "t4"]
    assert proof["mutant_runs"] == len(proof["runs"]) > 2
    res = CliRunner().invoke(app, ["validate", "--bench", str(bench), "mini-todo"])
    assert "proofs 1 proven" in res.output, res.output
    # a proving run over everything resumes: the proven task is not run again
    res = CliRunner().invoke(app, ["validate", "--mutants", "--skip-proven", "--drafts",
                                   "--bench", str(bench)])
    assert res.exit_code == 0 and "skipping 1 proven task(s): mini-todo" in res.output
    assert "[1/" not in res.output


def test_a_proof_goes_stale_when_the_task_changes(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    shutil.copytree(MINI, bench)
    task_dir = bench / "tasks" / "mini-todo"
    (bt,) = load_tasks(bench, ["mini-todo"])
    assert proof_state(bt) == "unproven"
    report = TaskMutantReport("mini-todo", [MutantResult(None, "ok", set(), set())])
    write_proof(bt, report)
    assert proof_state(bt) == "proven" and not proven_with_ladder(bt)
    res = CliRunner().invoke(app, ["validate", "--bench", str(bench), "mini-todo"])
    assert "1 proven (1 before the ladder: mini-todo; 1 by another judge" in res.output, \
        res.output
    write_proof(bt, TaskMutantReport("mini-todo", report.results, ladder=True))
    assert proof_state(bt) == "proven" and proven_with_ladder(bt)
    # a proof names the judge that made it: one made by another judge is named as such
    res = CliRunner().invoke(app, ["validate", "--bench", str(bench), "mini-todo"])
    assert "1 proven (1 by another judge than today's: mini-todo)" in res.output, res.output
    write_proof(bt, TaskMutantReport("mini-todo", report.results, ladder=True,
                                     judge=judge_fingerprint()))
    assert proof_judge(bt) == judge_fingerprint()
    res = CliRunner().invoke(app, ["validate", "--bench", str(bench), "mini-todo"])
    assert "proofs 1 proven\n" in res.output, res.output
    yaml_path = task_dir / "task.yaml"
    yaml_path.write_text(yaml_path.read_text() + "status: draft\n")  # promotion/demotion
    (bt,) = load_tasks(bench, ["mini-todo"])
    assert bt.task.status == "draft" and proof_state(bt) == "proven"
    page = next(p for p in (task_dir / "reference").rglob("*.html"))
    page.write_text(page.read_text() + "<!-- edited -->\n")
    assert proof_state(bt) == "stale"
    res = CliRunner().invoke(app, ["validate", "--bench", str(bench), "mini-todo"])
    assert "1 stale (mini-todo)" in res.output, res.output
    (task_dir / "proof.json").write_text("{not json")
    assert proof_state(bt) == "unproven"


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_skip_proven_proves_again_what_another_judge_proved(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    shutil.copytree(MINI, bench)
    (bt,) = load_tasks(bench, ["mini-todo"])
    write_proof(bt, TaskMutantReport("mini-todo", [MutantResult(None, "ok", set(), set())],
                                     ladder=True, judge="0" * 16))
    res = CliRunner().invoke(app, ["validate", "--mutants", "--skip-proven", "--bench",
                                   str(bench), "mini-todo", "--feature", "reference",
                                   "--ui-opt", "assert_timeout_s=4"])
    assert res.exit_code == 0, res.output
    assert "proving again 1 task(s) proven by another judge: mini-todo" in res.output
    assert "] reference: ok" in res.output and "skipping" not in res.output


def test_the_judge_fingerprint_follows_code_not_comments(tmp_path: Path) -> None:
    """A proof records the judge's code by its syntax: a comment or docstring edited leaves
    the fingerprint as it was, a changed constant (a script run in the page) changes it."""
    mod = tmp_path / "rung.py"

    def fp(text: str) -> str:
        mod.write_text(text)
        return source_fingerprint([mod], tmp_path)

    base = fp('"""Doc."""\nJS = "el => el.innerText"\ndef f(x):\n    return x + 1\n')
    assert fp('"""Other doc."""\n# why\nJS = "el => el.innerText"\n'
              'def f(x):\n    """f."""\n    return x + 1  # one more\n') == base
    assert fp('"""Doc."""\nJS = "el => el.textContent"\ndef f(x):\n    return x + 1\n') != base
    assert fp('"""Doc."""\nJS = "el => el.innerText"\ndef f(x):\n    return x + 2\n') != base
    assert len(judge_fingerprint()) == 16


def test_mutants_feature_selection() -> None:
    from asuka.proving.mutants import plan_for

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
    lines: list[str] = []
    # the two lying features, as `validate --mutants` runs them (the other mutants of mini-todo
    # are the honest test's)
    report = await check_task(bt, get_ui_agent("scripted", **{**MUTANT_UI_DEFAULTS, **PATIENT}),
                              Deployer(), concurrency=2, features=["heading", "add"],
                              log=lines.append)
    assert not report.ok
    # each problem is logged right after its mutant's line, not only in the final summary
    at = lines.index(next(x for x in lines if "] heading missing: 1 problem(s)" in x))
    assert lines[at + 1] == "  mini-todo heading missing: vacuous: t1 still passes with heading missing"
    problems = {(r.feature, r.state): r.problems for r in report.results if r.problems}
    assert problems.get(("heading", "missing")) == [
        "vacuous: t1 still passes with heading missing"]
    (unmapped,) = problems[("add", "missing")]
    assert unmapped.startswith("unmapped dependency: with add missing, t4:")
    assert set(problems) == {("heading", "missing"), ("add", "missing")}
    reference = report.results[0]
    assert reference.feature is None and reference.ok
