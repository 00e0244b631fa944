"""Failed LLM calls of a browser-use agent: classified (config / endpoint / model) and counted by
a probe wrapped around the chat model, so a session can stop early on a wrong key or model and
report endpoint trouble as ``error`` rather than as a failed criterion."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from asuka.llm import redact
from asuka.llm.client import server_message

CONFIG_STATUS = {401: "unauthorized", 403: "forbidden", 404: "not found"}
MAX_REASON = 1200


def cut(text: str, n: int = MAX_REASON) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _sdk_classes() -> tuple[tuple[type, ...], tuple[type, ...]]:
    """(status errors, connection errors) of both SDKs."""
    import anthropic
    import openai

    return ((openai.APIStatusError, anthropic.APIStatusError),
            (openai.APIConnectionError, anthropic.APIConnectionError, httpx.TransportError))


def classify_llm_error(exc: BaseException) -> tuple[str, str]:
    """``(kind, description)`` of a failed LLM call as browser-use raised it.

    kind: ``config`` (401/403/404: wrong key, model or URL; never worth retrying), ``endpoint``
    (other HTTP errors, connection failures, timeouts, unusable responses) or ``model`` (the
    endpoint answered but the reply was not a valid agent step)."""
    from browser_use.llm.exceptions import ModelOutputTruncatedError

    if isinstance(exc, ModelOutputTruncatedError):
        return "model", f"reply truncated: {exc}"
    status_errors, conn_errors = _sdk_classes()
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, status_errors):
            code = getattr(e, "status_code", None)
            what = f"HTTP {code}" + (f" {CONFIG_STATUS[code]}" if code in CONFIG_STATUS else "")
            kind = "config" if code in CONFIG_STATUS else "endpoint"
            return kind, f"{what}: {server_message(e)}"
        if isinstance(e, conn_errors):
            return "endpoint", f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        if isinstance(e, (asyncio.TimeoutError, TimeoutError)):
            return "endpoint", f"timed out: {e}" if str(e) else "timed out"
        e = e.__cause__ or e.__context__
    e = exc
    seen.clear()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, ValueError):  # pydantic's ValidationError, JSON decoding errors
            first = (str(e).splitlines() or [""])[0]
            return "model", f"unusable reply: {type(e).__name__}: {first}"
        e = e.__cause__ or e.__context__
    code = getattr(exc, "status_code", None)
    return "endpoint", f"{type(exc).__name__}" + (f" ({code})" if code else "") + f": {exc}"


class LLMProbe:
    """Wraps a browser-use chat model's ``ainvoke``: times every call and classifies failures."""

    def __init__(self, secret: str = "") -> None:
        self.secret = secret
        self.latency_s = 0.0
        self.ok = 0
        self.failed = 0
        self.endpoint_streak = 0           # endpoint failures since the last good call
        self.last_error: tuple[str, str] | None = None
        self.fatal: str | None = None      # a config error: stop the agent now
        self.stop_requested = False

    def instrument(self, llm: Any) -> Any:
        original = llm.ainvoke

        async def ainvoke(messages: Any, output_format: Any = None, **kwargs: Any) -> Any:
            t0 = time.monotonic()
            try:
                result = await original(messages, output_format, **kwargs)
            except asyncio.CancelledError:  # browser-use's llm_timeout, or our own stop
                took = time.monotonic() - t0
                self.latency_s += took
                if not self.stop_requested:
                    self.failure(TimeoutError(f"no reply within {took:.0f}s"))
                raise
            except Exception as exc:
                self.latency_s += time.monotonic() - t0
                self.failure(exc)
                raise
            self.latency_s += time.monotonic() - t0
            self.ok += 1
            self.endpoint_streak = 0
            return result

        object.__setattr__(llm, "ainvoke", ainvoke)
        return llm

    def failure(self, exc: BaseException) -> None:
        kind, desc = classify_llm_error(exc)
        desc = redact(cut(desc, 400), self.secret)
        self.failed += 1
        self.last_error = (kind, desc)
        if kind == "model":
            self.endpoint_streak = 0
        else:
            self.endpoint_streak += 1
        if kind == "config":
            self.fatal = desc

    async def should_stop(self) -> bool:
        return self.fatal is not None or self.stop_requested
