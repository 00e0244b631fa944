"""Bringing an app to a pairwise view and photographing it: a fresh browser context at the
view's viewport (storage empty, reduced motion), the view's path run with the scripted agent's
step executor, the observation wait, one PNG."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asuka.schema import PairwiseView
from asuka.uiagents.browsing.locate import StepContext, StepFailed
from asuka.uiagents.scripted.steps import run_step


@dataclass
class Capture:
    png: bytes | None          # None: no screenshot could be taken at all
    path_error: str | None     # the path step that did not hold, and why


async def capture(browser: Any, base_url: str, view: PairwiseView,
                  data_dir: Path | None = None) -> Capture:
    """Open ``base_url`` in a new context, run ``view.path``, wait ``view.observe_ms``, and take
    the screenshot; a path step that does not hold stops the path (the app is photographed as
    it then is, and the failure is reported with it)."""
    context = await browser.new_context(viewport={"width": view.width, "height": view.height},
                                        reduced_motion="reduce")
    try:
        page = await context.new_page()
        ctx = StepContext(page=page, base_url=base_url, data_dir=data_dir)
        path_error = None
        for i, step in enumerate(view.path):
            try:
                await run_step(ctx, step)
            except StepFailed as exc:
                path_error = f"path step #{i} ({step.describe()}): {exc}"
                break
        await page.wait_for_timeout(view.observe_ms)
        try:
            png = await page.screenshot(full_page=view.full_page, animations="disabled")
        except Exception as exc:  # noqa: BLE001 - a page that cannot be photographed
            return Capture(None, path_error or f"no screenshot: {exc}")
        return Capture(png, path_error)
    finally:
        await context.close()
