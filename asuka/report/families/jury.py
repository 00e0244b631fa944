"""LiveEvalBench's jury: each evaluator's points on the last round's artifact, and the jury
score (the points over the scored evaluators' caps) per round."""

from __future__ import annotations

from typing import Any

from asuka.evaluators import jury_score
from asuka.log.scoring import Estimate
from asuka.report.data import CellData, Group
from asuka.report.families import Family, FamilyContext, estimates_under, register
from asuka.report.table import Table, estimate_or_nan, head


def jury_value(c: CellData, k: int) -> float | None:
    """The jury score of round ``k + 1``'s artifact as a share of its points (LiveEvalBench's
    90-point score / 90); None when no evaluator was scored."""
    if not c.records:
        return None
    got = jury_score(c.records[min(k, len(c.records) - 1)].evaluation.jury)
    return got[0] / got[1] if got and got[1] else None


def evaluator_points(g: Group, ctx: FamilyContext) -> dict[str, Estimate]:
    """Each evaluator's score on the last round's artifact (judged or gated: an evaluator in
    error, or with nothing applicable, is no value)."""
    def points(c: CellData, evaluator: str) -> float | None:
        got = c.records[-1].evaluation.jury.get(evaluator) if c.records else None
        return got.score if got is not None and got.status != "error" else None

    ids = sorted({i for c in g.cells if c.records for i in c.records[-1].evaluation.jury})
    return {i: g.estimate(lambda c, i=i: points(c, i), ctx.ci) for i in ids}


def jury_round(g: Group, k: int, ctx: FamilyContext) -> dict[str, Estimate]:
    if any(c.records and c.records[min(k, len(c.records) - 1)].evaluation.jury
           for c in g.cells):
        return {"jury.same-artifact": g.estimate(lambda c: jury_value(c, k), ctx.ci)}
    return {}


def jury_table(agg: Any, view: str = "cumulative") -> Table | None:
    """LiveEvalBench's jury: each evaluator's points and the jury score on the last round."""
    if not any(g.families.get("jury") for g in agg.groups):
        return None
    evaluators = sorted({e for g in agg.groups for e in g.families.get("jury", {})})
    t = Table("jury", "Jury of evaluators (last round's artifact): points per evaluator and the "
              "jury score", [*head(agg), "n", *evaluators, "jury"], percent={"jury"})
    for g in agg.groups:
        if not g.families.get("jury"):
            continue
        t.rows.append([*g.labels(agg.varying), g.n,
                       *[g.families["jury"].get(e, estimate_or_nan(None)) for e in evaluators],
                       estimate_or_nan(g.rounds[-1].metrics.get("jury.same-artifact"))])
    t.note = ("Points out of each evaluator's cap (evaluators/*.yaml; shipped: build engineer "
              "15, code engineer 30, UI tester 45). An evaluator gated by a build that did not "
              "pass scores 0; one in error, or with no criterion the query asks for, is left "
              "out. Jury: the points over the scored evaluators' caps.")
    return t


register(Family("jury", order=60, aggregate=evaluator_points,
                json=estimates_under("jury"),
                round_metrics=jury_round, table=jury_table))
