"""What the resolution ladder costs: evaluation time with its deterministic rungs on vs. off, in
one run, on the PRD corpus (tests/fixtures/foreign/: apps that mostly pass) and on the
simulator's main-job tasks with every other feature missing (what a weak simulated agent's
round looks like: misses everywhere, so every miss climbs the ladder).

    .venv/bin/python benchmarks/bench_ladder.py [--task ID ...] [--corpus-only|--sim-only]

Prints, per case, seconds with the ladder on and off, the ratio (the goal: at most 1.2), and
how many verdicts differ between the two (on the PRD corpus the ladder must change nothing that
the labels agree with; benchmarks/foreign_agreement.py says which way a change went)."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asuka.benchmark.features import features_in, prepare_workspace  # noqa: E402
from asuka.benchmark.loading import default_bench_dir, load_bench  # noqa: E402
from asuka.benchmark.subsets import load_subsets  # noqa: E402
from asuka.deploy import Deployer  # noqa: E402
from asuka.protocol.evaluate import EvalSettings, evaluate_workspace  # noqa: E402
from asuka.proving.corpus import corpus_entries, evaluate_entry  # noqa: E402
from asuka.uiagents import get as get_ui_agent  # noqa: E402


def _statuses(evaluation) -> dict[str, str]:
    return {v.criterion_id: v.status for r in evaluation.results.values() for v in r.verdicts}


async def _half_built(bt, ladder: bool) -> tuple[float, dict[str, str]]:
    names = sorted(features_in(Path(bt.root) / bt.task.reference))
    states = {n: "missing" for n in names[1::2]}
    with tempfile.TemporaryDirectory(prefix="asuka-bench-ladder-") as tmp:
        ws = prepare_workspace(Path(bt.root), bt.task.reference, bt.task.data,
                               Path(tmp) / "ws", states)
        t = time.monotonic()
        out = await evaluate_workspace(bt, ws, get_ui_agent("scripted", ladder=ladder),
                                       Deployer(), EvalSettings("flat", 0.5, 1, 1))
        return time.monotonic() - t, _statuses(out.evaluation)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", action="append", default=[])
    ap.add_argument("--corpus-only", action="store_true")
    ap.add_argument("--sim-only", action="store_true")
    args = ap.parse_args()
    root = default_bench_dir()
    rows: list[tuple[str, float, float, int, int]] = []
    if not args.sim_only:
        entries = [e for e in corpus_entries("foreign") if not args.task or e.task in args.task]
        tasks, _ = load_bench(root, sorted({e.task for e in entries}))
        by_id = {bt.id: bt for bt in tasks}
        on_s = off_s = 0.0
        differ = total = 0
        for e in entries:
            bt = by_id[e.task]
            t = time.monotonic()
            on = _statuses(await evaluate_entry(bt, e.path, {"ladder": True}))
            on_s += time.monotonic() - t
            t = time.monotonic()
            off = _statuses(await evaluate_entry(bt, e.path, {"ladder": False}))
            off_s += time.monotonic() - t
            differ += sum(on[k] != off.get(k) for k in on)
            total += len(on)
        rows.append((f"PRD corpus ({len(entries)} apps)", on_s, off_s, differ, total))
    if not args.corpus_only:
        ids = args.task or load_subsets(root)[0]["main"].tasks
        tasks, _ = load_bench(root, ids)
        on_s = off_s = 0.0
        differ = total = 0
        for bt in tasks:
            s_on, on = await _half_built(bt, True)
            s_off, off = await _half_built(bt, False)
            on_s, off_s = on_s + s_on, off_s + s_off
            differ += sum(on[k] != off.get(k) for k in on)
            total += len(on)
        rows.append((f"main job tasks, every other feature missing ({len(tasks)})", on_s,
                     off_s, differ, total))
    print(f"{'case':58} {'ladder on':>10} {'off':>8} {'ratio':>6}  verdicts changed")
    for name, on_s, off_s, differ, total in rows:
        print(f"{name:58} {on_s:9.1f}s {off_s:7.1f}s {on_s / off_s:6.2f}  {differ}/{total}")


if __name__ == "__main__":
    asyncio.run(main())
