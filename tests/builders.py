"""Builders the tests share: small benchmark directories on disk (a valid one, then broken
copies), and runs written into a RunStore by hand, as the loop writes them (no browser)."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from asuka.codeagents.base import AgentRoundResult
from asuka.log.cellspec import CellSpec
from asuka.log.provenance import cell_provenance
from asuka.log.records import CellResult
from asuka.log.store import RoundRecord, RunStore
from asuka.schema import BenchTask, EvalTaskResult, RoundEvaluation, Verdict
from asuka.usage import Usage

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
MINI = FIXTURES / "bench"
TASKS = ("mini-todo", "mini-todo-2")
BUDGET = 2
ALL = {"t0", "t1", "t2", "t3", "t4"}

# ------------------------------------------------------------ a benchmark on disk

TASK = {
    "id": "mini",
    "title": "Mini counter",
    "category": "utility",
    "query": "Make me a counter page.",
    "data": ["data/seed.json"],
    "eval_tasks": [
        {"id": "t0", "summary": "Layout present", "type": "presence", "weight": 2,
         "criteria": [{"id": "t0.c0", "text": "A heading is shown.",
                       "check": [{"goto": "/"}, {"expect_visible": {"role": "heading"}}]},
                      {"id": "t0.c1", "text": "A counter button is shown."}]},
        {"id": "t1", "summary": "Counting", "type": "functionality", "weight": 3,
         "criteria": [{"id": "t1.c0", "text": "Clicking increments."}]},
        {"id": "t2", "summary": "Reset", "type": "robustness", "weight": 4,
         "criteria": [{"id": "t2.c0", "text": "Reset returns to zero."}]},
    ],
}
DAG = {"edges": [["t0", "t1"], ["t1", "t2"]]}


def write_bench(root: Path, task: dict | None = None, dag: dict | None = None,
                prd: str | None = "# PRD\n\nA counter.\n", task_text: str | None = None,
                dag_text: str | None = None) -> Path:
    t = task if task is not None else TASK
    tid = t.get("id", "mini") if isinstance(t, dict) else "mini"
    folder = root / "tasks" / tid
    (folder / "data").mkdir(parents=True, exist_ok=True)
    (folder / "data" / "seed.json").write_text("{}")
    (folder / "task.yaml").write_text(task_text if task_text is not None
                                      else yaml.safe_dump(t, sort_keys=False))
    (root / "prds").mkdir(exist_ok=True)
    (root / "dags").mkdir(exist_ok=True)
    if prd is not None:
        (root / "prds" / f"{tid}.md").write_text(prd)
    (root / "dags" / f"{tid}.yaml").write_text(dag_text if dag_text is not None
                                               else yaml.safe_dump(dag if dag is not None else DAG))
    return root


# ------------------------------------------------------------ building a run by hand

def copy_bench(dest: Path) -> Path:
    """The mini benchmark with a second copy of its task (two projects)."""
    shutil.copytree(MINI, dest)
    shutil.copytree(dest / "tasks" / "mini-todo", dest / "tasks" / "mini-todo-2")
    y = dest / "tasks" / "mini-todo-2" / "task.yaml"
    y.write_text(y.read_text().replace("id: mini-todo", "id: mini-todo-2", 1))
    for d, ext in (("prds", "md"), ("dags", "yaml")):
        shutil.copy(dest / d / f"mini-todo.{ext}", dest / d / f"mini-todo-2.{ext}")
    return dest


def evaluation(bt: BenchTask, passed: set[str], errors: set[str] = frozenset(),
               deploy_ok: bool = True) -> RoundEvaluation:
    """A round's outcome: ``passed`` tasks pass every criterion; ``errors`` end in error (one
    criterion undecided); the others fail their last criteria. A failed deploy runs nothing."""
    results = {}
    for et in bt.task.eval_tasks:
        ids = [c.id for c in et.criteria]
        if not deploy_ok:
            results[et.id] = EvalTaskResult(eval_task_id=et.id, status="failed", attempts=0,
                                            error="deploy failed")
            continue
        if et.id in passed:
            verdicts = [Verdict(criterion_id=i, status="pass") for i in ids]
            status = "passed"
        elif et.id in errors:
            verdicts = [Verdict(criterion_id=ids[0], status="pass")] + [
                Verdict(criterion_id=i, status="error", reason="judge ran out of steps")
                for i in ids[1:]]
            status = "error"
        else:
            verdicts = [Verdict(criterion_id=ids[0], status="pass")] + [
                Verdict(criterion_id=i, status="fail") for i in ids[1:]]
            status = "failed"
        results[et.id] = EvalTaskResult(eval_task_id=et.id, status=status, verdicts=verdicts,
                                        attempts=1)
    return RoundEvaluation(protocol="flat", threshold=0.5, results=results, deploy_ok=deploy_ok)


def record_cell(store: RunStore, bt: BenchTask, spec: CellSpec, rounds: list[RoundEvaluation],
                finished: bool = True, stopped_early: bool = False) -> str:
    """Write a cell as the loop does (cell.json with provenance, rounds, result.json)."""
    data = {**spec.model_dump(), "label": spec.agent_label}
    store.start_cell(spec.cell_id, {**data, "provenance": cell_provenance(bt, data)})
    for r, ev in enumerate(rounds, 1):
        store.begin_round(spec.cell_id, r)
        usage = [Usage(role="ui-agent", calls=1, input_tokens=100 * r, output_tokens=r)]
        store.finish_round(spec.cell_id, RoundRecord(
            round=r, evaluation=ev, agent=AgentRoundResult(usage=usage), feedback="fb"))
    if finished:
        store.finish_cell(spec.cell_id, CellResult(cell_id=spec.cell_id, rounds_run=len(rounds),
                                                   budget=spec.rounds, stopped_early=stopped_early))
    return spec.cell_id


def cell_spec(task: str, seed: int, verbosity: str, **kw) -> CellSpec:
    return CellSpec(task=task, seed=seed, rounds=BUDGET, protocol="flat", agent="sim",
                    agent_options={"profile": "weak"}, user_options={"verbosity": verbosity},
                    **kw)
