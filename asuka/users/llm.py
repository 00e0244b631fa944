"""The "llm" user: a User LLM rewrites the executed failures into natural-language feedback.

The prompt is feedback_templates/user_llm.md.j2 (Jinja2). Each failure carries a reference in the
paper's style, "task X / crit Y" (X: the evaluation task's position in the task, Y: the
criterion's position in its evaluation task — the numbering of the template user). A guard checks that every reference
appears in the reply; if some are missing it asks once more with a corrective message, and if
they are still missing it appends them verbatim. What the guard did is returned in
``LLMFeedbackResult.guard`` (and kept in ``LLMUser.guard_log``); the loop stores it in the
round's user.json.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
from pydantic import Field

from asuka.llm import LLMClient, LLMConfigError, LLMError, ModelSpec
from asuka.schema import RoundEvaluation, Task
from asuka.users import registry
from asuka.users.base import Failure, FeedbackResult, failures_for_feedback

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "feedback_templates"
TEMPLATE_NAME = "user_llm.md.j2"
NO_PROBLEMS = "I tried everything I wanted to check and found no problems."


class LLMFeedbackResult(FeedbackResult):
    guard: dict[str, Any] = Field(default_factory=dict)


def task_refs(task: Task) -> dict[str, str]:
    """Evaluation task id -> the X of "task X": its position in ``task.eval_tasks``, as the
    template user numbers them (so both users name a failure alike)."""
    return {et.id: str(i) for i, et in enumerate(task.eval_tasks)}


def failure_ref(refs: dict[str, str], f: Failure) -> str:
    return f"task {refs.get(f.eval_task.id, f.eval_task.id)} / crit {f.index}"


def ref_present(text: str, ref: str) -> bool:
    x, y = re.fullmatch(r"task (.+) / crit (\d+)", ref).groups()  # type: ignore[union-attr]
    pat = rf"(?<![\w.-])task\s*{re.escape(x)}\s*/\s*crit(?:erion)?\s*{y}(?!\d)"
    return re.search(pat, text, flags=re.I) is not None


def verbatim(ref: str, f: Failure) -> str:
    reason = f.verdict.reason.strip()
    return f"- {ref} — {f.criterion_text.strip()}" + (f" (observed: {reason})" if reason else "")


def _tail(text: str, lines: int = 20, chars: int = 2500) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])[-chars:]


class LLMUser:
    name = "llm"

    def __init__(self, model: str | ModelSpec | dict, *, template: str | Path | None = None,
                 verbosity: str = "low", max_tokens: int | None = None,
                 temperature: float | None = None) -> None:
        self.client = LLMClient(ModelSpec.coerce(model), role="user")
        path = Path(template) if template else TEMPLATE_DIR / TEMPLATE_NAME
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(path.parent)),
                                 undefined=jinja2.StrictUndefined, autoescape=False,
                                 keep_trailing_newline=True)
        self.template = env.get_template(path.name)
        self.verbosity = verbosity
        self.max_tokens, self.temperature = max_tokens, temperature
        self.guard_log: list[dict[str, Any]] = []

    def render(self, task: Task, evaluation: RoundEvaluation, round: int,
               failures: list[Failure] | None = None) -> str:
        failures = failures_for_feedback(task, evaluation) if failures is None else failures
        refs = task_refs(task)
        items = [{"ref": failure_ref(refs, f), "task_summary": f.eval_task.summary,
                  "criterion": f.criterion_text, "reason": f.verdict.reason}
                 for f in failures]
        return self.template.render(task=task, round=round, failures=items,
                                    deploy_ok=evaluation.deploy_ok,
                                    deploy_error=_tail(evaluation.deploy_error or "", 60, 4000),
                                    verbosity=self.verbosity)

    async def _ask(self, messages: list[dict[str, Any]]) -> str:
        res = await self.client.chat(messages, max_tokens=self.max_tokens,
                                     temperature=self.temperature)
        return res.text.strip()

    async def feedback(self, task: Task, evaluation: RoundEvaluation,
                       round: int) -> LLMFeedbackResult:
        self.client.round = round
        failures = failures_for_feedback(task, evaluation)
        guard: dict[str, Any] = {"round": round, "fired": False, "retried": False,
                                 "missing_first": [], "missing_after_retry": [], "appended": []}
        if evaluation.deploy_ok and not failures:
            return self._done(NO_PROBLEMS, guard)
        refs = task_refs(task)
        wanted = [(failure_ref(refs, f), f) for f in failures]
        messages = [{"role": "user", "content": self.render(task, evaluation, round, failures)}]
        try:
            text = await self._ask(messages)
        except LLMConfigError:
            raise
        except LLMError as exc:  # keep the loop going with the plain failure list
            guard.update(fired=True, llm_error=str(exc))
            text = ""
        if not evaluation.deploy_ok:
            return self._done(self._with_build_log(text, evaluation), guard)
        missing = [(r, f) for r, f in wanted if not ref_present(text, r)]
        if missing and "llm_error" not in guard:
            guard.update(fired=True, retried=True, missing_first=[r for r, _ in missing])
            fix = ("Your feedback left out these problems: "
                   + "; ".join(r for r, _ in missing)
                   + ". Write the complete feedback again: one bullet for EVERY problem in my "
                     "list, each starting with its exact reference (\"task X / crit Y\").")
            try:
                second = await self._ask(messages + [{"role": "assistant", "content": text},
                                                     {"role": "user", "content": fix}])
            except LLMConfigError:
                raise
            except LLMError as exc:
                guard["llm_error"] = str(exc)
                second = ""
            missing2 = [(r, f) for r, f in wanted if not ref_present(second, r)]
            if second and len(missing2) <= len(missing):
                text, missing = second, missing2
            guard["missing_after_retry"] = [r for r, _ in missing]
        if missing:
            guard["fired"] = True
            guard["appended"] = [r for r, _ in missing]
            extra = "\n".join(verbatim(r, f) for r, f in missing)
            text = f"{text}\n{extra}".strip() if text else extra
        return self._done(text, guard)

    def _with_build_log(self, text: str, evaluation: RoundEvaluation) -> str:
        log = _tail(evaluation.deploy_error or "")
        last = next((ln.strip() for ln in reversed(log.splitlines()) if ln.strip()), "")
        if not text:
            text = "The app does not build or start, so I could not open it at all."
        if last and last not in text:
            text += f"\n\nBuild/start output (last lines):\n```\n{log}\n```"
        return text

    def _done(self, text: str, guard: dict[str, Any]) -> LLMFeedbackResult:
        self.guard_log.append(guard)
        usage = self.client.usage_by_round.get(guard["round"])
        return LLMFeedbackResult(text=text, usage=[usage] if usage else [], guard=guard,
                                 meta={"guard": guard})


@registry.register("llm")
def make_llm_user(model: str | ModelSpec | dict, template: str | None = None,
                  verbosity: str = "low", **options: Any) -> LLMUser:
    return LLMUser(model, template=template, verbosity=verbosity, **options)
