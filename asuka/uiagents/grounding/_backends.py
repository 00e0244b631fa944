"""The grounding backends by name (``make``, ``registry``): ``none`` (the miss decides) and ``llm``
(one text-only call per miss or wording, its reply validated and cached).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from asuka.llm import LLMClient, LLMError, LLMResponseError, ModelSpec
from asuka.registry import Registry
from asuka.schema import CheckStep, Locator
from asuka.uiagents.grounding._cache import GroundingCache, cache_key
from asuka.uiagents.grounding._prompt import (
    GROUND_SYSTEM,
    GROUNDING_SCHEMA,
    JUDGE_SCHEMA,
    JUDGE_SYSTEM,
    REPLAN_SCHEMA,
    REPLAN_SYSTEM,
    SNAPSHOT_CHARS,
    GroundingReply,
    JudgeReply,
    ReplanReply,
    ground_prompt,
    judge_prompt,
    one_line,
    replan_problems,
    replan_prompt,
)
from asuka.uiagents.grounding._types import (
    Answer,
    GroundingBackend,
    GroundingFailed,
    Judgement,
    Miss,
    Replan,
    Replanned,
    Wording,
)
from asuka.usage import Usage

ROLE = "ui-agent"
# what a model backend is asked: a missed locator, a wording, a check to re-plan
KINDS = ("ground", "wording", "replan")

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

    async def replan(self, plan: Replan, scope: str) -> Replanned | None:
        return None


@registry.register("llm")
class LLMGrounding:
    """One text-only call per miss (and per wording); see the package docstring."""

    name = "llm"
    active = True

    def __init__(self, model: str | ModelSpec | dict | None = None,
                 cache: str | Path | None = None, snapshot_chars: int = SNAPSHOT_CHARS,
                 kinds: list[str] | None = None) -> None:
        self.kinds = frozenset(kinds or KINDS)
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
        if "ground" not in self.kinds:
            return Answer(reason="locator grounding is off")
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
        if "wording" not in self.kinds:
            return None
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

    async def replan(self, plan: Replan, scope: str) -> Replanned | None:
        """The check's actions rewritten for this app, every stated value kept; validated
        against the DSL and ``replan_problems`` before it may run."""
        if "replan" not in self.kinds:
            return None
        tried = ([] if plan.tried is None else  # a second request: another id
                 ["tried", str(plan.tried_step), *(st.describe() for st in plan.tried)])
        key = cache_key(scope, plan.criterion_id, plan.step, "replan", self.spec.label,
                        plan.criterion_text, *(st.describe() for st in plan.steps), *tried)
        hit = self.cache.get(key)
        if hit is not None:
            steps = hit.get("steps")
            parsed = (None if steps in (None, "absent") else
                      [CheckStep.model_validate(st) for st in steps])
            # validated again on reading: a cache never outlives a stricter rule
            problems = replan_problems(plan.steps, parsed, plan.step) if parsed else []
            return Replanned(
                steps=None if problems else parsed, absent=steps == "absent",
                reason=one_line(f"rejected: {'; '.join(problems)}") if problems else
                hit.get("reason", ""), model=self.spec.label, cached=True)
        data, usage, why = await self._call(REPLAN_SYSTEM,
                                            replan_prompt(plan, self.snapshot_chars),
                                            REPLAN_SCHEMA)
        tokens = (usage.input_tokens + usage.output_tokens) if usage else 0
        out = Replanned(model=self.spec.label, tokens=tokens, usage=usage, reason=why or "")
        if why is not None:
            return out
        try:
            reply = ReplanReply.parse(data)
        except ValidationError as exc:
            first = exc.errors()[0] if exc.errors() else {}
            out.reason = one_line(f"unusable reply: {first.get('msg', exc)}")
            return out
        out.reason = one_line(reply.reason)
        if reply.steps == "absent":
            out.absent = True
            stored: Any = "absent"
        else:
            problems = replan_problems(plan.steps, reply.steps, plan.step)
            if problems:
                out.reason = one_line(f"rejected: {'; '.join(problems)}")
                return out
            out.steps = reply.steps
            stored = [_yaml_step(st) for st in reply.steps]
        self.cache.put(key, {"steps": stored, "reason": out.reason, "tokens": tokens})
        return out


def _yaml_step(step: CheckStep) -> dict[str, Any]:
    return step.model_dump(exclude_defaults=True)


# a time of day a page shows ("Saved at 1:01:47 PM"): a request asked again a minute later is
# the same request, and its answer must be found by the same id
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?\b")


def request_id(system: str, prompt: str) -> str:
    """The id a file-backend request is queued and answered under: the request's text with
    the clock times the page showed left out."""
    stable = _CLOCK.sub("<time>", prompt)
    return hashlib.sha256((system + "\x00" + stable).encode()).hexdigest()[:16]


@registry.register("file")
class FileGrounding(LLMGrounding):
    """A grounding model that answers through files: a person, or a session playing the model,
    reads each unanswered request from ``queue`` (JSON lines: id, kind, system, prompt) and
    writes its reply to ``answers`` (JSON lines: id, reply); the next run takes the replies,
    validates them exactly as a model's, and caches them in ``cache``. With the cache alone it
    replays earlier answers offline; an unanswered request leaves the deterministic verdict."""

    name = "file"

    def __init__(self, model: str | ModelSpec | dict | None = None,
                 cache: str | Path | None = None, answers: str | Path | None = None,
                 queue: str | Path | None = None, snapshot_chars: int = SNAPSHOT_CHARS,
                 kinds: list[str] | None = None) -> None:
        from types import SimpleNamespace

        self.kinds = frozenset(kinds or KINDS)
        label = str(model) if isinstance(model, str) and model else "answers"
        self.spec = SimpleNamespace(label=f"file:{label}")  # type: ignore[assignment]
        self.cache = GroundingCache(cache)
        self.answers = Path(answers) if answers else None
        self.queue = Path(queue) if queue else None
        self.snapshot_chars = int(snapshot_chars)

    def preflight(self) -> None:
        pass

    def _replies(self) -> dict[str, Any]:
        import json

        if self.answers is None or not self.answers.is_file():
            return {}
        out: dict[str, Any] = {}
        for line in self.answers.read_text(encoding="utf-8").splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and "id" in rec:
                out[str(rec["id"])] = rec.get("reply")
        return out

    async def _call(self, system: str, prompt: str, schema: dict[str, Any]
                    ) -> tuple[Any, Usage | None, str | None]:
        import json

        rid = request_id(system, prompt)
        replies = self._replies()
        if rid in replies:
            return replies[rid], None, None
        if self.queue is not None:
            self.queue.parent.mkdir(parents=True, exist_ok=True)
            queued = self.queue.read_text(encoding="utf-8") if self.queue.is_file() else ""
            if f'"id": "{rid}"' not in queued:
                with self.queue.open("a", encoding="utf-8") as f:
                    f.write(json.dumps({"id": rid, "kind": schema.get("title"),
                                        "system": system, "prompt": prompt}) + "\n")
        return None, None, "no answer yet"
