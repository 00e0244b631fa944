"""The template user: executed failures -> feedback text, through Jinja2 templates.

Templates live in feedback_templates/ (``low``, ``medium``, ``high`` verbosity, plus
``deploy_failed`` and ``all_passed``); a user can point ``template_dir`` at their own."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from asuka.protocol.dag import feedback_view
from asuka.schema import RoundEvaluation, Task
from asuka.users import registry
from asuka.users.base import FeedbackResult, failures_for_feedback
from asuka.vocabulary import VERBOSITIES

DEFAULT_TEMPLATES = Path(__file__).resolve().parents[2] / "feedback_templates"
VERBOSITY = VERBOSITIES


def _observed(reason: str, prefix: str | None = None) -> str:
    """A verdict reason in a user's words: drop the scripted step's description (which may
    itself contain ': '), keep what was seen."""
    reason = reason.strip()
    if prefix and reason.startswith(prefix):
        reason = reason[len(prefix):].lstrip(": ").strip() or reason
    return reason[:300]


def _step_prefix(criterion, step: int | None) -> str | None:
    if step is None or not criterion.check or step >= len(criterion.check):
        return None
    return f"step {step + 1} {criterion.check[step].describe()}"


class TemplateUser:
    name = "template"

    def __init__(self, verbosity: str = "low", template_dir: str | Path | None = None) -> None:
        if verbosity not in VERBOSITY:
            raise ValueError(f"unknown verbosity {verbosity!r}; known: {', '.join(VERBOSITY)}")
        self.verbosity = verbosity
        self.env = Environment(loader=FileSystemLoader(str(template_dir or DEFAULT_TEMPLATES)),
                               undefined=StrictUndefined, keep_trailing_newline=True,
                               trim_blocks=False, autoescape=False)

    def render(self, task: Task, evaluation: RoundEvaluation) -> str:
        if not evaluation.deploy_ok:
            return self.env.get_template("deploy_failed.md.j2").render(
                error=evaluation.deploy_error or "unknown error", log_tail=None)
        failures = failures_for_feedback(task, evaluation)
        if not failures:
            return self.env.get_template("all_passed.md.j2").render()
        numbers = {et.id: i for i, et in enumerate(task.eval_tasks)}
        view = feedback_view(evaluation)
        rows, groups = [], {}
        for f in failures:
            prefix = _step_prefix(f.eval_task.criteria[f.index], f.verdict.step)
            row = {"task_no": numbers[f.eval_task.id], "index": f.index,
                   "criterion_text": f.criterion_text,
                   "observed": _observed(f.verdict.reason, prefix)}
            rows.append(row)
            ev = view[f.eval_task.id].evidence
            g = groups.setdefault(f.eval_task.id, {
                "task_no": row["task_no"], "summary": f.eval_task.summary,
                "type": f.eval_task.type, "failures": [],
                "console_errors": (ev.console_errors[:5] if ev else []),
                "failed_requests": (ev.failed_requests[:5] if ev else [])})
            g["failures"].append(row)
        return self.env.get_template(f"{self.verbosity}.md.j2").render(
            failures=rows, groups=list(groups.values())).strip() + "\n"

    async def feedback(self, task: Task, evaluation: RoundEvaluation, round: int
                       ) -> FeedbackResult:
        return FeedbackResult(text=self.render(task, evaluation))


@registry.register("template")
def _factory(verbosity: str = "low", template_dir: str | None = None, **_: object
             ) -> TemplateUser:
    return TemplateUser(verbosity=verbosity, template_dir=template_dir)
