"""The run store: a deterministic directory tree plus an SQLite index (DESIGN.md §6).

    runs/<run_id>/run.json                 the run's settings
    runs/<run_id>/index.sqlite             cells and rounds, for listing and resume
    runs/<run_id>/summary.json             metrics (written by the runner)
    runs/<run_id>/<cell_id>/cell.json      the cell's settings
    runs/<run_id>/<cell_id>/round-<r>/     workspace/ agent.json deploy.log verdicts.json
                                           feedback.md user.json evidence/ usage.json
                                           timings.json step.json (sequential) DONE
    runs/<run_id>/<cell_id>/result.json    written last: the cell is finished
    runs/<run_id>/<cell_id>/failed.json    the cell could not be run (setup or harness error):
                                           never scored, redone on resume

A round counts only once its DONE marker exists; a round directory without one is from a crash
and is moved aside (never deleted, never overwritten) before the round is redone.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from asuka.dag import feedback_view
from asuka.log.records import AgentRoundResult, CellResult, DeployResult, RoundRecord
from asuka.log.scoring import (
    Shape,
    passed_criteria,
    passed_tasks,
    weighted_criteria_pass_rate,
    weighted_task_pass_rate,
)
from asuka.schema import RoundEvaluation

# Every file name of the run directory, in one place (nothing outside this module spells one).
RUN_FILE = "run.json"
INDEX_FILE = "index.sqlite"
SUMMARY_FILE = "summary.json"
EXPERIMENT_FILE = "experiment.json"
REEVAL_FILE = "reeval.json"
CELL_FILE = "cell.json"
RESULT_FILE = "result.json"
FAILED_FILE = "failed.json"
DONE_FILE = "DONE"
WORKSPACE_DIR = "workspace"
EVIDENCE_DIR = "evidence"
VERDICTS_FILE = "verdicts.json"
AGENT_FILE = "agent.json"
DEPLOY_FILE = "deploy.json"
DEPLOY_LOG = "deploy.log"
FEEDBACK_FILE = "feedback.md"
USER_FILE = "user.json"
USAGE_FILE = "usage.json"
TIMINGS_FILE = "timings.json"
STEP_FILE = "step.json"  # a sequential cell's step: the evaluation task, its attempt
# the run directory's format; run.json records it, and a reader refuses another one
FORMAT_VERSION = 2


class StoreFormatError(ValueError):
    """A run directory written in a format this version cannot read."""

SCHEMA = """
create table if not exists cells (
  cell_id text primary key, spec text not null, status text not null,
  rounds_done integer not null default 0, updated_at real not null);
create table if not exists rounds (
  cell_id text not null, round integer not null, task_pass real, criteria_pass real,
  executed integer, skipped integer, errored integer, deploy_ok integer, duration_s real,
  primary key (cell_id, round));
create table if not exists evaluations (
  key text primary key, cell_id text not null, round integer not null);
"""


def write_json(path: Path, data: Any) -> None:
    """Atomic write: a crash leaves the old file or the new one, never half of one."""
    tmp = path.with_name(path.name + ".tmp")
    text = data.model_dump_json(indent=2) if isinstance(data, BaseModel) \
        else json.dumps(data, indent=2, sort_keys=False, default=str)
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@runtime_checkable
class CellRecorder(Protocol):
    """The lifecycle of a cell's record, as the loop drives it: another backend (a database, an
    object store) implements these and the loop runs unchanged. Resume rests on two of them:
    ``completed_rounds`` (rounds whose record is complete; a partial one is set aside) and
    ``is_finished`` (the final record exists)."""

    def start_cell(self, cell_id: str, spec: dict[str, Any]) -> None:
        """Record the cell's settings; refuse other settings under the same id."""
        ...

    def completed_rounds(self, cell_id: str) -> int: ...

    def begin_round(self, cell_id: str, r: int) -> Path:
        """Where the round's files go; refuse to overwrite a complete round."""
        ...

    def snapshot_workspace(self, cell_id: str, r: int, workspace: Path) -> Path: ...

    def finish_round(self, cell_id: str, rec: RoundRecord, shape: Shape | None = None) -> None:
        """The round's record, complete (from here on the round is never redone)."""
        ...

    def fail_cell(self, cell_id: str, reason: str, kind: str = "setup",
                  round: int | None = None) -> None: ...

    def finish_cell(self, cell_id: str, result: CellResult) -> None: ...

    def is_finished(self, cell_id: str) -> bool: ...


class RunStore:
    """The run directory on disk (``CellRecorder`` and the typed readers of every record)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.db_path = self.root / INDEX_FILE
        with closing(self._db()) as db:
            db.executescript(SCHEMA)

    def _db(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.db_path, timeout=30, isolation_level=None)
        db.execute("pragma journal_mode=wal")
        return db

    # ---------------------------------------------------------------- the run

    @staticmethod
    def is_run_dir(path: Path) -> bool:
        return Path(path).is_dir() and any(Path(path).glob(f"*/{CELL_FILE}"))

    def run_config(self) -> dict[str, Any]:
        """run.json ({} before it is written); another format than this version's is refused
        (a run without a version predates versioning and reads as version 1)."""
        p = self.root / RUN_FILE
        if not p.exists():
            return {}
        cfg = read_json(p)
        version = int(cfg.get("format_version", 1))
        if version > FORMAT_VERSION:
            raise StoreFormatError(f"{p}: run directory format {version}, but this Asuka reads "
                                   f"up to {FORMAT_VERSION}; upgrade Asuka to read it")
        return dict(cfg)

    @property
    def reuses_evaluations(self) -> bool:
        """Whether a round whose artifact was already evaluated here under the same task and
        evaluator settings takes those verdicts instead of evaluating again (run.json's
        ``reuse_evaluations``, default yes)."""
        return bool(self.run_config().get("reuse_evaluations", True))

    def write_run_config(self, config: dict[str, Any]) -> None:
        """run.json, once: a resumed run keeps what it started with."""
        p = self.root / RUN_FILE
        if not p.exists():
            write_json(p, {"format_version": FORMAT_VERSION, **config})

    def write_summary(self, summary: dict[str, Any]) -> Path:
        write_json(self.root / SUMMARY_FILE, summary)
        return self.root / SUMMARY_FILE

    def summary_path(self) -> Path:
        return self.root / SUMMARY_FILE

    def write_experiment(self, experiment: dict[str, Any]) -> None:
        """experiment.json, once: the grid a sweep expanded."""
        p = self.root / EXPERIMENT_FILE
        if not p.exists():
            write_json(p, experiment)

    def reeval_marker(self) -> dict[str, Any] | None:
        p = self.root / REEVAL_FILE
        return read_json(p) if p.exists() else None

    def write_reeval_marker(self, marker: dict[str, Any]) -> None:
        write_json(self.root / REEVAL_FILE, marker)

    # ---------------------------------------------------------------- cells

    def cell_dir(self, cell_id: str) -> Path:
        return self.root / cell_id

    def round_dir(self, cell_id: str, r: int) -> Path:
        return self.cell_dir(cell_id) / f"round-{r}"

    def start_cell(self, cell_id: str, spec: dict[str, Any]) -> None:
        d = self.cell_dir(cell_id)
        d.mkdir(parents=True, exist_ok=True)
        existing = d / CELL_FILE
        if existing.exists() and read_json(existing) != spec:
            raise ValueError(f"cell {cell_id} exists in {self.root} with other settings; "
                             "use another run id")
        write_json(existing, spec)
        with closing(self._db()) as db:
            db.execute("insert into cells(cell_id, spec, status, updated_at) values (?,?,?,?) "
                       "on conflict(cell_id) do nothing",
                       (cell_id, json.dumps(spec, sort_keys=True), "running", time.time()))

    def cell_spec(self, cell_id: str) -> dict[str, Any] | None:
        """The cell's recorded settings (cell.json), None before it started."""
        p = self.cell_dir(cell_id) / CELL_FILE
        return read_json(p) if p.exists() else None

    def is_finished(self, cell_id: str) -> bool:
        return (self.cell_dir(cell_id) / RESULT_FILE).exists()

    def fail_cell(self, cell_id: str, reason: str, kind: str = "setup",
                  round: int | None = None) -> None:
        """Record that a cell could not be run. ``kind``: ``setup`` (configuration: a missing
        key or binary, an unknown model) or ``harness`` (our side or a provider failed). A
        failed cell is never scored; resuming the run tries it again."""
        write_json(self.cell_dir(cell_id) / FAILED_FILE,
                   {"cell_id": cell_id, "kind": kind, "reason": reason, "round": round,
                    "at": time.strftime("%Y-%m-%dT%H:%M:%S")})
        with closing(self._db()) as db:
            db.execute("update cells set status=?, updated_at=? where cell_id=?",
                       ("failed", time.time(), cell_id))

    def cell_failure(self, cell_id: str) -> dict[str, Any] | None:
        """The failure record of a cell that could not be run (None if it ran or runs)."""
        if self.is_finished(cell_id):
            return None
        p = self.cell_dir(cell_id) / FAILED_FILE
        return read_json(p) if p.exists() else None

    def clear_failure(self, cell_id: str) -> None:
        """Before a failed cell is tried again: keep the old record beside, never delete it."""
        p = self.cell_dir(cell_id) / FAILED_FILE
        if p.exists():
            n = 1
            while p.with_name(f"{FAILED_FILE}.{n}").exists():
                n += 1
            p.rename(p.with_name(f"{FAILED_FILE}.{n}"))

    def finish_cell(self, cell_id: str, result: CellResult) -> None:
        write_json(self.cell_dir(cell_id) / RESULT_FILE, result.record())
        with closing(self._db()) as db:
            db.execute("update cells set status=?, updated_at=? where cell_id=?",
                       ("done", time.time(), cell_id))

    def cell_result(self, cell_id: str) -> CellResult | None:
        p = self.cell_dir(cell_id) / RESULT_FILE
        return CellResult.model_validate(read_json(p)) if p.exists() else None

    # ---------------------------------------------------------------- rounds

    def completed_rounds(self, cell_id: str) -> int:
        """Rounds 1..k that are complete; an incomplete round after them is moved aside."""
        k = self.rounds_done(cell_id)
        stale = self.round_dir(cell_id, k + 1)
        if stale.exists():
            n = 1
            while stale.with_name(f"{stale.name}.aborted-{n}").exists():
                n += 1
            stale.rename(stale.with_name(f"{stale.name}.aborted-{n}"))
        return k

    def begin_round(self, cell_id: str, r: int) -> Path:
        d = self.round_dir(cell_id, r)
        if (d / DONE_FILE).exists():
            raise FileExistsError(f"round {r} of {cell_id} is already complete; not overwriting")
        d.mkdir(parents=True, exist_ok=True)
        return d

    def snapshot_workspace(self, cell_id: str, r: int, workspace: Path) -> Path:
        dest = self.round_dir(cell_id, r) / WORKSPACE_DIR
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(workspace, dest, symlinks=True,
                        ignore=shutil.ignore_patterns("node_modules", ".git"))
        return dest

    def finish_round(self, cell_id: str, rec: RoundRecord, shape: Shape | None = None) -> None:
        """Write the round's files, then DONE (the round is resumable from here), and index it:
        the weighted task and criteria pass rates of the protocol's view, given the task's
        ``shape`` (without one the index leaves them empty)."""
        d = self.round_dir(cell_id, rec.round)
        write_json(d / VERDICTS_FILE, rec.evaluation)
        write_json(d / AGENT_FILE, rec.agent)
        if rec.deploy is not None:
            (d / DEPLOY_LOG).write_text(rec.deploy.log or "", encoding="utf-8")
            write_json(d / DEPLOY_FILE, rec.deploy.model_copy(update={"log": ""}))
        (d / FEEDBACK_FILE).write_text(rec.feedback, encoding="utf-8")
        if rec.user:
            write_json(d / USER_FILE, rec.user)
        usage = [u.model_dump() for u in rec.agent.usage]
        write_json(d / USAGE_FILE, usage)
        write_json(d / TIMINGS_FILE, rec.timings)
        if rec.step is not None:
            write_json(d / STEP_FILE, rec.step)
        (d / DONE_FILE).write_text(f"{time.time()}\n")
        res = rec.evaluation.results
        task_pass = criteria_pass = None
        if shape is not None:
            view = feedback_view(rec.evaluation)
            task_pass = weighted_task_pass_rate(shape, passed_tasks(view))
            criteria_pass = weighted_criteria_pass_rate(shape, passed_criteria(view))
        with closing(self._db()) as db:
            db.execute(
                "insert or replace into rounds values (?,?,?,?,?,?,?,?,?)",
                (cell_id, rec.round, task_pass, criteria_pass,
                 sum(r.status in ("passed", "failed") for r in res.values()),
                 sum(r.status == "skipped" for r in res.values()),
                 sum(r.status == "error" for r in res.values()),
                 int(rec.evaluation.deploy_ok), sum(rec.timings.values())))
            db.execute("update cells set rounds_done=?, updated_at=? where cell_id=?",
                       (rec.round, time.time(), cell_id))
            if rec.evaluation.key and rec.evaluation.reused_from is None:
                db.execute("insert or ignore into evaluations values (?,?,?)",
                           (rec.evaluation.key, cell_id, rec.round))

    def reuse_evaluation(self, key: str, cell_id: str, r: int
                         ) -> tuple[RoundEvaluation, DeployResult] | None:
        """The verdicts and deploy of the finished round evaluated under ``key`` (see
        ``asuka.loop.cell.evaluation_key``), its evidence copied into round ``r`` of
        ``cell_id``, marked ``reused_from``; None when no finished round has that key, or
        when that round recorded no deploy (nothing is copied then)."""
        with closing(self._db()) as db:
            row = db.execute("select cell_id, round from evaluations where key=?",
                             (key,)).fetchone()
        if row is None or not self.round_done(row[0], row[1]):
            return None
        src = self.load_round(row[0], row[1])
        if src.deploy is None:
            return None
        evidence = self.evidence_dir(row[0], row[1])
        if evidence.is_dir():
            shutil.copytree(evidence, self.evidence_dir(cell_id, r), dirs_exist_ok=True)
        reused = src.evaluation.model_copy(update={"reused_from": f"{row[0]} round {row[1]}"})
        return reused, src.deploy

    def load_round(self, cell_id: str, r: int) -> RoundRecord:
        d = self.round_dir(cell_id, r)
        deploy = None
        if (d / DEPLOY_FILE).exists():
            deploy = DeployResult.model_validate(read_json(d / DEPLOY_FILE))
            log = d / DEPLOY_LOG
            deploy.log = log.read_text(encoding="utf-8") if log.exists() else ""
        return RoundRecord(
            round=r,
            evaluation=RoundEvaluation.model_validate(read_json(d / VERDICTS_FILE)),
            agent=AgentRoundResult.model_validate(read_json(d / AGENT_FILE)),
            deploy=deploy,
            feedback=(d / FEEDBACK_FILE).read_text(encoding="utf-8"),
            user=read_json(d / USER_FILE) if (d / USER_FILE).exists() else {},
            timings=read_json(d / TIMINGS_FILE),
            step=read_json(d / STEP_FILE) if (d / STEP_FILE).exists() else None,
        )

    def round_done(self, cell_id: str, r: int) -> bool:
        return (self.round_dir(cell_id, r) / DONE_FILE).exists()

    def rounds_done(self, cell_id: str) -> int:
        """Rounds 1..k that are complete (reads only; ``completed_rounds`` also tidies)."""
        k = 0
        while self.round_done(cell_id, k + 1):
            k += 1
        return k

    def round_workspace(self, cell_id: str, r: int) -> Path:
        return self.round_dir(cell_id, r) / WORKSPACE_DIR

    def evidence_dir(self, cell_id: str, r: int) -> Path:
        return self.round_dir(cell_id, r) / EVIDENCE_DIR

    def load_rounds(self, cell_id: str) -> list[RoundRecord]:
        return [self.load_round(cell_id, r) for r in range(1, self.rounds_done(cell_id) + 1)]

    def cells(self) -> list[str]:
        return sorted(p.parent.name for p in self.root.glob(f"*/{CELL_FILE}"))
