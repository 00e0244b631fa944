"""Acceptance-contract metrics, exactly as JoyFrontBench defines them (its appendix D.1), as
pure functions on plain records: no browser, no store.

Per problem q and run slot r (here: a cell's round, or a repeat of a cell):

- criterion outcome ``y`` is 1 only for a criterion that passed; failed, not found, errored,
  unverifiable, skipped or missing criteria are 0 (they stay in the denominator);
- completion of a pointwise task ``A = mean(y)`` over its criteria;
- task score ``Z = A`` for a pointwise task, ``G`` in {1, 0.5, 0} (Good / Same / Bad; invalid
  or missing 0) for a pairwise one; the problem-run ATS ``O`` is the mean of ``Z`` over tasks.
  One deviation, for honesty: a pairwise task the harness could not judge (no judge configured,
  the judge failed: ``TaskOutcome.unjudged``) leaves the run's tasks instead of scoring 0 (on an
  operable app; on one that is not, Z is 0 as for every task);
- a core task passes at threshold tau when every mandatory criterion passed and ``A >= tau``:
  ``P = prod(y_mandatory) * [A >= tau]``; the problem-run CTPR ``C`` is the mean of ``P`` over
  the core tasks;
- application success ``S = B * prod(P over core tasks)``, with ``B`` the operability bit (the
  build-and-runtime contract held). When ``B = 0`` only source-verifiable criteria keep their
  credit in ``A``;
- reported metrics average the run slots within a problem, then macro-average problems
  (``macro``); a slot that could not be scored counts 0 and stays in the denominator;
- the capability score of a dimension averages each of its tasks over run slots, then weighs
  those tasks equally.

CTPR and ASR are undefined (None) for a problem without core tasks.

Diagnostics of the same records: why an unsuccessful run failed (``failure_kind``: a mandatory
criterion, the completion threshold, both in different core tasks, or the build-and-runtime
contract), how binding tau is (``tau_forces_all``), run-to-run variability (``flip_rate``) and
τ-bench's pass^k (``pass_hat_k``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

PAIRWISE_SCORES = {"good": 1.0, "same": 0.5, "bad": 0.0}
DEFAULT_TAU = 0.8
TAU_SENSITIVITY = (0.75, 0.8, 0.9)  # JoyFrontBench's appendix D.4
# why an unsuccessful run failed (JoyFrontBench's Table 2, plus runs that could not be judged
# on behaviour because the app did not build or run)
FailureKind = Literal["mandatory-only", "completion-only", "both", "not-operable"]
FAILURE_KINDS: tuple[str, ...] = ("mandatory-only", "completion-only", "both", "not-operable")


@dataclass(frozen=True)
class TaskContract:
    """What a task's contract says: its criteria (in order), which are mandatory and which may
    be judged from the source alone, whether it is a core task, pointwise or pairwise."""

    task_id: str
    criteria: tuple[str, ...] = ()
    mandatory: frozenset[str] = frozenset()
    source_verifiable: frozenset[str] = frozenset()
    core: bool = False
    mode: Literal["pointwise", "pairwise"] = "pointwise"
    capability: str | None = None


@dataclass(frozen=True)
class TaskOutcome:
    """One run slot's result for a task: the criteria that passed, or a pairwise verdict."""

    passed: frozenset[str] = frozenset()
    pairwise: str | None = None          # good | same | bad; anything else scores 0
    unjudged: bool = False               # a pairwise task the harness could not judge


@dataclass(frozen=True)
class RunScores:
    """The problem-run quantities: ATS ``O``, CTPR ``C``, success ``S``, operability ``B``."""

    ats: float
    ctpr: float | None
    success: float | None
    operable: bool
    task_scores: dict[str, float] = field(default_factory=dict)
    core_passed: dict[str, bool] = field(default_factory=dict)


def completion(contract: TaskContract, outcome: TaskOutcome | None, operable: bool) -> float:
    """``A``: the share of the task's criteria that passed (only source-verifiable ones count
    when the app is not operable)."""
    if not contract.criteria:
        return 0.0
    credited = _credited(contract, outcome, operable)
    return sum(c in credited for c in contract.criteria) / len(contract.criteria)


def _credited(contract: TaskContract, outcome: TaskOutcome | None, operable: bool) -> set[str]:
    passed = set(outcome.passed) if outcome is not None else set()
    return passed if operable else passed & set(contract.source_verifiable)


def task_score(contract: TaskContract, outcome: TaskOutcome | None, operable: bool) -> float:
    """``Z``: completion for a pointwise task, Good/Same/Bad as 1/0.5/0 for a pairwise one."""
    if contract.mode == "pairwise":
        verdict = (outcome.pairwise or "").lower() if outcome is not None else ""
        return PAIRWISE_SCORES.get(verdict, 0.0) if operable else 0.0
    return completion(contract, outcome, operable)


def core_task_passes(contract: TaskContract, outcome: TaskOutcome | None, operable: bool,
                     tau: float = DEFAULT_TAU) -> bool:
    """``P``: every mandatory criterion passed and the completion reached ``tau``."""
    credited = _credited(contract, outcome, operable)
    mandatory_ok = all(c in credited for c in contract.mandatory)
    # a tiny tolerance: 4 of 5 criteria is exactly 0.8, whatever the float rounding
    return mandatory_ok and completion(contract, outcome, operable) >= tau - 1e-12


def score_run(contracts: Sequence[TaskContract], outcomes: Mapping[str, TaskOutcome],
              operable: bool, tau: float = DEFAULT_TAU) -> RunScores:
    """The problem-run scores of one run slot (a task missing from ``outcomes`` scores 0)."""
    if not contracts:
        raise ValueError("a problem has at least one task")
    scored = [c for c in contracts if not (operable and c.mode == "pairwise"
                                           and _unjudged(outcomes.get(c.task_id)))]
    scores = {c.task_id: task_score(c, outcomes.get(c.task_id), operable) for c in scored}
    core = [c for c in contracts if c.core and c.mode == "pointwise"]
    passed = {c.task_id: core_task_passes(c, outcomes.get(c.task_id), operable, tau)
              for c in core}
    ats = sum(scores.values()) / len(scores)
    if not core:
        return RunScores(ats, None, None, operable, scores, passed)
    ctpr = sum(passed.values()) / len(core)
    success = float(operable and all(passed.values()))
    return RunScores(ats, ctpr, success, operable, scores, passed)


def _unjudged(outcome: TaskOutcome | None) -> bool:
    return outcome is not None and outcome.unjudged


def failure_kind(contracts: Sequence[TaskContract], outcomes: Mapping[str, TaskOutcome],
                 operable: bool, tau: float = DEFAULT_TAU) -> FailureKind | None:
    """Why a run did not succeed; None when it succeeded or has no core task. A core task that
    loses a mandatory criterion is a mandatory failure (whatever its completion); one whose
    mandatory criteria pass but whose completion stays below tau is a completion failure;
    "both" is one of each in different core tasks."""
    core = [c for c in contracts if c.core and c.mode == "pointwise"]
    if not core:
        return None
    if not operable:
        return "not-operable"
    mandatory = completion_short = False
    for c in core:
        credited = _credited(c, outcomes.get(c.task_id), operable)
        if not all(m in credited for m in c.mandatory):
            mandatory = True
        elif completion(c, outcomes.get(c.task_id), operable) < tau - 1e-12:
            completion_short = True
    if mandatory and completion_short:
        return "both"
    return "mandatory-only" if mandatory else "completion-only" if completion_short else None


def tau_forces_all(contract: TaskContract, tau: float = DEFAULT_TAU) -> bool:
    """At tau, with this task's finite number of criteria, must every criterion pass? (4 of 5
    reaches 0.8; 4 of 4 is the only way for a task of four.)"""
    n = len(contract.criteria)
    return n > 0 and (n - 1) / n < tau - 1e-12


def flip_rate(outcomes: Sequence[bool]) -> float | None:
    """Run-to-run disagreement of one evaluation task over repeated runs: the share of pairs
    of runs whose pass/fail differ (0: stable, up to about 0.5 for an even split). None with
    fewer than two runs."""
    n = len(outcomes)
    if n < 2:
        return None
    c = sum(bool(o) for o in outcomes)
    return c * (n - c) / math.comb(n, 2)


def pass_hat_k(successes: Mapping[str, Sequence[bool]], k: int) -> float | None:
    """τ-bench's pass^k: the mean over problems of C(c, k) / C(n, k), with c of n runs
    successful: the chance that k runs drawn without replacement all succeed. Problems with
    fewer than k runs are left out; None when none is left."""
    values = [math.comb(sum(map(bool, runs)), k) / math.comb(len(runs), k)
              for runs in successes.values() if len(runs) >= k > 0]
    return sum(values) / len(values) if values else None


def macro(per_problem: Mapping[str, Sequence[float | None]], slots: int | None = None
          ) -> float | None:
    """``Avg``: each problem's run slots averaged (a missing slot, or one scored None because
    it could not run, counts 0 when ``slots`` says how many were scheduled), then problems
    macro-averaged. None when no problem has a value."""
    means = []
    for values in per_problem.values():
        got = [0.0 if v is None else float(v) for v in values]
        n = slots if slots is not None else len(got)
        if n == 0:
            continue
        means.append(sum(got) / n)
    return sum(means) / len(means) if means else None


def capability_scores(runs: Mapping[str, Sequence[RunScores]],
                      contracts: Mapping[str, Sequence[TaskContract]],
                      slots: int | None = None) -> dict[str, float]:
    """Per capability dimension: each of its tasks averaged over run slots, tasks weighted
    equally across problems."""
    per_task: dict[str, list[float]] = {}
    for problem, problem_runs in runs.items():
        n = slots if slots is not None else len(problem_runs)
        for c in contracts.get(problem, ()):
            if c.capability is None or n == 0:
                continue
            if all(c.task_id not in r.task_scores for r in problem_runs):
                continue  # never scored: a pairwise task no run could judge
            total = sum(r.task_scores.get(c.task_id, 0.0) for r in problem_runs)
            per_task.setdefault(c.capability, []).append(total / n)
    return {d: sum(v) / len(v) for d, v in sorted(per_task.items())}


def mixed_outcomes(success: Mapping[str, Iterable[float | None]]) -> dict[str, float]:
    """Repeated-run variability: the shares of problems whose run slots all succeeded, all
    failed, or both happened (JoyFrontBench's repeatability columns)."""
    kinds = {"all_success": 0, "all_failure": 0, "mixed": 0}
    counted = 0
    for values in success.values():
        got = [bool(v) for v in values if v is not None and not math.isnan(v)]
        if not got:
            continue
        counted += 1
        kinds["all_success" if all(got) else "all_failure" if not any(got) else "mixed"] += 1
    return {k: (v / counted if counted else 0.0) for k, v in kinds.items()}


# ---------------------------------------------------------------- from Asuka's records

def contracts_of(task: Any) -> list[TaskContract]:
    """The contracts a ``asuka.schema.Task`` declares (``core`` per evaluation task,
    ``mandatory`` / ``source_verifiable`` per criterion, ``capability``)."""
    return [TaskContract(
        task_id=et.id, criteria=tuple(c.id for c in et.criteria),
        mandatory=frozenset(c.id for c in et.criteria if c.mandatory),
        source_verifiable=frozenset(c.id for c in et.criteria
                                    if getattr(c, "source_verifiable", False)),
        core=bool(et.core), capability=et.capability) for et in task.eval_tasks] + [
        TaskContract(task_id=p.id, mode="pairwise", capability=p.capability)
        for p in getattr(task, "pairwise", ())]


def outcomes_of(evaluation: Any) -> dict[str, TaskOutcome]:
    """The criteria each evaluation task passed in a ``RoundEvaluation`` (the protocol's own
    results: a task the DAG skipped, or that errored, passed nothing), and the verdict of each
    pairwise presentation task."""
    # a source inspection of an app that did not run credits source-verifiable criteria
    # (``_credited`` keeps only those when B = 0)
    inspected = {c for c, v in (getattr(evaluation, "source", None) or {}).items()
                 if v.status == "pass"}
    # (a task's contract reads only its own criteria, so each outcome may carry them all)
    out = {tid: TaskOutcome(passed=frozenset(v.criterion_id for v in res.verdicts
                                             if v.status == "pass") | inspected)
           for tid, res in evaluation.results.items()}
    for tid, judged in (getattr(evaluation, "pairwise", None) or {}).items():
        out[tid] = TaskOutcome(pairwise=judged.verdict, unjudged=judged.status != "judged")
    return out


def operable(evaluation: Any) -> bool:
    """B: the deploy succeeded and the operability probe, when one ran, did not find the app
    broken (a probe that could not run, ``ok=None``, charges nothing to the app)."""
    op = getattr(evaluation, "operability", None)
    return bool(evaluation.deploy_ok) and (op is None or op.ok is not False)


def score_round(task: Any, evaluation: Any, tau: float = DEFAULT_TAU) -> RunScores:
    """One round's contract scores."""
    return score_run(contracts_of(task), outcomes_of(evaluation), operable(evaluation), tau)
