"""``asuka eval``: score an app built anywhere against a task, one round, through the loop.

The app directory is handed over by the ``dir`` code agent (or, with ``--url``, an app already
served elsewhere is evaluated where it runs), then deployed, evaluated along the DAG and turned
into feedback exactly as a loop round would be, into a run directory of its own: ``asuka report``
and ``asuka export`` read it like any run. ``register(app)`` adds the command."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from asuka.schema import BenchTask, RoundEvaluation
from asuka.vocabulary import PROTOCOLS

console = Console()
err = Console(stderr=True)


def task_table(bt: BenchTask, evaluation: RoundEvaluation) -> Table:
    """One row per evaluation task: status, criteria passed, not found, the first problem."""
    t = Table(title=f"{bt.id}: {evaluation.protocol} protocol, T={evaluation.threshold:g}")
    for col, right in (("task", False), ("summary", False), ("status", False),
                       ("passed", True), ("not found", True), ("first problem", False)):
        t.add_column(col, justify="right" if right else "left", overflow="fold")
    for et in bt.task.eval_tasks:
        res = evaluation.results[et.id]
        bad = next((v for v in res.verdicts if v.status != "pass"), None)
        problem = (bad.reason if bad else res.error or
                   (f"parents {', '.join(res.skipped_because)} not satisfied"
                    if res.skipped_because else ""))
        t.add_row(et.id, et.summary, res.status,
                  f"{res.n_pass}/{len(et.criteria)}" if res.verdicts else "-",
                  str(sum(v.status == "not_found" for v in res.verdicts)),
                  escape(problem[:160]))
    return t


def register(app: typer.Typer) -> None:
    @app.command("eval")
    def eval_(
        app_dir: Annotated[Path | None, typer.Argument(
            metavar="DIR", help="The app's directory (an index.html, or a package.json).")]
        = None,
        task: Annotated[str, typer.Option("--task", "-t", help="Task id to evaluate against.")]
        = ...,  # type: ignore[assignment]
        url: Annotated[str | None, typer.Option(
            help="Evaluate an app already served at this URL instead of deploying DIR.")] = None,
        ui: Annotated[str, typer.Option(help="UI agent: scripted, browser-use, hybrid.")]
        = "scripted",
        ui_model: Annotated[str | None, typer.Option(help="Model of an LLM UI agent.")] = None,
        eval_passes: Annotated[int, typer.Option(
            "--eval-passes", min=1, help="Evaluate each artifact N times; each criterion takes "
            "the majority verdict (LiveEvalBench: 3).")] = 1,
        ui_opt: Annotated[list[str] | None, typer.Option(
            "--ui-opt", help="UI-agent option KEY=VALUE (repeatable).")] = None,
        protocol: Annotated[str, typer.Option(
            help="full (default: every evaluation task runs, the DAG's view is kept too), "
                 "dag or flat.")] = "full",
        threshold: Annotated[float, typer.Option(min=0.0, max=1.0)] = 0.5,
        verbosity: Annotated[str, typer.Option(help="Feedback verbosity.")] = "medium",
        concurrency: Annotated[int, typer.Option(min=1, help="Browser contexts at once.")] = 3,
        out: Annotated[Path, typer.Option(help="Directory that holds runs.")] = Path("runs"),
        run_id: Annotated[str | None, typer.Option(help="Run id (default: eval-<time>).")]
        = None,
        bench: Annotated[Path | None, typer.Option("--bench", help="Benchmark directory.")]
        = None,
        label: Annotated[str | None, typer.Option(
            help="How reports name the app (default: app:<folder>, or url:<URL>).")] = None,
    ) -> None:
        """Evaluate any app directory (or a running URL) against a task: one round, the same
        deploy, protocol, evidence and records as the loop; prints the per-task table and
        writes verdicts, evidence and the feedback the user would give."""
        import time

        from asuka.benchmark.loading import default_bench_dir, load_bench
        from asuka.cli._common import parse_opts
        from asuka.cli.experiments import before_running
        from asuka.deploy import Deployer, ExternalDeployer
        from asuka.log.cellspec import CellSpec
        from asuka.log.store import RunStore
        from asuka.loop.cell import run_cell
        from asuka.loop.runner import save_run_config

        if (app_dir is None) == (url is None):
            raise typer.BadParameter("give the app's DIR or --url (one of them)")
        if protocol not in PROTOCOLS:
            raise typer.BadParameter(f"unknown protocol {protocol!r}", param_hint="--protocol")
        root = bench or default_bench_dir()
        tasks, problems = load_bench(root, [task], drafts=True)
        if problems:
            for p in problems:
                err.print(f"[red]error[/red] {escape(str(p))}", highlight=False)
            raise typer.Exit(1)
        (bt,) = tasks
        ui_options = parse_opts(ui_opt or [], "--ui-opt")
        if eval_passes > 1:
            ui_options["eval_passes"] = eval_passes
        if ui in ("browser-use", "hybrid"):
            if not ui_model:
                raise typer.BadParameter(f"--ui {ui} needs --ui-model", param_hint="--ui-model")
            ui_options["model"] = ui_model
        source = str(app_dir.resolve()) if app_dir is not None else None
        label = label or (f"app:{app_dir.resolve().name}" if app_dir is not None
                          else f"url:{url}")
        spec = CellSpec(task=bt.id, agent="dir",
                        agent_options={"path": source} if source else {}, label=label,
                        ui=ui, ui_options=ui_options, user_options={"verbosity": verbosity},
                        rounds=1, threshold=threshold, protocol=protocol,  # type: ignore[arg-type]
                        concurrency=concurrency)
        before_running([spec])
        store = RunStore(out / (run_id or time.strftime("eval-%Y%m%d-%H%M%S")))
        save_run_config(store, [spec], root)
        deployer = ExternalDeployer(url) if url else Deployer()
        result = asyncio.run(run_cell(spec, bt, store, deployer))
        if result.status == "failed":
            err.print(f"[red]could not evaluate[/red] ({result.kind} error): "
                      f"{escape(str(result.reason))}")
            raise typer.Exit(1)
        rec = store.load_round(spec.cell_id, 1)
        if not rec.evaluation.deploy_ok:
            err.print(f"[red]deploy failed[/red]: {escape(rec.evaluation.deploy_error or '')}")
        op = rec.evaluation.operability
        if op is not None and op.ok is False:
            err.print(f"[red]not operable[/red]: {escape(op.reason)}", soft_wrap=True)
        console.print(task_table(bt, rec.evaluation))
        results = rec.evaluation.results.values()
        verdicts = [v for r in results for v in r.verdicts]
        console.print(
            f"criteria passed {sum(v.status == 'pass' for v in verdicts)}/"
            f"{sum(len(et.criteria) for et in bt.task.eval_tasks)}, not found "
            f"{sum(v.status == 'not_found' for v in verdicts)}, errors "
            f"{sum(v.status == 'error' for v in verdicts)}; evaluation tasks passed "
            f"{sum(r.status == 'passed' for r in results)}/{len(bt.task.eval_tasks)}",
            highlight=False)
        from asuka.evaluators import jury_score

        jury = rec.evaluation.jury
        got = jury_score(jury)
        if got is not None:
            parts = ", ".join(f"{i} {'—' if j.score is None else f'{j.score:.1f}'}/"
                              f"{j.max_points:g}" + ("" if j.status == "judged" else
                                                     f" ({j.status})")
                              for i, j in jury.items())
            console.print(f"jury {got[0]:.1f}/{got[1]:g}: {parts}", highlight=False)
        pairwise = rec.evaluation.pairwise
        if pairwise:
            console.print("pairwise: " + ", ".join(
                f"{i} {p.verdict if p.status == 'judged' else 'not judged'}"
                for i, p in pairwise.items()), highlight=False)
        rdir = store.round_dir(spec.cell_id, 1)
        console.print(f"verdicts: {rdir / 'verdicts.json'}\nfeedback: {rdir / 'feedback.md'}\n"
                      f"run directory: {store.root} (asuka report works on it)",
                      highlight=False)
