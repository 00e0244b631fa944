"""Wall time and peak memory of the demo sweep, before and after the fast path, in one run.

Runs ``asuka sweep experiments/demo.yaml`` in a subprocess once per configuration, each into a
fresh run directory, and samples the resident memory of the whole process tree (the sweep, its
Chromium processes and the deployed app servers) with psutil. Configurations:

    before    every timeout waited out (``fast_absence=false``), a screenshot of every task, no
              reuse of evaluations, one cell at a time: the evaluator as it was
    after     the defaults: fast absence, screenshots of failed tasks, reuse, one cell at a time
    after-c2  the defaults with two cells at once (likewise after-c3)

    auto      the defaults with the cells at once ``asuka run`` sizes to the machine

Prints wall time and peak memory per configuration and the ratios to the first, and checks that
every configuration reached the same verdict on every criterion of every cell round (the
simulated agent is deterministic in its seed, so any difference is the evaluator or the load
changing verdicts): each differing verdict is printed. ``--repeat N`` runs every configuration N
times, interleaved (c1, auto, c1, auto, ...), and compares every run with the first.
The tasks default to the main subset (subsets.yaml), what ``make run`` runs.

    .venv/bin/python benchmarks/bench_sweep.py                         # before,after; main subset
    .venv/bin/python benchmarks/bench_sweep.py --configs after,auto --repeat 3   # issue 36
    .venv/bin/python benchmarks/bench_sweep.py --configs after,after-c2 --task kanban-board
    .venv/bin/python benchmarks/bench_sweep.py --bench tests/fixtures/bench --all-tasks
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
import yaml

from asuka.benchmark.subsets import MAIN, load_subsets
from asuka.log.store import SUMMARY_FILE

ROOT = Path(__file__).resolve().parent.parent
CONFIGS: dict[str, dict] = {
    "before": {"cells": 1, "reuse": False,
               "ui_options": {"fast_absence": False, "screenshots": "all"}},
    "after": {"cells": 1},
    "after-c2": {"cells": 2},
    "after-c3": {"cells": 3},
    "auto": {"cells": "auto"},
}


def tree_rss(proc: psutil.Process) -> int:
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return total


def measure(name: str, args: argparse.Namespace, out: Path, rep: int = 0) -> dict:
    config = CONFIGS[name]
    experiment = yaml.safe_load(args.experiment.read_text())
    if config.get("ui_options"):
        ui = experiment.get("ui") or "scripted"
        ui = ui if isinstance(ui, dict) else {"backend": ui}
        experiment["ui"] = {**ui, "options": {**ui.get("options", {}), **config["ui_options"]}}
    if args.bench is None and "bench" in experiment:  # relative to the original file
        experiment["bench"] = str((args.experiment.parent / experiment["bench"]).resolve())
    run_id = f"bench-{name}" + (f"-{rep + 1}" if args.repeat > 1 else "")
    exp_file = out / f"{run_id}.yaml"
    exp_file.write_text(yaml.safe_dump(experiment))
    cmd = [sys.executable, "-m", "asuka.cli", "sweep", str(exp_file), "--cells",
           str(config["cells"]), "--out", str(out), "--run-id", run_id]
    if not config.get("reuse", True):
        cmd.append("--no-reuse")
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
        sys.exit(f"sweep {name} failed ({proc.returncode}):\n{stderr[-2000:]}")
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return {"name": name if args.repeat == 1 else f"{name} #{rep + 1}", "wall_s": wall,
            "peak_tree_mb": peak[0] / 2**20, "largest_process_mb": largest / 2**20,
            "outcomes": outcomes(out / run_id / SUMMARY_FILE),
            "verdicts": verdicts(out / run_id)}


def verdicts(run: Path) -> dict[tuple[str, int, str], str]:
    """(cell, round, criterion) -> the criterion's verdict, from every round's verdicts.json
    (a reused round holds the verdicts it took). The cell is named by its id without the
    trailing digest, which covers the UI options that differ between configurations."""
    out = {}
    for f in sorted(run.glob("*/round-*/verdicts.json")):
        cell = f.parent.parent.name.rpartition("_")[0]
        rnd = int(f.parent.name.split("-")[1])
        for res in json.loads(f.read_text())["results"].values():
            for v in res["verdicts"]:
                out[(cell, rnd, v["criterion_id"])] = v["status"]
    return out


def outcomes(summary: Path) -> dict[tuple[str, int], tuple]:
    """(agent_task, round) -> what the round measured: weighted task and criteria pass rates
    and the executed/passed/failed/skipped counts. Keyed by agent and task, not by cell id: the
    id digests the UI options, which differ between configurations."""
    data = json.loads(summary.read_text())
    return {(f"{c['agent']}_{c['task']}", r["round"]): (r["task_pass_rate"]["same-artifact"],
                                         r["criteria_pass_rate"]["same-artifact"],
                                         *(r["counts"][k] for k in ("executed", "passed", "failed",
                                                                    "skipped")))
            for c in data["cells"] for r in c["rounds"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiment", type=Path, default=ROOT / "experiments" / "demo.yaml")
    ap.add_argument("--bench", type=Path, default=None)
    ap.add_argument("--task", action="append", help="only these task ids (repeatable; "
                                                     "default: the main subset)")
    ap.add_argument("--all-tasks", action="store_true", help="the experiment's own tasks")
    ap.add_argument("--max-rounds", type=int, default=None)
    ap.add_argument("--configs", default="before,after",
                    help=f"configurations to compare, the first the base ({', '.join(CONFIGS)})")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each configuration "
                    "(interleaved; every run is compared with the first)")
    ap.add_argument("--interval", type=float, default=0.2, help="memory sampling period (s)")
    ap.add_argument("--keep", type=Path, default=None,
                    help="write the runs here (kept) instead of a temporary directory")
    args = ap.parse_args()
    names = args.configs.split(",")
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        ap.error(f"unknown configuration(s) {', '.join(unknown)}; known: {', '.join(CONFIGS)}")
    if not args.task and not args.all_tasks:
        subsets, problems = load_subsets(args.bench or ROOT)
        if MAIN in subsets and not problems:
            args.task = subsets[MAIN].tasks
    print(f"load average before: {psutil.getloadavg()[0]:.1f} on {psutil.cpu_count()} CPU(s); "
          f"tasks: {', '.join(args.task) if args.task else 'those of the experiment'}")
    results = []
    with tempfile.TemporaryDirectory(prefix="asuka-bench-") as tmp:
        out = args.keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        for rep in range(args.repeat):
            for name in names:
                r = measure(name, args, out, rep)
                results.append(r)
                print(f"{r['name']}: wall {r['wall_s']:.1f} s, peak memory of the process tree "
                      f"{r['peak_tree_mb']:.0f} MiB (largest single process "
                      f"{r['largest_process_mb']:.0f} MiB)", flush=True)
    base = results[0]
    for r in results[1:]:
        print(f"{r['name']} vs {base['name']}: wall time x{r['wall_s'] / base['wall_s']:.2f} "
              f"(speed-up x{base['wall_s'] / r['wall_s']:.2f}), peak memory "
              f"x{r['peak_tree_mb'] / base['peak_tree_mb']:.2f}")
        differ = sorted(k for k in base["outcomes"].keys() | r["outcomes"].keys()
                        if base["outcomes"].get(k) != r["outcomes"].get(k))
        print(f"{r['name']} vs {base['name']}: {len(base['outcomes']) - len(differ)} of "
              f"{len(base['outcomes'])} cell rounds measured the same"
              + ("" if not differ else "; differing: " + ", ".join(f"{c} r{n}" for c, n in differ)))
        changed = sorted(k for k in base["verdicts"].keys() | r["verdicts"].keys()
                         if base["verdicts"].get(k) != r["verdicts"].get(k))
        print(f"{r['name']} vs {base['name']}: {len(base['verdicts']) - len(changed)} of "
              f"{len(base['verdicts'])} verdicts the same")
        for cell, rnd, crit in changed:
            print(f"  verdict differs: {cell} round {rnd} {crit}: "
                  f"{base['verdicts'].get((cell, rnd, crit))} vs "
                  f"{r['verdicts'].get((cell, rnd, crit))}")
    walls: dict[str, list[float]] = {}
    for r in results:
        walls.setdefault(r["name"].split(" #")[0], []).append(r["wall_s"])
    if args.repeat > 1:
        for name, ws in walls.items():
            print(f"{name}: wall {', '.join(f'{w:.1f}' for w in ws)} s (mean {sum(ws) / len(ws):.1f} s)")


if __name__ == "__main__":
    main()
