"""The experiment commands of ``asuka``: sweep, reeval, report, export.

Thin over asuka.loop.experiments, asuka.loop.reeval and asuka.report; ``register(app)`` adds them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from asuka.cli._common import ReuseOpt
from asuka.log.cellspec import CellSpec
from asuka.log.store import RunStore

console = Console()
err = Console(stderr=True)

BenchOpt = Annotated[Path | None, typer.Option(
    "--bench", help="Benchmark directory (default: the experiment's, or the bundled one).")]


AllowChangedOpt = Annotated[bool, typer.Option(
    "--allow-changed-tasks",
    help="Score the run even if a task changed since its cells were recorded (the changed "
         "tasks are named) or is missing (its cells are listed as not scored).")]


def _notices(lines: Sequence[str]) -> None:
    """Provenance warnings and what --allow-changed-tasks let through, on stderr."""
    for line in lines:
        err.print(f"[yellow]note[/yellow] {escape(line)}", highlight=False, soft_wrap=True)


def before_running(specs: Sequence[CellSpec]) -> None:
    """Every configuration's setup checked before the first cell (exit 2, nothing written, on a
    problem), and the one warning about judging real agents by scripted checks alone."""
    from asuka.loop.runner import preflight_specs, scripted_warning

    problems = preflight_specs(list(specs))
    if problems:
        for p in problems:
            err.print(f"[red]setup error[/red] {escape(p)}", highlight=False, soft_wrap=True)
        err.print("nothing was run (fix the setup and run again)")
        raise typer.Exit(2)
    if (warning := scripted_warning(list(specs))) is not None:
        err.print(f"[yellow]warning[/yellow] {escape(warning)}", highlight=False, soft_wrap=True)


def _problems(exc: Exception) -> None:
    for line in str(exc).splitlines():
        err.print(f"[red]error[/red] {escape(line)}", highlight=False, soft_wrap=True)


def sweep(
    experiment: Annotated[Path, typer.Argument(help="Experiment YAML (experiments/*.yaml).")],
    run_id: Annotated[str | None, typer.Option(
        help="Run id; an existing one is resumed (finished cells are skipped).")] = None,
    out: Annotated[Path, typer.Option(help="Directory that holds runs.")] = Path("runs"),
    cells: Annotated[str | None, typer.Option(
        help="Cells run at once: a number, or auto (one per core, as memory allows; "
             "default: the experiment's `cells`).")] = None,
    browser_concurrency: Annotated[int | None, typer.Option(
        min=1, help="Browser contexts at once per cell (default: the experiment's).")] = None,
    bench: BenchOpt = None,
    task: Annotated[list[str] | None, typer.Option(
        "--task", "--tasks", "-t",
        help="Only these task ids (repeatable; commas allowed).")] = None,
    agent: Annotated[list[str] | None, typer.Option(
        "--agent", "-a", help="Only the agents with these labels (repeatable).")] = None,
    max_rounds: Annotated[int | None, typer.Option(
        min=1, help="Cap every round budget (quick checks).")] = None,
    executor: Annotated[str, typer.Option(help="local, or ray.")] = "local",
    ray_address: Annotated[str | None, typer.Option(
        help="Ray cluster for --executor ray: an address (127.0.0.1:6379), 'auto', or "
             "'local' to start one here. The run directory must be shared with the workers."
    )] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List the cells and stop.")] = False,
    unsandboxed_agents: Annotated[bool, typer.Option(
        "--unsandboxed-agents", help="Where no sandbox can be had, run agent processes "
                                     "unsealed (recorded in the run).")] = False,
    reuse: ReuseOpt = True,
) -> None:
    """Run an experiment grid: every cell of EXPERIMENT, with bounded concurrency and resume."""
    from asuka.benchmark.loading import load_bench
    from asuka.loop.cell import with_unsandboxed_agents
    from asuka.loop.executor import cells_at_once, parse_cells
    from asuka.loop.experiments import ExperimentError, expand, load_experiment
    from asuka.loop.progress import CellProgress
    from asuka.loop.runner import new_run_id, save_run_config, table1
    from asuka.loop.sweep import run_sweep

    if executor not in ("local", "ray"):
        raise typer.BadParameter(f"unknown executor {executor!r}; known: local, ray",
                                 param_hint="--executor")
    try:
        exp = load_experiment(experiment)
        root = bench or (experiment.parent / exp.bench if exp.bench else None)
        tasks, problems = load_bench(root)
        if problems:
            raise ExperimentError(problems)
        ids = [t for arg in task or [] for t in arg.split(",") if t]
        specs = expand(exp, tasks, task_ids=ids or None, agent_labels=agent or None,
                       max_rounds=max_rounds, concurrency=browser_concurrency)
    except ExperimentError as exc:
        _problems(exc)
        raise typer.Exit(1) from None
    if unsandboxed_agents:
        specs = [with_unsandboxed_agents(s) for s in specs]
    if dry_run:
        for s in specs:
            console.print(s.cell_id, highlight=False)
        console.print(f"{len(specs)} cell(s)")
        return
    before_running(specs)
    rid = run_id or new_run_id()
    store = RunStore(out / rid)
    bench_dir = Path(tasks[0].root).parent.parent.resolve() if tasks else Path(".")
    save_run_config(store, specs, bench_dir, reuse, exp.tau)
    store.write_experiment({"file": str(experiment), "experiment": exp.model_dump(mode="json")})
    try:
        n_cells = parse_cells(cells) if cells is not None else exp.cells
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--cells") from None
    console.print(f"run [bold]{rid}[/bold]: {exp.name}: {len(specs)} cell(s), "
                  f"{cells_at_once(n_cells, len(specs))} at once, executor {executor}")
    try:
        with CellProgress(specs, store, console) as bars:
            summary = run_sweep(specs, {t.id: t for t in tasks}, store, cells=n_cells,
                                executor=executor, ray_address=ray_address,
                                on_round=bars.on_round, on_done=bars.on_done, tick=bars.tick)
    except RuntimeError as exc:
        _problems(exc)
        raise typer.Exit(1) from None
    console.print(table1(summary, title=f"{rid}: cumulative weighted task pass rate (%)",
                         plain=not console.is_terminal))
    if summary["skipped_cells"]:
        console.print(f"{summary['skipped_cells']} cell(s) were already finished (skipped)")
    console.print(f"run directory: {store.root}")
    if summary["failed_cells"]:
        err.print(f"[red]{len(summary['failed_cells'])} cell(s) failed[/red]")
        raise typer.Exit(1)


def reeval(
    run: Annotated[Path, typer.Argument(help="The recorded run's directory (runs/<id>).")],
    threshold: Annotated[float, typer.Option(min=0.0, max=1.0,
                                             help="Soft-satisfaction threshold T.")] = 0.5,
    protocol: Annotated[str, typer.Option(help="dag, flat or full.")] = "full",
    out: Annotated[str | None, typer.Option(
        help="New run id, created beside RUN (default: <run>.reeval-<protocol>-T<T>).")] = None,
    bench: BenchOpt = None,
    cells: Annotated[int, typer.Option(min=1, help="Cells re-evaluated at once.")] = 1,
    concurrency: Annotated[int | None, typer.Option(
        min=1, help="Browser contexts at once per cell (default: as recorded).")] = None,
    allow_changed_tasks: AllowChangedOpt = False,
) -> None:
    """Score a run again under another threshold/protocol: re-deploy each round's workspace
    snapshot and evaluate it again, into a new run (nothing is overwritten, nothing generated)."""
    from asuka.log.provenance import ChangedTasksError
    from asuka.loop.reeval import ReevalError, reeval_run

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console) as progress:
        n = len(RunStore(run).cells()) if RunStore.is_run_dir(run) else 0
        bar = progress.add_task("re-evaluating", total=n)

        def on_done(cid: str, error: str | None) -> None:
            progress.advance(bar)
            if error:
                progress.console.print(f"[red]cell failed[/red] {cid}: {escape(error)}")

        def on_event(cid: str, r: int, phase: str) -> None:
            progress.update(bar, description=f"{cid[:44]} r{r} {phase}")

        try:
            target, summary = reeval_run(run, threshold=threshold, protocol=protocol,
                                         run_id=out, bench=bench, cells=cells,
                                         concurrency=concurrency, on_event=on_event,
                                         on_done=on_done,
                                         allow_changed_tasks=allow_changed_tasks)
        except (ReevalError, ChangedTasksError) as exc:
            _problems(exc)
            raise typer.Exit(1) from None
    _notices(summary.get("notes", []))
    for c in summary.get("reeval_of", {}).get("not_reevaluated", []):
        err.print(f"[yellow]not re-evaluated[/yellow] {escape(c['cell_id'])}: "
                  f"{escape(c['reason'])}", highlight=False)
    console.print(f"re-evaluated run: {target}")
    if summary["failed_cells"]:
        err.print(f"[red]{len(summary['failed_cells'])} cell(s) failed[/red]")
        raise typer.Exit(1)


def report(
    run: Annotated[Path, typer.Argument(help="The run's directory (runs/<id>).")],
    format: Annotated[str, typer.Option(  # noqa: A002
        "--format", "-f", help="Comma-separated: md, csv, latex, html.")] = "md,csv,latex,html",
    out: Annotated[Path | None, typer.Option(help="Output directory (default: RUN/report).")
                   ] = None,
    bench: BenchOpt = None,
    view: Annotated[str, typer.Option(help="cumulative or same-artifact.")] = "cumulative",
    ci: Annotated[str, typer.Option(help="CI method: normal or bootstrap.")] = "normal",
    tau: Annotated[float | None, typer.Option(
        min=0.01, max=1.0, help="The acceptance contracts' completion threshold (default: "
        "the run's, from its experiment's `tau:`, else 0.8).")] = None,
    allow_changed_tasks: AllowChangedOpt = False,
) -> None:
    """Tables 1-3, the per-type breakdown, Figures 4-6 and a static HTML viewer of a run."""
    from asuka.report import ChangedTasksError, RunNotFound, build_report

    formats = [f.strip() for f in format.split(",") if f.strip()]
    try:
        written = build_report(run, formats, out, bench, view, ci, allow_changed_tasks, tau)
    except (ValueError, RunNotFound, ChangedTasksError) as exc:
        _problems(exc)
        raise typer.Exit(1) from None
    if "md" in written:  # Table 1 and the notes, as written into report.md
        text = written["md"][0].read_text(encoding="utf-8")
        table1 = text.split("\n### ")[1].split("\n![")[0].split("\n### ")[0]
        console.print("### " + table1.strip(), highlight=False, markup=False)
        console.print(text[text.rindex("**Notes**"):].strip(), highlight=False, markup=False)
    for fmt, paths in written.items():
        for p in paths:
            console.print(f"{fmt:8} {p}", highlight=False)


def export(
    run: Annotated[Path, typer.Argument(help="The run's directory (runs/<id>).")],
    format: Annotated[str, typer.Option(  # noqa: A002
        "--format", "-f", help="csv, parquet or jsonl.")] = "csv",
    out: Annotated[Path | None, typer.Option(
        help="Output file (default: RUN/verdicts.<format>).")] = None,
    bench: BenchOpt = None,
    allow_changed_tasks: AllowChangedOpt = False,
) -> None:
    """One row per criterion verdict (run, cell, agent, task, ..., status, reason), for pandas."""
    from asuka.report import ChangedTasksError, RunNotFound
    from asuka.report.export import ExportError, export_run

    try:
        path, n, notices = export_run(run, format, out, bench, allow_changed_tasks)
    except (ExportError, RunNotFound, ChangedTasksError) as exc:
        _problems(exc)
        raise typer.Exit(1) from None
    _notices(notices)
    console.print(f"{n} row(s) -> {path}", highlight=False)


def agree(
    run_a: Annotated[Path, typer.Argument(help="One run's directory.")],
    run_b: Annotated[Path | None, typer.Argument(help="The other run's directory.")] = None,
    humans: Annotated[bool, typer.Option(
        "--humans", help="The run's judge against the people who labelled it (asuka "
                         "annotate) instead of another run.")] = False,
    out: Annotated[Path | None, typer.Option(help="Also write the result as JSON here.")
                   ] = None,
    bench: BenchOpt = None,
    allow_changed_tasks: AllowChangedOpt = False,
) -> None:
    """Agreement of two runs' evaluators on the artifacts both judged (paired by task and
    workspace content): percent agreement, Cohen's kappa, Gwet's AC1, macro-F1, score
    correlations, and the criteria they disagree on. With --humans: the judge against
    human labels (accuracy, precision, recall, F1, kappa, AC1 with bootstrap CIs)."""
    import json

    if humans:
        from asuka.cli.annotate import print_human_agreement

        print_human_agreement(run_a, bench, out)
        return
    if run_b is None:
        err.print("[red]error[/red] give a second run, or --humans")
        raise typer.Exit(2)

    from asuka.report import ChangedTasksError, RunNotFound
    from asuka.report.agree import compare_runs

    try:
        res = compare_runs(run_a, run_b, bench, allow_changed_tasks)
    except (RunNotFound, ChangedTasksError) as exc:
        _problems(exc)
        raise typer.Exit(1) from None
    if not res.artifacts:
        err.print(f"[red]no artifact judged in both {res.run_a} and {res.run_b}[/red] (rounds "
                  "pair by task and workspace content)")
        raise typer.Exit(1)
    s = res.stats

    def num(x: float) -> str:
        return "–" if x != x else f"{x:.3f}"

    console.print(f"{res.run_a} vs {res.run_b}: {res.artifacts} artifact(s), {res.compared} "
                  f"criteria compared, {res.undecided} undecided or not run on one side",
                  highlight=False)
    console.print(f"percent agreement {num(s['percent_agreement'])} · Cohen's kappa "
                  f"{num(s['cohen_kappa'])} · Gwet's AC1 {num(s['gwet_ac1'])} · macro-F1 "
                  f"{num(s['macro_f1'])} · scores Pearson {num(res.score_pearson)}, Spearman "
                  f"{num(res.score_spearman)}", highlight=False)
    for d in res.disagreements[:20]:
        console.print(f"  {d['task']} {d['criterion']}: {d['a']} ({d['a_at']}) vs {d['b']} "
                      f"({d['b_at']})", highlight=False, markup=False)
    if len(res.disagreements) > 20:
        console.print(f"  ... and {len(res.disagreements) - 20} more", highlight=False)
    if out is not None:
        out.write_text(json.dumps(res.json(), indent=1), encoding="utf-8")
        console.print(f"json     {out}", highlight=False)


def register(app: typer.Typer) -> None:
    for fn in (sweep, reeval, report, export, agree):
        app.command()(fn)
