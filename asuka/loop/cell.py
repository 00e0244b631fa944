"""The closed loop for one cell: (agent, task, settings) over up to N rounds (paper §3.1).

Round r: the code agent edits the workspace (from the query, or the PRD in round 1 of the
``prd`` start mode, plus the previous round's feedback); the workspace is snapshotted, deployed
and evaluated along the DAG; the user turns executed failures into feedback for round r+1. The
loop stops when every evaluation task passes (an early stop, recorded) or the budget is spent.

Every round is written to the run store as it finishes, so a crashed cell resumes at its first
unfinished round with the workspace, feedback and agent state of the last finished one.

Whose failure is what: an agent that writes a broken app, or whose process exits non-zero, has
produced a result (scored). A configuration error (``SetupError``: a missing key or binary, a
rejected key, no sandbox) or a failure of the harness or a provider (an exception from a role)
fails the cell instead: recorded in its failed.json, never scored, tried again on resume.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asuka import codeagents, probes, uiagents, users
from asuka.benchmark.features import seed_workspace
from asuka.benchmark.proof import fingerprint
from asuka.codeagents.base import AgentRoundResult, RoundContext
from asuka.dag import feedback_view
from asuka.deploy import Deployer
from asuka.errors import SetupError, preflight
from asuka.evaluators import EVALUATORS_OPTION, default_jury
from asuka.log.cellspec import CellSpec
from asuka.log.provenance import asuka_version, cell_provenance, changed_parts
from asuka.log.records import CellResult
from asuka.log.scoring import Shape
from asuka.log.store import WORKSPACE_DIR, RoundRecord, RunStore
from asuka.pairwise import OPTION as PAIRWISE_OPTION
from asuka.pairwise import make_judge
from asuka.probes import ProbeSettings, compose_feedback
from asuka.protocol.evaluate import EvalOutcome, EvalSettings, artifact_hash, evaluate_workspace
from asuka.schema import BenchTask, RoundEvaluation
from asuka.users.base import FeedbackResult

# probe_options of the stage itself (the rest build the probe backend)
STAGE_OPTIONS = ("top_k", "self_fix_threshold", "window")
ProgressCb = Callable[[str, int, str], None]  # (cell_id, round, phase)
# code agents that run processes of their own, sealed to the workspace
SEALED_AGENTS = ("cli", "llm")


PASSES_OPTION = "eval_passes"  # evaluation passes per artifact, verdicts by majority
JURY_MODEL_OPTION = "jury_model"  # the model of jury checks that need one (llm-review)
# UI-agent options that configure the evaluation around the UI agent, not the agent itself
EVALUATION_OPTIONS = (PAIRWISE_OPTION, EVALUATORS_OPTION, PASSES_OPTION, JURY_MODEL_OPTION)


def split_ui_options(ui_options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(the evaluation's options, the UI agent's own)``: the pairwise judge, extra
    evaluators of the jury and the evaluation passes travel with the UI agent's options (so
    they are part of a cell's settings, its id and its reuse key) but are not the agent's."""
    own = {k: v for k, v in ui_options.items() if k in EVALUATION_OPTIONS}
    return own, {k: v for k, v in ui_options.items() if k not in EVALUATION_OPTIONS}


def evaluation_key(spec: CellSpec, bt: BenchTask, artifact: str,
                   jury: dict[str, Any] | None = None) -> str:
    """What an evaluation's verdicts depend on: the artifact (``artifact_hash``), the task
    (its proof fingerprint: definition, reference, data, PRD, DAG), the evaluator's settings
    and the Asuka version. Two rounds with one key get the same verdicts from a deterministic
    evaluator, so the second reuses the first's (``RunStore.reuse_evaluation``). ``jury``: the
    evaluators the round runs, when the caller has loaded them already."""
    parts = {"artifact": artifact, "task": fingerprint(bt), "ui": spec.ui,
             "ui_options": spec.ui_options, "protocol": spec.protocol,
             "threshold": spec.threshold, "max_retry": spec.max_retry,
             "asuka": asuka_version()}
    if bt.task.pairwise:  # not in the proof fingerprint: they decide no scripted verdict
        parts["pairwise"] = [p.model_dump(mode="json") for p in bt.task.pairwise]
    if jury is None:
        jury = default_jury(bt.root, split_ui_options(spec.ui_options)[0].get(EVALUATORS_OPTION))
    if jury:
        parts["jury"] = {i: s.model_dump(mode="json") for i, s in sorted(jury.items())}
    if spec.probing:  # a reused evaluation brings its probes' observations along
        parts["probes"] = {"backend": spec.probes, "options": spec.probe_options,
                           "routing": spec.routing}
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


async def evaluate_round(spec: CellSpec, bt: BenchTask, workspace: Path, ui_agent: Any,
                         deployer: Deployer, store: RunStore, cell_id: str, r: int,
                         prober: Any = None, history: Sequence[RoundEvaluation] = ()
                         ) -> EvalOutcome:
    """Round ``r``'s evaluation: the verdicts of an identical evaluation earlier in the run
    when the store reuses them (no deploy, no browser, no cost), else a new one (``prober``:
    the cell's probe backend when its feedback has the probes; ``history``: its earlier
    rounds' evaluations, for their routing)."""
    artifact = await asyncio.to_thread(artifact_hash, workspace)
    own, rest = split_ui_options(spec.ui_options)
    jury = default_jury(bt.root, own.get(EVALUATORS_OPTION))  # read once per round
    key = evaluation_key(spec, bt, artifact, jury)
    reused = store.reuse_evaluation(key, cell_id, r) if store.reuses_evaluations else None
    if reused is not None:
        evaluation, deploy = reused
        return EvalOutcome(evaluation, deploy, timings={"deploy_s": 0.0, "evaluate_s": 0.0})
    settings = EvalSettings(spec.protocol, spec.threshold, spec.concurrency, spec.max_retry,
                            pairwise=make_judge(own.get(PAIRWISE_OPTION), rest), jury=jury,
                            passes=int(own.get(PASSES_OPTION, 1)),
                            jury_model=own.get(JURY_MODEL_OPTION) or rest.get("model"),
                            probes=probe_settings(spec, prober), history=history)
    outcome = await evaluate_workspace(bt, workspace, ui_agent, deployer, settings,
                                       evidence_dir=store.evidence_dir(cell_id, r),
                                       artifact=artifact)
    return dataclasses.replace(outcome, evaluation=outcome.evaluation.model_copy(
        update={"key": key}))


def probe_settings(spec: CellSpec, prober: Any) -> ProbeSettings | None:
    if prober is None or not spec.probing:
        return None
    opts = {k: spec.probe_options[k] for k in STAGE_OPTIONS
            if k in spec.probe_options}
    return ProbeSettings(prober, spec.routing, **opts)


def _all_passed(rec: RoundRecord) -> bool:
    view = feedback_view(rec.evaluation)
    return rec.evaluation.deploy_ok and all(r.status == "passed" for r in view.values())


def live_cell_dir(store: RunStore, cell_id: str) -> Path:
    """Where a cell's live workspace (and its agent's private home) lives while it runs: outside
    the run store, so an agent sealed to its workspace has no store beside it. The store keeps
    the snapshot of every round; this directory is removed when the cell finishes."""
    root = Path(os.environ.get("ASUKA_LIVE_DIR") or Path(tempfile.gettempdir()) / "asuka-live")
    tag = hashlib.sha256(str(store.root.resolve()).encode()).hexdigest()[:10]
    return root / f"{store.root.name}-{tag}" / cell_id


def _restore_workspace(store: RunStore, spec: CellSpec, bt: BenchTask, done: int) -> Path:
    """The live workspace as it was after round ``done`` (empty but for data before round 1)."""
    ws = live_cell_dir(store, spec.cell_id) / WORKSPACE_DIR
    if ws.exists():
        shutil.rmtree(ws)
    if done == 0:
        ws.mkdir(parents=True)
        seed_workspace(bt, ws)
    else:
        ws.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(store.round_dir(spec.cell_id, done) / "workspace", ws, symlinks=True)
    return ws


class CellFailed(Exception):
    """The cell cannot go on for a reason that is not the agent's: never scored."""

    def __init__(self, kind: str, reason: str, round: int | None = None) -> None:
        super().__init__(reason)
        self.kind, self.reason, self.round = kind, reason, round


def _describe(exc: BaseException) -> str:
    return str(exc) if isinstance(exc, SetupError) else f"{type(exc).__name__}: {exc}"


async def _step(kind_of_other: str, what: str, r: int | None, coro: Any) -> Any:
    """Await one role's work; a SetupError fails the cell as ``setup``, anything else it
    raises as ``kind_of_other`` (the harness's or a provider's failure, not the agent's)."""
    try:
        return await coro
    except SetupError as exc:
        raise CellFailed("setup", f"{what}: {_describe(exc)}", r) from exc
    except Exception as exc:  # noqa: BLE001 - recorded as the cell's failure, with the reason
        raise CellFailed(kind_of_other, f"{what}: {_describe(exc)}", r) from exc


def build_backends(spec: CellSpec) -> tuple[Any, Any, Any, Any]:
    """Build and preflight the roles (the code agent, the UI agent, the user, the prober when
    the feedback has probes): configuration errors surface before round 1."""
    try:
        agent = codeagents.get(spec.agent, **spec.agent_options)
        own, ui_options = split_ui_options(spec.ui_options)
        ui_agent = uiagents.get(spec.ui, **ui_options)
        user = users.get(spec.user, **spec.user_options)
        if int(own.get(PASSES_OPTION, 1)) < 1:
            raise ValueError(f"{PASSES_OPTION} must be at least 1")
        prober = None
        if spec.probing:
            opts = {k: v for k, v in spec.probe_options.items() if k not in STAGE_OPTIONS}
            prober = probes.registry.get(spec.probes, **opts)
        preflight(agent, ui_agent, user, make_judge(own.get(PAIRWISE_OPTION), ui_options),
                  *([prober] if prober is not None else []))
    except (SetupError, ValueError, TypeError, KeyError, ImportError) as exc:
        raise CellFailed("setup", _describe(exc)) from exc
    return agent, ui_agent, user, prober


def with_unsandboxed_agents(spec: CellSpec) -> CellSpec:
    """The user's explicit ``--unsandboxed-agents``: agents whose processes would be sealed may
    run as plain processes when no sandbox can be had (recorded in the cell's agent options)."""
    if spec.agent not in SEALED_AGENTS:
        return spec
    return spec.model_copy(update={"agent_options": {**spec.agent_options,
                                                     "allow_unsandboxed": True}})


async def run_cell(spec: CellSpec, bt: BenchTask, store: RunStore, deployer: Deployer,
                   on_progress: ProgressCb | None = None) -> CellResult:
    """Run (or resume) one cell and return its result record: ``status`` is ``finished``, or
    ``failed`` (with ``kind`` and ``reason``, also in the cell's failed.json) when it could not
    run for a reason that is not the agent's. A failed cell is never scored."""
    cell_id = spec.cell_id
    settings = {**spec.model_dump(), "label": spec.agent_label}
    recorded = store.cell_spec(cell_id)
    if recorded is not None and "provenance" in recorded:
        # resumed: keep what the cell started on, so a task changed since shows as changed
        # (and refuses to be scored) instead of being silently mixed
        settings["provenance"] = recorded["provenance"]
        changed = changed_parts(recorded["provenance"], bt)
        if changed and not store.is_finished(cell_id):
            store.fail_cell(cell_id, f"task {bt.id} changed since the cell started "
                                     f"({', '.join(changed)}); use another run id", "setup")
            return CellResult(cell_id=cell_id, status="failed", kind="setup",
                              reason=f"task {bt.id} changed since the cell started")
    else:
        settings["provenance"] = cell_provenance(bt, settings)
    store.start_cell(cell_id, settings)
    if store.is_finished(cell_id):
        return store.cell_result(cell_id) or CellResult(cell_id=cell_id)
    store.clear_failure(cell_id)
    try:
        run = CellRun.start(spec, bt, store, deployer, on_progress)
        strategy = ROUND_STRATEGIES.get(spec.mode)
        if strategy is None:
            raise CellFailed("setup", f"no round strategy {spec.mode!r} (known: "
                                      f"{', '.join(sorted(ROUND_STRATEGIES))})")
        result = await strategy(run)
    except Exception as exc:  # noqa: BLE001 - a cell's failure is recorded, never raised
        failure = exc if isinstance(exc, CellFailed) else CellFailed("harness", _describe(exc))
        store.fail_cell(cell_id, failure.reason, failure.kind, failure.round)
        return CellResult(cell_id=cell_id, status="failed", kind=failure.kind,
                          reason=failure.reason, round=failure.round)
    store.finish_cell(cell_id, result)
    shutil.rmtree(live_cell_dir(store, cell_id), ignore_errors=True)
    return result


@dataclass
class CellRun:
    """What the rounds of one running cell share: its settings, its roles, its live workspace
    and the rounds recorded so far."""

    spec: CellSpec
    bt: BenchTask
    store: RunStore
    deployer: Deployer
    on_progress: ProgressCb | None
    backends: tuple[Any, Any, Any, Any]  # code agent, UI agent, user, prober
    sealed: list[Path]                   # what the agent's processes must never see
    workspace: Path
    history: list[RoundRecord]

    @classmethod
    def start(cls, spec: CellSpec, bt: BenchTask, store: RunStore, deployer: Deployer,
              on_progress: ProgressCb | None) -> CellRun:
        backends = build_backends(spec)
        # what an agent's processes must never see: the benchmark's answers and the run store
        bench = Path(bt.root).resolve().parents[1]
        sealed = [*(bench / d for d in ("tasks", "prds", "dags")), store.root.resolve()]
        done = store.completed_rounds(spec.cell_id)
        history = store.load_rounds(spec.cell_id)
        ws = _restore_workspace(store, spec, bt, done)
        return cls(spec, bt, store, deployer, on_progress, backends, sealed, ws, history)

    def progress(self, r: int, phase: str) -> None:
        if self.on_progress:
            self.on_progress(self.spec.cell_id, r, phase)

    async def play(self, r: int, bt: BenchTask | None = None,
                   step: dict[str, Any] | None = None) -> RoundRecord:
        """Round ``r``: the code agent, the snapshot, the evaluation, the feedback; recorded.
        ``bt``: the task as this round sees it (a sequential step: its prompt and the
        evaluation tasks so far); ``step``: that step, recorded with the round."""
        spec, store, cell_id, ws = self.spec, self.store, self.spec.cell_id, self.workspace
        bt = bt or self.bt
        agent, ui_agent, user, prober = self.backends
        store.begin_round(cell_id, r)
        prev = self.history[-1] if self.history else None
        # a sequential step's first attempt brings its request; a retry, the feedback
        new_request = bool(step and step["attempt"] == 1 and r > 1)
        ctx = RoundContext(
            bench_task=bt, round=r, start=spec.start, workspace=ws, seed=spec.seed,
            feedback=(prev.feedback or None) if prev and not new_request else None,
            new_request=new_request,
            prd=bt.prd if (r == 1 and spec.start == "prd") else None,
            previous_meta=prev.agent.meta if prev else None,
            agent_home=ws.parent / "home", sealed=self.sealed)
        self.progress(r, "code agent")
        t0 = time.perf_counter()
        agent_res: AgentRoundResult = await _step(
            "harness", f"code agent {spec.agent_label}", r, agent.run_round(ctx))
        t_agent = time.perf_counter() - t0
        store.snapshot_workspace(cell_id, r, ws)
        self.progress(r, "evaluate")
        outcome = await _step("harness", f"evaluation ({spec.ui})", r, evaluate_round(
            spec, bt, ws, ui_agent, deployer=self.deployer, store=store, cell_id=cell_id,
            r=r, prober=prober, history=[h.evaluation for h in self.history]))
        fb = FeedbackResult(text="")
        if "failures" in spec.feedback:  # the user speaks only where the condition has it
            # a person (the human user) gets the round's app to try: its workspace
            seen = {"workspace": ws} if getattr(user, "needs_app", False) else {}
            fb = await _step("harness", f"user ({spec.user})", r,
                             user.feedback(bt.task, outcome.evaluation, r, **seen))
        feedback = compose_feedback(spec.feedback, fb.text, outcome.evaluation.probes)
        agent_res.usage = list(agent_res.usage) + outcome.usage + list(fb.usage)
        rec = RoundRecord(round=r, evaluation=outcome.evaluation, agent=agent_res,
                          deploy=outcome.deploy, feedback=feedback or "", user=fb.meta,
                          timings={"agent_s": t_agent, **outcome.timings}, step=step)
        store.finish_round(cell_id, rec, Shape.of(self.bt.task))
        self.history.append(rec)
        return rec


async def _run_rounds(run: CellRun) -> CellResult:
    spec, history = run.spec, run.history
    stopped_early = bool(history) and _all_passed(history[-1])
    r = len(history)
    while r < spec.rounds and not stopped_early:
        r += 1
        stopped_early = _all_passed(await run.play(r))
    return CellResult(cell_id=spec.cell_id, rounds_run=len(history), budget=spec.rounds,
                      stopped_early=stopped_early and len(history) < spec.rounds,
                      all_passed=bool(history) and _all_passed(history[-1]))


# How a cell spends its rounds, by ``CellSpec.mode``: the paper's loop here; Web-Bench's
# sequential mode registers itself from its own module (asuka.loop.sequential), so the cell
# never imports a strategy.
RoundStrategy = Callable[[CellRun], Awaitable[CellResult]]
ROUND_STRATEGIES: dict[str, RoundStrategy] = {"rounds": _run_rounds}
