"""``asuka import``: benchmarks of other formats as Asuka tasks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from asuka.cli._common import console, err

imports = typer.Typer(no_args_is_help=True, help="Import tasks from another benchmark's format.")


@imports.command("web-bench")
def web_bench(
    source: Annotated[Path, typer.Argument(help="A local checkout of Web-Bench (or one of its "
                                                "project folders).")],
    out: Annotated[Path, typer.Option(help="The benchmark directory to write the tasks into "
                                           "(tasks/, prds/, dags/).")] = Path("webbench-bench"),
    project: Annotated[list[str] | None, typer.Option(
        "--project", help="Only this project (repeatable).")] = None,
) -> None:
    """Each Web-Bench project becomes one task (wb-<project>): its tasks in order as
    evaluation tasks chained in the DAG, each decided by its Playwright Test spec."""
    from asuka.benchmark.loading import load_bench
    from asuka.benchmark.webbench import WebBenchError, import_webbench

    try:
        result = import_webbench(source, out, project)
    except (WebBenchError, OSError) as exc:
        err.print(f"[red]error[/red] {exc}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    done = result.imported
    _, problems = load_bench(out, [d.task_id for d in done]) if done else ([], [])
    for d in done:
        note = f" (no tests, left out: {', '.join(d.skipped)})" if d.skipped else ""
        libs = f" (libraries: {', '.join(d.libraries)})" if d.libraries else ""
        console.print(f"{d.task_id}: {d.eval_tasks} evaluation tasks, {d.criteria} criteria"
                      f"{note}{libs}", highlight=False)
    for left in result.left_out:
        err.print(f"[yellow]left out[/yellow] {left.project}: {left.reason}", highlight=False,
                  soft_wrap=True)
    for p in problems:
        err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
    console.print(f"imported {len(done)} project(s), left out {len(result.left_out)}",
                  highlight=False)
    if problems or not done or (project and result.left_out):
        raise typer.Exit(1)
    console.print(f"benchmark: {out}  (asuka run --bench {out} --task <id>)", highlight=False)


def register(app: typer.Typer) -> None:
    app.add_typer(imports, name="import")
