"""The run side: what the loop writes for every round (verdicts, evidence, audits, results)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from asuka.usage import Usage
from asuka.vocabulary import CriterionStatus, DecidedBy, Protocol, TaskStatus


class Verdict(BaseModel):
    criterion_id: str
    status: CriterionStatus
    reason: str = ""
    duration_s: float = 0.0
    backend: str = ""
    step: int | None = None  # index of the failing step, when a scripted check failed
    # not_found: the locator that matched nothing, and the file (relative to the evidence dir)
    # holding the page's accessibility snapshot at that moment
    locator: str | None = None
    snapshot: str | None = None
    # every grounding of a locator miss (asuka.uiagents.grounding), in order: {step, original,
    # grounded (a locator, "absent", or None when the reply was unusable), reason, model,
    # tokens, cached, outcome}; and the wording judgements ({step, kind: "wording", ...})
    groundings: list[dict[str, Any]] = Field(default_factory=list)
    # an LLM judge's execution trace: the browser actions it took (and where), its evidence
    # for the record auditor (asuka.protocol.audit)
    trace: list[str] = Field(default_factory=list)
    # which stage decided: the scripted check as written, the check re-run on grounded
    # locators, or an LLM (the wording judge, browser-use). Default: "llm" for browser-use
    # verdicts, else "scripted".
    decided_by: DecidedBy | None = None
    # what a user would have seen, in plain words (asuka.uiagents.scripted.seen): what feedback may
    # repeat; the reason above stays technical (evidence and viewer only)
    seen: str = ""

    @model_validator(mode="after")
    def _default_decided_by(self) -> Verdict:
        if self.decided_by is None:
            self.decided_by = "llm" if self.backend == "browser-use" else "scripted"
        return self


class Evidence(BaseModel):
    screenshot: str | None = None  # path relative to the round directory
    console_errors: list[str] = Field(default_factory=list)
    failed_requests: list[str] = Field(default_factory=list)


class Operability(BaseModel):
    """Whether the deployed app runs at all (``asuka.uiagents.browsing.operability``): its root loads
    without an error status or an uncaught error and renders something. ``ok=None``: the probe
    itself failed (unknown, not the app's failure)."""

    ok: bool | None
    reason: str = ""
    status: int | None = None
    errors: list[str] = Field(default_factory=list)
    text_chars: int = 0
    visible_elements: int = 0
    duration_s: float = 0.0


class AuditFinding(BaseModel):
    """A defect the record auditor found (``asuka.protocol.audit``): missing, unknown,
    duplicate, or evidence (a claim without admissible evidence)."""

    criterion_id: str
    defect: Literal["missing", "unknown", "duplicate", "evidence"]
    detail: str = ""


class Remediation(BaseModel):
    attempt: int
    criteria: list[str]                       # re-run on the same deployment
    verdicts: list[Verdict] = Field(default_factory=list)
    findings: list[AuditFinding] = Field(default_factory=list)


class TaskAudit(BaseModel):
    """The audit of one evaluation task's verdicts, kept only when it found something: the
    verdicts as first returned, the findings, each remediation round, and what stayed
    unresolved (now ``error`` verdicts)."""

    findings: list[AuditFinding]
    original: list[Verdict] = Field(default_factory=list)
    remediations: list[Remediation] = Field(default_factory=list)
    unresolved: list[str] = Field(default_factory=list)


class EvalTaskResult(BaseModel):
    eval_task_id: str
    status: TaskStatus
    verdicts: list[Verdict] = Field(default_factory=list)
    attempts: int = 0
    duration_s: float = 0.0
    evidence: Evidence | None = None
    skipped_because: list[str] = Field(default_factory=list)
    error: str | None = None
    audit: TaskAudit | None = None
    # repeated passes (asuka.protocol.passes): each pass's status per criterion; the verdicts
    # above are the majority
    passes: list[dict[str, str]] = Field(default_factory=list)

    @property
    def n_pass(self) -> int:
        return sum(v.status == "pass" for v in self.verdicts)

    @property
    def pass_ratio(self) -> float:
        return self.n_pass / len(self.verdicts) if self.verdicts else 0.0


class PairwiseShot(BaseModel):
    """One side of a pairwise comparison: its screenshot (relative to the evidence dir) and
    what went wrong bringing it to the view, if anything (a path step that did not hold)."""

    screenshot: str | None = None
    path_error: str | None = None


class PairwiseResult(BaseModel):
    """A pairwise presentation task's judgement (``asuka.pairwise``): ``good`` (the candidate
    is better than the reference), ``same`` or ``bad``; ``error`` when no judgement could be
    made (no judge configured, the judge failed, the reference could not be shown): the
    harness's failure, left out of the scores and counted."""

    task_id: str
    status: Literal["judged", "error"]
    verdict: Literal["good", "same", "bad"] | None = None
    reason: str = ""
    error: str | None = None
    judge: str = ""                      # the backend and model that judged
    candidate: PairwiseShot | None = None
    reference: PairwiseShot | None = None
    # each call to the judge: {order: "candidate-first" | "reference-first", answer, reason}
    calls: list[dict[str, Any]] = Field(default_factory=list)
    duration_s: float = 0.0


class JudgedCriterion(BaseModel):
    """One criterion of an evaluator (``asuka.evaluators``): pass / fail / not-applicable, the
    points it carries, why, and the evidence cited (``file:line: ...``, log lines)."""

    id: str
    verdict: Literal["pass", "fail", "na"]
    points: float = 1.0
    reason: str = ""
    evidence: list[str] = Field(default_factory=list)
    # each pass's verdict when a model-based evaluator judged it more than once (the verdict
    # above is their majority)
    passes: list[Literal["pass", "fail", "na"]] = Field(default_factory=list)


class EvaluatorResult(BaseModel):
    """What one evaluator of the jury found on one round's artifact. ``skipped``: an upstream
    evaluator it depends on did not pass (the build gate); ``error``: it could not run (the
    harness's failure: never scored). ``score`` of ``max_points`` (None unless judged)."""

    evaluator: str
    stage: Literal["build", "evaluate"]
    status: Literal["judged", "skipped", "error"]
    score: float | None = None
    max_points: float = 0.0
    criteria: list[JudgedCriterion] = Field(default_factory=list)
    reason: str = ""
    denials: list[str] = Field(default_factory=list)  # tool calls outside allowed_tools
    tools: list[str] = Field(default_factory=list)     # the tools it used
    usage: list[Usage] = Field(default_factory=list)   # its model calls, when it made any
    duration_s: float = 0.0


class ProbeObservation(BaseModel):
    """One fact a diagnostic probe measured on the live app or the workspace (WatchPoint's
    ``{"n": ..., "v": ...}`` line): never an interpretation."""

    criterion_id: str | None = None  # the failure it was measured for (None: the whole app)
    source: Literal["browser", "terminal"] = "browser"
    name: str
    value: str


class ProbeReport(BaseModel):
    """The diagnostic probe stage of one round (``asuka.probes``): whether its routing policy
    let it run and why, and what it observed."""

    policy: str
    fired: bool
    reason: str
    backend: str | None = None
    probed: list[str] = Field(default_factory=list)  # criterion ids, in probe order
    observations: list[ProbeObservation] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)   # the probes' own failures (harness's)
    scripts: dict[str, str] = Field(default_factory=dict)  # an LLM probe's scripts, by name
    usage: list[Usage] = Field(default_factory=list)
    duration_s: float = 0.0


class RoundEvaluation(BaseModel):
    """What the UI agent found on one round's artifact.

    ``results`` holds the protocol's own outcome. Under ``full`` every task is executed and
    ``gated`` additionally holds the outcome the ``dag`` protocol would have produced on the same
    verdicts (for the DAG gap)."""

    protocol: Protocol
    threshold: float
    results: dict[str, EvalTaskResult]
    gated: dict[str, EvalTaskResult] | None = None
    deploy_ok: bool = True
    deploy_error: str | None = None
    # the artifact x task x evaluator settings this evaluation answers for, and, when its
    # verdicts were taken from an earlier identical evaluation of the run, which one
    key: str | None = None
    reused_from: str | None = None
    # the app's root probed once before the evaluation tasks (UI agents that can)
    operability: Operability | None = None
    # the pairwise presentation tasks' judgements (the task's ``pairwise`` list)
    pairwise: dict[str, PairwiseResult] = Field(default_factory=dict)
    # when the app did not run: the source inspection of the source-verifiable criteria
    # (criterion id -> a verdict of backend "source"); credited only by the contract metrics
    source: dict[str, Verdict] = Field(default_factory=dict)
    # the jury of evaluators (asuka.evaluators): build engineer, code engineer, UI tester
    jury: dict[str, EvaluatorResult] = Field(default_factory=dict)
    # the diagnostic probes, when the cell's feedback has them (asuka.probes)
    probes: ProbeReport | None = None
