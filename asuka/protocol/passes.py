"""Repeated evaluation of one artifact (LiveEvalBench's three passes): each evaluation task is
evaluated ``passes`` times and each criterion takes the majority verdict. Wraps an evaluator as
``asuka.protocol.audit.audited`` does, so every protocol gates on the majority as it would on a
single pass; each pass's statuses are kept on the result (``EvalTaskResult.passes``).

Majority: ``pass`` when more than half the passes passed, else the most frequent other status
(ties broken by severity: fail, not_found, unverifiable, error). The verdict kept is the first
one with that status, with its reason and evidence.

``pass_statistics`` (pure): per round, the share of criteria whose passes disagree, the run-to-run
flip rate, the per-pass weighted criteria pass rates with their SD and CV, and single pass (the
first) against majority."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from asuka.log.contracts import flip_rate
from asuka.log.scoring import Shape, weighted_criteria_pass_rate
from asuka.schema import EvalTask, EvalTaskResult, EvaluatorResult, Verdict

Evaluator = Callable[[EvalTask], Awaitable[EvalTaskResult]]
SEVERITY = ("fail", "not_found", "unverifiable", "error")


def majority_status(statuses: list[str]) -> str:
    if sum(s == "pass" for s in statuses) * 2 > len(statuses):
        return "pass"
    others = Counter(s for s in statuses if s != "pass")
    if not others:
        return "fail"
    top = max(others.values())
    return next(s for s in SEVERITY if others.get(s) == top)


def _combine(et: EvalTask, runs: list[EvalTaskResult]) -> EvalTaskResult:
    by_pass = [{v.criterion_id: v for v in r.verdicts} for r in runs]
    verdicts: list[Verdict] = []
    for c in et.criteria:
        seen = [p[c.id] for p in by_pass if c.id in p]
        if not seen:
            continue
        status = majority_status([v.status for v in seen])
        verdicts.append(next(v for v in seen if v.status == status))
    statuses = [v.status for v in verdicts]
    errors = [r.error for r in runs if r.error]
    status = ("error" if "error" in statuses or (not verdicts and errors) else
              "passed" if statuses and all(s == "pass" for s in statuses) else "failed")
    first = runs[0]
    return first.model_copy(update={
        "status": status, "verdicts": verdicts,
        "error": errors[0] if status == "error" and errors else None,
        "duration_s": sum(r.duration_s for r in runs),
        "passes": [{v.criterion_id: v.status for v in r.verdicts} for r in runs]})


def majority(evaluator: Evaluator, passes: int) -> Evaluator:
    """``evaluator`` run ``passes`` times per evaluation task, verdicts by majority."""
    if passes <= 1:
        return evaluator

    async def run(et: EvalTask) -> EvalTaskResult:
        runs = [await evaluator(et) for _ in range(passes)]
        return _combine(et, runs)

    return run


def pass_statistics(shape: Shape, results: Mapping[str, EvalTaskResult]) -> dict[str, Any] | None:
    """What repeated passes say about the evaluator on one round (None: a single pass)."""
    per_task = [r.passes for r in results.values() if r.passes]
    if not per_task:
        return None
    n = max(len(p) for p in per_task)
    outcomes: dict[str, list[bool]] = {}
    for passes in per_task:
        for k, statuses in enumerate(passes):
            for cid, status in statuses.items():
                outcomes.setdefault(cid, [False] * n)[k] = status == "pass"
    flips = [f for f in map(flip_rate, outcomes.values()) if f is not None]
    rates = [weighted_criteria_pass_rate(shape, {c for c, o in outcomes.items() if o[k]})
             for k in range(n)]
    mean = statistics.fmean(rates)
    sd = statistics.stdev(rates) if n > 1 else 0.0
    majority_passed = {v.criterion_id for r in results.values() for v in r.verdicts
                       if v.status == "pass" and r.status in ("passed", "failed")}
    return {"passes": n,
            "disagreeing": sum(len(set(o)) > 1 for o in outcomes.values()) / len(outcomes)
            if outcomes else 0.0,
            "flip_rate": sum(flips) / len(flips) if flips else 0.0,
            "pass_rates": rates, "sd": sd, "cv": sd / mean if mean else math.nan,
            "single": rates[0], "majority": weighted_criteria_pass_rate(shape, majority_passed)}


def jury_pass_statistics(jury: Mapping[str, EvaluatorResult]) -> dict[str, dict[str, Any]]:
    """The same for the jury's model-based evaluators judged more than once (``--eval-passes``;
    their criteria carry each pass's verdict): per evaluator, the share of criteria whose
    passes disagree, the flip rate over pass pairs (not-applicable counts as not passed), the
    per-pass score as a share of the evaluator's points with its SD and CV, and the first
    pass's score against the majority's."""
    out = {}
    for name, res in sorted(jury.items()):
        repeated = [c for c in res.criteria if len(c.passes) > 1]
        if res.status != "judged" or not repeated:
            continue
        n = max(len(c.passes) for c in repeated)

        def share(verdicts: Mapping[str, str]) -> float | None:
            applicable = [c for c in res.criteria if verdicts[c.id] != "na"]
            total = sum(c.points for c in applicable)
            return sum(c.points for c in applicable if verdicts[c.id] == "pass") / total \
                if total else None

        per_pass = [share({c.id: (c.passes[k] if len(c.passes) > k else c.verdict)
                           for c in res.criteria}) for k in range(n)]
        scores = [s for s in per_pass if s is not None]
        mean = statistics.fmean(scores) if scores else math.nan
        sd = statistics.stdev(scores) if len(scores) > 1 else 0.0
        flips = [f for f in (flip_rate([v == "pass" for v in c.passes]) for c in repeated)
                 if f is not None]
        out[name] = {"passes": n,
                     "disagreeing": sum(len(set(c.passes)) > 1 for c in repeated) / len(repeated),
                     "flip_rate": sum(flips) / len(flips) if flips else 0.0,
                     "pass_rates": per_pass, "sd": sd, "cv": sd / mean if mean else math.nan,
                     "single": per_pass[0],
                     "majority": share({c.id: c.verdict for c in res.criteria})}
    return out
