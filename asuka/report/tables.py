"""The paper's tables from a recorded run (Table 1, 2, 3, the per-type breakdown, per round).

A table is plain data: columns and rows of values, where a value is a string, a number or a
scoring.Estimate (mean with a 95% CI, shown as mean ± half-width). Rates are fractions here and
percentages when rendered (asuka.report.render)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from asuka.report.data import CellData, Group, RunData
from asuka.schema import TASK_TYPES
from asuka.scoring import Estimate, by_type, dag_gap, mean_ci, passed_tasks, round_metrics, \
    status_counts

GAP_THRESHOLDS = (0.5, 1.0)  # the paper's Table 2 columns; thresholds of the run are added


@dataclass
class Table:
    name: str
    title: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    note: str = ""
    percent: set[str] = field(default_factory=set)  # columns holding rates (x100 when shown)


def group_label(g: Group, varying: list[str]) -> list[str]:
    f = g.fields
    out = [str(f["agent"])]
    for k in varying:
        v = f[k]
        out.append(f"T={v:g}" if k == "threshold" else f"{v}R" if k == "rounds" else str(v))
    return out


def sorted_groups(groups: list[Group]) -> list[Group]:
    return sorted(groups, key=lambda g: tuple(str(x) for x in g.key))


def _last(c: CellData, key: str, view: str, rounds: int | None = None) -> float | None:
    ms = c.metrics(view)
    k = (rounds or len(ms)) - 1
    return getattr(ms[k], key) if 0 <= k < len(ms) else None


def table1(run: RunData, view: str = "cumulative", ci: str = "normal") -> Table:
    """Per agent (and setting): PCR, weighted task pass rate per round, criteria pass rate."""
    groups, varying = sorted_groups(run.groups()), run.varying()
    n_max = max((g.n_rounds for g in groups), default=0)
    rounds = [f"R{r}" for r in range(1, n_max + 1)]
    t = Table("table1", f"Main results ({view}): PCR, weighted task pass rate per round, "
              "weighted criteria pass rate at the last round",
              ["agent", *varying, "n", "PCR", *rounds, "Criteria"],
              percent={"PCR", *rounds, "Criteria"})
    for g in groups:
        n = g.n_rounds
        cols: list[Any] = [g.estimate(lambda c, k=k: c.metrics(view)[k].task_pass_rate, ci)
                           if k < n else "" for k in range(n_max)]
        t.rows.append([*group_label(g, varying), len(g.per_project(lambda c: 1.0)),
                       g.estimate(lambda c: _last(c, "completion", view, n), ci), *cols,
                       g.estimate(lambda c: _last(c, "criteria_pass_rate", view, n), ci)])
    t.note = ("n: projects (tasks); seeds of one task are averaged first. ± is the half-width of "
              f"the 95% CI ({ci}) over projects.")
    return t


def _task_rate(c: CellData, rounds: list, view: str) -> float:
    return round_metrics(c.shape, rounds, view)[-1].task_pass_rate


def table2(run: RunData, view: str = "cumulative", ci: str = "normal") -> Table:
    """DAG gap (pp) on the same artifacts: full evaluation minus gated evaluation at each T."""
    full = [c for c in run.cells if c.spec["protocol"] == "full" and c.records]
    ts = sorted({*GAP_THRESHOLDS, *(c.spec["threshold"] for c in full)})
    groups, varying = sorted_groups(run.groups(full)), [v for v in run.varying() if v != "protocol"]
    gap_cols = [f"Gap T={x:g}" for x in ts]
    t = Table("table2", f"DAG gap ({view} weighted task pass rate at the last round): "
              "full evaluation minus DAG-gated, on the same outputs",
              ["agent", *varying, "n", "Full", *gap_cols], percent={"Full", *gap_cols})
    means: dict[str, list[float]] = {c: [] for c in gap_cols}
    for g in groups:
        row: list[Any] = [*group_label(g, varying), len(g.per_project(lambda c: 1.0)),
                          g.estimate(lambda c: _task_rate(c, c.ungated, view), ci)]
        for x, col in zip(ts, gap_cols):
            e = g.estimate(lambda c, x=x: dag_gap(_task_rate(c, c.ungated, view),
                                                   _task_rate(c, c.regated(x), view)), ci)
            means[col].append(e.mean)
            row.append(e)
        t.rows.append(row)
    if len(groups) > 1:
        t.rows.append(["Mean", *[""] * len(varying), "", "",
                       *[mean_ci(means[c]).mean for c in gap_cols]])
    t.note = ("From cells run with protocol=full: every evaluation task is executed, and the "
              "gated outcome at T is recomputed from the same verdicts. Gap in percentage points."
              if full else "No cell of this run used protocol=full: run the experiment with "
              "`protocols: [full]`, or `asuka reeval RUN --protocol full` to add them.")
    return t


def reeval_pairs(run: RunData, source: RunData, view: str = "cumulative",
                 ci: str = "normal") -> Table:
    """A re-evaluated run against its source: same artifacts, another threshold/protocol."""
    src = {c.cell_id: c for c in source.cells}
    pairs = [(c, src[c.spec["reeval_of"]["cell"]]) for c in run.cells
             if c.records and c.spec.get("reeval_of", {}).get("cell") in src]
    t = Table("reeval", f"Re-evaluation of {source.name} ({view} weighted task pass rate at "
              "the last round)", ["agent", "task", "source", "re-evaluated", "source %",
                                  "re-evaluated %", "difference"],
              percent={"source %", "re-evaluated %", "difference"})
    for new, old in sorted(pairs, key=lambda p: (p[0].label, p[0].task)):
        a, b = _task_rate(old, old.gated, view), _task_rate(new, new.gated, view)
        t.rows.append([new.label, new.task, f"{old.spec['protocol']} T={old.spec['threshold']:g}",
                       f"{new.spec['protocol']} T={new.spec['threshold']:g}", a, b,
                       dag_gap(a, b)])
    return t


def _fix(c: CellData, k: int, key: str, view: str) -> float | None:
    ms = c.metrics(view)
    return getattr(ms[k], key) if k < len(ms) else None


def _tokens(c: CellData, role: str | None) -> int:
    return sum(u.input_tokens + u.output_tokens for r in c.records for u in r.agent.usage
               if role is None or u.role == role)


def table3(run: RunData, view: str = "cumulative", ci: str = "normal") -> Table:
    """Protocols compared: pass rates, fix rates per round, evaluation cost."""
    groups, varying = sorted_groups(run.groups()), run.varying()
    if "protocol" not in varying:
        varying = ["protocol", *varying]
    n_max = max((g.n_rounds for g in groups), default=0)
    fix_cols = [f"Fix R{r} {k}" for r in range(2, n_max + 1) for k in ("task", "crit")]
    t = Table("table3", f"Protocols: pass rates ({view}, last round), fix rates, evaluation cost",
              ["agent", *varying, "n", "Proj.", "Task_w", "Crit_w", *fix_cols,
               "criteria executed", "eval tokens", "LLM tokens"],
              percent={"Proj.", "Task_w", "Crit_w", *fix_cols})
    for g in groups:
        n = g.n_rounds
        fixes = [g.estimate(lambda c, k=r - 1, key=key: _fix(c, k, key, view), ci)
                 if r <= n else "" for r in range(2, n_max + 1)
                 for key in ("task_fix_rate", "criteria_fix_rate")]
        t.rows.append([
            *group_label(g, varying), len(g.per_project(lambda c: 1.0)),
            g.estimate(lambda c: _last(c, "completion", view, n), ci),
            g.estimate(lambda c: _last(c, "task_pass_rate", view, n), ci),
            g.estimate(lambda c: _last(c, "criteria_pass_rate", view, n), ci), *fixes,
            sum(status_counts(r.evaluation.results)["criteria_executed"]
                for c in g.cells for r in c.records),
            sum(_tokens(c, "ui-agent") for c in g.cells),
            sum(_tokens(c, None) for c in g.cells)])
    t.note = ("Fix rate at r: of the tasks (criteria) not passed before r, the share passing on "
              "round r's app. Cost columns are totals over the group's rounds actually run; eval "
              "tokens are the UI agent's, LLM tokens all roles'.")
    return t


def cumulative_passed(c: CellData, rounds: int | None = None) -> set[str]:
    out: set[str] = set()
    for rnd in c.gated[: rounds or len(c.gated)]:
        out |= passed_tasks(rnd)
    return out


def by_type_table(run: RunData, ci: str = "normal") -> Table:
    groups, varying = sorted_groups(run.groups()), run.varying()
    t = Table("by_type", "Weighted task pass rate by evaluation-task type (cumulative, last "
              "round)", ["agent", *varying, "n", *TASK_TYPES], percent=set(TASK_TYPES))

    def rate(c: CellData, typ: str, n: int) -> float | None:
        got = by_type(c.bt.task, cumulative_passed(c, n))
        return got[typ][0] if typ in got else None

    for g in groups:
        t.rows.append([*group_label(g, varying), len(g.per_project(lambda c: 1.0)),
                       *[g.estimate(lambda c, ty=ty, n=g.n_rounds: rate(c, ty, n), ci)
                         for ty in TASK_TYPES]])
    return t


def per_round(run: RunData, ci: str = "normal") -> Table:
    """The curves behind the figures: per group and round, every rate in both views."""
    groups, varying = sorted_groups(run.groups()), run.varying()
    keys = [("PCR", "completion", "cumulative"), ("task", "task_pass_rate", "cumulative"),
            ("criteria", "criteria_pass_rate", "cumulative"),
            ("implemented", "implemented_rate", "cumulative"),
            ("task same-artifact", "task_pass_rate", "same-artifact"),
            ("criteria same-artifact", "criteria_pass_rate", "same-artifact")]
    t = Table("per_round", "Per round", ["agent", *varying, "round", *[k[0] for k in keys]],
              percent={k[0] for k in keys})
    for g in groups:
        for k in range(g.n_rounds):
            t.rows.append([*group_label(g, varying), k + 1, *[
                g.estimate(lambda c, a=attr, v=view: getattr(c.metrics(v)[k], a), ci)
                for _, attr, view in keys]])
    return t


def estimate_or_nan(v: Any) -> Estimate:
    return v if isinstance(v, Estimate) else Estimate(math.nan, math.nan, math.nan, 0)
