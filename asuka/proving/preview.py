"""``asuka preview``: a task's reference app (or one of its mutants) served on 127.0.0.1.

What an author or a reader wants to look at: the product the checks were proven on, or what the
simulated agent would hand over with some features missing or broken. The reference is trusted
(it ships with the benchmark), so it is served from our own process, like a static deployment.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from asuka.deploy.reference import feature_states, serve

__all__ = ["feature_states", "screenshot", "serve"]


async def _screenshot(url: str, path: Path, width: int, height: int) -> None:
    from playwright.async_api import async_playwright

    from asuka.uiagents.browsing.browser import launch

    async with async_playwright() as pw:
        browser = await launch(pw)
        try:
            page = await browser.new_page(viewport={"width": width, "height": height})
            await page.goto(url, wait_until="load")
            await page.wait_for_load_state("networkidle", timeout=5_000)
            await page.screenshot(path=str(path), full_page=True)
        finally:
            await browser.close()


def screenshot(url: str, path: Path, width: int = 1280, height: int = 800) -> Path:
    """A full-page PNG of ``url`` in headless Chromium."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(_screenshot(url, path, width, height))
    return path
