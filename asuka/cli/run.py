"""``asuka run``: cells of one configuration, the loop's main job."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from asuka.benchmark.loading import load_bench
from asuka.cli._common import BenchOpt, ReuseOpt, bench_dir, console, err, parse_opts


def run(
    task: Annotated[list[str] | None, typer.Option("--task", "-t",
                    help="Task id (repeatable; default: the benchmark's main subset).")] = None,
    subset: Annotated[str | None, typer.Option(
        help="A named subset of subsets.yaml (default: main, when the benchmark has one).")
    ] = None,
    all_tasks: Annotated[bool, typer.Option(
        "--all", help="Every task of the benchmark instead of the main subset.")] = False,
    agent: Annotated[str, typer.Option(help="Code agent backend: sim, llm, cli, replay.")] = "sim",
    profile: Annotated[list[str] | None, typer.Option(
        "--profile", "-p", help="Sim profile (repeatable; default: weak and strong).")] = None,
    model: Annotated[str | None, typer.Option(help="Model of the code agent (llm, cli), e.g. "
                                              "openai:gpt-4o-mini or "
                                              "openai:qwen@http://127.0.0.1:8000/v1.")] = None,
    tool: Annotated[str | None, typer.Option(help="CLI agent for --agent cli: claude-code, "
                                             "openhands, aider, codex, opencode.")] = None,
    agent_opt: Annotated[list[str] | None, typer.Option(
        "--agent-opt", help="Extra code-agent option KEY=VALUE (repeatable, YAML values).")] = None,
    ui: Annotated[str, typer.Option(help="UI agent: scripted, browser-use, hybrid.")] = "scripted",
    ui_opt: Annotated[list[str] | None, typer.Option(
        "--ui-opt", help="Extra UI-agent option KEY=VALUE (repeatable), e.g. "
                         "assert_timeout_s=3.")] = None,
    ui_model: Annotated[str | None, typer.Option(
        help="Model of an LLM UI agent (default: --model).")] = None,
    eval_passes: Annotated[int, typer.Option(
        "--eval-passes", min=1, help="Evaluate each artifact N times; each criterion takes "
        "the majority verdict (LiveEvalBench: 3).")] = 1,
    user: Annotated[str, typer.Option(
        help="User: template, llm, or human (you type the feedback after trying the app).")
    ] = "template",
    user_model: Annotated[str | None, typer.Option(
        help="Model of the llm user (default: --model).")] = None,
    verbosity: Annotated[str, typer.Option(help="Feedback verbosity: low, medium, high.")] = "low",
    feedback: Annotated[str, typer.Option(
        help="What the agent reads after a round: none, failures, failures+probes, probes "
             "(the diagnostic probes' observations).")] = "failures",
    routing: Annotated[str, typer.Option(
        help="When the probes run: always, never, by-class, by-self-fix.")] = "always",
    probes: Annotated[str, typer.Option(help="Probe backend: scripted or llm.")] = "scripted",
    probe_opt: Annotated[list[str] | None, typer.Option(
        "--probe-opt", help="Probe option KEY=VALUE (repeatable), e.g. top_k=3 or "
                            "model=openai:gpt-4o-mini.")] = None,
    rounds: Annotated[int | None, typer.Option(
        min=1, help="Round budget (default 3); in --mode sequential, attempts per task "
                    "(default 2, Web-Bench's rule).")] = None,
    mode: Annotated[str, typer.Option(
        help="rounds (the paper's loop), or sequential (Web-Bench's: one evaluation task "
             "after another, the project stopped at a task failed on every attempt).")
    ] = "rounds",
    threshold: Annotated[float, typer.Option(min=0.0, max=1.0,
                                             help="Soft-satisfaction threshold T.")] = 0.5,
    protocol: Annotated[str, typer.Option(help="dag, flat or full.")] = "dag",
    start: Annotated[str, typer.Option(help="query, or prd (the PRD-1R baseline).")] = "query",
    seed: Annotated[int, typer.Option(help="Seed (the simulator is deterministic in it).")] = 0,
    out: Annotated[Path, typer.Option(help="Directory that holds runs.")] = Path("runs"),
    run_id: Annotated[str | None, typer.Option(
        help="Run id; an existing one is resumed (finished cells are skipped).")] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Browser contexts at once.")] = 3,
    cells: Annotated[str, typer.Option(
        help="Cells run at once: a number, or auto (one per core, as memory allows).")] = "auto",
    unsandboxed_agents: Annotated[bool, typer.Option(
        "--unsandboxed-agents", help="Where no sandbox can be had, run agent processes (cli "
                                     "agents, the llm agent's shell) unsealed: they can then "
                                     "read everything you can. Recorded in the run.")] = False,
    bench: BenchOpt = None,
    reuse: ReuseOpt = True,
) -> None:
    """Run the closed loop. With no arguments: the main job, offline (the main subset's tasks x
    2 sim profiles x 3 rounds x T=0.5; --all for every task), then a Table-1-style summary."""
    from asuka.cli.experiments import before_running
    from asuka.log.store import SUMMARY_FILE, RunStore
    from asuka.loop.cell import with_unsandboxed_agents
    from asuka.loop.executor import cells_at_once, parse_cells
    from asuka.loop.experiments import ExperimentError, expand, parse_experiment
    from asuka.loop.progress import CellProgress
    from asuka.loop.runner import new_run_id, save_run_config, table1
    from asuka.loop.sweep import run_sweep

    try:
        at_once = parse_cells(cells)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--cells") from None
    if rounds is None:
        rounds = 2 if mode == "sequential" else 3
    root = bench_dir(bench)
    try:
        ids = choose_tasks(root, task, subset, all_tasks)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--subset") from None
    tasks, problems = load_bench(root, ids)
    if problems:
        for p in problems:
            err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    extra = parse_opts(agent_opt or [])
    if agent == "sim":
        agents = [{"backend": "sim", "profile": p, "options": extra}
                  for p in (profile or ["weak", "strong"])]
    else:
        agents = [{"backend": agent, "model": model, "tool": tool, "options": extra}]
    ui_options: dict = parse_opts(ui_opt or [], "--ui-opt")
    if eval_passes > 1:
        ui_options["eval_passes"] = eval_passes
    if ui in ("browser-use", "hybrid"):
        if not (ui_model or model):
            raise typer.BadParameter(f"--ui {ui} needs --ui-model (or --model)",
                                     param_hint="--ui-model")
        ui_options["model"] = ui_model or model
    user_options: dict = {"verbosity": verbosity}
    if user == "llm":
        if not (user_model or model):
            raise typer.BadParameter("--user llm needs --user-model (or --model)",
                                     param_hint="--user-model")
        user_options["model"] = user_model or model
    # the command line is an experiment of one setting, expanded as `asuka sweep` expands one
    grid = {"name": "run", "agents": agents, "tasks": [t.id for t in tasks],
            "rounds": [rounds], "thresholds": [threshold], "protocols": [protocol],
            "starts": [start], "verbosity": [verbosity], "seeds": [seed],
            "ui": {"backend": ui, "options": ui_options},
            "user": {"backend": user, "options": user_options}, "concurrency": concurrency,
            "feedback": [feedback], "routing": [routing], "mode": mode,
            "probes": {"backend": probes, "options": parse_opts(probe_opt or [], "--probe-opt")}}
    try:
        specs = expand(parse_experiment(grid, "<command line>"), tasks)
    except ExperimentError as exc:
        for p in exc.problems:
            field = p.field.split("[")[0].split(".")[0]
            flag = GRID_FLAGS.get(field, p.field)
            err.print(f"[red]error[/red] {flag}: {p.reason}", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    if unsandboxed_agents:
        specs = [with_unsandboxed_agents(s) for s in specs]
    before_running(specs)
    rid = run_id or new_run_id()
    store = RunStore(out / rid)
    save_run_config(store, specs, root, reuse)
    console.print(f"run [bold]{rid}[/bold]: {len(specs)} cell(s), {rounds} round(s) each, "
                  f"{cells_at_once(at_once, len(specs))} at once")
    with CellProgress(specs, store, console) as bars:
        summary = run_sweep(specs, {t.id: t for t in tasks}, store, cells=at_once,
                            on_round=bars.on_round, on_done=bars.on_done)
    console.print(table1(summary, title=f"{rid}: cumulative weighted task pass rate (%)",
                         plain=not console.is_terminal))
    for c in summary.get("failed_cells", []):
        err.print(f"[red]cell failed[/red] ({c['kind']} error, not scored) {c['cell_id']}: "
                  f"{c['reason']}", highlight=False, soft_wrap=True)
    console.print(f"run directory: {store.root}")
    console.print(f"summary: {store.root / SUMMARY_FILE}")
    if summary.get("failed_cells"):
        raise typer.Exit(1)



# the experiment field each option of `asuka run` fills in, for its error messages
GRID_FLAGS = {"agents": "--agent/--profile/--model/--tool", "rounds": "--rounds",
              "thresholds": "--threshold", "protocols": "--protocol", "starts": "--start",
              "verbosity": "--verbosity", "seeds": "--seed", "ui": "--ui", "user": "--user",
              "concurrency": "--concurrency", "tasks": "--task", "feedback": "--feedback",
              "routing": "--routing", "probes": "--probes", "mode": "--mode"}


def choose_tasks(root: Path, task: list[str] | None, subset: str | None,
                 all_tasks: bool) -> list[str] | None:
    """The task ids to run (None: every task): ``--task``, else ``--all``, else ``--subset``,
    else the main subset when the benchmark declares one."""
    from asuka.benchmark.subsets import MAIN, load_subsets, subset_tasks

    given = [name for name, on in (("--task", bool(task)), ("--subset", subset is not None),
                                   ("--all", all_tasks)) if on]
    if len(given) > 1:
        raise ValueError(f"{' and '.join(given)} are alternatives; give one")
    if task:
        return list(task)
    if all_tasks:
        return None
    if subset is None:
        subsets, _ = load_subsets(root)
        if MAIN not in subsets:
            return None
        subset = MAIN
    return subset_tasks(root, subset)


def register(app: typer.Typer) -> None:
    app.command()(run)
