"""The paper's main metrics (Asuka-Bench, Table 1 and 3): per group and round, every rate of
``asuka.log.scoring`` in both views (weighted task and criteria pass rates, completion (PCR),
implemented rate, fix rates), each a mean with a 95% CI over projects; at the last round the
rate by evaluation-task type. Its tables: Table 1, Table 3 (protocols: pass and fix rates beside
the errors and evaluation cost of ``asuka.report.families.errors``), the per-type breakdown and
the per-round curves behind the figures."""

from __future__ import annotations

from typing import Any

from asuka.log.scoring import VIEWS, Estimate, by_type, estimate_json, passed_tasks
from asuka.report.data import CellData, Group
from asuka.report.families import Family, FamilyContext, register
from asuka.report.table import Table, head
from asuka.schema import TASK_TYPES

METRICS = ("task_pass_rate", "criteria_pass_rate", "completion", "implemented_rate",
           "task_fix_rate", "criteria_fix_rate")


def paper_round(g: Group, k: int, ctx: FamilyContext) -> dict[str, Estimate]:
    return {f"{m}.{view}": g.estimate(lambda c, m=m, view=view: getattr(c.metrics(view)[k], m),
                                      ctx.ci)
            for view in VIEWS for m in METRICS}


def cumulative_passed(c: CellData, rounds: int | None = None) -> set[str]:
    out: set[str] = set()
    for rnd in c.gated[: rounds or len(c.gated)]:
        out |= passed_tasks(rnd)
    return out


def rate_by_type(g: Group, ctx: FamilyContext) -> dict[str, Estimate]:
    """The cumulative weighted task pass rate by evaluation-task type, at the last round."""
    n = g.n_rounds

    def rate(c: CellData, typ: str) -> float | None:
        got = by_type(c.bt.task, cumulative_passed(c, n))
        return got[typ][0] if typ in got else None

    return {typ: g.estimate(lambda c, typ=typ: rate(c, typ), ctx.ci) for typ in TASK_TYPES}


# ------------------------------------------------------------ tables

ERROR_COLUMNS = ("error tasks", "error criteria", "deploy failures", "not found")
N_NOTE = ("n: projects (tasks); seeds of one task are averaged first; cells: the cells "
          "scored. ± is the half-width of the 95% CI ({ci}) over projects.")
ERROR_NOTE = ("Errors (evaluation tasks and criteria the harness or judge could not decide, "
              "failed deploys) count as not passed and stay in the denominator. Not found: "
              "criteria a locator miss decided (nothing matched the check's locator: naming, "
              "or an absent feature), counted as not passed.")


def _errors(g: Any) -> list[int]:
    e = g.errors
    return [e["tasks"], e["criteria"], e["deploy_failures"], e["not_found"]]


def table1(agg: Any, view: str = "cumulative") -> Table:
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


def table3(agg: Any, view: str = "cumulative") -> Table:
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


def by_type_table(agg: Any) -> Table:
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


def per_round(agg: Any) -> Table:
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




register(Family(
    "paper", order=0, round_metrics=paper_round, aggregate=rate_by_type,
    json=lambda v: {"by_type": {k: estimate_json(e) for k, e in v.items()}},
    table=table1, tables=((80, table3), (90, lambda agg, view: by_type_table(agg)),
                          (100, lambda agg, view: per_round(agg)))))
