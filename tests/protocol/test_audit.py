"""The record auditor: findings on hand-built verdicts, and targeted remediation rounds that
fix one finding with new evidence and leave another unresolved (then an error, scored 0)."""

from __future__ import annotations

import asyncio

from asuka.log.contracts import TaskContract, outcomes_of, score_run
from asuka.protocol.audit import MAX_REMEDIATIONS, audit_result, audited
from asuka.schema import EvalTask, EvalTaskResult, Evidence, RoundEvaluation, Verdict


def eval_task(n: int = 3, source_verifiable: tuple[int, ...] = ()) -> EvalTask:
    return EvalTask.model_validate({
        "id": "t1", "summary": "s", "type": "functionality", "weight": 2,
        "criteria": [{"id": f"t1.c{i}", "text": f"criterion {i}",
                      "source_verifiable": i in source_verifiable} for i in range(n)]})


def llm(cid: str, status: str = "pass", reason: str = "saw it", snapshot: str | None = None
        ) -> Verdict:
    return Verdict(criterion_id=cid, status=status, reason=reason, backend="browser-use",
                   snapshot=snapshot)


def result(*verdicts: Verdict, screenshot: str | None = None) -> EvalTaskResult:
    return EvalTaskResult(eval_task_id="t1", status="failed", verdicts=list(verdicts),
                          evidence=Evidence(screenshot=screenshot))


def test_findings_name_the_criterion_and_the_defect() -> None:
    et = eval_task(4, source_verifiable=(3,))
    res = result(Verdict(criterion_id="t1.c0", status="fail", backend="scripted", step=2),
                 llm("t1.c1", reason=""), llm("t1.c1"), llm("t9.c0"),
                 Verdict(criterion_id="t1.c3", status="pass", backend="source", reason="ok"))
    kept, findings = audit_result(et, res)
    assert [v.criterion_id for v in kept] == ["t1.c0", "t1.c1", "t1.c3"]
    got = {(f.criterion_id, f.defect) for f in findings}
    assert got == {("t1.c1", "duplicate"), ("t9.c0", "unknown"), ("t1.c2", "missing"),
                   ("t1.c1", "evidence")}
    # the same LLM verdict with a screenshot of the task is admissible; a source inspection
    # of a behavioural criterion is not
    _, findings = audit_result(eval_task(2), result(
        llm("t1.c0"), Verdict(criterion_id="t1.c1", status="pass", backend="source",
                              reason="the handler exists"), screenshot="t1.png"))
    assert [(f.criterion_id, f.defect) for f in findings] == [("t1.c1", "evidence")]
    assert "source inspection" in findings[0].detail
    # errors and unverifiable verdicts claim nothing
    assert audit_result(eval_task(2), result(
        Verdict(criterion_id="t1.c0", status="error", reason="x", backend="browser-use"),
        Verdict(criterion_id="t1.c1", status="unverifiable")))[1] == []


def test_remediation_fixes_one_finding_and_not_another() -> None:
    """c1 comes back without evidence and is re-judged with a snapshot in the first remediation
    round; c2 never gets a verdict: after three rounds it is an error. Only the affected
    criteria are re-run."""
    calls: list[list[str]] = []

    async def evaluator(et: EvalTask) -> EvalTaskResult:
        ids = [c.id for c in et.criteria]
        calls.append(ids)
        if len(calls) == 1:
            return result(Verdict(criterion_id="t1.c0", status="pass", backend="scripted"),
                          llm("t1.c1", reason=""))
        return result(llm("t1.c1", snapshot="t1.c1.aria.txt"))  # c2 still missing

    res = asyncio.run(audited(evaluator)(eval_task(3)))
    assert calls == [["t1.c0", "t1.c1", "t1.c2"], ["t1.c1", "t1.c2"],
                     ["t1.c2"], ["t1.c2"]]
    assert [(v.criterion_id, v.status) for v in res.verdicts] == [
        ("t1.c0", "pass"), ("t1.c1", "pass"), ("t1.c2", "error")]
    assert res.verdicts[1].snapshot == "t1.c1.aria.txt"  # the revised verdict, new evidence
    assert res.verdicts[2].reason.startswith("audit: the UI agent returned no verdict")
    assert res.status == "error" and res.error == res.verdicts[2].reason
    audit = res.audit
    assert {(f.criterion_id, f.defect) for f in audit.findings} == {
        ("t1.c1", "evidence"), ("t1.c2", "missing")}
    assert [v.reason for v in audit.original] == ["", ""]  # as first returned: kept
    assert len(audit.remediations) == MAX_REMEDIATIONS
    assert audit.remediations[0].criteria == ["t1.c1", "t1.c2"]
    assert audit.unresolved == ["t1.c2"]
    # scored: the unresolved claim counts 0 and stays in the denominator
    ev = RoundEvaluation(protocol="flat", threshold=0.5, results={"t1": res})
    contract = TaskContract("t1", ("t1.c0", "t1.c1", "t1.c2"), frozenset({"t1.c0"}), core=True)
    s = score_run([contract], outcomes_of(ev), operable=True)
    assert s.ats == 2 / 3 and s.success == 0.0


def test_a_clean_record_is_returned_untouched() -> None:
    async def evaluator(et: EvalTask) -> EvalTaskResult:
        return result(*(Verdict(criterion_id=c.id, status="fail", backend="scripted")
                        for c in et.criteria))

    res = asyncio.run(audited(evaluator)(eval_task(2)))
    assert res.audit is None and [v.status for v in res.verdicts] == ["fail", "fail"]
