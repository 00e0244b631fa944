"""The LLM code agent, the CLI code agent and the LLM user, against scripted servers and a
fake agent CLI (tests/fixtures/fake_cli/fake-agent)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from asuka import codeagents, users
from asuka.codeagents.adapters import load_adapters
from asuka.codeagents.agent_cli import CLICodeAgent
from asuka.codeagents.base import RoundContext
from asuka.codeagents.llm import LLMCodeAgent
from asuka.errors import SetupError
from asuka.llm import LLMConfigError, LLMError, ModelSpec
from asuka.schema import BenchTask, DagSpec, EvalTaskResult, RoundEvaluation, Task, Verdict
from asuka.users.llm import LLMUser, ref_present, task_refs
from tests.builders import FIXTURES
from tests.llm_server import (
    ScriptedLLMServer,
    error,
    llm_server,  # noqa: F401 - fixture
    text,
    tool_calls,
)

FAKE = FIXTURES / "fake_cli" / "fake-agent"
FAKE_CMD = [sys.executable, str(FAKE)]


def make_task(query: str = "Make me a counter page.") -> Task:
    return Task.model_validate({
        "id": "mini", "title": "Mini counter", "category": "utility", "query": query,
        "eval_tasks": [
            {"id": "t0", "summary": "Layout", "type": "presence", "weight": 2,
             "criteria": [{"id": "t0.c0", "text": "A heading is shown."},
                          {"id": "t0.c1", "text": "A counter button is shown."}]},
            {"id": "t1", "summary": "Counting", "type": "functionality", "weight": 3,
             "criteria": [{"id": "t1.c0", "text": "Clicking increments the count."}]},
            {"id": "t2", "summary": "Upload", "type": "functionality", "weight": 3,
             "criteria": [{"id": "t2.c0", "text": "A thumbnail is shown after file selection."}]},
            {"id": "t3", "summary": "Reset", "type": "robustness", "weight": 4,
             "criteria": [{"id": "t3.c0", "text": "Reset returns to zero."}]},
        ]})


def ctx(workspace: Path, round: int = 1, query: str = "Make me a counter page.",
        feedback: str | None = None) -> RoundContext:
    bt = BenchTask(task=make_task(query), prd="# PRD", dag=DagSpec(), root=str(workspace))
    return RoundContext(bench_task=bt, round=round, workspace=workspace,
                        feedback=feedback if round > 1 else None, timeout_s=60)


def spec(server: ScriptedLLMServer, provider: str = "openai", **kw) -> ModelSpec:
    return ModelSpec(provider=provider, model=f"fake-{provider}",
                     base_url=server.base_url(provider), backoff_s=0.01, **kw)


# ================================================================ LLM code agent

def _sent_messages(server: ScriptedLLMServer, i: int) -> list[dict]:
    return server.requests[i].body["messages"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
async def test_llm_agent_warm_start_two_rounds(llm_server: ScriptedLLMServer, tmp_path: Path,
                                               provider: str) -> None:
    ws = tmp_path / "ws"
    html = "<!doctype html><h1>Counter</h1><button>+</button>"
    llm_server.script(
        tool_calls(("list_files", {})),
        tool_calls(("write_file", {"path": "index.html", "content": html})),
        tool_calls(("finish", {"summary": "built the counter"})),
        # round 2
        tool_calls(("edit_file", {"path": "index.html", "search": "<button>+</button>",
                                  "replace": "<button>+</button><button>Reset</button>"})),
        tool_calls(("finish", {"summary": "added reset"})),
    )
    agent = codeagents.get("llm", model=spec(llm_server, provider), max_steps=10)
    assert isinstance(agent, LLMCodeAgent) and agent.name == "llm"
    r1 = await agent.run_round(ctx(ws, 1))
    assert r1.ok and r1.meta["stopped"] == "finish" and r1.meta["steps"] == 3
    assert (ws / "index.html").read_text() == html
    assert "write_file" in r1.transcript and "built the counter" in r1.transcript
    assert r1.usage[0].calls == 3 and r1.usage[0].role == "code-agent"
    body = llm_server.requests[0].body
    advertised = ([t["function"]["name"] for t in body["tools"]] if provider == "openai"
                  else [t["name"] for t in body["tools"]])
    assert advertised == ["list_files", "read_file", "write_file", "edit_file", "finish"]

    r2 = await agent.run_round(ctx(ws, 2, feedback="task 3 / crit 0 — there is no reset"))
    assert r2.ok and r2.meta["steps"] == 2 and r2.usage[0].calls == 2
    assert "<button>Reset</button>" in (ws / "index.html").read_text()
    first_r2 = json.dumps(_sent_messages(llm_server, 3))
    assert "Make me a counter page." in first_r2      # the round-1 prompt is sent again
    assert "built the counter" in first_r2            # ... with round 1's tool calls
    assert "there is no reset" in first_r2
    assert len(_sent_messages(llm_server, 3)) > len(_sent_messages(llm_server, 2))
    # a resumed run: a new agent object continues from the recorded history
    llm_server.script(tool_calls(("finish", {"summary": "resumed"})))
    fresh = LLMCodeAgent(spec(llm_server, provider))
    c3 = ctx(ws, 3, feedback="resumed feedback").model_copy(update={"previous_meta": r2.meta})
    assert (await fresh.run_round(c3)).ok
    assert "added reset" in json.dumps(_sent_messages(llm_server, 5))


async def test_llm_agent_cold_start(llm_server: ScriptedLLMServer, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    llm_server.script(
        tool_calls(("write_file", {"path": "index.html", "content": "<h1>v1</h1>"})),
        tool_calls(("finish", {"summary": "v1"})),
        tool_calls(("read_file", {"path": "index.html"})),
        text("All fixed."),  # no tool call ends the round too
    )
    agent = LLMCodeAgent(spec(llm_server), warm_start=False)
    await agent.run_round(ctx(ws, 1))
    r2 = await agent.run_round(ctx(ws, 2, feedback="task 0 / crit 1 — no button"))
    assert r2.ok and r2.meta["stopped"] == "no_tool_call"
    msgs = _sent_messages(llm_server, 2)
    assert [m["role"] for m in msgs] == ["system", "user"]  # a new conversation
    assert "- index.html" in msgs[1]["content"]             # the current file list
    assert "Make me a counter page." in msgs[1]["content"]  # the original request
    assert "no button" in msgs[1]["content"]
    assert "v1" not in json.dumps(msgs)                     # nothing from round 1's chat
    tool_reply = _sent_messages(llm_server, 3)[-1]
    assert tool_reply["role"] == "tool" and tool_reply["content"] == "<h1>v1</h1>"


async def test_llm_agent_rejects_path_escapes(llm_server: ScriptedLLMServer,
                                              tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (ws / "link").symlink_to(outside, target_is_directory=True)
    llm_server.script(
        tool_calls(("write_file", {"path": "../evil.txt", "content": "x"}),
                   ("write_file", {"path": str(tmp_path / "abs.txt"), "content": "x"}),
                   ("read_file", {"path": "/etc/passwd"}),
                   ("write_file", {"path": "link/evil.txt", "content": "x"}),
                   ("write_file", {"path": "ok/inside.txt", "content": "fine"})),
        tool_calls(("finish", {"summary": "tried"})),
    )
    r = await LLMCodeAgent(spec(llm_server)).run_round(ctx(ws, 1))
    assert r.ok
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path / "abs.txt").exists()
    assert not (outside / "evil.txt").exists()
    assert (ws / "ok" / "inside.txt").read_text() == "fine"
    results = [m["content"] for m in _sent_messages(llm_server, 1) if m["role"] == "tool"]
    assert [c.startswith("error:") for c in results] == [True, True, True, True, False]
    assert "'..' is not allowed" in results[0] and "absolute" in results[1]
    assert "root:" not in json.dumps(results)


async def test_llm_agent_step_budget(llm_server: ScriptedLLMServer, tmp_path: Path) -> None:
    llm_server.script(*[tool_calls(("list_files", {}))] * 6)
    r = await LLMCodeAgent(spec(llm_server), max_steps=3).run_round(ctx(tmp_path / "ws", 1))
    assert len(llm_server.requests) == 3 and llm_server.pending == 3
    assert r.meta == {**r.meta, "steps": 3, "stopped": "max_steps"}
    assert "step budget of 3" in r.transcript


async def test_llm_agent_llm_failure_and_config_error(llm_server: ScriptedLLMServer,
                                                      tmp_path: Path) -> None:
    # the provider failing after its retries is not the agent's behaviour: it raises, and the
    # loop records the cell as failed (harness) instead of scoring the round
    llm_server.script(error(500), error(500))
    with pytest.raises(LLMError, match="HTTP 500"):
        await LLMCodeAgent(spec(llm_server, max_retries=1)).run_round(ctx(tmp_path / "a", 1))
    # a request the server rejects (the agent's conversation) is the agent's round, scored
    llm_server.script(error(400, "context too long"))
    r = await LLMCodeAgent(spec(llm_server)).run_round(ctx(tmp_path / "c", 1))
    assert not r.ok and "HTTP 400" in r.error and r.meta["stopped"] == "llm_error"
    llm_server.script(error(401, "bad key"))
    with pytest.raises(LLMConfigError, match="OPENAI_API_KEY"):
        await LLMCodeAgent(spec(llm_server)).run_round(ctx(tmp_path / "b", 1))


@pytest.mark.parametrize("sandbox", ["local", "auto"])
async def test_llm_agent_shell_tool(llm_server: ScriptedLLMServer, tmp_path: Path,
                                    sandbox: str) -> None:
    llm_server.script(
        tool_calls(("run_shell", {"command": "echo \"key=[$OPENAI_API_KEY]\"; pwd"})),
        tool_calls(("run_shell", {"command": "echo started; sleep 30"})),
        tool_calls(("finish", {"summary": "ran"})))
    agent = LLMCodeAgent(spec(llm_server), allow_shell=True, shell_timeout_s=3,
                         sandbox=sandbox, allow_unsandboxed=sandbox == "local")
    ws = tmp_path / "ws"
    t0 = time.monotonic()
    await agent.run_round(ctx(ws, 1))
    assert time.monotonic() - t0 < 15
    outs = [m["content"] for m in _sent_messages(llm_server, 2) if m["role"] == "tool"]
    assert outs[0].startswith("exit code 0") and "key=[]" in outs[0]
    assert str(ws.resolve()) in outs[0]
    assert outs[1].startswith("timed out after 3s") and "started" in outs[1]
    advertised = [t["function"]["name"] for t in llm_server.requests[0].body["tools"]]
    assert "run_shell" in advertised


# ================================================================ CLI code agent

def _fake_record(ws: Path) -> dict:
    return json.loads((ws / ".fake-agent.json").read_text())


async def test_cli_custom_adapter_two_rounds(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    cmd = f"{sys.executable} {FAKE} --message {{prompt}}"
    agent = codeagents.get("cli", tool="custom", command=cmd,
                           continue_command=f"{sys.executable} {FAKE} --continue -m {{prompt}}")
    assert isinstance(agent, CLICodeAgent)
    r1 = await agent.run_round(ctx(ws, 1))
    assert r1.ok and r1.meta["exit_code"] == 0 and not r1.meta["continued"]
    assert "<h1>Make me a counter page.</h1>" in (ws / "index.html").read_text()
    assert "fake-agent: new session" in r1.transcript
    r2 = await agent.run_round(ctx(ws, 2, feedback="task 1 / crit 0 — nothing happens"))
    assert r2.ok and r2.meta["continued"]
    assert "continuing the previous session" in r2.transcript
    assert "<p>continued: A user tested your web app" in (ws / "index.html").read_text()


async def test_cli_real_entry_with_fake_binary(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-dummy-for-the-cli")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy-not-for-claude")
    ws = tmp_path / "ws"
    agent = CLICodeAgent("claude-code", model="sonnet", binary=FAKE_CMD)
    r1 = await agent.run_round(ctx(ws, 1))
    assert r1.ok, r1.error
    rec = _fake_record(ws)
    assert rec["argv"][0] == "-p" and "--dangerously-skip-permissions" in rec["argv"]
    assert "ANTHROPIC_API_KEY" in rec["env"] and "OPENAI_API_KEY" not in rec["env"]
    r2 = await agent.run_round(ctx(ws, 2, feedback="fix it"))
    assert r2.ok and "--continue" in _fake_record(ws)["argv"]
    assert "continued" in (ws / "index.html").read_text()


async def test_cli_transcript_file_stdin_and_prompt_file(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-dummy-for-aider")
    ws = tmp_path / "ws"
    agent = CLICodeAgent("aider", binary=FAKE_CMD,
                         env_set={"FAKE_AGENT_TRANSCRIPT": "{workspace}/.aider.chat.history.md"})
    r1 = await agent.run_round(ctx(ws, 1))
    r2 = await agent.run_round(ctx(ws, 2, feedback="more"))
    assert r1.ok and r2.ok
    assert "new session" in r1.transcript and "new session" not in r2.transcript
    assert "continuing the previous session" in r2.transcript  # only what round 2 appended
    for via, flag in (("stdin", "--stdin"), ("file", "--prompt-file {prompt_file}")):
        w = tmp_path / via
        a = CLICodeAgent("custom", command=f"{sys.executable} {FAKE} {flag}", prompt_via=via)
        assert (await a.run_round(ctx(w, 1, query="Via " + via))).ok
        assert _fake_record(w)["prompt"].startswith("Via " + via)


async def test_cli_timeout_kills_process_group(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    # unsealed, so that the child's pid is a host pid the test can watch (the sealed case:
    # test_agent_sandbox.py)
    agent = CLICodeAgent("custom", command=f"{sys.executable} {FAKE} -p {{prompt}}",
                         timeout_s=3, sandbox="none", allow_unsandboxed=True)
    t0 = time.monotonic()
    r = await agent.run_round(ctx(ws, 1, query="Please sleep forever"))
    assert time.monotonic() - t0 < 10
    assert not r.ok and r.meta["timed_out"] and "timed out" in r.error
    assert "fake-agent: sleeping" in r.transcript  # output before the kill is kept
    child = int((ws / ".fake-agent-child.pid").read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{child}/stat").read_text().split(") ")[1][0]
        except FileNotFoundError:
            break
        if state == "Z":
            break
        time.sleep(0.05)
    else:
        pytest.fail("the agent's child survived the timeout")


async def test_cli_exit_code_and_missing_binary(tmp_path: Path) -> None:
    agent = CLICodeAgent("custom", command=f"{sys.executable} {FAKE} -p {{prompt}}")
    r = await agent.run_round(ctx(tmp_path / "a", 1, query="Build it then exit 3"))
    assert not r.ok and r.meta["exit_code"] == 3 and "code 3" in r.error
    assert "exiting with 3" in r.transcript
    missing = CLICodeAgent("codex", binary=str(tmp_path / "no-such-codex"))
    with pytest.raises(SetupError, match="cannot find the program"):  # not the agent's result
        await missing.run_round(ctx(tmp_path / "b", 1))
    with pytest.raises(ValueError, match="placeholder"):
        CLICodeAgent("custom", command="agent --no-prompt")
    with pytest.raises(ValueError, match="unknown CLI agent"):
        CLICodeAgent("cursor")


def _expected() -> dict[str, tuple[list[str], list[str]]]:
    """tool -> (round-1 argv, round-2 argv); P1/P2 stand for the prompts, M for the model."""
    skip = "--dangerously-skip-permissions"
    aider = ["aider", "--message", "P", "--yes-always", "--no-auto-commits", "--no-check-update",
             "--no-git", "--no-analytics", "--chat-history-file", ".aider.chat.history.md"]
    codex = ["codex", "exec", "--json", "--sandbox", "workspace-write", "--skip-git-repo-check",
             "--model", "M"]
    return {
        "claude-code": (
            ["claude", "-p", "P1", "--output-format", "stream-json", "--verbose", skip,
             "--model", "M"],
            ["claude", "-p", "P2", "--continue", "--output-format", "stream-json", "--verbose",
             skip, "--model", "M"]),
        "aider": ([*aider, "--model", "M"], [*aider, "--restore-chat-history", "--model", "M"]),
        "codex": ([*codex, "P1"], [*codex, "resume", "--last", "P2"]),
        "opencode": (["opencode", "run", "--format", "json", "--model", "M", "P1"],
                     ["opencode", "run", "--continue", "--format", "json", "--model", "M",
                      "P2"]),
        "openhands": (["openhands", "--headless", "--override-with-envs", "--json", "-t", "P1"],
                      ["openhands", "--headless", "--override-with-envs", "--json", "-t", "P2n"]),
        "openhands-legacy": (["python", "-m", "openhands.core.main", "-t", "P1"],
                             ["python", "-m", "openhands.core.main", "-t", "P2n"]),
    }


def test_codex_sealed_gives_up_its_own_sandbox_and_gets_a_provider(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sealed, Codex's own bubblewrap (which cannot nest in ours) gives way; with
    OPENAI_BASE_URL set, its provider config in the private HOME names that URL."""
    from asuka.codeagents.agent_cli import agent_home, write_home_config

    agent = CLICodeAgent("codex", model="M")
    c1 = ctx(tmp_path, 1)
    assert "danger-full-access" in agent.build(c1, sealed=True).argv
    assert "danger-full-access" not in agent.build(c1).argv
    home = agent_home(c1)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    write_home_config(home, agent.adapter.home_config, "M")
    assert not (home / ".codex" / "config.toml").exists()
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    write_home_config(home, agent.adapter.home_config, "M")
    config = (home / ".codex" / "config.toml").read_text()
    assert 'base_url = "http://127.0.0.1:9/v1"' in config and 'wire_api = "responses"' in config


def test_aider_offline_and_either_base_url_name(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """OPENAI_BASE_URL reaches aider as the OPENAI_API_BASE it reads (an explicit
    OPENAI_API_BASE wins); its price-table download is replaced by litellm's own copy; usage
    is read from its "Tokens:" lines."""
    from asuka.codeagents.agent_cli import aider_usage

    monkeypatch.delenv("OPENAI_API_BASE", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    agent = CLICodeAgent("aider")
    env = agent.build(ctx(tmp_path, 1)).env
    assert env["OPENAI_API_BASE"] == "http://127.0.0.1:9/v1"
    assert env["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:8/v1")
    assert agent.build(ctx(tmp_path, 1)).env["OPENAI_API_BASE"] == "http://127.0.0.1:8/v1"
    (u,) = aider_usage("Tokens: 2.4k sent, 50 received. Cost: $0.01\n"
                       "Tokens: 300 sent, 1.2k cache hit, 7 received.", "m")
    assert (u.calls, u.input_tokens, u.output_tokens, u.cached_tokens) == (2, 3900, 57, 1200)


@pytest.mark.parametrize("tool", sorted(_expected()))
def test_cli_command_lines(tool: str, tmp_path: Path) -> None:
    assert set(load_adapters()) == set(_expected())  # one command-line test per adapter
    agent = CLICodeAgent(tool, model="M")
    c1, c2 = ctx(tmp_path, 1), ctx(tmp_path, 2, feedback="task 0 / crit 0 — no heading")
    new_session_p2 = f"The original request was:\n\nMake me a counter page.\n\n{c2.prompt}"
    subst = {"P1": c1.prompt, "P2": c2.prompt, "P2n": new_session_p2}
    first, second = _expected()[tool]
    i1, i2 = agent.build(c1), agent.build(c2)
    assert i1.argv == [subst.get(a, c1.prompt if a == "P" else a) for a in first]
    assert i2.argv == [subst.get(a, c2.prompt if a == "P" else a) for a in second]
    assert not i1.continued and i2.continued == (not tool.startswith("openhands"))
    if tool.startswith("openhands"):
        assert i1.env["LLM_MODEL"] == "M"
    if tool == "openhands-legacy":
        assert i1.env["SANDBOX_VOLUMES"] == f"{tmp_path.resolve()}:/workspace:rw"
    cold = CLICodeAgent(tool, continue_session=False).build(c2)
    assert not cold.continued and "--model" not in cold.argv


# ================================================================ LLM user

def evaluation(**over) -> RoundEvaluation:
    v = Verdict
    results = {
        "t0": EvalTaskResult(eval_task_id="t0", status="failed", verdicts=[
            v(criterion_id="t0.c0", status="pass"),
            v(criterion_id="t0.c1", status="fail", reason="no button with a + label")]),
        "t1": EvalTaskResult(eval_task_id="t1", status="failed", verdicts=[
            v(criterion_id="t1.c0", status="fail", reason="count stays at 0")]),
        "t2": EvalTaskResult(eval_task_id="t2", status="failed", verdicts=[
            v(criterion_id="t2.c0", status="fail", reason="filename text instead of an image")]),
        "t3": EvalTaskResult(eval_task_id="t3", status="skipped", skipped_because=["t1"]),
    }
    return RoundEvaluation(protocol="dag", threshold=0.5, results=results, **over)


GOOD = ("- task 0 / crit 1 — There is no + button.\n"
        "- task 1 / crit 0 — Clicking does nothing.\n"
        "- task 2 / crit 0 — After selecting a file I see its name, not a thumbnail.")
DROPS_T2 = "\n".join(GOOD.splitlines()[:2])


def test_user_prompt_and_refs() -> None:
    user = LLMUser(ModelSpec.parse("openai:m@http://127.0.0.1:9/v1"))
    prompt = user.render(make_task(), evaluation(), 1)
    for ref in ("task 0 / crit 1", "task 1 / crit 0", "task 2 / crit 0"):
        assert ref in prompt
    assert "task 3" not in prompt and "Reset returns" not in prompt  # skipped: never reported
    assert "count stays at 0" in prompt and "Make me a counter page." in prompt
    assert task_refs(make_task()) == {"t0": "0", "t1": "1", "t2": "2", "t3": "3"}
    assert ref_present("* Task 2/crit 0: broken", "task 2 / crit 0")
    assert not ref_present("task 12 / crit 0", "task 2 / crit 0")
    assert not ref_present("task 2 / crit 01", "task 2 / crit 0")


async def test_user_feedback_no_guard_needed(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(text(GOOD, usage={"input": 300, "output": 60, "cached": 100}))
    user = users.get("llm", model=spec(llm_server))
    fb = await user.feedback(make_task(), evaluation(), 1)
    assert fb.text == GOOD and not fb.guard["fired"] and len(llm_server.requests) == 1
    assert fb.usage[0].role == "user" and fb.usage[0].cached_tokens == 100


async def test_user_guard_retries_once(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(text(DROPS_T2), text(GOOD))
    user = LLMUser(spec(llm_server, "anthropic"))
    fb = await user.feedback(make_task(), evaluation(), 2)
    assert fb.text == GOOD
    assert fb.guard["fired"] and fb.guard["retried"] and fb.guard["appended"] == []
    assert fb.guard["missing_first"] == ["task 2 / crit 0"]
    second = json.dumps(llm_server.requests[1].body["messages"])
    assert "left out these problems: task 2 / crit 0" in second
    assert fb.usage[0].calls == 2 and user.guard_log[-1] == fb.guard


async def test_user_guard_appends_when_still_missing(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(text(DROPS_T2), text(DROPS_T2 + "\n- Also the colours are dull."))
    fb = await LLMUser(spec(llm_server)).feedback(make_task(), evaluation(), 2)
    assert fb.guard["appended"] == ["task 2 / crit 0"]
    assert fb.guard["missing_after_retry"] == ["task 2 / crit 0"]
    assert fb.text.startswith(DROPS_T2)
    assert fb.text.endswith("- task 2 / crit 0 — A thumbnail is shown after file selection. "
                            "(observed: filename text instead of an image)")
    assert len(llm_server.requests) == 2


async def test_user_llm_failure_falls_back_to_verbatim(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(error(500), error(500))
    fb = await LLMUser(spec(llm_server, max_retries=1)).feedback(make_task(), evaluation(), 1)
    assert fb.guard["fired"] and "HTTP 500" in fb.guard["llm_error"]
    assert all(ref_present(fb.text, r) for r in ("task 0 / crit 1", "task 1 / crit 0",
                                                 "task 2 / crit 0"))


async def test_user_failed_deploy(llm_server: ScriptedLLMServer) -> None:
    log = "> vite build\nsrc/main.js:3: Error: Cannot find module 'chart.js'\nexit code 1"
    llm_server.script(text("The app does not open: the build fails on a missing module."))
    ev = RoundEvaluation(protocol="dag", threshold=0.5, results={}, deploy_ok=False,
                         deploy_error=log)
    fb = await LLMUser(spec(llm_server)).feedback(make_task(), ev, 1)
    prompt = llm_server.requests[0].body["messages"][0]["content"]
    assert "could not be built or started" in prompt and "Cannot find module" in prompt
    assert fb.text.startswith("The app does not open")
    assert "Cannot find module 'chart.js'" in fb.text  # the log excerpt is kept
    assert len(fb.usage) == 1


async def test_user_nothing_to_report(llm_server: ScriptedLLMServer) -> None:
    ev = RoundEvaluation(protocol="dag", threshold=0.5, results={
        "t0": EvalTaskResult(eval_task_id="t0", status="passed")})
    fb = await LLMUser(spec(llm_server)).feedback(make_task(), ev, 3)
    assert fb.text and fb.usage == [] and llm_server.requests == []

