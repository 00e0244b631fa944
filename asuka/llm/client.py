"""LLMClient: one async chat call over the official SDKs, with our retries and usage accounting.

The SDKs' own retries are switched off (``max_retries=0``); tenacity retries 429, 408/409, 5xx,
connection errors and timeouts with exponential backoff, waiting for ``Retry-After`` (capped)
when the server sends one. 401/403/404 raise LLMConfigError at once. API keys are read from the
environment at call time and never stored, logged or put into messages.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import random
import time
from typing import Any, TypedDict

from pydantic import ValidationError
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from asuka.llm import prices
from asuka.llm.providers import (
    ChatResult,
    anthropic_request,
    anthropic_result,
    openai_request,
    openai_result,
)
from asuka.llm.spec import LLMConfigError, LLMError, LLMResponseError, ModelSpec, redact
from asuka.usage import Usage

log = logging.getLogger("asuka.llm")

RETRY_STATUS = {408, 409, 429}
CONFIG_STATUS = {401: "unauthorized", 403: "forbidden", 404: "not found"}


class _ErrorContext(TypedDict):
    """The keyword arguments every LLMError raised for a failed call carries."""

    provider: str
    model: str
    attempts: int


def _sdk_errors(provider: str) -> tuple[type, type, type]:
    if provider == "openai":
        import openai as m
    else:
        import anthropic as m  # type: ignore[no-redef]
    return m.APIStatusError, m.APIConnectionError, m.APITimeoutError


def _status(exc: BaseException) -> int | None:
    code = getattr(exc, "status_code", None)
    return code if isinstance(code, int) else None


def _headers(exc: BaseException) -> Any:
    resp = getattr(exc, "response", None)
    return getattr(resp, "headers", None) or {}


def retry_after_s(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait (Retry-After as seconds or HTTP date, or
    retry-after-ms), or None."""
    h = _headers(exc)
    try:
        if h.get("retry-after-ms"):
            return max(float(h["retry-after-ms"]) / 1000.0, 0.0)
        ra = h.get("retry-after")
    except (TypeError, ValueError, AttributeError):
        return None
    if not ra:
        return None
    try:
        return max(float(ra), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(ra)
        return max(when.timestamp() - time.time(), 0.0)
    except (TypeError, ValueError):
        return None


def server_message(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
    return str(getattr(exc, "message", "") or exc)


class LLMClient:
    """``await LLMClient(spec, role="user").chat(messages, tools=..., json_schema=...)``.

    Usage is accumulated per round in ``usage_by_round``; the caller sets ``client.round``
    before a round's calls (``usage_for(round)`` reads it back)."""

    def __init__(self, spec: ModelSpec | str | dict[str, Any], role: str = "") -> None:
        self.spec = ModelSpec.coerce(spec)
        self.role = role
        self.round = 0
        self.usage_by_round: dict[int, Usage] = {}
        self._sdk: Any = None
        self._sdk_loop: asyncio.AbstractEventLoop | None = None
        self._price = self.spec.price if self.spec.price is not None else prices.lookup(
            self.spec.model)

    def preflight(self) -> None:
        """Raise LLMConfigError now if the key is missing (no network call)."""
        self.spec.api_key()

    # ------------------------------------------------------------ usage
    def usage_for(self, round: int | None = None) -> Usage:
        r = self.round if round is None else round
        return self.usage_by_round.get(r, Usage(role=self.role, model=self.spec.model))

    @property
    def total_usage(self) -> Usage:
        total = Usage(role=self.role, model=self.spec.model)
        for u in self.usage_by_round.values():
            total = total + u
        return total

    def _record(self, usage: Usage) -> Usage:
        usage = usage.model_copy(update={
            "role": self.role, "model": self.spec.model, "calls": 1,
            "cost_usd": prices.cost_usd(self._price, usage.input_tokens, usage.output_tokens,
                                        usage.cached_tokens)})
        self.usage_by_round[self.round] = self.usage_for(self.round) + usage
        return usage

    # ------------------------------------------------------------ SDK client
    def _client(self) -> Any:
        """One SDK client per event loop (an HTTP connection pool cannot cross loops)."""
        loop = asyncio.get_running_loop()
        if self._sdk is None or self._sdk_loop is not loop:
            kw: dict[str, Any] = {"api_key": self.spec.api_key(), "max_retries": 0,
                                  "timeout": self.spec.timeout_s}
            if self.spec.base_url:
                kw["base_url"] = self.spec.base_url
            if self.spec.provider == "openai":
                import openai

                self._sdk = openai.AsyncOpenAI(**kw)
            else:
                import anthropic

                self._sdk = anthropic.AsyncAnthropic(**kw)
            self._sdk_loop = loop
        return self._sdk

    async def _call_once(self, kwargs: dict[str, Any]) -> Any:
        sdk = self._client()
        if self.spec.provider == "openai":
            return await sdk.chat.completions.create(**kwargs)
        return await sdk.messages.create(**kwargs)

    # ------------------------------------------------------------ retry policy
    def _retryable(self, exc: BaseException) -> bool:
        status_err, conn_err, _ = _sdk_errors(self.spec.provider)
        if isinstance(exc, conn_err):  # includes timeouts
            return True
        if isinstance(exc, status_err):
            should = str(_headers(exc).get("x-should-retry", "")).lower()
            if should in ("true", "false"):
                return should == "true" and _status(exc) not in CONFIG_STATUS
            code = _status(exc) or 0
            return code in RETRY_STATUS or code >= 500
        return False

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        ra = retry_after_s(exc) if exc is not None else None
        if ra is not None:
            return min(ra, self.spec.retry_after_cap_s)
        base = min(self.spec.backoff_s * 2.0 ** (state.attempt_number - 1),
                   self.spec.backoff_max_s)
        return base * (0.5 + random.random() / 2)

    def _before_sleep(self, state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        wait = state.next_action.sleep if state.next_action else 0.0
        log.warning("%s [%s] attempt %d failed (%s); retrying in %.2fs", self.spec.label,
                    self.role or "-", state.attempt_number, self._describe(exc), wait)

    def _describe(self, exc: BaseException | None) -> str:
        if exc is None:
            return "?"
        code = _status(exc)
        what = f"HTTP {code}" if code else type(exc).__name__
        return redact(f"{what}: {server_message(exc)}"[:300], self._key_or_empty())

    def _key_or_empty(self) -> str:
        try:
            return self.spec.api_key()
        except LLMConfigError:
            return ""

    def _translate(self, exc: BaseException, attempts: int) -> BaseException:
        spec = self.spec
        status_err, conn_err, timeout_err = _sdk_errors(spec.provider)
        where = f" at base_url {spec.effective_base_url()}" if spec.effective_base_url() else ""
        ctx: _ErrorContext = {"provider": spec.provider, "model": spec.model,
                              "attempts": attempts}
        key = self._key_or_empty()
        if isinstance(exc, LLMError):
            return exc
        if isinstance(exc, status_err):
            code = _status(exc)
            said = redact(server_message(exc)[:300], key)
            if code in CONFIG_STATUS:
                hint = ("check the model name and base_url" if code == 404 else
                        f"check the API key in the environment variable {spec.api_key_env}")
                return LLMConfigError(
                    f"{spec.provider} model {spec.model!r}{where}: HTTP {code} "
                    f"({CONFIG_STATUS[code]}) — {hint} (key from ${spec.api_key_env}). "
                    f"Server said: {said}", status=code, **ctx)
            return LLMError(f"{spec.label}: HTTP {code} after {attempts} attempt(s): {said}",
                            status=code, **ctx)
        if isinstance(exc, timeout_err):
            return LLMError(f"{spec.label}: timed out after {spec.timeout_s}s on each of "
                            f"{attempts} attempt(s){where}", **ctx)
        if isinstance(exc, conn_err):
            return LLMError(f"{spec.label}: could not connect{where} "
                            f"({attempts} attempt(s))", **ctx)
        if isinstance(exc, (json.JSONDecodeError, ValidationError, ValueError)) or \
                type(exc).__name__ == "APIResponseValidationError":
            return LLMResponseError(
                f"{spec.label}: the server's response is not valid JSON or not in the "
                f"{spec.provider} format{where}: {redact(str(exc)[:200], key)}", **ctx)
        return exc

    # ------------------------------------------------------------ the call
    async def chat(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None,
                   *, json_schema: dict[str, Any] | None = None, json_mode: bool = False,
                   temperature: float | None = None, max_tokens: int | None = None) -> ChatResult:
        """One model turn. ``messages``/``tools`` in the neutral format of ``asuka.llm``;
        ``json_schema`` asks for structured output (OpenAI ``response_format``; Anthropic
        via the system prompt) — read it with ``result.parse_json()``."""
        build = openai_request if self.spec.provider == "openai" else anthropic_request
        kwargs = build(self.spec, messages, tools, json_schema, json_mode, temperature, max_tokens)
        attempts = 0
        t0 = time.monotonic()
        retrying = AsyncRetrying(stop=stop_after_attempt(1 + self.spec.max_retries),
                                 wait=self._wait, retry=retry_if_exception(self._retryable),
                                 before_sleep=self._before_sleep, reraise=True)
        try:
            async for attempt in retrying:
                with attempt:
                    attempts += 1
                    resp = await self._call_once(kwargs)
        except Exception as exc:  # noqa: BLE001 - translated, key-free, cause dropped
            raise self._translate(exc, attempts) from None
        parse = openai_result if self.spec.provider == "openai" else anthropic_result
        try:
            result = parse(resp, self.spec)
        except LLMError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc, attempts) from None
        result.usage.latency_s = time.monotonic() - t0
        result.usage = self._record(result.usage)
        result.attempts = attempts
        return result
