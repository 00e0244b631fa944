"""Errors and misses, and what a round cost: per round, summed over the group's cells that ran
it (carried-over rounds add nothing), the evaluation tasks and criteria the harness or judge
could not decide, failed deploys and locator misses (``not_found``: naming, or an absent
feature; counted apart so nobody takes naming for behaviour); the verdicts each rung of the
resolution ladder decided; the criteria executed and the tokens spent. The paper's tables show
them beside the rates (``asuka.report.families.paper``)."""

from __future__ import annotations

from asuka.log.scoring import status_counts
from asuka.log.store import RoundRecord
from asuka.report.families import Family, register
from asuka.vocabulary import DECIDED_BY

ERROR_KINDS = ("tasks", "criteria", "deploy_failures", "not_found")
COST_KINDS = ("criteria_executed", "eval_tokens", "llm_tokens")


def round_errors(rec: RoundRecord) -> dict[str, int]:
    res = rec.evaluation.results.values()
    return {"tasks": sum(r.status == "error" for r in res),
            "criteria": sum(v.status == "error" for r in res for v in r.verdicts),
            "deploy_failures": int(not rec.evaluation.deploy_ok),
            "not_found": sum(v.status == "not_found" for r in res for v in r.verdicts)}


def round_rungs(rec: RoundRecord) -> dict[str, int]:
    """Verdicts per rung of the resolution ladder that decided them (``Verdict.decided_by``:
    scripted, relaxed, adapted, grounded, replanned, llm); every rung listed, zeros too."""
    out = {r: 0 for r in DECIDED_BY}
    for res in rec.evaluation.results.values():
        for v in res.verdicts:
            if v.status in ("pass", "fail", "not_found"):
                out[v.decided_by or "scripted"] += 1
    return out


def round_tokens(rec: RoundRecord, role: str | None = None) -> int:
    return sum(u.input_tokens + u.output_tokens for u in rec.agent.usage
               if role is None or u.role == role)


def round_cost(rec: RoundRecord) -> dict[str, int]:
    return {"criteria_executed": status_counts(rec.evaluation.results)["criteria_executed"],
            "eval_tokens": round_tokens(rec, "ui-agent"), "llm_tokens": round_tokens(rec)}


def total(rows: list[dict[str, int]], kinds: tuple[str, ...]) -> dict[str, int]:
    return {k: sum(r[k] for r in rows) for k in kinds}


def errors_and_cost(ran: list[RoundRecord]) -> dict[str, dict[str, int]]:
    return {"errors": total([round_errors(r) for r in ran], ERROR_KINDS),
            "cost": total([round_cost(r) for r in ran], COST_KINDS),
            "rungs": total([round_rungs(r) for r in ran], DECIDED_BY)}


register(Family("errors", order=1, round_counts=errors_and_cost))
