"""Metrics over recorded verdicts (paper §4.1, DESIGN.md §5). Pure functions: no I/O.

A cell's history is a list of rounds; each round maps evaluation-task id -> EvalTaskResult (the
protocol's outcome on that round's artifact). ``Shape`` says what a perfect score is: each
evaluation task's weight and criterion ids.

Two views of a round r:
- ``cumulative``: an evaluation task (criterion) counts once it has passed in any round <= r —
  the paper's reading of Table 1;
- ``same-artifact``: only what passes on round r's artifact (JoyFrontBench's rule). The views differ
  exactly when something regresses.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import stats

from asuka.schema import EvalTaskResult, Task

View = Literal["cumulative", "same-artifact"]
VIEWS: tuple[str, ...] = ("cumulative", "same-artifact")
Round = Mapping[str, EvalTaskResult]


@dataclass(frozen=True)
class Shape:
    weights: dict[str, int]
    criteria: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, task: Task) -> Shape:
        return cls(weights={et.id: et.weight for et in task.eval_tasks},
                   criteria={et.id: tuple(c.id for c in et.criteria) for et in task.eval_tasks})

    @property
    def total_weight(self) -> int:
        return sum(self.weights.values())

    def all_criteria(self) -> set[str]:
        return {c for cs in self.criteria.values() for c in cs}


# ------------------------------------------------------------ per round, one artifact

def passed_tasks(rnd: Round) -> set[str]:
    return {i for i, r in rnd.items() if r.status == "passed"}


def passed_criteria(rnd: Round) -> set[str]:
    """Criteria that passed on this artifact (skipped tasks contribute none)."""
    return {v.criterion_id for r in rnd.values() if r.status in ("passed", "failed")
            for v in r.verdicts if v.status == "pass"}


def implemented_tasks(rnd: Round) -> set[str]:
    """Attempted tasks: at least one criterion passed (paper Figure 6)."""
    return {i for i, r in rnd.items() if r.status in ("passed", "failed") and r.n_pass > 0}


# ------------------------------------------------------------ the metrics

def weighted_task_pass_rate(shape: Shape, passed: set[str]) -> float:
    """Σ_{i passed} w_i / Σ_i w_i."""
    return sum(w for i, w in shape.weights.items() if i in passed) / shape.total_weight


def weighted_criteria_pass_rate(shape: Shape, passed: set[str]) -> float:
    """Σ_i w_i · (c_i^pass / c_i^total) / Σ_i w_i, from the set of passed criterion ids."""
    num = sum(w * sum(c in passed for c in shape.criteria[i]) / len(shape.criteria[i])
              for i, w in shape.weights.items())
    return num / shape.total_weight


def completion(shape: Shape, passed: set[str]) -> float:
    """Project completion: 1 when every evaluation task passed, else 0."""
    return 1.0 if set(shape.weights) <= passed else 0.0


def implemented_rate(shape: Shape, implemented: set[str]) -> float:
    """Weighted like the task pass rate so the two can be read against each other."""
    return weighted_task_pass_rate(shape, implemented)


def fix_rate(universe: set[str], before: set[str], now: set[str]) -> float | None:
    """Of what was not passed before, the share passed now (None when nothing was open)."""
    open_ = universe - before
    return len(open_ & now) / len(open_) if open_ else None


def dag_gap(full_score: float, gated_score: float) -> float:
    """Score lost to DAG blocking on the same artifacts (Table 2)."""
    return full_score - gated_score


# ------------------------------------------------------------ a whole cell

@dataclass(frozen=True)
class RoundMetrics:
    round: int
    task_pass_rate: float
    criteria_pass_rate: float
    completion: float
    implemented_rate: float
    task_fix_rate: float | None
    criteria_fix_rate: float | None


def _accumulate(sets: Sequence[set[str]], view: View) -> list[set[str]]:
    if view == "same-artifact":
        return [set(s) for s in sets]
    if view != "cumulative":
        raise ValueError(f"unknown view {view!r}; known: {', '.join(VIEWS)}")
    out: list[set[str]] = []
    acc: set[str] = set()
    for s in sets:
        acc = acc | s
        out.append(set(acc))
    return out


def round_metrics(shape: Shape, rounds: Sequence[Round],
                  view: View = "cumulative") -> list[RoundMetrics]:
    """Every metric of every round of one cell under one view.

    Fix rates: under ``cumulative``, of the tasks never passed before r, the share passing on
    round r's artifact; under ``same-artifact``, of the tasks not passing at r-1, the share
    passing at r. Round 1 has no fix rate."""
    raw_tasks = [passed_tasks(r) for r in rounds]
    raw_crit = [passed_criteria(r) for r in rounds]
    tasks = _accumulate(raw_tasks, view)
    crit = _accumulate(raw_crit, view)
    impl = _accumulate([implemented_tasks(r) for r in rounds], view)
    all_tasks, all_crit = set(shape.weights), shape.all_criteria()
    out = []
    for k in range(len(rounds)):
        out.append(RoundMetrics(
            round=k + 1,
            task_pass_rate=weighted_task_pass_rate(shape, tasks[k]),
            criteria_pass_rate=weighted_criteria_pass_rate(shape, crit[k]),
            completion=completion(shape, tasks[k]),
            implemented_rate=implemented_rate(shape, impl[k]),
            task_fix_rate=None if k == 0 else fix_rate(all_tasks, tasks[k - 1], raw_tasks[k]),
            criteria_fix_rate=None if k == 0 else fix_rate(all_crit, crit[k - 1], raw_crit[k]),
        ))
    return out


def status_counts(rnd: Round) -> dict[str, int]:
    """Evaluation tasks per status; ``executed``: passed or failed tasks that were actually
    run (a failed deploy runs nothing: no verdicts, no attempts); ``criteria_executed``: the
    verdicts actually produced (also by tasks that ended in error), i.e. the evaluation cost."""
    counts = {"executed": 0, "passed": 0, "failed": 0, "skipped": 0, "error": 0,
              "criteria_executed": 0}
    for r in rnd.values():
        counts[r.status] += 1
        ran = r.attempts > 0 or bool(r.verdicts)
        if r.status in ("passed", "failed") and ran:
            counts["executed"] += 1
        if r.status in ("passed", "failed", "error") and ran:
            counts["criteria_executed"] += len(r.verdicts)
    return counts


def by_type(task: Task, passed: set[str]) -> dict[str, tuple[float, int]]:
    """Weighted pass rate per evaluation-task type, with the number of tasks of that type."""
    out: dict[str, tuple[float, int]] = {}
    for t in ("presence", "functionality", "robustness"):
        ets = [et for et in task.eval_tasks if et.type == t]
        if ets:
            w = sum(et.weight for et in ets)
            out[t] = (sum(et.weight for et in ets if et.id in passed) / w, len(ets))
    return out


# ------------------------------------------------------------ confidence intervals

@dataclass(frozen=True)
class Estimate:
    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def estimate_json(e: Estimate) -> dict[str, float | int | None]:
    def num(x: float) -> float | None:
        return None if math.isnan(x) else x
    return {"mean": num(e.mean), "low": num(e.low), "high": num(e.high),
            "half_width": num(e.half_width), "n": e.n}


def mean_ci(values: Sequence[float], confidence: float = 0.95, method: str = "normal",
            n_resamples: int = 9999, seed: int = 0) -> Estimate:
    """Mean with a confidence interval over per-project values.

    ``normal``: x̄ ± z·s/√n with s the unbiased sample deviation (scipy.stats.norm.interval), as in
    the paper's appendix "Reproducibility". ``bootstrap``: percentile bootstrap
    (scipy.stats.bootstrap). With n < 2 the interval is undefined (nan)."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = float(x.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    s = float(x.std(ddof=1))
    if s == 0.0:
        return Estimate(mean, mean, mean, n)
    if method == "normal":
        lo, hi = stats.norm.interval(confidence, loc=mean, scale=s / math.sqrt(n))
    elif method == "bootstrap":
        res = stats.bootstrap((x,), np.mean, confidence_level=confidence,
                              n_resamples=n_resamples, method="percentile",
                              rng=np.random.default_rng(seed))
        lo, hi = res.confidence_interval.low, res.confidence_interval.high
    else:
        raise ValueError(f"unknown CI method {method!r}; known: normal, bootstrap")
    return Estimate(mean, float(lo), float(hi), n)
