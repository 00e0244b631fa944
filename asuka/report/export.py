"""One row per criterion verdict of a run, for pandas: CSV, JSON lines or Parquet.

Columns: run, cell, agent, task, start, protocol, threshold, seed, round, eval_task, type,
weight, task_status, criterion, status, reason, backend, duration, cell_state (finished, failed
or unfinished: only finished cells are scored; filter on it). Criteria of a skipped
evaluation task get a row with status ``skipped`` (reason: the unsatisfied parents); those of an
evaluation task that errored without verdicts get status ``error``."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

from asuka.report.data import RunData, load_run

COLUMNS = ("run", "cell", "agent", "task", "start", "protocol", "threshold", "seed", "round",
           "eval_task", "type", "weight", "task_status", "criterion", "status", "reason",
           "backend", "duration", "cell_state")
EXPORT_FORMATS = ("csv", "jsonl", "parquet")


class ExportError(RuntimeError):
    pass


def verdict_rows(run: RunData) -> Iterator[dict]:
    for c in run.cells:
        if c.bt is None:  # its task is not in the benchmark (--allow-changed-tasks)
            continue
        base = {"run": run.name, "cell": c.cell_id, "agent": c.label, "task": c.task,
                "start": c.spec["start"], "protocol": c.spec["protocol"],
                "threshold": float(c.spec["threshold"]), "seed": int(c.spec["seed"])}
        for rec in c.records:
            for et in c.bt.task.eval_tasks:
                res = rec.evaluation.results.get(et.id)
                head = {**base, "round": rec.round, "eval_task": et.id, "type": et.type,
                        "weight": et.weight, "task_status": res.status if res else None}
                verdicts = {v.criterion_id: v for v in (res.verdicts if res else [])}
                for cr in et.criteria:
                    v = verdicts.get(cr.id)
                    if v is not None:
                        yield {**head, "criterion": cr.id, "status": v.status,
                               "reason": v.reason, "backend": v.backend,
                               "duration": float(v.duration_s), "cell_state": c.state}
                        continue
                    status = res.status if res and res.status in ("skipped", "error") \
                        else "missing"
                    reason = (f"parents not satisfied: {', '.join(res.skipped_because)}"
                              if res and res.status == "skipped" else (res.error or "")
                              if res else "not recorded")
                    yield {**head, "criterion": cr.id, "status": status, "reason": reason,
                           "backend": "", "duration": 0.0, "cell_state": c.state}


def export_run(run_dir: Path | str, fmt: str, out: Path | str | None = None,
               bench: Path | None = None,
               allow_changed_tasks: bool = False) -> tuple[Path, int, list[str]]:
    """Write the rows; returns the file, the number of rows and the notices (provenance) to
    show. Raises ChangedTasksError for a run on changed or missing tasks unless
    ``allow_changed_tasks``."""
    if fmt not in EXPORT_FORMATS:
        raise ExportError(f"unknown format {fmt!r}; known: {', '.join(EXPORT_FORMATS)}")
    if fmt == "parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ExportError("parquet export needs pyarrow: pip install 'asuka[parquet]' "
                              "(or use --format csv / jsonl)") from None
    run = load_run(run_dir, bench, allow_changed_tasks)
    path = Path(out) if out else run.root / f"verdicts.{fmt}"
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = list(verdict_rows(run))
    if fmt == "csv":
        with path.open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            w.writerows(rows)
    elif fmt == "jsonl":
        with path.open("w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    else:
        table = pa.Table.from_pylist(rows) if rows else pa.table({c: [] for c in COLUMNS})
        pq.write_table(table, path)
    return path, len(rows), run.notices
