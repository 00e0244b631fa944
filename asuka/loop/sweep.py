"""Running cells: the cells of ``asuka run`` or of an experiment grid, at most N at once, on this
machine (``asuka.loop.executor.run_pool``) or on a Ray cluster, then summary.json. Finished cells are
skipped, so re-running a run id resumes it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from pathlib import Path

from asuka.log.cellspec import CellSpec
from asuka.log.records import CellResult
from asuka.log.store import RunStore
from asuka.loop.cell import run_cell
from asuka.loop.executor import Cells, cells_at_once, run_pool
from asuka.report.summary import summarize
from asuka.schema import BenchTask

OnRound = Callable[[str, int, str], None]            # (cell_id, round, phase)
OnDone = Callable[[CellSpec, "str | None"], None]    # (cell, error or None)


async def _run_local(specs: list[CellSpec], tasks: Mapping[str, BenchTask], store: RunStore,
                     cells: int, on_round: OnRound | None, on_done: OnDone) -> None:
    from asuka.deploy import Deployer
    from asuka.uiagents.browsing.browser import shared_browsers

    deployer = Deployer()
    # one browser for every cell and round (each criterion still gets a fresh context)
    async with shared_browsers():
        await run_pool(specs, lambda spec: run_cell(spec, tasks[spec.task], store, deployer,
                                                    on_round),
                       limit=cells, on_done=lambda spec, res, error: on_done(
                           spec, error or cell_failure(res)))


def cell_failure(result: CellResult) -> str | None:
    """Why a cell failed (a setup or harness error; never scored), or None if it finished."""
    if result.status == "finished":
        return None
    return f"{result.kind} error: {result.reason}"


def ray_cell(spec_json: str, task_json: str, run_root: str) -> CellResult:
    """One cell inside a Ray worker (the run directory must be on a shared file system)."""
    from asuka.deploy import Deployer

    spec, bt = CellSpec.model_validate_json(spec_json), BenchTask.model_validate_json(task_json)
    return asyncio.run(run_cell(spec, bt, RunStore(Path(run_root)), Deployer()))


def _run_ray(specs: list[CellSpec], tasks: Mapping[str, BenchTask], store: RunStore,
             cells: int, address: str | None, on_done: OnDone,
             tick: Callable[[], None] | None) -> None:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--executor ray needs Ray: pip install 'asuka[ray]'") from None
    # a new local cluster ("local") gets one CPU slot per concurrent cell and no dashboard
    local = {"num_cpus": max(1, cells), "include_dashboard": False} if address == "local" else {}
    try:
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False, **local)
    except Exception as exc:  # ray raises plain Exceptions for startup/connection failures
        raise RuntimeError(f"cannot start or reach Ray at {address or 'auto'}: {exc}") from exc
    remote = ray.remote(num_cpus=1, max_retries=0)(ray_cell)
    queue, running, root = list(specs), {}, str(store.root.resolve())
    try:
        while queue or running:
            while queue and len(running) < max(1, cells):
                s = queue.pop(0)
                ref = remote.remote(s.model_dump_json(), tasks[s.task].model_dump_json(), root)
                running[ref] = s
            ready, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
            for ref in ready:
                s = running.pop(ref)
                try:
                    on_done(s, cell_failure(ray.get(ref)))
                except Exception as exc:  # the worker died: the cell fails, the sweep goes on
                    store.fail_cell(s.cell_id, f"{type(exc).__name__}: {exc}", "harness")
                    on_done(s, f"harness error: {type(exc).__name__}: {exc}")
            if tick:
                tick()
    finally:
        ray.shutdown()


def run_sweep(specs: list[CellSpec], tasks: Mapping[str, BenchTask], store: RunStore, *,
              cells: Cells = "auto", executor: str = "local", ray_address: str | None = None,
              on_round: OnRound | None = None, on_done: OnDone | None = None,
              tick: Callable[[], None] | None = None) -> dict:
    """Run (or resume: finished cells are skipped) every cell, at most ``cells`` at once
    (``auto``: sized to the machine, ``asuka.loop.executor.machine_cells``), then write and
    return summary.json (with ``failed_cells`` and ``skipped_cells``)."""
    if executor not in ("local", "ray"):
        raise ValueError(f"unknown executor {executor!r}; known: local, ray")
    def done(spec: CellSpec, error: str | None) -> None:
        if on_done:
            on_done(spec, error)

    todo = [s for s in specs if not store.is_finished(s.cell_id)]
    at_once = cells_at_once(cells, len(todo))
    if executor == "local":
        asyncio.run(_run_local(todo, tasks, store, at_once, on_round, done))
    else:
        _run_ray(todo, tasks, store, at_once, ray_address, done, tick)
    summary = summarize(store, dict(tasks))  # lists the failed cells (failed.json) itself
    summary.update(skipped_cells=len(specs) - len(todo))
    store.write_summary(summary)
    return summary
