"""``asuka validate --mutants``: proof that a task's checks measure something.

1. Every check passes on the full reference app.
2. For each feature, the app without it fails exactly the evaluation tasks the feature is mapped
   to: a mapped task that still passes is *vacuous*; a failing task that is not mapped is an
   *unmapped dependency* (the simulator would mispredict it).
3. The same for each broken variant, against the feature's ``broken`` list.

Every mutant is evaluated under the flat protocol, so that no gating hides a failure. A failure
outside the expected set is evaluated a second time and counts only if it repeats.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from asuka.deploy import Deployer
from asuka.evaluate import EvalSettings, evaluate_workspace
from asuka.features import FeatureState, features_in, prepare_workspace
from asuka.schema import BenchTask, RoundEvaluation
from asuka.uiagents import UIAgent
from asuka.uiagents import get as get_ui_agent


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

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)


def _failed(ev: RoundEvaluation) -> set[str]:
    return {i for i, r in ev.results.items() if r.status != "passed"}


def _reasons(ev: RoundEvaluation, ids: set[str]) -> list[str]:
    out = []
    for i in sorted(ids):
        r = ev.results[i]
        bad = [v for v in r.verdicts if v.status != "pass"]
        out.append(f"{i}: " + ("; ".join(f"{v.criterion_id}: {v.reason}" for v in bad[:3])
                               or r.error or r.status))
    return out


async def check_task(bench_task: BenchTask, ui_agent: UIAgent, deployer: Deployer,
                     concurrency: int = 3, progress=None) -> TaskMutantReport:
    task = bench_task.task
    report = TaskMutantReport(task.id)
    settings = EvalSettings(protocol="flat", concurrency=concurrency, max_retry=1)
    root = Path(bench_task.root)
    marked = features_in(root / task.reference) if task.reference else {}
    plan: list[tuple[str | None, FeatureState, set[str]]] = [(None, "ok", set())]
    for name, feat in task.features.items():
        plan.append((name, "missing", set(feat.tasks)))
        if "broken" in marked.get(name, set()):
            plan.append((name, "broken", set(feat.broken if feat.broken is not None
                                               else feat.tasks)))
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
    return report


async def check_tasks(tasks: list[BenchTask], concurrency: int = 3,
                      ui: str = "scripted", progress=None,
                      ui_options: dict | None = None) -> list[TaskMutantReport]:
    agent = get_ui_agent(ui, **(ui_options or {}))
    deployer = Deployer()
    return [await check_task(t, agent, deployer, concurrency, progress) for t in tasks]


def check_mutants_cli(tasks: list[BenchTask], concurrency: int, console: Console,
                      ui_options: dict | None = None) -> bool:
    with Progress(console=console, transient=False) as progress:
        reports = asyncio.run(check_tasks(tasks, concurrency, progress=progress,
                                          ui_options=ui_options))
    ok = True
    for rep in reports:
        n = len(rep.results)
        bad = [r for r in rep.results if not r.ok]
        if not bad:
            console.print(f"[green]ok[/green] {rep.task_id}: reference passes every check; "
                          f"{n - 1} mutant(s) fail exactly their mapped tasks")
            continue
        ok = False
        console.print(f"[red]FAIL[/red] {rep.task_id}: {len(bad)} of {n} mutant run(s) wrong")
        for r in bad:
            label = "reference" if r.feature is None else f"{r.feature} ({r.state})"
            for p in r.problems:
                console.print(f"  {label}: {p}", highlight=False, soft_wrap=True)
    return ok
