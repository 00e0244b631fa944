"""``asuka validate``, ``asuka stats``, ``asuka preview``: the benchmark itself."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from asuka.benchmark.loading import load_bench
from asuka.benchmark.stats import JOYFRONT_CAPABILITIES, PAPER, bench_stats
from asuka.cli._common import BenchOpt, bench_dir, console, err, parse_opts, pct


def validate(
    ids: Annotated[list[str] | None, typer.Argument(help="Task ids (default: all).")] = None,
    bench: BenchOpt = None,
    mutants: Annotated[bool, typer.Option(
        "--mutants", help="Also run every check on the reference app and on each feature "
                          "mutant (needs Chromium).")] = False,
    concurrency: Annotated[int, typer.Option(help="Browser contexts at once (--mutants).")] = 3,
    ui_opt: Annotated[list[str] | None, typer.Option(
        "--ui-opt", help="Scripted-agent option KEY=VALUE for --mutants, e.g. "
                         "action_timeout_s=8 on a busy machine.")] = None,
    feature: Annotated[list[str] | None, typer.Option(
        "--feature", "-f", help="With --mutants: only these features' mutants (repeatable; "
                                "'reference' alone runs only the reference app).")] = None,
    drafts: Annotated[bool, typer.Option(
        "--drafts", help="With --mutants and no ids: the draft tasks too.")] = False,
    skip_proven: Annotated[bool, typer.Option(
        "--skip-proven", help="With --mutants: leave out tasks whose proof.json is current "
                              "(the task as it is, proven by the judge as it is), so an "
                              "interrupted proving run resumes and a changed judge re-proves "
                              "what it made stale.")] = False,
    lint_markup: Annotated[bool, typer.Option(
        "--lint-markup", help="List every check step that reads the reference app's markup "
                              "(ids, classes, data-* attributes, test ids) or wording the PRD "
                              "does not give, and a count per task.")] = False,
    strict_markup: Annotated[bool, typer.Option(
        "--strict-markup", help="Make those markup and wording warnings errors (exit 1).")] = False,
) -> None:
    """Check tasks, PRDs and DAGs; print each problem with file, field and reason."""
    root = bench_dir(bench)
    tasks, problems = load_bench(root, ids, drafts=drafts or not mutants)
    if not ids:
        from asuka.benchmark.subsets import check_subsets, load_subsets
        from asuka.evaluators import load_evaluators

        subsets, subset_problems = load_subsets(root)
        problems += subset_problems + check_subsets(subsets, tasks)
        problems += load_evaluators(root)[1]
    for p in problems:
        err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
    if problems:
        err.print(f"[red]{len(problems)} problem(s)[/red] in {root}")
        raise typer.Exit(1)
    drafts = [t.id for t in tasks if t.task.status == "draft"]
    console.print(f"[green]ok[/green] {len(tasks)} task(s) valid in {root}"
                  + (f" ({len(drafts)} draft: {', '.join(drafts)})" if drafts else ""))
    _print_proofs(tasks)
    from rich.markup import escape

    from asuka.benchmark.lint_markup import lint_tasks, per_task_lines, summary_line

    findings = lint_tasks(tasks)
    warnings = [f for f in findings if f.severity == "warning"]
    if lint_markup or strict_markup:
        for f in findings if lint_markup else warnings:
            if strict_markup and f.severity == "warning":
                err.print(f"[red]error[/red] {escape(str(f))}", highlight=False, soft_wrap=True)
            else:
                console.print(f"[yellow]{f.severity}[/yellow] {escape(str(f))}",
                              highlight=False, soft_wrap=True)
        for line in per_task_lines(findings):
            console.print(escape(line), highlight=False, soft_wrap=True)
    colour = "yellow" if warnings else "green"
    line = summary_line(findings)
    console.print(f"[{colour}]markup[/{colour}] {escape(line.removeprefix('markup '))}",
                  highlight=False, soft_wrap=True)
    if strict_markup and warnings:
        err.print(f"[red]{len(warnings)} markup problem(s)[/red] (--strict-markup)")
        raise typer.Exit(1)
    if mutants:
        from asuka.benchmark.proof import proof_judge, proof_state
        from asuka.proving.mutants import check_mutants_cli
        from asuka.uiagents.scripted.code_fingerprint import judge_fingerprint

        if skip_proven:
            proven = [t.id for t in tasks if proof_state(t) == "proven"
                      and proof_judge(t) == judge_fingerprint()]
            tasks = [t for t in tasks if t.id not in proven]
            if proven:
                console.print(f"skipping {len(proven)} proven task(s): {', '.join(proven)}",
                              highlight=False, soft_wrap=True)
            again = [t.id for t in tasks if proof_state(t) == "proven"]
            if again:
                console.print(f"proving again {len(again)} task(s) proven by another judge: "
                              f"{', '.join(again)}", highlight=False, soft_wrap=True)
            if not tasks:
                return
        try:
            ok = check_mutants_cli(tasks, concurrency=concurrency, console=console,
                                   ui_options=parse_opts(ui_opt or [], "--ui-opt"),
                                   features=feature)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--feature") from None
        if not ok:
            raise typer.Exit(1)


def _print_proofs(tasks: list) -> None:
    """Which tasks a complete mutants run has proven in their current version."""
    from asuka.benchmark.proof import proof_judge, proof_state, proven_with_ladder
    from asuka.uiagents.scripted.code_fingerprint import judge_fingerprint

    by_state: dict[str, list[str]] = {"proven": [], "stale": [], "unproven": []}
    for t in tasks:
        by_state[proof_state(t)].append(t.id)
    parts = [f"{len(ids)} {state}" + (f" ({', '.join(ids)})" if ids and state != "proven"
                                      else "")
             for state, ids in by_state.items() if ids]
    proven = [t for t in tasks if t.id in by_state["proven"]]
    before = [t.id for t in proven if not proven_with_ladder(t)]
    # a proof shows what the judge of its day decided: a rung added since may let a mutant pass
    other_judge = [t.id for t in proven if proof_judge(t) != judge_fingerprint()]
    notes = ([f"{len(before)} before the ladder: {', '.join(before)}"] if before else []) + (
        [f"{len(other_judge)} by another judge than today's: {', '.join(other_judge)}"]
        if other_judge else [])
    if notes:
        parts[0] += f" ({'; '.join(notes)})"
    colour = ("green" if not by_state["stale"] and not by_state["unproven"] and not notes
              else "yellow")
    console.print(f"[{colour}]proofs[/{colour}] " + ", ".join(parts)
                  + ("; prove with `asuka validate --mutants ID`" if colour == "yellow" else ""),
                  highlight=False, soft_wrap=True)



def stats(
    ids: Annotated[list[str] | None, typer.Argument(help="Task ids (default: all).")] = None,
    bench: BenchOpt = None,
    drafts: Annotated[bool, typer.Option(
        "--drafts", help="Count the draft tasks too.")] = False,
    per_task: Annotated[bool, typer.Option(
        "--per-task", help="Also one row per task, with its proof state.")] = False,
) -> None:
    """Benchmark statistics (paper §3.3), beside the paper's."""
    tasks, problems = load_bench(bench_dir(bench), ids, drafts=drafts)
    if problems:
        for p in problems:
            err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    if not tasks:
        err.print("[red]error[/red] no tasks to count (drafts are left out without --drafts)")
        raise typer.Exit(1)
    if per_task:
        # wider than a pipe's default 80 columns rather than cropping task names
        wide = console if console.width >= 110 else Console(width=110)
        wide.print(_per_task_table(tasks))
    s = bench_stats(tasks)
    table = Table(title="Benchmark statistics", show_lines=False)
    table.add_column("statistic")
    table.add_column("this benchmark", justify="right")
    table.add_column("paper", justify="right")
    rows = [
        ("tasks", str(s.tasks), str(PAPER["tasks"])),
        ("evaluation tasks", str(s.eval_tasks), str(PAPER["eval_tasks"])),
        ("expected outcomes (criteria)", str(s.criteria), str(PAPER["criteria"])),
        ("criteria with a scripted check", str(s.checked_criteria), "-"),
        ("evaluation tasks per task", f"{s.eval_tasks_per_task:.1f}",
         str(PAPER["eval_tasks_per_task"])),
        ("criteria per evaluation task", f"{s.criteria_per_eval_task:.1f}",
         str(PAPER["criteria_per_eval_task"])),
    ]
    for t, share in s.types.items():
        rows.append((f"type: {t}", pct(share), pct(PAPER["types"][t])))
    rows += [
        ("weight mean", f"{s.weight_mean:.2f}", str(PAPER["weight_mean"])),
        ("DAG depth mean", f"{s.dag_depth_mean:.1f}", str(PAPER["dag_depth_mean"])),
        ("DAG depth max", str(s.dag_depth_max), str(PAPER["dag_depth_max"])),
    ]
    for c, share in s.categories.items():
        rows.append((f"category: {c}", pct(share), pct(PAPER["categories"][c])))
    joy_total = sum(JOYFRONT_CAPABILITIES.values())
    rows += [("tasks with an acceptance contract", str(s.tasks_with_contracts), "-"),
             ("core evaluation tasks", str(s.core_tasks), "-"),
             ("pairwise presentation tasks", str(s.pairwise_tasks), "-"),
             ("mandatory criteria", str(s.mandatory_criteria), "-")]
    rows += [(f"difficulty {tier}", str(n), "-") for tier, n in s.tiers.items()]
    for c, n in JOYFRONT_CAPABILITIES.items():
        ours = "-" if s.capabilities is None else pct(s.capabilities[c])
        rows.append((f"capability: {c}", ours, f"{pct(n / joy_total)} (JoyFrontBench)"))
    for r in rows:
        table.add_row(*r)
    console.print(table)


def _per_task_table(tasks: list) -> Table:
    from rich import box

    from asuka.benchmark.proof import proof_state
    from asuka.benchmark.stats import difficulty
    from asuka.dag import CriterionDag

    table = Table(title="Tasks", box=box.SIMPLE_HEAD, pad_edge=False)
    for col, right in (("task", False), ("category", False), ("status", False),
                       ("evals", True), ("crit", True), ("weight", True),
                       ("depth", True), ("tier", False), ("proof", False)):
        table.add_column(col, justify="right" if right else "left", no_wrap=True)
    for t in sorted(tasks, key=lambda t: (t.task.category, t.id)):
        ets = t.task.eval_tasks
        table.add_row(t.id, t.task.category, t.task.status, str(len(ets)),
                      str(sum(len(e.criteria) for e in ets)),
                      f"{sum(e.weight for e in ets) / len(ets):.2f}",
                      str(CriterionDag.of(t.task, t.dag).depth()), difficulty(t)[0],
                      proof_state(t))
    return table


def preview(
    task_id: Annotated[str, typer.Argument(metavar="ID", help="Task id.")],
    missing: Annotated[list[str] | None, typer.Option(
        "--missing", help="Serve the app with this feature removed (repeatable).")] = None,
    broken: Annotated[list[str] | None, typer.Option(
        "--broken", help="Serve the app with this feature's broken variant (repeatable).")] = None,
    port: Annotated[int | None, typer.Option(help="Port on 127.0.0.1 (default: a free one).")]
    = None,
    screenshot: Annotated[Path | None, typer.Option(
        help="Write a full-page PNG of the app to this file and exit instead of serving.")] = None,
    bench: BenchOpt = None,
) -> None:
    """Serve a task's reference app (or a mutant of it) on 127.0.0.1 until Ctrl-C, or
    screenshot it."""
    import signal
    import threading

    from asuka.proving import preview as pv

    tasks, problems = load_bench(bench_dir(bench), [task_id], drafts=True)
    if problems:
        for p in problems:
            err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    (task,) = tasks
    try:
        states = pv.feature_states(task, missing or [], broken or [])
        with pv.serve(task, states, port) as url:
            what = ", ".join(f"{n} {s}" for n, s in states.items()) or "complete"
            if screenshot is not None:
                pv.screenshot(url, screenshot)
                console.print(f"{task.id} ({what}): {screenshot}", highlight=False)
                return
            console.print(f"{task.id} ({what}) at [bold]{url}[/bold]; Ctrl-C stops",
                          highlight=False)
            # Explicit handlers: a process started in the background inherits SIGINT ignored,
            # and SIGTERM should clean up (stop the server, remove the folder) as well.
            stop = threading.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, lambda *_: stop.set())
            while not stop.wait(1.0):
                pass
    except (ValueError, OSError) as exc:
        err.print(f"[red]error[/red] {exc}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from exc


def register(app: typer.Typer) -> None:
    for fn in (validate, stats, preview):
        app.command()(fn)
