"""A scripted fake LLM server for tests: OpenAI-compatible and Anthropic-style in one.

``POST /v1/chat/completions`` answers in the OpenAI chat format, ``POST /v1/messages`` in the
Anthropic messages format, each streamed as server-sent events when the request asks for
``stream`` (as the agent CLIs do); ``POST /v1/responses`` streams the Responses API's events. Each request pops the next reply from a queue the test fills with
``server.script(...)``; a reply is written in a provider-neutral form (``text``, ``tool_calls``,
``json_reply``, ``error``, ``malformed``, ``raw``) and rendered for whichever endpoint was called,
so one script serves both providers. Every request is recorded (path, headers, JSON body) for
assertions. Standard library only; binds 127.0.0.1 on a free port.

The ``llm_server`` fixture starts one per test, sets dummy keys in the environment and stops it.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

DUMMY_OPENAI_KEY = "sk-test-dummy-openai-0000"
DUMMY_ANTHROPIC_KEY = "sk-ant-test-dummy-0000"


@dataclass
class Reply:
    """One scripted answer. ``kind``: text | tool_calls | error | raw."""

    kind: str = "text"
    text: str = ""
    calls: list[tuple[str, dict]] = field(default_factory=list)
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | dict | None = None     # for error (dict/message) and raw (bytes or dict)
    usage: dict[str, int] | None = None  # neutral: input (incl. cached), output, cached
    delay_s: float = 0.0
    stop: str | None = None              # override the stop reason


def text(content: str, *, usage: dict | None = None, delay_s: float = 0.0,
         stop: str | None = None) -> Reply:
    return Reply("text", text=content, usage=usage, delay_s=delay_s, stop=stop)


def json_reply(obj: Any, **kw: Any) -> Reply:
    return text(json.dumps(obj), **kw)


def tool_calls(*calls: tuple[str, dict], content: str = "", usage: dict | None = None) -> Reply:
    """``tool_calls(("write_file", {"path": "a", "content": "b"}), ...)``"""
    return Reply("tool_calls", text=content, calls=list(calls), usage=usage)


def error(status: int, message: str = "scripted error", *, retry_after: str | None = None,
          delay_s: float = 0.0) -> Reply:
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    return Reply("error", status=status, headers=headers, body={"message": message},
                 delay_s=delay_s)


def malformed(status: int = 200) -> Reply:
    """A JSON content type whose body is not JSON."""
    return Reply("raw", status=status, body=b'{"id": "oops", "choices": [ this is not json',
                 headers={"content-type": "application/json"})


def raw(body: dict | bytes, status: int = 200, headers: dict | None = None) -> Reply:
    """Send ``body`` exactly as given (a dict is JSON-encoded), whatever the endpoint."""
    return Reply("raw", status=status, body=body, headers=dict(headers or {}))


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]  # lower-case names
    body: Any
    at: float


# ---------------------------------------------------------------- rendering per provider

def _openai(reply: Reply, req: dict, n: int) -> dict:
    u = reply.usage or {"input": 10, "output": 5, "cached": 0}
    msg: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    finish = "stop"
    if reply.kind == "tool_calls":
        msg["tool_calls"] = [
            {"id": f"call_{n}_{i}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args)}}
            for i, (name, args) in enumerate(reply.calls)
        ]
        finish = "tool_calls"
    return {
        "id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()),
        "model": req.get("model", "fake"),
        "choices": [{"index": 0, "message": msg, "finish_reason": reply.stop or finish,
                     "logprobs": None}],
        "usage": {"prompt_tokens": u.get("input", 0), "completion_tokens": u.get("output", 0),
                  "total_tokens": u.get("input", 0) + u.get("output", 0),
                  "prompt_tokens_details": {"cached_tokens": u.get("cached", 0)}},
    }


def _anthropic(reply: Reply, req: dict, n: int) -> dict:
    u = reply.usage or {"input": 10, "output": 5, "cached": 0}
    content: list[dict] = []
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    stop = "end_turn"
    if reply.kind == "tool_calls":
        content += [{"type": "tool_use", "id": f"toolu_{n}_{i}", "name": name, "input": args}
                    for i, (name, args) in enumerate(reply.calls)]
        stop = "tool_use"
    return {
        "id": f"msg_{n}", "type": "message", "role": "assistant",
        "model": req.get("model", "fake"), "content": content,
        "stop_reason": reply.stop or stop, "stop_sequence": None,
        "usage": {"input_tokens": u.get("input", 0) - u.get("cached", 0),
                  "output_tokens": u.get("output", 0),
                  "cache_read_input_tokens": u.get("cached", 0),
                  "cache_creation_input_tokens": 0},
    }


# ---------------------------------------------------------------- streamed (SSE) renderings
# The agent CLIs stream: Claude Code the Messages API's events, aider chat-completion chunks.
# Each is the non-streamed reply cut into the events the real API sends, in its order.

def _sse(events: list[tuple[str | None, Any]]) -> bytes:
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        body = data if isinstance(data, str) else json.dumps(data)
        out.append(f"{head}data: {body}\n\n")
    return "".join(out).encode()


def _anthropic_stream(reply: Reply, req: dict, n: int) -> bytes:
    msg = _anthropic(reply, req, n)
    usage = msg["usage"]
    start = {**msg, "content": [], "stop_reason": None,
             "usage": {**usage, "output_tokens": 1}}
    events: list[tuple[str | None, Any]] = [("message_start", {"type": "message_start",
                                                                "message": start})]
    for i, block in enumerate(msg["content"]):
        if block["type"] == "text":
            first, delta = {"type": "text", "text": ""}, {"type": "text_delta",
                                                          "text": block["text"]}
        else:
            first = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [("content_block_start", {"type": "content_block_start", "index": i,
                                            "content_block": first}),
                   ("content_block_delta", {"type": "content_block_delta", "index": i,
                                            "delta": delta}),
                   ("content_block_stop", {"type": "content_block_stop", "index": i})]
    events += [("message_delta", {"type": "message_delta",
                                  "delta": {"stop_reason": msg["stop_reason"],
                                            "stop_sequence": None},
                                  "usage": {"output_tokens": usage["output_tokens"]}}),
               ("message_stop", {"type": "message_stop"})]
    return _sse(events)


def _openai_stream(reply: Reply, req: dict, n: int) -> bytes:
    whole = _openai(reply, req, n)
    choice, base = whole["choices"][0], {k: whole[k] for k in ("id", "created", "model")}
    base["object"] = "chat.completion.chunk"

    def chunk(delta: dict, finish: str | None = None, **extra: Any) -> dict:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                                     "logprobs": None}], **extra}

    events: list[tuple[str | None, Any]] = [(None, chunk({"role": "assistant", "content": ""}))]
    if choice["message"]["content"]:
        events.append((None, chunk({"content": choice["message"]["content"]})))
    for i, call in enumerate(choice["message"].get("tool_calls") or []):
        events.append((None, chunk({"tool_calls": [{"index": i, **call}]})))
    events.append((None, chunk({}, choice["finish_reason"])))
    if (req.get("stream_options") or {}).get("include_usage"):
        events.append((None, {**base, "choices": [], "usage": whole["usage"]}))
    events.append((None, "[DONE]"))
    return _sse(events)


def _responses_stream(reply: Reply, req: dict, n: int) -> bytes:
    """The Responses API's events (Codex): each output item added then done, then completed
    with the usage."""
    u = reply.usage or {"input": 10, "output": 5, "cached": 0}
    items: list[dict] = []
    if reply.text:
        items.append({"type": "message", "id": f"msg_{n}", "role": "assistant",
                      "status": "completed",
                      "content": [{"type": "output_text", "text": reply.text,
                                   "annotations": []}]})
    for i, (name, args) in enumerate(reply.calls):
        items.append({"type": "function_call", "id": f"fc_{n}_{i}", "call_id": f"call_{n}_{i}",
                      "name": name, "arguments": json.dumps(args), "status": "completed"})
    response = {"id": f"resp_{n}", "object": "response", "created_at": int(time.time()),
                "model": req.get("model", "fake"), "status": "in_progress", "output": []}
    events: list[tuple[str | None, Any]] = [
        ("response.created", {"type": "response.created", "response": response})]
    for i, item in enumerate(items):
        events += [("response.output_item.added", {"type": "response.output_item.added",
                                                   "output_index": i, "item": item}),
                   ("response.output_item.done", {"type": "response.output_item.done",
                                                  "output_index": i, "item": item})]
    usage = {"input_tokens": u.get("input", 0),
             "input_tokens_details": {"cached_tokens": u.get("cached", 0)},
             "output_tokens": u.get("output", 0),
             "output_tokens_details": {"reasoning_tokens": 0},
             "total_tokens": u.get("input", 0) + u.get("output", 0)}
    events.append(("response.completed", {"type": "response.completed", "response": {
        **response, "status": "completed", "output": items, "usage": usage}}))
    return _sse(events)


# One image as OpenAI bills a 1280x1100-ish screenshot at detail "auto" (4 tiles + base);
# Anthropic's (w*h/750) is of the same order.
IMAGE_TOKENS = 765


def estimated_usage(rec: Recorded, reply: Reply) -> dict[str, int]:
    """Tokens a real provider would bill for this exchange, estimated at 4 characters per
    token of the request's JSON (system, messages, tool schemas; images taken out and counted
    as IMAGE_TOKENS each) and of the reply's text and tool-call arguments. Good to the order of
    magnitude, which is what a cost estimate per task-round needs."""
    images = 0

    def strip(node: Any) -> Any:
        nonlocal images
        if isinstance(node, dict):
            if node.get("type") in ("image_url", "image"):
                images += 1
                return None
            return {k: strip(v) for k, v in node.items()}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    body = strip(rec.body if isinstance(rec.body, dict) else {})
    chars = len(json.dumps(body, ensure_ascii=False))
    out_chars = len(reply.text) + sum(len(json.dumps(a)) + len(n) for n, a in reply.calls)
    return {"input": chars // 4 + images * IMAGE_TOKENS, "output": max(1, out_chars // 4),
            "cached": 0}


def _error_body(path: str, status: int, message: str) -> dict:
    if path.endswith("/messages"):
        kind = {401: "authentication_error", 403: "permission_error", 404: "not_found_error",
                429: "rate_limit_error"}.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": "scripted", "code": str(status)}}


class ScriptedLLMServer:
    """Threaded HTTP server answering from a queue of scripted replies."""

    def __init__(self, *, estimate_usage: bool = False) -> None:
        # estimate_usage: replies without scripted usage report tokens estimated from the real
        # request and reply sizes (see estimated_usage) instead of the fixed 10 in / 5 out.
        self.estimate_usage = estimate_usage
        self._queue: deque[Reply | Callable[[Recorded], Reply]] = deque()
        self._lock = threading.Lock()
        self.requests: list[Recorded] = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.02}, daemon=True)

    # -- test-facing API
    @property
    def openai_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_base_url(self) -> str:  # the SDK appends /v1/messages itself
        return f"http://127.0.0.1:{self.port}"

    def base_url(self, provider: str) -> str:
        return self.openai_base_url if provider == "openai" else self.anthropic_base_url

    def script(self, *replies: Reply | Callable[[Recorded], Reply]) -> ScriptedLLMServer:
        with self._lock:
            self._queue.extend(replies)
        return self

    @property
    def pending(self) -> int:
        return len(self._queue)

    def bodies(self) -> list[Any]:
        return [r.body for r in self.requests]

    def start(self) -> ScriptedLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    # -- the handler
    def _next(self, rec: Recorded) -> Reply:
        with self._lock:
            self.requests.append(rec)
            item = self._queue.popleft() if self._queue else None
        if item is None:  # loud and not retryable: the test forgot a reply
            return error(418, "fake server: script exhausted")
        return item(rec) if callable(item) else item

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_HEAD(self) -> None:  # noqa: N802 - Claude Code checks it can connect
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_POST(self) -> None:  # noqa: N802
                n = int(self.headers.get("content-length") or 0)
                data = self.rfile.read(n) if n else b""
                try:
                    body = json.loads(data) if data else None
                except ValueError:
                    body = data.decode("utf-8", "replace")
                rec = Recorded(self.path, {k.lower(): v for k, v in self.headers.items()},
                               body, time.monotonic())
                reply = server._next(rec)
                if server.estimate_usage and reply.usage is None and reply.kind != "raw":
                    reply = replace(reply, usage=estimated_usage(rec, reply))
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                path = self.path.split("?")[0]
                req = body if isinstance(body, dict) else {}
                stream = False
                n_req = len(server.requests)
                if reply.kind == "raw":
                    payload = reply.body if isinstance(reply.body, bytes) else json.dumps(
                        reply.body).encode()
                elif reply.kind == "error":
                    msg = (reply.body or {}).get("message", "error")
                    payload = json.dumps(_error_body(path, reply.status, msg)).encode()
                elif path.endswith("/chat/completions") and req.get("stream"):
                    payload, stream = _openai_stream(reply, req, n_req), True
                elif path.endswith("/chat/completions"):
                    payload = json.dumps(_openai(reply, req, n_req)).encode()
                elif path.endswith("/responses"):
                    payload, stream = _responses_stream(reply, req, n_req), True
                elif path.endswith("/messages") and req.get("stream"):
                    payload, stream = _anthropic_stream(reply, req, n_req), True
                elif path.endswith("/messages"):
                    payload = json.dumps(_anthropic(reply, req, n_req)).encode()
                else:
                    reply = error(404, f"fake server: unknown path {path}")
                    payload = json.dumps(_error_body(path, 404, "unknown path")).encode()
                kind = "text/event-stream" if stream else "application/json"
                headers = {"content-type": kind, **reply.headers}
                try:
                    self.send_response(reply.status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out
                    pass

        return Handler


@pytest.fixture
def llm_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedLLMServer]:
    """A running scripted server; dummy API keys set, base-url env vars cleared."""
    monkeypatch.setenv("OPENAI_API_KEY", DUMMY_OPENAI_KEY)
    monkeypatch.setenv("ANTHROPIC_API_KEY", DUMMY_ANTHROPIC_KEY)
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(var, raising=False)
    server = ScriptedLLMServer().start()
    try:
        yield server
    finally:
        server.stop()


# ---------------------------------------------------------------- browser-use agent steps
# Helpers for scripting browser-use 0.13 agents (tests/uiagents/test_browser_use.py). Its ChatOpenAI asks
# for a JSON-schema response whose content is an ``AgentOutput``; ChatAnthropic forces a tool
# call carrying the same object. ``agent_step`` renders one step for either endpoint.

def agent_output(*actions: dict, memory: str = "testing", next_goal: str = "continue",
                 evaluation: str = "ok", thinking: str | None = None) -> dict:
    """One browser-use ``AgentOutput``: ``{"thinking", "evaluation_previous_goal", "memory",
    "next_goal", "action": [{"click": {"index": 3}}, ...]}``."""
    out: dict[str, Any] = {"evaluation_previous_goal": evaluation, "memory": memory,
                           "next_goal": next_goal, "action": list(actions)}
    if thinking is not None:
        out["thinking"] = thinking
    return out


def agent_step(*actions: dict, usage: dict | None = None,
               **fields: Any) -> Callable[[Recorded], Reply]:
    """A reply (as a callable, so it can look at the request) with one agent step: JSON content
    for ``/chat/completions``, an ``AgentOutput`` tool call for ``/messages``."""
    body = agent_output(*actions, **fields)

    def reply(rec: Recorded) -> Reply:
        if rec.path.split("?")[0].endswith("/messages"):
            tools = (rec.body or {}).get("tools") or [{"name": "AgentOutput"}]
            return tool_calls((tools[0]["name"], body), usage=usage)
        return json_reply(body, usage=usage)

    return reply


def done_action(passed: bool, reason: str, evidence: str = "", *, success: bool = True) -> dict:
    """browser-use's structured ``done`` action carrying a UI-agent verdict."""
    return {"done": {"success": success,
                     "data": {"passed": passed, "reason": reason, "evidence": evidence}}}


def request_text(rec: Recorded) -> str:
    """All text of a recorded chat request (system, user and tool text; images left out)."""
    body = rec.body if isinstance(rec.body, dict) else {}
    parts: list[str] = []
    if isinstance(body.get("system"), str):
        parts.append(body["system"])
    elif isinstance(body.get("system"), list):
        parts += [b.get("text", "") for b in body["system"] if isinstance(b, dict)]
    for m in body.get("messages", []):
        content = m.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts += [c.get("text", "") for c in content if isinstance(c, dict)]
    return "\n".join(parts)


def browser_state(rec: Recorded) -> str:
    """The last ``<browser_state>`` block the agent sent (its view of the page)."""
    text = request_text(rec)
    start = text.rfind("<browser_state>")
    end = text.find("</browser_state>", start)
    return text[start:end] if start >= 0 else ""


def element_index(rec: Recorded, needle: str) -> int:
    """Index of the first interactive element (``[N]<tag ...>``) whose tag line or text lines
    contain ``needle``; raises LookupError when there is none."""
    import re

    current: tuple[int, int] | None = None  # (index, indentation) of the enclosing element
    for line in browser_state(rec).splitlines():
        depth = len(line) - len(line.lstrip("\t "))
        m = re.match(r"\s*\*?\[(\d+)\]<", line)
        if m:
            current = (int(m.group(1)), depth)
        elif current is not None and depth <= current[1]:
            current = None
        if current is not None and needle in line:
            return current[0]
    raise LookupError(f"no interactive element with {needle!r} in the browser state")


def click_on(needle: str, **fields: Any) -> Callable[[Recorded], Reply]:
    """A step clicking the element showing ``needle`` (found in the request's browser state)."""

    def reply(rec: Recorded) -> Reply:
        return agent_step({"click": {"index": element_index(rec, needle)}}, **fields)(rec)

    return reply
