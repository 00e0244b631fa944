"""Builds small benchmark directories on disk for tests (a valid one, then broken copies)."""

from __future__ import annotations

from pathlib import Path

import yaml

TASK = {
    "id": "mini",
    "title": "Mini counter",
    "category": "utility",
    "query": "Make me a counter page.",
    "data": ["data/seed.json"],
    "eval_tasks": [
        {"id": "t0", "summary": "Layout present", "type": "presence", "weight": 2,
         "criteria": [{"id": "t0.c0", "text": "A heading is shown.",
                       "check": [{"goto": "/"}, {"expect_visible": {"role": "heading"}}]},
                      {"id": "t0.c1", "text": "A counter button is shown."}]},
        {"id": "t1", "summary": "Counting", "type": "functionality", "weight": 3,
         "criteria": [{"id": "t1.c0", "text": "Clicking increments."}]},
        {"id": "t2", "summary": "Reset", "type": "robustness", "weight": 4,
         "criteria": [{"id": "t2.c0", "text": "Reset returns to zero."}]},
    ],
}
DAG = {"edges": [["t0", "t1"], ["t1", "t2"]]}


def write_bench(root: Path, task: dict | None = None, dag: dict | None = None,
                prd: str | None = "# PRD\n\nA counter.\n", task_text: str | None = None,
                dag_text: str | None = None) -> Path:
    t = task if task is not None else TASK
    tid = t.get("id", "mini") if isinstance(t, dict) else "mini"
    folder = root / "tasks" / tid
    (folder / "data").mkdir(parents=True, exist_ok=True)
    (folder / "data" / "seed.json").write_text("{}")
    (folder / "task.yaml").write_text(task_text if task_text is not None
                                      else yaml.safe_dump(t, sort_keys=False))
    (root / "prds").mkdir(exist_ok=True)
    (root / "dags").mkdir(exist_ok=True)
    if prd is not None:
        (root / "prds" / f"{tid}.md").write_text(prd)
    (root / "dags" / f"{tid}.yaml").write_text(dag_text if dag_text is not None
                                               else yaml.safe_dump(dag if dag is not None else DAG))
    return root
