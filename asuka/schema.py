"""Value objects of the benchmark and of a run.

Benchmark side (read from files): Task, EvalTask, Criterion, CheckStep, Locator, Dag.
Run side (written by the loop): Verdict, Evidence, EvalTaskResult, RoundEvaluation.
Everything here is plain data: no I/O, no browser.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from asuka.vocabulary import Capability, CriterionStatus, DecidedBy, Protocol, TaskStatus

TaskType = Literal["presence", "functionality", "robustness"]
TASK_TYPES: tuple[str, ...] = ("presence", "functionality", "robustness")
Category = Literal[
    "utility", "data-visualization", "management", "e-commerce", "marketing", "social"
]
CATEGORIES: tuple[str, ...] = (
    "utility", "data-visualization", "management", "e-commerce", "marketing", "social"
)
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- check DSL

LOCATOR_KEYS = ("role", "name", "label", "placeholder", "text", "css", "testid", "alt", "title")


class Locator(Strict):
    """How a check finds an element, preferring what a user sees.

    String values of the form ``/pattern/flags`` are regular expressions.
    Exactly one of role, label, placeholder, text, css, testid, alt, title is required; ``name``
    qualifies ``role``. ``within`` scopes the search inside another locator; ``nth`` picks one match.
    """

    role: str | None = None
    name: str | None = None
    label: str | None = None
    placeholder: str | None = None
    text: str | None = None
    css: str | None = None
    testid: str | None = None
    alt: str | None = None
    title: str | None = None
    exact: bool = False
    nth: int | None = None
    within: Locator | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Locator:
        kinds = [k for k in LOCATOR_KEYS if k != "name" and getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(
                "a locator needs exactly one of role/label/placeholder/text/css/testid/alt/title"
                f" (got {kinds or 'none'})"
            )
        if self.name is not None and self.role is None:
            raise ValueError("'name' is only allowed together with 'role'")
        return self

    def describe(self) -> str:
        parts = [f"{k}={getattr(self, k)!r}" for k in LOCATOR_KEYS if getattr(self, k) is not None]
        if self.nth is not None:
            parts.append(f"nth={self.nth}")
        desc = " ".join(parts)
        return f"{self.within.describe()} >> {desc}" if self.within else desc


# Step name -> argument keys besides the locator keys (None: the argument is a scalar).
STEP_ARGS: dict[str, tuple[str, ...] | None] = {
    "goto": None,            # path or URL
    "reload": None,          # any value (ignored)
    "wait": None,            # milliseconds
    "eval": None,            # JS expression or function body; must be truthy
    "click": (),
    "dblclick": (),
    "hover": (),
    "check": (),
    "uncheck": (),
    "fill": ("value",),
    "select": ("option",),
    "press": ("key",),       # locator optional: without one the key goes to the page
    "upload": ("files",),    # paths relative to the task's data dir
    "expect_visible": (),
    "expect_hidden": (),
    "expect_text": ("value", "contains"),
    "expect_value": ("value",),
    "expect_count": ("count", "min", "max"),
    "expect_attr": ("attr", "value"),
}
LOCATOR_OPTIONAL = {"press"}


class CheckStep(Strict):
    """One step of a scripted check, written in YAML as a one-key mapping, e.g.
    ``- click: {role: button, name: Save}`` or ``- goto: /``."""

    op: str
    arg: Any = None
    locator: Locator | None = None
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_yaml(cls, data: Any) -> Any:
        if isinstance(data, dict) and "op" in data:
            return data
        if not isinstance(data, dict) or len(data) != 1:
            raise ValueError(f"a check step is a mapping with exactly one step name, got {data!r}")
        (op, arg), = data.items()
        if op not in STEP_ARGS:
            raise ValueError(f"unknown check step {op!r}; known: {', '.join(STEP_ARGS)}")
        extra = STEP_ARGS[op]
        if extra is None:
            return {"op": op, "arg": arg}
        if not isinstance(arg, dict):
            raise ValueError(f"step {op!r} takes a mapping with a locator, got {arg!r}")
        unknown = set(arg) - set(LOCATOR_KEYS) - {"exact", "nth", "within"} - set(extra)
        if unknown:
            raise ValueError(f"step {op!r} does not take {sorted(unknown)}")
        loc = {k: v for k, v in arg.items() if k not in extra}
        params = {k: v for k, v in arg.items() if k in extra}
        if op == "expect_text" and "value" not in params:
            raise ValueError("expect_text needs 'value'")
        if op in ("fill", "expect_value") and "value" not in params:
            raise ValueError(f"{op} needs 'value'")
        if op == "select" and "option" not in params:
            raise ValueError("select needs 'option'")
        if op == "press" and "key" not in params:
            raise ValueError("press needs 'key'")
        if op == "expect_attr" and "attr" not in params:
            raise ValueError("expect_attr needs 'attr'")
        if op == "expect_count" and not ({"count", "min", "max"} & set(params)):
            raise ValueError("expect_count needs 'count', 'min' or 'max'")
        if op == "upload" and "files" not in params:
            raise ValueError("upload needs 'files'")
        if not loc and op not in LOCATOR_OPTIONAL:
            raise ValueError(f"step {op!r} needs a locator (role/label/placeholder/text/css/...)")
        return {"op": op, "locator": loc or None, "params": params}

    def describe(self) -> str:
        if self.locator is None:
            return f"{self.op} {self.arg!r}" if self.arg is not None else self.op
        extra = " ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.op} [{self.locator.describe()}]" + (f" {extra}" if extra else "")


def is_regex(value: str) -> bool:
    return isinstance(value, str) and len(value) >= 2 and value.startswith("/") and bool(
        re.fullmatch(r"/.*/[imsx]*", value, flags=re.S)
    )


def to_pattern(value: str) -> re.Pattern[str] | str:
    """'/abc/i' -> compiled regex; anything else is returned unchanged."""
    if not is_regex(value):
        return value
    body, _, flags = value[1:].rpartition("/")
    f = 0
    for ch in flags:
        f |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X}[ch]
    return re.compile(body, f)


# ---------------------------------------------------------------- benchmark


class Criterion(Strict):
    id: str = Field(pattern=ID_PATTERN)
    text: str = Field(min_length=1)
    # acceptance contract (JoyFrontBench): a core task passes only when every mandatory
    # criterion does; a source-verifiable one may keep credit from a source inspection when
    # the app does not run (asuka.results.contracts)
    mandatory: bool = False
    source_verifiable: bool = False
    check: list[CheckStep] | None = None


class EvalTask(Strict):
    id: str = Field(pattern=ID_PATTERN)
    summary: str = Field(min_length=1)
    type: TaskType
    weight: int = Field(ge=1, le=5)
    capability: Capability | None = None
    core: bool = False  # the primary user workflow: what application success requires
    # true: the criteria run one after another in one browser context (storage carries over: a
    # deliberate flow); false: each criterion is an independent test case in a fresh context
    # (storage empty). None: the task's ``shared_context``.
    shared_context: bool | None = None
    criteria: list[Criterion] = Field(min_length=1)


class Feature(Strict):
    """A marked feature of the reference app and the evaluation tasks that depend on it.

    ``tasks``: the evaluation tasks that fail when the feature is missing (exactly those:
    ``asuka validate --mutants`` checks it). ``broken``: the ones that fail when its broken variant
    is live (default: the same). ``type`` picks the simulator's probabilities (default: the type of
    the heaviest task in ``tasks``)."""

    tasks: list[str] = Field(min_length=1)
    broken: list[str] | None = None
    type: TaskType | None = None

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, data: Any) -> Any:
        return {"tasks": data} if isinstance(data, list) else data


class Task(Strict):
    id: str = Field(pattern=ID_PATTERN)
    title: str
    category: Category
    query: str = Field(min_length=1)
    data: list[str] = Field(default_factory=list)
    eval_tasks: list[EvalTask] = Field(min_length=1)
    # feature marker name in the reference app -> the evaluation tasks that fail without it
    features: dict[str, Feature] = Field(default_factory=dict)
    reference: str | None = "reference"
    notes: str | None = None
    # draft: written but not yet proven by `asuka validate --mutants`; left out of "all tasks"
    # (runs, sweeps, stats) and loaded only when named
    status: Literal["ready", "draft"] = "ready"
    # the default of its evaluation tasks' ``shared_context``: false, each criterion an
    # independent test case (the paper's rule). A task still proven under shared contexts, the
    # behaviour before the field existed, says true until it is migrated and proven again.
    shared_context: bool = False

    @model_validator(mode="after")
    def _resolve_shared_context(self) -> Task:
        for et in self.eval_tasks:
            if et.shared_context is None:
                et.shared_context = self.shared_context
        return self

    def eval_task(self, eval_task_id: str) -> EvalTask:
        for et in self.eval_tasks:
            if et.id == eval_task_id:
                return et
        raise KeyError(eval_task_id)

    def feature_type(self, name: str) -> str:
        f = self.features[name]
        if f.type:
            return f.type
        tasks = [self.eval_task(t) for t in f.tasks if any(e.id == t for e in self.eval_tasks)]
        return max(tasks, key=lambda e: e.weight).type if tasks else "functionality"

    @property
    def weights(self) -> dict[str, int]:
        return {et.id: et.weight for et in self.eval_tasks}


class DagSpec(Strict):
    """dags/<id>.yaml: gating edges (parent before child) and, for documentation only,
    the hidden semantic edges a correct implementation must honour (paper H.4)."""

    edges: list[tuple[str, str]] = Field(default_factory=list)
    semantic_edges: list[tuple[str, str]] = Field(default_factory=list)
    notes: str | None = None

    @field_validator("edges", "semantic_edges", mode="before")
    @classmethod
    def _pairs(cls, v: Any) -> Any:
        if v is None:
            return []
        for i, e in enumerate(v):
            if not isinstance(e, (list, tuple)) or len(e) != 2:
                raise ValueError(f"edge #{i} must be a [parent, child] pair, got {e!r}")
        return v


class BenchTask(BaseModel):
    """A task with its PRD and DAG, as loaded from a benchmark directory."""

    task: Task
    prd: str
    dag: DagSpec
    root: str  # the task's folder (tasks/<id>), as a string for easy serialisation

    @property
    def id(self) -> str:
        return self.task.id


# ---------------------------------------------------------------- run records

# not_found: the check's locator found nothing (a naming miss, or the feature is absent; told
# apart from a fail, where the element was found and showed the wrong thing)


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
    """Whether the deployed app runs at all (``asuka.uiagents.operability``): its root loads
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

    @property
    def n_pass(self) -> int:
        return sum(v.status == "pass" for v in self.verdicts)

    @property
    def pass_ratio(self) -> float:
        return self.n_pass / len(self.verdicts) if self.verdicts else 0.0


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
