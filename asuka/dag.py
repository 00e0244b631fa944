"""A task's dependency DAG over its evaluation tasks, and the soft-satisfaction rule that gates
them (paper §3.1): pure data and pure functions, read by the loader, the users and the readers
as well as by the protocol engine (``asuka.protocol.dag``).

Under ``dag`` a child runs only when every parent is *satisfied*: executed with a criteria pass
ratio >= T, or undecided (``error``: the harness or judge could not decide it even after its
retries; that is not the agent's failure, so it blocks nothing).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import networkx as nx

from asuka.schema import DagSpec, EvalTaskResult, RoundEvaluation, Task


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


def feedback_view(evaluation: RoundEvaluation) -> dict[str, EvalTaskResult]:
    """The outcome feedback is built from: the gated one under ``full``, else the results."""
    return evaluation.gated if evaluation.gated is not None else evaluation.results


def executed_failures(evaluation: RoundEvaluation) -> list[str]:
    """Ids of evaluation tasks that were executed and failed (never skipped ones)."""
    return [i for i, r in feedback_view(evaluation).items() if r.status == "failed"]
