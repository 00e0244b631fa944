"""The browser side of one browser-use criterion: start Chromium (with a retry), record the
tab's console errors, read them back with a final screenshot, and kill the process tree.

Kept apart from ``browser_use.py`` so that the session there reads as the criterion's story
(start, run the agent, decide) while the CDP details live here. Everything here is best effort
except ``start_browser``: evidence that cannot be collected is simply missing.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from asuka.schema import Evidence
from asuka.uiagents.browser_use.errors import cut
from asuka.uiagents.browser_use.prompt import CONSOLE_KEY, CONSOLE_SCRIPT, MAX_EVIDENCE
from asuka.uiagents.browsing.browser import terminate_chromium

log = logging.getLogger("asuka.uiagents.browser_use.agent")

GRACE_S = 15.0            # for browser-use's own kill before we terminate the process tree
LAUNCH_TIMEOUT_S = 120.0  # per attempt to start Chromium and connect to it


def brief(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return cut(f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__, 400)


def browser_pid(browser: Any) -> int | None:
    watchdog = getattr(browser, "_local_browser_watchdog", None)
    try:
        return getattr(watchdog, "browser_pid", None)
    except Exception:  # noqa: BLE001
        return None


async def start_browser(make: Callable[[int], Any], attempts: int
                        ) -> tuple[Any, int | None, BaseException | None]:
    """``(browser, pid, None)`` for the first of ``attempts`` browsers (``make(attempt)``) that
    starts, or ``(None, None, last error)``. A slow machine can miss browser-use's connection
    window once; a browser that failed is killed before the next try."""
    last_exc: BaseException | None = None
    for attempt in range(max(1, attempts)):
        browser = make(attempt)
        try:
            await asyncio.wait_for(browser.start(), LAUNCH_TIMEOUT_S)
            return browser, browser_pid(browser), None
        except Exception as exc:  # noqa: BLE001 - slow machines: try once more
            last_exc = exc
            log.warning("Chromium did not start (attempt %d): %s", attempt + 1, brief(exc))
            await kill_browser(browser, browser_pid(browser))
    return None, None, last_exc or RuntimeError("unknown")


async def kill_browser(browser: Any, pid: int | None) -> None:
    try:
        await asyncio.wait_for(browser.kill(), GRACE_S)
    except Exception as exc:  # noqa: BLE001
        log.debug("browser kill failed: %s", exc)
    if pid is not None:
        await asyncio.to_thread(terminate_chromium, pid)


async def add_console_recorder(browser: Any) -> None:
    """Install the init script that keeps console errors in the tab's sessionStorage."""
    try:
        cdp = await browser.get_or_create_cdp_session()
        await asyncio.wait_for(cdp.cdp_client.send.Page.addScriptToEvaluateOnNewDocument(
            params={"source": CONSOLE_SCRIPT, "runImmediately": True},
            session_id=cdp.session_id), 10)
    except Exception as exc:  # noqa: BLE001 - evidence is best effort
        log.debug("could not install the console recorder: %s", exc)


async def collect_evidence(browser: Any, evidence: Evidence, evidence_dir: Path | None,
                           eval_task_id: str) -> None:
    """Add the recorded console errors and failed requests to ``evidence`` and, with an
    ``evidence_dir``, a full-page screenshot ``<eval_task_id>.png`` of the final page."""
    try:
        cdp = await asyncio.wait_for(browser.get_or_create_cdp_session(), 10)
        res = await asyncio.wait_for(cdp.cdp_client.send.Runtime.evaluate(
            params={"expression": f"sessionStorage.getItem({json.dumps(CONSOLE_KEY)})",
                    "returnByValue": True}, session_id=cdp.session_id), 10)
        raw = (res.get("result") or {}).get("value")
        if raw:
            data = json.loads(raw)
            for bucket, items in ((evidence.console_errors, data.get("console", [])),
                                  (evidence.failed_requests, data.get("requests", []))):
                for item in items:
                    if item not in bucket and len(bucket) < MAX_EVIDENCE:
                        bucket.append(str(item))
    except Exception as exc:  # noqa: BLE001
        log.debug("could not read console errors: %s", exc)
    if evidence_dir is None:
        return
    name = f"{eval_task_id}.png"
    try:
        evidence_dir.mkdir(parents=True, exist_ok=True)
        await asyncio.wait_for(browser.take_screenshot(
            path=str(evidence_dir / name), full_page=True), 15)
        evidence.screenshot = name
    except Exception as exc:  # noqa: BLE001
        log.debug("screenshot failed: %s", exc)
