"""The report's tables that belong to no metric family: the re-evaluation pairs, the cells not
scored and the judge against people. The paper's tables are metric families
(``asuka.report.families.paper``: Table 1, 3, the per-type breakdown, per round; ``dag_gap``:
Table 2).

A table is plain data: columns and rows of values, where a value is a string, a number or a
scoring.Estimate (mean with a 95% CI, shown as mean ± half-width). Rates are fractions here and
percentages when rendered (asuka.report.render). Every number comes from
``asuka.report.aggregate.aggregate`` (the one aggregation summary.json uses too), except the
re-evaluation pairs, which compare single cells."""

from __future__ import annotations

from asuka.log.scoring import dag_gap
from asuka.report.aggregate import Aggregate
from asuka.report.data import RunData, last_task_rate
from asuka.report.table import Table


def reeval_pairs(run: RunData, source: RunData, view: str = "cumulative") -> Table:
    """A re-evaluated run against its source, cell by cell: same artifacts, another
    threshold/protocol (scored cells of both runs only)."""
    src = {c.cell_id: c for c in source.scored}
    pairs = [(c, src[c.spec["reeval_of"]["cell"]]) for c in run.scored
             if c.spec.get("reeval_of", {}).get("cell") in src]
    t = Table("reeval", f"Re-evaluation of {source.name} ({view} weighted task pass rate at "
              "the last round)", ["agent", "task", "source", "re-evaluated", "source %",
                                  "re-evaluated %", "difference"],
              percent={"source %", "re-evaluated %", "difference"})
    for new, old in sorted(pairs, key=lambda p: (p[0].label, p[0].task, p[0].cell_id)):
        a, b = last_task_rate(old, old.gated, view), last_task_rate(new, new.gated, view)
        t.rows.append([new.label, new.task, f"{old.spec['protocol']} T={old.spec['threshold']:g}",
                       f"{new.spec['protocol']} T={new.spec['threshold']:g}", a, b,
                       dag_gap(a, b)])
    return t


def not_scored_table(agg: Aggregate) -> Table:
    """Cells that are listed but not scored: failed, unfinished, or without their task."""
    t = Table("not_scored", "Cells not scored", ["cell", "task", "state", "rounds", "reason"])
    for c in agg.failed:
        t.rows.append([c["cell_id"], c["task"], f"failed ({c['kind']})", c["rounds_done"],
                       c["reason"] or ""])
    for c in agg.unfinished:
        t.rows.append([c["cell_id"], c["task"], "unfinished",
                       f"{c['rounds_done']} / {c['budget']}", "not padded, not scored"])
    for c in agg.not_scored:
        t.rows.append([c["cell_id"], c["task"], "no task", "", c["reason"]])
    t.note = "Failed and unfinished cells are never padded to their budget and never scored."
    return t


def humans_table(result: dict) -> Table:
    """The judge against people (``asuka agree RUN --humans``): overall and per breakdown."""
    cols = ["accuracy", "precision", "recall", "F1", "kappa", "AC1"]
    t = Table("humans", "Judge vs human labels (Pass the positive class)",
              ["slice", "n", *cols], percent={"accuracy", "precision", "recall", "F1"})
    keys = ("accuracy", "precision", "recall", "f1", "kappa", "ac1")
    if result.get("overall"):
        o = result["overall"]
        t.rows.append(["all", o["n"], *[o[k] for k in keys]])
    for facet in ("type", "ui", "stage"):
        for name, s in result.get(f"by_{facet}", {}).items():
            t.rows.append([f"{facet} {name}", s["n"], *[s[k] for k in keys]])
    lo_hi = result.get("overall", {}).get("ci", {})
    ci = "; ".join(f"{k} [{v[0]:.3f}, {v[1]:.3f}]" for k, v in lo_hi.items())
    t.note = (f"{result['labels']} label(s), {result['cant_tell']} can't tell (left out); "
              f"confusion {result['confusion']}. 95% bootstrap CIs over projects: "
              f"{ci or 'need two projects'}. Disagreements: asuka agree RUN --humans.")
    return t
