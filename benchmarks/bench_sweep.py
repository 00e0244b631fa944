"""Wall time and peak memory of the demo sweep at cell concurrency 1 and 3.

Runs ``asuka sweep experiments/demo.yaml`` in a subprocess once per concurrency level, each into
a fresh run directory, and samples the resident memory of the whole process tree (the sweep, its
Chromium processes and the deployed app servers) with psutil. Prints wall time and peak memory per
level and the ratios between the levels, and checks that every level reached the same numbers (the
simulated agent is deterministic in its seed, so any difference is the load changing verdicts:
a check that timed out on a busy machine).

    .venv/bin/python benchmarks/bench_sweep.py                        # bundled benchmark
    .venv/bin/python benchmarks/bench_sweep.py --bench tests/fixtures/bench --max-rounds 2
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from asuka.results.store import SUMMARY_FILE

ROOT = Path(__file__).resolve().parent.parent


def tree_rss(proc: psutil.Process) -> int:
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return total


def measure(cells: int, args: argparse.Namespace, out: Path) -> dict:
    cmd = [sys.executable, "-m", "asuka.cli", "sweep", str(args.experiment), "--cells",
           str(cells), "--out", str(out), "--run-id", f"bench-c{cells}"]
    if args.bench:
        cmd += ["--bench", str(args.bench)]
    for t in args.task or []:
        cmd += ["--task", t]
    if args.max_rounds:
        cmd += ["--max-rounds", str(args.max_rounds)]
    peak, stop = [0], threading.Event()
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    ps = psutil.Process(proc.pid)

    def sample() -> None:
        while not stop.is_set():
            try:
                peak[0] = max(peak[0], tree_rss(ps))
            except psutil.NoSuchProcess:
                return
            stop.wait(args.interval)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, stderr = proc.communicate()
    wall = time.perf_counter() - t0
    stop.set()
    sampler.join()
    if proc.returncode != 0:
        sys.exit(f"sweep with --cells {cells} failed ({proc.returncode}):\n{stderr[-2000:]}")
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return {"cells": cells, "wall_s": wall, "peak_tree_mb": peak[0] / 2**20,
            "largest_process_mb": largest / 2**20,
            "outcomes": outcomes(out / f"bench-c{cells}" / SUMMARY_FILE)}


def outcomes(summary: Path) -> dict[tuple[str, int], tuple]:
    """(cell, round) -> what the round measured: weighted task and criteria pass rates and the
    executed/passed/failed/skipped counts."""
    data = json.loads(summary.read_text())
    return {(c["cell_id"], r["round"]): (r["task_pass_rate"]["same-artifact"],
                                         r["criteria_pass_rate"]["same-artifact"],
                                         *(r["counts"][k] for k in ("executed", "passed", "failed",
                                                                    "skipped")))
            for c in data["cells"] for r in c["rounds"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiment", type=Path, default=ROOT / "experiments" / "demo.yaml")
    ap.add_argument("--bench", type=Path, default=None)
    ap.add_argument("--task", action="append", help="only these task ids (repeatable)")
    ap.add_argument("--max-rounds", type=int, default=None)
    ap.add_argument("--levels", default="1,3", help="cell concurrency levels (default 1,3)")
    ap.add_argument("--interval", type=float, default=0.2, help="memory sampling period (s)")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    print(f"load average before: {psutil.getloadavg()[0]:.1f} on {psutil.cpu_count()} CPU(s)")
    results = []
    with tempfile.TemporaryDirectory(prefix="asuka-bench-") as tmp:
        for n in levels:
            r = measure(n, args, Path(tmp))
            results.append(r)
            print(f"cells={n}: wall {r['wall_s']:.1f} s, peak memory of the process tree "
                  f"{r['peak_tree_mb']:.0f} MiB (largest single process "
                  f"{r['largest_process_mb']:.0f} MiB)", flush=True)
    base = results[0]
    for r in results[1:]:
        print(f"cells={r['cells']} vs cells={base['cells']}: wall time x"
              f"{r['wall_s'] / base['wall_s']:.2f} (speed-up x{base['wall_s'] / r['wall_s']:.2f}),"
              f" peak memory x{r['peak_tree_mb'] / base['peak_tree_mb']:.2f}")
        differ = sorted(k for k in base["outcomes"].keys() | r["outcomes"].keys()
                        if base["outcomes"].get(k) != r["outcomes"].get(k))
        print(f"cells={r['cells']} vs cells={base['cells']}: {len(base['outcomes']) - len(differ)}"
              f" of {len(base['outcomes'])} cell rounds measured the same"
              + ("" if not differ else "; differing: " + ", ".join(f"{c} r{n}" for c, n in differ)))


if __name__ == "__main__":
    main()
