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

import os
import shutil
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
