"""What a grounding model is told and what it may answer: the system prompts, the user prompts of
a miss (with the accessibility snapshot trimmed to a budget) and of a wording, the JSON schemas
of the replies and their pydantic validation.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from asuka.schema import ASSERTION_PARAMS, CheckStep, Locator
from asuka.uiagents.grounding._types import Miss, Replan, Wording

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

REPLAN_SCHEMA: dict[str, Any] = {
    "title": "replan", "type": "object",
    "properties": {"steps": {"anyOf": [{"type": "array", "items": {"type": "object"}},
                                       {"type": "string", "enum": ["absent"]}]},
                   "reason": {"type": "string"}},
    "required": ["steps", "reason"], "additionalProperties": False,
}
# a re-planned check may not judge by script, nor leave the app; it may upload only the files
# the check itself uploads (``replan_problems``)
REPLAN_FORBIDDEN = frozenset({"eval"})

REPLAN_SYSTEM = """\
You adapt a UI test to a web app that was built independently of it. The test is a scripted \
check written for another implementation; on this app it could not be carried through (an \
element it names is missing, or a control is of another kind). Using the criterion and the \
page's accessibility snapshot, rewrite the check's ACTIONS so they do on this app what the \
criterion describes (open the control that reveals a choice, choose from buttons instead of \
a dropdown, find the records in a list instead of a table, ...). Keep every ASSERTION's \
expected value exactly as written (texts, amounts, counts, dates, states): you may change how \
an assertion finds its element, never what it expects. Steps use the same language as the \
check, one JSON object per step with one key: goto, reload, wait, click, dblclick, hover, \
check, uncheck, fill, select, press, set, choose, turn_on, turn_off, expect_visible, \
expect_hidden, expect_text, expect_value, expect_count, expect_attr; a step's mapping has a \
locator (exactly one of role (+ name), label, text, placeholder, alt, title, testid or css; \
optional exact, nth, within) plus its arguments (value, option, key, count, min, max, attr, \
contains). eval and upload are not allowed. The check starts on a fresh page of the app \
(goto / first). If the app has no such feature at all, answer "absent". Reply with JSON \
{"steps": [...] or "absent", "reason": "one line"}."""

JUDGE_SYSTEM = """\
You judge the wording of a web app that was built independently of its test. The test expected \
some text on an element; the element exists and shows different words (or the text was not \
found at all, and you are given the text of the region where it should appear). Decide whether \
the observed text satisfies the criterion as a user reading it would (same meaning, other \
words: pass; a different message, state or content, or a region that does not say it: fail). \
Reply with JSON {"passed": true or false, "reason": "one line"}."""


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
    if w.region:
        return (f"Criterion: {w.criterion_text.strip()}\n"
                f"The test expected the page to show: {w.expected!r}\n"
                f"It was not found in those words. The region where it should appear shows: "
                f"{w.observed!r}")
    return (f"Criterion: {w.criterion_text.strip()}\n"
            f"The test expected the element to show: {w.expected!r}\n"
            f"The element shows: {w.observed!r}")


class ReplanReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    steps: list[CheckStep] | Literal["absent"]
    reason: str = ""

    @classmethod
    def parse(cls, data: Any) -> ReplanReply:
        if isinstance(data, dict) and isinstance(data.get("steps"), str):
            data = {**data, "steps": data["steps"].strip().lower()}
        if isinstance(data, dict) and isinstance(data.get("steps"), list):
            data = {**data, "steps": [_drop_nulls(s) for s in data["steps"]]}
        return cls.model_validate(data)


# presence assertions whose locator's text is itself what they expect ("1 duplicate respondent
# skipped" is shown / is not shown)
TEXT_ASSERTIONS = frozenset({"expect_visible", "expect_hidden"})


def expectations(steps: list[CheckStep]) -> list[tuple[str, str]]:
    """What a check's assertions expect: (op, value) of every stated value, and the text a
    presence assertion looks for (a rewrite may find an element another way, never look for
    other words)."""
    out: list[tuple[str, str]] = []
    for s in steps:
        for k in ASSERTION_PARAMS.get(s.op, ()):
            if s.params.get(k) is not None:
                out.append((s.op, str(s.params[k])))
        if s.op in TEXT_ASSERTIONS and s.locator is not None and s.locator.text:
            out.append((s.op, str(s.locator.text)))
    return out


def replan_problems(original: list[CheckStep], steps: list[CheckStep], stopped: int = 0
                    ) -> list[str]:
    """Why a re-planned check may not stand: a forbidden step, no assertion, fewer assertions
    than the check had, an expected value dropped or changed, or a check that judges by script
    (``eval``) at or after the step where it stopped (a rewrite could not keep that judgement)."""
    problems = [f"step {s.op!r} is not allowed" for s in steps if s.op in REPLAN_FORBIDDEN]
    allowed = {f for s in original if s.op == "upload" for f in _files(s)}
    for s in steps:
        if s.op == "upload" and not set(_files(s)) <= allowed:
            problems.append(f"uploads {_files(s)}, which the check does not")
    if any(s.op == "eval" for s in original[stopped:]):
        problems.append("the check judges by script after where it stopped")
    asserts = [s for s in steps if s.op.startswith("expect_")]
    before = [s for s in original if s.op.startswith("expect_")]
    if not asserts:
        problems.append("no assertion")
    if len(asserts) < len(before):
        problems.append(f"{len(asserts)} assertion(s) where the check had {len(before)}")
    kept = expectations(steps)
    for op, value in expectations(original):
        if (op, value) not in kept:
            problems.append(f"the expected {value!r} ({op}) is not kept")
    for s in steps:
        if s.op == "goto" and isinstance(s.arg, str) and "://" in s.arg:
            problems.append("goto leaves the app")
    return problems


def _files(step: CheckStep) -> list[str]:
    files = step.params.get("files")
    return [str(f) for f in (files if isinstance(files, list) else [files])]


def replan_prompt(plan: Replan, budget: int = SNAPSHOT_CHARS) -> str:
    import json

    steps = "\n".join(json.dumps(_as_yaml_step(s)) for s in plan.steps)
    kept = "\n".join(f"- {op}: {v!r}" for op, v in expectations(plan.steps)) or "- (none)"
    uploads = sorted({f for s in plan.steps if s.op == "upload" for f in _files(s)})
    upload = (f"Exception to the rules above: this check uploads {', '.join(uploads)}; your "
              "rewrite must upload the same file(s) the same way (an upload step with these "
              "files) before it acts on their content.\n\n" if uploads else "")
    tried = ""
    if plan.tried is not None:
        lines = "\n".join(json.dumps(_as_yaml_step(s)) for s in plan.tried)
        where = "" if plan.tried_step is None else f" at its step {plan.tried_step + 1}"
        tried = (f"A first rewrite was tried (one step per line):\n{lines}\n\n"
                 f"It could not be carried through either: it stopped{where}: "
                 f"{plan.tried_failure}\nRewrite the check again for what the page shows "
                 "(the snapshot below is the page where that rewrite stopped), or answer "
                 "\"absent\".\n\n")
    return (f"Criterion: {plan.criterion_text.strip()}\n\n"
            f"The check as written (one step per line):\n{steps}\n\n"
            f"It stopped at step {plan.step + 1}: {plan.failure}\n\n{tried}"
            f"Expected values every rewrite must keep, unchanged:\n{kept}\n\n{upload}"
            f"Accessibility snapshot of the page at that moment:\n```yaml\n"
            f"{trim_snapshot(plan.snapshot, budget)}\n```")


def _as_yaml_step(s: CheckStep) -> dict[str, Any]:
    """A step as the check's YAML writes it (one key)."""
    if s.locator is None and not s.params:
        return {s.op: s.arg}
    body = s.locator.model_dump(exclude_defaults=True) if s.locator else {}
    return {s.op: {**body, **s.params}}
