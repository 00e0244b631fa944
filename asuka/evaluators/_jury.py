"""The jury of one round: every evaluator of the benchmark in dependency order on the same
artifact, each scored out of its points, and the jury score (LiveEvalBench's 90 points: build
15, code 30, UI 45 with the shipped files; each evaluator capped at its own points)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import networkx as nx

from asuka.evaluators._checks import BUILD_CHECKS, CODE_CHECKS, LLM_CHECKS, BuildInput, CodeInput
from asuka.evaluators._review import Reviewer
from asuka.evaluators._spec import SCRIPTED_BACKENDS, EvaluatorSpec, agent_options
from asuka.log.records import DeployResult
from asuka.log.scoring import Shape, passed_criteria, weighted_criteria_pass_rate
from asuka.schema import BenchTask, EvaluatorResult, JudgedCriterion, RoundEvaluation
from asuka.uiagents.browsing.input_modes import browser_use_tool, tool_of
from asuka.usage import Usage


def run_order(specs: Mapping[str, EvaluatorSpec]) -> list[EvaluatorSpec]:
    """Build stage first, then by ``depends_on`` (ties by id)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(specs)
    graph.add_edges_from((d, s.id) for s in specs.values() for d in s.depends_on if d in specs)
    key = {i: (0 if s.stage == "build" else 1, i) for i, s in specs.items()}
    return [specs[i] for i in nx.lexicographical_topological_sort(graph, key=key.get)]


def tools_used(spec: EvaluatorSpec, bt: BenchTask) -> list[str]:
    """The tools an evaluator uses on this task: the build engineer reads the deploy log, the
    code engineer reads and searches files, a UI evaluator the tools its checks' steps need
    (those it is allowed; the others are denied)."""
    if spec.kind == "build":
        return ["deploy-log"]
    if spec.kind == "code":
        return ["grep", "read"]

    mode = str(spec.options.get("input", "any"))
    needed = {tool_of(mode, step.op) for et in bt.task.eval_tasks for c in et.criteria
              for step in c.check or []} - {None}
    return sorted(t for t in needed if t in spec.allowed_tools)  # type: ignore[misc]


def succeeded(result: EvaluatorResult, spec: EvaluatorSpec) -> bool:
    """Judged, with every gate criterion passed."""
    gates = {c.id for c in spec.criteria if c.gate}
    return result.status == "judged" and all(
        c.verdict == "pass" for c in result.criteria if c.id in gates)


def score_of(spec: EvaluatorSpec, criteria: Sequence[JudgedCriterion]) -> float | None:
    """The evaluator's points times the share of applicable points passed (None: nothing
    applied)."""
    applicable = [c for c in criteria if c.verdict != "na"]
    total = sum(c.points for c in applicable)
    if not total:
        return None
    return spec.points * sum(c.points for c in applicable if c.verdict == "pass") / total


def _ui_rate(bt: BenchTask, evaluation: RoundEvaluation) -> float:
    """The UI tester's measure: the weighted criteria pass rate on the round's artifact."""
    return weighted_criteria_pass_rate(Shape.of(bt.task), passed_criteria(evaluation.results))


async def _persona(spec: EvaluatorSpec, bt: BenchTask, url: str | None,
                   evidence_dir: Path | None, model: Any, usage: list[Usage]
                   ) -> tuple[list[JudgedCriterion], list[str], set[str]]:
    """A UI evaluator with a session of its own (a persona: its viewport, its input devices)
    on every criterion of the task, independently (no DAG): each criterion carries its task's
    weight shared among the task's criteria; a criterion its user cannot act on
    (``unverifiable``: denied, or no check) is not applicable. Returns the criteria, the
    denials and the tools a model-driven persona's actions used (from the verdicts' traces);
    its calls go to ``usage`` (also when it fails midway)."""
    from asuka import uiagents

    if url is None:
        raise RuntimeError("no served app to test")
    # its tools are enforced: a step (scripted) or an action (model-driven) needing one outside
    # allowed_tools is denied and recorded
    agent = uiagents.get(spec.backend, **agent_options(spec, model))
    session = await agent.open(url, evidence_dir=evidence_dir / spec.id if evidence_dir else None,
                               data_dir=Path(bt.root) / "data")
    out: list[JudgedCriterion] = []
    denials: list[str] = []
    tools: set[str] = set()
    mode = str(spec.options.get("input", "any"))
    try:
        for et in bt.task.eval_tasks:
            check_tokens(spec, [*usage, *session.usage()])
            res = await session.evaluate(et)
            if res.status == "error":
                raise RuntimeError(f"{et.id}: {res.error}")
            for v in res.verdicts:
                tools |= {t for t in (browser_use_tool(mode, step.split(" @ ")[0])
                                      for step in v.trace) if t in spec.allowed_tools}
                if v.reason and "denied: " in v.reason:
                    denials.append(f"{v.criterion_id}: {v.reason}")
                verdict = "pass" if v.status == "pass" else "na" \
                    if v.status == "unverifiable" else "fail"
                out.append(JudgedCriterion(id=v.criterion_id, verdict=verdict,
                                           points=et.weight / len(et.criteria),
                                           reason=v.reason))
    finally:
        usage.extend(session.usage())
        await session.close()
    return out, denials, tools


class OverBudget(RuntimeError):
    """The evaluator spent its budget before it decided: its error, never the app's."""


def check_tokens(spec: EvaluatorSpec, usage: Sequence[Usage]) -> None:
    """Raise ``OverBudget`` before a model call once the evaluator's calls used its tokens."""
    used = sum(u.input_tokens + u.output_tokens for u in usage)
    if spec.budget.tokens and used >= spec.budget.tokens:
        raise OverBudget(f"token budget spent ({used} of {spec.budget.tokens})")


def model_based(spec: EvaluatorSpec) -> bool:
    """Its verdicts come from a model, so they can differ from pass to pass: an LLM-reviewed
    criterion, or a persona driven by a model-based UI backend."""
    if spec.kind == "ui":
        return spec.backend not in SCRIPTED_BACKENDS
    return any(c.check in LLM_CHECKS for c in spec.criteria)


def vote(verdicts: Sequence[str]) -> str:
    """A criterion's majority over passes: pass with more than half, else the more frequent
    of fail and not-applicable (fail on a tie)."""
    if sum(v == "pass" for v in verdicts) * 2 > len(verdicts):
        return "pass"
    return "na" if sum(v == "na" for v in verdicts) > sum(v == "fail" for v in verdicts) \
        else "fail"


def combine_passes(runs: Sequence[Sequence[JudgedCriterion]]) -> list[JudgedCriterion]:
    """One criterion list from several passes: each criterion's majority verdict, with the
    reason and evidence of the first pass that gave it, and every pass's verdict."""
    if len(runs) == 1:
        return list(runs[0])
    by_pass = [{c.id: c for c in run} for run in runs]
    out = []
    for first in runs[0]:
        seen = [p[first.id] for p in by_pass if first.id in p]
        verdict = vote([c.verdict for c in seen])
        kept = next(c for c in seen if c.verdict == verdict)
        out.append(kept.model_copy(update={"passes": [c.verdict for c in seen]}))
    return out


async def _reviewed(spec: EvaluatorSpec, bt: BenchTask, workspace: Path | None,
                    criteria: list[JudgedCriterion], model: Any, passes: int,
                    usage: list[Usage]) -> None:
    """Fill in the criteria an LLM reviews (``llm-review``), each reviewed ``passes`` times
    and decided by majority; their usage goes to ``usage`` (also when it fails midway)."""
    todo = [c for c in spec.criteria if c.check in LLM_CHECKS
            and not any(j.id == c.id and j.verdict == "na" for j in criteria)]
    if not todo:
        return
    if workspace is None:
        raise RuntimeError("no workspace to inspect")
    if not (spec.model or model):
        raise RuntimeError(f"{spec.id} needs a model (model: in its file, or the run's UI model)")
    reviewer = Reviewer(spec.model or model)
    code = CodeInput(workspace, bt.task.query, frozenset(bt.task.data))
    try:
        for c in todo:
            runs = []
            for _ in range(passes):
                check_tokens(spec, reviewer.usage())
                verdict, reason, evidence = await reviewer.review(spec.persona, c.text, code)
                runs.append([JudgedCriterion(id=c.id, verdict=verdict, points=c.points,  # type: ignore[arg-type]
                                             reason=reason, evidence=evidence)])
            criteria.extend(combine_passes(runs))
    finally:
        usage.extend(reviewer.usage())
    order = [c.id for c in spec.criteria]
    criteria.sort(key=lambda j: order.index(j.id))


def _judge(spec: EvaluatorSpec, bt: BenchTask, workspace: Path | None, deploy: DeployResult,
           evaluation: RoundEvaluation) -> list[JudgedCriterion]:
    if spec.kind == "ui":
        rate = _ui_rate(bt, evaluation)
        n = len(Shape.of(bt.task).all_criteria())
        return [JudgedCriterion(id="task-criteria", verdict="pass" if rate == 1 else "fail",
                                points=1.0, reason=f"weighted criteria pass rate {rate:.3f} "
                                                   f"over the task's {n} criteria")]
    out = []
    for c in spec.criteria:
        if c.applies_when and not re.search(c.applies_when, bt.task.query, re.I):
            out.append(JudgedCriterion(id=c.id, verdict="na", points=c.points,
                                       reason="the query does not ask for it"))
            continue
        if c.check in LLM_CHECKS:
            continue  # asynchronous: _reviewed
        if spec.kind == "build":
            verdict, reason, evidence = BUILD_CHECKS[c.check](
                BuildInput(deploy, evaluation.operability))
        else:
            if workspace is None:
                raise RuntimeError("no workspace to inspect")
            verdict, reason, evidence = CODE_CHECKS[c.check](
                CodeInput(workspace, bt.task.query, frozenset(bt.task.data)))
        out.append(JudgedCriterion(id=c.id, verdict=verdict, points=c.points, reason=reason,
                                   evidence=evidence))  # type: ignore[arg-type]
    return out


async def run_jury(specs: Mapping[str, EvaluatorSpec], bt: BenchTask, workspace: Path | None,
                   deploy: DeployResult, evaluation: RoundEvaluation, url: str | None = None,
                   evidence_dir: Path | None = None, model: Any = None, passes: int = 1
                   ) -> dict[str, EvaluatorResult]:
    """Every evaluator on one round's artifact (``url``: where it is served, for UI evaluators
    with a session of their own). An evaluator whose upstream did not succeed is ``skipped``
    (scored 0: the build gate); one that raised is ``error`` (never scored). ``passes``: how
    often a model-based evaluator judges the artifact, each criterion by majority
    (deterministic ones judge once: their passes could not differ)."""
    results: dict[str, EvaluatorResult] = {}
    for spec in run_order(specs):
        t0 = time.perf_counter()
        blocked = [d for d in spec.depends_on
                   if d in results and not succeeded(results[d], specs[d])]
        if blocked:
            results[spec.id] = EvaluatorResult(
                evaluator=spec.id, stage=spec.stage, status="skipped", score=0.0,
                max_points=spec.points, reason=f"{', '.join(blocked)} did not pass")
            continue
        denials: list[str] = []
        usage: list[Usage] = []
        acted: set[str] = set()  # the tools a model-driven persona's actions used

        async def judge(spec: EvaluatorSpec = spec) -> list[JudgedCriterion]:
            repeat = passes if model_based(spec) else 1
            if spec.kind == "ui" and spec.backend != "run":
                runs = []
                for k in range(repeat):
                    check_tokens(spec, usage)
                    pass_dir = evidence_dir / f"pass-{k + 1}" if evidence_dir and k else \
                        evidence_dir
                    got, denied, tools = await _persona(spec, bt, url, pass_dir, model, usage)
                    acted.update(tools)
                    runs.append(got)
                    denials.extend(d for d in denied if d not in denials)
                return combine_passes(runs)
            # reads records and files: off the event loop
            criteria = await asyncio.to_thread(_judge, spec, bt, workspace, deploy, evaluation)
            await _reviewed(spec, bt, workspace, criteria, model, repeat, usage)
            return criteria

        try:
            try:
                criteria = await asyncio.wait_for(judge(), spec.budget.seconds)
            except TimeoutError:
                raise OverBudget(f"time budget of {spec.budget.seconds:g}s spent") from None
        except Exception as exc:  # noqa: BLE001 - the harness's failure, recorded
            results[spec.id] = EvaluatorResult(
                evaluator=spec.id, stage=spec.stage, status="error", max_points=spec.points,
                reason=f"{type(exc).__name__}: {exc}", usage=usage,
                duration_s=time.perf_counter() - t0)
            continue
        if spec.kind == "ui" and spec.backend == "run":  # the pass rate, not pass/fail
            score: float | None = spec.points * _ui_rate(bt, evaluation)
        else:
            score = score_of(spec, criteria)
        results[spec.id] = EvaluatorResult(
            evaluator=spec.id, stage=spec.stage, status="judged", score=score,
            max_points=spec.points, criteria=criteria, denials=denials, usage=usage,
            tools=sorted(acted) if spec.kind == "ui" and model_based(spec)
            else tools_used(spec, bt),
            duration_s=time.perf_counter() - t0)
    return results


def jury_score(results: Mapping[str, EvaluatorResult]) -> tuple[float, float] | None:
    """(points, out of) over the evaluators that were judged or skipped; None when none was.
    An evaluator in error, or with nothing applicable, leaves both sums."""
    scored = [r for r in results.values() if r.status != "error" and r.score is not None]
    if not scored:
        return None
    return sum(r.score for r in scored), sum(r.max_points for r in scored)  # type: ignore[misc]
