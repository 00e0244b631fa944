"""The paper's tables from a run's aggregate (Table 1, 3, the per-type breakdown, per round; Table
2, the DAG gap, is a metric family: ``asuka.report.families.dag_gap``).

A table is plain data: columns and rows of values, where a value is a string, a number or a
scoring.Estimate (mean with a 95% CI, shown as mean ± half-width). Rates are fractions here and
percentages when rendered (asuka.report.render). Every number comes from
``asuka.report.aggregate.aggregate`` (the one aggregation summary.json uses too), except the
re-evaluation pairs, which compare single cells."""

from __future__ import annotations

from typing import Any

from asuka.log.scoring import dag_gap
from asuka.report.aggregate import Aggregate, GroupAggregate
from asuka.report.data import RunData, last_task_rate
from asuka.report.table import Table, head
from asuka.schema import TASK_TYPES

ERROR_COLUMNS = ("error tasks", "error criteria", "deploy failures", "not found")
N_NOTE = ("n: projects (tasks); seeds of one task are averaged first; cells: the cells "
          "scored. ± is the half-width of the 95% CI ({ci}) over projects.")
ERROR_NOTE = ("Errors (evaluation tasks and criteria the harness or judge could not decide, "
              "failed deploys) count as not passed and stay in the denominator. Not found: "
              "criteria a locator miss decided (nothing matched the check's locator: naming, "
              "or an absent feature), counted as not passed.")


def _errors(g: GroupAggregate) -> list[int]:
    e = g.errors
    return [e["tasks"], e["criteria"], e["deploy_failures"], e["not_found"]]


def table1(agg: Aggregate, view: str = "cumulative") -> Table:
    """Per group: PCR, weighted task pass rate per round, criteria pass rate, error totals."""
    n_max = max((len(g.rounds) for g in agg.groups), default=0)
    rounds = [f"R{r}" for r in range(1, n_max + 1)]
    t = Table("table1", f"Main results ({view}): PCR, weighted task pass rate per round, "
              "weighted criteria pass rate at the last round",
              [*head(agg), "n", "cells", "PCR", *rounds, "Criteria", *ERROR_COLUMNS],
              percent={"PCR", *rounds, "Criteria"})
    for g in agg.groups:
        cols: list[Any] = [g.rounds[k].metrics[f"task_pass_rate.{view}"]
                           if k < len(g.rounds) else "" for k in range(n_max)]
        t.rows.append([*g.labels(agg.varying), g.n, g.n_cells, g.last("completion", view),
                       *cols, g.last("criteria_pass_rate", view), *_errors(g)])
    t.note = N_NOTE.format(ci=agg.ci) + " " + ERROR_NOTE
    return t


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


def table3(agg: Aggregate, view: str = "cumulative") -> Table:
    """Protocols compared: pass rates, fix rates per round, errors, evaluation cost."""
    varying = agg.varying if "protocol" in agg.varying else ["protocol", *agg.varying]
    n_max = max((len(g.rounds) for g in agg.groups), default=0)
    fix_cols = [f"Fix R{r} {k}" for r in range(2, n_max + 1) for k in ("task", "crit")]
    t = Table("table3", f"Protocols: pass rates ({view}, last round), fix rates, errors, "
              "evaluation cost",
              [*head(agg, varying), "n", "Proj.", "Task_w", "Crit_w", *fix_cols,
               *ERROR_COLUMNS, "criteria executed", "eval tokens", "LLM tokens"],
              percent={"Proj.", "Task_w", "Crit_w", *fix_cols})
    for g in agg.groups:
        fixes = [g.rounds[r - 1].metrics[f"{key}.{view}"] if r <= len(g.rounds) else ""
                 for r in range(2, n_max + 1) for key in ("task_fix_rate", "criteria_fix_rate")]
        cost = g.cost
        t.rows.append([
            *g.labels(varying), g.n, g.last("completion", view),
            g.last("task_pass_rate", view), g.last("criteria_pass_rate", view), *fixes,
            *_errors(g), cost["criteria_executed"], cost["eval_tokens"], cost["llm_tokens"]])
    t.note = ("Fix rate at r: of the tasks (criteria) not passed before r, the share passing on "
              "round r's app. Error and cost columns are totals over the group's rounds "
              "actually run (a failed deploy executes no criteria); eval tokens are the UI "
              "agent's, LLM tokens all roles'.")
    return t


def by_type_table(agg: Aggregate) -> Table:
    t = Table("by_type", "Weighted task pass rate by evaluation-task type (cumulative, last "
              "round)", [*head(agg), "n", *TASK_TYPES], percent=set(TASK_TYPES))
    for g in agg.groups:
        t.rows.append([*g.labels(agg.varying), g.n, *[g.by_type[ty] for ty in TASK_TYPES]])
    return t


PER_ROUND_KEYS = (("PCR", "completion.cumulative"), ("task", "task_pass_rate.cumulative"),
                  ("criteria", "criteria_pass_rate.cumulative"),
                  ("implemented", "implemented_rate.cumulative"),
                  ("task same-artifact", "task_pass_rate.same-artifact"),
                  ("criteria same-artifact", "criteria_pass_rate.same-artifact"))


def per_round(agg: Aggregate) -> Table:
    """The curves behind the figures: per group and round, every rate in both views, and the
    round's errors."""
    names = [k for k, _ in PER_ROUND_KEYS]
    t = Table("per_round", "Per round", [*head(agg), "round", *names, "cells run",
                                         *ERROR_COLUMNS], percent=set(names))
    for g in agg.groups:
        for r in g.rounds:
            e = r.errors
            t.rows.append([*g.labels(agg.varying), r.round,
                           *[r.metrics[key] for _, key in PER_ROUND_KEYS], r.cells_run,
                           e["tasks"], e["criteria"], e["deploy_failures"], e["not_found"]])
    t.note = ("cells run: the group's cells that ran this round (the others stopped early and "
              "carry their last artifact over). " + ERROR_NOTE)
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
