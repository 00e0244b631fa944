"""asuka.llm against the scripted local server, through the real openai/anthropic SDKs."""

from __future__ import annotations

import time

import pytest

from asuka.llm import LLMClient, LLMConfigError, LLMError, LLMResponseError, ModelSpec
from asuka.llm.client import retry_after_s
from tests.llm_server import (
    DUMMY_ANTHROPIC_KEY,
    DUMMY_OPENAI_KEY,
    ScriptedLLMServer,
    error,
    json_reply,
    llm_server,  # noqa: F401 - fixture
    malformed,
    raw,
    text,
    tool_calls,
)

PROVIDERS = ["openai", "anthropic"]
KEYS = {"openai": DUMMY_OPENAI_KEY, "anthropic": DUMMY_ANTHROPIC_KEY}


def client_for(server: ScriptedLLMServer, provider: str = "openai", role: str = "test",
               **over) -> LLMClient:
    over.setdefault("backoff_s", 0.01)
    over.setdefault("max_retries", 3)
    over.setdefault("timeout_s", 5.0)
    spec = ModelSpec(provider=provider, model=f"fake-{provider}",
                     base_url=server.base_url(provider), **over)
    return LLMClient(spec, role=role)


USER = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]


# ---------------------------------------------------------------- ModelSpec

def test_modelspec_parse() -> None:
    s = ModelSpec.parse("openai:gpt-4o-mini")
    assert (s.provider, s.model, s.base_url, s.api_key_env) == (
        "openai", "gpt-4o-mini", None, "OPENAI_API_KEY")
    a = ModelSpec.parse("anthropic:claude-sonnet-4-5")
    assert (a.provider, a.api_key_env) == ("anthropic", "ANTHROPIC_API_KEY")
    q = ModelSpec.parse("openai:qwen2.5:7b@http://127.0.0.1:8000/v1/")
    assert (q.model, q.base_url) == ("qwen2.5:7b", "http://127.0.0.1:8000/v1")
    assert ModelSpec.parse("claude-3-5-haiku").provider == "anthropic"
    assert ModelSpec.parse("qwen2.5:7b").model == "qwen2.5:7b"
    assert ModelSpec.parse("openai:m", max_retries=1, temperature=0.2).max_retries == 1
    assert ModelSpec.coerce({"provider": "openai", "model": "x"}).model == "x"
    with pytest.raises(ValueError):
        ModelSpec(provider="gemini", model="x")  # type: ignore[arg-type]


# ---------------------------------------------------------------- happy paths

@pytest.mark.parametrize("provider", PROVIDERS)
async def test_text_reply_and_request(llm_server: ScriptedLLMServer, provider: str) -> None:
    llm_server.script(text("hi there", usage={"input": 12, "output": 3, "cached": 0}))
    c = client_for(llm_server, provider)
    r = await c.chat(USER)
    assert r.text == "hi there" and r.stop_reason == "stop" and r.tool_calls == []
    req = llm_server.requests[0]
    if provider == "openai":
        assert req.path == "/v1/chat/completions"
        assert req.headers["authorization"] == f"Bearer {DUMMY_OPENAI_KEY}"
        assert req.body["messages"][0] == {"role": "system", "content": "be brief"}
        assert req.body["max_tokens"] == 4096  # custom base_url -> classic parameter name
    else:
        assert req.path == "/v1/messages"
        assert req.headers["x-api-key"] == DUMMY_ANTHROPIC_KEY
        assert req.body["system"] == "be brief"
        assert req.body["messages"] == [
            {"role": "user", "content": [{"type": "text", "text": "hello"}]}]
    assert req.body["model"] == f"fake-{provider}"
    assert "temperature" not in req.body
    assert r.usage.input_tokens == 12 and r.usage.output_tokens == 3 and r.usage.calls == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_tool_calls_normalised_and_advertised(llm_server: ScriptedLLMServer,
                                                    provider: str) -> None:
    llm_server.script(tool_calls(("write_file", {"path": "index.html", "content": "<h1>x</h1>"}),
                                 ("finish", {"summary": "done"}), content="writing"))
    tools = [{"name": "write_file", "description": "write a file",
              "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}},
             {"name": "finish", "description": "stop", "parameters": {"type": "object"}}]
    r = await client_for(llm_server, provider).chat(USER, tools=tools)
    assert r.stop_reason == "tool_calls"
    assert [(t["name"], t["arguments"]) for t in r.tool_calls] == [
        ("write_file", {"path": "index.html", "content": "<h1>x</h1>"}),
        ("finish", {"summary": "done"})]
    assert all(t["id"] for t in r.tool_calls)
    assert r.text == "writing"
    sent = llm_server.requests[0].body["tools"]
    names = ([t["function"]["name"] for t in sent] if provider == "openai"
             else [t["name"] for t in sent])
    assert names == ["write_file", "finish"]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_tool_history_is_translated(llm_server: ScriptedLLMServer, provider: str) -> None:
    llm_server.script(text("ok"))
    history = USER + [
        {"role": "assistant", "content": "",
         "tool_calls": [{"id": "c1", "name": "read_file", "arguments": {"path": "a.txt"}},
                        {"id": "c2", "name": "list_files", "arguments": {}}]},
        {"role": "tool", "tool_call_id": "c1", "name": "read_file", "content": "AAA"},
        {"role": "tool", "tool_call_id": "c2", "name": "list_files", "content": "a.txt"},
    ]
    await client_for(llm_server, provider).chat(history)
    msgs = llm_server.requests[0].body["messages"]
    if provider == "openai":
        call = msgs[2]["tool_calls"][0]
        assert call["function"] == {"name": "read_file", "arguments": '{"path": "a.txt"}'}
        assert msgs[3] == {"role": "tool", "tool_call_id": "c1", "content": "AAA"}
    else:  # tool results merged into one user turn after the assistant's tool_use blocks
        assert msgs[1]["role"] == "assistant"
        assert msgs[1]["content"][0] == {"type": "tool_use", "id": "c1", "name": "read_file",
                                         "input": {"path": "a.txt"}}
        assert msgs[2]["role"] == "user" and [b["tool_use_id"] for b in msgs[2]["content"]] == [
            "c1", "c2"]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_json_schema_output(llm_server: ScriptedLLMServer, provider: str) -> None:
    schema = {"title": "verdict", "type": "object",
              "properties": {"pass": {"type": "boolean"}}, "required": ["pass"]}
    llm_server.script(json_reply({"pass": True}))
    r = await client_for(llm_server, provider).chat(USER, json_schema=schema)
    assert r.parse_json() == {"pass": True}
    body = llm_server.requests[0].body
    if provider == "openai":
        assert body["response_format"]["type"] == "json_schema"
        assert body["response_format"]["json_schema"]["schema"] == schema
    else:
        assert '"required": ["pass"]' in body["system"]


async def test_base_url_from_environment(llm_server: ScriptedLLMServer,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    llm_server.script(text("via env"))
    r = await LLMClient(ModelSpec.parse("openai:gpt-4o-mini")).chat(USER)
    assert r.text == "via env"
    assert llm_server.requests[0].body["max_tokens"] == 4096


# ---------------------------------------------------------------- failures and retries

async def test_429_retry_after_is_honoured(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(error(429, "slow down", retry_after="1"), text("ok"))
    c = client_for(llm_server, backoff_s=0.01)
    t0 = time.monotonic()
    r = await c.chat(USER)
    waited = llm_server.requests[1].at - llm_server.requests[0].at
    assert r.text == "ok" and r.attempts == 2
    assert waited >= 0.95, waited          # backoff alone would have waited ~0.01 s
    assert time.monotonic() - t0 < 5


async def test_retry_after_is_capped(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(error(429, retry_after="120"), text("ok"))
    c = client_for(llm_server, retry_after_cap_s=0.2)
    t0 = time.monotonic()
    assert (await c.chat(USER)).text == "ok"
    assert 0.15 <= time.monotonic() - t0 < 3


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_500s_retried_then_succeed(llm_server: ScriptedLLMServer, provider: str) -> None:
    llm_server.script(error(500), error(503), text("finally"))
    r = await client_for(llm_server, provider).chat(USER)
    assert r.text == "finally" and r.attempts == 3 and len(llm_server.requests) == 3


async def test_500s_exhausted(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(*[error(500, "boom")] * 3, text("never"))
    with pytest.raises(LLMError) as ei:
        await client_for(llm_server, max_retries=2).chat(USER)
    assert not isinstance(ei.value, LLMConfigError)
    assert ei.value.status == 500 and ei.value.attempts == 3
    assert "HTTP 500" in str(ei.value) and "3 attempt" in str(ei.value)
    assert len(llm_server.requests) == 3 and llm_server.pending == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_malformed_json_is_a_clear_error(llm_server: ScriptedLLMServer,
                                               provider: str) -> None:
    llm_server.script(malformed(), text("unused"))
    with pytest.raises(LLMResponseError) as ei:
        await client_for(llm_server, provider).chat(USER)
    assert "not valid JSON" in str(ei.value) and f"fake-{provider}" in str(ei.value)
    assert len(llm_server.requests) == 1


async def test_wrong_shape_is_a_clear_error(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(raw({"id": "x", "object": "chat.completion", "choices": []}))
    with pytest.raises(LLMResponseError, match="no choices"):
        await client_for(llm_server).chat(USER)


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_timeout_is_retried(llm_server: ScriptedLLMServer, provider: str) -> None:
    llm_server.script(text("too late", delay_s=3.0), text("in time"))
    r = await client_for(llm_server, provider, timeout_s=1.0).chat(USER)
    assert r.text == "in time" and r.attempts == 2


async def test_timeout_exhausted(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(text("late", delay_s=1.0), text("late", delay_s=1.0))
    with pytest.raises(LLMError, match="timed out"):
        await client_for(llm_server, timeout_s=0.3, max_retries=1).chat(USER)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("status", [401, 403, 404])
async def test_auth_errors_are_config_errors(llm_server: ScriptedLLMServer, provider: str,
                                             status: int) -> None:
    key = KEYS[provider]
    llm_server.script(error(status, f"Incorrect API key provided: {key}"), text("unused"))
    with pytest.raises(LLMConfigError) as ei:
        await client_for(llm_server, provider).chat(USER)
    msg = str(ei.value)
    assert provider in msg and f"fake-{provider}" in msg
    assert ("OPENAI_API_KEY" if provider == "openai" else "ANTHROPIC_API_KEY") in msg
    assert llm_server.base_url(provider) in msg
    assert key not in msg and key not in repr(ei.value.args)
    assert ei.value.__cause__ is None and ei.value.__suppress_context__
    assert len(llm_server.requests) == 1  # never retried


def test_missing_key_names_the_env_var(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    spec = ModelSpec.parse("anthropic:claude-x")
    with pytest.raises(LLMConfigError, match="ANTHROPIC_API_KEY"):
        spec.api_key()
    monkeypatch.setenv("MY_KEY", "k-123456")
    assert ModelSpec.parse("anthropic:claude-x", api_key_env="MY_KEY").api_key() == "k-123456"


def test_retry_after_parsing() -> None:
    class Resp:
        def __init__(self, h: dict) -> None:
            self.headers = h

    class Exc(Exception):
        def __init__(self, h: dict) -> None:
            self.response = Resp(h)

    assert retry_after_s(Exc({"retry-after": "3"})) == 3.0
    assert retry_after_s(Exc({"retry-after-ms": "250"})) == 0.25
    assert retry_after_s(Exc({})) is None
    date = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    assert 25 <= retry_after_s(Exc({"retry-after": date})) <= 31


# ---------------------------------------------------------------- usage accounting

async def test_usage_openai_cached_tokens_and_cost(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(text("a", usage={"input": 1000, "output": 200, "cached": 400}),
                      text("b", usage={"input": 500, "output": 100, "cached": 0}),
                      text("c", usage={"input": 10, "output": 1, "cached": 0}))
    c = client_for(llm_server, role="code-agent",
                   price={"input": 1.0, "cached_input": 0.5, "output": 2.0})
    c.round = 1
    await c.chat(USER)
    await c.chat(USER)
    c.round = 2
    await c.chat(USER)
    u1 = c.usage_for(1)
    assert (u1.role, u1.model, u1.calls) == ("code-agent", "fake-openai", 2)
    assert (u1.input_tokens, u1.output_tokens, u1.cached_tokens) == (1500, 300, 400)
    expected = (1100 * 1.0 + 400 * 0.5 + 300 * 2.0) / 1e6
    assert u1.cost_usd == pytest.approx(expected)
    assert u1.latency_s > 0
    assert c.usage_for(2).calls == 1 and c.total_usage.calls == 3
    dumped = c.usage_for(1).model_dump_json()
    assert DUMMY_OPENAI_KEY not in dumped


async def test_usage_anthropic_cache_read(llm_server: ScriptedLLMServer) -> None:
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "fake-anthropic",
            "content": [{"type": "text", "text": "cached!"}], "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 100, "output_tokens": 20, "cache_read_input_tokens": 300,
                      "cache_creation_input_tokens": 50}}
    llm_server.script(raw(body))
    c = client_for(llm_server, "anthropic", role="user")
    r = await c.chat(USER)
    assert r.text == "cached!"
    assert (r.usage.input_tokens, r.usage.output_tokens, r.usage.cached_tokens) == (450, 20, 300)
    assert r.usage.cost_usd is None  # not in the price table
    assert c.usage_for(0).calls == 1


async def test_price_table_lookup(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(text("x", usage={"input": 1_000_000, "output": 0, "cached": 0}))
    spec = ModelSpec(provider="openai", model="gpt-4o-mini-2024-07-18",
                     base_url=llm_server.openai_base_url)
    r = await LLMClient(spec).chat(USER)
    assert r.usage.cost_usd == pytest.approx(0.15)  # the example entry for gpt-4o-mini


async def test_local_server_without_key_gets_placeholder(llm_server: ScriptedLLMServer,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    llm_server.script(text("served"))
    spec = ModelSpec.parse(f"openai:qwen2.5:7b@{llm_server.openai_base_url}")
    assert (await LLMClient(spec).chat(USER)).text == "served"
    assert llm_server.requests[0].headers["authorization"] == "Bearer EMPTY"
