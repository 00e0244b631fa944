"""An evaluator is a YAML file (``evaluators/<id>.yaml`` beside ``tasks/``): who judges
(persona), what (criteria, each with a check of its kind and its points), with what (allowed
tools), in which stage and after whom (``depends_on``: the build gate), within which budget.
``load_evaluators`` validates every file with file:line errors, as ``asuka validate`` shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import networkx as nx
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from asuka.benchmark.loading import Problem, _line_of, _pydantic_problems, _read_yaml

EVALUATORS_DIR = "evaluators"
Kind = Literal["build", "code", "ui"]
# what each kind of evaluator may be allowed to use
TOOLS: dict[str, frozenset[str]] = {
    "build": frozenset({"deploy-log", "shell"}),
    "code": frozenset({"read", "grep"}),
    "ui": frozenset({"navigate", "click", "tap", "hover", "type", "keyboard", "select",
                     "upload", "screenshot", "read-page"}),
}


class Budget(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # 0: the backend's own bound; else a model-driven persona's steps per criterion
    steps: int = Field(default=0, ge=0)
    seconds: float = Field(default=600.0, gt=0)   # the evaluator's wall clock per artifact
    # 0: unbounded; else no model call starts once the evaluator's calls used this many tokens
    tokens: int = Field(default=0, ge=0)


class EvaluatorCriterion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    text: str = Field(min_length=1)
    check: str = Field(min_length=1)          # a check of the evaluator's kind (its registry)
    points: float = Field(default=1.0, gt=0)
    # a regular expression over the task's query: when it does not match, the criterion is
    # not applicable (a constraint the query does not state is not checked)
    applies_when: str | None = None
    # its failure stops the evaluators that depend on this one (the build gate)
    gate: bool = False


class EvaluatorSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9\-]*$")
    name: str
    kind: Kind
    stage: Literal["build", "evaluate"]
    persona: str = Field(min_length=1)
    depends_on: list[str] = Field(default_factory=list)
    allowed_tools: list[str] = Field(min_length=1)
    budget: Budget = Field(default_factory=Budget)
    points: float = Field(gt=0)               # the evaluator's cap in the jury score
    # the model of checks that need one (llm-review); absent: the run's UI model
    model: str | dict[str, Any] | None = None
    default: bool = False                     # part of every evaluation's jury
    criteria: list[EvaluatorCriterion] = Field(default_factory=list)
    # ui: the UI agent judging as this evaluator ("run": the run's own, its verdicts on the
    # task's criteria; else a session of its own on the served app, with ``options``: the
    # scripted checks, or a model playing the persona: browser-use, or hybrid)
    backend: Literal["run", "scripted", "browser-use", "hybrid"] = "run"
    # the backend's options: a persona's viewport and input devices (``input: touch`` taps and
    # never hovers or types keys; ``input: keyboard`` has no pointer), as in ScriptedUIAgent
    options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("allowed_tools")
    @classmethod
    def _known_tools(cls, tools: list[str], info: ValidationInfo) -> list[str]:
        kind = info.data.get("kind")
        unknown = sorted(set(tools) - TOOLS[kind]) if kind in TOOLS else []
        if unknown:
            raise ValueError(f"{', '.join(unknown)} not tools of a {kind} evaluator "
                             f"(known: {', '.join(sorted(TOOLS[kind]))})")
        return tools

    @model_validator(mode="after")
    def _consistent(self) -> EvaluatorSpec:
        if self.kind == "build" and self.stage != "build":
            raise ValueError("a build evaluator runs in the build stage")
        if self.kind != "ui" and (self.backend != "run" or self.options):
            raise ValueError(f"backend and options are for ui evaluators, not {self.kind}")
        if self.kind != "ui" and not self.criteria:
            raise ValueError(f"a {self.kind} evaluator needs criteria")
        ids = [c.id for c in self.criteria]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"duplicate criterion id(s): {', '.join(dup)}")
        return self


def load_evaluators(bench: Path) -> tuple[dict[str, EvaluatorSpec], list[Problem]]:
    """Every ``evaluators/*.yaml`` of ``bench`` ({} without the folder), checked: valid files,
    ids that match their file names, known checks, ``depends_on`` naming evaluators that exist
    and run no later, no cycles."""
    from asuka.evaluators._checks import CHECKS

    folder = Path(bench) / EVALUATORS_DIR
    specs: dict[str, EvaluatorSpec] = {}
    problems: list[Problem] = []
    if not folder.is_dir():
        return specs, problems
    for path in sorted(folder.glob("*.yaml")):
        rel = f"{EVALUATORS_DIR}/{path.name}"
        data, node = _read_yaml(path, rel, problems)
        if data is None:
            continue
        try:
            spec = EvaluatorSpec.model_validate(data)
        except ValidationError as exc:
            problems += _pydantic_problems(exc, rel, data, node)
            continue
        if spec.id != path.stem:
            problems.append(Problem(rel, "id", f"id {spec.id!r} differs from the file name"))
        for i, c in enumerate(spec.criteria):
            if c.check not in CHECKS[spec.kind]:
                problems.append(Problem(rel, f"criteria[{i}].check",
                                        f"unknown {spec.kind} check {c.check!r}; known: "
                                        f"{', '.join(sorted(CHECKS[spec.kind]))}",
                                        _line_of(node, ("criteria", i, "check"))))
        if spec.backend != "run":
            from asuka import uiagents

            try:  # the model is the run's when the file names none: any stands in for it
                uiagents.get(spec.backend, **agent_options(spec, STAND_IN_MODEL))
            except (TypeError, ValueError) as exc:
                problems.append(Problem(rel, "options", str(exc), _line_of(node, ("options",))))
        specs[spec.id] = spec
    order = {"build": 0, "evaluate": 1}
    for spec in specs.values():
        rel = f"{EVALUATORS_DIR}/{spec.id}.yaml"
        for dep in spec.depends_on:
            if dep not in specs:
                problems.append(Problem(rel, "depends_on", f"unknown evaluator {dep!r}"))
            elif order[specs[dep].stage] > order[spec.stage] or dep == spec.id:
                problems.append(Problem(rel, "depends_on",
                                        f"{dep!r} does not run before {spec.id!r}"))
    graph = nx.DiGraph([(d, s.id) for s in specs.values() for d in s.depends_on if d in specs])
    for cycle in nx.simple_cycles(graph):
        problems.append(Problem(f"{EVALUATORS_DIR}/{cycle[0]}.yaml", "depends_on",
                                f"a cycle: {' -> '.join([*cycle, cycle[0]])}"))
    return specs, problems


STAND_IN_MODEL = "openai:any@http://127.0.0.1:9/v1"  # never called: options are only built
# UI backends a model drives (their verdicts can differ between passes); the others are
# deterministic scripted checks
SCRIPTED_BACKENDS = ("run", "scripted")


def agent_options(spec: EvaluatorSpec, model: Any = None) -> dict[str, Any]:
    """The options a persona UI evaluator's backend is built with: the file's ``options``, its
    ``allowed_tools`` (enforced: a step or action outside them is denied and recorded) and, for
    a model-driven backend, who the user is and which model plays it (the file's, else
    ``model``)."""
    options: dict[str, Any] = {**spec.options, "allowed_tools": spec.allowed_tools}
    if spec.backend not in SCRIPTED_BACKENDS:
        options["persona"] = spec.persona
        if spec.budget.steps:
            options.setdefault("max_steps", spec.budget.steps)
        options.setdefault("model", spec.model or model)
        if not options["model"]:
            raise ValueError(f"{spec.id} needs a model (model: in its file, the run's UI "
                             f"model, or --ui-opt jury_model=...)")
    return options


OPTION = "evaluators"  # the UI-agent option naming evaluators beyond the default jury


def default_jury(bench_task_root: str | Path, extra: Any = None) -> dict[str, EvaluatorSpec]:
    """The evaluators marked ``default`` of the benchmark a task belongs to (its
    ``tasks/<id>`` folder's benchmark), plus those ``extra`` names (an id or a list: the
    ``evaluators`` UI-agent option, e.g. ``--ui-opt evaluators=[mobile-touch]``) and what they
    depend on. Evaluator files that do not validate, or an unknown name, are a setup error."""
    from asuka.errors import SetupError

    bench = Path(bench_task_root).resolve().parents[1]
    specs, problems = load_evaluators(bench)
    if problems:
        raise SetupError("evaluator files do not validate: " + "; ".join(map(str, problems)))
    wanted = [i for i, s in specs.items() if s.default]
    names = [extra] if isinstance(extra, str) else list(extra or [])
    unknown = [n for n in names if n not in specs]
    if unknown:
        raise SetupError(f"unknown evaluator(s) {', '.join(map(str, unknown))}; known: "
                         f"{', '.join(sorted(specs))}")
    while names:
        name = names.pop()
        if name not in wanted:
            wanted.append(name)
            names += specs[name].depends_on
    return {i: specs[i] for i in sorted(wanted)}
