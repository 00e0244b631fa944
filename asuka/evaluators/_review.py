"""The code engineer's LLM reviewer (``check: llm-review``): one call per criterion through
``asuka.llm`` with the persona, the query, the criterion and the numbered source; the verdict
counts only with evidence that cites an existing ``path:line`` of the source (the auditor's rule
for claims), else the criterion is not applicable ("inadmissible")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import jinja2
from pydantic import BaseModel, Field, ValidationError

from asuka.evaluators._checks import CodeInput, SourceFile
from asuka.llm import LLMClient, LLMResponseError
from asuka.usage import Usage

PROMPTS = Path(__file__).parent / "prompts"
SOURCE_CHARS = 60_000  # of source shown to the reviewer, in file order
CITATION = re.compile(r"^\s*([^:\s][^:]*):(\d+)\b")
REPLY_SCHEMA: dict[str, Any] = {
    "title": "code_review", "type": "object", "additionalProperties": False,
    "required": ["verdict", "reason", "evidence"],
    "properties": {"verdict": {"type": "string", "enum": ["pass", "fail"]},
                   "reason": {"type": "string"},
                   "evidence": {"type": "array", "items": {"type": "string"}}}}


class Review(BaseModel):
    verdict: Literal["pass", "fail"]
    reason: str = ""
    evidence: list[str] = Field(default_factory=list)


@dataclass
class _Shown:
    rel: str
    lines: list[str]


def _shown(files: list[SourceFile], limit: int) -> tuple[list[_Shown], bool]:
    out, used = [], 0
    for f in files:
        if used >= limit:
            return out, True
        text = f.text[: limit - used]
        used += len(text)
        out.append(_Shown(f.rel, text.splitlines()))
    return out, False


def admissible(evidence: list[str], files: list[SourceFile]) -> list[str]:
    """The citations that name an existing file and one of its lines, and, when they quote
    it, quote that line."""
    lines = {f.rel: f.text.splitlines() for f in files}
    ok = []
    for e in evidence:
        m = CITATION.match(e)
        if not m or m.group(1) not in lines or not 1 <= int(m.group(2)) <= len(lines[m.group(1)]):
            continue
        quoted = e[m.end():].lstrip(":").strip()
        if quoted and " ".join(quoted.split()) not in " ".join(
                lines[m.group(1)][int(m.group(2)) - 1].split()):
            continue
        ok.append(e.strip())
    return ok


class Reviewer:
    def __init__(self, model: Any) -> None:
        self.client = LLMClient(model, role="ui-agent")  # part of the evaluation's cost
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(PROMPTS)),
                                 undefined=jinja2.StrictUndefined, autoescape=False)
        self.template = env.get_template("code_review.j2")

    async def review(self, persona: str, criterion: str, code: CodeInput
                     ) -> tuple[str, str, list[str]]:
        files = code.files()
        shown, truncated = _shown(files, SOURCE_CHARS)
        prompt = self.template.render(persona=persona, query=code.query, criterion=criterion,
                                      files=shown, truncated=truncated, limit=SOURCE_CHARS)
        result = await self.client.chat([{"role": "user", "content": prompt}],
                                        json_schema=REPLY_SCHEMA, max_tokens=600)
        try:
            reply = Review.model_validate(result.parse_json())
        except (ValidationError, ValueError) as exc:
            raise LLMResponseError(f"unusable review: {str(exc).splitlines()[0]}") from None
        cited = admissible(reply.evidence, files)
        if not cited:
            return "na", f"inadmissible: {reply.verdict} without a file:line citation of the " \
                         f"source ({reply.reason})", list(reply.evidence[:3])
        return reply.verdict, reply.reason, cited

    def usage(self) -> list[Usage]:
        total = self.client.total_usage
        return [total] if total.calls else []
