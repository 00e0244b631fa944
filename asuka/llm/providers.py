"""Translation between our provider-neutral messages/tools and each SDK's request and response.

Neutral messages (what callers pass to ``LLMClient.chat``)::

    {"role": "system", "content": str}
    {"role": "user", "content": str | [{"type": "text", "text": str},
                                       {"type": "image", "media_type": str, "data": base64}]}
    {"role": "assistant", "content": str, "tool_calls": [{"id", "name", "arguments": dict}]}
    {"role": "tool", "tool_call_id": str, "name": str, "content": str}

Neutral tools: ``{"name", "description", "parameters": <JSON schema of the arguments>}``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from asuka.llm.spec import LLMResponseError, ModelSpec
from asuka.usage import Usage

JSON_INSTRUCTION = ("Reply with a single JSON value and nothing else (no prose, no code fence)."
                    " It must match this JSON schema:\n")


class ChatResult(BaseModel):
    text: str = ""
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)  # {id, name, arguments}
    stop_reason: str = "stop"        # stop | tool_calls | length | content_filter | <raw>
    raw_stop_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    model: str = ""
    attempts: int = 1

    def message(self) -> dict[str, Any]:
        """This reply as a neutral assistant message, ready to append to the history."""
        msg: dict[str, Any] = {"role": "assistant", "content": self.text}
        if self.tool_calls:
            msg["tool_calls"] = [dict(tc) for tc in self.tool_calls]
        return msg

    def parse_json(self) -> Any:
        """The reply parsed as JSON (a surrounding ``` fence is tolerated)."""
        s = self.text.strip()
        if s.startswith("```"):
            s = s.split("\n", 1)[1] if "\n" in s else ""
            s = s.rsplit("```", 1)[0]
        try:
            return json.loads(s)
        except ValueError as exc:
            raise LLMResponseError(f"{self.model}: the reply is not valid JSON ({exc}): "
                                   f"{self.text[:200]!r}") from None


def _parse_args(raw: str | None) -> dict[str, Any]:
    if not raw:
        return {}
    try:
        val = json.loads(raw)
    except ValueError:
        return {"__invalid_json__": raw}
    return val if isinstance(val, dict) else {"__value__": val}


# ---------------------------------------------------------------- content parts
# A user message's content is a string, or a list of neutral parts: {"type": "text", "text"}
# and {"type": "image", "media_type": "image/png", "data": <base64>} (vision models).

def _part_kind(part: dict[str, Any]) -> str:
    kind = part.get("type")
    if not isinstance(kind, str) or kind not in ("text", "image"):
        raise ValueError(f"unknown content part type {kind!r} (known: text, image)")
    return kind


def _openai_part(part: dict[str, Any]) -> dict[str, Any]:
    if _part_kind(part) == "text":
        return {"type": "text", "text": str(part.get("text", ""))}
    url = f"data:{part.get('media_type', 'image/png')};base64,{part['data']}"
    return {"type": "image_url", "image_url": {"url": url}}


def _anthropic_part(part: dict[str, Any]) -> dict[str, Any]:
    if _part_kind(part) == "text":
        return {"type": "text", "text": str(part.get("text", ""))}
    return {"type": "image", "source": {"type": "base64",
                                        "media_type": part.get("media_type", "image/png"),
                                        "data": part["data"]}}


# ---------------------------------------------------------------- OpenAI (and compatible)

def openai_request(spec: ModelSpec, messages: list[dict[str, Any]],
                   tools: list[dict[str, Any]] | None,
                   json_schema: dict[str, Any] | None, json_mode: bool,
                   temperature: float | None, max_tokens: int | None) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for m in messages:
        role = m["role"]
        if role == "assistant":
            msg: dict[str, Any] = {"role": "assistant", "content": m.get("content") or None}
            if m.get("tool_calls"):
                msg["tool_calls"] = [
                    {"id": tc["id"], "type": "function",
                     "function": {"name": tc["name"],
                                  "arguments": json.dumps(tc.get("arguments") or {})}}
                    for tc in m["tool_calls"]]
            elif msg["content"] is None:
                msg["content"] = ""
            out.append(msg)
        elif role == "tool":
            out.append({"role": "tool", "tool_call_id": m["tool_call_id"],
                        "content": str(m.get("content", ""))})
        elif isinstance(m.get("content"), list):
            out.append({"role": role, "content": [_openai_part(p) for p in m["content"]]})
        else:
            out.append({"role": role, "content": m.get("content", "")})
    kw: dict[str, Any] = {"model": spec.model, "messages": out}
    param = spec.max_tokens_param or ("max_tokens" if spec.effective_base_url()
                                      else "max_completion_tokens")
    kw[param] = max_tokens or spec.max_tokens
    temp = temperature if temperature is not None else spec.temperature
    if temp is not None:
        kw["temperature"] = temp
    if tools:
        kw["tools"] = [{"type": "function",
                        "function": {"name": t["name"], "description": t.get("description", ""),
                                     "parameters": t.get("parameters") or {"type": "object"}}}
                       for t in tools]
    if json_schema is not None:
        kw["response_format"] = {"type": "json_schema",
                                 "json_schema": {"name": json_schema.get("title", "response"),
                                                 "schema": json_schema}}
    elif json_mode:
        kw["response_format"] = {"type": "json_object"}
    if spec.extra_body:
        kw["extra_body"] = dict(spec.extra_body)
    return kw


_OPENAI_STOP = {"stop": "stop", "tool_calls": "tool_calls", "function_call": "tool_calls",
                "length": "length", "content_filter": "content_filter"}


def openai_result(resp: Any, spec: ModelSpec) -> ChatResult:
    choices = getattr(resp, "choices", None)
    if not choices:
        raise LLMResponseError(f"{spec.label}: the response has no choices",
                               provider=spec.provider, model=spec.model)
    choice = choices[0]
    msg = choice.message
    calls = [{"id": tc.id, "name": tc.function.name,
              "arguments": _parse_args(tc.function.arguments)}
             for tc in (getattr(msg, "tool_calls", None) or []) if getattr(tc, "function", None)]
    raw_stop = choice.finish_reason
    u = getattr(resp, "usage", None)
    details = getattr(u, "prompt_tokens_details", None) if u else None
    usage = Usage(input_tokens=int(getattr(u, "prompt_tokens", 0) or 0),
                  output_tokens=int(getattr(u, "completion_tokens", 0) or 0),
                  cached_tokens=int(getattr(details, "cached_tokens", 0) or 0))
    stop = _OPENAI_STOP.get(raw_stop or "", raw_stop or "stop")
    if calls and stop == "stop":  # some compatible servers say "stop" for tool calls
        stop = "tool_calls"
    return ChatResult(text=msg.content or "", tool_calls=calls, stop_reason=stop,
                      raw_stop_reason=raw_stop, usage=usage, model=getattr(resp, "model", "") or "")


# ---------------------------------------------------------------- Anthropic

def _append(out: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    """Anthropic wants alternating roles: merge consecutive messages of one role."""
    if out and out[-1]["role"] == role:
        out[-1]["content"].extend(blocks)
    else:
        out.append({"role": role, "content": list(blocks)})


def anthropic_request(spec: ModelSpec, messages: list[dict[str, Any]],
                      tools: list[dict[str, Any]] | None,
                      json_schema: dict[str, Any] | None, json_mode: bool,
                      temperature: float | None, max_tokens: int | None) -> dict[str, Any]:
    system: list[str] = []
    out: list[dict[str, Any]] = []
    for m in messages:
        role = m["role"]
        if role == "system":
            system.append(str(m.get("content", "")))
        elif role == "user" and isinstance(m.get("content"), list):
            _append(out, "user", [_anthropic_part(p) for p in m["content"]])
        elif role == "user":
            _append(out, "user", [{"type": "text", "text": str(m.get("content", ""))}])
        elif role == "assistant":
            blocks: list[dict[str, Any]] = []
            if m.get("content"):
                blocks.append({"type": "text", "text": m["content"]})
            blocks += [{"type": "tool_use", "id": tc["id"], "name": tc["name"],
                        "input": tc.get("arguments") or {}} for tc in m.get("tool_calls") or []]
            _append(out, "assistant", blocks or [{"type": "text", "text": "(no reply)"}])
        elif role == "tool":
            _append(out, "user", [{"type": "tool_result", "tool_use_id": m["tool_call_id"],
                                   "content": str(m.get("content", ""))}])
    if json_schema is not None:
        system.append(JSON_INSTRUCTION + json.dumps(json_schema))
    elif json_mode:
        system.append("Reply with a single JSON object and nothing else.")
    kw: dict[str, Any] = {"model": spec.model, "messages": out,
                          "max_tokens": max_tokens or spec.max_tokens}
    if system:
        kw["system"] = "\n\n".join(system)
    temp = temperature if temperature is not None else spec.temperature
    if temp is not None:
        kw["temperature"] = temp
    if tools:
        kw["tools"] = [{"name": t["name"], "description": t.get("description", ""),
                        "input_schema": t.get("parameters") or {"type": "object"}}
                       for t in tools]
    if spec.extra_body:
        kw["extra_body"] = dict(spec.extra_body)
    return kw


_ANTHROPIC_STOP = {"end_turn": "stop", "stop_sequence": "stop", "tool_use": "tool_calls",
                   "max_tokens": "length", "refusal": "content_filter"}


def anthropic_result(resp: Any, spec: ModelSpec) -> ChatResult:
    content = getattr(resp, "content", None)
    if content is None:
        raise LLMResponseError(f"{spec.label}: the response has no content",
                               provider=spec.provider, model=spec.model)
    texts, calls = [], []
    for block in content:
        kind = getattr(block, "type", None)
        if kind == "text":
            texts.append(block.text)
        elif kind == "tool_use":
            args = block.input if isinstance(block.input, dict) else {"__value__": block.input}
            calls.append({"id": block.id, "name": block.name, "arguments": args})
    u = getattr(resp, "usage", None)
    cache_read = int(getattr(u, "cache_read_input_tokens", 0) or 0)
    cache_write = int(getattr(u, "cache_creation_input_tokens", 0) or 0)
    # Anthropic's input_tokens excludes cache reads and writes; ours counts every input token.
    usage = Usage(input_tokens=int(getattr(u, "input_tokens", 0) or 0) + cache_read + cache_write,
                  output_tokens=int(getattr(u, "output_tokens", 0) or 0),
                  cached_tokens=cache_read)
    raw_stop = getattr(resp, "stop_reason", None)
    return ChatResult(text="".join(texts), tool_calls=calls,
                      stop_reason=_ANTHROPIC_STOP.get(raw_stop or "", raw_stop or "stop"),
                      raw_stop_reason=raw_stop, usage=usage, model=getattr(resp, "model", "") or "")
