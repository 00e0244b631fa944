"""The DAG gap (paper Table 2): on cells run with protocol ``full``, the ungated weighted task
pass rate at the last round and, per threshold T, full minus the outcome the ``dag`` protocol at
T yields on the same verdicts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asuka.log.scoring import VIEWS, Estimate, dag_gap, mean_ci
from asuka.report.data import CellData, Group, last_task_rate
from asuka.report.families import Family, FamilyContext, estimates_under, register
from asuka.report.table import Table, head


def full_and_gap(g: Group, ctx: FamilyContext) -> dict[str, Estimate]:
    """Protocol full: the ungated rate at the last round and, per T, the DAG gap (full minus
    the gated outcome the ``dag`` protocol at T yields on the same verdicts)."""
    out = {}
    for view in VIEWS:
        def full(c: CellData, view: str = view) -> float:
            return last_task_rate(c, c.ungated, view)
        out[f"task_pass_rate.{view}"] = g.estimate(full, ctx.ci)
        for t in ctx.gap_thresholds:
            gap: Callable[[CellData], float] = lambda c, t=t, view=view: dag_gap(  # noqa: E731
                last_task_rate(c, c.ungated, view), last_task_rate(c, c.regated(t), view))
            out[f"dag_gap.{view}.T={t:g}"] = g.estimate(gap, ctx.ci)
    return out




def table2(agg: Any, view: str = "cumulative") -> Table:
    """DAG gap (pp) on the same artifacts: full evaluation minus gated evaluation at each T."""
    full = [g for g in agg.groups if g.families.get("full")]
    varying = [v for v in agg.varying if v != "protocol"]
    ts = agg.gap_thresholds
    gap_cols = [f"Gap T={x:g}" for x in ts]
    t = Table("table2", f"DAG gap ({view} weighted task pass rate at the last round): "
              "full evaluation minus DAG-gated, on the same outputs",
              [*head(agg, varying), "n", "Full", *gap_cols], percent={"Full", *gap_cols})
    for g in full:
        t.rows.append([*g.labels(varying), g.n, g.families["full"][f"task_pass_rate.{view}"],
                       *[g.families["full"][f"dag_gap.{view}.T={x:g}"] for x in ts]])
    if len(full) > 1:
        t.rows.append(["Mean", *[""] * len(varying), "", "",
                       *[mean_ci([g.families["full"][f"dag_gap.{view}.T={x:g}"].mean
                                  for g in full]).mean
                         for x in ts]])
    t.note = ("From cells run with protocol=full: every evaluation task is executed, and the "
              "gated outcome at T is recomputed from the same verdicts. Gap in percentage points."
              if full else "No cell of this run used protocol=full: run the experiment with "
              "`protocols: [full]`, or `asuka reeval RUN --protocol full` to add them.")
    return t


register(Family(
    "full", order=70,
    aggregate=lambda g, ctx: full_and_gap(g, ctx) if g.setting.get("protocol") == "full"
    else {},
    json=estimates_under("full"),
    table=table2))
