"""What the scripted agent collects from every page of a context besides verdicts: console
errors, failed requests (deduplicated, capped), and the answers to JavaScript dialogs."""

from __future__ import annotations

import asyncio
from typing import Any

MAX_EVIDENCE = 100
CLOSE_TIMEOUT_S = 10.0


class PageEvidence:
    """Collects console errors and failed requests from every page of a context."""

    def __init__(self) -> None:
        self.console: list[str] = []
        self.requests: list[str] = []
        self.closing: set[int] = set()
        self._tasks: set[asyncio.Future[Any]] = set()  # dialog answers in flight

    def _add(self, bucket: list[str], item: str) -> None:
        item = item if len(item) <= 500 else item[:499] + "…"
        if item not in bucket and len(bucket) < MAX_EVIDENCE:
            bucket.append(item)

    def attach(self, page: Any) -> None:
        pid = id(page)

        def live() -> bool:
            return pid not in self.closing

        def on_console(msg: Any) -> None:
            if msg.type == "error" and live():
                loc = msg.location or {}
                where = f" ({loc.get('url')}:{loc.get('lineNumber')})" if loc.get("url") else ""
                self._add(self.console, f"{msg.text}{where}")

        def on_pageerror(err: Any) -> None:
            if live():
                name = getattr(err, "name", "") or "Error"
                self._add(self.console, f"uncaught {name}: {getattr(err, 'message', err)}")

        def on_requestfailed(req: Any) -> None:
            if live():
                self._add(self.requests, f"{req.method} {req.url} -> {req.failure or 'failed'}")

        def on_response(resp: Any) -> None:
            if resp.status >= 400 and live():
                self._add(self.requests, f"{resp.request.method} {resp.url} -> {resp.status}")

        def on_dialog(dialog: Any) -> None:
            fut = asyncio.ensure_future(quietly(dialog.accept()))
            self._tasks.add(fut)
            fut.add_done_callback(self._tasks.discard)

        page.on("console", on_console)
        page.on("pageerror", on_pageerror)
        page.on("requestfailed", on_requestfailed)
        page.on("response", on_response)
        page.on("dialog", on_dialog)


async def quietly(coro: Any, timeout: float = CLOSE_TIMEOUT_S) -> Any:
    try:
        return await asyncio.wait_for(coro, timeout)
    except Exception:  # noqa: BLE001 - best-effort cleanup
        return None
