"""The benchmark side: what is read from ``tasks/<id>/task.yaml`` and ``dags/<id>.yaml``."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from asuka.schema._dsl import ID_PATTERN, CheckStep, Strict
from asuka.vocabulary import Capability, check_variant

TaskType = Literal["presence", "functionality", "robustness"]
TASK_TYPES: tuple[str, ...] = ("presence", "functionality", "robustness")
Category = Literal[
    "utility", "data-visualization", "management", "e-commerce", "marketing", "social"
]
CATEGORIES: tuple[str, ...] = (
    "utility", "data-visualization", "management", "e-commerce", "marketing", "social"
)


class Criterion(Strict):
    id: str = Field(pattern=ID_PATTERN)
    text: str = Field(min_length=1)
    # acceptance contract (JoyFrontBench): a core task passes only when every mandatory
    # criterion does; a source-verifiable one may keep credit from a source inspection when
    # the app does not run (asuka.log.contracts)
    mandatory: bool = False
    source_verifiable: bool = False
    # for a source-verifiable criterion: regular expressions that must each match the app's
    # source (its files, never the task's data) for a source inspection to credit it when the
    # app does not run (asuka.evaluators.inspect_sources)
    source_check: list[str] | None = None
    check: list[CheckStep] | None = None
    # the title of a test in its evaluation task's Playwright Test ``spec`` (an imported
    # Web-Bench task): that test's outcome is the verdict
    test: str | None = None

    @model_validator(mode="after")
    def _source_check(self) -> Criterion:
        if self.test is not None and self.check is not None:
            raise ValueError("a criterion is decided by its check steps or by a spec test, "
                             "not both")
        if self.source_check is not None:
            if not self.source_verifiable:
                raise ValueError("source_check is for a source_verifiable criterion")
            for pattern in self.source_check:
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise ValueError(f"source_check {pattern!r}: {exc}") from None
        return self


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
    # a Playwright Test spec file (relative to the task's folder) whose tests decide the
    # criteria that name one (``Criterion.test``): imported Web-Bench tasks
    spec: str | None = None

    @model_validator(mode="after")
    def _spec_tests(self) -> EvalTask:
        named = [c.id for c in self.criteria if c.test is not None]
        if named and self.spec is None:
            raise ValueError(f"criteria {', '.join(named)} name a spec test but the "
                             f"evaluation task has no spec")
        return self


# steps a pairwise view's path may take: actions that bring both apps to the same state;
# assertions belong to pointwise criteria
PATH_OPS = frozenset({"goto", "reload", "wait", "eval", "click", "dblclick", "hover", "check",
                      "uncheck", "fill", "select", "press", "upload", "set", "choose",
                      "turn_on", "turn_off", "point_at"})


class PairwiseView(Strict):
    """What the candidate and the reference are both observed under for a pairwise judgement:
    one viewport, one interaction path from a fresh browser context (storage empty), one
    observation time after the path (``observe_ms``) before the screenshot."""

    width: int = Field(default=1280, ge=320, le=3840)
    height: int = Field(default=800, ge=320, le=2160)
    path: list[CheckStep] = Field(default_factory=lambda: [CheckStep(op="goto", arg="/")],
                                  min_length=1)
    observe_ms: int = Field(default=1000, ge=0, le=30_000)
    full_page: bool = False

    @field_validator("path")
    @classmethod
    def _actions_only(cls, steps: list[CheckStep]) -> list[CheckStep]:
        for i, step in enumerate(steps):
            if step.op not in PATH_OPS:
                raise ValueError(f"path step #{i} {step.op!r} is not an action (a view's path "
                                 f"takes {', '.join(sorted(PATH_OPS))})")
        return steps


class PairwiseTask(Strict):
    """A presentation task judged by comparison (JoyFrontBench's pairwise tasks): the candidate
    beside the task's reference app under one ``view``, judged Good / Same / Bad against it on
    its ``aspects``. Scored only in the acceptance-contract metrics (``Z`` = 1 / 0.5 / 0), never
    core, never gated by the DAG, and not a criterion of the paper's metrics."""

    id: str = Field(pattern=ID_PATTERN)
    summary: str = Field(min_length=1)
    capability: Capability = "visual-quality"
    aspects: list[str] = Field(min_length=1)  # what the judge compares, one line each
    view: PairwiseView = Field(default_factory=PairwiseView)


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


class ServeSpec(Strict):
    """How a task's own project serves the app (a Web-Bench project's Playwright ``webServer``,
    with the steps Web-Bench's evaluator runs first): the workspace is put into ``source``
    inside a copy of ``project``, the project's dependencies are installed (once, cached),
    ``init`` and ``build`` run, and ``command`` runs from ``cwd`` until the server answers at
    ``path``. ``{port}`` in ``command`` and ``env`` is the port Asuka chose."""

    project: str                       # the task's folder holding the project's root files
    libraries: str | None = None       # its workspace libraries, ``file:../libraries/<name>``
    source: str = "src"                # where the workspace goes, inside the project
    command: str = Field(min_length=1)
    # run before it, in the project: ``init`` (the app's environment, with the network) and
    # ``build`` (a failed build is the app's failure)
    init: str | None = None
    build: str | None = None
    # a folder of the project put beside the app's files (``<source>/assets``), unless the app
    # has its own
    assets: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str = "."                     # relative to the project
    path: str = "/"                    # the page the server must answer on
    timeout_s: float = Field(60.0, gt=0)


class Task(Strict):
    id: str = Field(pattern=ID_PATTERN)
    title: str
    category: Category
    query: str = Field(min_length=1)
    # the request rewritten for requesters at granularities ("end-user/abstract": its text),
    # start modes of their own (`asuka author rewrite`; also read from tasks/ID/queries.yaml)
    queries: dict[str, str] = Field(default_factory=dict)
    data: list[str] = Field(default_factory=list)
    eval_tasks: list[EvalTask] = Field(min_length=1)
    # presentation tasks judged against the reference app (``PairwiseTask``)
    pairwise: list[PairwiseTask] = Field(default_factory=list)
    # feature marker name in the reference app -> the evaluation tasks that fail without it
    features: dict[str, Feature] = Field(default_factory=dict)
    reference: str | None = "reference"
    # a folder of the task copied into the workspace before round 1 (Web-Bench's src-init)
    initial: str | None = None
    # the project that serves the app, when the task has one (``ServeSpec``); else the
    # workspace is deployed on its own
    serve: ServeSpec | None = None
    # where the task comes from when it was imported (``web-bench:<project>``)
    origin: str | None = None
    notes: str | None = None
    # draft: written but not yet proven by `asuka validate --mutants`; left out of "all tasks"
    # (runs, sweeps, stats) and loaded only when named
    status: Literal["ready", "draft"] = "ready"
    # the default of its evaluation tasks' ``shared_context``: false, each criterion an
    # independent test case (the paper's rule). A task still proven under shared contexts, the
    # behaviour before the field existed, says true until it is migrated and proven again.
    shared_context: bool = False

    @field_validator("queries")
    @classmethod
    def _variants(cls, v: dict[str, str]) -> dict[str, str]:
        for key, text in v.items():
            check_variant(key)
            if not text.strip():
                raise ValueError(f"the query variant {key!r} is empty")
        return v

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
