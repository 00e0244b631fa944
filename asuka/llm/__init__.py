"""One LLM client over the official openai and anthropic SDKs.

    from asuka.llm import LLMClient, ModelSpec
    client = LLMClient(ModelSpec.parse("openai:gpt-4o-mini"), role="user")
    client.round = 2
    result = await client.chat([{"role": "user", "content": "hi"}])
    result.text, result.tool_calls, result.stop_reason, result.usage

Messages and tools use a provider-neutral format (see ``asuka.llm.providers``); tool calls come
back normalised as ``[{"id", "name", "arguments": dict}]`` for both providers. Keys come only
from the environment variable named by ``ModelSpec.api_key_env``.
"""

from asuka.llm.client import LLMClient, retry_after_s
from asuka.llm.prices import PRICES, cost_usd
from asuka.llm.providers import ChatResult
from asuka.llm.spec import (
    LLMConfigError,
    LLMError,
    LLMResponseError,
    ModelSpec,
    redact,
)

__all__ = [
    "PRICES",
    "ChatResult",
    "LLMClient",
    "LLMConfigError",
    "LLMError",
    "LLMResponseError",
    "ModelSpec",
    "cost_usd",
    "redact",
    "retry_after_s",
]
