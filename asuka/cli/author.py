"""``asuka author``: tasks authored with a model, as the paper builds its dataset."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

from asuka.cli._common import BenchOpt, bench_dir, console, err

author = typer.Typer(no_args_is_help=True, help="Author tasks with a model (drafts).")


@author.command("new")
def new(
    raw: Annotated[str, typer.Argument(help="The raw request the task starts from.")],
    task_id: Annotated[str, typer.Option("--id", help="The new task's id.")],
    category: Annotated[str, typer.Option(help="Its category (utility, data visualization, "
                                               "management, e-commerce, marketing, social).")],
    model: Annotated[str, typer.Option(help="PROVIDER:MODEL[@BASE_URL] of the author model.")],
    from_stage: Annotated[str | None, typer.Option(
        help="Re-run from this stage (prd, query, data, evaluation, dag), the earlier ones "
             "as recorded in tasks/ID/authoring/ (edit their output to steer).")] = None,
    repairs: Annotated[int, typer.Option(min=0, help="Repair turns on validation problems.")
                       ] = 2,
    bench: BenchOpt = None,
) -> None:
    """Raw query -> PRD -> underspecified query -> mock data -> evaluation tasks -> DAG, a
    draft task validated (its problems fed back for repair). Prove it before it leaves draft:
    asuka validate --mutants ID, once it has a reference app and checks."""
    from asuka.author import Author, AuthoringError
    from asuka.llm import LLMError
    from asuka.schema import CATEGORIES

    if category not in CATEGORIES:
        raise typer.BadParameter(f"one of {', '.join(CATEGORIES)}", param_hint="--category")
    root = bench_dir(bench)
    try:
        done = asyncio.run(Author(model, root, repairs).new(raw, task_id, category, from_stage))
    except (AuthoringError, LLMError, ValueError) as exc:
        err.print(f"[red]error[/red] {exc}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    console.print(f"{done.task_id}: stages {', '.join(done.stages)}, {done.repairs} repair "
                  f"turn(s); records in {done.folder / 'authoring'}", highlight=False)
    for p in done.problems:
        err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
    if done.problems:
        err.print("still a draft that does not validate: fix the files, or re-run with "
                  "--from-stage")
        raise typer.Exit(1)
    console.print(f"draft {done.task_id} validates (status: draft, unproven)", highlight=False)


@author.command("rewrite")
def rewrite(
    task_id: Annotated[str, typer.Argument(help="The task whose request to rewrite.")],
    model: Annotated[str, typer.Option(help="PROVIDER:MODEL[@BASE_URL] of the author model.")],
    variant: Annotated[list[str] | None, typer.Option(
        "--variant", help="REQUESTER/GRANULARITY (repeatable; default: every requester at "
                          "every granularity), e.g. end-user/abstract, pm/prd.")] = None,
    bench: BenchOpt = None,
) -> None:
    """The task's request rewritten from its PRD for requesters (end-user, designer, pm,
    developer) at granularities (abstract, functional, prd), kept in tasks/ID/queries.yaml;
    each is a start mode of its own (asuka run --start end-user/abstract)."""
    from asuka.author import Author, AuthoringError
    from asuka.benchmark.loading import load_bench
    from asuka.llm import LLMError
    from asuka.vocabulary import GRANULARITIES, REQUESTERS

    root = bench_dir(bench)
    tasks, problems = load_bench(root, [task_id])
    if problems:
        for p in problems:
            err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    wanted = variant or [f"{r}/{g}" for r in REQUESTERS for g in GRANULARITIES]
    try:
        path = asyncio.run(Author(model, root).rewrite(tasks[0], wanted))
    except (AuthoringError, LLMError, ValueError) as exc:
        err.print(f"[red]error[/red] {exc}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    console.print(f"{len(wanted)} variant(s) -> {path}", highlight=False)


def register(app: typer.Typer) -> None:
    app.add_typer(author, name="author")
