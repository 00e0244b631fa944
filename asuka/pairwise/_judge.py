"""The pairwise judges by name: ``llm`` (a vision model through ``asuka.llm``: both screenshots in
one message, asked which presents the task's aspects better).

A judge answers for one ordering of the two images (``first`` / ``second`` / ``same``); the stage
(``asuka.pairwise._stage``) asks for both orderings and combines them, so a judge's preference
for a position cannot decide a verdict."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any, Literal, Protocol

import jinja2
from pydantic import BaseModel, ValidationError

from asuka.llm import LLMClient, LLMResponseError, ModelSpec
from asuka.registry import Registry
from asuka.schema import PairwiseTask
from asuka.usage import Usage

ROLE = "ui-agent"  # the judge is part of the evaluation's cost
PROMPTS = Path(__file__).parent / "prompts"
Answer = Literal["first", "second", "same"]


class PairwiseJudge(Protocol):
    name: str

    def preflight(self) -> None: ...

    async def judge(self, task: PairwiseTask, query: str, first: bytes, second: bytes,
                    notes: list[str]) -> tuple[Answer, str]:
        """Which of two PNG screenshots presents ``task``'s aspects better, and why."""
        ...

    def usage(self) -> list[Usage]: ...


registry: Registry[PairwiseJudge] = Registry("pairwise judge")


class JudgeReply(BaseModel):
    better: Answer
    reason: str = ""


REPLY_SCHEMA: dict[str, Any] = {
    "title": "pairwise_judgement", "type": "object", "additionalProperties": False,
    "required": ["better", "reason"],
    "properties": {"better": {"type": "string", "enum": ["first", "second", "same"]},
                   "reason": {"type": "string"}}}


def _template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(PROMPTS)),
                             undefined=jinja2.StrictUndefined, autoescape=False,
                             keep_trailing_newline=True)
    return env.get_template("judge.j2")


def _image(png: bytes) -> dict[str, str]:
    return {"type": "image", "media_type": "image/png",
            "data": base64.b64encode(png).decode("ascii")}


@registry.register("llm")
class LLMPairwiseJudge:
    """One vision call per ordering; the reply is validated (an unusable reply is an error)."""

    name = "llm"

    def __init__(self, model: str | ModelSpec | dict) -> None:
        self.client = LLMClient(model, role=ROLE)
        self.label = f"llm:{self.client.spec.provider}:{self.client.spec.model}"
        self._template = _template()

    def preflight(self) -> None:
        self.client.preflight()

    async def judge(self, task: PairwiseTask, query: str, first: bytes, second: bytes,
                    notes: list[str]) -> tuple[Answer, str]:
        prompt = self._template.render(task=task, view=task.view, query=query, notes=notes)
        messages = [{"role": "user", "content": [{"type": "text", "text": prompt},
                                                 _image(first), _image(second)]}]
        result = await self.client.chat(messages, json_schema=REPLY_SCHEMA, max_tokens=400)
        try:
            reply = JudgeReply.model_validate(result.parse_json())
        except (ValidationError, ValueError) as exc:
            raise LLMResponseError(f"{self.client.spec.label}: unusable pairwise judgement: "
                                   f"{str(exc).splitlines()[0]}") from None
        return reply.better, reply.reason.strip()

    def usage(self) -> list[Usage]:
        total = self.client.total_usage
        return [total] if total.calls else []
