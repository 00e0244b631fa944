"""The one way many cells are run on this machine: at most ``limit`` at once, in one event
loop, each item's exception its own (recorded, never stopping the others). ``asuka run``,
``asuka sweep`` (its local executor; Ray has its own scheduler in ``asuka.loop.sweep``) and
``asuka reeval`` all go through ``run_pool``."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Literal, TypeVar

T = TypeVar("T")
OnDone = Callable[[Any, Any, "str | None"], None]   # (item, result or None, error or None)
Cells = int | Literal["auto"]   # cells at once: a number, or sized to the machine
# what one cell of the scripted loop holds at its peak (its Chromium, the app's server, the
# evaluator): 0.7-0.8 GiB measured by benchmarks/bench_sweep.py, rounded up
MEMORY_PER_CELL_GIB = 1.0


def machine_cells(n_items: int, cpus: int | None = None,
                  available_gib: float | None = None) -> int:
    """Cells at once this machine holds: one per core, no more than its available memory
    carries at ``MEMORY_PER_CELL_GIB`` each, no more than there are cells, at least one."""
    if cpus is None:
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else os.cpu_count() or 1
    if available_gib is None:
        import psutil

        available_gib = psutil.virtual_memory().available / 2**30
    return max(1, min(cpus, int(available_gib // MEMORY_PER_CELL_GIB), n_items))


def cells_at_once(cells: Cells, n_items: int) -> int:
    """``cells`` as a number: ``auto`` sized by ``machine_cells``."""
    if cells == "auto":
        return machine_cells(n_items)
    if not isinstance(cells, int) or isinstance(cells, bool) or cells < 1:
        raise ValueError(f"cells at once must be a number of at least 1 or 'auto', got {cells!r}")
    return cells


def parse_cells(text: str) -> Cells:
    """A command line's ``--cells`` value: ``auto`` or a number of at least 1."""
    if text.strip().lower() == "auto":
        return "auto"
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"--cells must be a number or 'auto', got {text!r}") from None
    if n < 1:
        raise ValueError(f"--cells must be at least 1, got {n}")
    return n


async def run_pool(items: Iterable[T], fn: Callable[[T], Awaitable[Any]], limit: int = 1,
                   on_done: OnDone | None = None) -> list[tuple[T, Any, str | None]]:
    """Await ``fn(item)`` for every item, at most ``limit`` at once; returns (item, result,
    error) in the items' order, ``error`` being the exception's text when ``fn`` raised."""
    sem = asyncio.Semaphore(max(1, limit))

    async def one(item: T) -> tuple[T, Any, str | None]:
        async with sem:
            try:
                result, error = await fn(item), None
            except Exception as exc:  # noqa: BLE001 - one broken item must not stop the rest
                result, error = None, f"{type(exc).__name__}: {exc}"
            if on_done is not None:
                on_done(item, result, error)
            return item, result, error

    return list(await asyncio.gather(*(one(i) for i in items)))
