"""JoyFrontBench's acceptance contracts as a metric family: ATS / CTPR / ASR per round on each
round's own artifact, and per group, on the last round's artifact of each cell, the diagnostics
beside them (ASR across tau, pass^k, the failure composition, pairwise counts).

A group's cells of one task are that problem's run slots (its seeds and repeats), as in the
per-round contract metrics. Everything here is computed by the pure functions of
``asuka.log.contracts`` from the recorded verdicts; nothing touches a browser."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from asuka.log.contracts import (
    FAILURE_KINDS,
    TAU_SENSITIVITY,
    RunScores,
    capability_scores,
    contracts_of,
    failure_kind,
    flip_rate,
    mixed_outcomes,
    operable,
    outcomes_of,
    pass_hat_k,
    score_run,
    tau_forces_all,
)
from asuka.log.scoring import Estimate, estimate_json
from asuka.report.data import CellData, Group
from asuka.report.families import Family, FamilyContext, register
from asuka.report.table import Table, head

HIGH_ATS = 0.9  # JoyFrontBench: the share of unsuccessful runs that still reach 90 % ATS


@dataclass
class ContractAggregate:
    tau: float
    runs: int                                  # run slots scored (cells with a contract)
    at_tau: dict[str, dict[str, Estimate]]     # "0.8" -> {"ctpr", "asr"}: tau sensitivity
    forced_share: dict[str, float]             # "0.8" -> core tasks where tau needs all criteria
    failures: dict[str, int]                   # unsuccessful runs per failure kind
    unsuccessful: int
    high_ats_unsuccessful: int                 # unsuccessful runs with ATS >= HIGH_ATS
    capabilities: dict[str, float]             # CapScore per capability dimension
    slots: int                                 # the most run slots of one problem
    repeats: dict[str, float] = field(default_factory=dict)    # all-success / mixed / all-failure
    pass_k: dict[str, dict[str, float | None]] = field(default_factory=dict)  # "asr"|"project"
    flip_rate: float | None = None             # mean over (problem, evaluation task)
    # pairwise presentation tasks on the last artifacts: good / same / bad, and "error" (not
    # judged: the harness's failure, left out of ATS)
    pairwise: dict[str, int] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        return {"tau": self.tau, "runs": self.runs,
                "at_tau": {t: {m: estimate_json(e) for m, e in v.items()}
                           for t, v in self.at_tau.items()},
                "tau_forces_every_criterion": self.forced_share,
                "failure_composition": {"unsuccessful": self.unsuccessful, **self.failures,
                                        "high_ats_unsuccessful": self.high_ats_unsuccessful},
                "capabilities": self.capabilities, "slots": self.slots,
                "repeats": self.repeats, "pass_k": self.pass_k, "flip_rate": self.flip_rate,
                **({"pairwise": self.pairwise} if self.pairwise else {})}


def has_contract(c: CellData) -> bool:
    return c.bt is not None and any(et.core for et in c.bt.task.eval_tasks)


def _last(c: CellData) -> Any:
    return c.records[-1].evaluation


def cell_scores(c: CellData, tau: float, k: int | None = None) -> RunScores:
    """A cell's contract scores on round ``k + 1``'s artifact (default and past its last
    round: the last one, which a cell that stopped early carries over)."""
    rec = c.records[-1 if k is None else min(k, len(c.records) - 1)]
    return score_run(contracts_of(c.bt.task), outcomes_of(rec.evaluation),  # type: ignore
                     operable(rec.evaluation), tau)


def contract_value(c: CellData, tau: float, metric: str, k: int | None = None
                   ) -> float | None:
    """ATS, CTPR or ASR of one cell (None: its task declares no contract)."""
    if not has_contract(c) or not c.records:
        return None
    s = cell_scores(c, tau, k)
    return {"ats": s.ats, "ctpr": s.ctpr, "asr": s.success}[metric]


def contract_aggregate(g: Group, tau: float, ci: str = "normal") -> ContractAggregate | None:
    """The group's contract diagnostics (None when none of its tasks declares a contract)."""
    cells = [c for c in g.cells if has_contract(c) and c.records]
    if not cells:
        return None
    taus = sorted({*TAU_SENSITIVITY, tau})
    at_tau = {f"{t:g}": {m: g.estimate(lambda c, t=t, m=m: contract_value(c, t, m), ci)
                         for m in ("ctpr", "asr")} for t in taus}
    by_task: dict[str, list[CellData]] = defaultdict(list)
    for c in cells:
        by_task[c.task].append(c)
    core = [ct for cs in by_task.values() for ct in contracts_of(cs[0].bt.task) if ct.core]
    forced = {f"{t:g}": sum(tau_forces_all(ct, t) for ct in core) / len(core) for t in taus}

    failures = dict.fromkeys(FAILURE_KINDS, 0)
    high_ats = 0
    scores: dict[str, list[RunScores]] = defaultdict(list)
    success: dict[str, list[bool]] = defaultdict(list)
    project: dict[str, list[bool]] = defaultdict(list)
    passes: dict[tuple[str, str], list[bool]] = defaultdict(list)
    pairwise: dict[str, int] = {}
    for c in cells:
        ev, s = _last(c), cell_scores(c, tau)
        for judged in ev.pairwise.values():
            kind = judged.verdict if judged.status == "judged" else "error"
            pairwise[kind or "error"] = pairwise.get(kind or "error", 0) + 1
        scores[c.task].append(s)
        success[c.task].append(bool(s.success))
        project[c.task].append(c.metrics("same-artifact")[-1].completion >= 1)
        for tid, res in ev.results.items():
            passes[(c.task, tid)].append(res.status == "passed")
        if not s.success:
            kind = failure_kind(contracts_of(c.bt.task), outcomes_of(ev), operable(ev), tau)
            if kind is not None:
                failures[kind] += 1
            high_ats += s.ats >= HIGH_ATS
    unsuccessful = sum(failures.values())
    contracts = {task: contracts_of(cs[0].bt.task) for task, cs in by_task.items()}
    slots = max(len(cs) for cs in by_task.values())
    out = ContractAggregate(tau, len(cells), at_tau, forced, failures, unsuccessful, high_ats,
                            capability_scores(scores, contracts), slots, pairwise=pairwise)
    if slots > 1:
        out.repeats = mixed_outcomes({t: [float(v) for v in vs] for t, vs in success.items()})
        out.pass_k = {name: {str(k): pass_hat_k(data, k) for k in range(1, slots + 1)}
                      for name, data in (("asr", success), ("project", project))}
        flips = [f for f in map(flip_rate, passes.values()) if f is not None]
        out.flip_rate = sum(flips) / len(flips) if flips else None
    return out


CONTRACT_METRICS = ("ats", "ctpr", "asr")


def contract_round(g: Group, k: int, ctx: FamilyContext) -> dict[str, Any]:
    """ATS, CTPR and ASR of round ``k + 1``'s own artifact, over the tasks with a contract."""
    if not any(has_contract(c) for c in g.cells):
        return {}
    return {f"{m}.same-artifact": g.estimate(lambda c, m=m: contract_value(c, ctx.tau, m, k),
                                             ctx.ci) for m in CONTRACT_METRICS}


def contracts_table(agg: Any, view: str = "cumulative") -> Table | None:
    """JoyFrontBench's Table 1 variant, ranked by ASR: ATS, CTPR and ASR on the last round's
    artifact, ASR across tau, pass^k over repeated runs, and why unsuccessful runs failed."""
    groups = [g for g in agg.groups if g.families.get("contracts") is not None]
    if not groups:
        return None
    taus = [t for t in sorted({0.75, agg.tau, 0.9}) if t != agg.tau]
    slots = max((g.families["contracts"].slots for g in groups), default=1)  # type: ignore[union-attr]
    ks = [k for k in (2, 3) if k <= slots]
    asr_cols = [f"ASR τ={t:g}" for t in taus]
    rep_cols = [f"pass^{k}" for k in ks] + (["mixed", "flip rate"] if slots > 1 else [])
    fail_cols = ["mandatory-only", "completion-only", "both", "not operable", "ATS≥90%"]
    pairwise = any(g.families["contracts"].pairwise for g in groups)  # type: ignore[union-attr]
    fail_cols += ["pairwise G/S/B/err"] if pairwise else []
    t = Table("contracts", f"Acceptance contracts (last round's artifact, τ = {agg.tau:g}), "
              "ranked by ASR (then CTPR, ATS)",
              [*head(agg), "n", "runs", "ATS", "CTPR", "ASR", *asr_cols, *rep_cols,
               "unsuccessful", *fail_cols],
              percent={"ATS", "CTPR", "ASR", *asr_cols, *rep_cols})
    tau = f"{agg.tau:g}"

    def rank(g: Any) -> tuple[float, ...]:
        """ASR, then CTPR, then ATS (ties are common when few applications succeed)."""
        at = g.families["contracts"].at_tau[tau]  # type: ignore[union-attr]
        values = (at["asr"].mean, at["ctpr"].mean, g.last("ats", "same-artifact").mean)
        return tuple(-1.0 if math.isnan(v) else v for v in values)

    for g in sorted(groups, key=rank, reverse=True):
        c = g.families["contracts"]
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


register(Family("contracts", order=40,
                aggregate=lambda g, ctx: contract_aggregate(g, ctx.tau, ctx.ci),
                json=lambda v: {"contract": v.json()}, round_metrics=contract_round,
                table=contracts_table))
