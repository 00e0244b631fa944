"""The optional stages that make an authored draft trustworthy (``asuka author new --prove``):
the LLM code agent builds a reference app with feature markers from the PRD, a model writes
check steps for every criterion against that app's accessibility tree and maps its features to
the evaluation tasks they serve, and ``validate --mutants`` decides: a passing proof takes the
task out of draft, a failing one goes back to the model with the failing mutants listed, for a
bounded number of turns, after which the task stays a draft with them listed."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from asuka.author._models import ReferenceOut
from asuka.benchmark.features import copy_data, features_in
from asuka.schema import BenchTask

REFERENCE_DIR = "reference"
# what the model sees of the reference: enough to name its controls, short enough to send
MAX_ARIA_CHARS = 12_000


async def build_reference(prompt: str, draft: BenchTask, coder: Any, folder: Path,
                          timeout_s: float = 1800.0) -> tuple[ReferenceOut, dict[str, Any]]:
    """Run the code agent on ``prompt`` in a scratch workspace holding the task's mock data;
    its files (without data/) become ``folder/reference``. Returns the stage's output and a
    record of the agent's round (transcript, usage, how it stopped)."""
    from asuka.codeagents.base import RoundContext

    with tempfile.TemporaryDirectory(prefix=f"asuka-author-{draft.id}-") as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        copy_data(Path(draft.root), draft.task.data, ws)
        ctx = RoundContext(bench_task=draft, round=1, start="prd", prd=prompt, workspace=ws,
                           timeout_s=timeout_s)
        result = await coder.run_round(ctx)
        target = folder / REFERENCE_DIR
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(ws, target, ignore=lambda d, names: ["data"] if Path(d) == ws else [])
    files = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
    found = features_in(target)
    out = ReferenceOut(files=files, features={k: sorted(v) for k, v in sorted(found.items())})
    record = {"ok": result.ok, "error": result.error, "transcript": result.transcript,
              "stopped": (result.meta or {}).get("stopped"),
              "usage": [u.model_dump(mode="json") for u in result.usage]}
    return out, record


async def aria_tree(bench_task: BenchTask) -> str:
    """Playwright's ARIA snapshot of the reference app at / once it has loaded."""
    from playwright.async_api import async_playwright

    from asuka.proving.preview import serve
    from asuka.uiagents.browsing.browser import launch

    with serve(bench_task) as url:
        async with async_playwright() as pw:
            browser = await launch(pw)
            try:
                page = await browser.new_page()
                await page.goto(url, wait_until="load")
                try:
                    await page.wait_for_load_state("networkidle", timeout=5_000)
                except Exception:  # noqa: BLE001 - a busy page is still worth a snapshot
                    pass
                text = await page.locator("body").aria_snapshot(timeout=10_000)
            finally:
                await browser.close()
    if len(text) > MAX_ARIA_CHARS:
        text = text[:MAX_ARIA_CHARS] + f"\n... [{len(text)} characters in all]"
    return text


async def prove(bench_task: BenchTask, ui_options: dict | None = None, concurrency: int = 2,
                log: Callable[[str], None] | None = None) -> tuple[bool, list[str], Any]:
    """``validate --mutants`` on the task: (proven, the failing mutant runs' problems, the
    report). A passing complete run writes the proof."""
    from asuka.benchmark.proof import write_proof
    from asuka.proving.mutants import check_tasks

    (report,) = await check_tasks([bench_task], concurrency=concurrency,
                                  ui_options=ui_options, log=log)
    problems = []
    for r in report.results:
        label = "reference" if r.feature is None else f"{r.feature} ({r.state})"
        problems += [f"{label}: {p}" for p in r.problems]
    if report.ok:
        write_proof(bench_task, report)
    return report.ok, problems, report
