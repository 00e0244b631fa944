"""The DAG-based evaluation protocol (paper §3.1, appendix "Why a soft satisfaction threshold").

Evaluation tasks run in topological generations of the task's dependency DAG. Under ``dag`` a
child runs only when every parent is *satisfied*: executed with a criteria pass ratio >= T, or
undecided (``error``: the harness or judge could not decide it even after ``max_retry`` retries;
that is not the agent's failure, so it blocks nothing).
``flat`` runs everything; ``full`` runs everything and also records what ``dag`` would have
produced on the same verdicts, which is what the DAG gap is measured on.

The engine knows nothing about browsers: it calls an async evaluator per evaluation task.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping

import networkx as nx

from asuka.schema import DagSpec, EvalTask, EvalTaskResult, RoundEvaluation, Task
from asuka.vocabulary import PROTOCOLS, Protocol

Evaluator = Callable[[EvalTask], Awaitable[EvalTaskResult]]


class CycleError(ValueError):
    def __init__(self, cycle: list[str]) -> None:
        self.cycle = cycle
        super().__init__("cycle: " + " -> ".join(cycle + cycle[:1]))


class CriterionDag:
    """Dependency graph over a task's evaluation tasks (edge = parent before child)."""

    def __init__(self, nodes: Iterable[str], edges: Iterable[tuple[str, str]]) -> None:
        self.graph = nx.DiGraph()
        self.graph.add_nodes_from(nodes)
        unknown = [(a, b) for a, b in edges if a not in self.graph or b not in self.graph]
        if unknown:
            raise ValueError(f"edges to unknown evaluation tasks: {unknown}")
        self.graph.add_edges_from(edges)
        cycle = find_cycle(self.graph)
        if cycle:
            raise CycleError(cycle)
        # keep the task file's order inside a generation: stable output, stable feedback
        self._order = {n: i for i, n in enumerate(self.graph.nodes)}

    @classmethod
    def of(cls, task: Task, spec: DagSpec) -> CriterionDag:
        return cls([et.id for et in task.eval_tasks], spec.edges)

    def parents(self, node: str) -> list[str]:
        return sorted(self.graph.predecessors(node), key=self._order.__getitem__)

    def generations(self) -> list[list[str]]:
        return [sorted(g, key=self._order.__getitem__)
                for g in nx.topological_generations(self.graph)]

    def depth(self) -> int:
        """Number of levels (a graph without edges has depth 1)."""
        return len(self.generations()) if len(self.graph) else 0


def find_cycle(graph: nx.DiGraph) -> list[str] | None:
    try:
        edges = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return None
    return [a for a, _ in edges]


def satisfied(result: EvalTaskResult | None, threshold: float) -> bool:
    """Soft satisfaction: executed and at least ``threshold`` of the criteria passed."""
    if result is None or result.status not in ("passed", "failed"):
        return False
    return result.pass_ratio >= threshold - 1e-12


def blocks(result: EvalTaskResult | None, threshold: float) -> bool:
    """Whether a parent's outcome keeps its children from running. A parent the harness or
    judge could not decide (``error``, after its retries) does not block: not knowing whether it
    is satisfied is not the agent's failure, so its children are still evaluated."""
    if result is not None and result.status == "error":
        return False
    return not satisfied(result, threshold)


def skipped(eval_task_id: str, because: list[str]) -> EvalTaskResult:
    return EvalTaskResult(eval_task_id=eval_task_id, status="skipped", skipped_because=because)


def apply_gating(results: Mapping[str, EvalTaskResult], dag: CriterionDag,
                 threshold: float) -> dict[str, EvalTaskResult]:
    """What the ``dag`` protocol yields on verdicts that were all executed (pure)."""
    out: dict[str, EvalTaskResult] = {}
    for generation in dag.generations():
        for node in generation:
            blocked = [p for p in dag.parents(node) if blocks(out.get(p), threshold)]
            out[node] = skipped(node, blocked) if blocked else results[node]
    return out


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


def feedback_view(evaluation: RoundEvaluation) -> dict[str, EvalTaskResult]:
    """The outcome feedback is built from: the gated one under ``full``, else the results."""
    return evaluation.gated if evaluation.gated is not None else evaluation.results


def executed_failures(evaluation: RoundEvaluation) -> list[str]:
    """Ids of evaluation tasks that were executed and failed (never skipped ones)."""
    return [i for i, r in feedback_view(evaluation).items() if r.status == "failed"]
