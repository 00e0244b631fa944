"""The one way many cells are run on this machine: at most ``limit`` at once, in one event
loop, each item's exception its own (recorded, never stopping the others). ``asuka run``,
``asuka sweep`` (its local executor; Ray has its own scheduler in ``asuka.loop.sweep``) and
``asuka reeval`` all go through ``run_pool``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")
OnDone = Callable[[Any, Any, "str | None"], None]   # (item, result or None, error or None)


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
