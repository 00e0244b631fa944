"""Benchmark statistics, as the paper reports them in §3.3 (pure)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from asuka.dag import CriterionDag
from asuka.schema import CATEGORIES, TASK_TYPES, BenchTask
from asuka.vocabulary import CAPABILITIES

# Asuka-Bench §3.3 and Figure 3, for side-by-side display.
PAPER = {
    "tasks": 50, "eval_tasks": 784, "criteria": 2402,
    "eval_tasks_per_task": 15.7, "criteria_per_eval_task": 3.1,
    "types": {"functionality": 0.628, "robustness": 0.208, "presence": 0.165},
    "weight_mean": 2.96, "dag_depth_mean": 4.4, "dag_depth_max": 9,
    "categories": {"utility": 0.38, "data-visualization": 0.22, "management": 0.20,
                   "e-commerce": 0.08, "marketing": 0.06, "social": 0.06},
}
# JoyFrontBench's Table 4: tasks per capability dimension (764 in all), for side-by-side display
JOYFRONT_CAPABILITIES = {
    "component-completeness": 105, "representation-fidelity": 42, "visual-quality": 91,
    "interaction-responsiveness": 38, "computational-rendering": 108, "rule-simulation": 234,
    "state-management": 118, "data-exchange": 28,
}


@dataclass
class BenchStats:
    tasks: int = 0
    eval_tasks: int = 0
    criteria: int = 0
    checked_criteria: int = 0
    types: dict[str, float] = field(default_factory=dict)
    weight_mean: float = 0.0
    dag_depth_mean: float = 0.0
    dag_depth_max: int = 0
    categories: dict[str, float] = field(default_factory=dict)
    # acceptance contracts: tasks declaring one, core evaluation tasks, mandatory criteria,
    # and the share of labelled evaluation tasks per capability (None: no task is labelled)
    tasks_with_contracts: int = 0
    core_tasks: int = 0
    mandatory_criteria: int = 0
    pairwise_tasks: int = 0      # presentation tasks judged against the reference app
    capabilities: dict[str, float] | None = None
    tiers: dict[str, int] = field(default_factory=dict)  # difficulty tier -> tasks

    @property
    def eval_tasks_per_task(self) -> float:
        return self.eval_tasks / self.tasks if self.tasks else 0.0

    @property
    def criteria_per_eval_task(self) -> float:
        return self.criteria / self.eval_tasks if self.eval_tasks else 0.0


def bench_stats(tasks: list[BenchTask]) -> BenchStats:
    s = BenchStats(tasks=len(tasks))
    if not tasks:
        return s
    ets = [et for t in tasks for et in t.task.eval_tasks]
    s.eval_tasks = len(ets)
    s.criteria = sum(len(et.criteria) for et in ets)
    s.checked_criteria = sum(c.check is not None for et in ets for c in et.criteria)
    types: Counter[str] = Counter(et.type for et in ets)
    s.types = {t: types[t] / len(ets) for t in TASK_TYPES}
    s.weight_mean = sum(et.weight for et in ets) / len(ets)
    depths = [CriterionDag.of(t.task, t.dag).depth() for t in tasks]
    s.dag_depth_mean = sum(depths) / len(depths)
    s.dag_depth_max = max(depths)
    cats: Counter[str] = Counter(t.task.category for t in tasks)
    s.categories = {c: cats[c] / len(tasks) for c in CATEGORIES}
    s.tasks_with_contracts = sum(any(et.core for et in t.task.eval_tasks) for t in tasks)
    s.core_tasks = sum(et.core for et in ets)
    s.mandatory_criteria = sum(c.mandatory for et in ets for c in et.criteria)
    pairwise = [p for t in tasks for p in t.task.pairwise]
    s.pairwise_tasks = len(pairwise)
    # JoyFrontBench counts its pairwise tasks in the capability distribution too
    caps: Counter[str] = Counter([et.capability for et in ets if et.capability]
                                  + [p.capability for p in pairwise])
    labelled = sum(caps.values())
    s.capabilities = {c: caps[c] / labelled for c in CAPABILITIES} if labelled else None
    tiers = Counter(difficulty(t)[0] for t in tasks)
    s.tiers = {tier: tiers[tier] for tier in TIERS}
    return s


TIERS = ("L1", "L2", "L3")
# steps whose criteria exercise state beyond one page view (LiveEvalBench's state complexity)
STATE_OPS = ("reload", "upload")


def difficulty(bt: BenchTask) -> tuple[str, dict[str, int]]:
    """A task's tier by a fixed rule (LiveEvalBench's L1-L3 from views, dependency and state):
    views, the distinct pages and #routes its checks open; depth, its DAG's; state, the
    evaluation tasks whose checks reload the page, upload a file or run as one flow. Each
    scores 0-2 (views 1 / 2-3 / 4+, depth <=3 / 4-5 / 6+, state 0-1 / 2-4 / 5+); a total of
    0-1 is L1, 2-3 L2, 4-6 L3."""
    views: set[str] = set()
    state = 0
    for et in bt.task.eval_tasks:
        steps = [step for c in et.criteria for step in c.check or []]
        views |= {str(step.arg).split("?")[0] for step in steps if step.op == "goto"}
        state += any(step.op in STATE_OPS for step in steps) or bool(et.shared_context)
    depth = CriterionDag.of(bt.task, bt.dag).depth()
    facts = {"views": max(len(views), 1), "depth": depth, "state": state}
    score = ((facts["views"] >= 2) + (facts["views"] >= 4) + (depth >= 4) + (depth >= 6)
             + (state >= 2) + (state >= 5))
    return ("L1" if score <= 1 else "L2" if score <= 3 else "L3"), facts
