"""How much feedback helped (WatchPoint's measures, on our rounds): pure functions of the
rounds' evaluations, never the browser.

- ``fixes(prev, cur)``: the criteria that failed where they were executed in one round (``fail``
  or ``not_found``: what the user reported) and pass in the next; a criterion the next round did
  not execute (gated, or an error) is not fixed.
- ``fix_rate(evaluations)``: fixed / failed, pooled over every pair of consecutive rounds.
- ``recovery(evaluations)``: of the evaluation tasks that failed in round 1, the share that
  passed in round 2 (WatchPoint's per-task recovery rate: attempt 2 after a failed attempt 1).
"""

from __future__ import annotations

from collections.abc import Sequence

from asuka.dag import feedback_view
from asuka.schema import RoundEvaluation

FAILED = ("fail", "not_found")


def executed_statuses(evaluation: RoundEvaluation) -> dict[str, str]:
    """criterion id -> verdict status, over the evaluation tasks executed to a verdict."""
    out: dict[str, str] = {}
    for res in feedback_view(evaluation).values():
        if res.status in ("passed", "failed"):
            out.update({v.criterion_id: v.status for v in res.verdicts})
    return out


def fixes(prev: RoundEvaluation, cur: RoundEvaluation) -> tuple[int, int]:
    """(fixed, failed): ``prev``'s executed failures, and how many of them pass in ``cur``."""
    before, after = executed_statuses(prev), executed_statuses(cur)
    failed = [c for c, s in before.items() if s in FAILED]
    return sum(after.get(c) == "pass" for c in failed), len(failed)


def fix_rate(evaluations: Sequence[RoundEvaluation]) -> float | None:
    """Pooled over consecutive rounds; None when no round had an executed failure before
    another round."""
    fixed = failed = 0
    for prev, cur in zip(evaluations, evaluations[1:]):
        f, n = fixes(prev, cur)
        fixed, failed = fixed + f, failed + n
    return fixed / failed if failed else None


def recovery(evaluations: Sequence[RoundEvaluation]) -> float | None:
    """Evaluation tasks failed in round 1 and passed in round 2, over those failed in round 1
    (None with fewer than two rounds or no failure in round 1)."""
    if len(evaluations) < 2:
        return None
    first, second = feedback_view(evaluations[0]), feedback_view(evaluations[1])
    failed = [i for i, r in first.items() if r.status == "failed"]
    if not failed:
        return None
    return sum(second.get(i) is not None and second[i].status == "passed"
               for i in failed) / len(failed)
