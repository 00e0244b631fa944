"""The Web-Bench import proven on the real repository (issue #33): import every project of a
checkout, deploy each project's reference (its ``src/``) as ``asuka eval`` would, run all its
tasks' specs (``--protocol full``) and print per project: imported or why not, deploy, spec tests
passed / total, errors (the harness's, never the app's), wall time.

    .venv/bin/python benchmarks/webbench_references.py PATH [--project NAME ...] [--bench DIR]
        [--json OUT] [--concurrency N] [--retries none|ci|N]

PATH is a checkout of the public Web-Bench repository (``fetch github:bytedance/web-bench``,
then ``git clone`` the mirror); nothing of it is committed. Needs Chromium and the npm
registry (the specs' Playwright and their test dependencies are installed once, cached).

``--retries``: ``none`` (the default) runs each test once, as Web-Bench's evaluator runs an
agent's app; ``ci`` as Web-Bench's own CI tests its references (``CI=true``: each project's
config gives a failed test 2 more tries). A test that passed only on a retry is counted in the
``flaky`` column and listed with ``--verbose``."""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import tempfile
import time
from pathlib import Path

from asuka import uiagents
from asuka.benchmark.loading import load_bench
from asuka.benchmark.webbench import import_webbench
from asuka.deploy import Deployer
from asuka.protocol.evaluate import EvalSettings, evaluate_workspace
from asuka.uiagents.playwright_test import RETRIED_PASS


async def prove(bench: Path, task_id: str, concurrency: int, retries: int | str) -> dict:
    (bt,), problems = load_bench(bench, [task_id])
    if problems:
        return {"deploy": "-", "passed": 0, "total": 0, "errors": 0,
                "note": "; ".join(map(str, problems))[:200]}
    with tempfile.TemporaryDirectory(prefix="asuka-wbref-") as tmp:
        ws = Path(tmp) / "workspace"
        shutil.copytree(Path(bt.root) / "reference", ws, symlinks=True)
        outcome = await evaluate_workspace(bt, ws, uiagents.get("scripted", spec_retries=retries),
                                           Deployer(),
                                           EvalSettings("full", 0.5, concurrency, 1))
    verdicts = [v for r in outcome.evaluation.results.values() for v in r.verdicts]
    total = sum(len(et.criteria) for et in bt.task.eval_tasks)
    # a criterion with no verdict at all (its evaluation task errored before any) is an error
    missing = total - len(verdicts)
    errors = [v for v in verdicts if v.status == "error"]
    failed = [v for v in verdicts if v.status not in ("pass", "error")]
    failing = [f"{cid}: {v.status}: {v.reason}" for cid, v in sorted(
        (v.criterion_id, v) for v in verdicts) if v.status != "pass"
        or v.reason.startswith(RETRIED_PASS)]
    return {"deploy": "ok" if outcome.deploy.ok else f"failed: {outcome.deploy.error}"[:120],
            "failing": failing, "deploy_s": round(outcome.timings.get("deploy_s", 0), 1),
            "passed": sum(v.status == "pass" for v in verdicts), "total": total,
            "flaky": sum(v.status == "pass" and v.reason.startswith(RETRIED_PASS) for v in verdicts),
            "errors": len(errors) + missing,
            "note": (errors[0].reason if errors else failed[0].reason if failed else
                     next((r.error for r in outcome.evaluation.results.values() if r.error), "")
                     or (outcome.deploy.error or ""))[:200]}


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", type=Path)
    ap.add_argument("--project", action="append", default=None)
    ap.add_argument("--bench", type=Path, help="import into this folder (default: a temporary one)")
    ap.add_argument("--verbose", action="store_true", help="list every test not passed")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON")
    ap.add_argument("--concurrency", type=int, default=2,
                    help="evaluation tasks (spec runs, each with its browser) at once")
    ap.add_argument("--retries", default="none",
                    help="none (default: each test once, as Web-Bench's evaluator), ci (as "
                         "Web-Bench's CI tests its references: the configs' retries) or N")
    args = ap.parse_args()
    retries: int | str = int(args.retries) if args.retries.isdigit() else args.retries
    bench = args.bench or Path(tempfile.mkdtemp(prefix="asuka-wbbench-"))
    result = import_webbench(args.source, bench, args.project)
    rows = [{"project": lo.project, "imported": f"no: {lo.reason}"[:200], "deploy": "-",
             "passed": 0, "total": 0, "flaky": 0, "errors": 0, "seconds": 0, "note": ""}
            for lo in result.left_out]
    print(f"{'project':<22} {'deploy':<10} {'passed':>12} {'flaky':>5} {'errors':>6} "
          f"{'s':>5}  note",
          flush=True)
    for imp in result.imported:
        t0 = time.monotonic()
        try:
            row = await prove(bench, imp.task_id, args.concurrency, retries)
        except Exception as exc:  # noqa: BLE001 - one project's failure is its row
            row = {"deploy": "-", "passed": 0, "total": imp.criteria, "flaky": 0,
                   "errors": imp.criteria,
                   "note": f"harness error: {type(exc).__name__}: {exc}"[:200]}
        row = {"project": imp.project, "imported": "yes", **row,
               "seconds": round(time.monotonic() - t0)}
        rows.append(row)
        share = f"{row['passed']}/{row['total']}"
        print(f"{imp.project:<22} {row['deploy'][:10]:<10} {share:>12} {row['flaky']:>5} "
              f"{row['errors']:>6} "
              f"{row['seconds']:>5}  {row['note'][:110]}", flush=True)
        if args.verbose:
            for line in row.get("failing", []):
                print(f"    {line[:300]}", flush=True)
    for lo in result.left_out:
        print(f"{lo.project:<22} not imported: {lo.reason}")
    good = [r for r in rows if r["total"] and r["passed"] >= 0.98 * r["total"]]
    print(f"\n{len(result.imported)} imported, {len(result.left_out)} left out; references "
          f"passing >= 98 % of their tests: {len(good)} (retries: {args.retries}; "
          f"{sum(r['flaky'] for r in rows)} tests passed on a retry)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
