"""What a grounding model is told and what it may answer: the system prompts, the user prompts of
a miss (with the accessibility snapshot trimmed to a budget) and of a wording, the JSON schemas
of the replies and their pydantic validation.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from asuka.schema import Locator
from asuka.uiagents.grounding._types import Miss, Wording

SNAPSHOT_CHARS = 12_000   # about 3k tokens of accessibility tree per grounding call
LINE_CHARS = 200
REASON_CHARS = 300


def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    return value


def one_line(text: Any) -> str:
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
