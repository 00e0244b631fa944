"""The browser-use and hybrid UI agents: real browser-use 0.13 driving real Chromium against pages
served on 127.0.0.1, with the LLM replaced by the scripted local server (tests/llm_server.py)
answering in browser-use's AgentOutput format. Nothing here needs the network."""

from __future__ import annotations

import socket
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

# imported here, before any test points tempfile at its scratch folder: browser-use makes a
# downloads folder for its default profile when its session module is first imported
import asuka.uiagents.browser_use.agent  # noqa: F401
from asuka import uiagents
from asuka.llm import ModelSpec
from asuka.schema import EvalTask
from tests.builders import FIXTURES
from tests.llm_server import (
    ScriptedLLMServer,
    agent_step,
    browser_state,
    click_on,
    done_action,
    error,
    llm_server,  # noqa: F401 - fixture
    request_text,
)

PAGES = FIXTURES / "bu_pages"

# Small budgets: a scripted model needs few steps, and failures must come back quickly.
FAST = dict(max_steps=4, criterion_timeout_s=120, max_failures=2, step_timeout_s=60)


def spec(server: ScriptedLLMServer, provider: str = "openai", **over: Any) -> ModelSpec:
    over.setdefault("max_retries", 0)
    over.setdefault("timeout_s", 20)
    return ModelSpec(provider=provider, model=f"fake-{provider}",
                     base_url=server.base_url(provider), **over)


def task(tid: str, *criteria: tuple[str, str, list | None],
         summary: str = "A tally counter") -> EvalTask:
    """criteria: (id, text, check steps or None)."""
    return EvalTask.model_validate({
        "id": tid, "summary": summary, "type": "functionality", "weight": 1,
        "criteria": [{"id": cid, "text": text, "check": steps} for cid, text, steps in criteria]})


COUNTER = ("t1.c1", "Clicking the increment button raises the count from 0 to 1", None)


@pytest.fixture
def site(static_server: Any) -> Any:
    return static_server(PAGES)


# ---------------------------------------------------------------- offline units (no browser)


def test_registry_and_options() -> None:
    agent = uiagents.get("browser-use", model="openai:gpt-4o@http://127.0.0.1:9/v1")
    assert agent.name == "browser-use"
    assert (agent.spec.provider, agent.spec.model, agent.spec.base_url) == (
        "openai", "gpt-4o", "http://127.0.0.1:9/v1")
    # paper settings by default
    assert (agent.max_steps, agent.use_vision, agent.criterion_timeout_s, agent.headless) == (
        100, True, 3600, True)
    import os

    from asuka.uiagents.browser_use.agent import build_task
    from asuka.uiagents.browsing.browser import LAUNCH_ARGS
    assert os.environ["ANONYMIZED_TELEMETRY"] == "false"
    b = agent.make_browser("/bin/true", Path("/nonexistent-asuka"))
    prof = b.browser_profile
    assert prof.enable_default_extensions is False and prof.chromium_sandbox is False
    assert prof.headless is True and set(LAUNCH_ARGS) <= set(prof.args)
    text = build_task("http://127.0.0.1:5/", task("t", COUNTER), task("t", COUNTER).criteria[0])
    assert "http://127.0.0.1:5/" in text and COUNTER[1] in text and "A tally counter" in text
    assert "user interface only" in text
    hybrid = uiagents.get("hybrid", model=ModelSpec.parse("anthropic:claude-x"))
    assert hybrid.name == "hybrid" and hybrid.browser_use.spec.provider == "anthropic"


def test_classify_llm_errors() -> None:
    import httpx
    import openai
    from browser_use.llm.exceptions import ModelProviderError
    from pydantic import BaseModel

    from asuka.uiagents.browser_use.agent import classify_llm_error

    req = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")

    def wrapped(cause: BaseException) -> ModelProviderError:
        try:
            raise ModelProviderError(message=str(cause)) from cause
        except ModelProviderError as e:
            return e

    unauthorized = openai.AuthenticationError(
        "nope", response=httpx.Response(401, request=req), body={"error": {"message": "bad key"}})
    assert classify_llm_error(wrapped(unauthorized)) == ("config", "HTTP 401 unauthorized: bad key")
    down = openai.InternalServerError("boom", response=httpx.Response(500, request=req), body=None)
    assert classify_llm_error(wrapped(down))[0] == "endpoint"
    assert classify_llm_error(wrapped(openai.APIConnectionError(request=req)))[0] == "endpoint"

    class M(BaseModel):
        x: int

    try:
        M.model_validate_json("{}")
    except Exception as exc:  # noqa: BLE001
        assert classify_llm_error(wrapped(exc))[0] == "model"


# ---------------------------------------------------------------- real Chromium


async def _evaluate(server: ScriptedLLMServer, site: Any, tmp_path: Path, et: EvalTask,
                    provider: str = "openai", **options: Any):
    agent = uiagents.get("browser-use", model=spec(server, provider), **{**FAST, **options})
    session = await agent.open(site.url + "/", evidence_dir=tmp_path / "evidence")
    try:
        result = await session.evaluate(et)
    finally:
        await session.close()
    return result, session


@pytest.mark.browser
@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_clicks_the_counter_and_passes(llm_server: ScriptedLLMServer, site: Any,
                                             tmp_path: Path, provider: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / "tmp"  # where browser-use's temporary files land
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    seen: dict[str, str] = {}

    def conclude(rec: Any) -> Any:
        seen["after_click"] = browser_state(rec)
        return agent_step(done_action(True, "Clicking + raised the count from 0 to 1",
                                      "Count: 1"), usage={"input": 300, "output": 40})(rec)

    llm_server.script(click_on("Increment", next_goal="click the increment button"), conclude)
    result, session = await _evaluate(llm_server, site, tmp_path, task("t1", COUNTER), provider)

    assert result.status == "passed", result
    (v,) = result.verdicts
    assert (v.criterion_id, v.status, v.backend) == ("t1.c1", "pass", "browser-use")
    assert "from 0 to 1" in v.reason and "Count: 1" in v.reason and v.duration_s > 0
    # its execution trace, the auditor's evidence: the opening navigation, the click, then
    # the verdict, on the app's page
    assert [t.split(" @ ")[0] for t in v.trace] == ["navigate", "click", "done"], v.trace
    assert all(site.url in t for t in v.trace[1:])
    # the click really happened in Chromium: the next browser state shows the new count
    assert "Count: 1" in seen["after_click"] and "Count: 0" in browser_state(
        llm_server.requests[0])
    assert len(llm_server.requests) == 2
    first = llm_server.requests[0]
    text = request_text(first)
    assert COUNTER[1] in text and "A tally counter" in text and site.url in text
    assert "Increment" in browser_state(first)
    if provider == "openai":  # vision on: the screenshot goes with the state
        assert first.body["response_format"]["type"] == "json_schema"
        assert any(c.get("type") == "image_url" for m in first.body["messages"]
                   if isinstance(m["content"], list) for c in m["content"])
    else:
        assert any(c.get("type") == "image" for m in first.body["messages"]
                   if isinstance(m["content"], list) for c in m["content"])
    # evidence: a screenshot of the final page, the page's console error, the missing image
    ev = result.evidence
    assert ev.screenshot == "t1.png" and (tmp_path / "evidence" / "t1.png").stat().st_size > 1000
    assert any("analytics unavailable" in e for e in ev.console_errors), ev
    assert any("missing-logo.png" in r for r in ev.failed_requests), ev
    # usage from browser-use's accounting (default fake usage is 10 in / 5 out per call)
    (u,) = session.usage()
    assert (u.role, u.model, u.calls) == ("ui-agent", f"fake-{provider}", 2)
    assert (u.input_tokens, u.output_tokens) == (310, 45) and u.latency_s > 0
    assert list(scratch.iterdir()) == []  # profiles, downloads, agent files: all removed


@pytest.mark.browser
async def test_failing_verdict(llm_server: ScriptedLLMServer, site: Any, tmp_path: Path) -> None:
    crit = ("t2.c1", "A reset button sets the count back to 0", None)
    llm_server.script(agent_step(done_action(False, "There is no reset button on the page",
                                             "only a '+' button is shown")))
    result, _ = await _evaluate(llm_server, site, tmp_path, task("t2", crit))
    assert result.status == "failed" and result.error is None
    (v,) = result.verdicts
    assert (v.status, v.backend) == ("fail", "browser-use")
    assert "no reset button" in v.reason and "only a '+' button" in v.reason
    assert len(llm_server.requests) == 1
    # the record auditor admits it (reason and trace): no remediation, no further LLM call
    from asuka.protocol.audit import audit_result

    assert audit_result(task("t2", crit), result)[1] == []


@pytest.mark.browser
async def test_agent_that_cannot_complete_fails(llm_server: ScriptedLLMServer, site: Any,
                                                tmp_path: Path) -> None:
    llm_server.script(agent_step(done_action(True, "looked fine", success=False)))
    result, _ = await _evaluate(llm_server, site, tmp_path, task("t3", COUNTER))
    (v,) = result.verdicts
    assert v.status == "fail" and "could not carry out the test" in v.reason


@pytest.mark.browser
async def test_max_steps_without_verdict_is_the_judges_error(
        llm_server: ScriptedLLMServer, site: Any, tmp_path: Path) -> None:
    # a model that never concludes, not even when told the last step allows only "done": the
    # judge could not decide, which says nothing about the app (error, not fail)
    llm_server.script(*[click_on("Increment") for _ in range(8)])
    result, _ = await _evaluate(llm_server, site, tmp_path, task("t4", COUNTER), max_steps=2)
    (v,) = result.verdicts
    assert result.status == "error" and v.status == "error", v
    assert "no verdict" in v.reason and "2 steps" in v.reason, v.reason


@pytest.mark.browser
@pytest.mark.parametrize("status", [401, 500])
async def test_llm_endpoint_errors_give_error(llm_server: ScriptedLLMServer, site: Any,
                                              tmp_path: Path, status: int) -> None:
    llm_server.script(*[error(status, f"scripted {status}") for _ in range(10)])
    other = ("t5.c2", "The page title mentions Tally", None)
    t0 = time.monotonic()
    result, _ = await _evaluate(llm_server, site, tmp_path, task("t5", COUNTER, other))
    assert time.monotonic() - t0 < 90
    assert result.status == "error" and result.error, result
    first, second = result.verdicts
    assert (first.status, first.backend) == ("error", "browser-use")
    assert "LLM endpoint failed" in first.reason and f"HTTP {status}" in first.reason
    assert f"scripted {status}" in first.reason
    assert second.status == "error" and second.reason.startswith("not run:")
    if status == 401:  # a config error stops the agent at once
        assert len(llm_server.requests) == 1
    else:  # max_failures=2 consecutive failed steps, plus the final "done" attempt
        assert 2 <= len(llm_server.requests) <= 4


@pytest.mark.browser
async def test_connection_refused_llm_gives_error(llm_server: ScriptedLLMServer, site: Any,
                                                  tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nothing listens on: connections are refused
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    agent = uiagents.get("browser-use", model=ModelSpec(
        provider="openai", model="fake", base_url=url, max_retries=0, timeout_s=5), **FAST)
    session = await agent.open(site.url + "/")
    try:
        result = await session.evaluate(task("t6", COUNTER))
    finally:
        await session.close()
    (v,) = result.verdicts
    assert result.status == "error" and v.status == "error"
    assert "LLM endpoint failed" in v.reason and "Connection" in v.reason, v.reason


@pytest.mark.browser
async def test_unreachable_app_is_an_error_without_llm_calls(
        llm_server: ScriptedLLMServer, site: Any, tmp_path: Path) -> None:
    url = site.url
    site.stop()
    agent = uiagents.get("browser-use", model=spec(llm_server), **FAST)
    session = await agent.open(url + "/")
    try:
        result = await session.evaluate(task("t7", COUNTER))
    finally:
        await session.close()
    assert result.status == "error" and "app not reachable" in (result.error or "")
    assert result.verdicts[0].status == "error"
    assert llm_server.requests == []


# ---------------------------------------------------------------- hybrid


@pytest.mark.browser
async def test_hybrid_hands_only_missed_checks_to_browser_use(
        llm_server: ScriptedLLMServer, site: Any, tmp_path: Path) -> None:
    heading = ("t8.heading", "The page shows the heading 'Tally counter'",
               [{"expect_text": {"role": "heading", "value": "Tally counter"}}])
    # built another way: the button is '+' with an aria-label, so this locator misses
    increment = ("t8.increment", "Pressing the add-one control raises the count to 1",
                 [{"click": {"role": "button", "name": "Add one"}},
                  {"expect_text": {"css": "#count", "value": "Count: 1"}}])
    starts = ("t8.zero", "Before any interaction the count reads zero", None)
    et = task("t8", heading, increment, starts)

    llm_server.script(
        click_on("Increment", memory="clicked"),
        agent_step(done_action(True, "the count became 1 after clicking +", "Count: 1")),
        agent_step(done_action(True, "the count shows 0 on load", "Count: 0")),
    )
    agent = uiagents.get("hybrid", model=spec(llm_server),
                         scripted={"nav_timeout_s": 5, "action_timeout_s": 1.5,
                                   "assert_timeout_s": 1.0}, **FAST)
    session = await agent.open(site.url + "/", evidence_dir=tmp_path / "evidence")
    try:
        result = await session.evaluate(et)
    finally:
        await session.close()

    by_id = {v.criterion_id: v for v in result.verdicts}
    assert [v.criterion_id for v in result.verdicts] == ["t8.heading", "t8.increment", "t8.zero"]
    assert (by_id["t8.heading"].status, by_id["t8.heading"].backend) == ("pass", "scripted")
    assert (by_id["t8.increment"].status, by_id["t8.increment"].backend) == ("pass", "browser-use")
    assert "became 1" in by_id["t8.increment"].reason
    assert (by_id["t8.zero"].status, by_id["t8.zero"].backend) == ("pass", "browser-use")
    assert result.status == "passed", result
    # the scripted pass cost no LLM call; the two others did
    texts = [request_text(r) for r in llm_server.requests]
    assert len(texts) == 3
    assert not any(heading[1] in t for t in texts)
    assert sum(increment[1] in t for t in texts) == 2 and sum(starts[1] in t for t in texts) == 1
    (u,) = session.usage()
    assert (u.role, u.calls, u.input_tokens, u.output_tokens) == ("ui-agent", 3, 30, 15)
    assert result.evidence and result.evidence.screenshot
    assert (tmp_path / "evidence" / result.evidence.screenshot).is_file()


@pytest.mark.browser
async def test_hybrid_keeps_failing_browser_use_verdict_and_scripted_pass(
        llm_server: ScriptedLLMServer, site: Any, tmp_path: Path) -> None:
    title = ("t9.title", "The tab title is Tally",
             [{"eval": "document.title === 'Tally'"}])
    reset = ("t9.reset", "A reset control sets the count back to 0", None)
    llm_server.script(agent_step(done_action(False, "no reset control exists")))
    agent = uiagents.get("hybrid", model=spec(llm_server), **FAST)
    session = await agent.open(site.url + "/")
    try:
        result = await session.evaluate(task("t9", title, reset))
    finally:
        await session.close()
    title_v, reset_v = result.verdicts
    assert (title_v.status, title_v.backend) == ("pass", "scripted")
    assert (reset_v.status, reset_v.backend) == ("fail", "browser-use")
    assert result.status == "failed" and len(llm_server.requests) == 1


@pytest.mark.browser
async def test_hybrid_all_scripted_never_calls_the_llm(
        llm_server: ScriptedLLMServer, site: Any, tmp_path: Path) -> None:
    title = ("t10.title", "The tab title is Tally", [{"eval": "document.title === 'Tally'"}])
    agent = uiagents.get("hybrid", model=spec(llm_server), **FAST)
    session = await agent.open(site.url + "/")
    try:
        result = await session.evaluate(task("t10", title))
    finally:
        await session.close()
    assert result.status == "passed" and result.verdicts[0].backend == "scripted"
    assert llm_server.requests == [] and session.usage() == []
