"""Running a set of cells into one run directory, with progress, and printing Table 1."""

from __future__ import annotations

import asyncio
import math
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
    TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from asuka.deploy import Deployer
from asuka.loop import CellSpec, run_cell
from asuka.schema import BenchTask
from asuka.store import RunStore, write_json
from asuka.summary import summarize


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
                    ok = bool(await run_cell(spec, tasks[spec.task], store, deployer,
                                             on_progress))
                    # a cell that stopped early counts its whole budget as done
                    done_rounds[spec.cell_id] = spec.rounds
                    if not ok:
                        failures.append(spec.cell_id)
                except Exception as exc:
                    failures.append(f"{spec.cell_id}: {type(exc).__name__}: {exc}")
                    if console:
                        console.print(f"[red]cell failed[/red] {spec.cell_id}: {exc}")
                progress.update(bar, completed=sum(done_rounds.values()))
                finished.append(spec.cell_id)
                if log_lines:
                    progress.console.print(
                        f"cell {len(finished)}/{len(specs)} {'done' if ok else 'failed'} in "
                        f"{time.monotonic() - t0:.0f}s: {spec.cell_id}", highlight=False)

        await asyncio.gather(*(one(s) for s in specs))
        progress.update(bar, completed=total, description="done")
    summary = summarize(store, tasks)
    summary["failed_cells"] = failures
    write_json(store.root / "summary.json", summary)
    return summary


def _fmt(est: dict) -> str:
    mean, half = 100 * est["mean"], 100 * est["half_width"]
    return f"{mean:.1f}" + ("" if math.isnan(half) else f" ±{half:.1f}")


def table1(summary: dict, title: str = "Results") -> Table:
    """Paper Table 1: PCR, cumulative weighted task pass rate per round, criteria pass rate."""
    groups = summary["groups"]
    n_rounds = max((len(g["rounds"]) for g in groups), default=0)
    t = Table(title=title)
    t.add_column("agent")
    t.add_column("start")
    t.add_column("protocol")
    t.add_column("n", justify="right")
    t.add_column("PCR", justify="right")
    for r in range(1, n_rounds + 1):
        t.add_column(f"R{r}", justify="right")
    t.add_column("Criteria", justify="right")
    for g in sorted(groups, key=lambda g: (g["agent"], g["start"], g["protocol"],
                                           g["threshold"])):
        last = g["rounds"][-1]
        cells = [_fmt(g["rounds"][k]["task_pass_rate.cumulative"]) if k < len(g["rounds"])
                 else "" for k in range(n_rounds)]
        t.add_row(g["agent"], g["start"], f"{g['protocol']} T={g['threshold']:g}", str(g["n"]),
                  _fmt(last["completion.cumulative"]), *cells,
                  _fmt(last["criteria_pass_rate.cumulative"]))
    return t


def save_run_config(store: RunStore, specs: list[CellSpec], bench: Path) -> None:
    cfg = store.root / "run.json"
    if not cfg.exists():
        write_json(cfg, {"bench": str(bench), "cells": [s.model_dump() for s in specs]})
