"""How much the feedback helped (WatchPoint's question on our rounds): fix rate, recovery and
the share of rounds whose diagnostic probes ran, per feedback condition and routing."""

from __future__ import annotations

from typing import Any

from asuka.log.fixes import fix_rate, recovery
from asuka.log.scoring import Estimate
from asuka.report.data import CellData, Group
from asuka.report.families import Family, FamilyContext, estimates_under, register
from asuka.report.table import Table, head

FEEDBACK_STATS = ("fix_rate", "recovery", "probed")


def feedback_stats(c: CellData) -> dict[str, float | None]:
    """One cell: its fix rate over the rounds it ran, its round-1 -> round-2 recovery, and the
    share of its rounds whose probes fired (None without probes)."""
    evals = [r.evaluation for r in c.records]
    probes = [e.probes for e in evals if e.probes is not None]
    return {"fix_rate": fix_rate(evals), "recovery": recovery(evals),
            "probed": sum(p.fired for p in probes) / len(probes) if probes else None}


def feedback_aggregate(g: Group, ctx: FamilyContext) -> dict[str, Estimate]:
    return {m: g.estimate(lambda c, m=m: feedback_stats(c)[m], ctx.ci) for m in FEEDBACK_STATS}


def _conditions_vary(agg: Any) -> bool:
    return "feedback" in agg.varying or "routing" in agg.varying or any(
        str(g.setting.get("feedback", "failures")) != "failures" for g in agg.groups)


def feedback_table(agg: Any, view: str = "cumulative") -> Table | None:
    """WatchPoint's question on our rounds: how much did each feedback condition help?"""
    if not _conditions_vary(agg):  # one condition, the paper's: nothing to compare
        return None
    t = Table("feedback", "Feedback: how many reported failures the agent fixed, per feedback "
              "condition and routing", [*head(agg), "n", "fix rate", "recovery",
                                        "rounds probed"],
              percent={"fix rate", "recovery", "rounds probed"})
    for g in agg.groups:
        t.rows.append([*g.labels(agg.varying), g.n,
                       *[g.families["feedback"][k] for k in ("fix_rate", "recovery", "probed")]])
    t.note = ("Fix rate: of the criteria that failed where they were executed in one round, the "
              "share that pass in the next (pooled over the cell's rounds; a criterion the next "
              "round did not execute is not fixed). Recovery: of the evaluation tasks failed "
              "in round 1, the share passed in round 2 (WatchPoint's per-task recovery). "
              "Rounds probed: the share of rounds whose routing let the diagnostic probes run "
              "(— without probes).")
    return t


register(Family("feedback", order=10, aggregate=feedback_aggregate,
                json=estimates_under("feedback"),
                table=feedback_table))
