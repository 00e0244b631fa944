"""WatchPoint's measures of a sequential cell (``asuka.loop.sequential``), pure functions of
its round records (each carrying its step: the evaluation task and the attempt):

- Pass@1: tasks passed on their first attempt / all the task's evaluation tasks;
- Pass@2: tasks passed within two attempts / all (a task never reached counts as not passed);
- recovery: tasks passed on attempt 2 / tasks that failed attempt 1 and were retried (not
  skipped by the stopping rule): free of the cascade, the measure of the feedback itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from asuka.dag import feedback_view
from asuka.log.records import RoundRecord


def step_passed(rec: RoundRecord) -> bool:
    """The attempt passed: deployed, and every evaluation task judged so far passed."""
    view = feedback_view(rec.evaluation)
    return rec.evaluation.deploy_ok and bool(view) and all(
        r.status == "passed" for r in view.values())


def sequence_metrics(history: Sequence[RoundRecord], n_tasks: int) -> dict[str, Any]:
    passed_on: dict[str, int] = {}
    failed_first: set[str] = set()
    retried: set[str] = set()
    for rec in history:
        if rec.step is None:
            continue
        tid, attempt = rec.step["task"], int(rec.step["attempt"])
        if step_passed(rec):
            passed_on.setdefault(tid, attempt)
        elif attempt == 1:
            failed_first.add(tid)
        if attempt == 2:
            retried.add(tid)
    tried_again = failed_first & retried
    return {"tasks": n_tasks, "passed": len(passed_on),
            "pass_at_1": sum(a == 1 for a in passed_on.values()) / n_tasks if n_tasks else None,
            "pass_at_2": sum(a <= 2 for a in passed_on.values()) / n_tasks if n_tasks else None,
            "recovery": sum(passed_on.get(t) == 2 for t in tried_again) / len(tried_again)
            if tried_again else None}
