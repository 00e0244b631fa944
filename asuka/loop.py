"""The closed loop for one cell: (agent, task, settings) over up to N rounds (paper §3.1).

Round r: the code agent edits the workspace (from the query, or the PRD in round 1 of the
``prd`` start mode, plus the previous round's feedback); the workspace is snapshotted, deployed
and evaluated along the DAG; the user turns executed failures into feedback for round r+1. The
loop stops when every evaluation task passes (an early stop, recorded) or the budget is spent.

Every round is written to the run store as it finishes, so a crashed cell resumes at its first
unfinished round with the workspace, feedback and agent state of the last finished one.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from asuka import codeagents, uiagents, users
from asuka.codeagents.base import AgentRoundResult, RoundContext
from asuka.dag import feedback_view
from asuka.deploy import Deployer
from asuka.evaluate import EvalSettings, evaluate_workspace
from asuka.features import copy_data
from asuka.schema import BenchTask
from asuka.scoring import Shape, passed_criteria, passed_tasks, weighted_criteria_pass_rate, \
    weighted_task_pass_rate
from asuka.store import RoundRecord, RunStore


class CellSpec(BaseModel):
    """One unit of work: an agent on a task under fixed settings."""

    task: str
    agent: str = "sim"
    agent_options: dict[str, Any] = Field(default_factory=lambda: {"profile": "medium"})
    label: str | None = None          # how reports name the agent (default: derived)
    ui: str = "scripted"
    ui_options: dict[str, Any] = Field(default_factory=dict)
    user: str = "template"
    user_options: dict[str, Any] = Field(default_factory=lambda: {"verbosity": "low"})
    rounds: int = Field(default=3, ge=1)
    threshold: float = Field(default=0.5, ge=0, le=1)
    protocol: Literal["dag", "flat", "full"] = "dag"
    start: Literal["query", "prd"] = "query"
    seed: int = 0
    concurrency: int = Field(default=3, ge=1)
    max_retry: int = Field(default=3, ge=0)

    @property
    def agent_label(self) -> str:
        if self.label:
            return self.label
        opt = self.agent_options.get("profile") or self.agent_options.get("model") \
            or self.agent_options.get("tool") or ""
        return f"{self.agent}:{opt}" if opt else self.agent

    @property
    def cell_id(self) -> str:
        """Readable and deterministic; a short hash keeps distinct option sets apart."""
        digest = hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:8]
        name = (f"{self.agent_label}_{self.task}_{self.start}_{self.protocol}"
                f"-T{self.threshold:g}_s{self.seed}")
        safe = "".join(ch if ch.isalnum() or ch in "-_.+" else "-" for ch in name)
        return f"{safe}_{digest}"


ProgressCb = Callable[[str, int, str], None]  # (cell_id, round, phase)


def _all_passed(rec: RoundRecord) -> bool:
    view = feedback_view(rec.evaluation)
    return rec.evaluation.deploy_ok and all(r.status == "passed" for r in view.values())


def _restore_workspace(store: RunStore, spec: CellSpec, bt: BenchTask, done: int) -> Path:
    """The live workspace as it was after round ``done`` (empty but for data before round 1)."""
    ws = store.cell_dir(spec.cell_id) / "workspace"
    if ws.exists():
        shutil.rmtree(ws)
    if done == 0:
        ws.mkdir(parents=True)
        copy_data(Path(bt.root), bt.task.data, ws)
    else:
        shutil.copytree(store.round_dir(spec.cell_id, done) / "workspace", ws, symlinks=True)
    return ws


async def run_cell(spec: CellSpec, bt: BenchTask, store: RunStore, deployer: Deployer,
                   on_progress: ProgressCb | None = None) -> dict:
    """Run (or resume) one cell and return its result record."""
    cell_id = spec.cell_id
    store.start_cell(cell_id, {**spec.model_dump(), "label": spec.agent_label})
    if store.is_finished(cell_id):
        return store.cell_result(cell_id) or {}
    agent = codeagents.get(spec.agent, **spec.agent_options)
    ui_agent = uiagents.get(spec.ui, **spec.ui_options)
    user = users.get(spec.user, **spec.user_options)
    settings = EvalSettings(spec.protocol, spec.threshold, spec.concurrency, spec.max_retry)
    shape = Shape.of(bt.task)

    done = store.completed_rounds(cell_id)
    history = store.load_rounds(cell_id)
    ws = _restore_workspace(store, spec, bt, done)
    stopped_early = bool(history) and _all_passed(history[-1])
    r = done
    while r < spec.rounds and not stopped_early:
        r += 1
        rdir = store.begin_round(cell_id, r)
        prev = history[-1] if history else None
        ctx = RoundContext(
            bench_task=bt, round=r, start=spec.start, workspace=ws, seed=spec.seed,
            feedback=prev.feedback if prev else None,
            prd=bt.prd if (r == 1 and spec.start == "prd") else None,
            previous_meta=prev.agent.meta if prev else None)
        if on_progress:
            on_progress(cell_id, r, "code agent")
        t0 = time.perf_counter()
        try:
            agent_res = await agent.run_round(ctx)
        except Exception as exc:  # a crashing agent is a result, not a crash of the harness
            agent_res = AgentRoundResult(ok=False, error=f"{type(exc).__name__}: {exc}")
        t_agent = time.perf_counter() - t0
        store.snapshot_workspace(cell_id, r, ws)
        if on_progress:
            on_progress(cell_id, r, "evaluate")
        outcome = await evaluate_workspace(bt, ws, ui_agent, deployer, settings,
                                           evidence_dir=rdir / "evidence")
        fb = await user.feedback(bt.task, outcome.evaluation, r)
        agent_res.usage = list(agent_res.usage) + outcome.usage + list(fb.usage)
        rec = RoundRecord(round=r, evaluation=outcome.evaluation, agent=agent_res,
                          deploy=outcome.deploy, feedback=fb.text, user=fb.meta,
                          timings={"agent_s": t_agent, **outcome.timings})
        view = feedback_view(rec.evaluation)
        store.finish_round(cell_id, rec,
                           weighted_task_pass_rate(shape, passed_tasks(view)),
                           weighted_criteria_pass_rate(shape, passed_criteria(view)))
        history.append(rec)
        stopped_early = _all_passed(rec)
    result = {"cell_id": cell_id, "rounds_run": len(history), "budget": spec.rounds,
              "stopped_early": stopped_early and len(history) < spec.rounds,
              "all_passed": bool(history) and _all_passed(history[-1])}
    store.finish_cell(cell_id, result)
    return result
