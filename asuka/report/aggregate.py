"""The one aggregation of a run: every aggregate number of ``summary.json``, of the console
table of ``asuka run``/``sweep`` and of ``asuka report`` (tables, figures, HTML) comes from
``aggregate``.

A group is the scored (finished) cells of one setting (``asuka.report.data.setting_of``: they
differ only in task and seed). Every number of a group is a metric family's, a plug-in of
``asuka.report.families`` iterated here, in ``summary.json`` and in the report: per round the
families' metrics (the paper's rates in both views, ``families.paper``; each a mean with a 95%
CI over projects, where a project's value is the mean over its seeds) and counts (errors,
locator misses, rungs and cost of the rounds actually run, ``families.errors``); per group each
family's value (the rate by evaluation-task type, the DAG gap, acceptance contracts, the jury,
evaluation passes, feedback, the sequential mode)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from asuka.log.contracts import DEFAULT_TAU
from asuka.log.scoring import Estimate, estimate_json
from asuka.report.data import Group, RunData, show
from asuka.report.families import FamilyContext, all_families

GAP_THRESHOLDS = (0.5, 1.0)  # the paper's Table 2 columns; the thresholds of full cells join

SCORING_RULES = (
    "A group is the cells that differ only in task and seed (repeats are seeds).",
    "n counts projects (tasks): the seeds of one task are averaged into one value first; "
    "means and 95% CIs are over projects.",
    "Only finished cells are scored. A cell that stopped early (everything passed) keeps its "
    "last artifact for the rest of its budget (carried over).",
    "Unfinished and failed cells are never padded and never scored; they are listed.",
    "An error (an evaluation task or criterion the harness or judge could not decide) counts "
    "as not passed and stays in the denominator, as in JoyFrontBench; an evaluation task that "
    "ends in error contributes no passed criteria.",
    "not_found (a check's locator matched nothing: a naming miss or an absent feature) counts "
    "as not passed like a fail; its count is reported beside the errors.",
    "A failed deploy executes nothing: its evaluation tasks count as not passed and it costs "
    "no criteria.",
    "Error and cost totals count the rounds actually run; carried-over rounds add nothing.",
)
SIMULATED_NOTE = (
    "Simulated agents (sim): their learning curves are inputs, not findings. The simulator "
    "maps feedback to features through the benchmark's own feature map, and its profile sets "
    "the fix and regression rates and the PRD > query advantage.")


def _total(rows: list[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in rows:
        for k, n in row.items():
            out[k] = out.get(k, 0) + n
    return out


@dataclass
class RoundAggregate:
    round: int
    metrics: dict[str, Estimate]      # "<metric>.<view>" -> mean with CI over projects
    cells_run: int                    # the others carried their last artifact over
    # the families' counts over the cells that ran this round (asuka.report.families.errors:
    # errors, cost, rungs): name -> kind -> total
    counts: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def errors(self) -> dict[str, int]:
        return self.counts.get("errors", {})

    @property
    def cost(self) -> dict[str, int]:
        return self.counts.get("cost", {})

    @property
    def rungs(self) -> dict[str, int]:
        return self.counts.get("rungs", {})


@dataclass
class GroupAggregate:
    group: Group
    rounds: list[RoundAggregate]
    # the metric families' values (asuka.report.families), by family name; a family that
    # does not apply to the group has none
    families: dict[str, Any] = field(default_factory=dict)

    @property
    def by_type(self) -> dict[str, Estimate]:
        """Cumulative weighted task pass rate by evaluation-task type, last round."""
        return self.families.get("paper") or {}

    @property
    def setting(self) -> dict[str, Any]:
        return self.group.setting

    @property
    def n(self) -> int:
        """Projects: the number of tasks."""
        return len(self.group.tasks)

    @property
    def n_cells(self) -> int:
        return len(self.group.cells)

    @property
    def simulated(self) -> bool:
        return any(c.simulated for c in self.group.cells)

    @property
    def errors(self) -> dict[str, int]:
        return _total([r.errors for r in self.rounds])

    @property
    def cost(self) -> dict[str, int]:
        return _total([r.cost for r in self.rounds])

    def last(self, metric: str, view: str = "cumulative") -> Estimate:
        return self.rounds[-1].metrics[f"{metric}.{view}"] if self.rounds else NAN

    def labels(self, varying: list[str]) -> list[str]:
        return [str(self.setting["agent"])] + [show(k, self.setting.get(k)) for k in varying]


NAN = Estimate(math.nan, math.nan, math.nan, 0)


@dataclass
class Aggregate:
    groups: list[GroupAggregate]
    varying: list[str]                # setting fields (besides the agent) that tell groups apart
    gap_thresholds: list[float]
    ci: str
    failed: list[dict]
    unfinished: list[dict]
    not_scored: list[dict]            # cells whose task is not in the benchmark
    notes: list[str]
    tau: float = DEFAULT_TAU          # the acceptance contracts' completion threshold
    scoring_rules: tuple[str, ...] = SCORING_RULES


def varying_fields(groups: list[Group]) -> list[str]:
    """Setting fields besides the agent whose value differs between groups. The agent's own
    fields (backend, options) count only when they differ under one label."""
    names = list(dict.fromkeys(k for g in groups for k in g.setting if k != "agent"))
    out = []
    for name in names:
        if name.startswith("agent_"):
            per_label: dict[str, set[str]] = {}
            for g in groups:
                per_label.setdefault(str(g.setting["agent"]), set()).add(
                    repr(g.setting.get(name)))
            if any(len(v) > 1 for v in per_label.values()):
                out.append(name)
        elif len({repr(g.setting.get(name)) for g in groups}) > 1:
            out.append(name)
    return out


def _round(g: Group, k: int, ctx: FamilyContext) -> RoundAggregate:
    metrics: dict[str, Estimate] = {}
    counts: dict[str, dict[str, int]] = {}
    ran = [c.records[k] for c in g.cells if not c.carried_over(k)]
    for family in all_families():
        if family.round_metrics is not None:
            metrics.update(family.round_metrics(g, k, ctx))
        if family.round_counts is not None:
            counts.update(family.round_counts(ran))
    return RoundAggregate(k + 1, metrics, len(ran), counts)


def aggregate(run: RunData, ci: str = "normal", tau: float | None = None) -> Aggregate:
    """Every aggregate number of a run (see the module's docstring). ``tau``: the contracts'
    completion threshold (default: the run's, as its experiment set it, else 0.8)."""
    tau = float(tau if tau is not None else run.meta.get("tau", DEFAULT_TAU))
    groups = run.groups()
    full_ts = {float(c.spec["threshold"]) for c in run.scored if c.spec["protocol"] == "full"}
    thresholds = sorted({*GAP_THRESHOLDS, *full_ts})
    ctx = FamilyContext(ci, tau, thresholds)
    out = []
    for g in groups:
        values = {f.name: f.aggregate(g, ctx) for f in all_families() if f.aggregate}
        out.append(GroupAggregate(g, [_round(g, k, ctx) for k in range(g.n_rounds)],
                                  {k: v for k, v in values.items() if v}))
    failed = [{"cell_id": c.cell_id, "task": c.task, "kind": (c.failure or {}).get("kind"),
               "reason": (c.failure or {}).get("reason"), "round": (c.failure or {}).get("round"),
               "rounds_done": len(c.records)} for c in run.in_state("failed")]
    unfinished = [{"cell_id": c.cell_id, "task": c.task, "rounds_done": len(c.records),
                   "budget": c.budget} for c in run.in_state("unfinished")]
    unfinished += [{"cell_id": c.cell_id, "task": c.task, "rounds_done": 0, "budget": c.budget}
                   for c in run.in_state("finished") if not c.records]
    not_scored = [{"cell_id": c.cell_id, "task": c.task,
                   "reason": "its task is not in the benchmark"} for c in run.in_state("no-task")]
    notes = list(run.notices) + ([SIMULATED_NOTE] if run.simulated else [])
    return Aggregate(out, varying_fields(groups), thresholds, ci, failed, unfinished,
                     not_scored, notes, tau)


# ------------------------------------------------------------ as JSON (summary.json)

def group_json(g: GroupAggregate) -> dict[str, Any]:
    s = g.setting
    return {"agent": s["agent"], "start": s.get("start"), "protocol": s.get("protocol"),
            "threshold": s.get("threshold"), "budget": s.get("rounds"),
            "verbosity": s.get("user_options.verbosity"), "setting": s,
            "tasks": g.group.tasks, "n": g.n, "n_cells": g.n_cells, "simulated": g.simulated,
            "errors": g.errors, "cost": g.cost,
            "rounds": [{"round": r.round, "cells_run": r.cells_run,
                        **{k: estimate_json(e) for k, e in r.metrics.items()}, **r.counts}
                       for r in g.rounds],
            **{k: v for f in all_families() if f.json and f.name in g.families
               for k, v in f.json(g.families[f.name]).items()}}


def aggregate_json(agg: Aggregate) -> dict[str, Any]:
    return {"ci_method": agg.ci, "tau": agg.tau, "scoring_rules": list(agg.scoring_rules),
            "notes": agg.notes,
            "varying": agg.varying, "gap_thresholds": agg.gap_thresholds,
            "groups": [group_json(g) for g in agg.groups], "failed_cells": agg.failed,
            "unfinished_cells": agg.unfinished, "not_scored_cells": agg.not_scored}
