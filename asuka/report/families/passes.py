"""Repeated evaluation passes of the same artifacts (``--eval-passes``, ``asuka.protocol.passes``):
how much the evaluator disagrees with itself, for the UI agent and for each model-based
evaluator of the jury judged more than once."""

from __future__ import annotations

from typing import Any

from asuka.log.scoring import Estimate, estimate_json
from asuka.protocol.passes import jury_pass_statistics, pass_statistics
from asuka.report.data import CellData, Group
from asuka.report.families import Family, FamilyContext, register
from asuka.report.table import Table, head

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


def pass_stats(g: Group, ctx: FamilyContext) -> dict[str, Any]:
    out = {"passes": _passes(g, ctx.ci), "jury_passes": _jury_passes(g, ctx.ci)}
    return {k: v for k, v in out.items() if v}


def pass_json(v: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if v.get("passes"):
        out["passes"] = {k: estimate_json(e) for k, e in v["passes"].items()}
    if v.get("jury_passes"):
        out["jury_passes"] = {i: {k: estimate_json(e) for k, e in stats.items()}
                              for i, stats in v["jury_passes"].items()}
    return out


def passes_table(agg: Any, view: str = "cumulative") -> Table | None:
    """Repeated evaluation of the same artifacts (--eval-passes): how much the evaluator
    disagrees with itself, and single pass against the majority."""
    if not any(g.families.get("passes") for g in agg.groups):
        return None
    cols = ["criteria disagreeing", "flip rate", "SD", "CV", "single pass", "majority"]
    t = Table("passes", "Evaluation passes (last round's artifact): the evaluator against "
              "itself", [*head(agg), "n", "evaluator", *cols],
              percent={"criteria disagreeing", "flip rate", "single pass", "majority"})
    keys = ("disagreeing", "flip_rate", "sd", "cv", "single", "majority")
    for g in agg.groups:
        mine = g.families.get("passes") or {}
        if mine.get("passes"):
            t.rows.append([*g.labels(agg.varying), g.n, "UI agent",
                           *[mine["passes"][k] for k in keys]])
        for evaluator, stats in mine.get("jury_passes", {}).items():
            t.rows.append([*g.labels(agg.varying), g.n, evaluator, *[stats[k] for k in keys]])
    t.note = ("Each criterion of each artifact judged in every pass; the verdict is the "
              "majority. Criteria disagreeing: share with mixed outcomes across passes; flip "
              "rate: share of pass pairs that disagree; SD and CV: of the per-pass weighted "
              "criteria pass rate; single pass: the first pass's rate; majority: the rate the "
              "run was scored on. A jury evaluator (a model-based one: deterministic checks "
              "judge once) is measured the same way on its criteria, its rates being its score "
              "as a share of its points.")
    return t


register(Family("passes", order=50, aggregate=pass_stats, json=pass_json, table=passes_table))
