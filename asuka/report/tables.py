"""The paper's tables from a run's aggregate (Table 1, 2, 3, the per-type breakdown, per round).

A table is plain data: columns and rows of values, where a value is a string, a number or a
scoring.Estimate (mean with a 95% CI, shown as mean ± half-width). Rates are fractions here and
percentages when rendered (asuka.report.render). Every number comes from
``asuka.report.aggregate.aggregate`` (the one aggregation summary.json uses too), except the
re-evaluation pairs, which compare single cells."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from asuka.log.scoring import Estimate, dag_gap, mean_ci
from asuka.report.aggregate import Aggregate, GroupAggregate, last_task_rate
from asuka.report.data import RunData, display_name
from asuka.schema import TASK_TYPES


@dataclass
class Table:
    name: str
    title: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    note: str = ""
    percent: set[str] = field(default_factory=set)  # columns holding rates (x100 when shown)


ERROR_COLUMNS = ("error tasks", "error criteria", "deploy failures", "not found")
N_NOTE = ("n: projects (tasks); seeds of one task are averaged first; cells: the cells "
          "scored. ± is the half-width of the 95% CI ({ci}) over projects.")
ERROR_NOTE = ("Errors (evaluation tasks and criteria the harness or judge could not decide, "
              "failed deploys) count as not passed and stay in the denominator. Not found: "
              "criteria a locator miss decided (nothing matched the check's locator: naming, "
              "or an absent feature), counted as not passed.")


def _head(agg: Aggregate, varying: list[str] | None = None) -> list[str]:
    return ["agent", *[display_name(v) for v in (agg.varying if varying is None else varying)]]


def _errors(g: GroupAggregate) -> list[int]:
    e = g.errors
    return [e["tasks"], e["criteria"], e["deploy_failures"], e["not_found"]]


def table1(agg: Aggregate, view: str = "cumulative") -> Table:
    """Per group: PCR, weighted task pass rate per round, criteria pass rate, error totals."""
    n_max = max((len(g.rounds) for g in agg.groups), default=0)
    rounds = [f"R{r}" for r in range(1, n_max + 1)]
    t = Table("table1", f"Main results ({view}): PCR, weighted task pass rate per round, "
              "weighted criteria pass rate at the last round",
              [*_head(agg), "n", "cells", "PCR", *rounds, "Criteria", *ERROR_COLUMNS],
              percent={"PCR", *rounds, "Criteria"})
    for g in agg.groups:
        cols: list[Any] = [g.rounds[k].metrics[f"task_pass_rate.{view}"]
                           if k < len(g.rounds) else "" for k in range(n_max)]
        t.rows.append([*g.labels(agg.varying), g.n, g.n_cells, g.last("completion", view),
                       *cols, g.last("criteria_pass_rate", view), *_errors(g)])
    t.note = N_NOTE.format(ci=agg.ci) + " " + ERROR_NOTE
    return t


def table2(agg: Aggregate, view: str = "cumulative") -> Table:
    """DAG gap (pp) on the same artifacts: full evaluation minus gated evaluation at each T."""
    full = [g for g in agg.groups if g.full]
    varying = [v for v in agg.varying if v != "protocol"]
    ts = agg.gap_thresholds
    gap_cols = [f"Gap T={x:g}" for x in ts]
    t = Table("table2", f"DAG gap ({view} weighted task pass rate at the last round): "
              "full evaluation minus DAG-gated, on the same outputs",
              [*_head(agg, varying), "n", "Full", *gap_cols], percent={"Full", *gap_cols})
    for g in full:
        t.rows.append([*g.labels(varying), g.n, g.full[f"task_pass_rate.{view}"],
                       *[g.full[f"dag_gap.{view}.T={x:g}"] for x in ts]])
    if len(full) > 1:
        t.rows.append(["Mean", *[""] * len(varying), "", "",
                       *[mean_ci([g.full[f"dag_gap.{view}.T={x:g}"].mean for g in full]).mean
                         for x in ts]])
    t.note = ("From cells run with protocol=full: every evaluation task is executed, and the "
              "gated outcome at T is recomputed from the same verdicts. Gap in percentage points."
              if full else "No cell of this run used protocol=full: run the experiment with "
              "`protocols: [full]`, or `asuka reeval RUN --protocol full` to add them.")
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
              [*_head(agg, varying), "n", "Proj.", "Task_w", "Crit_w", *fix_cols,
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
              "round)", [*_head(agg), "n", *TASK_TYPES], percent=set(TASK_TYPES))
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
    t = Table("per_round", "Per round", [*_head(agg), "round", *names, "cells run",
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


def estimate_or_nan(v: Any) -> Estimate:
    return v if isinstance(v, Estimate) else Estimate(math.nan, math.nan, math.nan, 0)


def jury_table(agg: Aggregate) -> Table:
    """LiveEvalBench's jury: each evaluator's points and the jury score on the last round."""
    evaluators = sorted({e for g in agg.groups for e in g.jury})
    t = Table("jury", "Jury of evaluators (last round's artifact): points per evaluator and the "
              "jury score", [*_head(agg), "n", *evaluators, "jury"], percent={"jury"})
    for g in agg.groups:
        if not g.jury:
            continue
        t.rows.append([*g.labels(agg.varying), g.n,
                       *[g.jury.get(e, estimate_or_nan(None)) for e in evaluators],
                       estimate_or_nan(g.rounds[-1].metrics.get("jury.same-artifact"))])
    t.note = ("Points out of each evaluator's cap (evaluators/*.yaml; shipped: build engineer "
              "15, code engineer 30, UI tester 45). An evaluator gated by a build that did not "
              "pass scores 0; one in error, or with no criterion the query asks for, is left "
              "out. Jury: the points over the scored evaluators' caps.")
    return t


def passes_table(agg: Aggregate) -> Table:
    """Repeated evaluation of the same artifacts (--eval-passes): how much the evaluator
    disagrees with itself, and single pass against the majority."""
    cols = ["criteria disagreeing", "flip rate", "SD", "CV", "single pass", "majority"]
    t = Table("passes", "Evaluation passes (last round's artifact): the evaluator against "
              "itself", [*_head(agg), "n", "evaluator", *cols],
              percent={"criteria disagreeing", "flip rate", "single pass", "majority"})
    keys = ("disagreeing", "flip_rate", "sd", "cv", "single", "majority")
    for g in agg.groups:
        if g.passes:
            t.rows.append([*g.labels(agg.varying), g.n, "UI agent", *[g.passes[k] for k in keys]])
        for evaluator, stats in g.jury_passes.items():
            t.rows.append([*g.labels(agg.varying), g.n, evaluator, *[stats[k] for k in keys]])
    t.note = ("Each criterion of each artifact judged in every pass; the verdict is the "
              "majority. Criteria disagreeing: share with mixed outcomes across passes; flip "
              "rate: share of pass pairs that disagree; SD and CV: of the per-pass weighted "
              "criteria pass rate; single pass: the first pass's rate; majority: the rate the "
              "run was scored on. A jury evaluator (a model-based one: deterministic checks "
              "judge once) is measured the same way on its criteria, its rates being its score "
              "as a share of its points.")
    return t


def feedback_table(agg: Aggregate) -> Table:
    """WatchPoint's question on our rounds: how much did each feedback condition help?"""
    t = Table("feedback", "Feedback: how many reported failures the agent fixed, per feedback "
              "condition and routing", [*_head(agg), "n", "fix rate", "recovery",
                                        "rounds probed"],
              percent={"fix rate", "recovery", "rounds probed"})
    for g in agg.groups:
        t.rows.append([*g.labels(agg.varying), g.n,
                       *[g.feedback[k] for k in ("fix_rate", "recovery", "probed")]])
    t.note = ("Fix rate: of the criteria that failed where they were executed in one round, the "
              "share that pass in the next (pooled over the cell's rounds; a criterion the next "
              "round did not execute is not fixed). Recovery: of the evaluation tasks failed "
              "in round 1, the share passed in round 2 (WatchPoint's per-task recovery). "
              "Rounds probed: the share of rounds whose routing let the diagnostic probes run "
              "(— without probes).")
    return t


def sequential_table(agg: Aggregate) -> Table:
    """Web-Bench's protocol (WatchPoint's measures) per setting and project class."""
    t = Table("sequential", "Sequential (Web-Bench): tasks passed on the first attempt, within "
              "two, and recovered by the retry, per project class",
              [*_head(agg), "class", "n", "Pass@1", "Pass@2", "recovery"],
              percent={"Pass@1", "Pass@2", "recovery"})
    for g in agg.groups:
        for cls, stats in g.sequential.items():
            t.rows.append([*g.labels(agg.varying), cls, stats["pass_at_1"].n,
                           stats["pass_at_1"], stats["pass_at_2"], stats["recovery"]])
    t.note = ("Each project's evaluation tasks in order, the later ones judged only after the "
              "earlier pass (cumulative); a task failed on every attempt stops the project, "
              "the tasks after it count as not passed. Pass@1 and Pass@2: of all the tasks; "
              "recovery: of the tasks failed on attempt 1 and retried, the share passed on "
              "attempt 2. Class: WatchPoint's, from the project's package.json.")
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


def contracts_table(agg: Aggregate) -> Table:
    """JoyFrontBench's Table 1 variant, ranked by ASR: ATS, CTPR and ASR on the last round's
    artifact, ASR across tau, pass^k over repeated runs, and why unsuccessful runs failed."""
    groups = [g for g in agg.groups if g.contract is not None]
    taus = [t for t in sorted({0.75, agg.tau, 0.9}) if t != agg.tau]
    slots = max((g.contract.slots for g in groups), default=1)  # type: ignore[union-attr]
    ks = [k for k in (2, 3) if k <= slots]
    asr_cols = [f"ASR τ={t:g}" for t in taus]
    rep_cols = [f"pass^{k}" for k in ks] + (["mixed", "flip rate"] if slots > 1 else [])
    fail_cols = ["mandatory-only", "completion-only", "both", "not operable", "ATS≥90%"]
    pairwise = any(g.contract.pairwise for g in groups)  # type: ignore[union-attr]
    fail_cols += ["pairwise G/S/B/err"] if pairwise else []
    t = Table("contracts", f"Acceptance contracts (last round's artifact, τ = {agg.tau:g}), "
              "ranked by ASR (then CTPR, ATS)",
              [*_head(agg), "n", "runs", "ATS", "CTPR", "ASR", *asr_cols, *rep_cols,
               "unsuccessful", *fail_cols],
              percent={"ATS", "CTPR", "ASR", *asr_cols, *rep_cols})
    tau = f"{agg.tau:g}"

    def rank(g: GroupAggregate) -> tuple[float, ...]:
        """ASR, then CTPR, then ATS (ties are common when few applications succeed)."""
        at = g.contract.at_tau[tau]  # type: ignore[union-attr]
        values = (at["asr"].mean, at["ctpr"].mean, g.last("ats", "same-artifact").mean)
        return tuple(-1.0 if math.isnan(v) else v for v in values)

    for g in sorted(groups, key=rank, reverse=True):
        c = g.contract
        assert c is not None
        reps = [c.pass_k.get("asr", {}).get(str(k)) for k in ks]
        if slots > 1:
            reps += [c.repeats.get("mixed"), c.flip_rate]
        t.rows.append([*g.labels(agg.varying), g.n, c.runs, g.last("ats", "same-artifact"),
                       c.at_tau[tau]["ctpr"], c.at_tau[tau]["asr"],
                       *[c.at_tau[f"{x:g}"]["asr"] for x in taus], *reps, c.unsuccessful,
                       *[c.failures[k] for k in ("mandatory-only", "completion-only", "both",
                                                 "not-operable")], c.high_ats_unsuccessful,
                       *(["/".join(str(c.pairwise.get(k, 0))
                                   for k in ("good", "same", "bad", "error"))]
                         if pairwise else [])])
    t.note = ("Only the tasks that declare a contract. ATS: mean task score (criterion "
              "completion). CTPR: share of core tasks passing (every mandatory criterion and "
              "completion ≥ τ). ASR: application success (operable and every core task "
              "passing). Seeds are run slots, averaged within a task before tasks are averaged. "
              "pass^k: chance that k runs of a task all succeed; mixed: share of tasks with "
              "both outcomes; flip rate: mean share of run pairs disagreeing on an evaluation "
              "task. Failure columns count unsuccessful runs: a mandatory criterion lost, a "
              "core task short of τ, both (in different core tasks), or not operable; ATS≥90%: "
              "unsuccessful runs whose ATS still reached 90%."
              + (" Pairwise G/S/B/err: presentation tasks judged against the reference app "
                 "(Good, Same, Bad count 1, 0.5, 0 in ATS; err: not judged, left out of ATS)."
                 if pairwise else "")
              if groups else "No task of this run declares an acceptance contract.")
    return t
