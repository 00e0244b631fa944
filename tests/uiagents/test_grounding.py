"""Grounded checks end to end: the scripted agent in real Chromium against an app built "another
way" (its own names), the grounding and wording judge answered by the local scripted LLM server
(tests/llm_server.py). Nothing is patched: the requests really go over HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

# imported before any test points tempfile at its scratch folder (see tests/uiagents/test_browser_use.py)
import asuka.uiagents.browser_use.agent  # noqa: F401
from asuka import uiagents
from asuka.llm import ModelSpec
from asuka.protocol.evaluate import artifact_hash
from asuka.schema import EvalTask, EvalTaskResult, RoundEvaluation, Task
from asuka.uiagents.grounding import GroundingReply, trim_snapshot
from asuka.uiagents.scripted.agent import ScriptedUIAgent
from asuka.users.template import TemplateUser
from tests.llm_server import (
    Recorded,
    ScriptedLLMServer,
    agent_step,
    done_action,
    json_reply,
    llm_server,  # noqa: F401 - fixture
    request_text,
    text,
)

pytestmark = pytest.mark.browser

# An app written from the query, not from the checks: "Work it out" where the check says
# "Calculate", an empty state in its own words. "Add sample" saves to localStorage, so a re-run
# that did not start from the criterion's storage would count two.
APP = """<!doctype html><html><head><title>Loans</title></head><body>
<main>
<h1>Your loan</h1>
<label>Amount <input id="amt" value="1000"></label>
<button id="go">Work it out</button>
<button id="add">Add sample</button>
<p id="out" role="status"></p>
<p id="saved"></p>
<p id="empty">Nothing saved so far</p>
</main>
<script>
const list = () => JSON.parse(localStorage.getItem('saved') || '[]');
const show = () => { document.getElementById('saved').textContent = list().length + ' saved'; };
document.getElementById('go').onclick = () => {
  document.getElementById('out').textContent =
    'Monthly payment: $' + (Number(document.getElementById('amt').value) / 10).toFixed(2);
};
document.getElementById('add').onclick = () => {
  localStorage.setItem('saved', JSON.stringify([...list(), 'sample'])); show(); };
show();
</script></body></html>"""

OPTS = dict(assert_timeout_s=3, action_timeout_s=2, nav_timeout_s=10)

CALCULATE = {"click": {"role": "button", "name": "Calculate"}}
PAYMENT = "Clicking the calculate button shows the monthly payment of $100.00"
EXPORT = "An export button downloads the schedule as CSV"


def task(tid: str, *criteria: tuple[str, str, list]) -> EvalTask:
    return EvalTask.model_validate({
        "id": tid, "summary": "Loan calculator", "type": "functionality", "weight": 1,
        "criteria": [{"id": cid, "text": t, "check": steps} for cid, t, steps in criteria]})


def spec(server: ScriptedLLMServer, provider: str = "openai") -> ModelSpec:
    return ModelSpec(provider=provider, model=f"fake-{provider}",
                     base_url=server.base_url(provider), max_retries=0, timeout_s=20)


@pytest.fixture
def app(static_server: Any, tmp_path: Path) -> Any:
    root = tmp_path / "app"
    root.mkdir()
    (root / "index.html").write_text(APP)
    srv = static_server(root)
    srv.root = root
    return srv


async def evaluate(agent: ScriptedUIAgent, app: Any, et: EvalTask, evidence: Path | None = None,
                   artifact: str | None = None) -> tuple[EvalTaskResult, list]:
    session = await agent.open(app.url, evidence_dir=evidence, artifact=artifact)
    try:
        return await session.evaluate(et), session.usage()
    finally:
        await session.close()


def grounding(loc: dict | str, reason: str = "the page's own name for it"):
    return json_reply({"locator": loc, "reason": reason})


def is_grounding_call(rec: Recorded) -> bool:
    return "no element matches" in request_text(rec) and "<browser_state>" not in \
        request_text(rec)


# ---------------------------------------------------------------- offline units


def test_reply_validation_and_snapshot_budget() -> None:
    ok = GroundingReply.parse({"locator": {"role": "button", "name": "Go", "nth": None,
                                           "css": None}, "reason": "x"})
    assert ok.locator.describe() == "role='button' name='Go'"  # type: ignore[union-attr]
    assert GroundingReply.parse({"locator": "Absent", "reason": "none"}).locator == "absent"
    for bad in ({"locator": {"name": "Go"}}, {"locator": {"role": "button", "css": "b"}},
                {"locator": "the blue one"}, {"reason": "no locator"}, ["absent"]):
        with pytest.raises(ValueError):
            GroundingReply.parse(bad)
    snap = "\n".join(f"- button \"b{i}\"" + "x" * 300 for i in range(200))
    trimmed = trim_snapshot(snap, 2_000)
    assert len(trimmed) <= 2_100 and trimmed.endswith("more line(s) left out")
    with pytest.raises(ValueError, match="needs a model"):
        uiagents.get("scripted", grounding="llm")


# ---------------------------------------------------------------- a miss, grounded, re-run


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_miss_grounded_then_rerun_passes(llm_server: ScriptedLLMServer, app: Any,
                                               tmp_path: Path, provider: str) -> None:
    llm_server.script(grounding({"role": "button", "name": "Work it out"},
                                "the only button that computes the payment"))
    agent = uiagents.get("scripted", grounding="llm", grounding_model=spec(llm_server, provider),
                         **OPTS)
    et = task("g1", ("g1.pay", PAYMENT, [
        {"click": {"role": "button", "name": "Add sample"}},
        CALCULATE,
        {"expect_text": {"role": "status", "value": "Monthly payment: $100.00"}},
        {"expect_text": {"css": "#saved", "value": "1 saved"}}]))  # storage put back
    res, usage = await evaluate(agent, app, et, tmp_path / "ev", artifact_hash(app.root))
    (v,) = res.verdicts
    assert (v.status, v.decided_by, v.backend, v.reason) == ("pass", "grounded", "scripted", "")
    assert res.status == "passed"
    (g,) = v.groundings
    assert g == {"kind": "locator", "step": 1, "original": "role='button' name='Calculate'",
                 "grounded": "role='button' name='Work it out'",
                 "reason": "the only button that computes the payment",
                 "model": spec(llm_server, provider).label, "tokens": 15, "cached": False,
                 "outcome": "re-run"}
    # one text-only request with the intent, the miss and the page's accessibility tree
    (rec,) = llm_server.requests
    sent = request_text(rec)
    assert PAYMENT in sent and "role='button' name='Calculate'" in sent
    assert 'button "Work it out"' in sent and "Step 2 failed" in sent
    assert "image" not in json.dumps(rec.body)
    (u,) = usage
    assert (u.role, u.calls, u.input_tokens, u.output_tokens) == ("ui-agent", 1, 10, 5)


async def test_absent_stays_not_found(llm_server: ScriptedLLMServer, app: Any,
                                      tmp_path: Path) -> None:
    llm_server.script(grounding("absent", "no control exports anything"))
    agent = uiagents.get("scripted", grounding="llm", grounding_model=spec(llm_server), **OPTS)
    et = task("g2", ("g2.csv", EXPORT, [{"click": {"role": "button", "name": "Export CSV"}}]))
    res, _ = await evaluate(agent, app, et, tmp_path / "ev")
    (v,) = res.verdicts
    assert (v.status, v.decided_by) == ("not_found", "grounded")
    assert v.locator == "role='button' name='Export CSV'" and v.snapshot == "g2.csv.aria.yaml"
    assert "Work it out" in (tmp_path / "ev" / v.snapshot).read_text()
    assert [(g["grounded"], g["outcome"], g["reason"]) for g in v.groundings] == [
        ("absent", "absent", "no control exports anything")]
    assert len(llm_server.requests) == 1 and res.status == "failed"


async def test_unusable_reply_is_recorded_and_the_miss_stands(
        llm_server: ScriptedLLMServer, app: Any) -> None:
    # each miss: a grounding, then (still a miss) a re-planning request; both unusable here
    llm_server.script(text("Probably the blue button on the left."), text("Not sure."),
                      grounding({"role": "button", "name": "Calculate"}),  # the very miss
                      text("{\"steps\": [{\"click\": {\"css\": \"#x\"}}], \"reason\": \"x\"}"))
    agent = uiagents.get("scripted", grounding="llm", grounding_model=spec(llm_server), **OPTS)
    et = task("g3", ("g3.a", PAYMENT, [CALCULATE]), ("g3.b", PAYMENT, [CALCULATE]))
    res, usage = await evaluate(agent, app, et)
    a, b = res.verdicts
    assert (a.status, a.decided_by, b.status, b.decided_by) == (
        "not_found", "scripted", "not_found", "scripted")
    assert a.groundings[0]["grounded"] is None and "unusable" in a.groundings[0]["reason"]
    assert b.groundings[0]["outcome"] == "unusable: the locator that missed"
    # a re-planned check without the check's assertion is rejected; the miss stands
    assert [g["kind"] for g in a.groundings] == ["locator", "replan"]
    assert "unusable" in a.groundings[1]["reason"]
    assert "rejected" in b.groundings[1]["reason"] and b.groundings[1]["steps"] is None
    assert usage[0].calls == 4  # unusable replies are billed too


async def test_grounded_fail_and_feedback_name_only_what_the_user_asked(
        llm_server: ScriptedLLMServer, app: Any) -> None:
    llm_server.script(grounding({"role": "button", "name": "Work it out"}))
    agent = uiagents.get("scripted", grounding="llm", grounding_model=spec(llm_server), **OPTS)
    crit = ("g4.pay", PAYMENT, [CALCULATE,
                                {"expect_text": {"role": "status", "value": "$99.00"}}])
    et = task("g4", crit)
    res, _ = await evaluate(agent, app, et)
    (v,) = res.verdicts
    assert (v.status, v.decided_by, v.step) == ("fail", "grounded", 1)
    assert "Work it out" not in v.reason and "$100.00" in v.reason
    t = Task.model_validate({"id": "mini", "title": "Mini", "category": "utility",
                             "query": "A loan calculator.", "eval_tasks": [et.model_dump()]})
    ev = RoundEvaluation(protocol="flat", threshold=0.5, results={"g4": res})
    for verbosity in ("low", "medium", "high"):
        feedback = TemplateUser(verbosity).render(t, ev)
        assert "task 0 / crit 0" in feedback and "Work it out" not in feedback, feedback
        assert "role=" not in feedback


# ---------------------------------------------------------------- cache


async def test_cache_hit_on_an_unchanged_app(llm_server: ScriptedLLMServer, app: Any,
                                             tmp_path: Path) -> None:
    cache = tmp_path / "groundings.json"
    llm_server.script(grounding({"role": "button", "name": "Work it out"}))
    agent = uiagents.get("scripted", grounding="llm", grounding_model=spec(llm_server),
                         grounding_cache=str(cache), **OPTS)
    et = task("g5", ("g5.pay", PAYMENT, [
        CALCULATE, {"expect_text": {"role": "status", "value": "Monthly payment: $100.00"}}]))
    artifact = artifact_hash(app.root)
    first, _ = await evaluate(agent, app, et, artifact=artifact)
    assert first.verdicts[0].status == "pass" and len(llm_server.requests) == 1
    # the next round on the same app: same agent, or a new one reading the cache file
    again, usage = await evaluate(agent, app, et, artifact=artifact)
    fresh = uiagents.get("scripted", grounding="llm", grounding_model=spec(llm_server),
                         grounding_cache=str(cache), **OPTS)
    from_file, usage2 = await evaluate(fresh, app, et, artifact=artifact)
    assert len(llm_server.requests) == 1 and usage == [] and usage2 == []
    for res in (again, from_file):
        (v,) = res.verdicts
        assert (v.status, v.decided_by) == ("pass", "grounded")
        assert (v.groundings[0]["cached"], v.groundings[0]["tokens"]) == (True, 0)
    assert len(json.loads(cache.read_text())["entries"]) == 1
    # the app changed: grounded again
    (app.root / "extra.css").write_text("h1 { color: red }")
    assert artifact_hash(app.root) != artifact
    llm_server.script(grounding({"role": "button", "name": "Work it out"}))
    changed, _ = await evaluate(agent, app, et, artifact=artifact_hash(app.root))
    assert changed.verdicts[0].groundings[0]["cached"] is False
    assert len(llm_server.requests) == 2


# ---------------------------------------------------------------- wording


async def test_wording_mismatch_judged_by_the_llm(llm_server: ScriptedLLMServer,
                                                  app: Any) -> None:
    llm_server.script(json_reply({"passed": True, "reason": "it says nothing is saved yet"}),
                      json_reply({"passed": False, "reason": "it is not an error message"}))
    agent = uiagents.get("scripted", grounding="llm", grounding_model=spec(llm_server), **OPTS)
    et = task("g6",
              ("g6.empty", "With nothing saved, an empty-state message says so",
               [{"expect_text": {"css": "#empty", "value": "No saved scenarios yet"}},
                {"expect_visible": {"role": "heading", "name": "Your loan"}}]),
              ("g6.error", "A wrong amount shows an error message",
               [{"expect_text": {"css": "#empty", "value": "/invalid amount/i"}}]),
              ("g6.number", "The payment reads $5.00 before any input",
               [{"click": {"role": "button", "name": "Work it out"}},
                {"expect_text": {"role": "status", "value": "Monthly payment: $5.00"}}]))
    res, usage = await evaluate(agent, app, et)
    empty, err, number = res.verdicts
    assert (empty.status, empty.decided_by, empty.reason) == ("pass", "llm", "")
    (w,) = empty.groundings
    assert (w["kind"], w["step"], w["passed"], w["observed"]) == (
        "wording", 0, True, "Nothing saved so far")
    assert (err.status, err.decided_by) == ("fail", "llm")
    assert "not an error message" in err.reason and "Nothing saved so far" in err.reason
    # a number stays deterministic: no call
    assert (number.status, number.decided_by, number.groundings) == ("fail", "scripted", [])
    assert len(llm_server.requests) == 2 and usage[0].calls == 2
    sent = request_text(llm_server.requests[0])
    assert "No saved scenarios yet" in sent and "Nothing saved so far" in sent


async def test_a_quoted_message_found_in_other_words_is_judged_by_the_llm(
        llm_server: ScriptedLLMServer, app: Any) -> None:
    """An ``expect_visible`` of a message the criterion quotes that matches nothing: the judge
    reads the region it was looked for in (the page's main content, the app having no such
    scope) and decides whether it says the same thing; one it says does not stays a miss (the
    rungs above may still carry it); a number the region does not show asks nothing."""
    llm_server.script(json_reply({"passed": True, "reason": "same meaning"}),
                      json_reply({"passed": False, "reason": "no error is shown"}))
    agent = uiagents.get("scripted", grounding={"backend": "llm", "kinds": ["wording"]},
                         grounding_model=spec(llm_server), **OPTS)
    et = task("g8",
              ("g8.empty", "With nothing saved, the page says no scenario is saved yet",
               [{"expect_visible": {"text": "No saved scenarios yet.",
                                    "within": {"role": "region", "name": "Saved"}}}]),
              ("g8.error", "A wrong amount shows the error 'Invalid amount.'",
               [{"expect_visible": {"text": "Invalid amount."}}]),
              ("g8.count", "The page says 3 scenarios are saved",
               [{"expect_visible": {"text": "3 scenarios saved"}}]))
    res, _ = await evaluate(agent, app, et)
    empty, err, count = res.verdicts
    assert (empty.status, empty.decided_by) == ("pass", "llm")
    (w,) = empty.groundings
    assert (w["kind"], w["passed"]) == ("wording", True) and "Nothing saved so far" in w[
        "observed"]
    assert (err.status, err.decided_by) == ("not_found", "scripted")
    assert [g["passed"] for g in err.groundings if g["kind"] == "wording"] == [False]
    assert count.status == "not_found" and not [g for g in count.groundings
                                                 if g["kind"] == "wording"]
    assert len(llm_server.requests) == 2
    sent = request_text(llm_server.requests[0])
    assert "It was not found in those words" in sent and "Nothing saved so far" in sent


# ---------------------------------------------------------------- grounding none


async def test_grounding_none_is_todays_verdict(llm_server: ScriptedLLMServer, app: Any,
                                                tmp_path: Path) -> None:
    et = task("g7", ("g7.pay", PAYMENT, [CALCULATE]),
              ("g7.empty", "An empty state",
               [{"expect_text": {"css": "#empty", "value": "No saved scenarios yet"}}]))
    for agent in (uiagents.get("scripted", **OPTS),
                  uiagents.get("scripted", grounding="none", **OPTS)):
        res, usage = await evaluate(agent, app, et, tmp_path / "ev",
                                    artifact=artifact_hash(app.root))
        miss, wording = res.verdicts
        assert (miss.status, miss.decided_by, miss.groundings) == ("not_found", "scripted", [])
        assert miss.snapshot == "g7.pay.aria.yaml"
        assert (wording.status, wording.decided_by) == ("fail", "scripted")
        assert usage == []
    assert llm_server.requests == []


# ---------------------------------------------------------------- hybrid


async def test_hybrid_scripted_grounded_then_browser_use(llm_server: ScriptedLLMServer,
                                                         app: Any, tmp_path: Path) -> None:
    title = ("h.title", "The tab title is Loans", [{"eval": "document.title === 'Loans'"}])
    pay = ("h.pay", PAYMENT, [CALCULATE, {"expect_text": {"role": "status",
                                                           "value": "Monthly payment: $100.00"}}])
    wrong = ("h.wrong", "The payment reads $5.00 after calculating",
             [CALCULATE, {"expect_text": {"role": "status", "value": "$5.00"}}])
    export = ("h.csv", EXPORT, [{"click": {"role": "button", "name": "Export CSV"}}])
    llm_server.script(
        grounding({"role": "button", "name": "Work it out"}),   # h.pay
        grounding({"role": "button", "name": "Work it out"}),   # h.wrong
        grounding("absent", "no export control"),               # h.csv
        agent_step(done_action(False, "there is no way to export the schedule")),
    )
    agent = uiagents.get("hybrid", model=spec(llm_server), grounding="llm", scripted=OPTS,
                         max_steps=3, criterion_timeout_s=120, max_failures=2,
                         step_timeout_s=60)
    assert agent.scripted.grounding.spec.label == spec(llm_server).label  # the hybrid's model
    session = await agent.open(app.url + "/", evidence_dir=tmp_path / "ev",
                               artifact=artifact_hash(app.root))
    try:
        res = await session.evaluate(task("h", title, pay, wrong, export))
    finally:
        await session.close()
    v = {x.criterion_id: x for x in res.verdicts}
    stages = {cid: (x.status, x.backend, x.decided_by) for cid, x in v.items()}
    assert stages == {"h.title": ("pass", "scripted", "scripted"),
                      "h.pay": ("pass", "scripted", "grounded"),
                      "h.wrong": ("fail", "scripted", "grounded"),   # stands: observed
                      "h.csv": ("fail", "browser-use", "llm")}       # still undecided
    assert v["h.csv"].groundings[0]["grounded"] == "absent"
    kinds = [("grounding" if is_grounding_call(r) else "browser-use") for r in llm_server.requests]
    assert kinds == ["grounding"] * 3 + ["browser-use"]
    assert sum(u.calls for u in session.usage()) == 4
    assert all(u.role == "ui-agent" for u in session.usage())


def test_a_replan_keeps_every_stated_value_and_the_texts_it_looks_for() -> None:
    """A re-planned check may find elements another way, never expect other values or look for
    other words: "1 duplicate respondent skipped" shown is an expectation like a value."""
    from asuka.schema import CheckStep
    from asuka.uiagents.grounding._prompt import replan_problems

    def steps(*raw: dict) -> list[CheckStep]:
        return [CheckStep.model_validate(r) for r in raw]

    original = steps({"goto": "/"},
                     {"expect_visible": {"text": "1 duplicate respondent skipped"}},
                     {"expect_text": {"role": "row", "name": "/Weekly/", "value": "30%"}})
    found_otherwise = steps({"goto": "/"}, {"click": {"role": "tab", "name": "Notes"}},
                            {"expect_visible": {"text": "1 duplicate respondent skipped"}},
                            {"expect_text": {"role": "article", "name": "Q1", "value": "30%"}})
    assert replan_problems(original, found_otherwise) == []
    other_words = steps({"goto": "/"}, {"expect_visible": {"text": "R07 appears twice"}},
                        {"expect_text": {"role": "article", "name": "Q1", "value": "30%"}})
    assert replan_problems(original, other_words) == [
        "the expected '1 duplicate respondent skipped' (expect_visible) is not kept"]


def test_a_file_request_keeps_its_id_when_only_the_page_clock_moved() -> None:
    """A page that shows the time ("Saved at 1:01:47 PM") asks the same request a minute later:
    its answer is found under the same id; any other change is another request."""
    from asuka.uiagents.grounding._backends import request_id

    a = request_id("sys", "- paragraph: Saved in this browser at 1:01:47 PM.")
    assert a == request_id("sys", "- paragraph: Saved in this browser at 1:17:18 PM.")
    assert a == request_id("sys", "- paragraph: Saved in this browser at 13:17.")
    assert a != request_id("sys", "- paragraph: Saved in this browser yesterday.")
    assert a != request_id("other", "- paragraph: Saved in this browser at 1:01:47 PM.")
