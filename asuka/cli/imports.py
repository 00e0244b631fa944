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
    install: Annotated[bool, typer.Option(
        "--install", help="Also install each project's npm dependencies now (in the deploy "
                          "sandbox, into the cache every later deploy uses); a project whose "
                          "dependencies cannot be installed here is left out with the "
                          "reason.")] = False,
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
    if install:
        _install(out, result)
    done = result.imported
    _, problems = load_bench(out, [d.task_id for d in done]) if done else ([], [])
    for d in done:
        note = f" (no tests, left out: {', '.join(d.skipped)})" if d.skipped else ""
        libs = f" (libraries: {', '.join(d.libraries)})" if d.libraries else ""
        pins = (f", {d.pinned} dependenc{'y' if d.pinned == 1 else 'ies'} at the lockfile's "
                f"version{'' if d.pinned == 1 else 's'}" if d.pinned else "")
        console.print(f"{d.task_id}: {d.eval_tasks} evaluation tasks, {d.criteria} criteria"
                      f"{pins}{note}{libs}", highlight=False)
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


@imports.command("webgen-bench")
def webgen_bench(
    source: Annotated[Path, typer.Argument(help="WebGen-Bench's data/test.jsonl (one app "
                                                "request with its UI test cases a line).")],
    out: Annotated[Path, typer.Option(help="The benchmark directory to write the tasks into "
                                           "(tasks/, prds/, dags/).")] = Path("webgen-bench"),
    ids: Annotated[list[str] | None, typer.Option(
        "--id", help="Only this line's id (repeatable), e.g. 000001.")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="At most this many tasks.")] = None,
) -> None:
    """Each line of WebGen-Bench's test set becomes one task (wg-<id>): the instruction as the
    query, each UI test case an evaluation task whose one criterion the LLM UI agent judges
    (run with --ui browser-use or hybrid; no reference app, no check steps)."""
    from asuka.benchmark.loading import load_bench
    from asuka.benchmark.webgen import WebGenError, import_webgen

    try:
        result = import_webgen(source, out, ids, limit)
    except WebGenError as exc:
        err.print(f"[red]error[/red] {exc}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    done = result.imported
    _, problems = load_bench(out, [d.task_id for d in done]) if done else ([], [])
    for d in done:
        console.print(f"{d.task_id}: {d.test_cases} UI test case{'' if d.test_cases == 1 else 's'}"
                      f" ({d.category})",
                      highlight=False)
    for where, reason in result.left_out:
        err.print(f"[yellow]left out[/yellow] {where}: {reason}", highlight=False,
                  soft_wrap=True)
    for p in problems:
        err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
    console.print(f"imported {len(done)} task(s), {sum(d.test_cases for d in done)} test "
                  f"cases, left out {len(result.left_out)}", highlight=False)
    if problems or not done:
        raise typer.Exit(1)
    console.print(f"benchmark: {out}  (asuka run --bench {out} --task <id> --ui browser-use "
                  f"--ui-model <model>)", highlight=False)


def _install(bench: Path, result) -> None:
    """Install every imported project's dependencies; one that cannot be installed moves from
    ``imported`` to ``left_out`` (its task removed from the benchmark) with the reason."""
    from asuka.benchmark.loading import load_bench
    from asuka.benchmark.webbench import LeftOut, remove_task
    from asuka.deploy import Deployer
    from asuka.deploy.project import ProjectSetupError

    deployer = Deployer()
    for imp in list(result.imported):
        (bt,), _ = load_bench(bench, [imp.task_id])
        if bt.task.serve is None:
            continue
        err.print(f"installing {imp.project}'s dependencies ...", highlight=False)
        try:
            deployer.install_project(bt.task.serve, bt.root)
        except ProjectSetupError as exc:
            lines = str(exc).splitlines()
            reason = "; ".join([lines[0], *[ln for ln in lines[1:] if "ERR" in ln][:2]])
            result.imported.remove(imp)
            result.left_out.append(LeftOut(imp.project, f"its npm dependencies cannot be "
                                                        f"installed here: {reason}"))
            remove_task(bench, imp.task_id)


def register(app: typer.Typer) -> None:
    app.add_typer(imports, name="import")
