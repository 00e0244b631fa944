"""The grounding backends by name (``make``, ``registry``): ``none`` (the miss decides) and ``llm``
(one text-only call per miss or wording, its reply validated and cached).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from asuka.llm import LLMClient, LLMError, LLMResponseError, ModelSpec
from asuka.registry import Registry
from asuka.schema import Locator
from asuka.uiagents.grounding._cache import GroundingCache, cache_key
from asuka.uiagents.grounding._prompt import (
    GROUND_SYSTEM,
    GROUNDING_SCHEMA,
    JUDGE_SCHEMA,
    JUDGE_SYSTEM,
    SNAPSHOT_CHARS,
    GroundingReply,
    JudgeReply,
    ground_prompt,
    judge_prompt,
    one_line,
)
from asuka.uiagents.grounding._types import (Answer, GroundingBackend, GroundingFailed, Judgement,
                                             Miss, Wording)
from asuka.usage import Usage

ROLE = "ui-agent"

registry: Registry[GroundingBackend] = Registry("grounding")


def make(grounding: str | dict | None, model: str | ModelSpec | dict | None = None,
         cache: str | Path | None = None, **options: Any) -> GroundingBackend:
    """``None``/``"none"`` -> the miss decides; ``"llm"`` (needs ``model``); a dict
    ``{"backend": "llm", "model": ..., "cache": ..., "snapshot_chars": ...}``."""
    if isinstance(grounding, dict):
        spec = dict(grounding)
        name = spec.pop("backend", spec.pop("name", "llm"))
        model = spec.pop("model", model)
        cache = spec.pop("cache", cache)
        options = {**options, **spec}
    else:
        name = ("none" if grounding in (None, False, "") else
                "llm" if grounding is True else str(grounding))
    if name == "none":
        return registry.get("none")
    return registry.get(name, model=model, cache=cache, **options)


@registry.register("none")
class NoGrounding:
    """Offline: the miss decides (today's scripted verdict, no call)."""

    name = "none"
    active = False

    def preflight(self) -> None:
        pass

    async def ground(self, miss: Miss, scope: str) -> Answer:
        return Answer(reason="no grounding backend")

    async def judge_wording(self, wording: Wording, scope: str) -> Judgement | None:
        return None


@registry.register("llm")
class LLMGrounding:
    """One text-only call per miss (and per wording); see the package docstring."""

    name = "llm"
    active = True

    def __init__(self, model: str | ModelSpec | dict | None = None,
                 cache: str | Path | None = None, snapshot_chars: int = SNAPSHOT_CHARS) -> None:
        if model is None:
            raise ValueError("grounding 'llm' needs a model: grounding_model=PROVIDER:MODEL")
        self.spec = ModelSpec.coerce(model)
        self.client = LLMClient(self.spec, role=ROLE)
        self.cache = GroundingCache(cache)
        self.snapshot_chars = int(snapshot_chars)

    def preflight(self) -> None:
        self.client.preflight()

    async def _call(self, system: str, prompt: str, schema: dict[str, Any]
                    ) -> tuple[Any, Usage | None, str | None]:
        """(parsed JSON or None, usage, why unusable)."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": prompt}]
        try:
            result = await self.client.chat(messages, json_schema=schema)
        except LLMResponseError as exc:
            return None, None, f"unusable reply: {one_line(exc)}"
        except LLMError as exc:
            raise GroundingFailed(f"{self.spec.label}: {exc}") from None
        try:
            return result.parse_json(), result.usage, None
        except LLMResponseError:
            return None, result.usage, f"unusable reply (not JSON): {one_line(result.text)}"

    async def ground(self, miss: Miss, scope: str) -> Answer:
        step = miss.steps[miss.step]
        key = cache_key(scope, miss.criterion_id, miss.step, "ground", self.spec.label,
                        miss.criterion_text, step.describe())
        hit = self.cache.get(key)
        if hit is not None:
            loc = hit.get("locator")
            return Answer(locator=None if loc in (None, "absent") else Locator.model_validate(loc),
                          absent=loc == "absent", reason=hit.get("reason", ""),
                          model=self.spec.label, cached=True)
        data, usage, why = await self._call(GROUND_SYSTEM,
                                            ground_prompt(miss, self.snapshot_chars),
                                            GROUNDING_SCHEMA)
        tokens = (usage.input_tokens + usage.output_tokens) if usage else 0
        answer = Answer(model=self.spec.label, tokens=tokens, usage=usage, reason=why or "")
        if why is not None:
            return answer
        try:
            reply = GroundingReply.parse(data)
        except ValidationError as exc:
            first = exc.errors()[0] if exc.errors() else {}
            answer.reason = one_line(f"unusable reply: {first.get('msg', exc)}: {data!r}")
            return answer
        answer.reason = one_line(reply.reason)
        if reply.locator == "absent":
            answer.absent = True
        else:
            answer.locator = reply.locator
        self.cache.put(key, {"locator": "absent" if answer.absent else
                             answer.locator.model_dump(exclude_defaults=True),  # type: ignore
                             "reason": answer.reason, "tokens": tokens})
        return answer

    async def judge_wording(self, w: Wording, scope: str) -> Judgement | None:
        key = cache_key(scope, w.criterion_id, w.index, "wording", self.spec.label,
                        w.criterion_text, w.step.describe(), w.observed)
        hit = self.cache.get(key)
        if hit is not None:
            return Judgement(passed=bool(hit.get("passed")), reason=hit.get("reason", ""),
                             model=self.spec.label, cached=True)
        data, usage, why = await self._call(JUDGE_SYSTEM, judge_prompt(w), JUDGE_SCHEMA)
        tokens = (usage.input_tokens + usage.output_tokens) if usage else 0
        out = Judgement(model=self.spec.label, tokens=tokens, usage=usage, reason=why or "")
        if why is not None:
            return out
        try:
            reply = JudgeReply.model_validate(data)
        except ValidationError:
            out.reason = one_line(f"unusable reply: {data!r}")
            return out
        out.passed, out.reason = reply.passed, one_line(reply.reason)
        self.cache.put(key, {"passed": reply.passed, "reason": out.reason, "tokens": tokens})
        return out
