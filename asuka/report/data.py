"""A recorded run, loaded for reporting: cells, their rounds and their benchmark tasks.

Reads only. Rounds are padded like summary.json does: a finished cell that stopped early keeps
its last artifact for the rest of its budget. Every number of the report comes from these rounds
through asuka.scoring (and asuka.dag.apply_gating for re-gating full evaluations)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from asuka.bench import default_bench_dir, load_bench
from asuka.dag import CriterionDag, apply_gating, feedback_view
from asuka.schema import BenchTask
from asuka.scoring import Estimate, Round, RoundMetrics, Shape, mean_ci, round_metrics
from asuka.store import RoundRecord, RunStore, read_json

# what tells groups apart; seeds (and repeats) are averaged per project inside a group
GROUP_FIELDS = ("agent", "start", "protocol", "threshold", "rounds", "verbosity", "user", "ui")


class RunNotFound(FileNotFoundError):
    pass


@dataclass
class CellData:
    cell_id: str
    spec: dict
    bt: BenchTask
    records: list[RoundRecord]
    result: dict | None
    _metrics: dict = field(default_factory=dict, repr=False)
    _regated: dict = field(default_factory=dict, repr=False)

    @property
    def label(self) -> str:
        return self.spec.get("label") or self.spec["agent"]

    @property
    def task(self) -> str:
        return self.spec["task"]

    @property
    def budget(self) -> int:
        return int(self.spec["rounds"])

    @property
    def finished(self) -> bool:
        return self.result is not None

    @cached_property
    def shape(self) -> Shape:
        return Shape.of(self.bt.task)

    @cached_property
    def dag(self) -> CriterionDag:
        return CriterionDag.of(self.bt.task, self.bt.dag)

    def _pad(self, rounds: list[Round]) -> list[Round]:
        if self.finished and rounds:
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

    def group_key(self) -> tuple:
        values = {"agent": self.label, "verbosity": self.verbosity}
        return tuple(values.get(k, self.spec.get(k)) for k in GROUP_FIELDS)


@dataclass
class Group:
    key: tuple
    cells: list[CellData]

    @property
    def fields(self) -> dict:
        return dict(zip(GROUP_FIELDS, self.key))

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
        return [mean_ci(vs).mean for _, vs in sorted(by_task.items())]

    def estimate(self, fn: Callable[[CellData], float | None], ci: str = "normal") -> Estimate:
        return mean_ci(self.per_project(fn), method=ci)


@dataclass
class RunData:
    root: Path
    cells: list[CellData]
    missing: list[str] = field(default_factory=list)   # cells whose task the bench lacks
    meta: dict = field(default_factory=dict)           # run.json (+ reeval.json)

    @property
    def name(self) -> str:
        return self.root.name

    def groups(self, cells: Sequence[CellData] | None = None) -> list[Group]:
        out: dict[tuple, list[CellData]] = {}
        for c in cells if cells is not None else self.cells:
            if c.records:
                out.setdefault(c.group_key(), []).append(c)
        return [Group(k, v) for k, v in out.items()]

    def varying(self) -> list[str]:
        """Group fields (besides the agent) whose value differs between cells."""
        keys = [c.group_key() for c in self.cells]
        return [f for i, f in enumerate(GROUP_FIELDS)
                if f != "agent" and len({k[i] for k in keys}) > 1]


def bench_of(run_dir: Path, bench: Path | None = None) -> Path:
    if bench is not None:
        return Path(bench)
    cfg = run_dir / "run.json"
    if cfg.exists():
        recorded = read_json(cfg).get("bench")
        if recorded and (Path(recorded) / "tasks").is_dir():
            return Path(recorded)
    return default_bench_dir()


def load_run(run_dir: Path | str, bench: Path | None = None) -> RunData:
    root = Path(run_dir)
    if not root.is_dir() or not any(root.glob("*/cell.json")):
        raise RunNotFound(f"{root}: not a run directory (no <cell>/cell.json inside)")
    store = RunStore(root)
    specs = {cid: read_json(store.cell_dir(cid) / "cell.json") for cid in store.cells()}
    wanted = sorted({s["task"] for s in specs.values()})
    tasks, _ = load_bench(bench_of(root, bench), wanted)
    by_id = {t.id: t for t in tasks}
    cells, missing = [], []
    for cid, spec in specs.items():
        bt = by_id.get(spec["task"])
        if bt is None:
            missing.append(cid)
            continue
        cells.append(CellData(cid, spec, bt, store.load_rounds(cid), store.cell_result(cid)))
    meta = read_json(root / "run.json") if (root / "run.json").exists() else {}
    if (root / "reeval.json").exists():
        meta["reeval"] = read_json(root / "reeval.json")
    return RunData(root, cells, missing, json.loads(json.dumps(meta, default=str)))
