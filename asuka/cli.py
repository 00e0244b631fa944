"""The ``asuka`` command: a thin layer over the modules (each command mirrors a Python API)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from asuka.bench import default_bench_dir, load_bench
from asuka.stats import PAPER, bench_stats

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Asuka: closed-loop, multi-round benchmark of code agents on web apps.")
console = Console()
err = Console(stderr=True)

BenchOpt = Annotated[Path | None, typer.Option(
    "--bench", help="Benchmark directory with tasks/, prds/, dags/ (default: the bundled one).")]


def _bench(bench: Path | None) -> Path:
    return bench if bench is not None else default_bench_dir()


@app.command()
def validate(
    ids: Annotated[list[str] | None, typer.Argument(help="Task ids (default: all).")] = None,
    bench: BenchOpt = None,
    mutants: Annotated[bool, typer.Option(
        "--mutants", help="Also run every check on the reference app and on each feature "
                          "mutant (needs Chromium).")] = False,
    concurrency: Annotated[int, typer.Option(help="Browser contexts at once (--mutants).")] = 3,
) -> None:
    """Check tasks, PRDs and DAGs; print each problem with file, field and reason."""
    root = _bench(bench)
    tasks, problems = load_bench(root, ids)
    for p in problems:
        err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
    if problems:
        err.print(f"[red]{len(problems)} problem(s)[/red] in {root}")
        raise typer.Exit(1)
    console.print(f"[green]ok[/green] {len(tasks)} task(s) valid in {root}")
    if mutants:
        from asuka.mutants import check_mutants_cli

        if not check_mutants_cli(tasks, concurrency=concurrency, console=console):
            raise typer.Exit(1)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


@app.command()
def stats(
    ids: Annotated[list[str] | None, typer.Argument(help="Task ids (default: all).")] = None,
    bench: BenchOpt = None,
) -> None:
    """Benchmark statistics (paper §3.3), beside the paper's."""
    tasks, problems = load_bench(_bench(bench), ids)
    if problems:
        for p in problems:
            err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
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
        rows.append((f"type: {t}", _pct(share), _pct(PAPER["types"][t])))
    rows += [
        ("weight mean", f"{s.weight_mean:.2f}", str(PAPER["weight_mean"])),
        ("DAG depth mean", f"{s.dag_depth_mean:.1f}", str(PAPER["dag_depth_mean"])),
        ("DAG depth max", str(s.dag_depth_max), str(PAPER["dag_depth_max"])),
    ]
    for c, share in s.categories.items():
        rows.append((f"category: {c}", _pct(share), _pct(PAPER["categories"][c])))
    for r in rows:
        table.add_row(*r)
    console.print(table)


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
