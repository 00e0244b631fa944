"""Grounding backends: a scripted check's locator missed; what does the page call that element?

A backend receives a ``Miss`` (the criterion text, the check's steps, the index of the step whose
locator matched nothing, that locator, and the page's accessibility snapshot) and answers with a
replacement locator in our schema (``asuka.schema.Locator``), or "absent" when the page has no
such element, with a one-line reason. The scripted agent then re-runs the check with it, so the
assertions on values, counts and states stay deterministic (``asuka.uiagents.criterion``). The
``llm`` backend also judges wording (``judge_wording``): an ``expect_text`` that found its
element but not the exact words.

Backends, by name (``make``): ``none`` (the miss decides; never called) and ``llm`` (one
text-only call per miss through ``asuka.llm``, any OpenAI-compatible or Anthropic model; no
screenshots). A reply is validated with pydantic; an unusable one (not JSON, not a locator, the
very locator that missed) is recorded and the miss stands. An endpoint that fails for good raises
``GroundingFailed`` (the criterion's verdict is then ``error``: nothing was decided).

Cache. Answers are cached per (scope, criterion, step, kind, model, fingerprint): ``scope`` is
``artifact:<sha256 of the served workspace>`` (``asuka.evaluate`` passes it) or ``url:<base URL>``
without one; the fingerprint hashes the criterion text and the step (and, for a wording, the
expected and observed text), so an edited check never reuses an old answer. The cache lives in
memory on the backend (one per UI-agent object, so across the rounds of a cell) and, given
``cache=PATH``, in a JSON file read at start and rewritten (merged, atomically) on every new
answer. A cached answer costs nothing and is recorded with ``cached: true, tokens: 0``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from asuka.llm import LLMClient, LLMError, LLMResponseError, ModelSpec
from asuka.registry import Registry
from asuka.schema import CheckStep, Locator
from asuka.usage import Usage

log = logging.getLogger("asuka.uiagents.grounding")

ROLE = "ui-agent"
SNAPSHOT_CHARS = 12_000   # about 3k tokens of accessibility tree per grounding call
LINE_CHARS = 200
REASON_CHARS = 300
OBSERVED_CHARS = 2_000


class GroundingFailed(Exception):
    """The grounding model could not be reached or refused the call (after retries)."""


@dataclass
class Miss:
    criterion_id: str
    criterion_text: str
    steps: list[CheckStep]        # the check as it ran (earlier groundings applied)
    step: int                     # index of the step whose locator matched nothing
    snapshot: str                 # the page's accessibility snapshot (aria YAML)

    @property
    def locator(self) -> Locator:
        loc = self.steps[self.step].locator
        assert loc is not None
        return loc


@dataclass
class Wording:
    criterion_id: str
    criterion_text: str
    step: CheckStep
    index: int
    expected: str
    observed: str


@dataclass
class Answer:
    """A grounding: ``locator`` (a replacement), ``absent``, or neither (unusable)."""

    locator: Locator | None = None
    absent: bool = False
    reason: str = ""
    model: str | None = None
    tokens: int = 0
    cached: bool = False
    usage: Usage | None = None    # what this call billed (None when cached)


@dataclass
class Judgement:
    passed: bool | None = None    # None: the reply was unusable (the deterministic fail stands)
    reason: str = ""
    model: str | None = None
    tokens: int = 0
    cached: bool = False
    usage: Usage | None = None


class GroundingBackend(Protocol):
    name: str
    active: bool                  # False: the scripted agent never calls it

    def preflight(self) -> None: ...

    async def ground(self, miss: Miss, scope: str) -> Answer: ...

    async def judge_wording(self, wording: Wording, scope: str) -> Judgement | None: ...


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


# ---------------------------------------------------------------- the cache


class GroundingCache:
    """Answers by key, in memory and optionally in a JSON file (see the module docstring)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._entries: dict[str, dict[str, Any]] = {}
        if self.path is not None:
            self._entries.update(self._read())

    def _read(self) -> dict[str, dict[str, Any]]:
        assert self.path is not None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("grounding cache %s unreadable (%s): starting empty", self.path, exc)
            return {}
        entries = data.get("entries") if isinstance(data, dict) else None
        return {k: v for k, v in (entries or {}).items() if isinstance(v, dict)}

    def get(self, key: str) -> dict[str, Any] | None:
        return self._entries.get(key)

    def put(self, key: str, entry: dict[str, Any]) -> None:
        self._entries[key] = entry
        if self.path is None:
            return
        merged = {**self._read(), **self._entries}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"version": 1, "entries": merged}, indent=1, sort_keys=True),
                       encoding="utf-8")
        os.replace(tmp, self.path)

    def __len__(self) -> int:
        return len(self._entries)


def cache_key(scope: str, criterion_id: str, step: int, kind: str, model: str,
              *parts: str) -> str:
    fp = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:16]
    return f"{scope}|{criterion_id}|{step}|{kind}|{model}|{fp}"


# ---------------------------------------------------------------- replies


def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    return value


def _one_line(text: Any) -> str:
    line = " ".join(str(text or "").split())
    return line if len(line) <= REASON_CHARS else line[: REASON_CHARS - 1] + "…"


class GroundingReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    locator: Locator | Literal["absent"]
    reason: str = ""

    @classmethod
    def parse(cls, data: Any) -> GroundingReply:
        if isinstance(data, dict) and isinstance(data.get("locator"), dict):
            data = {**data, "locator": _drop_nulls(data["locator"])}
        if isinstance(data, dict) and isinstance(data.get("locator"), str):
            data = {**data, "locator": data["locator"].strip().lower()}
        return cls.model_validate(data)


class JudgeReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    passed: bool
    reason: str = ""


_STR = {"type": "string"}
LOCATOR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {**{k: _STR for k in ("role", "name", "label", "text", "placeholder", "alt",
                                        "title", "testid", "css")},
                   "exact": {"type": "boolean"}, "nth": {"type": "integer"},
                   "within": {"type": "object", "description": "a locator (same keys) to "
                                                               "search inside"}},
    "additionalProperties": False,
}
GROUNDING_SCHEMA: dict[str, Any] = {
    "title": "grounding", "type": "object",
    "properties": {"locator": {"anyOf": [LOCATOR_SCHEMA, {"type": "string", "enum": ["absent"]}]},
                   "reason": {"type": "string"}},
    "required": ["locator", "reason"], "additionalProperties": False,
}
JUDGE_SCHEMA: dict[str, Any] = {
    "title": "wording_judgement", "type": "object",
    "properties": {"passed": {"type": "boolean"}, "reason": {"type": "string"}},
    "required": ["passed", "reason"], "additionalProperties": False,
}

GROUND_SYSTEM = """\
You ground UI test steps on a web app that was built independently of the test. A scripted \
check's step used a locator that matched nothing on the page. Using the page's accessibility \
snapshot (Playwright aria snapshot, YAML), find the element the step means: the one a user \
would use for the step's purpose in this criterion, whatever the app calls it. Answer with a \
locator in this schema: exactly one of role (with an optional name), label, text, placeholder, \
alt, title, testid or css; optional exact (bool), nth (0-based) and within (another locator to \
search inside). Prefer role and name as the snapshot shows them; a value written /pattern/i is \
a regular expression. If the page has no element serving that purpose, answer "absent". Never \
pick an element only because it is near or similar: it must do what the step needs. Reply \
with JSON {"locator": {...} or "absent", "reason": "one line"}."""

JUDGE_SYSTEM = """\
You judge the wording of a web app that was built independently of its test. The test expected \
some text on an element; the element exists and shows different words. Decide whether the \
observed text satisfies the criterion as a user reading it would (same meaning, other words: \
pass; a different message, state or content: fail). Reply with JSON \
{"passed": true or false, "reason": "one line"}."""


def trim_snapshot(text: str, budget: int = SNAPSHOT_CHARS) -> str:
    """The snapshot within ``budget`` characters: long lines shortened, then the tail cut."""
    lines = [ln if len(ln) <= LINE_CHARS else ln[: LINE_CHARS - 1] + "…"
             for ln in text.splitlines()]
    out, used = [], 0
    for i, ln in enumerate(lines):
        if used + len(ln) + 1 > budget:
            out.append(f"# … {len(lines) - i} more line(s) left out")
            break
        out.append(ln)
        used += len(ln) + 1
    return "\n".join(out)


def ground_prompt(miss: Miss, budget: int = SNAPSHOT_CHARS) -> str:
    steps = "\n".join(f"{n + 1}. {s.describe()}" for n, s in enumerate(miss.steps))
    return (f"Criterion: {miss.criterion_text.strip()}\n\n"
            f"The check's steps:\n{steps}\n\n"
            f"Step {miss.step + 1} failed: no element matches {miss.locator.describe()}\n\n"
            f"Accessibility snapshot of the page at that moment:\n```yaml\n"
            f"{trim_snapshot(miss.snapshot, budget)}\n```")


def judge_prompt(w: Wording) -> str:
    return (f"Criterion: {w.criterion_text.strip()}\n"
            f"The test expected the element to show: {w.expected!r}\n"
            f"The element shows: {w.observed!r}")


# ---------------------------------------------------------------- the llm backend


@registry.register("llm")
class LLMGrounding:
    """One text-only call per miss (and per wording); see the module docstring."""

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
            return None, None, f"unusable reply: {_one_line(exc)}"
        except LLMError as exc:
            raise GroundingFailed(f"{self.spec.label}: {exc}") from None
        try:
            return result.parse_json(), result.usage, None
        except LLMResponseError:
            return None, result.usage, f"unusable reply (not JSON): {_one_line(result.text)}"

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
            answer.reason = _one_line(f"unusable reply: {first.get('msg', exc)}: {data!r}")
            return answer
        answer.reason = _one_line(reply.reason)
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
            out.reason = _one_line(f"unusable reply: {data!r}")
            return out
        out.passed, out.reason = reply.passed, _one_line(reply.reason)
        self.cache.put(key, {"passed": reply.passed, "reason": out.reason, "tokens": tokens})
        return out


def numeric(expected: str) -> bool:
    """An expected value with a digit (or a regex digit class) is a number or a date: its
    verdict stays deterministic."""
    return bool(re.search(r"\d", expected)) or "\\d" in expected


__all__ = ["Answer", "GroundingBackend", "GroundingCache", "GroundingFailed", "Judgement",
           "LLMGrounding", "Miss", "NoGrounding", "Wording", "make", "numeric", "registry",
           "trim_snapshot", "OBSERVED_CHARS"]
