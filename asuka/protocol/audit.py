"""The record auditor (JoyFrontBench's deterministic audit with targeted remediation).

After a UI agent returns an evaluation task's verdicts and before anything is gated or scored,
``audit_result`` checks them against the authoritative task: every criterion has exactly one
verdict (missing ones are findings, unknown and duplicate ones are dropped), and every
behavioural claim (pass, fail, not found) carries admissible evidence:

- a scripted or grounded verdict is its check-step trace: admissible by construction;
- an LLM verdict needs its reason (what it observed) and an execution observation: the
  browser actions it took on the app (``Verdict.trace``), an accessibility snapshot, the
  observed text a wording judgement was given (``groundings``), or the task's screenshot;
- a source inspection (``backend: source``) is admissible only for a source-verifiable
  criterion.

``audited`` wraps an evaluator: up to ``MAX_REMEDIATIONS`` targeted rounds re-run only the
affected criteria on the same deployment (nothing is regenerated), and a verdict is replaced
only by one that passes the audit (new evidence). A claim still without admissible evidence
after them becomes an ``error`` (the judge could not back it: scored 0, never charged to the
app, never sent as feedback). The initial verdicts, the findings, each remediation and the
revised verdicts are kept in ``EvalTaskResult.audit``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asuka.schema import AuditFinding, EvalTask, EvalTaskResult, Remediation, TaskAudit, Verdict

MAX_REMEDIATIONS = 3
CLAIMS = frozenset({"pass", "fail", "not_found"})

Evaluator = Callable[[EvalTask], Awaitable[EvalTaskResult]]


def verdict_defect(eval_task: EvalTask, result: EvalTaskResult, v: Verdict) -> str | None:
    """Why a verdict's evidence is not admissible (None: it is)."""
    if v.status not in CLAIMS:
        return None  # error / unverifiable: not a claim about the app
    crit = next((c for c in eval_task.criteria if c.id == v.criterion_id), None)
    if v.backend == "source":
        if crit is None or not crit.source_verifiable:
            return "inadmissible: a source inspection cannot decide a behavioural criterion"
        return None
    if v.decided_by in ("scripted", "relaxed", "adapted", "grounded", "replanned"):
        return None  # the check's own steps (and their rescues, recorded) are the trace
    if v.backend == "scripted" and any(g.get("kind") == "wording" for g in v.groundings):
        return None  # the check's steps ran; the wording judgement is recorded with its text
    if not v.reason.strip():
        return "no evidence: the verdict says nothing about what was observed"
    shot = result.evidence is not None and result.evidence.screenshot
    if not (v.trace or v.snapshot or v.groundings or shot):
        return ("no evidence: no browser action, accessibility snapshot, observed text or "
                "screenshot was recorded")
    return None


def audit_result(eval_task: EvalTask, result: EvalTaskResult
                 ) -> tuple[list[Verdict], list[AuditFinding]]:
    """The verdicts kept, in the task's criterion order, and the findings (pure)."""
    known = {c.id for c in eval_task.criteria}
    findings: list[AuditFinding] = []
    first: dict[str, Verdict] = {}
    for v in result.verdicts:
        if v.criterion_id not in known:
            findings.append(AuditFinding(criterion_id=v.criterion_id, defect="unknown",
                                         detail="not a criterion of this evaluation task"))
        elif v.criterion_id in first:
            findings.append(AuditFinding(criterion_id=v.criterion_id, defect="duplicate",
                                         detail="a second verdict (the first one is kept)"))
        else:
            first[v.criterion_id] = v
    if result.status == "skipped":
        return list(first.values()), findings
    for c in eval_task.criteria:
        found = first.get(c.id)
        if found is None:
            findings.append(AuditFinding(criterion_id=c.id, defect="missing",
                                         detail="the UI agent returned no verdict"))
        elif (why := verdict_defect(eval_task, result, found)) is not None:
            findings.append(AuditFinding(criterion_id=c.id, defect="evidence", detail=why))
    return [first[c.id] for c in eval_task.criteria if c.id in first], findings


def task_status(verdicts: list[Verdict]) -> str:
    """An evaluation task's status from its verdicts: error if any is undecided, passed when
    all pass, else failed (the rule every UI agent applies)."""
    if any(v.status == "error" for v in verdicts):
        return "error"
    return "passed" if verdicts and all(v.status == "pass" for v in verdicts) else "failed"


def _remediable(findings: list[AuditFinding]) -> list[str]:
    return list(dict.fromkeys(f.criterion_id for f in findings
                              if f.defect in ("missing", "evidence")))


def audited(evaluator: Evaluator, max_remediations: int = MAX_REMEDIATIONS) -> Evaluator:
    """``evaluator`` with the audit and its targeted remediation rounds applied."""

    async def evaluate(eval_task: EvalTask) -> EvalTaskResult:
        result = await evaluator(eval_task)
        if result.status == "skipped" or (result.status == "error" and not result.verdicts):
            return result  # nothing was claimed: the engine's retries handle it
        kept, findings = audit_result(eval_task, result)
        if not findings:
            return result
        audit = TaskAudit(findings=findings, original=list(result.verdicts))
        by_id = {v.criterion_id: v for v in kept}
        affected = _remediable(findings)
        for attempt in range(1, max_remediations + 1):
            if not affected:
                break
            subset = eval_task.model_copy(update={
                "criteria": [c for c in eval_task.criteria if c.id in affected]})
            again = await evaluator(subset)
            new, new_findings = audit_result(subset, again)
            bad = {f.criterion_id for f in new_findings if f.defect in ("missing", "evidence")}
            for v in new:
                if v.criterion_id not in bad:
                    by_id[v.criterion_id] = v  # new, admissible evidence
            audit.remediations.append(Remediation(attempt=attempt, criteria=affected,
                                                  verdicts=new, findings=new_findings))
            if again.evidence is not None and again.evidence.screenshot and (
                    result.evidence is None or not result.evidence.screenshot):
                result = result.model_copy(update={"evidence": again.evidence})
            affected = [c for c in affected if c in bad]
        for cid in affected:  # still no admissible verdict: the judge could not back a claim
            why = next(f.detail for f in reversed(
                [*findings, *(f for r in audit.remediations for f in r.findings)])
                if f.criterion_id == cid)
            old = by_id.get(cid)
            by_id[cid] = Verdict(criterion_id=cid, status="error",
                                 backend=old.backend if old else "",
                                 decided_by=old.decided_by if old else None,
                                 reason=f"audit: {why}" + (f" (claimed {old.status})"
                                                           if old else ""))
        audit.unresolved = affected
        verdicts = [by_id[c.id] for c in eval_task.criteria if c.id in by_id]
        status = task_status(verdicts)
        error = next((v.reason for v in verdicts if v.status == "error"), None)
        return result.model_copy(update={"verdicts": verdicts, "status": status,
                                         "error": error, "audit": audit})

    return evaluate
