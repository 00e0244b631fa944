"""``asuka author``: tasks authored with a model, as the paper builds its dataset."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

from asuka.cli._common import BenchOpt, bench_dir, console, err, parse_opts

author = typer.Typer(no_args_is_help=True, help="Author tasks with a model (drafts).")


@author.command("new")
def new(
    raw: Annotated[str, typer.Argument(help="The raw request the task starts from.")],
    task_id: Annotated[str, typer.Option("--id", help="The new task's id.")],
    category: Annotated[str, typer.Option(help="Its category (utility, data visualization, "
                                               "management, e-commerce, marketing, social).")],
    model: Annotated[str, typer.Option(help="PROVIDER:MODEL[@BASE_URL] of the author model.")],
    from_stage: Annotated[str | None, typer.Option(
        help="Re-run from this stage (prd, query, data, evaluation, dag, reference, checks), "
             "the earlier ones as recorded in tasks/ID/authoring/ (edit their output, or the "
             "reference app's files, to steer).")] = None,
    repairs: Annotated[int, typer.Option(min=0, help="Repair turns on validation problems "
                                                     "(and on a failed proof).")] = 2,
    prove: Annotated[bool, typer.Option(
        "--prove", help="Also build a reference app with feature markers (the LLM code "
                        "agent), write the checks against it and prove them with validate "
                        "--mutants; a proven task leaves draft.")] = False,
    coder: Annotated[str | None, typer.Option(
        help="PROVIDER:MODEL[@BASE_URL] of the code agent that builds the reference "
             "(default: --model).")] = None,
    ui_opt: Annotated[list[str] | None, typer.Option(
        "--ui-opt", help="Scripted-agent option KEY=VALUE for the proof.")] = None,
    bench: BenchOpt = None,
) -> None:
    """Raw query -> PRD -> underspecified query -> mock data -> evaluation tasks -> DAG, a
    draft task validated (its problems fed back for repair). With --prove: -> reference app ->
    checks -> proof; a task that cannot be proven stays a draft with its failing mutants
    listed."""
    from asuka.author import Author, AuthoringError
    from asuka.llm import LLMError
    from asuka.schema import CATEGORIES

    if category not in CATEGORIES:
        raise typer.BadParameter(f"one of {', '.join(CATEGORIES)}", param_hint="--category")
    root = bench_dir(bench)
    code_agent = None
    if coder:
        from asuka.codeagents.llm import LLMCodeAgent

        code_agent = LLMCodeAgent(coder, max_steps=40)
    ui_options = parse_opts(ui_opt or [], "--ui-opt")
    say = (lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True))
    try:
        done = asyncio.run(Author(model, root, repairs, coder=code_agent, ui_options=ui_options,
                                  log=say).new(raw, task_id, category, from_stage, prove))
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
    if done.proven:
        console.print(f"[green]proven[/green] {done.task_id} after {done.proof_turns} checks "
                      "turn(s): proof.json written, status ready (review it before committing)",
                      highlight=False)
        return
    if done.proven is False:
        err.print(f"[red]not proven[/red] {done.task_id} after {done.proof_turns} checks "
                  f"turn(s); failing mutant runs:", highlight=False)
        for p in done.mutant_problems:
            err.print(f"  {p}", markup=False, highlight=False, soft_wrap=True)
        err.print("still a draft: fix the checks or the reference, then "
                  f"asuka validate --mutants {done.task_id} (or --from-stage checks)")
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
