"""``asuka validate --mutants``: proof that a task's checks measure something.

1. Every check passes on the full reference app.
2. For each feature, the app without it fails exactly the evaluation tasks the feature is mapped
   to: a mapped task that still passes is *vacuous*; a failing task that is not mapped is an
   *unmapped dependency* (the simulator would mispredict it).
3. The same for each broken variant, against the feature's ``broken`` list.

A complete run (no ``--feature``) that passes writes the task's proof (``asuka.benchmark.proof``).

Every mutant is evaluated under the flat protocol, so that no gating hides a failure. A failure
outside the expected set is evaluated a second time and counts only if it repeats.
"""

from __future__ import annotations

import asyncio
import signal
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from asuka.benchmark.features import FeatureState, features_in, prepare_workspace
from asuka.benchmark.proof import write_proof
from asuka.deploy import Deployer
from asuka.protocol.evaluate import EvalSettings, evaluate_workspace
from asuka.schema import BenchTask, RoundEvaluation
from asuka.uiagents import UIAgent
from asuka.uiagents import get as get_ui_agent
from asuka.uiagents.scripted.agent import NOT_RUN_AFTER_FAILURE
from asuka.uiagents.scripted.code_fingerprint import judge_fingerprint
from asuka.uiagents.scripted.criterion import BACKEND as SCRIPTED

# More patient than a run's defaults (action 3 s, assertion 1.5 s): a proof must not fail a
# correct reference because the machine was busy; only failing checks pay the extra wait.
# A proof needs each task's pass/fail only, so a task stops at its first failing criterion.
MUTANT_UI_DEFAULTS = {"action_timeout_s": 6.0, "assert_timeout_s": 3.0,
                      "stop_at_first_failure": True}


@dataclass
class MutantResult:
    feature: str | None          # None: the full reference app
    state: FeatureState
    expected: set[str]
    failed: set[str]
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class TaskMutantReport:
    task_id: str
    results: list[MutantResult] = field(default_factory=list)
    # the resolution ladder's deterministic rungs were on (asuka.uiagents.scripted.ladder): a relaxed or
    # adapted step let no mutant pass
    ladder: bool | None = None
    # the fingerprint of the judge's code that decided the runs
    # (asuka.uiagents.scripted.code_fingerprint); None for another UI agent
    judge: str | None = None

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)


def _failed(ev: RoundEvaluation) -> set[str]:
    return {i for i, r in ev.results.items() if r.status != "passed"}


def _reasons(ev: RoundEvaluation, ids: set[str]) -> list[str]:
    out = []
    for i in sorted(ids):
        r = ev.results[i]
        bad = [v for v in r.verdicts if v.status != "pass"
               and v.reason != NOT_RUN_AFTER_FAILURE]
        out.append(f"{i}: " + ("; ".join(f"{v.criterion_id}: {v.reason}" for v in bad[:3])
                               or r.error or r.status))
    return out


def plan_for(bench_task: BenchTask, features: list[str] | None = None
             ) -> list[tuple[str | None, FeatureState, set[str]]]:
    """(feature, state, expected failures) of every run: the reference first, then each
    feature missing and, where it has a broken variant, broken. ``features`` narrows the
    mutants to those names (``reference`` alone: only the reference run)."""
    task = bench_task.task
    root = Path(bench_task.root)
    marked = features_in(root / task.reference) if task.reference else {}
    unknown = sorted(set(features or []) - set(task.features) - {"reference"})
    if unknown:
        raise ValueError(f"{task.id}: no feature {', '.join(unknown)}; features: "
                         f"{', '.join(task.features)}")
    plan: list[tuple[str | None, FeatureState, set[str]]] = [(None, "ok", set())]
    for name, feat in task.features.items():
        if features and name not in features:
            continue
        plan.append((name, "missing", set(feat.tasks)))
        if "broken" in marked.get(name, set()):
            plan.append((name, "broken", set(feat.broken if feat.broken is not None
                                               else feat.tasks)))
    return plan


async def check_task(bench_task: BenchTask, ui_agent: UIAgent, deployer: Deployer,
                     concurrency: int = 3, progress=None, features: list[str] | None = None,
                     log: Callable[[str], None] | None = None) -> TaskMutantReport:
    task = bench_task.task
    judge = judge_fingerprint() if ui_agent.name == SCRIPTED else None
    report = TaskMutantReport(task.id, ladder=getattr(ui_agent, "ladder", None), judge=judge)
    settings = EvalSettings(protocol="flat", concurrency=concurrency, max_retry=1)
    root = Path(bench_task.root)
    plan = plan_for(bench_task, features)
    tid = progress.add_task(task.id, total=len(plan)) if progress else None
    with tempfile.TemporaryDirectory(prefix=f"asuka-mutants-{task.id}-") as tmp:
        for k, (name, state, expected) in enumerate(plan):
            ws = prepare_workspace(root, task.reference, task.data, Path(tmp) / f"m{k}",
                                   {name: state} if name else {})
            out = await evaluate_workspace(bench_task, ws, ui_agent, deployer, settings)
            ev = out.evaluation
            failed = _failed(ev)
            if ev.deploy_ok and failed - expected:
                # An unexpected failure must repeat to count: on a loaded machine a check can
                # time out once; a real dependency fails again on the same workspace.
                again = await evaluate_workspace(bench_task, ws, ui_agent, deployer, settings)
                if again.evaluation.deploy_ok:
                    failed = (failed & expected) | (failed & _failed(again.evaluation))
            res = MutantResult(name, state, expected, failed)
            if not ev.deploy_ok:
                res.problems.append(f"deploy failed: {ev.deploy_error}")
            elif name is None:
                if failed:
                    res.problems += [f"fails on the full reference app: {x}"
                                     for x in _reasons(ev, failed)]
            else:
                for t in sorted(expected - failed):
                    res.problems.append(f"vacuous: {t} still passes with {name} {state}")
                for x in _reasons(ev, failed - expected):
                    res.problems.append(f"unmapped dependency: with {name} {state}, {x}")
            report.results.append(res)
            if progress:
                progress.advance(tid)
            label = "reference" if name is None else f"{name} {state}"
            if log:
                log(f"{task.id} [{k + 1}/{len(plan)}] {label}: "
                    + ("ok" if res.ok else f"{len(res.problems)} problem(s)"))
            # problems are shown as they happen: a long run need not be waited out (or
            # killed) to learn what went wrong; the summary at the end repeats them
            say = log or (None if progress is None else lambda line: progress.console.print(
                line, markup=False, highlight=False, soft_wrap=True))
            if say:
                for p in res.problems:
                    say(f"  {task.id} {label}: {p}")
    return report


async def check_tasks(tasks: list[BenchTask], concurrency: int = 3,
                      ui: str = "scripted", progress=None,
                      ui_options: dict | None = None, features: list[str] | None = None,
                      log: Callable[[str], None] | None = None,
                      on_report: Callable[[TaskMutantReport], None] | None = None,
                      ) -> list[TaskMutantReport]:
    """Check the tasks one after another; ``on_report`` sees each report as soon as its task
    is done (so a long multi-task run keeps what it proved if it is stopped later)."""
    agent = get_ui_agent(ui, **{**MUTANT_UI_DEFAULTS, **(ui_options or {})})
    deployer = Deployer()
    reports = []
    for t in tasks:
        reports.append(await check_task(t, agent, deployer, concurrency, progress, features,
                                        log))
        if on_report:
            on_report(reports[-1])
    return reports


def _terminate_cleanly(signum: int, frame: object) -> None:
    # SIGTERM unwinds like Ctrl-C, so temporary workspaces and browsers are cleaned up
    raise KeyboardInterrupt


def check_mutants_cli(tasks: list[BenchTask], concurrency: int, console: Console,
                      ui_options: dict | None = None,
                      features: list[str] | None = None) -> bool:
    for t in tasks:  # unknown feature names fail before any browser starts
        plan_for(t, features)
    by_id = {t.id: t for t in tasks}
    failed: list[str] = []

    def report(rep: TaskMutantReport) -> None:
        n = len(rep.results)
        bad = [r for r in rep.results if not r.ok]
        if not bad:
            console.print(f"[green]ok[/green] {rep.task_id}: reference passes every check; "
                          f"{n - 1} mutant(s) fail exactly their mapped tasks")
            if features is None:  # only a complete run proves the task
                path = write_proof(by_id[rep.task_id], rep)
                shown = path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
                console.print(f"   proof written to {shown}", highlight=False, soft_wrap=True)
            return
        failed.append(rep.task_id)
        console.print(f"[red]FAIL[/red] {rep.task_id}: {len(bad)} of {n} mutant run(s) wrong")
        for r in bad:
            label = "reference" if r.feature is None else f"{r.feature} ({r.state})"
            for p in r.problems:
                console.print(f"  {label}: {p}", markup=False, highlight=False,
                              soft_wrap=True)

    previous = signal.signal(signal.SIGTERM, _terminate_cleanly)
    try:
        # on a terminal a progress bar; otherwise (CI, logs) one line per mutant run
        with Progress(console=console, transient=False,
                      disable=not console.is_terminal) as progress:
            log = None if console.is_terminal else (
                lambda line: console.print(line, markup=False, highlight=False,
                                           soft_wrap=True))
            asyncio.run(check_tasks(tasks, concurrency, progress=progress,
                                    ui_options=ui_options, features=features, log=log,
                                    on_report=report))
    finally:
        signal.signal(signal.SIGTERM, previous)
    if len(tasks) > 1:
        console.print(f"{len(tasks) - len(failed)} of {len(tasks)} task(s) passed"
                      + (f"; failed: {', '.join(failed)}" if failed else ""))
    return not failed
