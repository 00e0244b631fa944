"""The acceptance-contract part of a run's aggregate (``asuka.report.aggregate``): per group, on
the last round's artifact of each cell, JoyFrontBench's diagnostics beside ATS / CTPR / ASR.

A group's cells of one task are that problem's run slots (its seeds and repeats), as in the
per-round contract metrics. Everything here is computed by the pure functions of
``asuka.log.contracts`` from the recorded verdicts; nothing touches a browser."""

from __future__ import annotations

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
