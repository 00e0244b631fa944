"""Proving speed: a slice of ``asuka validate --mutants`` before and after its speed-ups.

    .venv/bin/python benchmarks/bench_mutants.py [--task loan-calculator] [--mutants 6]

Runs the reference app and the first N mutants of one task (the same ``check_task`` the command
runs) twice, in one process, one after the other:

(a) as proofs ran until session 4: full Chromium (``/usr/bin/chromium``), every criterion of a
    failing evaluation task run to its end, concurrency 2;
(b) as they run now: the headless shell when installed, each evaluation task stopping at its
    first failing criterion, concurrency 4.

Both must reach the same verdicts (the same failing evaluation tasks for every mutant run);
the script prints the wall time of each and a/b (the speed-up; target >= 2).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asuka.benchmark.loading import load_tasks  # noqa: E402
from asuka.deploy import Deployer  # noqa: E402
from asuka.proving.mutants import MUTANT_UI_DEFAULTS, check_task, plan_for  # noqa: E402
from asuka.uiagents import get as get_ui_agent  # noqa: E402
from asuka.uiagents.browsing.browser import SYSTEM_CANDIDATES, find_chromium  # noqa: E402


async def timed(bench_task, features: list[str], concurrency: int, ui_options: dict):
    agent = get_ui_agent("scripted", **ui_options)
    t0 = time.perf_counter()
    report = await check_task(bench_task, agent, Deployer(), concurrency, features=features)
    return time.perf_counter() - t0, [(r.feature, r.state, sorted(r.failed))
                                      for r in report.results]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", default="loan-calculator")
    ap.add_argument("--mutants", type=int, default=6, help="features to include (each feature "
                    "gives one or two mutant runs)")
    args = ap.parse_args()
    (bench_task,) = load_tasks(ids=[args.task])
    features = list(bench_task.task.features)[: args.mutants]
    runs = len(plan_for(bench_task, features))
    full = next((c for c in SYSTEM_CANDIDATES if Path(c).is_file()), None)
    before = {**MUTANT_UI_DEFAULTS, "stop_at_first_failure": False, "executable_path": full}
    after = dict(MUTANT_UI_DEFAULTS)
    shell = find_chromium(headless=True)
    print(f"{args.task}: the reference and {runs - 1} mutant run(s) of {len(features)} "
          f"feature(s)")
    ta, va = asyncio.run(timed(bench_task, features, 2, before))
    print(f"(a) {full or 'bundled Chromium'}, full criteria, concurrency 2: {ta:7.1f} s")
    tb, vb = asyncio.run(timed(bench_task, features, 4, after))
    print(f"(b) {shell or 'bundled Chromium'}, first failure, concurrency 4: {tb:7.1f} s")
    if va != vb:
        for x, y in zip(va, vb):
            if x != y:
                print(f"verdicts differ: {x} vs {y}")
        sys.exit(1)
    print(f"same verdicts in all {runs} runs; a/b = {ta / tb:.2f} (target >= 2)")


if __name__ == "__main__":
    main()
