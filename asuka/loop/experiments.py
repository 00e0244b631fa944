"""Experiment files (experiments/*.yaml) -> a grid of cells (run by asuka/loop/sweep.py).

An experiment is data: which agents, on which tasks, under which settings. Every list-valued
setting spans one axis of the grid; ``blocks`` (optional) are partial overrides, each expanded
as its own grid, for designs that are not a full product (PRD-1R with one round beside
ambiguous starts with three). See experiments/demo.yaml for a commented example.

Errors name the file, the field (and its line) and the reason, all at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from asuka.benchmark.loading import Problem
from asuka.benchmark.loading import (  # the benchmark validator's error locations
    _field as bench_field,
)
from asuka.benchmark.loading import _line_of as _line
from asuka.log.cellspec import CellSpec
from asuka.schema import CATEGORIES, BenchTask, Category
from asuka.vocabulary import Feedback, Mode, Protocol, Routing, Start, Verbosity


def _budget(r: int) -> int:
    if r < 1:
        raise ValueError(f"a round budget must be >= 1, got {r}")
    return r


def _threshold(t: float) -> float:
    if not 0.0 <= t <= 1.0:
        raise ValueError(f"a threshold T must be between 0 and 1, got {t}")
    return t


Budget = Annotated[int, AfterValidator(_budget)]
Threshold = Annotated[float, AfterValidator(_threshold)]
REPEAT_STRIDE = 1000  # repeat k of seed s runs with seed s + 1000*k (a cell is its settings)


class ExperimentError(ValueError):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AgentSpec(Strict):
    """One code agent: ``sim`` needs a profile, ``llm`` a model, ``cli`` a tool (and optionally
    a model). ``options`` go to the backend's factory unchanged."""

    backend: str = "sim"
    profile: str | None = None
    model: str | dict[str, Any] | None = None
    tool: str | None = None
    label: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> AgentSpec:
        from asuka import codeagents

        known = codeagents.registry.names()
        if self.backend not in known:
            raise ValueError(f"unknown agent backend {self.backend!r}; known: {', '.join(known)}")
        if self.backend == "sim":
            from asuka.codeagents.sim import profile_names

            if self.model or self.tool:
                raise ValueError("a sim agent takes a profile, not a model or tool")
            p = self.profile or "medium"
            if not Path(p).suffix and p not in profile_names():
                raise ValueError(f"unknown sim profile {p!r}; bundled: "
                                 f"{', '.join(profile_names())} (or a path to a YAML file)")
        elif self.backend == "llm":
            if not self.model:
                raise ValueError("an llm agent needs a model, e.g. openai:gpt-4o-mini")
            if self.profile or self.tool:
                raise ValueError("an llm agent takes a model, not a profile or tool")
        elif self.backend == "cli":
            from asuka.codeagents.adapters import load_adapters

            tools = sorted(load_adapters())
            if not self.tool or self.tool not in tools:
                raise ValueError(f"a cli agent needs a tool, one of: {', '.join(tools)}")
            if self.profile:
                raise ValueError("a cli agent takes a tool (and a model), not a profile")
        return self

    def agent_options(self) -> dict[str, Any]:
        opts = {k: getattr(self, k) for k in ("profile", "model", "tool")
                if getattr(self, k) is not None}
        if self.backend == "sim":
            opts.setdefault("profile", "medium")
        return {**opts, **self.options}

    def display(self) -> str:
        """The label reports use: ``label``, else derived as CellSpec.agent_label does."""
        if self.label:
            return self.label
        if isinstance(self.model, dict):
            return f"{self.backend}:{self.model.get('provider', '?')}:" \
                   f"{self.model.get('model', '?')}"
        return CellSpec(task="-", agent=self.backend,
                        agent_options=self.agent_options()).agent_label


class RoleSpec(Strict):
    """The UI agent or the user: a backend, an optional model, factory options."""

    backend: str
    model: str | dict[str, Any] | None = None
    options: dict[str, Any] = Field(default_factory=dict)

    def factory_options(self) -> dict[str, Any]:
        return {**({"model": self.model} if self.model is not None else {}), **self.options}


class TaskSelection(Strict):
    ids: list[str] = Field(default_factory=list)
    categories: list[Category] = Field(default_factory=list)


class Grid(Strict):
    """The axes a block may override."""

    agents: list[AgentSpec] | None = None
    tasks: Literal["all"] | list[str] | TaskSelection | None = None
    rounds: list[Budget] | None = None
    thresholds: list[Threshold] | None = None
    protocols: list[Protocol] | None = None
    starts: list[Start] | None = None
    verbosity: list[Verbosity] | None = None
    seeds: list[int] | None = None
    repeats: int | None = Field(default=None, ge=1)
    feedback: list[Feedback] | None = None   # what the agent reads (asuka.probes)
    routing: list[Routing] | None = None     # when the probes run, if the feedback has them

    @field_validator("rounds", "thresholds", "protocols", "starts", "verbosity", "seeds",
                     "feedback", "routing", mode="before")
    @classmethod
    def _scalar(cls, v: Any) -> Any:
        return v if isinstance(v, list) or v is None else [v]

    @field_validator("agents", "rounds", "thresholds", "protocols", "starts", "verbosity",
                     "seeds", "feedback", "routing")
    @classmethod
    def _non_empty(cls, v: list | None) -> list | None:
        if v is not None and not v:
            raise ValueError("must not be empty")
        return v


class Experiment(Grid):
    name: str = Field(min_length=1)
    description: str = ""
    bench: str | None = None                 # relative to the experiment file
    agents: list[AgentSpec] = Field(min_length=1)
    tasks: Literal["all"] | list[str] | TaskSelection = "all"
    rounds: list[Budget] = [3]
    thresholds: list[Threshold] = [0.5]
    protocols: list[Protocol] = ["dag"]
    starts: list[Start] = ["query"]
    verbosity: list[Verbosity] = ["low"]
    seeds: list[int] = [0]
    repeats: int = Field(default=1, ge=1)
    feedback: list[Feedback] = ["failures"]
    routing: list[Routing] = ["always"]
    # rounds: the paper's loop; sequential: Web-Bench's steps, `rounds` attempts each
    mode: Mode = "rounds"
    ui: RoleSpec = RoleSpec(backend="scripted")
    user: RoleSpec = RoleSpec(backend="template")
    # the diagnostic probe backend (scripted, llm) and its options; the stage's own options
    # (top_k, self_fix_threshold, window) go here too
    probes: RoleSpec = RoleSpec(backend="scripted")
    concurrency: int = Field(default=3, ge=1)   # browser contexts per cell
    max_retry: int = Field(default=3, ge=0)
    # cells at once: a number, or auto (sized to the machine); sweep --cells overrides
    cells: Annotated[int, Field(ge=1)] | Literal["auto"] = "auto"
    # the acceptance contracts' completion threshold (JoyFrontBench's tau): scoring only, so
    # not an axis; `asuka report --tau` shows a run at another one
    tau: float = Field(default=0.8, gt=0, le=1)
    blocks: list[Grid] = Field(default_factory=list)
    _source: str = PrivateAttr(default="<experiment>")
    _node: Any = PrivateAttr(default=None)

    @field_validator("ui", "user", "probes", mode="before")
    @classmethod
    def _role(cls, v: Any) -> Any:
        return {"backend": v} if isinstance(v, str) else v

    @field_validator("ui", "user", "probes")
    @classmethod
    def _backend(cls, v: RoleSpec, info: ValidationInfo) -> RoleSpec:
        from asuka import probes, uiagents, users

        reg = {"ui": uiagents.registry, "user": users.registry,
               "probes": probes.registry}[info.field_name]
        if v.backend not in reg.names():
            raise ValueError(f"unknown backend {v.backend!r}; known: {', '.join(reg.names())}")
        return v

    @model_validator(mode="after")
    def _labels(self) -> Experiment:
        for agents in [self.agents] + [b.agents for b in self.blocks if b.agents]:
            labels = [a.display() for a in agents]
            dup = sorted({x for x in labels if labels.count(x) > 1})
            if dup:
                raise ValueError(f"agents: label(s) {dup} name several agents; give each "
                                 "agent a distinct label")
        return self

    @property
    def source(self) -> str:
        return self._source


# ------------------------------------------------------------ loading

def _field(loc: Sequence[Any]) -> str:
    return bench_field(tuple(loc), None)


def _clean_loc(loc: Sequence[Any]) -> tuple[Any, ...]:
    """Drop pydantic's union-branch and validator markers from an error location."""
    skip = ("function", "literal[", "list[", "dict[", "TaskSelection")
    return tuple(x for x in loc if not (isinstance(x, str) and (
        x.startswith(skip) or x in ("str", "int", "float"))))


def parse_experiment(data: Any, source: str = "<experiment>", node: Any = None) -> Experiment:
    if not isinstance(data, dict):
        raise ExperimentError([Problem(source, "", "an experiment is a YAML mapping")])
    try:
        exp = Experiment.model_validate(data)
    except ValidationError as exc:
        problems, seen = [], set()
        for err in exc.errors():
            loc = _clean_loc(err["loc"])
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":
                msg = "unknown field"
            elif err["type"] == "literal_error":
                msg = f"unknown value {err.get('input')!r}: {msg}"
            key = (_field(loc), msg)
            if key not in seen:  # a union reports each branch; keep one line per message
                seen.add(key)
                problems.append(Problem(source, _field(loc), msg, _line(node, loc)))
        raise ExperimentError(problems) from None
    exp._source, exp._node = source, node
    return exp


def load_experiment(path: Path | str) -> Experiment:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ExperimentError([Problem(str(path), "", f"cannot read: {exc}")]) from None
    try:
        data, node = yaml.safe_load(text), yaml.compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise ExperimentError([Problem(str(path), "", f"YAML syntax error: {exc.problem}",
                                       mark.line + 1 if mark else None)]) from None
    return parse_experiment(data, str(path), node)


# ------------------------------------------------------------ expansion

def _select(exp: Experiment, sel: Any, loc: tuple[Any, ...], tasks: Mapping[str, BenchTask]
            ) -> list[str]:
    if sel == "all":
        return list(tasks)
    if isinstance(sel, dict):
        sel = TaskSelection.model_validate(sel)
    ids, cats = (sel, []) if isinstance(sel, list) else (sel.ids, sel.categories)
    where = loc if isinstance(sel, list) else (*loc, "ids")
    problems = [Problem(exp.source, _field((*where, i)),
                        f"unknown task {t!r}; the benchmark has: {', '.join(tasks)}",
                        _line(exp._node, (*where, i)))
                for i, t in enumerate(ids) if t not in tasks]
    if problems:
        raise ExperimentError(problems)
    wanted = set(ids) | {t for t, bt in tasks.items() if bt.task.category in cats}
    chosen = [t for t in tasks if t in wanted]
    if not chosen:
        raise ExperimentError([Problem(exp.source, _field(loc),
                                       f"selects no task (categories: {', '.join(CATEGORIES)})")])
    return chosen


def expand(exp: Experiment, bench_tasks: Sequence[BenchTask] | Mapping[str, BenchTask], *,
           task_ids: list[str] | None = None, agent_labels: list[str] | None = None,
           max_rounds: int | None = None, concurrency: int | None = None) -> list[CellSpec]:
    """Every cell of the experiment, in a stable order, without duplicates.

    Overrides (for quick checks): ``task_ids`` replaces the task selection, ``agent_labels``
    keeps only those agents, ``max_rounds`` caps every round budget, ``concurrency`` sets the
    browser contexts per cell. ``flat`` runs everything regardless of T, so its cells are
    expanded with the first threshold only."""
    tasks = dict(bench_tasks) if isinstance(bench_tasks, Mapping) \
        else {bt.id: bt for bt in bench_tasks}
    unknown_ids = [t for t in task_ids or [] if t not in tasks]
    if unknown_ids:
        raise ExperimentError([Problem("<arguments>", "--task", f"unknown task {t!r}; the "
                                       f"benchmark has: {', '.join(tasks)}") for t in unknown_ids])
    if agent_labels:
        known = agent_labels_of(exp)
        unknown = [a for a in agent_labels if a not in known]
        if unknown:
            raise ExperimentError([Problem(exp.source, "agents", f"no agent labelled "
                                           f"{', '.join(unknown)}; labels: {', '.join(known)}")])
    base = exp.model_dump(include=set(Grid.model_fields))
    specs: dict[str, CellSpec] = {}
    for bi, block in enumerate(exp.blocks or [None]):
        g = dict(base)
        if block is not None:
            g.update(block.model_dump(exclude_none=True))
        in_block = block is not None and block.tasks is not None
        loc: tuple[Any, ...] = ("blocks", bi, "tasks") if in_block else ("tasks",)
        sel = task_ids if task_ids else (block.tasks if in_block else exp.tasks)
        ids = _select(exp, sel, loc, tasks)
        agents = [AgentSpec.model_validate(a) for a in g["agents"]]
        if agent_labels:
            agents = [a for a in agents if a.display() in agent_labels]
        seeds = [s + REPEAT_STRIDE * k for s in g["seeds"] for k in range(g["repeats"])]
        for start in g["starts"]:  # a requester's variant must exist for every task
            missing = [t for t in ids if "/" in start and start not in tasks[t].task.queries]
            if missing:
                raise ExperimentError([Problem(exp.source, "starts", f"task(s) "
                                       f"{', '.join(missing)} have no query variant {start!r} "
                                       f"(asuka author rewrite ID --variant {start})")])
        for a, t, start, rounds, protocol, th, verb, seed, fb, routing in itertools.product(
                agents, ids, g["starts"], g["rounds"], g["protocols"], g["thresholds"],
                g["verbosity"], seeds, g["feedback"], g["routing"]):
            if protocol == "flat" and th != g["thresholds"][0]:
                continue  # flat gates nothing: T would only duplicate cells
            if "probes" not in fb and routing != g["routing"][0]:
                continue  # without probes the routing decides nothing
            s = _cell(exp, a, t, start, rounds, protocol, th, verb, seed, max_rounds,
                      concurrency)
            if "probes" in fb:  # else the probe settings stay at their defaults
                s = s.model_copy(update={"routing": routing, "probes": exp.probes.backend,
                                         "probe_options": exp.probes.factory_options()})
            s = s.model_copy(update={"feedback": fb, "mode": exp.mode})
            specs.setdefault(s.cell_id, s)
    return list(specs.values())


def agent_labels_of(exp: Experiment) -> list[str]:
    agents = list(exp.agents) + [a for b in exp.blocks for a in (b.agents or [])]
    return list(dict.fromkeys(a.display() for a in agents))


def _cell(exp: Experiment, a: AgentSpec, task: str, start: str, rounds: int, protocol: str,
          threshold: float, verbosity: str, seed: int, max_rounds: int | None,
          concurrency: int | None) -> CellSpec:
    user_opts = exp.user.factory_options()
    user_opts.setdefault("verbosity", verbosity)
    return CellSpec(task=task, agent=a.backend, agent_options=a.agent_options(),
                    label=a.label or (a.display() if isinstance(a.model, dict) else None),
                    ui=exp.ui.backend, ui_options=exp.ui.factory_options(),
                    user=exp.user.backend, user_options=user_opts,
                    rounds=min(rounds, max_rounds) if max_rounds else rounds,
                    threshold=threshold, protocol=protocol, start=start, seed=seed,
                    concurrency=concurrency or exp.concurrency, max_retry=exp.max_retry)
