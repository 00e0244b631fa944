"""Which model to call and how: ModelSpec, the errors the client raises, and key redaction."""

from __future__ import annotations

import os
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from asuka.errors import SetupError

Provider = Literal["openai", "anthropic"]
PROVIDERS: tuple[str, ...] = ("openai", "anthropic")
DEFAULT_KEY_ENV = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
BASE_URL_ENV = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
# Sent when a self-hosted OpenAI-compatible server (vLLM, Ollama, ...) needs no key.
NO_KEY_PLACEHOLDER = "EMPTY"


class LLMError(RuntimeError):
    """A call failed for good (after retries where retrying made sense)."""

    def __init__(self, message: str, *, provider: str = "", model: str = "",
                 status: int | None = None, attempts: int = 0) -> None:
        super().__init__(message)
        self.provider, self.model, self.status, self.attempts = provider, model, status, attempts


class LLMConfigError(LLMError, SetupError):
    """Wrong key, model name or base URL (401/403/404, or no key at all): never retried, and a
    setup error of the cell (never scored)."""


class LLMResponseError(LLMError):
    """The server answered with something that is not a usable response (e.g. not JSON)."""


class ModelSpec(BaseModel):
    """A model and its call settings.

    ``base_url`` None lets the SDK decide (its default, or OPENAI_BASE_URL / ANTHROPIC_BASE_URL).
    For an OpenAI-compatible server (vLLM, Ollama, LiteLLM) use provider ``openai`` and its
    ``.../v1`` URL. ``max_retries`` counts retries after the first attempt. ``price`` overrides
    the price table for this model ($ per million tokens: input, cached_input, output).
    """

    model_config = ConfigDict(extra="forbid")

    provider: Provider
    model: str = Field(min_length=1)
    base_url: str | None = None
    api_key_env: str = ""
    temperature: float | None = None
    max_tokens: int = 4096
    timeout_s: float = 120.0
    max_retries: int = Field(default=5, ge=0)
    backoff_s: float = 1.0            # first exponential-backoff wait
    backoff_max_s: float = 60.0
    retry_after_cap_s: float = 60.0   # never wait longer than this for a Retry-After
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] | None = None
    extra_body: dict[str, Any] = Field(default_factory=dict)
    price: dict[str, float] | None = None

    @model_validator(mode="after")
    def _defaults(self) -> ModelSpec:
        if not self.api_key_env:
            self.api_key_env = DEFAULT_KEY_ENV[self.provider]
        if self.base_url:
            self.base_url = self.base_url.rstrip("/")
        return self

    @classmethod
    def parse(cls, text: str, **overrides: Any) -> ModelSpec:
        """``openai:gpt-4o-mini``, ``anthropic:claude-sonnet-4-5``,
        ``openai:qwen2.5:7b@http://127.0.0.1:8000/v1``. Without a known provider prefix the
        provider is guessed (``claude*`` -> anthropic, else openai)."""
        s = text.strip()
        base_url = None
        m = re.search(r"@(https?://\S+)$", s)
        if m:
            base_url, s = m.group(1), s[: m.start()]
        provider, sep, model = s.partition(":")
        if not sep or provider not in PROVIDERS:
            provider, model = ("anthropic" if s.startswith("claude") else "openai"), s
        data: dict[str, Any] = {"provider": provider, "model": model, "base_url": base_url}
        data.update(overrides)
        return cls(**data)

    @classmethod
    def coerce(cls, value: str | ModelSpec | dict[str, Any], **overrides: Any) -> ModelSpec:
        if isinstance(value, ModelSpec):
            return value.model_copy(update=overrides) if overrides else value
        if isinstance(value, dict):
            return cls(**{**value, **overrides})
        return cls.parse(value, **overrides)

    @property
    def label(self) -> str:
        return f"{self.provider}:{self.model}" + (f"@{self.base_url}" if self.base_url else "")

    def effective_base_url(self) -> str | None:
        return self.base_url or os.environ.get(BASE_URL_ENV[self.provider]) or None

    def api_key(self) -> str:
        """The key from the environment (never stored on the spec). A custom base URL without a
        key gets a placeholder, since local servers usually need none."""
        key = os.environ.get(self.api_key_env, "").strip()
        if key:
            return key
        if self.effective_base_url():
            return NO_KEY_PLACEHOLDER
        raise LLMConfigError(
            f"{self.provider} model {self.model!r}: no API key — set the environment variable "
            f"{self.api_key_env}", provider=self.provider, model=self.model)

    def __str__(self) -> str:
        return self.label


_KEYLIKE = re.compile(r"(?:sk-[A-Za-z0-9_\-*.]{6,}|Bearer\s+\S+|(?<=x-api-key: )\S+)")


def redact(text: str, *secrets: str) -> str:
    """Remove the given secrets and anything that looks like an API key from ``text``."""
    for s in secrets:
        if s and len(s) >= 4 and s != NO_KEY_PLACEHOLDER:
            text = text.replace(s, "[redacted]")
    return _KEYLIKE.sub("[redacted]", text)
