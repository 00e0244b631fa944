"""Evaluator speed: the same scripted checks through Asuka vs. a bare Playwright script, on a
finished app and on a half-built one.

    .venv/bin/python benchmarks/bench_eval.py [--repeat 3] [--task mini-todo]

(a) Asuka's evaluator: the scripted UI agent under the flat protocol (verdicts, evidence,
    screenshots of failed tasks, the task's browser contexts, a new page per criterion).
(b) A bare Playwright script doing the same steps in the same order with the same browser
    flags and timeouts: one context per evaluation task, one page per criterion, no evidence.

Passing case: the reference app, every check passes in both (so the two do the same work); the
script prints a/b at concurrency 1 and 3 (target <= 1.1) and criteria per second.

Failing-heavy case: the reference app with every other feature missing. Asuka runs it twice, with
fast absence (the default: a check fails once the page has settled) and with every timeout waited
out (``fast_absence=False``); the two must give the same verdict to every criterion. Printed:
criteria per second of both and of the bare script at concurrency 3 (target for the fast path:
at least 5 criteria/s on 2 cores).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asuka.benchmark.features import prepare_workspace  # noqa: E402
from asuka.benchmark.loading import load_tasks  # noqa: E402
from asuka.dag import CriterionDag  # noqa: E402
from asuka.deploy import Deployer  # noqa: E402
from asuka.protocol.dag import run_protocol
from asuka.schema import EvalTask, Locator, to_pattern  # noqa: E402
from asuka.uiagents import get as get_ui_agent  # noqa: E402
from asuka.uiagents.browsing.browser import LAUNCH_ARGS, find_chromium  # noqa: E402

ASSERT_MS = 1500
ACTION_MS = 3000  # the scripted agent's action timeout


def _loc(page, loc: Locator):
    def one(scope, lc: Locator):
        if lc.within:
            scope = one(scope, lc.within)
        if lc.role:
            kw = {"exact": lc.exact}
            if lc.name is not None:
                kw["name"] = to_pattern(lc.name)
            x = scope.get_by_role(lc.role, **kw)
        elif lc.label:
            x = scope.get_by_label(to_pattern(lc.label), exact=lc.exact)
        elif lc.placeholder:
            x = scope.get_by_placeholder(to_pattern(lc.placeholder), exact=lc.exact)
        elif lc.text:
            x = scope.get_by_text(to_pattern(lc.text), exact=lc.exact)
        elif lc.testid:
            x = scope.get_by_test_id(lc.testid)
        else:
            x = scope.locator(lc.css)
        return x.nth(lc.nth) if lc.nth is not None else x
    return one(page, loc)


async def bare_criterion(page, base: str, steps) -> bool:
    """The steps of one check as plain Playwright calls (only those the benchmark task uses)."""
    from playwright.async_api import expect

    if not steps or steps[0].op != "goto":
        await page.goto(base + "/", wait_until="load")
    for s in steps:
        loc = _loc(page, s.locator) if s.locator else None
        first = loc.first if loc is not None and s.locator.nth is None else loc
        if s.op == "goto":
            await page.goto(base + s.arg, wait_until="load")
        elif s.op == "click":
            await first.click()
        elif s.op == "fill":
            await first.fill(str(s.params["value"]))
        elif s.op == "check":
            await first.check()
        elif s.op == "expect_visible":
            await expect(first).to_be_visible(timeout=ASSERT_MS)
        elif s.op == "expect_text":
            await expect(first).to_contain_text(to_pattern(str(s.params["value"])),
                                                timeout=ASSERT_MS)
        elif s.op == "expect_count":
            await expect(loc).to_have_count(int(s.params["count"]), timeout=ASSERT_MS)
        elif s.op == "expect_attr":
            await expect(first).to_have_attribute(s.params["attr"],
                                                  to_pattern(str(s.params["value"])),
                                                  timeout=ASSERT_MS)
        else:
            raise SystemExit(f"bare runner does not implement {s.op!r}")
    return True


async def run_bare(tasks: list[EvalTask], base: str, concurrency: int) -> int:
    async with async_playwright() as pw:
        # the same executable the scripted agent launches headless
        browser = await pw.chromium.launch(executable_path=find_chromium(headless=True),
                                           headless=True, args=list(LAUNCH_ARGS))
        sem = asyncio.Semaphore(concurrency)

        async def one(et: EvalTask) -> int:
            async with sem:
                ctx = await browser.new_context()
                ctx.set_default_timeout(ACTION_MS)
                n = 0
                for c in et.criteria:
                    page = await ctx.new_page()
                    try:
                        n += await bare_criterion(page, base, c.check)
                    except AssertionError:  # expect() failed
                        pass
                    except Exception as exc:  # noqa: BLE001 - a timed-out action fails it too
                        if "Timeout" not in type(exc).__name__:
                            raise
                    await page.close()
                await ctx.close()
                return n

        passed = sum(await asyncio.gather(*(one(et) for et in tasks)))
        await browser.close()
    return passed


async def run_asuka(bt, tasks: list[EvalTask], base: str, concurrency: int,
                    evidence: Path, quiet: bool = False, **options) -> dict[str, str]:
    """Every criterion's status."""
    from asuka.schema import Task

    task = Task.model_validate({**bt.task.model_dump(), "eval_tasks": [t.model_dump()
                                                                       for t in tasks],
                                "features": {}})
    agent = get_ui_agent("scripted", **options)
    session = await agent.open(base, evidence_dir=evidence)
    try:
        dag = CriterionDag([t.id for t in tasks], [])
        ev = await run_protocol(task, dag, session.evaluate, protocol="flat",
                                concurrency=concurrency)
    finally:
        await session.close()
    statuses = {v.criterion_id: v.status for r in ev.results.values() for v in r.verdicts}
    for r in ev.results.values():
        for v in r.verdicts:
            if v.status != "pass" and not quiet:
                print(f"  asuka: {v.criterion_id} {v.status}: {v.reason}")
    return statuses


def replicate(tasks: list[EvalTask], k: int) -> list[EvalTask]:
    out = []
    for i in range(k):
        for et in tasks:
            out.append(et.model_copy(update={"id": f"{et.id}-r{i}", "criteria": [
                c.model_copy(update={"id": f"{c.id}-r{i}"}) for c in et.criteria]}))
    return out


def half_built(bt, dest: Path) -> tuple[Path, list[str]]:
    """The reference app with every other feature (in name order) missing."""
    missing = sorted(bt.task.features)[::2]
    return prepare_workspace(Path(bt.root), bt.task.reference, bt.task.data, dest,
                             {f: "missing" for f in missing}), missing


async def passing_case(bt, tasks: list[EvalTask], tmp: Path) -> None:
    n = sum(len(t.criteria) for t in tasks)
    ws = prepare_workspace(Path(bt.root), bt.task.reference, bt.task.data, tmp / "ws")
    with Deployer().deploy(ws) as dep:
        base = dep.url.rstrip("/")
        print(f"passing case: {n} scripted checks ({bt.id} x{len(tasks) // len(bt.task.eval_tasks)}"
              f"), served at {base}")
        for conc in (1, 3):
            # warm-up: the first browser start of a process pays for loading libraries
            await run_bare(tasks[:1], base, conc)
            t0 = time.perf_counter()
            statuses = await run_asuka(bt, tasks, base, conc, tmp / f"ev{conc}")
            ta = time.perf_counter() - t0
            t0 = time.perf_counter()
            b_pass = await run_bare(tasks, base, conc)
            tb = time.perf_counter() - t0
            a_pass = sum(s == "pass" for s in statuses.values())
            assert a_pass == n and b_pass == n, (a_pass, b_pass, n)
            print(f"  concurrency {conc}: asuka {ta:.2f}s ({n / ta:.1f} criteria/s), "
                  f"bare playwright {tb:.2f}s ({n / tb:.1f} criteria/s), "
                  f"ratio a/b = {ta / tb:.2f} (target <= 1.1)")


async def failing_case(bt, tasks: list[EvalTask], tmp: Path) -> None:
    n = sum(len(t.criteria) for t in tasks)
    ws, missing = half_built(bt, tmp / "half")
    with Deployer().deploy(ws) as dep:
        base = dep.url.rstrip("/")
        print(f"failing-heavy case: the same checks on the app without {', '.join(missing)}")
        times: dict[str, float] = {}
        runs: dict[str, dict[str, str]] = {}
        for name, options in (("fast", {}), ("patient", {"fast_absence": False})):
            t0 = time.perf_counter()
            runs[name] = await run_asuka(bt, tasks, base, 3, tmp / f"half-{name}", quiet=True,
                                         **options)
            times[name] = time.perf_counter() - t0
        t0 = time.perf_counter()
        b_pass = await run_bare(tasks, base, 3)
        times["bare"] = time.perf_counter() - t0
        fast, patient = runs["fast"], runs["patient"]
        differ = {c: (fast[c], patient.get(c)) for c in fast if fast[c] != patient.get(c)}
        passed = sum(s == "pass" for s in fast.values())
        print(f"  {passed}/{n} criteria pass ({b_pass} in the bare script); "
              f"verdicts fast vs patient: {'identical' if not differ else f'DIFFER {differ}'}")
        print(f"  concurrency 3: asuka fast {times['fast']:.2f}s "
              f"({n / times['fast']:.1f} criteria/s, target >= 5), asuka patient "
              f"{times['patient']:.2f}s ({n / times['patient']:.1f} criteria/s), bare playwright "
              f"{times['bare']:.2f}s ({n / times['bare']:.1f} criteria/s); "
              f"patient/fast = {times['patient'] / times['fast']:.2f}")
        if differ:
            raise SystemExit(1)


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default=str(ROOT / "tests" / "fixtures" / "bench"))
    ap.add_argument("--task", default="mini-todo")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    bt = load_tasks(Path(args.bench), [args.task])[0]
    tasks = replicate(bt.task.eval_tasks, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        await passing_case(bt, tasks, Path(tmp))
        await failing_case(bt, tasks, Path(tmp))


if __name__ == "__main__":
    asyncio.run(main())
