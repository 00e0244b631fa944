"""Finding and launching Chromium for the browser-driving UI agents.

Discovery order (``find_chromium``):

1. the ``ASUKA_CHROMIUM`` environment variable (must name an existing file);
2. for a headless launch, Debian's ``chromium-headless-shell`` (the old headless shell: the same
   engine without the desktop browser around it, over twice as fast per page on a small
   machine; it is what Playwright itself runs headless);
3. a system Chromium (Debian's ``/usr/bin/chromium``, ``/usr/bin/chromium-browser``, then
   ``chromium`` / ``chromium-browser`` on ``PATH``);
4. Playwright's own downloaded Chromium (``playwright install chromium``): returned as ``None``,
   which means "let Playwright choose its bundled executable".

When none of these exists a ``ChromiumNotFound`` error explains how to get one.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

ENV_VAR = "ASUKA_CHROMIUM"
HEADLESS_CANDIDATES = ("/usr/bin/chromium-headless-shell", "chromium-headless-shell")
SYSTEM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
PATH_CANDIDATES = ("chromium", "chromium-browser")

# Playwright is told headless=True itself; these are the remaining flags. Without the
# background-networking ones Chromium's own connections get refused in sandboxed machines and
# slow everything down.
LAUNCH_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)


class ChromiumNotFound(RuntimeError):
    """No usable Chromium executable."""


class BrowserLaunchError(RuntimeError):
    """Chromium exists but did not start."""


def _playwright_has_own(playwright: Any | None) -> bool:
    """Whether Playwright's own Chromium is installed."""
    if playwright is not None:
        try:
            return Path(playwright.chromium.executable_path).exists()
        except Exception:  # noqa: BLE001 - any failure means "not usable"
            return False
    root = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    base = Path(root) if root else Path.home() / ".cache" / "ms-playwright"
    return base.is_dir() and any(p.name.startswith("chromium") for p in base.iterdir())


def find_chromium(playwright: Any | None = None, headless: bool = False) -> str | None:
    """Path of the Chromium to launch, or ``None`` to let Playwright use its own download.

    ``playwright`` (an async or sync Playwright object), when given, makes the check for
    Playwright's own Chromium exact; without it the default download folder is inspected.
    ``headless`` prefers the headless shell when it is installed. Raises ``ChromiumNotFound``
    when nothing usable exists."""
    env = os.environ.get(ENV_VAR)
    if env:
        if Path(env).is_file():
            return env
        raise ChromiumNotFound(f"{ENV_VAR}={env!r} does not name an existing file")
    for cand in HEADLESS_CANDIDATES if headless else ():
        found = cand if Path(cand).is_file() else shutil.which(cand)
        if found:
            return found
    for cand in SYSTEM_CANDIDATES:
        if Path(cand).is_file():
            return cand
    for name in PATH_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    if _playwright_has_own(playwright):
        return None
    raise ChromiumNotFound(
        "no Chromium found: set ASUKA_CHROMIUM to a Chromium/Chrome executable, install the "
        "system package (Debian: apt-get install -y chromium), or run `playwright install chromium`"
    )


async def launch(playwright: Any, executable_path: str | None = None, *,
                 headless: bool = True, extra_args: tuple[str, ...] = ()) -> Any:
    """Launch Chromium with ``LAUNCH_ARGS`` through an async Playwright object.

    ``executable_path`` defaults to ``find_chromium(playwright, headless)``."""
    path = (executable_path if executable_path is not None
            else find_chromium(playwright, headless=headless))
    kwargs: dict[str, Any] = {"headless": headless, "args": [*LAUNCH_ARGS, *extra_args]}
    if path is not None:
        kwargs["executable_path"] = path
    try:
        return await playwright.chromium.launch(**kwargs)
    except Exception as exc:
        raise BrowserLaunchError(f"could not launch Chromium ({path or 'playwright bundled'}): "
                               f"{str(exc).splitlines()[0] if str(exc) else exc!r}") from exc


def terminate_chromium(pid: int) -> None:
    """Make sure a Chromium we launched (and its children) is gone; a pid that no longer
    names a Chromium (exited, reused) is left alone."""
    import psutil

    try:
        proc = psutil.Process(pid)
        if "chrom" not in proc.name().lower():  # already gone and the pid reused
            return
    except psutil.Error:
        return
    try:
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        procs = [proc]
    for p in procs:
        try:
            p.terminate()
        except psutil.Error:
            pass
    _, alive = psutil.wait_procs(procs, timeout=5)
    for p in alive:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=5)


# ---------------------------------------------------------------- one browser for a whole run

class SharedBrowsers:
    """The browsers a run keeps for all its cells and rounds (``shared_browsers``). Isolation
    is the context's, not the browser's: every criterion of every evaluation still runs in a
    fresh browser context (its own cookies, storage and cache), so sharing the process changes
    nothing a check can see and saves a Playwright driver and a Chromium launch per round."""

    def __init__(self) -> None:
        self._pw: Any = None
        self._browsers: dict[tuple[str | None, bool], Any] = {}
        self._lock = asyncio.Lock()

    async def get(self, executable_path: str | None, headless: bool) -> tuple[Any, Any]:
        """(playwright, browser), launched on first use and again after a crash."""
        from playwright.async_api import async_playwright

        from asuka.uiagents.browsing.evidence import quietly

        async with self._lock:
            if self._pw is None:
                self._pw = await async_playwright().start()
            key = (executable_path, headless)
            browser = self._browsers.get(key)
            if browser is None or not browser.is_connected():
                if browser is not None:
                    await quietly(browser.close(), 2)
                browser = await launch(self._pw, executable_path, headless=headless)
                self._browsers[key] = browser
            return self._pw, browser

    async def close(self) -> None:
        from asuka.uiagents.browsing.evidence import quietly

        for browser in self._browsers.values():
            await quietly(browser.close())
        self._browsers.clear()
        if self._pw is not None:
            await quietly(self._pw.stop())
            self._pw = None


_SHARED: ContextVar[SharedBrowsers | None] = ContextVar("asuka_shared_browsers", default=None)


@asynccontextmanager
async def shared_browsers() -> AsyncIterator[SharedBrowsers]:
    """Within this block (and the tasks it starts) the scripted UI agent's sessions share one
    browser instead of launching their own; all are closed when it ends."""
    shared = SharedBrowsers()
    token = _SHARED.set(shared)
    try:
        yield shared
    finally:
        _SHARED.reset(token)
        await shared.close()


def current_shared_browsers() -> SharedBrowsers | None:
    return _SHARED.get()
