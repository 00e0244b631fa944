"""Asuka: the closed-loop, multi-round refinement benchmark for code agents, as a library.

The loop in a few names (each imported on first use, so ``import asuka`` stays light)::

    import asuka

    tasks = asuka.load_tasks(None, ["loan-calculator"])        # the bundled benchmark
    exp = asuka.load_experiment("experiments/demo.yaml")
    specs = asuka.expand(exp, tasks)                            # the grid of cells
    store = asuka.RunStore("runs/my-run")
    asuka.run_sweep(specs, {t.id: t for t in tasks}, store)    # rounds of agent, deploy,
    asuka.build_report(store.root)                              # UI agent, user; then tables

``run_cell`` runs one cell (a coroutine returning its typed ``CellResult``),
``evaluate_workspace`` judges one app directory along the task's DAG, ``Deployer`` serves a
workspace. The ``asuka`` command mirrors these.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# public name -> the module that defines it
_API = {
    "load_tasks": "asuka.benchmark.loading",
    "load_bench": "asuka.benchmark.loading",
    "BenchTask": "asuka.schema",
    "Task": "asuka.schema",
    "load_experiment": "asuka.loop.experiments",
    "expand": "asuka.loop.experiments",
    "CellSpec": "asuka.log.cellspec",
    "run_cell": "asuka.loop.cell",
    "CellResult": "asuka.log.records",
    "run_sweep": "asuka.loop.sweep",
    "RunStore": "asuka.log.store",
    "RoundRecord": "asuka.log.records",
    "evaluate_workspace": "asuka.protocol.evaluate",
    "EvalSettings": "asuka.protocol.evaluate",
    "Deployer": "asuka.deploy",
    "build_report": "asuka.report",
}

__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'asuka' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
