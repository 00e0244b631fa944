"""The sequential mode (Web-Bench's protocol, as WatchPoint runs it): a cell works through its
task's evaluation tasks in order, one step each. At step k the code agent gets task k's
description (and what the earlier steps built) plus, on a retry, the feedback on its failed
attempt; the workspace carries over; the evaluation is cumulative (tasks 1..k, along the
task's DAG, so an earlier task that breaks again fails the step). Each step has ``rounds``
attempts (Web-Bench: 2); a step still failing after them stops the project: the later tasks
count as not passed. Every attempt is one round of the run store, with its step recorded.

WatchPoint's measures of a sequential cell (Pass@1, Pass@2, recovery) are
``asuka.log.sequence.sequence_metrics``, pure functions of these records."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from asuka.log.records import CellResult, RoundRecord
from asuka.log.sequence import sequence_metrics, step_passed
from asuka.loop.cell import ROUND_STRATEGIES, CellRun
from asuka.schema import BenchTask

TEMPLATES = Path(__file__).parent / "templates"


def step_task(bt: BenchTask, k: int) -> BenchTask:
    """The task as step ``k`` (0-based) sees it: task k's description as the query, and the
    evaluation tasks 1..k with the DAG's edges among them."""
    ets = bt.task.eval_tasks[: k + 1]
    ids = {et.id for et in ets}
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined,
                      autoescape=False)
    serve = bt.task.serve
    query = env.get_template("step.md.j2").render(
        description=ets[-1].summary, done=ets[:-1],
        source=serve.source if serve is not None and serve.project else None).strip() + "\n"
    dag = bt.dag.model_copy(update={"edges": [e for e in bt.dag.edges if set(e) <= ids]})
    task = bt.task.model_copy(update={"eval_tasks": ets, "query": query})
    return bt.model_copy(update={"task": task, "dag": dag})


def where(history: Sequence[RoundRecord], attempts: int) -> tuple[int, int, bool]:
    """(next step, its attempt, stopped) after the recorded rounds."""
    if not history or history[-1].step is None:
        return 0, 1, False
    last = history[-1].step
    if step_passed(history[-1]):
        return int(last["index"]) + 1, 1, False
    if int(last["attempt"]) < attempts:
        return int(last["index"]), int(last["attempt"]) + 1, False
    return int(last["index"]), int(last["attempt"]), True


async def run_sequence(run: CellRun) -> CellResult:
    spec, bt = run.spec, run.bt
    n = len(bt.task.eval_tasks)
    k, attempt, stopped = where(run.history, spec.rounds)
    while k < n and not stopped:
        step = {"task": bt.task.eval_tasks[k].id, "index": k, "attempt": attempt}
        await run.play(len(run.history) + 1, step_task(bt, k), step)
        k, attempt, stopped = where(run.history, spec.rounds)
    metrics = sequence_metrics(run.history, n)
    return CellResult(cell_id=spec.cell_id, rounds_run=len(run.history), budget=spec.rounds * n,
                      stopped_early=stopped, mode="sequential",
                      all_passed=metrics["passed"] == n, **metrics)


ROUND_STRATEGIES["sequential"] = run_sequence
