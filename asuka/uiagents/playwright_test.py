"""Evaluation tasks decided by a Playwright Test spec (imported Web-Bench tasks): the spec runs
under ``npx playwright test`` (@playwright/test from the npm registry, installed once, driving
the system Chromium) against the served app, and each criterion that names a test takes that
test's outcome.

The spec is the benchmark's, so it runs as the harness (not sandboxed), on a configuration of
ours: the app's URL as ``baseURL``, one worker, no retries, the JSON reporter. A failing test's
error is filtered as WatchPoint filters Playwright output (ANSI stripped, framework stack frames
dropped, repeated lines once, a cap); a spec that does not load, or a test the report does not
list, is the harness's error, never the app's failure."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from asuka.deploy.node_packages import PLAYWRIGHT_CORE, ensure_package
from asuka.probes._sanitize import clean
from asuka.schema import EvalTask, EvalTaskResult, Evidence, Verdict
from asuka.uiagents.browser import LAUNCH_ARGS, find_chromium

BACKEND = "playwright-test"
TEST_TIMEOUT_MS = 30_000
RUN_TIMEOUT_S = 300
ERROR_CHARS = 600

CONFIG = """module.exports = {
  testDir: %(dir)s, testMatch: [%(match)s], timeout: %(timeout)d, workers: 1, retries: 0,
  outputDir: %(out)s, reporter: [['json', { outputFile: %(report)s }]],
  use: { baseURL: %(url)s, headless: true,
         launchOptions: { executablePath: %(chromium)s, args: %(args)s } },
};
"""


def titles(report: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """test title -> (status, first error message) over every suite of a JSON report."""
    out: dict[str, tuple[str, str]] = {}

    def walk(suite: dict[str, Any]) -> None:
        for spec in suite.get("specs", []):
            for test in spec.get("tests", []):
                results = test.get("results") or [{}]
                last = results[-1]
                error = (last.get("error") or {}).get("message") or ""
                out.setdefault(spec.get("title", ""), (last.get("status", "skipped"), error))
        for child in suite.get("suites", []):
            walk(child)

    for suite in report.get("suites", []):
        walk(suite)
    return out


async def run_spec(eval_task: EvalTask, spec: Path, base_url: str) -> EvalTaskResult:
    """Run ``spec`` against ``base_url``; one verdict per criterion that names a test."""
    t0 = time.monotonic()
    modules = await asyncio.to_thread(ensure_package, "@playwright/test", PLAYWRIGHT_CORE)
    scratch = Path(tempfile.mkdtemp(prefix="asuka-pwtest-"))
    try:
        report_path = scratch / "report.json"
        config = scratch / "playwright.config.cjs"
        config.write_text(CONFIG % {
            "dir": json.dumps(str(spec.parent)), "match": json.dumps(spec.name),
            "timeout": TEST_TIMEOUT_MS, "out": json.dumps(str(scratch / "out")),
            "report": json.dumps(str(report_path)), "url": json.dumps(base_url),
            "chromium": json.dumps(find_chromium() or ""), "args": json.dumps(list(LAUNCH_ARGS))})
        cli = modules / "@playwright" / "test" / "cli.js"
        env = {"PATH": "/usr/bin:/bin", "NODE_PATH": str(modules), "HOME": str(scratch),
               "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1", "CI": "1"}
        proc = await asyncio.create_subprocess_exec(
            shutil.which("node") or "node", str(cli), "test", "--config", str(config),
            cwd=scratch, env=env, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, start_new_session=True)
        try:
            output, _ = await asyncio.wait_for(proc.communicate(), RUN_TIMEOUT_S)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()
            return _error(eval_task, f"playwright test did not finish within {RUN_TIMEOUT_S}s",
                          t0)
        try:
            report = json.loads(report_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = clean(output.decode(errors="replace"), ERROR_CHARS)
            return _error(eval_task, f"{spec.name} produced no report: {tail}", t0)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    found = titles(report)
    errors = [clean(e.get("message", ""), ERROR_CHARS) for e in report.get("errors", [])]
    verdicts = []
    for c in eval_task.criteria:
        if c.test is None:
            continue
        if c.test not in found:
            reason = errors[0] if errors else f"the report has no test {c.test!r}"
            verdicts.append(Verdict(criterion_id=c.id, status="error", backend=BACKEND,
                                    reason=f"{spec.name}: {reason}"))
            continue
        status, error = found[c.test]
        verdicts.append(Verdict(
            criterion_id=c.id, backend=BACKEND,
            status="pass" if status == "passed" else "fail" if status in (
                "failed", "timedOut", "interrupted") else "unverifiable",
            reason="the test passed" if status == "passed" else clean(error, ERROR_CHARS)
            or f"the test {status}"))
    statuses = {v.status for v in verdicts}
    status = ("error" if "error" in statuses else "passed" if statuses == {"pass"}
              else "failed")
    return EvalTaskResult(eval_task_id=eval_task.id, status=status, verdicts=verdicts,
                          attempts=1, duration_s=round(time.monotonic() - t0, 3),
                          error=next((v.reason for v in verdicts if v.status == "error"), None),
                          evidence=Evidence())


def _error(eval_task: EvalTask, reason: str, t0: float) -> EvalTaskResult:
    return EvalTaskResult(
        eval_task_id=eval_task.id, status="error", attempts=1, error=reason,
        duration_s=round(time.monotonic() - t0, 3),
        verdicts=[Verdict(criterion_id=c.id, status="error", backend=BACKEND, reason=reason)
                  for c in eval_task.criteria])
