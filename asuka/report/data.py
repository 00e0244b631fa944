"""A recorded run, loaded for scoring: every cell with its state, rounds and benchmark task.

Reads only. A cell is in one of four states:

- ``finished``: ``<cell>/result.json`` exists; the only state that is scored. A finished cell
  that stopped early (everything passed) keeps its last artifact for the rest of its budget;
- ``failed``: ``<cell>/failed.json`` (a setup or harness failure): listed, never scored;
- ``unfinished``: neither (killed, or still running): listed, never padded, never scored;
- ``no-task``: its task is not in the benchmark (only with ``--allow-changed-tasks``; otherwise
  loading the run is an error): listed, not scored.

Cells form groups that differ only in task and seed (and repeat): ``setting_of`` is the key.
Every aggregate number comes from ``asuka.report.aggregate.aggregate`` over these groups."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from asuka.benchmark.loading import default_bench_dir, load_bench
from asuka.dag import CriterionDag, apply_gating, feedback_view
from asuka.log.cellspec import CellSpec
from asuka.log.provenance import ProvenanceCheck, check_run, enforce
from asuka.log.records import CellResult
from asuka.log.scoring import Estimate, Round, RoundMetrics, Shape, mean_ci, round_metrics
from asuka.log.store import RoundRecord, RunStore
from asuka.schema import BenchTask

CellState = Literal["finished", "failed", "unfinished", "no-task"]

# CellSpec fields a group's cells may differ in; every other field tells groups apart
NOT_GROUPING = frozenset({"task", "seed", "repeat", "concurrency", "label", "agent"})
# agent options that point at a per-task source (the replayed cell), not a setting
PER_CELL_OPTIONS = frozenset({("replay", "cell")})
DISPLAY_NAMES = {"user_options.verbosity": "verbosity", "agent_backend": "backend"}


class RunNotFound(FileNotFoundError):
    pass


def _normalized(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The cell's settings with CellSpec's defaults filled in (old cell.json files lack fields
    added since); unknown keys (label, reeval_of, provenance) left out."""
    known = {k: v for k, v in spec.items() if k in CellSpec.model_fields}
    try:
        return CellSpec.model_validate(known).model_dump(mode="json")
    except ValidationError:
        return known


def setting_of(spec: Mapping[str, Any]) -> dict[str, Any]:
    """What defines a cell's group, flattened (``user_options.verbosity``), in CellSpec order:
    the agent's label and backend, then every CellSpec field except task, seed, repeat and
    concurrency."""
    norm = _normalized(spec)
    label = spec.get("label")
    if not label:
        try:
            label = CellSpec.model_validate(norm).agent_label
        except ValidationError:
            label = str(spec.get("agent"))
    out: dict[str, Any] = {"agent": label, "agent_backend": norm.get("agent")}
    for name, value in norm.items():
        if name in NOT_GROUPING:
            continue
        if isinstance(value, dict):
            for k, v in sorted(value.items()):
                if name != "agent_options" or (norm.get("agent"), k) not in PER_CELL_OPTIONS:
                    out[f"{name}.{k}"] = v
        else:
            out[name] = value
    return out


def display_name(name: str) -> str:
    return DISPLAY_NAMES.get(name, name)


def show(name: str, value: Any) -> str:
    if value is None:
        return "–"
    if name == "threshold":
        return f"T={float(value):g}"
    if name == "rounds":
        return f"{value}R"
    return value if isinstance(value, str) else json.dumps(value)


@dataclass
class CellData:
    cell_id: str
    spec: dict
    bt: BenchTask | None
    records: list[RoundRecord]
    result: CellResult | None
    failure: dict | None = None
    _metrics: dict = field(default_factory=dict, repr=False)
    _regated: dict = field(default_factory=dict, repr=False)

    @property
    def label(self) -> str:
        return str(self.setting["agent"])

    @property
    def task(self) -> str:
        return self.spec["task"]

    @property
    def budget(self) -> int:
        return int(self.spec["rounds"])

    @property
    def state(self) -> CellState:
        if self.bt is None:
            return "no-task"
        if self.result is not None:
            return "finished"
        return "failed" if self.failure is not None else "unfinished"

    @property
    def finished(self) -> bool:
        return self.state == "finished"

    @property
    def scored(self) -> bool:
        return self.finished and bool(self.records)

    @property
    def simulated(self) -> bool:
        return self.spec.get("agent") == "sim"

    @cached_property
    def setting(self) -> dict[str, Any]:
        return setting_of(self.spec)

    @cached_property
    def shape(self) -> Shape:
        return Shape.of(self.bt.task)

    @cached_property
    def dag(self) -> CriterionDag:
        return CriterionDag.of(self.bt.task, self.bt.dag)

    def carried_over(self, k: int) -> bool:
        """Is round k+1 a copy of the last artifact (the cell stopped early)?"""
        return k >= len(self.records)

    def _pad(self, rounds: list[Round]) -> list[Round]:
        if self.finished and rounds:  # never an unfinished or failed cell
            rounds = rounds + [rounds[-1]] * max(0, self.budget - len(rounds))
        return rounds

    @cached_property
    def gated(self) -> list[Round]:
        """The protocol's outcome per round (the gated one under ``full``), padded."""
        return self._pad([feedback_view(r.evaluation) for r in self.records])

    @cached_property
    def ungated(self) -> list[Round]:
        """Every executed verdict per round (under ``full``: everything), padded."""
        return self._pad([dict(r.evaluation.results) for r in self.records])

    def regated(self, threshold: float) -> list[Round]:
        """What the ``dag`` protocol at ``threshold`` yields on this cell's recorded verdicts
        (meaningful for ``full`` cells, where everything was executed)."""
        if threshold not in self._regated:
            self._regated[threshold] = self._pad([
                apply_gating(r.evaluation.results, self.dag, threshold) for r in self.records])
        return self._regated[threshold]

    def metrics(self, view: str = "cumulative") -> list[RoundMetrics]:
        if view not in self._metrics:
            self._metrics[view] = round_metrics(self.shape, self.gated, view)
        return self._metrics[view]

    @property
    def verbosity(self) -> str:
        return str(self.spec.get("user_options", {}).get("verbosity", ""))


@dataclass
class Group:
    """Scored cells that differ only in task and seed."""

    setting: dict[str, Any]
    cells: list[CellData]

    @property
    def tasks(self) -> list[str]:
        return sorted({c.task for c in self.cells})

    @property
    def n_rounds(self) -> int:
        return min((len(c.gated) for c in self.cells), default=0)

    def per_project(self, fn: Callable[[CellData], float | None]) -> list[float]:
        """One value per task: ``fn`` averaged over the task's cells (seeds, repeats); cells
        where ``fn`` is None (e.g. no fix rate: nothing was open) are left out."""
        by_task: dict[str, list[float]] = defaultdict(list)
        for c in self.cells:
            v = fn(c)
            if v is not None:
                by_task[c.task].append(v)
        return [sum(vs) / len(vs) for _, vs in sorted(by_task.items())]

    def estimate(self, fn: Callable[[CellData], float | None], ci: str = "normal") -> Estimate:
        return mean_ci(self.per_project(fn), method=ci)


def _group_order(setting: dict[str, Any]) -> tuple:
    return tuple((k, str(v)) for k, v in setting.items())


@dataclass
class RunData:
    root: Path
    cells: list[CellData]                              # every cell, whatever its state
    meta: dict = field(default_factory=dict)           # run.json (+ reeval.json)
    provenance: ProvenanceCheck = field(default_factory=ProvenanceCheck)
    notices: list[str] = field(default_factory=list)   # provenance warnings, allowances

    @property
    def name(self) -> str:
        return self.root.name

    @property
    def scored(self) -> list[CellData]:
        return [c for c in self.cells if c.scored]

    def in_state(self, state: CellState) -> list[CellData]:
        return [c for c in self.cells if c.state == state]

    @property
    def missing(self) -> list[str]:
        """Cells whose task the benchmark lacks."""
        return [c.cell_id for c in self.in_state("no-task")]

    @property
    def simulated(self) -> bool:
        return any(c.simulated for c in self.cells)

    def groups(self, cells: list[CellData] | None = None) -> list[Group]:
        """Groups of scored cells, in a stable order (by setting)."""
        out: dict[str, Group] = {}
        for c in cells if cells is not None else self.scored:
            if c.scored:
                key = json.dumps(c.setting, sort_keys=True, default=str)
                out.setdefault(key, Group(c.setting, [])).cells.append(c)
        return sorted(out.values(), key=lambda g: _group_order(g.setting))


def bench_of(run_dir: Path, bench: Path | None = None) -> Path:
    if bench is not None:
        return Path(bench)
    if RunStore.is_run_dir(run_dir):
        recorded = RunStore(run_dir).run_config().get("bench")
        if recorded and (Path(recorded) / "tasks").is_dir():
            return Path(recorded)
    return default_bench_dir()


def cell_jsons(store: RunStore) -> dict[str, dict]:
    return {cid: store.cell_spec(cid) or {} for cid in store.cells()}


def run_from_store(store: RunStore, tasks: Mapping[str, BenchTask],
                   specs: Mapping[str, dict] | None = None) -> RunData:
    """Every cell of ``store`` with its state, against ``tasks`` (no provenance check)."""
    specs = cell_jsons(store) if specs is None else specs
    cells = [CellData(cid, spec, tasks.get(spec["task"]), store.load_rounds(cid),
                      store.cell_result(cid), store.cell_failure(cid))
             for cid, spec in specs.items()]
    root = store.root
    meta = store.run_config()
    if (marker := store.reeval_marker()) is not None:
        meta["reeval"] = marker
    return RunData(root, cells, json.loads(json.dumps(meta, default=str)))


def finished_cells(store: RunStore) -> set[str]:
    """The cells that can be scored (result.json written)."""
    return {c for c in store.cells() if store.is_finished(c)}


def tasks_of_run(store: RunStore, specs: Mapping[str, dict], bench_dir: Path
                 ) -> tuple[dict[str, BenchTask], ProvenanceCheck]:
    """The current benchmark's tasks of a run's cells, and how they compare with what each
    cell recorded (changed parts, missing tasks and why, cells without provenance)."""
    tasks, problems = load_bench(bench_dir, sorted({s["task"] for s in specs.values()}))
    by_id = {t.id: t for t in tasks}
    check = check_run(specs, by_id, finished_cells(store))
    for task_id in check.missing:  # a task that exists but no longer loads says why
        why = [p.reason for p in problems if (f"/{task_id}/" in f"/{p.file}"
               or Path(p.file).stem == task_id) and not p.reason.startswith("unknown task id")]
        if why:
            check.why_missing[task_id] = "; ".join(why)
    return by_id, check


def load_run(run_dir: Path | str, bench: Path | None = None,
             allow_changed_tasks: bool = False) -> RunData:
    """Load a run against the benchmark it names (or ``bench``). Raises
    ``asuka.log.provenance.ChangedTasksError`` when a cell's task changed since it was recorded or
    is missing, unless ``allow_changed_tasks``; the run's ``notices`` say what was allowed."""
    root = Path(run_dir)
    if not RunStore.is_run_dir(root):
        raise RunNotFound(f"{root}: not a run directory (no <cell>/cell.json inside)")
    store = RunStore(root)
    specs = cell_jsons(store)
    by_id, check = tasks_of_run(store, specs, bench_of(root, bench))
    notices = enforce(check, allow_changed_tasks)
    run = run_from_store(store, by_id, specs)
    run.provenance, run.notices = check, notices
    return run


def last_task_rate(c: CellData, rounds: list[Any], view: str) -> float:
    """The weighted task pass rate of ``rounds`` (a cell's gated, ungated or regated outcomes)
    at the last of them."""
    return round_metrics(c.shape, rounds, view)[-1].task_pass_rate
