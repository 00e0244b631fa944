"""Running a set of cells into one run directory, with progress, and printing Table 1."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
    TimeElapsedColumn, TimeRemainingColumn

from asuka.deploy import Deployer
from asuka.loop import CellFailed, CellSpec, build_backends, run_cell
from asuka.schema import BenchTask
from asuka.store import RunStore, write_json
from asuka.summary import _fmt, summarize, summary_table  # noqa: F401 (re-export)


def preflight_specs(specs: list[CellSpec]) -> list[str]:
    """Build and preflight the roles of every distinct configuration before any cell starts:
    a missing key, binary or sandbox stops the run in seconds, with no cell written."""
    problems, seen = [], set()
    for spec in specs:
        key = json.dumps([spec.agent, spec.agent_options, spec.ui, spec.ui_options, spec.user,
                          spec.user_options], sort_keys=True, default=str)
        if key in seen:
            continue
        seen.add(key)
        try:
            build_backends(spec)
        except CellFailed as exc:
            problems.append(f"{spec.agent_label} (ui {spec.ui}, user {spec.user}): {exc.reason}")
    return problems


SCRIPTED_WARNING = (
    "--ui scripted with a non-simulated agent: the scripted checks read names and markup the "
    "PRD fixes, so an app built differently loses criteria to locator misses (counted as "
    "'not found'), not to behaviour. For real agents use --ui hybrid (scripted, then an LLM "
    "judge for what the checks did not pass), or browser-use, the paper's setting.")


def scripted_warning(specs: list[CellSpec]) -> str | None:
    """Said once per run when real agents are judged by the scripted checks alone."""
    real = [s for s in specs if s.ui == "scripted" and s.agent not in ("sim", "replay")]
    return SCRIPTED_WARNING if real else None


def new_run_id() -> str:
    return time.strftime("run-%Y%m%d-%H%M%S")


async def run_specs(specs: list[CellSpec], tasks: dict[str, BenchTask], store: RunStore,
                    cell_concurrency: int = 1, console: Console | None = None,
                    deployer: Deployer | None = None) -> dict:
    """Run (or resume) every cell, then write and return the summary."""
    deployer = deployer or Deployer()
    sem = asyncio.Semaphore(max(1, cell_concurrency))
    total = sum(s.rounds for s in specs)
    failures: list[str] = []
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("rounds"), TimeElapsedColumn(), TextColumn("eta"),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False,
                  disable=console is None) as progress:
        bar = progress.add_task("starting", total=total)
        done_rounds: dict[str, int] = {}

        def on_progress(cell_id: str, r: int, phase: str) -> None:
            if phase == "code agent" and r > 1:
                done_rounds[cell_id] = r - 1
            progress.update(bar, completed=sum(done_rounds.values()),
                            description=f"{cell_id[:48]} r{r} {phase}")

        # A live bar draws nothing into a log file or a CI console until the end: there,
        # each finished cell prints one line instead.
        log_lines = console is not None and not console.is_terminal
        finished: list[str] = []

        async def one(spec: CellSpec) -> None:
            async with sem:
                t0 = time.monotonic()
                ok = False
                try:
                    result = await run_cell(spec, tasks[spec.task], store, deployer,
                                            on_progress)
                    ok = result.get("status", "finished") == "finished"
                    # a cell that stopped early counts its whole budget as done
                    done_rounds[spec.cell_id] = spec.rounds
                    if not ok:
                        failures.append(f"{spec.cell_id}: {result.get('kind')} error: "
                                        f"{result.get('reason')}")
                except Exception as exc:  # a bug of ours: the cell fails, the run goes on
                    reason = f"{type(exc).__name__}: {exc}"
                    store.fail_cell(spec.cell_id, reason, "harness")
                    failures.append(f"{spec.cell_id}: harness error: {reason}")
                if not ok and console:
                    progress.console.print(f"[red]cell failed[/red] {failures[-1]}",
                                           highlight=False, soft_wrap=True)
                progress.update(bar, completed=sum(done_rounds.values()))
                finished.append(spec.cell_id)
                if log_lines:
                    progress.console.print(
                        f"cell {len(finished)}/{len(specs)} {'done' if ok else 'failed'} in "
                        f"{time.monotonic() - t0:.0f}s: {spec.cell_id}", highlight=False)

        await asyncio.gather(*(one(s) for s in specs))
        progress.update(bar, completed=total, description="done")
    return summarize(store, tasks)  # lists the failed cells (failed.json) itself


# The console table is built from summary.json by asuka.summary (one aggregation).
table1 = summary_table


def save_run_config(store: RunStore, specs: list[CellSpec], bench: Path) -> None:
    cfg = store.root / "run.json"
    if not cfg.exists():
        write_json(cfg, {"bench": str(bench), "cells": [s.model_dump() for s in specs]})
