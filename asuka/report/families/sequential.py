"""Web-Bench's sequential mode (WatchPoint's measures): Pass@1, Pass@2 and recovery per setting
and project class."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from asuka.log.scoring import Estimate, estimate_json
from asuka.log.sequence import sequence_metrics
from asuka.report.data import CellData, Group
from asuka.report.families import Family, FamilyContext, register
from asuka.report.table import Table, head

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


def sequential_aggregate(g: Group, ctx: FamilyContext) -> dict[str, dict[str, Estimate]]:
    cells = [c for c in g.cells if c.spec.get("mode") == "sequential" and c.bt is not None]
    out = {}
    for cls in sorted({project_class(c) for c in cells}):
        def stat(c: CellData, m: str, cls: str = cls) -> float | None:
            if c not in cells or project_class(c) != cls:
                return None
            return sequence_metrics(c.records, len(c.bt.task.eval_tasks))[m]
        out[cls] = {m: g.estimate(lambda c, m=m: stat(c, m), ctx.ci) for m in SEQUENCE_STATS}
    return out


def sequential_table(agg: Any, view: str = "cumulative") -> Table | None:
    """Web-Bench's protocol (WatchPoint's measures) per setting and project class."""
    if not any(g.families.get("sequential") for g in agg.groups):
        return None
    t = Table("sequential", "Sequential (Web-Bench): tasks passed on the first attempt, within "
              "two, and recovered by the retry, per project class",
              [*head(agg), "class", "n", "Pass@1", "Pass@2", "recovery"],
              percent={"Pass@1", "Pass@2", "recovery"})
    for g in agg.groups:
        for cls, stats in (g.families.get("sequential") or {}).items():
            t.rows.append([*g.labels(agg.varying), cls, stats["pass_at_1"].n,
                           stats["pass_at_1"], stats["pass_at_2"], stats["recovery"]])
    t.note = ("Each project's evaluation tasks in order, the later ones judged only after the "
              "earlier pass (cumulative); a task failed on every attempt stops the project, "
              "the tasks after it count as not passed. Pass@1 and Pass@2: of all the tasks; "
              "recovery: of the tasks failed on attempt 1 and retried, the share passed on "
              "attempt 2. Class: WatchPoint's, from the project's package.json.")
    return t


register(Family("sequential", order=30, aggregate=sequential_aggregate,
                json=lambda v: {"sequential": {cls: {k: estimate_json(e) for k, e in s.items()}
                                               for cls, s in v.items()}},
                table=sequential_table))
