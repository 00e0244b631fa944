"""The one aggregation of a run: every aggregate number of ``summary.json``, of the console
table of ``asuka run``/``sweep`` and of ``asuka report`` (tables, figures, HTML) comes from
``aggregate``.

A group is the scored (finished) cells of one setting (``asuka.report.data.setting_of``: they
differ only in task and seed). Per group and round: every rate of ``asuka.log.scoring`` in both
views, each a mean with a 95% CI over projects, where a project's value is the mean over its
seeds; the errors (evaluation tasks and criteria the harness or judge could not decide, failed
deploys) and the evaluation cost of the rounds actually run. Per group at the last round: the
rate by evaluation-task type and, for protocol ``full``, the ungated rate and the DAG gap."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asuka.evaluators import jury_score
from asuka.log.contracts import DEFAULT_TAU
from asuka.log.fixes import fix_rate, recovery
from asuka.log.scoring import (
    VIEWS,
    Estimate,
    by_type,
    dag_gap,
    estimate_json,
    passed_tasks,
    round_metrics,
    status_counts,
)
from asuka.log.sequence import sequence_metrics
from asuka.log.store import RoundRecord
from asuka.protocol.passes import jury_pass_statistics, pass_statistics
from asuka.report.contract_stats import (
    ContractAggregate,
    contract_aggregate,
    contract_value,
    has_contract,
)
from asuka.report.data import CellData, Group, RunData, show
from asuka.schema import TASK_TYPES
from asuka.vocabulary import DECIDED_BY

METRICS = ("task_pass_rate", "criteria_pass_rate", "completion", "implemented_rate",
           "task_fix_rate", "criteria_fix_rate")
# JoyFrontBench's contract metrics (asuka.log.contracts), on each round's own artifact and
# only for cells whose task declares a contract; seeds are its run slots
CONTRACT_METRICS = ("ats", "ctpr", "asr")
GAP_THRESHOLDS = (0.5, 1.0)  # the paper's Table 2 columns; the thresholds of full cells join
# errors, plus criteria a locator miss decided (not errors: shown beside them so nobody takes
# naming for behaviour)
ERROR_KINDS = ("tasks", "criteria", "deploy_failures", "not_found")
COST_KINDS = ("criteria_executed", "eval_tokens", "llm_tokens")

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


def round_errors(rec: RoundRecord) -> dict[str, int]:
    res = rec.evaluation.results.values()
    return {"tasks": sum(r.status == "error" for r in res),
            "criteria": sum(v.status == "error" for r in res for v in r.verdicts),
            "deploy_failures": int(not rec.evaluation.deploy_ok),
            "not_found": sum(v.status == "not_found" for r in res for v in r.verdicts)}


def round_rungs(rec: RoundRecord) -> dict[str, int]:
    """Verdicts per rung of the resolution ladder that decided them (``Verdict.decided_by``:
    scripted, relaxed, adapted, grounded, replanned, llm); every rung listed, zeros too."""
    out = {r: 0 for r in DECIDED_BY}
    for res in rec.evaluation.results.values():
        for v in res.verdicts:
            if v.status in ("pass", "fail", "not_found"):
                out[v.decided_by or "scripted"] += 1
    return out


def round_tokens(rec: RoundRecord, role: str | None = None) -> int:
    return sum(u.input_tokens + u.output_tokens for u in rec.agent.usage
               if role is None or u.role == role)


def round_cost(rec: RoundRecord) -> dict[str, int]:
    return {"criteria_executed": status_counts(rec.evaluation.results)["criteria_executed"],
            "eval_tokens": round_tokens(rec, "ui-agent"), "llm_tokens": round_tokens(rec)}


def _total(rows: list[dict[str, int]], kinds: tuple[str, ...]) -> dict[str, int]:
    return {k: sum(r[k] for r in rows) for k in kinds}


def last_task_rate(c: CellData, rounds: list, view: str) -> float:
    return round_metrics(c.shape, rounds, view)[-1].task_pass_rate


def cumulative_passed(c: CellData, rounds: int | None = None) -> set[str]:
    out: set[str] = set()
    for rnd in c.gated[: rounds or len(c.gated)]:
        out |= passed_tasks(rnd)
    return out


@dataclass
class RoundAggregate:
    round: int
    metrics: dict[str, Estimate]      # "<metric>.<view>" -> mean with CI over projects
    errors: dict[str, int]            # totals over the group's cells that ran this round
    cost: dict[str, int]
    cells_run: int                    # the others carried their last artifact over
    rungs: dict[str, int] = field(default_factory=dict)  # verdicts per deciding rung


@dataclass
class GroupAggregate:
    group: Group
    rounds: list[RoundAggregate]
    by_type: dict[str, Estimate]      # cumulative weighted task pass rate, last round
    full: dict[str, Estimate] = field(default_factory=dict)  # protocol full only
    contract: ContractAggregate | None = None  # the tasks declaring a contract, last round
    # the jury on the last round's artifact: each evaluator's points (mean over projects)
    jury: dict[str, Estimate] = field(default_factory=dict)
    # repeated evaluation passes on the last round: flip rate, SD and CV of the per-pass
    # weighted criteria pass rate, single pass vs majority (means over projects)
    passes: dict[str, Estimate] = field(default_factory=dict)
    # the same per model-based evaluator of the jury judged more than once
    jury_passes: dict[str, dict[str, Estimate]] = field(default_factory=dict)
    # how much the feedback helped (asuka.log.fixes): fix rate, recovery, probed rounds
    feedback: dict[str, Estimate] = field(default_factory=dict)
    # sequential cells (Web-Bench's protocol): Pass@1, Pass@2, recovery per project class
    sequential: dict[str, dict[str, Estimate]] = field(default_factory=dict)

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
        return _total([r.errors for r in self.rounds], ERROR_KINDS)

    @property
    def cost(self) -> dict[str, int]:
        return _total([r.cost for r in self.rounds], COST_KINDS)

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


def jury_value(c: CellData, k: int) -> float | None:
    """The jury score of round ``k + 1``'s artifact as a share of its points (LiveEvalBench's
    90-point score / 90); None when no evaluator was scored."""
    if not c.records:
        return None
    got = jury_score(c.records[min(k, len(c.records) - 1)].evaluation.jury)
    return got[0] / got[1] if got and got[1] else None


def _jury(g: Group, ci: str) -> dict[str, Estimate]:
    """Each evaluator's score on the last round's artifact (judged or gated: an evaluator in
    error, or with nothing applicable, is no value)."""
    def points(c: CellData, evaluator: str) -> float | None:
        got = c.records[-1].evaluation.jury.get(evaluator) if c.records else None
        return got.score if got is not None and got.status != "error" else None

    ids = sorted({i for c in g.cells if c.records for i in c.records[-1].evaluation.jury})
    return {i: g.estimate(lambda c, i=i: points(c, i), ci) for i in ids}


PASS_STATS = ("disagreeing", "flip_rate", "sd", "cv", "single", "majority")


def _passes(g: Group, ci: str) -> dict[str, Estimate]:
    def stats(c: CellData) -> dict | None:
        return pass_statistics(c.shape, c.records[-1].evaluation.results) if c.records else None

    if not any(stats(c) for c in g.cells):
        return {}
    return {m: g.estimate(lambda c, m=m: (stats(c) or {}).get(m), ci) for m in PASS_STATS}


def _jury_passes(g: Group, ci: str) -> dict[str, dict[str, Estimate]]:
    def stats(c: CellData) -> dict[str, dict]:
        return jury_pass_statistics(c.records[-1].evaluation.jury) if c.records else {}

    ids = sorted({i for c in g.cells for i in stats(c)})
    return {i: {m: g.estimate(lambda c, i=i, m=m: stats(c).get(i, {}).get(m), ci)
                for m in PASS_STATS} for i in ids}


FEEDBACK_STATS = ("fix_rate", "recovery", "probed")


def feedback_stats(c: CellData) -> dict[str, float | None]:
    """One cell: its fix rate over the rounds it ran, its round-1 -> round-2 recovery, and the
    share of its rounds whose probes fired (None without probes)."""
    evals = [r.evaluation for r in c.records]
    probes = [e.probes for e in evals if e.probes is not None]
    return {"fix_rate": fix_rate(evals), "recovery": recovery(evals),
            "probed": sum(p.fired for p in probes) / len(probes) if probes else None}


def _feedback(g: Group, ci: str) -> dict[str, Estimate]:
    return {m: g.estimate(lambda c, m=m: feedback_stats(c)[m], ci) for m in FEEDBACK_STATS}


SEQUENCE_STATS = ("pass_at_1", "pass_at_2", "recovery")


def project_class(c: CellData) -> str:
    """WatchPoint's class of the cell's project: from an imported task's package.json, else
    the reference app's (standards without one)."""
    from asuka.probes import classify

    if c.bt is None:
        return "standards"
    root = Path(c.bt.root)
    serve = c.bt.task.serve
    for folder in ((root / serve.project) if serve else root / "webbench",
                   root / (c.bt.task.reference or "reference")):
        if (folder / "package.json").is_file():
            return classify(folder)[0]
    return "standards"


def _sequential(g: Group, ci: str) -> dict[str, dict[str, Estimate]]:
    cells = [c for c in g.cells if c.spec.get("mode") == "sequential" and c.bt is not None]
    out = {}
    for cls in sorted({project_class(c) for c in cells}):
        def stat(c: CellData, m: str, cls: str = cls) -> float | None:
            if c not in cells or project_class(c) != cls:
                return None
            return sequence_metrics(c.records, len(c.bt.task.eval_tasks))[m]
        out[cls] = {m: g.estimate(lambda c, m=m: stat(c, m), ci) for m in SEQUENCE_STATS}
    return out


def _round(g: Group, k: int, ci: str, tau: float) -> RoundAggregate:
    metrics = {}
    for view in VIEWS:
        for m in METRICS:
            metrics[f"{m}.{view}"] = g.estimate(
                lambda c, m=m, view=view: getattr(c.metrics(view)[k], m), ci)
    if any(has_contract(c) for c in g.cells):
        for m in CONTRACT_METRICS:
            metrics[f"{m}.same-artifact"] = g.estimate(
                lambda c, m=m: contract_value(c, tau, m, k), ci)
    if any(c.records and c.records[min(k, len(c.records) - 1)].evaluation.jury
           for c in g.cells):
        metrics["jury.same-artifact"] = g.estimate(lambda c: jury_value(c, k), ci)
    ran = [c.records[k] for c in g.cells if not c.carried_over(k)]
    return RoundAggregate(k + 1, metrics, _total([round_errors(r) for r in ran], ERROR_KINDS),
                          _total([round_cost(r) for r in ran], COST_KINDS), len(ran),
                          _total([round_rungs(r) for r in ran], DECIDED_BY))


def _by_type(g: Group, ci: str) -> dict[str, Estimate]:
    n = g.n_rounds

    def rate(c: CellData, typ: str) -> float | None:
        got = by_type(c.bt.task, cumulative_passed(c, n))
        return got[typ][0] if typ in got else None

    return {typ: g.estimate(lambda c, typ=typ: rate(c, typ), ci) for typ in TASK_TYPES}


def _full(g: Group, thresholds: list[float], ci: str) -> dict[str, Estimate]:
    """Protocol full: the ungated rate at the last round and, per T, the DAG gap (full minus
    the gated outcome the ``dag`` protocol at T yields on the same verdicts)."""
    out = {}
    for view in VIEWS:
        def full(c: CellData, view: str = view) -> float:
            return last_task_rate(c, c.ungated, view)
        out[f"task_pass_rate.{view}"] = g.estimate(full, ci)
        for t in thresholds:
            gap: Callable[[CellData], float] = lambda c, t=t, view=view: dag_gap(  # noqa: E731
                last_task_rate(c, c.ungated, view), last_task_rate(c, c.regated(t), view))
            out[f"dag_gap.{view}.T={t:g}"] = g.estimate(gap, ci)
    return out


def aggregate(run: RunData, ci: str = "normal", tau: float | None = None) -> Aggregate:
    """Every aggregate number of a run (see the module's docstring). ``tau``: the contracts'
    completion threshold (default: the run's, as its experiment set it, else 0.8)."""
    tau = float(tau if tau is not None else run.meta.get("tau", DEFAULT_TAU))
    groups = run.groups()
    full_ts = {float(c.spec["threshold"]) for c in run.scored if c.spec["protocol"] == "full"}
    thresholds = sorted({*GAP_THRESHOLDS, *full_ts})
    out = []
    for g in groups:
        full = _full(g, thresholds, ci) if g.setting.get("protocol") == "full" else {}
        out.append(GroupAggregate(g, [_round(g, k, ci, tau) for k in range(g.n_rounds)],
                                  _by_type(g, ci), full, contract_aggregate(g, tau, ci),
                                  _jury(g, ci), _passes(g, ci), _jury_passes(g, ci),
                                  _feedback(g, ci), _sequential(g, ci)))
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
                        **{k: estimate_json(e) for k, e in r.metrics.items()},
                        "errors": r.errors, "cost": r.cost, "rungs": r.rungs}
                       for r in g.rounds],
            "by_type": {k: estimate_json(e) for k, e in g.by_type.items()},
            **({"full": {k: estimate_json(e) for k, e in g.full.items()}} if g.full else {}),
            **({"contract": g.contract.json()} if g.contract else {}),
            **({"jury": {k: estimate_json(e) for k, e in g.jury.items()}} if g.jury else {}),
            **({"passes": {k: estimate_json(e) for k, e in g.passes.items()}}
               if g.passes else {}),
            **({"jury_passes": {i: {k: estimate_json(e) for k, e in stats.items()}
                                for i, stats in g.jury_passes.items()}}
               if g.jury_passes else {}),
            "feedback": {k: estimate_json(e) for k, e in g.feedback.items()},
            **({"sequential": {cls: {k: estimate_json(e) for k, e in stats.items()}
                               for cls, stats in g.sequential.items()}}
               if g.sequential else {})}


def aggregate_json(agg: Aggregate) -> dict[str, Any]:
    return {"ci_method": agg.ci, "tau": agg.tau, "scoring_rules": list(agg.scoring_rules), "notes": agg.notes,
            "varying": agg.varying, "gap_thresholds": agg.gap_thresholds,
            "groups": [group_json(g) for g in agg.groups], "failed_cells": agg.failed,
            "unfinished_cells": agg.unfinished, "not_scored_cells": agg.not_scored}
