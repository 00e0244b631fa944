"""From a run store to summary.json and the Table-1-style summary (reads only; runs nothing).

Per cell and round: the weighted task pass rate and weighted criteria pass rate in both views,
completion, implemented rate, fix rates, and the counts of executed, skipped and errored
evaluation tasks. A cell that stopped early (everything passed) keeps its last artifact for the
remaining rounds of its budget; those rounds are marked ``carried_over``.

Per group of cells that differ only in the task (same agent, start, protocol, threshold): the mean
over tasks with a 95% CI, per round.
"""

from __future__ import annotations

import time
from collections import defaultdict

from asuka.dag import feedback_view
from asuka.schema import BenchTask
from asuka.scoring import VIEWS, Shape, mean_ci, round_metrics, status_counts
from asuka.store import RoundRecord, RunStore, read_json, write_json

GROUP_KEYS = ("agent", "start", "protocol", "threshold", "user", "ui")


def _metrics(shape: Shape, rounds: list, view: str) -> list[dict]:
    return [m.__dict__ for m in round_metrics(shape, rounds, view)]


def cell_summary(spec: dict, label: str, bt: BenchTask, records: list[RoundRecord],
                 result: dict | None) -> dict:
    shape = Shape.of(bt.task)
    budget = spec["rounds"]
    gated = [feedback_view(r.evaluation) for r in records]
    carried = max(0, budget - len(records)) if records else 0
    gated += [gated[-1]] * carried if carried else []  # a cell may have no finished round
    views = {v: _metrics(shape, gated, v) for v in VIEWS}
    ungated = None
    if spec["protocol"] == "full" and records:
        raw = [r.evaluation.results for r in records]
        raw += [raw[-1]] * carried
        ungated = {v: _metrics(shape, raw, v) for v in VIEWS}
    rounds = []
    for k in range(len(gated)):
        rec = records[min(k, len(records) - 1)]
        row = {"round": k + 1, "carried_over": k >= len(records)}
        for key in ("task_pass_rate", "criteria_pass_rate", "completion", "implemented_rate",
                    "task_fix_rate", "criteria_fix_rate"):
            row[key] = {v: views[v][k][key] for v in VIEWS}
            if ungated:
                row["full_" + key] = {v: ungated[v][k][key] for v in VIEWS}
        row["counts"] = status_counts(rec.evaluation.results)
        row["deploy_ok"] = rec.evaluation.deploy_ok
        row["tokens"] = sum(u.input_tokens + u.output_tokens for u in rec.agent.usage)
        row["ui_tokens"] = sum(u.input_tokens + u.output_tokens for u in rec.agent.usage
                               if u.role == "ui-agent")
        rounds.append(row)
    return {"cell_id": label, "agent": spec.get("label") or spec["agent"], "task": spec["task"],
            "start": spec["start"], "protocol": spec["protocol"],
            "threshold": spec["threshold"], "seed": spec["seed"], "user": spec["user"],
            "ui": spec["ui"], "budget": budget, "rounds_run": len(records),
            "stopped_early": bool(result and result.get("stopped_early")),
            "finished": result is not None, "rounds": rounds}


def group_summary(cells: list[dict], ci_method: str = "normal") -> list[dict]:
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for c in cells:
        if c["rounds"]:
            groups[tuple(c[k] for k in GROUP_KEYS)].append(c)
    out = []
    for key, members in groups.items():
        n_rounds = min(len(c["rounds"]) for c in members)
        rounds = []
        for k in range(n_rounds):
            row = {"round": k + 1}
            for metric in ("task_pass_rate", "criteria_pass_rate", "completion",
                           "implemented_rate"):
                for view in VIEWS:
                    e = mean_ci([c["rounds"][k][metric][view] for c in members],
                                method=ci_method)
                    row[f"{metric}.{view}"] = {"mean": e.mean, "low": e.low, "high": e.high,
                                               "half_width": e.half_width, "n": e.n}
            rounds.append(row)
        out.append({**dict(zip(GROUP_KEYS, key)), "tasks": sorted(c["task"] for c in members),
                    "n": len(members), "rounds": rounds})
    return out


def summarize(store: RunStore, tasks: dict[str, BenchTask], ci_method: str = "normal") -> dict:
    """Build (and write) runs/<id>/summary.json from what the store holds."""
    cells = []
    for cell_id in store.cells():
        spec = read_json(store.cell_dir(cell_id) / "cell.json")
        bt = tasks.get(spec["task"])
        if bt is None:
            continue
        cells.append(cell_summary(spec, cell_id, bt, store.load_rounds(cell_id),
                                  store.cell_result(cell_id)))
    summary = {"run": store.root.name, "written_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
               "ci_method": ci_method, "cells": cells, "groups": group_summary(cells, ci_method)}
    write_json(store.root / "summary.json", summary)
    return summary
