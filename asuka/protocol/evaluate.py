"""One evaluation of one artifact: deploy the workspace, open the UI agent, walk the DAG.

This is where the roles meet the protocol engine; the closed loop and ``validate --mutants``
both call it."""

from __future__ import annotations

import asyncio
import hashlib
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asuka.dag import CriterionDag, apply_gating
from asuka.deploy import Deployer, DeployResult
from asuka.evaluators import inspect_sources, run_jury
from asuka.pairwise import judge_presentation
from asuka.protocol.audit import audited
from asuka.protocol.dag import run_protocol
from asuka.protocol.passes import majority
from asuka.schema import BenchTask, EvalTaskResult, ProbeReport, RoundEvaluation
from asuka.uiagents import UIAgent
from asuka.usage import Usage
from asuka.vocabulary import Protocol


@dataclass
class EvalSettings:
    protocol: Protocol = "dag"
    threshold: float = 0.5
    concurrency: int = 3
    max_retry: int = 3
    audit: bool = True  # the record auditor and its remediation rounds (asuka.protocol.audit)
    # the judge of the task's pairwise presentation tasks (asuka.pairwise); None: not judged
    pairwise: Any = None
    # the jury of evaluators run on the artifact (asuka.evaluators: id -> EvaluatorSpec)
    jury: Mapping[str, Any] = field(default_factory=dict)
    passes: int = 1  # evaluations of each task per artifact, verdicts by majority
    jury_model: Any = None  # the model of jury checks that need one (default: the UI model)
    # the diagnostic probes after the verdicts (asuka.probes.ProbeSettings; None: none), and
    # the cell's earlier evaluations their routing may look at
    probes: Any = None
    history: Sequence[RoundEvaluation] = ()


@dataclass
class EvalOutcome:
    evaluation: RoundEvaluation
    deploy: DeployResult
    usage: list[Usage] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)


def deploy_failure(bench_task: BenchTask, settings: EvalSettings,
                   deploy: DeployResult) -> RoundEvaluation:
    """A failed deploy fails every evaluation task without executing anything: no verdicts, no
    attempts (so cost columns count nothing), the deploy's reason as the error. The app not
    building is the agent's failure; the user's feedback is the build failure itself."""
    reason = f"deploy failed: {deploy.error or 'unknown reason'}"
    results = {et.id: EvalTaskResult(eval_task_id=et.id, status="failed", attempts=0,
                                     error=reason)
               for et in bench_task.task.eval_tasks}
    gated = None
    if settings.protocol == "full":
        gated = apply_gating(results, CriterionDag.of(bench_task.task, bench_task.dag),
                             settings.threshold)
    return RoundEvaluation(protocol=settings.protocol, threshold=settings.threshold,
                           results=results, gated=gated, deploy_ok=False,
                           deploy_error=deploy.error)


# not part of what an app is: dependencies installed and version-control metadata
ARTIFACT_SKIP_DIRS = frozenset({"node_modules", ".git"})


def artifact_hash(workspace: Path) -> str:
    """sha256 over the workspace's files (relative path and content, in path order; symlinks
    by their target; ``ARTIFACT_SKIP_DIRS`` left out): the identity of the app served, under
    which a UI agent caches what it learned about it (groundings)."""
    root = Path(workspace)
    h = hashlib.sha256()
    files: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in ARTIFACT_SKIP_DIRS)
        rel = os.path.relpath(dirpath, root)
        files += [os.path.normpath(os.path.join(rel, f)) for f in filenames]
    for rel in sorted(files):
        path = root / rel
        h.update(rel.replace(os.sep, "/").encode("utf-8", "surrogateescape") + b"\0")
        try:
            if path.is_symlink():
                h.update(b"link:" + os.readlink(path).encode("utf-8", "surrogateescape"))
            else:
                with open(path, "rb") as fh:
                    for chunk in iter(lambda: fh.read(1 << 20), b""):
                        h.update(chunk)
        except OSError:
            h.update(b"unreadable")
        h.update(b"\0")
    return h.hexdigest()


async def evaluate_served(bench_task: BenchTask, base_url: str, ui_agent: UIAgent,
                          settings: EvalSettings, evidence_dir: Path | None = None,
                          artifact: str | None = None, source: Path | None = None
                          ) -> tuple[RoundEvaluation, list[Usage]]:
    """Run the protocol against an app already served at ``base_url`` (``artifact``: its
    content hash, when known; see ``artifact_hash``; ``source``: the folder it was deployed
    from, for the sessions that read it, e.g. a Web-Bench spec's ``../src``)."""
    data_dir = Path(bench_task.root) / "data"
    session = await ui_agent.open(base_url, evidence_dir=evidence_dir, data_dir=data_dir,
                                  artifact=artifact)
    for s in (session, getattr(session, "scripted", None)):
        if source is not None and s is not None and hasattr(s, "source"):
            s.source = source
    try:
        probe = getattr(session, "operability", None)  # UI agents with a browser of their own
        operability = await probe() if probe is not None else None
        dag = CriterionDag.of(bench_task.task, bench_task.dag)
        evaluator = majority(session.evaluate, settings.passes)
        evaluator = audited(evaluator) if settings.audit else evaluator
        evaluation = await run_protocol(
            bench_task.task, dag, evaluator, protocol=settings.protocol,
            threshold=settings.threshold, concurrency=settings.concurrency,
            max_retry=settings.max_retry)
        # while the candidate is still served: the presentation tasks, judged against the
        # reference app (an empty dict for a task without any)
        pairwise, judged = await judge_presentation(
            bench_task, base_url, settings.pairwise, evidence_dir)
        # each stage returns its part; the round's evaluation is assembled, never edited
        evaluation = evaluation.model_copy(update={"operability": operability,
                                                   "pairwise": pairwise})
        return evaluation, [*session.usage(), *judged]
    finally:
        await session.close()


async def evaluate_workspace(bench_task: BenchTask, workspace: Path, ui_agent: UIAgent,
                             deployer: Deployer, settings: EvalSettings,
                             evidence_dir: Path | None = None,
                             artifact: str | None = None) -> EvalOutcome:
    """Deploy ``workspace``, evaluate it, and always tear the deployment down (``artifact``:
    its ``artifact_hash`` when the caller has it)."""
    if artifact is None:
        artifact = await asyncio.to_thread(artifact_hash, Path(workspace))  # before any build
    t0 = time.perf_counter()
    serve = bench_task.task.serve
    deployment = await asyncio.to_thread(
        deployer.deploy, Path(workspace), *((serve, Path(bench_task.root)) if serve else ()))
    t_deploy = time.perf_counter() - t0
    try:
        result = deployment.result
        if not result.ok or not result.url:
            ev = deploy_failure(bench_task, settings, result)
            ev = ev.model_copy(update={"source": inspect_sources(bench_task, Path(workspace))})
            jury = await run_jury(settings.jury, bench_task, Path(workspace), result, ev,
                                  model=settings.jury_model, passes=settings.passes)
            ev = ev.model_copy(update={"jury": jury})
            ev = ev.model_copy(update={"probes": await _probe(settings, bench_task, ev, None,
                                                              Path(workspace))})
            return EvalOutcome(ev, result, list(ev.probes.usage) if ev.probes else [],
                               timings={"deploy_s": t_deploy, "evaluate_s": 0.0})
        t1 = time.perf_counter()
        # a project's tests read and run in the project as deployed (its init's packages, its
        # build's output), as in Web-Bench; other sessions read the workspace
        ev, usage = await evaluate_served(bench_task, result.url, ui_agent, settings,
                                          evidence_dir, artifact=artifact,
                                          source=deployment.project_home or Path(workspace))
        if ev.operability is not None and ev.operability.ok is False:  # B = 0
            ev = ev.model_copy(update={"source": inspect_sources(bench_task, Path(workspace))})
        # on the same artifact, still served: the build and code engineers read records and
        # files, a persona UI evaluator opens a session of its own
        jury = await run_jury(settings.jury, bench_task, Path(workspace), result, ev,
                              result.url, evidence_dir, settings.jury_model, settings.passes)
        ev = ev.model_copy(update={"jury": jury})
        usage += [u for j in ev.jury.values() for u in j.usage]
        # last, while still served: the diagnostics of the executed failures
        ev = ev.model_copy(update={"probes": await _probe(settings, bench_task, ev, result.url,
                                                          Path(workspace))})
        usage += ev.probes.usage if ev.probes else []
        return EvalOutcome(ev, result, usage,
                           {"deploy_s": t_deploy, "evaluate_s": time.perf_counter() - t1})
    finally:
        await asyncio.to_thread(deployment.stop)


async def _probe(settings: EvalSettings, bench_task: BenchTask, ev: RoundEvaluation,
                 url: str | None, workspace: Path) -> ProbeReport | None:
    """The probes' report on the round's executed failures (None without probes)."""
    if settings.probes is None:
        return None
    from asuka.probes import run_probes

    return await run_probes(settings.probes, bench_task, ev, url, workspace, settings.history)
