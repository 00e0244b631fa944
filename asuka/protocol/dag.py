"""The DAG-based evaluation protocol (paper §3.1, appendix "Why a soft satisfaction threshold").

Evaluation tasks run in topological generations of the task's dependency DAG. Under ``dag`` a
child runs only when every parent is *satisfied*: executed with a criteria pass ratio >= T, or
undecided (``error``: the harness or judge could not decide it even after ``max_retry`` retries;
that is not the agent's failure, so it blocks nothing).
``flat`` runs everything; ``full`` runs everything and also records what ``dag`` would have
produced on the same verdicts, which is what the DAG gap is measured on.

The engine knows nothing about browsers: it calls an async evaluator per evaluation task. The
DAG itself and the gating rule are ``asuka.dag`` (core: the loader and the users read them too).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from asuka.dag import CriterionDag, apply_gating, blocks, skipped
from asuka.schema import EvalTask, EvalTaskResult, RoundEvaluation, Task
from asuka.vocabulary import PROTOCOLS, Protocol

Evaluator = Callable[[EvalTask], Awaitable[EvalTaskResult]]


async def _evaluate_once(evaluator: Evaluator, et: EvalTask, sem: asyncio.Semaphore,
                         attempt: int) -> EvalTaskResult:
    async with sem:
        t0 = time.perf_counter()
        try:
            res = await evaluator(et)
        except Exception as exc:  # an evaluator bug or infrastructure failure is an error status
            res = EvalTaskResult(eval_task_id=et.id, status="error",
                                 error=f"{type(exc).__name__}: {exc}",
                                 duration_s=time.perf_counter() - t0)
        return res.model_copy(update={"attempts": attempt})


async def _run_layer(evaluator: Evaluator, tasks: list[EvalTask], sem: asyncio.Semaphore,
                     max_retry: int) -> dict[str, EvalTaskResult]:
    """Run one layer; re-run its errored evaluations up to ``max_retry`` times."""
    results: dict[str, EvalTaskResult] = {}
    pending = tasks
    for attempt in range(1, max_retry + 2):
        done = await asyncio.gather(*(_evaluate_once(evaluator, et, sem, attempt)
                                      for et in pending))
        for res in done:
            results[res.eval_task_id] = res
        pending = [et for et in pending if results[et.id].status == "error"]
        if not pending:
            break
    return results


async def run_protocol(task: Task, dag: CriterionDag, evaluator: Evaluator, *,
                       protocol: Protocol = "dag", threshold: float = 0.5,
                       concurrency: int = 3, max_retry: int = 3) -> RoundEvaluation:
    """Evaluate every evaluation task of ``task`` under ``protocol``."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be in [0, 1], got {threshold}")
    sem = asyncio.Semaphore(max(1, concurrency))
    by_id = {et.id: et for et in task.eval_tasks}
    results: dict[str, EvalTaskResult] = {}
    # only the dag protocol needs a layer's outcome before the next; the others run as one layer
    # (so a slow task of one generation does not hold up the whole next one)
    layers = (dag.generations() if protocol == "dag"
              else [[n for g in dag.generations() for n in g]])
    for generation in layers:
        runnable: list[EvalTask] = []
        for node in generation:
            blocked = [] if protocol != "dag" else [
                p for p in dag.parents(node) if blocks(results.get(p), threshold)]
            if blocked:
                results[node] = skipped(node, blocked)
            else:
                runnable.append(by_id[node])
        results.update(await _run_layer(evaluator, runnable, sem, max_retry))
    ordered = {et.id: results[et.id] for et in task.eval_tasks}
    gated = apply_gating(ordered, dag, threshold) if protocol == "full" else None
    return RoundEvaluation(protocol=protocol, threshold=threshold, results=ordered, gated=gated)
